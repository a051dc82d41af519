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
from typing import Any

from companion.errors import IllegalAction
from companion.game import Game
from companion.rules.track import Track

#: the spaces of the track the camera reads
SPACES = range(1, 17)
#: the camera raises a board alert only over stacks it read at least this sure. Chosen on the
#: demo's board camera over tuning tables 600,004-600,011 (a training figure): no alert on 39
#: boards placed right, an alert on 28 of 36 placed wrong (the rest are looked at again the
#: next time the board comes to rest)
SURE = 0.8

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


def reads_board(game: Game) -> bool:
    """Whether the camera's board can be checked against `game`: a game of the board, its
    camels on a track of 16 spaces moved by its dice."""
    state = game.state
    return isinstance(getattr(state, "track", None), Track) and hasattr(state, "edition")


@dataclass(frozen=True)
class SeenBoard:
    """A board the camera read still: the camels on each space, how sure it is of each
    stack (0 to 1), where each space is in the picture it was read from, and for how many
    seconds nobody had touched the board then (None: the camera does not say)."""

    stacks: Mapping[int, tuple[str | None, ...]]
    confidence: Mapping[int, float]
    picture: Mapping[str, Any] | None = None
    still: float | None = None

    @classmethod
    def from_json(cls, line: Any) -> SeenBoard:
        """The board in a camera's reading (`vision.board`'s JSON: `stacks`, each a `space`,
        its `camels` bottom to top and a `confidence`; and a `picture`), checked: an
        `IllegalAction` says what is wrong with it."""
        stacks = line.get("stacks") if isinstance(line, Mapping) else None
        if not isinstance(stacks, list):
            raise IllegalAction('a board reading has "stacks": a list of spaces and their '
                                "camels")
        board: dict[int, tuple[str | None, ...]] = {}
        sure: dict[int, float] = {}
        for stack in stacks:
            space, camels, confidence = (stack.get(k) if isinstance(stack, Mapping) else None
                                         for k in ("space", "camels", "confidence"))
            if not (isinstance(space, int) and not isinstance(space, bool) and space in SPACES
                    and isinstance(camels, list) and camels
                    and all(c is None or isinstance(c, str) for c in camels)
                    and isinstance(confidence, int | float) and 0 <= confidence <= 1):
                raise IllegalAction(f"a stack of a board reading is a space 1-16, its camels "
                                    f"bottom to top and a confidence, not {stack!r}")
            if space in board:
                raise IllegalAction(f"a board reading gives space {space} twice")
            board[space], sure[space] = tuple(camels), float(confidence)
        picture, still = line.get("picture"), line.get("still")
        if still is not None and not (isinstance(still, int | float)
                                      and not isinstance(still, bool) and still >= 0):
            raise IllegalAction(f'"still" is the seconds the board had been still, not '
                                f"{still!r}")
        return cls(board, sure, picture if isinstance(picture, Mapping) else None,
                   None if still is None else float(still))

    def is_sure_of(self, space: int) -> bool:
        """Whether the camera is sure enough of what stands on `space` to raise an alert
        over it: a space it saw empty, or a stack read at least SURE."""
        return self.confidence.get(space, 1.0) >= SURE


def board_alert(game: Game, seen: SeenBoard) -> dict[str, Any] | None:
    """What every page shows when the board the camera read contradicts `game`: the spaces,
    and the fix to offer in one tap (`fix`: the index of the last roll and the roll to put in
    its place, when exactly one explains the board; `rolls`: how many do). None when they
    agree, or when the camera is unsure of a space where they disagree: it says nothing
    until it has a better look (the next time the board comes to rest)."""
    wrong = disagreements(game.state.track, seen.stacks)
    if not wrong or not all(seen.is_sure_of(d.space) for d in wrong):
        return None
    rolls = explaining_rolls(game, seen.stacks)
    last = max((k for k, action in enumerate(game.actions) if action.action == "roll"),
               default=None)
    return {"disagreements": [d.to_json() for d in wrong], "rolls": len(rolls),
            "fix": ({"index": last, "action": rolls[0].to_json()} if len(rolls) == 1
                    else None)}


def explaining_rolls(game: Game, board: Board) -> list[Any]:
    """The rolls that, in place of the game's last roll, would leave a track `board` agrees
    with, the actions after it replayed: every die of the game, each value, each numeral
    colour; none when the game has no roll yet."""
    rolls = [k for k, action in enumerate(game.actions) if action.action == "roll"]
    if not rolls:
        return []
    last = rolls[-1]
    edition = game.state.edition
    found = []
    for die in edition.dice:
        numerals = edition.crazy_camels if die not in edition.camels else (None,)
        for value in (1, 2, 3):
            for numeral in numerals:
                candidate = replace(game.actions[last], die=die, value=value, numeral=numeral)
                if candidate == game.actions[last]:
                    continue
                trial = game.copy()
                try:
                    trial.replace(last, candidate)
                except IllegalAction:
                    continue
                if not disagreements(trial.state.track, board):
                    found.append(candidate)
    return found
