"""The Last Camel (Das Letzte Kamel): two colour dice, camel jumps, oases, and the winner owns
the camel that finishes last.

Rule book 004 with the rulings in shared/rules/README.md; the log format is docs/game-log.md.
Unlike Camel Up, camels never stack: one space holds camels in the order they arrived, and a
camel moves alone. `apply` is pure: it returns a new state or raises `IllegalAction` naming
the rule, and never touches the state it was given.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
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
from companion.rules.players import check_form

GAME = "last-camel"
COLOURS = ("red", "yellow", "green", "blue")
FACES = (*COLOURS, "gold", "black")
"""Each die's faces: the four colours, the gold star (any camel forward), the black star (back)."""
CAMELS = ("red-yellow", "red-green", "red-blue", "yellow-green", "yellow-blue", "green-blue")
"""Named by their saddles, colours in the order of `COLOURS`."""
LEFT_OUT_FEW = ("red-yellow", "green-blue")
"""The camels out of the race with 2 or 3 players."""
START = 0
BLACK_STAR_RULES = ("not from", "not onto")
"""Where the black star may not move a camel back: from the start or an oasis (rule book 004,
the default), or onto them (German summaries of the original; a table's option)."""
PLAYER_COUNTS = range(2, 7)
BOARD_SPACES, BOARD_OASES = 25, (7, 13, 19)
"""The board a new game is given: the rule book prints none, so a track as long as the
example in docs/game-log.md, its oases evenly spread; a table whose board differs says so
in its first line."""
MOST_SPACES = 999


# --- actions: one frozen value per game-log line -------------------------------------------


@dataclass(frozen=True)
class Move:
    """One die used: it moves `camel` one space, forward (a colour, gold) or back (black)."""

    die: str
    camel: str

    def to_json(self) -> dict[str, str]:
        return {"die": self.die, "camel": self.camel}


@dataclass(frozen=True)
class Roll:
    """Both dice rolled and what the player did with them, in the order done.

    `dice` and `moves` are None in a roll listed by `legal_actions`, before the dice are seen.
    """

    player: str
    dice: tuple[str, str] | None = None
    moves: tuple[Move, ...] | None = None
    action: ClassVar[str] = "roll"

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"player": self.player, "action": self.action}
        if self.dice is not None:
            line["dice"] = list(self.dice)
        if self.moves is not None:
            line["moves"] = [m.to_json() for m in self.moves]
        return line


@dataclass(frozen=True)
class RevealOwner:
    """A player shows their owner card once every camel has finished."""

    player: str
    camel: str
    action: ClassVar[str] = "reveal_owner"

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "action": self.action, "camel": self.camel}


Action = Roll | RevealOwner


