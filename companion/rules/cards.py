"""Camel Up Cards (2016): racing cards move the camels, players shape the deck each leg.

Rule book 001 with the rulings in shared/rules/README.md and the log format of issue 7
(docs/game-log.md). Spaces are numbered as the track lies now: a sandstorm card is one space,
and everything beyond it is renumbered when it flips. `apply` is pure: it returns a new state
or raises `IllegalAction` naming the rule, and never touches the state it was given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.errors import BadHeader, IllegalAction
from companion.rules import Rules
from companion.rules.fields import (
    as_choice,
    as_int,
    as_list,
    as_name,
    as_object,
    as_space_key,
    require,
)
from companion.rules.players import Action, Payout, Seats, check_form, pay, payouts_json, set_player
from companion.rules.track import Track
from companion.rules.words import ordinal

GAME = "camelup-cards"
CAMELS = ("blue", "green", "orange", "white", "yellow")
FIGURES = ("fennec", "palm")
KINDS = ("winner", "midfield")
PILES = ("winner", "loser")
WINNER_CARDS = (5, 3, 2, 2)
SETUP_KEYS = ("dealt", "discarded", "kept", "deck", "left", "intel")
CARDS_PER_COLOUR = {1: 5, 2: 1}
"""The 30 racing cards: five +1 and one +2 of each colour."""
RACING_CARDS = tuple((camel, value) for camel in CAMELS
                     for value, count in CARDS_PER_COLOUR.items() for _ in range(count))
"""The 30 racing cards, each (camel, value)."""
STARTING_MONEY = 3
MAX_LENGTH = 24
LEG_SETUP = {2: (15, 12, 6), 3: (16, 9, 3), 4: (17, 7, 2), 5: (18, 6, 1), 6: (19, 5, 1)}
"""The Leg Setup card by players: the track's length, the racing cards dealt to each and those
each puts in the deck. Not printed in the rule book: docs/game-log.md's table, with 9 dealt
to 3 players as in its example and the rest chosen to fit its rules where that is silent."""
SET_UP_CARDS = 5
"""Racing cards revealed to set the camels' start."""


# --- actions: one frozen value per game-log line -------------------------------------------


@dataclass(frozen=True)
class Reveal(Action):
    """Reveal the top racing card; camel and value are None until it is seen."""

    camel: str | None = None
    value: int | None = None
    action: ClassVar[str] = "reveal"


@dataclass(frozen=True)
class PlayHand(Action):
    """Play one's hand card: its camel moves 1, whatever the card shows."""

    camel: str
    action: ClassVar[str] = "play_hand"


@dataclass(frozen=True)
class PlaceFigure(Action):
    """Put the fennec or the palm tree on an empty space and take its card."""

    figure: str
    space: int
    action: ClassVar[str] = "place_figure"


@dataclass(frozen=True)
class LegBet(Action):
    """Take the top Winner card of a camel's stack, or its Midfield card."""

    camel: str
    kind: str
    action: ClassVar[str] = "leg_bet"


@dataclass(frozen=True)
class FinalBet(Action):
    """Take a Final Betting card nobody holds, giving back one's own of that pile."""

    pile: str
    camel: str
    action: ClassVar[str] = "final_bet"


RACE_TRACK_ACTIONS = (Reveal, PlayHand, PlaceFigure)
BETTING_ACTIONS = (LegBet, FinalBet)


@dataclass(frozen=True)
class LegSetup:
    """The table's setup before a leg: the deck's size and each player's intel card shown.

    The one line with no player; `intel` is None until the cards are seen.
    """

    deck: int
    intel: tuple[tuple[str, str, int], ...] | None = None
    player: ClassVar[None] = None
    action: ClassVar[str] = "leg_setup"

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"action": self.action, "deck": self.deck}
        if self.intel is not None:
            line["intel"] = {p: {"camel": c, "value": v} for p, c, v in self.intel}
        return line


# --- what lies on the table -----------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """The Leg Setup card's numbers, given in the header since the rule book does not print them."""

    dealt: int
    discarded: int
    kept: int
    deck: int
    left: int
    intel: int

    def as_json(self) -> dict[str, int]:
        return {key: getattr(self, key) for key in SETUP_KEYS}


@dataclass(frozen=True)
class Bet:
    """A leg betting card held: a Winner card with its value, or a Midfield card (value 0)."""

    camel: str
    kind: str
    value: int = 0


@dataclass(frozen=True)
class PlayerState:
    name: str
    money: int
    leg_bets: tuple[Bet, ...] = ()
    hand_played: str | None = None


