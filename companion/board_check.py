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
