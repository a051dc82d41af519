"""The board the camera sees against the track the game has: where they disagree, and the roll
that explains the board.

The camera reads the camels on each space, bottom to top, with None for a camel it knows is
there but cannot see or tell (vision.board). A space agrees when it holds as many camels as
the game says, each the camel the game has there or None. When the board disagrees right
after a roll, the likeliest cause is a misread die: the rolls that, in place of the game's
last roll, would leave a track the board agrees with are the fix to offer, one tap, when
there is exactly one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from companion.errors import IllegalAction
from companion.game import Game
from companion.rules.track import Track

if TYPE_CHECKING:
    from companion.rules import camelup

#: the spaces of the track the camera reads
SPACES = range(1, 17)
#: the camera raises a board alert only when it is at least this sure that the frame shows
#: another board than the game's: that board, drawn as the camera would see it, fits the frame
#: clearly worse than the one it read. Chosen over the tuning tables 600,000-600,047 once the
#: reader tried every order of each stack (a training figure; bench/board.py's frames): no
#: alert on 188 boards placed right (3 at 0.5, tall stacks whose wrong order fits the frame a
#: little better, 0.51-0.55 sure), an alert on 187 of 188 placed wrong (a camel a space on, or
#: two neighbours swapped; the least sure caught 0.68)
SURE = 0.6

Board = Mapping[int, Sequence[str | None]]
"""What the camera read: the camels on each space (1-16), bottom to top; empty spaces out."""


@dataclass(frozen=True)
class Disagreement:
    """A space where the camera and the game disagree: what each says stands there."""

    space: int
    game: tuple[str, ...]
    camera: tuple[str | None, ...]

    def to_json(self) -> dict[str, Any]:
        return {"space": self.space, "game": list(self.game), "camera": list(self.camera)}


def disagreements(track: Track, board: Board) -> list[Disagreement]:
    """The spaces of the track where `board` contradicts `track`."""
    each = (Disagreement(space, track.stack_at(space), tuple(board.get(space, ())))
            for space in SPACES)
    return [d for d in each if not _agrees(d.game, d.camera)]


def _agrees(game: Sequence[str], camera: Sequence[str | None]) -> bool:
    return len(game) == len(camera) and all(c is None or c == g
                                            for g, c in zip(game, camera, strict=True))


def track_stacks(track: Mapping[str, Sequence[str]]) -> dict[int, tuple[str, ...]]:
    """A page's track (each space as text: its camels bottom to top) as the board's stacks,
    empty spaces left out: what the camera reads a board against, and the demo lays out."""
    return {int(space): tuple(pile) for space, pile in track.items() if pile}


def reads_board(game: Game) -> bool:
    """Whether the camera's board can be checked against `game`: a game of the board, its
    camels on a track of 16 spaces moved by its dice."""
    state = game.state
    return isinstance(getattr(state, "track", None), Track) and hasattr(state, "edition")


def board_game_state(game: Game) -> camelup.State:
    """The state of a game whose board the camera reads (see `reads_board`): Camel Up's."""
    return cast("camelup.State", game.state)