@dataclass(frozen=True)
class State(Seats):
    """Everything on the table between two lines of the log."""

    settings: Settings
    players: tuple[PlayerState, ...]
    start: tuple[str, ...]
    """Camels on the Start card, side by side, alphabetical."""
    track: Track
    """Camels on spaces 1 and up; a space past `length` has crossed the finish line."""
    cards: tuple[int, ...]
    """The Race Track cards in order: 2 spaces, or 1 for a sandstorm; the last may be half
    covered by the Finish card."""
    length: int
    leg: int = 1
    turn: int | None = 0
    due: bool = True
    """A leg_setup must come next."""
    deck: int = 0
    intel: tuple[tuple[str, str, int], ...] = ()
    revealed: tuple[tuple[str, int], ...] = ()
    figures: tuple[tuple[str, int | None], ...] = (("fennec", None), ("palm", None))
    holders: tuple[tuple[str, str | None], ...] = (("fennec", None), ("palm", None))
    winner_stacks: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
        (c, WINNER_CARDS) for c in CAMELS)
    midfield_taken: tuple[str, ...] = ()
    final_bets: tuple[tuple[str, str, str], ...] = ()
    """Final betting cards held: (pile, player, camel)."""
    has_bet: bool = False
    """The player to act has made their betting action before their race-track action."""
    last_mover: str | None = None
    """Who made the last race-track action, while the next player has not yet acted."""
    last_mover_may_bet: bool = False
    finished: bool = False
    payouts: tuple[Payout, ...] = ()
    """What the line that led here paid: the leg payout, or the end's payouts."""

    def figure_space(self, figure: str) -> int | None:
        return dict(self.figures)[figure]

    def figure_at(self, space: int) -> str | None:
        return next((f for f, at in self.figures if at == space), None)

    def holder(self, figure: str) -> str | None:
        return dict(self.holders)[figure]

    @property
    def sandstorm(self) -> list[int]:
        spaces, at = [], 1
        for size in self.cards:
            if size == 1:
                spaces.append(at)
            at += size
        return spaces

    @property
    def ranking(self) -> list[str]:
        """Camels first to last: higher in a stack first, those on the Start card last."""
        return self.track.order(CAMELS) + list(self.start)

    def place(self, camel: str) -> int:
        """1 for the leader; every camel on the Start card shares fifth."""
        return 5 if camel in self.start else self.ranking.index(camel) + 1

    def space_of(self, camel: str) -> int:
        return 0 if camel in self.start else self.track.space_of(camel)

    @property
    def crossed(self) -> bool:
        return any(space > self.length for space, _ in self.track.stacks)

    @property
    def deck_size(self) -> int:
        return len(self.players) * (self.settings.deck + self.settings.intel)

    def final_card(self, pile: str, player: str) -> str | None:
        return next((c for p, who, c in self.final_bets if p == pile and who == player), None)

    def final_holder(self, pile: str, camel: str) -> str | None:
        return next((who for p, who, c in self.final_bets if p == pile and c == camel), None)

    @property
    def winners(self) -> tuple[str, ...]:
        """The richest players once the race is over, in seating order; ties share."""
        if not self.finished:
            return ()
        best = max(p.money for p in self.players)
        return tuple(p.name for p in self.players if p.money == best)


# --- reading the game log --------------------------------------------------------------------


def parse_action(line: Mapping[str, Any]) -> Action | LegSetup:
    """Read one game-log action line; a missing or badly formed field is refused."""
    err = IllegalAction
    name = require(line, "action", err)
    known = ("leg_setup", "reveal", "play_hand", "place_figure", "leg_bet", "final_bet")
    if not isinstance(name, str) or name not in known:
        raise err(f'{GAME} has no action {name!r}: it knows {", ".join(known)}')
    if name == "leg_setup":
        return _parse_leg_setup(line)
    player = as_name(require(line, "player", err), "player", err)
    if name == "reveal":
        value = as_int(require(line, "value", err), "value", err, low=1, high=2)
        return Reveal(player, _camel(line), value)
    if name == "play_hand":
        return PlayHand(player, _camel(line))
    if name == "place_figure":
        figure = as_choice(require(line, "figure", err), "figure", FIGURES, err)
        space = as_int(require(line, "space", err), "space", err, low=1, high=MAX_LENGTH * 2)
        return PlaceFigure(player, figure, space)
    if name == "leg_bet":
        camel = _camel(line)
        return LegBet(player, camel, as_choice(require(line, "kind", err), "kind", KINDS, err))
    pile = as_choice(require(line, "pile", err), "pile", PILES, err)
    return FinalBet(player, pile, _camel(line))


def _camel(line: Mapping[str, Any]) -> str:
    return as_choice(require(line, "camel", IllegalAction), "camel", CAMELS, IllegalAction)