# --- the table ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """The board's settings: track spaces 1 to `spaces` between the start (0) and the palace,
    the three oases, and which black star rule the table plays."""

    spaces: int
    oases: tuple[int, ...]
    black_star: str = BLACK_STAR_RULES[0]

    def previous_stop(self, oasis: int) -> int:
        """The oasis before `oasis`, or the start for the first one."""
        before = [o for o in self.oases if o < oasis]
        return before[-1] if before else START


@dataclass(frozen=True)
class State:
    """Everything on the table between two actions."""

    board: Board
    players: tuple[str, ...]
    camels: tuple[str, ...]
    """The camels in this race, in the order of `CAMELS`."""
    track: tuple[tuple[int, tuple[str, ...]], ...]
    """Occupied spaces in order, each with its camels in the order they arrived."""
    cards: tuple[str | None, ...]
    """The owner card each player has shown, in seating order; None until shown."""
    finish_order: tuple[str, ...] = ()
    turn: int | None = 0

    @property
    def finished(self) -> bool:
        """Every camel has finished: the race is over, whatever cards are still to be shown."""
        return len(self.finish_order) == len(self.camels)

    @property
    def player_to_act(self) -> str | None:
        return None if self.turn is None else self.players[self.turn]

    @property
    def all_cards_shown(self) -> bool:
        return all(card is not None for card in self.cards)

    def space_of(self, camel: str) -> int | None:
        """Where `camel` stands; None once it has finished."""
        for space, camels in self.track:
            if camel in camels:
                return space
        return None

    def camels_at(self, space: int) -> tuple[str, ...]:
        return dict(self.track).get(space, ())

    @property
    def racing(self) -> tuple[str, ...]:
        """The camels still on the track, in the order of `CAMELS`."""
        return tuple(c for c in self.camels if c not in self.finish_order)

    @property
    def ranking(self) -> list[str]:
        """Finished camels first to last, then the others farther first; on one space the
        camel that arrived earlier ranks ahead."""
        on_track = [c for _, camels in reversed(self.track) for c in camels]
        return [*self.finish_order, *on_track]

    @property
    def winners(self) -> tuple[str, ...]:
        """Once every card is shown: the owner of the last camel to finish, if anyone owns it."""
        if not self.finished or not self.all_cards_shown:
            return ()
        last = self.finish_order[-1]
        return tuple(p for p, card in zip(self.players, self.cards, strict=True) if card == last)


# --- reading the game log ----------------------------------------------------------------------


def parse_action(line: Mapping[str, Any]) -> Action:
    """Read one game-log action line; a missing or badly formed field is refused."""
    err = IllegalAction
    player = as_name(require(line, "player", err), "player", err)
    name = as_choice(require(line, "action", err), "action", ("roll", "reveal_owner"), err)
    if name == "reveal_owner":
        return RevealOwner(player, as_choice(require(line, "camel", err), "camel", CAMELS, err))
    dice = as_list(require(line, "dice", err), "dice", err)
    if len(dice) != 2:
        raise err(f'"dice" must hold the two faces rolled, not {len(dice)}')
    dice = [as_choice(face, "dice", FACES, err) for face in dice]
    moves = as_list(require(line, "moves", err), "moves", err)
    if len(moves) > 2:
        raise err(f'"moves" holds {len(moves)} moves, more than the two dice make')
    return Roll(player, (dice[0], dice[1]), tuple(_parse_move(m) for m in moves))


def _parse_move(value: Any) -> Move:
    err = IllegalAction
    move = as_object(value, "moves", err)
    die = as_choice(require(move, "die", err), "die", FACES, err)
    return Move(die, as_choice(require(move, "camel", err), "camel", CAMELS, err))


def initial_state(header: Mapping[str, Any]) -> State:
    """The table as the header sets it: a fresh start or a race brought in part-way."""
    err = BadHeader
    names = [as_name(n, "players", err) for n in as_list(require(header, "players", err),
                                                            "players", err)]
    if not PLAYER_COUNTS.start <= len(names) < PLAYER_COUNTS.stop:
        raise err(f"{GAME} is played by {PLAYER_COUNTS.start} to {PLAYER_COUNTS.stop - 1} "
                  f"players, not {len(names)}")
    if len(set(names)) != len(names):
        raise err('"players" names someone twice: each player needs a name of their own')
    board = _parse_board(header)
    camels = CAMELS if len(names) > 3 else tuple(c for c in CAMELS if c not in LEFT_OUT_FEW)
    finish_order = _race_camels(header.get("finish_order", []), "finish_order", camels)
    if "start" in header:
        track = _parse_start(header["start"], board, camels)
    else:
        track = {START: [c for c in camels if c not in finish_order]}
    placed = [c for stack in track.values() for c in stack] + finish_order
    twice = sorted({c for c in placed if placed.count(c) > 1})
    if twice:
        raise err(f'"start" and "finish_order" hold {", ".join(twice)} more than once')
    missing = [c for c in camels if c not in placed]
    if missing:
        raise err(f'"start" and "finish_order" leave out {", ".join(missing)}: every camel '
                  "of the race stands on the track or has finished")
    turn = names.index(as_choice(header.get("turn", names[0]), "turn", names, err))
    state = State(board=board, players=tuple(names), camels=camels,
                  track=_track(track), finish_order=tuple(finish_order), turn=turn,
                  cards=(None,) * len(names))
    return replace(state, turn=None) if state.finished else state


def _parse_board(header: Mapping[str, Any]) -> Board:
    err = BadHeader
    spaces = as_int(require(header, "spaces", err), "spaces", err, low=3, high=MOST_SPACES)
    oases = as_list(require(header, "oases", err), "oases", err)
    if len(oases) != 3:
        raise err(f'"oases" must list the three oasis spaces, not {len(oases)}')
    oases = [as_int(o, "oases", err, low=1, high=spaces) for o in oases]
    if not oases[0] < oases[1] < oases[2]:
        raise err(f'"oases" must be three different spaces in increasing order, not {oases}')
    black_star = as_choice(header.get("black_star", BLACK_STAR_RULES[0]), "black_star",
                           BLACK_STAR_RULES, err)
    return Board(spaces, tuple(oases), black_star)


def _race_camels(value: Any, key: str, camels: tuple[str, ...]) -> list[str]:
    """A header's list of camels, each one of this race's."""
    err = BadHeader
    names = [as_choice(c, key, CAMELS, err) for c in as_list(value, key, err)]
    for camel in names:
        if camel not in camels:
            raise err(f'"{key}": {camel} is out of the race with 2 or 3 players')
    return names


def _parse_start(value: Any, board: Board, camels: tuple[str, ...]) -> dict[int, list[str]]:
    start = as_object(value, "start", BadHeader)
    track: dict[int, list[str]] = {}
    for key, stack in start.items():
        space = as_space_key(key, '"start"', BadHeader, low=START, high=board.spaces)
        track[space] = _race_camels(stack, f"start {key!r}", camels)
    return track


def _track(spaces: Mapping[int, Any]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    return tuple(sorted((s, tuple(c)) for s, c in spaces.items() if c))


# --- the rules ---------------------------------------------------------------------------------


def apply(state: State, action: Action) -> State:
    """The state after `action`, or `IllegalAction` naming the rule it breaks."""
    if state.finished and state.all_cards_shown:
        raise IllegalAction("the game is over: every camel has finished and every card is shown")
    if action.player not in state.players:
        raise IllegalAction(f"unknown player {action.player!r}: the players are "
                            f"{', '.join(state.players)}")
    if isinstance(action, Roll) and (action.dice is None or action.moves is None):
        raise IllegalAction("a roll needs the two dice rolled and the moves made with them")
    check_form(action, GAME, parse_action, (Roll, RevealOwner))
    if isinstance(action, RevealOwner):
        return _reveal_owner(state, action)
    return _roll(state, action)


def _reveal_owner(state: State, action: RevealOwner) -> State:
    if not state.finished:
        raise IllegalAction("owner cards are shown only once every camel has finished")
    seat = state.players.index(action.player)
    shown = state.cards[seat]
    if shown is not None:
        raise IllegalAction(f"{action.player} has already shown {shown}: each player has one "
                            "owner card")
    if action.camel not in state.camels:
        raise IllegalAction(f"{action.camel} is out of the race with 2 or 3 players: nobody "
                            "holds its card")
    if action.camel in state.cards:
        owner = state.players[state.cards.index(action.camel)]
        raise IllegalAction(f"{owner} has already shown {action.camel}: one card per camel")
    cards = tuple(action.camel if i == seat else c for i, c in enumerate(state.cards))
    return replace(state, cards=cards)


def _roll(state: State, roll: Roll) -> State:
    assert roll.dice is not None and roll.moves is not None
    if state.finished:
        raise IllegalAction("the race is over: every camel has finished, so nobody rolls; "
                            "each player shows their owner card")
    if roll.player != state.player_to_act:
        raise IllegalAction(f"it is {state.player_to_act}'s turn to roll, not {roll.player}'s")
    unused = list(roll.dice)
    for move in roll.moves:
        if move.die not in unused:
            if move.die in roll.dice:
                raise IllegalAction(f"the {move.die} die is used twice: each die moves once")
            raise IllegalAction(f"{move.die} was not rolled: the dice show "
                                f"{' and '.join(roll.dice)}")
        unused.remove(move.die)
    after = state
    for number, move in enumerate(roll.moves, start=1):
        try:
            after = move_camel(after, move)
        except IllegalAction as e:
            raise IllegalAction(f"move {number} ({move.die} on {move.camel}): {e}") from None
    if len(roll.moves) < 2:
        ways = roll_ways(state, roll.dice)
        if len(ways[0]) > len(roll.moves):
            raise IllegalAction(f"fewer moves than can be made: these dice can make "
                                f"{len(ways[0])}, for example {_words(ways[0])}; every die "
                                "that can move a camel must be used")
    if after.finished:
        return replace(after, turn=None)
    return replace(after, turn=(state.players.index(roll.player) + 1) % len(state.players))


def _words(moves: tuple[Move, ...]) -> str:
    return ", then ".join(f"{m.die} on {m.camel}" for m in moves)


def move_camel(state: State, move: Move) -> State:
    """One die's move on the board as it stands, or `IllegalAction` saying why not."""
    camel, die = move.camel, move.die
    if camel not in state.camels:
        raise IllegalAction(f"{camel} is out of the race with 2 or 3 players")
    space = state.space_of(camel)
    if space is None:
        raise IllegalAction(f"{camel} has finished: a finished camel never moves")
    if die == "black":
        return _move_back(state, camel, space)
    if die in COLOURS and die not in camel.split("-"):
        raise IllegalAction(f"{camel} has no {die} on its saddle: the {die} die moves a camel "
                            f"carrying {die}")
    return _move_forward(state, camel, space)


