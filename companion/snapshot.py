"""A snapshot: the whole game as the phones show it at one moment, and what each viewer may see.

It is the `replay --json` object plus what a page needs beside it: the history with what each
action paid and how it was corrected (read from the store's records), the actions open to the
player to act, what each player would be paid if the leg ended now, and the odds once they
are known. A snapshot cannot be changed once built (its view is frozen through: FrozenDict,
FrozenList); every viewer gets a copy with the overall winner/loser cards (Camel Up Cards: the
final betting cards) masked (`camel` null) until the race ends, except their own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from companion.game import Game
from companion.rules import GameState
from companion.store import GAME_CHANGES, Record

HIDDEN_ACTIONS = ("race_bet", "final_bet")
"""The actions whose colour stays face down until the race ends: an overall bet (the board
games) and a final betting card (Camel Up Cards)."""


def _refuse(*args: Any, **kwargs: Any) -> NoReturn:
    """What every changing method of a frozen dict or list does."""
    raise TypeError("a published snapshot cannot be changed: copy what you need")


class FrozenDict(dict[str, Any]):
    """A dict that refuses every change: a published snapshot's objects.

    Still a dict, so `json.dumps` writes it byte for byte as before, `==` compares it with any
    dict, and `dict(d)`, `{**d, ...}` or `copy.deepcopy(d)` makes a plain one to change."""

    __slots__ = ()

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return dict, (dict(self),)


class FrozenList(list[Any]):
    """A list that refuses every change: a published snapshot's lists (see FrozenDict)."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type, tuple[list[Any]]]:
        return list, (list(self),)


def frozen(value: Any) -> Any:
    """`value` with every dict and list in it, however deep, made a FrozenDict or FrozenList;
    what is frozen already, and everything else JSON holds (text, numbers), is kept as is."""
    kind = type(value)
    if kind is dict:
        return FrozenDict({key: frozen(item) for key, item in value.items()})
    if kind is list:
        return FrozenList([frozen(item) for item in value])
    return value


@dataclass(frozen=True)
class Snapshot:
    """The table at one moment: `version` counts every publication, `game_version` the last
    change to the game itself (odds arriving publish a new version of the same game).

    What it publishes cannot be changed by anyone it is handed to: `view` is frozen through
    and through when the snapshot is made, `json_for` gives each viewer their own top-level
    dict over those frozen parts, and `text_for` gives text. Freezing is one copy per
    publication, the cheapest way: the table publishes once and every page, the buttons, the
    speech and the odds read each snapshot, so a copy per viewer or per read (a deep copy
    costs about three times as much) would be paid many times over, and a read-only proxy
    is no dict to `json.dumps` or to compare. On bench/web.py's night (a 75 kB view) it costs
    about 0.65 ms per publication beside 0.8 ms to build the view.
    """

    version: int
    game_version: int
    state: GameState = field(repr=False, compare=False)
    """The rules' own state (frozen dataclasses), for whoever computes from it (the odds
    worker)."""
    view: Mapping[str, Any] = field(repr=False, compare=False)
    """The whole snapshot as JSON-ready data, nothing masked: never hand it to a viewer."""
    _texts: dict[str | None, str] = field(default_factory=dict, init=False, repr=False,
                                          compare=False)
    """`text_for`'s texts, made once per viewer: text of the frozen view, so filling it in
    changes nothing anyone sees."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "view", frozen(self.view))

    @property
    def is_finished(self) -> bool:
        return bool(self.view["finished"])

    def json_for(self, player: str | None) -> dict[str, Any]:
        """What `player` (None: anyone watching) may see: the others' overall bets masked."""
        return masked(self.view, player)

    def text_for(self, player: str | None) -> str:
        """`json_for(player)` as compact JSON text, built once per viewer and kept."""
        text = self._texts.get(player)
        if text is None:
            text = json.dumps(self.json_for(player), ensure_ascii=False, separators=(",", ":"))
            self._texts[player] = text
        return text