def _parse_leg_setup(line: Mapping[str, Any]) -> LegSetup:
    err = IllegalAction
    deck = as_int(require(line, "deck", err), "deck", err, low=1, high=30)
    intel = []
    for player, shown in as_object(require(line, "intel", err), "intel", err).items():
        as_name(player, "intel", err)
        card = as_object(shown, f"intel {player!r}", err)
        camel = as_choice(require(card, "camel", err), "camel", CAMELS, err)
        intel.append((player, camel, as_int(require(card, "value", err), "value", err,
                                            low=1, high=2)))
    return LegSetup(deck, tuple(intel))


def initial_state(header: Mapping[str, Any]) -> State:
    """The table as the header sets it; the first line after it must be the leg_setup.

    Besides the set-up keys of the log format, a header may bring in a game between two legs:
    `leg`, `sandstorm` (space numbers), `figures` and `final_bets`, as `replay --json` shows them.
    """
    err = BadHeader
    names = [as_name(n, "players", err) for n in as_list(require(header, "players", err),
                                                         "players", err)]
    if not 2 <= len(names) <= 6:
        raise err(f"{GAME} is played by 2 to 6 players, not {len(names)}")
    if len(set(names)) != len(names):
        raise err('"players" names someone twice: each player needs a name of their own')
    length = as_int(require(header, "length", err), "length", err, low=1, high=MAX_LENGTH)
    settings = _parse_settings(as_object(require(header, "setup", err), "setup", err), len(names))
    leg = as_int(header.get("leg", 1), "leg", err, low=1, high=999)
    cards = _parse_sandstorm(header.get("sandstorm", []), length)
    start, track = _parse_start(require(header, "start", err), 6 if leg == 1 else length, length)
    money = as_object(header.get("money", {}), "money", err)
    for name, coins in money.items():
        if name not in names:
            raise err(f'"money" names {name!r}, who is not among the players')
        as_int(coins, f"money {name!r}", err, low=1, high=9999)
    state = State(
        settings=settings,
        players=tuple(PlayerState(n, money.get(n, STARTING_MONEY)) for n in names),
        start=start, track=track, cards=cards, length=length, leg=leg,
    )
    state = _parse_figures(state, header.get("figures", {}))
    state = _parse_final_bets(state, header.get("final_bets", {}))
    return replace(state, turn=_starting_player(state))


def _parse_settings(setup: dict[str, Any], players: int) -> Settings:
    err = BadHeader
    s = Settings(**{k: as_int(require(setup, k, err), f"setup {k}", err, low=0, high=30)
                    for k in SETUP_KEYS})
    if s.kept != s.dealt - s.discarded:
        raise err(f'"setup": kept ({s.kept}) must be dealt ({s.dealt}) - discarded '
                  f"({s.discarded})")
    if s.left != s.kept - s.deck:
        raise err(f'"setup": left ({s.left}) must be kept ({s.kept}) - deck ({s.deck})')
    want = (2, 1) if players >= 3 else (1, 0)
    if (s.left, s.intel) != want:
        raise err(f'"setup": with {players} players each keeps left {want[0]} and intel '
                  f"{want[1]}, not {s.left} and {s.intel}")
    if players * (s.deck + s.intel) not in (10, 12):
        raise err(f'"setup": the racing deck holds 10 or 12 cards, not {players} x '
                  f"({s.deck} + {s.intel}) = {players * (s.deck + s.intel)}")
    if players * s.dealt > 30:
        raise err(f'"setup": {players} players dealt {s.dealt} each need more than the '
                  "30 racing cards")
    return s


def _parse_sandstorm(spaces: Any, length: int) -> tuple[int, ...]:
    """The Race Track cards for `length` spaces with sandstorm cards on the given spaces."""
    spaces = as_list(spaces, "sandstorm", BadHeader)
    for space in spaces:
        as_int(space, "sandstorm", BadHeader, low=1, high=length)
    cards, at = [], 1
    while at <= length:
        cards.append(1 if at in spaces else 2)
        at += cards[-1]
    state_spaces = [s for s, size in zip(_card_starts(cards), cards, strict=True) if size == 1]
    if sorted(set(spaces)) != state_spaces or len(spaces) != len(state_spaces):
        raise BadHeader(f'"sandstorm" {spaces} cannot be: a sandstorm card stands where a '
                        "two-space card began, each space once")
    return tuple(cards)


def _card_starts(cards: tuple[int, ...] | list[int]) -> list[int]:
    starts, at = [], 1
    for size in cards:
        starts.append(at)
        at += size
    return starts