def _move_back(state: State, camel: str, space: int) -> State:
    board = state.board
    if space == START:
        raise IllegalAction(f"the black star never moves a camel back from the start: "
                            f"{camel} is on it")
    if board.black_star == "not from" and space in board.oases:
        raise IllegalAction(f"the black star never moves a camel back from an oasis: {camel} "
                            f"is on the oasis on {space}")
    if board.black_star == "not onto" and (space - 1 == START or space - 1 in board.oases):
        where = "the start" if space - 1 == START else f"the oasis on {space - 1}"
        raise IllegalAction(f"this table plays the black star never moving a camel back onto "
                            f"the start or an oasis: {camel} would go onto {where}")
    return _place(state, camel, space - 1)


def _move_forward(state: State, camel: str, space: int) -> State:
    board = state.board
    blocker = _lock(state, space, camel) if space in board.oases else None
    if blocker is not None:
        raise IllegalAction(f"{camel} may not leave the oasis on {space}: it is locked while "
                            f"{blocker} stands on or behind {_stop_words(board, space)}")
    landing = space + 1
    jump = len(state.camels_at(landing)) if landing <= board.spaces else 0
    target = landing + jump
    for oasis in board.oases:
        if jump and landing <= oasis < target and _lock(state, oasis, camel) is not None:
            target = oasis
            break
    return _place(state, camel, target)