def build_view(game: Game, records: Sequence[Record], *, version: int,
               extra: Mapping[str, Any]) -> dict[str, Any]:
    """The whole snapshot of `game`, its corrections taken from the store's `records`."""
    rules, state = game.rules, game.state
    origins, corrections = _corrections(records)
    views = [rules.state_json(game.state_after(count)) for count in range(len(game) + 1)]
    history = []
    for index, action in enumerate(game.actions):
        history.append({
            "index": index,
            "leg": views[index]["leg"],
            "action": action.to_json(),
            "payouts": views[index + 1].get("payouts", []),
            "correction": origins[index] if index < len(origins) else None,
        })
    readings = readings_view(records)
    if_leg_ended = rules.leg_scoring_now(state)
    paid = [line for lines in ([h["payouts"] for h in history] + [if_leg_ended])
            for line in lines]
    return {
        **views[-1],
        **rules.choices(state),
        "version": version,
        "history": history,
        "corrections": corrections,
        "readings": readings,
        "pending": [r for r in readings if r["outcome"] == "pending" and "pair_of" not in r],
        "legal": [a.to_json() for a in game.legal_actions()],
        "if_leg_ended": if_leg_ended,
        "pieces": pieces(game),
        "reasons": {**worded(paid), **worded(readings, READING_REASONS),
                    **worded([{"reason": extra["notice"]["text"]}] if extra.get("notice")
                             else [], NOTICE_REASONS)},
        **extra,
    }


_ORDINAL = r"(?P<place>\d+)(?:st|nd|rd|th)"
_CAMEL = r"(?P<camel>[\w-]+)"
REASONS = [(key, re.compile(pattern)) for key, pattern in [
    ("payout.tile", rf"{_CAMEL} landed on (?P<owner>.+)'s .+ on (?P<space>\d+)"),
    ("payout.leg_bet.first", rf".+ {_CAMEL} (?P<value>\d+): led the leg"),
    ("payout.leg_bet.second", rf".+ {_CAMEL} (?P<value>\d+): came second"),
    ("payout.leg_bet.none", rf".+ {_CAMEL} (?P<value>\d+): did not place"),
    ("payout.pyramid", r".+s x(?P<count>\d+)"),
    ("payout.partnership", r"partnership: the best of (?P<partner>.+)'s tickets"),
    ("payout.floor", r"spared: money never drops below (?P<floor>\d+)"),
    ("payout.floor", r"money never drops below (?P<floor>\d+)"),
    ("payout.race_bet.right", rf"{_ORDINAL} right .+ on the overall (?P<pile>\w+), {_CAMEL}"),
    ("payout.race_bet.spared", rf"wrong .+ on the overall (?P<pile>\w+): {_CAMEL}, spared at 0"),
    ("payout.race_bet.wrong", rf"wrong .+ on the overall (?P<pile>\w+): {_CAMEL}"),
    ("payout.cards.winner", rf"Winner card {_CAMEL} (?P<value>\d+): {_ORDINAL}"),
    ("payout.cards.midfield", rf"Midfield card {_CAMEL}: {_ORDINAL}"),
    ("payout.cards.figure", r"holds the (?P<figure>\w+) card"),
    ("payout.cards.final", rf"final (?P<pile>\w+) card {_CAMEL}: {_ORDINAL}"),
]]
"""Each payout line the rules write, as a page's words: the key of its sentence in every
language, and the values its sentence names (numbers as numbers)."""