def _parse_start(start: Any, high: int, length: int) -> tuple[tuple[str, ...], Track]:
    err = BadHeader
    start = as_object(start, "start", err)
    placed: list[str] = []
    on_start: tuple[str, ...] = ()
    stacks: dict[int, tuple[str, ...]] = {}
    for key, stack in start.items():
        space = as_space_key(key, '"start"', err, low=0, high=min(high, length))
        camels = tuple(as_choice(c, f"start {key!r}", CAMELS, err)
                       for c in as_list(stack, f"start {key!r}", err))
        placed += camels
        if space == 0:
            on_start = tuple(sorted(camels))
        elif camels:
            stacks[space] = camels
    twice = sorted({c for c in placed if placed.count(c) > 1})
    if twice:
        raise err(f'"start" places {", ".join(twice)} more than once')
    missing = [c for c in CAMELS if c not in placed]
    if missing:
        raise err(f'"start" leaves out {", ".join(missing)}: every camel stands on the track')
    if not stacks:
        raise err('"start" must have at least one camel off the Start card')
    return on_start, Track.from_stacks(stacks)


def _parse_figures(state: State, figures: Any) -> State:
    for figure, space in as_object(figures, "figures", BadHeader).items():
        as_choice(figure, "figures", FIGURES, BadHeader)
        if space is None:
            continue
        as_int(space, f"figures {figure}", BadHeader, low=1, high=state.length)
        if not state.track.is_empty_at(space) or state.figure_at(space):
            raise BadHeader(f'"figures": space {space} is not empty')
        state = _set_figure(state, figure, space)
    return state


def _parse_final_bets(state: State, piles: Any) -> State:
    for pile, cards in as_object(piles, "final_bets", BadHeader).items():
        as_choice(pile, "final_bets", PILES, BadHeader)
        for player, camel in as_object(cards, f"final_bets {pile}", BadHeader).items():
            if player not in state.names:
                raise BadHeader(f'"final_bets": {player!r} is not among the players')
            as_choice(camel, f"final_bets {pile}", CAMELS, BadHeader)
            if state.final_holder(pile, camel):
                raise BadHeader(f'"final_bets": the {camel} final {pile} card is held twice')
            state = replace(state, final_bets=(*state.final_bets, (pile, player, camel)))
    return state


def _starting_player(state: State) -> int:
    """The player with the least money; a tie goes to the earliest in seating order."""
    least = min(p.money for p in state.players)
    return next(i for i, p in enumerate(state.players) if p.money == least)


# --- the rules -------------------------------------------------------------------------------


def apply(state: State, action: Action | LegSetup) -> State:
    """The state after `action`, or `IllegalAction` naming the rule it breaks."""
    if state.finished:
        raise IllegalAction("the race is over: nothing can be played after a camel has "
                            "crossed the finish line")
    _check_complete(action)
    check_form(action, GAME, parse_action, (Action, LegSetup))
    if isinstance(action, LegSetup):
        if not state.due:
            raise IllegalAction("no leg_setup is due: it comes right after the header and "
                                "right after the card that ends a leg")
        return _leg_setup(replace(state, payouts=()), action)
    if state.due:
        if isinstance(action, BETTING_ACTIONS) and state.leg > 1:
            raise IllegalAction("the leg's last racing card is out: a bet comes before it, "
                                "and the next line must be leg_setup")
        raise IllegalAction(f"a leg_setup is due before leg {state.leg} can be played")
    if action.player not in state.names:
        raise IllegalAction(f"unknown player {action.player!r}: the players are "
                            f"{', '.join(state.names)}")
    clean = replace(state, payouts=())
    if isinstance(action, BETTING_ACTIONS):
        if action.player == state.last_mover:
            if not state.last_mover_may_bet:
                raise IllegalAction(f"{action.player} has already made a betting action this "
                                    "turn: one per turn")
            return replace(_bet(clean, action), last_mover_may_bet=False)
        _check_turn(state, action)
        if state.has_bet:
            raise IllegalAction(f"{action.player} has already made a betting action this turn: "
                                "one per turn, then a race-track action")
        return replace(_bet(clean, action), has_bet=True, last_mover=None)
    _check_turn(state, action)
    after = _race_track(clean, action)
    if after.finished or after.due:
        return after
    assert state.turn is not None
    return replace(after, turn=(state.turn + 1) % len(state.players), has_bet=False,
                   last_mover=action.player, last_mover_may_bet=not state.has_bet)


def _check_complete(action: Action | LegSetup) -> None:
    """A reveal or leg_setup as `legal_actions` lists it, before the cards are seen, is not
    yet one to play."""
    if isinstance(action, Reveal) and (action.camel is None or action.value is None):
        raise IllegalAction("a reveal needs the racing card's camel and value")
    if isinstance(action, LegSetup) and action.intel is None:
        raise IllegalAction("a leg_setup needs every player's intel card")