def _lock(state: State, oasis: int, mover: str) -> str | None:
    """The camel (other than `mover`) that locks `oasis` now, standing on or behind its
    previous stop; None when the oasis is open."""
    stop = state.board.previous_stop(oasis)
    for space, camels in state.track:
        if space > stop:
            break
        for camel in camels:
            if camel != mover:
                return camel
    return None


def _stop_words(board: Board, oasis: int) -> str:
    stop = board.previous_stop(oasis)
    return "the start" if stop == START else f"the oasis on {stop}"


def _place(state: State, camel: str, target: int) -> State:
    """`camel` leaves its space and ends its move on `target`, last in arrival order; past the
    last space it has finished and leaves the track."""
    spaces = {s: tuple(c for c in camels if c != camel) for s, camels in state.track}
    if target > state.board.spaces:
        return replace(state, track=_track(spaces), finish_order=(*state.finish_order, camel))
    spaces[target] = (*spaces.get(target, ()), camel)
    return replace(state, track=_track(spaces))


# --- what can be played now --------------------------------------------------------------------


def _moves_open(state: State, dice: tuple[str, ...]) -> Iterator[tuple[Move, State]]:
    """Every single die move the board allows now, with the board after it."""
    for die in dict.fromkeys(dice):
        for camel in state.racing:
            try:
                yield Move(die, camel), move_camel(state, Move(die, camel))
            except IllegalAction:
                continue


def roll_ways(state: State, dice: tuple[str, str]) -> list[tuple[Move, ...]]:
    """Every legal way to use `dice`: the move sequences using as many dice as any order and
    choice of camels allows (`[()]` when neither die can move a camel)."""
    ones: list[tuple[Move, ...]] = []
    twos: list[tuple[Move, ...]] = []
    for first, after in _moves_open(state, dice):
        rest = list(dice)
        rest.remove(first.die)
        ones.append((first,))
        twos += [(first, second) for second, _ in _moves_open(after, tuple(rest))]
    return twos or ones or [()]


