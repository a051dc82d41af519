"""Many tracks at once: camel positions and stack heights as arrays, all moved in one call.

The odds go through hundreds of thousands of ways a leg can go and simulate thousands of
races; moving one camel at a time through the rules engine would take seconds. Here a batch
of tracks is two integer arrays, `pos` and `height` (a row per track, a column per camel),
and `move` moves a chosen camel on every row at once by the very rules of
`companion.rules.camelup` (stacks carried, top or under, tiles, crazy camels), against which
the tests check it outcome by outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.rules.camelup import Edition, State

MARGIN = 4
"""Spaces kept beyond each end of the track: a unit can end up to 4 past it (3 + a tile)."""


@dataclass(frozen=True)
class Layout:
    """The camels of an edition as columns: racing camels first, then crazy camels."""

    camels: tuple[str, ...]
    racing: int
    direction: np.ndarray
    spaces: int

    @classmethod
    def of(cls, edition: Edition) -> Layout:
        camels = edition.racing_camels + edition.crazy_camels
        direction = np.array([edition.direction(c) for c in camels], dtype=np.int16)
        return cls(camels, len(edition.racing_camels), direction, edition.spaces)

    def column(self, camel: str) -> int:
        return self.camels.index(camel)

    def rows(self, state: State) -> tuple[np.ndarray, np.ndarray]:
        """The state's track as one row of positions and one of heights."""
        pos = np.zeros((1, len(self.camels)), dtype=np.int16)
        height = np.zeros((1, len(self.camels)), dtype=np.int16)
        for space, stack in state.track.stacks:
            for level, camel in enumerate(stack):
                pos[0, self.column(camel)] = space
                height[0, self.column(camel)] = level
        return pos, height

    def tile_codes(self, tiles: dict[int, int]) -> np.ndarray:
        """Tile effect by space (index: space + MARGIN): +1 forward side, -1 backward, 0 none."""
        codes = np.zeros(self.spaces + 2 * MARGIN + 1, dtype=np.int16)
        for space, code in tiles.items():
            codes[space + MARGIN] = code
        return codes

    def finished(self, pos: np.ndarray) -> np.ndarray:
        """Rows where a unit has crossed the finish line, either way."""
        return ((pos < 1) | (pos > self.spaces)).any(axis=1)

    def order(self, pos: np.ndarray, height: np.ndarray) -> np.ndarray:
        """Racing camels' columns per row, the leader first (higher in a stack is ahead)."""
        key = pos[:, : self.racing].astype(np.int32) * 16 + height[:, : self.racing]
        return np.argsort(-key, axis=1, kind="stable")


def tile_sides(state: State) -> dict[int, int]:
    """The state's tiles as `Layout.tile_codes` takes them."""
    forward = state.edition.tile_sides[0]
    return {space: 1 if tile.side == forward else -1 for space, tile in state.tiles}


def target(layout: Layout, pos: np.ndarray, camel: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """The space each row's moving camel reaches before any tile acts."""
    return pos[np.arange(len(camel)), camel] + layout.direction[camel] * steps


def tile_at(codes: np.ndarray, space: np.ndarray) -> np.ndarray:
    """The tile code on each space; 0 off the track."""
    return codes[np.clip(space + MARGIN, 0, len(codes) - 1)]


def move(layout: Layout, pos: np.ndarray, height: np.ndarray, camel: np.ndarray,
         steps: np.ndarray, *, codes: np.ndarray, tiles_on: np.ndarray | None = None,
         code: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Move `camel[i]` by `steps[i]` on row i, carrying what is above it.

    Tiles act on every row, or only where `tiles_on` is true (they leave the track at the end
    of a leg); `code`, if given, is the tile each row's unit lands on, whatever `codes` say.
    Returns the new positions and heights and, per row, the space of the tile the unit landed
    on (0 where it landed on none), so callers can pay the tile's owner.
    """
    rows = np.arange(len(camel))
    start = pos[rows, camel]
    level = height[rows, camel]
    ahead = layout.direction[camel]
    movers = (pos == start[:, None]) & (height >= level[:, None])
    count = movers.sum(axis=1, dtype=np.int16)
    target = start + ahead * steps
    if code is None:
        code = tile_at(codes, target)
    if tiles_on is not None:
        code = np.where(tiles_on, code, 0)
    final = target + ahead * code
    under = code < 0
    there = (pos == final[:, None]) & ~movers
    below = np.where(under, 0, there.sum(axis=1, dtype=np.int16))
    new_height = np.where(movers, height - level[:, None] + below[:, None], height)
    new_height = np.where(there & under[:, None], height + count[:, None], new_height)
    new_pos = np.where(movers, final[:, None], pos)
    return new_pos, new_height, np.where(code != 0, target, 0)


def crazy_camel_to_move(layout: Layout, pos: np.ndarray, height: np.ndarray,
                        numeral: np.ndarray) -> np.ndarray:
    """Which crazy camel the grey die moves on each row (columns), by the 2018 rule.

    If only one crazy camel carries racing camels, that one; else if one sits directly on the
    other, the one on top; else the one whose colour the numeral shows (`numeral` holds the
    column of that camel).
    """
    first, second = layout.racing, layout.racing + 1
    racing_pos, racing_height = pos[:, : layout.racing], height[:, : layout.racing]

    def carries(crazy: int) -> np.ndarray:
        above = (racing_pos == pos[:, crazy, None]) & (racing_height > height[:, crazy, None])
        return above.any(axis=1)

    carry_first, carry_second = carries(first), carries(second)
    same = pos[:, first] == pos[:, second]
    second_on_first = same & (height[:, second] == height[:, first] + 1)
    first_on_second = same & (height[:, first] == height[:, second] + 1)
    choice = numeral.copy()
    choice = np.where(first_on_second, first, choice)
    choice = np.where(second_on_first, second, choice)
    choice = np.where(carry_first & ~carry_second, first, choice)
    return np.where(carry_second & ~carry_first, second, choice)