def _check_turn(state: State, action: Action) -> None:
    if action.player != state.player_to_act:
        raise IllegalAction(f"it is {state.player_to_act}'s turn, not {action.player}'s")


def _set_figure(state: State, figure: str, space: int | None,
                holder: str | None = None) -> State:
    return replace(state,
                   figures=tuple((f, space if f == figure else at) for f, at in state.figures),
                   holders=tuple((f, holder if f == figure else h) for f, h in state.holders))


# --- the setup before each leg ---------------------------------------------------------------


def _leg_setup(state: State, action: LegSetup) -> State:
    if action.deck != state.deck_size:
        raise IllegalAction(f"the racing deck holds {len(state.players)} x "
                            f"({state.settings.deck} + {state.settings.intel}) = "
                            f"{state.deck_size} cards, not {action.deck}")
    assert action.intel is not None
    shown = {p: (c, v) for p, c, v in action.intel}
    for player in shown:
        if player not in state.names:
            raise IllegalAction(f"intel: unknown player {player!r}: the players are "
                                f"{', '.join(state.names)}")
    if state.settings.intel == 0 and shown:
        raise IllegalAction("with 2 players nobody shows an intel card: intel must be {}")
    missing = [n for n in state.names if state.settings.intel and n not in shown]
    if missing:
        raise IllegalAction(f"intel: {', '.join(missing)} must show an intel card")
    intel = tuple((n, *shown[n]) for n in state.names if n in shown)
    _check_cards(Counter((c, v) for _, c, v in intel), Counter(), Counter(), "intel")
    state = replace(state, figures=State.figures, holders=State.holders)
    state = _sandstorm(state)
    state = _extend(state)
    return replace(
        state,
        players=tuple(PlayerState(p.name, p.money) for p in state.players),
        due=False, deck=action.deck, intel=intel, revealed=(),
        winner_stacks=State.winner_stacks, midfield_taken=(),
        has_bet=False, last_mover=None, last_mover_may_bet=False,
        turn=_starting_player(state),
    )


def _sandstorm(state: State) -> State:
    """Empty two-space cards strictly between the last camel and the leader turn to one space."""
    last = 0 if state.start else state.track.stacks[0][0]
    leader = state.track.stacks[-1][0]
    flipped = [at for at, size in zip(_card_starts(state.cards), state.cards, strict=True)
               if size == 2 and last < at and at + 1 < leader
               and state.track.is_empty_at(at) and state.track.is_empty_at(at + 1)]
    if not flipped:
        return state
    cards = tuple(1 if at in flipped else size
                  for at, size in zip(_card_starts(state.cards), state.cards, strict=True))
    track = Track(tuple((space - sum(1 for at in flipped if at < space), stack)
                        for space, stack in state.track.stacks))
    return replace(state, cards=cards, track=track, length=state.length - len(flipped))


def _extend(state: State) -> State:
    """Fewer than 3 spaces between the leader and the Finish card: add spaces until 3 are."""
    leader = state.track.stacks[-1][0]
    if state.length - leader >= 3:
        return state
    length, cards = leader + 3, state.cards
    while sum(cards) < length:
        cards = (*cards, 2)
    return replace(state, length=length, cards=cards)


# --- race-track actions ------------------------------------------------------------------------


def _race_track(state: State, action: Action) -> State:
    if isinstance(action, Reveal):
        return _reveal(state, action)
    if isinstance(action, PlayHand):
        return _play_hand(state, action)
    assert isinstance(action, PlaceFigure)
    return _place_figure(state, action)


def _check_cards(intel: Counter[tuple[str, int]], revealed: Counter[tuple[str, int]],
                 hands: Counter[str], what: str) -> None:
    """The cards seen this leg are real cards of the 30: five +1 and one +2 per colour."""
    for camel in CAMELS:
        seen = {v: max(intel[camel, v], revealed[camel, v]) for v in CARDS_PER_COLOUR}
        for value, count in CARDS_PER_COLOUR.items():
            if seen[value] > count:
                raise IllegalAction(f"{what}: there is no {ordinal(count + 1)} {camel} "
                                    f"+{value} card: each colour has five +1 and one +2")
        if sum(seen.values()) + hands[camel] > 6:
            raise IllegalAction(f"{what}: there is no seventh {camel} racing card: intel, "
                                "revealed and hand cards played this leg hold all six")


def _seen(state: State) -> tuple[Counter[tuple[str, int]], Counter[tuple[str, int]],
                               Counter[str]]:
    intel = Counter((c, v) for _, c, v in state.intel)
    hands = Counter(p.hand_played for p in state.players if p.hand_played)
    return intel, Counter(state.revealed), hands