_TILE = r"(?P<tile>desert tile|spectator tile)"
REFUSALS = [(key, re.compile(pattern)) for key, pattern in [
    ("refusal.nothing_to_undo", r"there is nothing to undo: no action has been played"),
    ("refusal.no_action", r"there is no action (?P<number>\d+): the game has (?P<count>\d+)"),
    ("refusal.no_place", r"cannot insert before action (?P<number>\d+): the game has "
                         r"(?P<count>\d+)"),
    ("refusal.breaks_later", r"that would make action (?P<number>\d+) illegal: (?P<reason>.+)"),
    ("refusal.race_over", r"the race is over: nothing (?:can be played after a camel has "
                          r"crossed the finish line|more can be played|more can be bet)"),
    ("reading.race_over", r"the race is over: no (?:die can be|die is) rolled"),
    ("reading.race_over", r"the race is over: no racing card is revealed"),
    ("refusal.turn_to_roll", r"it is (?P<turn>.+)'s turn to roll, not (?P<player>.+)'s"),
    ("refusal.turn", r"it is (?P<turn>.+)'s turn, not (?P<player>.+)'s"),
    ("refusal.table_closed", r"the table is closed: nothing more can be played on it"
                             r"|the table closed before running this"),
    ("refusal.not_stored", r"the store could not keep this \((?P<why>.+)\): nothing changed; "
                           r"free space on the Pi's card, or check it, then try again"),
    ("refusal.no_pending", r"no reading is waiting for OK or NO"),
    ("refusal.settled", r"reading \d+ is not waiting: it was settled already"),
    ("refusal.ways", r"(?P<first>\w+) and (?P<second>\w+) can be used (?P<ways>\d+) ways: "
                     r"choose the camels on a phone"),
    ("refusal.board_agrees", r"the board and the game agree: there is nothing to dismiss"),
    ("refusal.board_alert_gone", r"board alert \d+ is gone already"),
    ("refusal.die_out", r"the (?P<die>\w+) die is already out of the pyramid this leg"),
    ("refusal.leg_bet_gone", rf"no {_CAMEL} (?:leg betting tile|betting ticket) is left "
                             r"this leg"),
    ("refusal.crazy_camel", rf"{_CAMEL} is a crazy camel: .+ go on racing camels only"),
    ("refusal.race_bet_played", rf"(?P<player>.+) has already played their one {_CAMEL} "
                                r"(?:race betting card|finish card)"),
    ("refusal.tile.space_one", rf"a {_TILE} may never go on space 1"),
    ("refusal.tile.same_space", rf"(?P<owner>.+)'s {_TILE} already lies on (?P<space>\d+): "
                                r"moving it means moving it to a different space"),
    ("refusal.tile.camels", rf"space (?P<space>\d+) has camels on it: a {_TILE} goes on an "
                            r"empty space"),
    ("refusal.tile.taken", rf"space (?P<space>\d+) already holds (?P<owner>.+)'s {_TILE}"),
    ("refusal.tile.next_to", rf"a {_TILE} may not lie next to another one: (?P<owner>.+)'s is "
                             r"on (?P<space>\d+)"),
    ("refusal.partner.self", r"(?P<player>.+) cannot be their own betting partner"),
    ("refusal.partner.taken", r"(?P<player>.+)'s partnership card is not available: they are "
                              r"already partners with (?P<partner>.+) this leg"),
    ("refusal.cards.no_setup_due", r"no leg_setup is due: it comes right after the header and "
                                   r"right after the card that ends a leg"),
    ("refusal.cards.leg_ended", r"the leg's last racing card is out: a bet comes before it, "
                                r"and the next line must be leg_setup"),
    ("refusal.cards.setup_due", r"a leg_setup is due before leg (?P<leg>\d+) can be played"),
    ("refusal.cards.one_bet", r"(?P<player>.+) has already made a betting action this turn: "
                              r"one per turn"),
    ("refusal.cards.one_bet_then_track", r"(?P<player>.+) has already made a betting action "
                                         r"this turn: one per turn, then a race-track action"),
    ("refusal.cards.deck", r"the racing deck holds (?P<players>\d+) x \((?P<deck>\d+) \+ "
                           r"(?P<intel>\d+)\) = (?P<size>\d+) cards, not (?P<given>\d+)"),
    ("refusal.cards.intel_missing", r"intel: (?P<players>.+) must show an intel card"),
    ("refusal.cards.no_such_card", rf"(?:intel|reveal|play_hand): there is no {_ORDINAL} "
                                   rf"{_CAMEL} \+(?P<value>\d) card: each colour has five \+1 "
                                   r"and one \+2"),
    ("refusal.cards.no_seventh", rf"(?:intel|reveal|play_hand): there is no seventh {_CAMEL} "
                                 r"racing card: intel, revealed and hand cards played this leg "
                                 r"hold all six"),
    ("refusal.cards.intel_left", rf"only the unrevealed intel cards \((?P<cards>.+)\) can be "
                                 rf"left in the deck, not {_CAMEL} \+(?P<value>\d)"),
    ("refusal.cards.hand_played", rf"(?P<player>.+) has already played their hand card this "
                                  rf"leg \({_CAMEL}\): one per leg"),
    ("refusal.cards.figure_out", r"the (?P<figure>\w+) is on the track already \(space "
                                 r"(?P<space>\d+)\): it can be placed again only once it is "
                                 r"back beside the track"),
    ("refusal.cards.figure_past", r"space (?P<space>\d+) is past the last space "
                                  r"\((?P<last>\d+)\): a figure never goes on the Finish card"),
    ("refusal.cards.figure_behind", r"space (?P<space>\d+) is behind the last camel \(on "
                                    r"(?P<last>\d+)\): a figure goes on an empty space not "
                                    r"behind it"),
    ("refusal.cards.figure_camels", r"space (?P<space>\d+) has camels on it: a figure goes on "
                                    r"an empty space"),
    ("refusal.cards.figure_taken", r"space (?P<space>\d+) holds the (?P<figure>\w+): a figure "
                                   r"goes on an empty space"),
    ("refusal.cards.winner_gone", rf"no {_CAMEL} Winner card is left this leg"),
    ("refusal.cards.midfield_taken", rf"the {_CAMEL} Midfield card is taken this leg"),
    ("refusal.cards.final_held", rf"(?P<holder>.+) holds the {_CAMEL} final (?P<pile>\w+) "
                                 r"card: take one nobody holds"),
    ("refusal.lastcamel.game_over", r"the game is over: every camel has finished and every "
                                    r"card is shown"),
    ("refusal.lastcamel.race_over", r"the race is over: every camel has finished, so nobody "
                                    r"rolls; each player shows their owner card"),
    ("refusal.lastcamel.too_early", r"owner cards are shown only once every camel has "
                                    r"finished"),
    ("refusal.lastcamel.shown", rf"(?P<player>.+) has already shown {_CAMEL}: each player has "
                                r"one owner card"),
    ("refusal.lastcamel.camel_shown", rf"(?P<owner>.+) has already shown {_CAMEL}: one card "
                                      r"per camel"),
    ("refusal.lastcamel.out", rf"{_CAMEL} is out of the race with 2 or 3 players"
                              r"(?:: nobody holds its card)?"),
    ("refusal.lastcamel.die_twice", r"the (?P<face>\w+) die is used twice: each die moves once"),
    ("refusal.lastcamel.not_rolled", r"(?P<face>\w+) was not rolled: the dice show "
                                     r"(?P<first>\w+) and (?P<second>\w+)"),
    ("refusal.lastcamel.move", rf"move (?P<number>\d+) \((?P<face>\w+) on {_CAMEL}\): "
                               r"(?P<reason>.+)"),
    ("refusal.lastcamel.finished", rf"{_CAMEL} has finished: a finished camel never moves"),
    ("refusal.lastcamel.saddle", rf"{_CAMEL} has no (?P<face>\w+) on its saddle: the "
                                 r"(?P=face) die moves a camel carrying (?P=face)"),
    ("refusal.lastcamel.back_from_start", rf"the black star never moves a camel back from the "
                                          rf"start: {_CAMEL} is on it"),
    ("refusal.lastcamel.back_from_oasis", rf"the black star never moves a camel back from an "
                                          rf"oasis: {_CAMEL} is on the oasis on "
                                          r"(?P<space>\d+)"),
    ("refusal.lastcamel.back_onto_start", rf"this table plays the black star never moving a "
                                          rf"camel back onto the start or an oasis: {_CAMEL} "
                                          r"would go onto the start"),
    ("refusal.lastcamel.back_onto_oasis", rf"this table plays the black star never moving a "
                                          rf"camel back onto the start or an oasis: {_CAMEL} "
                                          r"would go onto the oasis on (?P<space>\d+)"),
    ("refusal.lastcamel.locked_by_start", rf"{_CAMEL} may not leave the oasis on "
                                          r"(?P<space>\d+): it is locked while "
                                          r"(?P<camel2>[\w-]+) stands on or behind the start"),
    ("refusal.lastcamel.locked", rf"{_CAMEL} may not leave the oasis on (?P<space>\d+): it is "
                                 r"locked while (?P<camel2>[\w-]+) stands on or behind the "
                                 r"oasis on (?P<stop>\d+)"),
    ("refusal.lastcamel.one_move", rf"fewer moves than can be made: these dice can make 1, "
                                   rf"for example (?P<face>\w+) on {_CAMEL}; every die that "
                                   r"can move a camel must be used"),
    ("refusal.lastcamel.two_moves", rf"fewer moves than can be made: these dice can make 2, "
                                    rf"for example (?P<face>\w+) on {_CAMEL}, then "
                                    r"(?P<face2>\w+) on (?P<camel2>[\w-]+); every die that "
                                    r"can move a camel must be used"),
    ("press.overall_waits", r"an overall bet waits for its camel: press a colour, or NO to "
                            r"cancel it"),
    ("press.not_racing", rf"[\w-]+ has no {_CAMEL} racing camel to bet on"),
    ("press.no_answer", r"the table could not answer: see the log"),
    ("press.too_late", r"no camel chosen within (?P<seconds>\d+(?:\.\d+)?) s of "
                       r"(?P<button>[A-Z]+): no overall bet was laid"),
]]
"""The same for every refusal a person at the table can meet, whether a phone's change or a
button press was refused: the rules', the game's, the table's and the button panel's own. A
`reason` is a refusal within one, worded alike."""