def legal_rolls(state: State, dice: tuple[str, str]) -> list[Roll]:
    """The rolls the player to act may log once `dice` are seen, one per legal way to move."""
    if state.player_to_act is None:
        return []
    return [Roll(state.player_to_act, dice, moves) for moves in roll_ways(state, dice)]


def legal_actions(state: State) -> list[Action]:
    """What may be logged now. During the race: one roll, its dice and moves not yet known
    (`legal_rolls` lists the move choices once the dice are seen). After it: every card each
    player who has not shown one may still show; reveals are not turns."""
    if not state.finished:
        assert state.player_to_act is not None
        return [Roll(state.player_to_act)]
    open_camels = [c for c in state.camels if c not in state.cards]
    return [RevealOwner(player, camel)
            for player, card in zip(state.players, state.cards, strict=True) if card is None
            for camel in open_camels]


# --- the state as the replay JSON object -------------------------------------------------------


def state_json(state: State) -> dict[str, Any]:
    """The state as `replay --json` prints it; owner cards appear only once shown."""
    return {
        "game": GAME,
        "leg": 1,
        "finished": state.finished,
        "turn": state.player_to_act,
        "track": {str(space): list(camels) for space, camels in state.track},
        "ranking": state.ranking,
        "players": [{"name": p, "camel": card}
                    for p, card in zip(state.players, state.cards, strict=True)],
        "winners": list(state.winners),
        "spaces": state.board.spaces,
        "oases": list(state.board.oases),
        "black_star": state.board.black_star,
        "finish_order": list(state.finish_order),
    }


def header_for(view: Mapping[str, Any]) -> dict[str, Any]:
    """The header of a race brought in at the position a `state_json` object shows."""
    header: dict[str, Any] = {"game": GAME, "players": [p["name"] for p in view["players"]]}
    for key in ("spaces", "oases", "black_star", "finish_order"):
        if key in view:
            header[key] = view[key]
    header["start"] = view["track"]
    if view.get("turn") is not None:
        header["turn"] = view["turn"]
    return header


def state_from_json(view: Mapping[str, Any]) -> State:
    """The state a `state_json` object shows: its header, then the cards already shown."""
    state = initial_state(header_for(view))
    for p in view["players"]:
        if p.get("camel") is not None:
            try:
                state = _reveal_owner(state, RevealOwner(p["name"], p["camel"]))
            except IllegalAction as e:
                raise BadHeader(f"players: {e}") from None
    return state


def leg_scoring_now(state: State) -> list[dict[str, Any]]:
    """There are no legs and no money: nothing is ever scored before the end."""
    return []


def pieces(state: State, header: Mapping[str, Any]) -> dict[str, Any]:
    """The camels in this race, the dice's faces and the colours among them."""
    return {"camels": list(state.camels), "faces": list(FACES), "colours": list(COLOURS)}


def choices(state: State) -> dict[str, Any]:
    """Every legal way to use each pair of faces the two dice can show, so a page offers only
    the camels a die can move (and no move when neither can): `rolls` maps "FACE FACE" (in
    the order of the faces) to the move lists a roll of them may log."""
    if state.finished:
        return {"rolls": {}}
    return {"rolls": {
        f"{a} {b}": [[m.to_json() for m in way] for way in roll_ways(state, (a, b))]
        for i, a in enumerate(FACES) for b in FACES[i:]}}


def new_header(players: Sequence[str], rng: random.Random) -> dict[str, Any]:
    """A new game's first line: the players and a board (`BOARD_SPACES`, `BOARD_OASES`);
    every camel on the start space, as the rule book begins."""
    return {"game": GAME, "players": list(players), "spaces": BOARD_SPACES,
            "oases": list(BOARD_OASES)}


RULES = Rules(GAME, initial_state=initial_state, parse_action=parse_action, apply=apply,
              legal_actions=legal_actions, state_json=state_json,
              state_from_json=state_from_json, leg_scoring_now=leg_scoring_now,
              pieces=pieces, new_header=new_header, choices=choices, reads="face")