def _reveal(state: State, action: Reveal) -> State:
    assert action.camel is not None and action.value is not None
    card = (action.camel, action.value)
    intel, revealed, hands = _seen(state)
    unrevealed = sorted((intel - revealed).elements())
    revealed[card] += 1
    _check_cards(intel, revealed, hands, "reveal")
    if state.deck - 1 < (intel - revealed).total():
        cards = ", ".join(f"{c} +{v}" for c, v in unrevealed)
        raise IllegalAction(f"only the unrevealed intel cards ({cards}) can be left in the "
                            f"deck, not {action.camel} +{action.value}")
    state = replace(state, revealed=(*state.revealed, card), deck=state.deck - 1)
    state = _move(state, action.camel, action.value)
    if state.crossed:
        return _end_race(state)
    if state.deck == 0:
        return _end_leg(state)
    return state


def _play_hand(state: State, action: PlayHand) -> State:
    me = state.player(action.player)
    if me.hand_played:
        raise IllegalAction(f"{me.name} has already played their hand card this leg "
                            f"({me.hand_played}): one per leg")
    intel, revealed, hands = _seen(state)
    hands[action.camel] += 1
    _check_cards(intel, revealed, hands, "play_hand")
    state = _move(set_player(state, replace(me, hand_played=action.camel)), action.camel, 1)
    return _end_race(state) if state.crossed else state


def _place_figure(state: State, action: PlaceFigure) -> State:
    figure, space = action.figure, action.space
    at = state.figure_space(figure)
    if at is not None:
        raise IllegalAction(f"the {figure} is on the track already (space {at}): it can be "
                            "placed again only once it is back beside the track")
    if space > state.length:
        raise IllegalAction(f"space {space} is past the last space ({state.length}): a figure "
                            "never goes on the Finish card")
    last = state.space_of(state.ranking[-1])
    if space < last:
        raise IllegalAction(f"space {space} is behind the last camel (on {last}): a figure "
                            "goes on an empty space not behind it")
    if not state.track.is_empty_at(space):
        raise IllegalAction(f"space {space} has camels on it: a figure goes on an empty space")
    other = state.figure_at(space)
    if other:
        raise IllegalAction(f"space {space} holds the {other}: a figure goes on an empty space")
    return _set_figure(state, figure, space, action.player)


def _move(state: State, camel: str, steps: int) -> State:
    """Move `camel` with those above it; a figure landed on moves the unit once more and goes back.

    A camel leaves the Start card alone and one sent back onto it rejoins it.
    """
    unit: tuple[str, ...]
    if camel in state.start:
        track, unit, space = state.track, (camel,), 0
        state = replace(state, start=tuple(c for c in state.start if c != camel))
    else:
        track, unit, space = state.track.lift(camel)
    target, under = space + steps, False
    while (figure := state.figure_at(target)) is not None:
        state = _set_figure(state, figure, None)
        forward = figure == "palm"
        target, under = target + (1 if forward else -1), not forward
    if target <= 0:
        state = replace(state, start=tuple(sorted(state.start + unit)), track=track)
    else:
        state = replace(state, track=track.drop(unit, target, under=under))
    return _passed_figures(state)


def _passed_figures(state: State) -> State:
    """A figure every camel has passed goes back beside the track with its card."""
    last = state.space_of(state.ranking[-1])
    for figure, at in state.figures:
        if at is not None and at < last:
            state = _set_figure(state, figure, None)
    return state


# --- betting actions -------------------------------------------------------------------------


def _bet(state: State, action: Action) -> State:
    if isinstance(action, LegBet):
        return _leg_bet(state, action)
    assert isinstance(action, FinalBet)
    return _final_bet(state, action)


def _leg_bet(state: State, action: LegBet) -> State:
    me, camel = state.player(action.player), action.camel
    if action.kind == "winner":
        left = dict(state.winner_stacks)[camel]
        if not left:
            raise IllegalAction(f"no {camel} Winner card is left this leg")
        stacks = tuple((c, v[1:] if c == camel else v) for c, v in state.winner_stacks)
        state = replace(state, winner_stacks=stacks)
        bet = Bet(camel, "winner", left[0])
    else:
        if camel in state.midfield_taken:
            raise IllegalAction(f"the {camel} Midfield card is taken this leg")
        state = replace(state, midfield_taken=(*state.midfield_taken, camel))
        bet = Bet(camel, "midfield")
    return set_player(state, replace(me, leg_bets=(*me.leg_bets, bet)))


def _final_bet(state: State, action: FinalBet) -> State:
    holder = state.final_holder(action.pile, action.camel)
    if holder is not None:
        raise IllegalAction(f"{holder} holds the {action.camel} final {action.pile} card: "
                            "take one nobody holds")
    kept = tuple(b for b in state.final_bets if b[:2] != (action.pile, action.player))
    return replace(state, final_bets=(*kept, (action.pile, action.player, action.camel)))