READING_REASONS = [(key, re.compile(pattern)) for key, pattern in [
    ("reading.leg_over", r"the leg is over: no racing card is left to reveal until the next leg "
                         r"is set up"),
    ("reading.die_out", r"the (?P<die>\w+) die is already out of the pyramid this leg: .+"),
    ("reading.unread_die", r"the die could not be read: check it"),
    ("reading.no_die", r"[\w-]+ has no (?P<die>\w+) die"),
    ("reading.unread_numeral", r"the grey die's numeral colour could not be read: check it"),
    ("reading.bad_value", r"a Camel Up die shows 1 to 3, not (?P<value>-?\d+): check it"),
    ("reading.unread_card", r"the racing card could not be read: check it"),
    ("reading.bad_card", r"a racing card shows \+1 or \+2, not \+(?P<value>-?\d+): check it"),
    ("reading.unsure", r"read with (?P<confidence>\d+)% confidence: check (?:it|the dice)"),
    ("reading.unread_face", r"a die could not be read: tap its face"),
    ("reading.waiting", r"waiting for the other die"),
    ("reading.ways", r"(?P<first>\w+) and (?P<second>\w+) can be used (?P<ways>\d+) ways: "
                     r"choose the camels"),
]] + REFUSALS
"""The same for why the table holds or refuses a camera's reading (the rules' refusals too)."""