@dataclass(frozen=True)
class SeenBoard:
    """A board the camera read still: the camels on each space; the track it was read
    against and how sure it is that the frame shows another (0 to 1); where each space is in
    the picture it was read from; and for how many seconds nobody had touched the board then
    (None: the camera does not say)."""

    stacks: Mapping[int, tuple[str | None, ...]]
    against: Track
    contradicts: float
    picture: Mapping[str, Any] | None = None
    still: float | None = None

    @classmethod
    def from_json(cls, line: Any) -> SeenBoard:
        """The board in a camera's reading (`vision.board`'s JSON: `stacks`, each a `space`
        and its `camels` bottom to top; `against` the track it was read against, as a page's
        `track`, and `contradicts`; a `picture` and `still`), checked: an `IllegalAction`
        says what is wrong with it."""
        stacks = line.get("stacks") if isinstance(line, Mapping) else None
        if not isinstance(stacks, list):
            raise IllegalAction('a board reading has "stacks": a list of spaces and their '
                                "camels")
        board: dict[int, tuple[str | None, ...]] = {}
        for stack in stacks:
            space, camels = (stack.get(k) if isinstance(stack, Mapping) else None
                             for k in ("space", "camels"))
            if not (isinstance(space, int) and not isinstance(space, bool) and space in SPACES
                    and isinstance(camels, list) and camels
                    and all(c is None or isinstance(c, str) for c in camels)):
                raise IllegalAction(f"a stack of a board reading is a space 1-16 and its "
                                    f"camels bottom to top, not {stack!r}")
            if space in board:
                raise IllegalAction(f"a board reading gives space {space} twice")
            board[space] = tuple(camels)
        against = line.get("against")
        try:
            track = Track.from_stacks({int(space): pile for space, pile in against.items()})
        except (AttributeError, TypeError, ValueError):
            raise IllegalAction(f'"against" is the track the board was read against, not '
                                f"{against!r}") from None
        contradicts = _number(line, "contradicts", "how sure the board is another, 0 to 1", 1.0)
        if contradicts is None:
            raise IllegalAction('a board reading says how sure the board is another than the '
                                'track it was read against: "contradicts", 0 to 1')
        picture = line.get("picture")
        return cls(board, track, contradicts, picture if isinstance(picture, Mapping) else None,
                   _number(line, "still", "the seconds the board had been still"))

    def contradicts_surely(self, track: Track) -> bool:
        """Whether the camera is sure enough that the board is not `track` to raise an
        alert: read against that very track, and at least SURE that the frame shows
        another. Read against another track (the game moved on since), it cannot say."""
        return self.against == track and self.contradicts >= SURE


def _number(line: Mapping[str, Any], key: str, what: str, most: float | None = None
            ) -> float | None:
    """The number `key` of a reading, if any, checked to be 0 or more (and at most `most`)."""
    value = line.get(key)
    if value is None:
        return None
    if not (isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
            and (most is None or value <= most)):
        raise IllegalAction(f'"{key}" is {what}, not {value!r}')
    return float(value)


def board_alert(game: Game, seen: SeenBoard) -> dict[str, Any] | None:
    """What every page shows when the board the camera read contradicts `game`: the spaces,
    and the fix to offer in one tap (`fix`: the index of the last roll and the roll to put in
    its place, when exactly one explains the board; `rolls`: how many do). None when they
    agree, or when the camera is not sure the frame shows another board than the game's: it
    says nothing until its next look (the next time the board comes to rest)."""
    track = board_game_state(game).track
    wrong = disagreements(track, seen.stacks)
    if not wrong or not seen.contradicts_surely(track):
        return None
    rolls = explaining_rolls(game, seen.stacks)
    return {"disagreements": [d.to_json() for d in wrong], "rolls": len(rolls),
            "fix": ({"index": _last_roll(game), "action": rolls[0].to_json()}
                    if len(rolls) == 1 else None)}


def _last_roll(game: Game) -> int | None:
    """The index of the game's last roll; None before the first."""
    return max((k for k, action in enumerate(game.actions) if action.action == "roll"),
               default=None)


def explaining_rolls(game: Game, board: Board) -> list[camelup.Roll]:
    """The rolls that, in place of the game's last roll, would leave a track `board` agrees
    with, the actions after it replayed: every die of the game, each value, each numeral
    colour; none when the game has no roll yet."""
    last = _last_roll(game)
    if last is None:
        return []
    edition = board_game_state(game).edition
    roll = cast("camelup.Roll", game.actions[last])
    found = []
    for die in edition.dice:
        numerals = edition.crazy_camels if die not in edition.camels else (None,)
        for value in (1, 2, 3):
            for numeral in numerals:
                candidate = replace(roll, die=die, value=value, numeral=numeral)
                if candidate == roll:
                    continue
                trial = game.copy()
                try:
                    trial.replace(last, candidate)
                except IllegalAction:
                    continue
                if not disagreements(board_game_state(trial).track, board):
                    found.append(candidate)
    return found