# --- payouts ---------------------------------------------------------------------------------


WINNER_PLACES = {1: "led the leg", 2: "came second"}
MIDFIELD_PAY = {1: -1, 2: 1, 3: 2, 4: 1, 5: -1}


def _leg_lines(state: State, p: PlayerState) -> list[Payout]:
    lines = []
    for bet in p.leg_bets:
        place = state.place(bet.camel)
        if bet.kind == "winner":
            amount = bet.value if place == 1 else 1 if place == 2 else -1
            lines.append(Payout(p.name, amount, f"Winner card {bet.camel} {bet.value}: "
                                                f"{ordinal(place)}"))
        else:
            lines.append(Payout(p.name, MIDFIELD_PAY[place], f"Midfield card {bet.camel}: "
                                                             f"{ordinal(place)}"))
    for figure in FIGURES:
        if state.holder(figure) == p.name:
            lines.append(Payout(p.name, -1, f"holds the {figure} card"))
    return lines


def _floored(state: State, p: PlayerState, lines: list[Payout]) -> list[Payout]:
    net = sum(line.amount for line in lines)
    if p.money + net < 1:
        lines = [*lines, Payout(p.name, 1 - (p.money + net), "money never drops below 1")]
    return lines


def _score_leg(state: State) -> State:
    """Each player's leg betting and figure cards, netted, then money floored at 1."""
    for p in state.players:
        for line in _floored(state, p, _leg_lines(state, p)):
            state = pay(state, line)
    return state


def _end_leg(state: State) -> State:
    state = _score_leg(state)
    state = replace(
        state,
        players=tuple(PlayerState(p.name, p.money) for p in state.players),
        holders=State.holders, leg=state.leg + 1, due=True, deck=0, intel=(), revealed=(),
        has_bet=False, last_mover=None, last_mover_may_bet=False,
    )
    return replace(state, turn=_starting_player(state))


def _end_race(state: State) -> State:
    """The leg payout once, then the final cards netted; money floored at 1 after each."""
    state = _score_leg(state)
    for p in state.players:
        lines = []
        for pile in PILES:
            camel = state.final_card(pile, p.name)
            if camel is None:
                continue
            place = state.place(camel)
            right = place if pile == "winner" else 6 - place
            amount = {1: 7, 2: 3}.get(right, -1)
            lines.append(Payout(p.name, amount, f"final {pile} card {camel}: {ordinal(place)}"))
        for line in _floored(state, p, lines):
            state = pay(state, line)
    return replace(state, finished=True, turn=None, has_bet=False, last_mover=None,
                   last_mover_may_bet=False)


# --- what can be played now ------------------------------------------------------------------


def legal_actions(state: State) -> list[Action | LegSetup]:
    """Every line that may come next; a reveal is listed once, its card not yet seen, and a
    due leg_setup once, its intel cards not yet seen."""
    if state.finished:
        return []
    if state.due:
        return [LegSetup(state.deck_size)]
    me = state.player_to_act
    assert me is not None
    actions: list[Action | LegSetup] = [Reveal(me)]
    actions += [PlayHand(me, c) for c in CAMELS]
    actions += [PlaceFigure(me, f, s) for f in FIGURES for s in range(1, state.length + 1)]
    bettors = [me] if not state.has_bet else []
    if state.last_mover and state.last_mover_may_bet:
        bettors.append(state.last_mover)
    for who in bettors:
        actions += [LegBet(who, c, k) for c in CAMELS for k in KINDS]
        actions += [FinalBet(who, pile, c) for pile in PILES for c in CAMELS]
    return [a for a in actions if isinstance(a, Reveal) or _is_legal(state, a)]


def _is_legal(state: State, action: Action | LegSetup) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


# --- the state as the replay JSON object -----------------------------------------------------


def state_json(state: State) -> dict[str, Any]:
    """The state as `replay --json` prints it; the issue's fields first, then what helps a page."""
    track: dict[str, list[str]] = {"0": list(state.start)} if state.start else {}
    track.update({str(s): list(stack) for s, stack in state.track.stacks if s <= state.length})
    return {
        "game": GAME,
        "leg": state.leg,
        "finished": state.finished,
        "turn": state.player_to_act,
        "track": track,
        "ranking": state.ranking,
        "players": [{"name": p.name, "money": p.money} for p in state.players],
        "winners": list(state.winners),
        "length": state.length,
        "sandstorm": state.sandstorm,
        "figures": dict(state.figures),
        "deck": state.deck,
        "crossed": [c for s, stack in state.track.stacks if s > state.length for c in stack],
        "setup": state.settings.as_json(),
        "leg_setup_due": state.due and not state.finished,
        "bet_open_to": state.last_mover if state.last_mover_may_bet else None,
        "leg_bets": {p.name: [_bet_json(b) for b in p.leg_bets] for p in state.players},
        "hand_played": {p.name: p.hand_played for p in state.players},
        "figure_cards": dict(state.holders),
        "winner_cards_left": {c: list(v) for c, v in state.winner_stacks},
        "midfield_taken": list(state.midfield_taken),
        "final_bets": {pile: {who: c for p, who, c in state.final_bets if p == pile}
                       for pile in PILES},
        "intel": [{"player": p, "camel": c, "value": v} for p, c, v in state.intel],
        "revealed": [{"camel": c, "value": v} for c, v in state.revealed],
        "payouts": payouts_json(state.payouts),
    }