NOTICE_REASONS = [(f"notice.{key}.{suffix}", re.compile(pattern.format(camera=camera)))
                  for camera, suffix in (("the camera", "camera"),
                                         ("the board camera", "board_camera"))
                  for key, pattern in [
    ("on", r"{camera} is on"),
    ("calibrating", r"{camera} is being calibrated: .+ until it is saved"),
    ("no_picture", r"{camera} gives no picture: .+; it is tried again every few seconds"),
    ("cannot_open", r"{camera} cannot be opened \((?P<why>.+)\): .+; it is tried again "
                    r"every few seconds"),
    ("given_up", r".+: {camera} is given up until the table starts again"),
]] + [(key, re.compile(pattern)) for key, pattern in [
    ("notice.button", r"(?P<button>[A-Z]+) button: (?P<reason>.+)"),
    ("notice.panel_off", r"the button panel cannot be used \((?P<why>.+)\): log on the "
                         r"dashboard"),
]] + REFUSALS
"""The same for the notices the table gives the pages: the cameras', a sentence for each
camera (what the players do while it is off follows from which it is), and the button
panel's (a refused press names its button and the refusal, or the panel cannot be used)."""

_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def worded(lines: Sequence[Mapping[str, Any]],
           patterns: Sequence[tuple[str, re.Pattern[str]]] = REASONS) -> dict[str, Any]:
    """For each `reason` among the lines (payouts by default) that the page has a sentence for,
    the `key` of that sentence and the `params` it names."""
    out: dict[str, Any] = {}
    for reason in {line.get("reason") or "" for line in lines}:
        words = sentence(reason, patterns)
        if words is not None:
            out[reason] = words
    return out


def sentence(text: str, patterns: Sequence[tuple[str, re.Pattern[str]]]) -> dict[str, Any] | None:
    """The `key` of the page's sentence for `text` and the `params` it names (numbers as
    numbers; a `reason`, a refusal within a refusal, worded the same way or kept as it is),
    or None when the page has no sentence for it."""
    for key, pattern in patterns:
        if match := pattern.fullmatch(text):
            return {"key": key, "params": {
                name: (sentence(value, patterns) or value) if name == "reason"
                else _number(value) if _NUMBER.fullmatch(value) else value
                for name, value in match.groupdict().items()}}
    return None


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def pieces(game: Game) -> dict[str, Any]:
    """The game's pieces and words, so a page can offer every action without knowing the rules."""
    return {**game.rules.pieces(game.state, game.header),
            "players": [p["name"] for p in game.rules.state_json(game.state)["players"]]}