def _bet_json(bet: Bet) -> dict[str, Any]:
    return {"camel": bet.camel, "kind": bet.kind, **({"value": bet.value} if bet.value else {})}



def leg_scoring_now(state: State) -> list[dict[str, Any]]:
    """What the leg payout would pay, line by line, if the leg ended this moment.

    Between legs nobody holds a leg card, and a finished race has no leg left to score.
    """
    if state.finished:
        return []
    return payouts_json(_score_leg(replace(state, payouts=())).payouts)


def header_for(view: Mapping[str, Any]) -> dict[str, Any]:
    """The header of a game brought in at the position a `state_json` object shows.

    Only a position between two legs (a leg_setup due) can be a header: within a leg the
    racing deck and the hands are secret, so such a view raises `BadHeader`, as does a
    finished race.
    """
    if view.get("finished"):
        raise BadHeader("the race is over: a finished game cannot be carried on")
    if not view.get("leg_setup_due"):
        raise BadHeader("only a position between legs can be a header: within a leg the "
                        "racing deck and the hands are secret")
    return {
        "game": GAME,
        "players": [p["name"] for p in view["players"]],
        "length": view["length"],
        "setup": view["setup"],
        "start": view["track"],
        "money": {p["name"]: p["money"] for p in view["players"]},
        "leg": view["leg"],
        "sandstorm": view["sandstorm"],
        "figures": view["figures"],
        "final_bets": view["final_bets"],
    }


def state_from_json(view: Mapping[str, Any]) -> State:
    """The state a `state_json` object shows, between two legs only.

    Raises `BadHeader` for a view within a leg or of a finished race (see `header_for`).
    """
    return initial_state(header_for(view))


def pieces(state: State, header: Mapping[str, Any]) -> dict[str, Any]:
    """The camels, the racing cards' values, the figures, the kinds of leg card, the piles
    and the Winner cards."""
    return {"camels": list(CAMELS), "values": list(CARDS_PER_COLOUR), "figures": list(FIGURES),
            "kinds": list(KINDS), "piles": list(PILES), "winner_cards": list(WINNER_CARDS)}


def new_header(players: Sequence[str], rng: random.Random) -> dict[str, Any]:
    """A new game's first line: the Leg Setup card for as many players (none for a number
    the game is not played by, which the header then refuses), and the camels' start."""
    players = list(players)
    header: dict[str, Any] = {"game": GAME, "players": players}
    if len(players) in LEG_SETUP:
        length, dealt, deck = LEG_SETUP[len(players)]
        left, intel = (2, 1) if len(players) >= 3 else (1, 0)
        kept = deck + left
        header |= {"length": length,
                   "setup": {"dealt": dealt, "discarded": dealt - kept, "kept": kept,
                             "deck": deck, "left": left, "intel": intel}}
    return {**header, "start": _start(rng)}


def _start(rng: random.Random) -> dict[str, list[str]]:
    """The camels' start as the rule book sets it: five racing cards revealed from the 30
    shuffled, each moving its camel on by its value with the camels on top of it (a camel
    leaves the Start card alone). Space "0" is the Start card."""
    on_start, track = set(CAMELS), Track()
    for camel, value in rng.sample(RACING_CARDS, SET_UP_CARDS):
        unit: tuple[str, ...]
        if camel in on_start:
            on_start.discard(camel)
            unit, space = (camel,), 0
        else:
            track, unit, space = track.lift(camel)
        track = track.drop(unit, space + value)
    start = {str(space): list(stack) for space, stack in track.as_dict().items()}
    return {"0": sorted(on_start), **start} if on_start else start


RULES = Rules(GAME, initial_state=initial_state, parse_action=parse_action, apply=apply,
              legal_actions=legal_actions, state_json=state_json,
              state_from_json=state_from_json, leg_scoring_now=leg_scoring_now,
              pieces=pieces, new_header=new_header, reads="card", odds="companion.cards_odds")