def readings_view(records: Sequence[Record]) -> list[dict[str, Any]]:
    """Everything the camera reported, in order, with its confidence and what became of it.

    The Last Camel's second face of a throw also names the pair (`faces`, `confidences`: the
    face read first, then its own), so a page can show and correct the roll as one; while the
    pair waits, the first face says so too (`pair_of`: the second's id)."""
    settled = {r.position: r.action or {} for r in records if r.kind == "resolve"}
    readings = [r for r in records if r.kind == "reading"]
    seen = {r.seq: r.action or {} for r in readings}
    second = {action["pair"]: seq for seq, action in seen.items() if "pair" in action}
    view = []
    for r in readings:
        reading = seen[r.seq]
        entry = {"id": r.seq, **reading, "at": r.at,
                 **({"outcome": settled[r.seq]["outcome"]} if r.seq in settled else {})}
        first = seen.get(reading["pair"]) if "pair" in reading else None
        if first is not None:
            entry["faces"] = [first.get("face"), reading.get("face")]
            entry["confidences"] = [first.get("confidence"), reading.get("confidence")]
        if r.seq in second and r.seq not in settled:
            entry["outcome"], entry["pair_of"] = seen[second[r.seq]]["outcome"], second[r.seq]
        view.append(entry)
    return view


def _corrections(records: Sequence[Record]) -> tuple[list[Any], list[dict[str, Any]]]:
    """Walk the records as the store replays them: for every action now in the game, how it
    got there (None: played in turn), and every correction in the order it was made."""
    actions: list[Any] = []
    origins: list[Any] = []
    corrections: list[dict[str, Any]] = []
    for r in records:
        if r.kind not in GAME_CHANGES:
            continue
        entry: dict[str, Any] = {"kind": r.kind, "index": r.position, "action": r.action,
                                 "was": None, "at": r.at}
        if r.kind == "push":
            actions.append(r.action)
            origins.append(None)
            continue
        if r.kind == "undo":
            entry["index"] = len(actions) - 1
            entry["was"] = actions.pop()
            origins.pop()
        elif r.kind == "replace":
            assert r.position is not None
            entry["was"] = actions[r.position]
            actions[r.position] = r.action
            origins[r.position] = {"kind": "replace", "was": entry["was"], "at": r.at}
        elif r.kind == "insert":
            assert r.position is not None
            actions.insert(r.position, r.action)
            origins.insert(r.position, {"kind": "insert", "was": None, "at": r.at})
        elif r.kind == "delete":
            assert r.position is not None
            entry["was"] = actions.pop(r.position)
            origins.pop(r.position)
        corrections.append(entry)
    return origins, corrections


def masked(view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    """A copy of `view` in which every overall bet (final betting card) not laid by `player`
    has `camel` null.

    Once the race is over every card is turned face up. The actions open to the player to act
    and their odds are masked too, since which cards are left says which were laid.
    """
    out = dict(view)
    if view["finished"]:
        return out
    me = player

    def line(action: Mapping[str, Any] | None) -> Any:
        if _hides(action, me):
            assert action is not None
            return {**action, "camel": None}
        return action

    if "race_bets" in view:
        out["race_bets"] = {pile: [card if card["player"] == me else {**card, "camel": None}
                                   for card in cards]
                            for pile, cards in view["race_bets"].items()}
    if "final_bets" in view:
        out["final_bets"] = {pile: {who: camel if who == me else None
                                    for who, camel in held.items()}
                             for pile, held in view["final_bets"].items()}
    out["history"] = [{**e, "action": line(e["action"]),
                       "correction": _masked_origin(e["correction"], line)}
                      for e in view["history"]]
    out["corrections"] = [{**c, "action": line(c["action"]), "was": line(c["was"])}
                          for c in view["corrections"]]
    out["legal"] = _unique([line(a) for a in view["legal"]])
    odds = view.get("odds")
    if odds and odds.get("actions"):
        out["odds"] = {**odds, "actions": [a for a in odds["actions"]
                                           if not _hides(a.get("action"), me)]}
    return out


def _hides(action: Mapping[str, Any] | None, me: str | None) -> bool:
    return bool(action and action.get("action") in HIDDEN_ACTIONS
                and action.get("player") != me)


def _masked_origin(origin: Mapping[str, Any] | None, line: Any) -> Any:
    if not origin:
        return origin
    return {**origin, "was": line(origin["was"])}


def _unique(lines: list[Any]) -> list[Any]:
    """Masked overall bets collapse to one per pile: the cards left are not shown."""
    seen, out = set(), []
    for item in lines:
        key = json.dumps(item, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
