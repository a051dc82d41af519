"""Many tracks at once: each camel's space and stack height packed in one small integer.

The odds go through hundreds of thousands of ways a leg can go and simulate thousands of
races; moving one camel at a time through the rules engine would take seconds. Here a batch
of tracks is one integer array, `cells` (a row per camel, a column per track: NumPy then runs
each step along one long row rather than along thousands of rows a few camels long, several
times quicker; tracks are picked with `take` and `compress` along that axis, which
`cells[:, picked]` does several times slower), each camel's cell being
`(space + MARGIN) * 8 + height`, so that one comparison tells which camel is ahead (a higher
cell: further along, or higher in the same stack) and which camels a move carries (the cells
from the mover's up to the top of its space). `move` moves a chosen camel on every track at
once by the very rules of `companion.rules.camelup` (stacks carried, top or under, tiles,
crazy camels), against which the tests check it outcome by outcome.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from companion.rules.camelup import Edition, State

MARGIN = 4
"""Spaces kept beyond each end of the track: a unit can end up to 4 past it (3 + a tile)."""

LEVELS = 3
"""Bits of a cell that hold the height in the stack (up to 8 camels high)."""


@dataclass(frozen=True, eq=False)
class Layout:
    """The camels of an edition as rows of `cells`: racing camels first, then crazy camels.

    One per edition, so one layout is equal only to itself.
    """

    camels: tuple[str, ...]
    racing: int
    direction: np.ndarray
    spaces: int
    beyond: np.ndarray
    """Whether each space (index: space + MARGIN) is past either end of the track: a unit
    there has crossed the finish line."""

    @classmethod
    def of(cls, edition: Edition) -> Layout:
        """The edition's layout, made once."""
        if edition.game not in _LAYOUTS:
            camels = edition.racing_camels + edition.crazy_camels
            direction = np.array([edition.direction(c) for c in camels], dtype=np.int16)
            beyond = np.ones(edition.spaces + 2 * MARGIN + 1, dtype=bool)
            beyond[MARGIN + 1: edition.spaces + MARGIN + 1] = False
            _LAYOUTS[edition.game] = cls(camels, len(edition.racing_camels), direction,
                                         edition.spaces, beyond)
        return _LAYOUTS[edition.game]

    def index(self, camel: str) -> int:
        return self.camels.index(camel)

    def cells(self, state: State) -> np.ndarray:
        """The state's track as one column of cells."""
        cells = np.zeros((len(self.camels), 1), dtype=np.int16)
        for space, stack in state.track.stacks:
            for level, camel in enumerate(stack):
                cells[self.index(camel), 0] = (space + MARGIN) << LEVELS | level
        return cells

    def tile_codes(self, tiles: dict[int, int]) -> np.ndarray:
        """Tile effect by space (index: space + MARGIN): +1 forward side, -1 backward, 0 none."""
        codes = np.zeros(self.spaces + 2 * MARGIN + 1, dtype=np.int16)
        for space, code in tiles.items():
            codes[space + MARGIN] = code
        return codes

    def order(self, cells: np.ndarray) -> list[np.ndarray]:
        """Racing camels (their rows in `cells`) per track, the leader first (higher in a stack
        is ahead): one array per place.

        The cells, each with its camel in its low bits (still a 16-bit number), go through a
        sorting network, one place against another for every track at once: far quicker than
        sorting track by track, but for a thousand tracks or fewer, where its many steps cost
        more than the sort.
        """
        if cells.shape[1] <= 1000:
            return list(np.argsort(-cells[: self.racing], axis=0))
        width = self.racing.bit_length()
        places = [cells[camel] << width | camel for camel in range(self.racing)]
        for ahead, behind in _sorting_network(self.racing):
            places[ahead], places[behind] = (np.maximum(places[ahead], places[behind]),
                                             np.minimum(places[ahead], places[behind]))
        return [place & ((1 << width) - 1) for place in places]


_LAYOUTS: dict[str, Layout] = {}


@functools.cache
def _sorting_network(size: int) -> tuple[tuple[int, int], ...]:
    """Batcher's odd-even merge sort for `size` places: the pairs of places to put in order,
    one pair after another (9 for five camels, where swapping neighbours takes 12)."""
    pairs = []
    span = 1
    while span < size:
        step = span
        while step >= 1:
            for first in range(step % span, size - step, 2 * step):
                for place in range(first, first + min(step, size - first - step)):
                    if place // (2 * span) == (place + step) // (2 * span):
                        pairs.append((place, place + step))
            step //= 2
        span *= 2
    return tuple(pairs)


def tile_sides(state: State) -> dict[int, int]:
    """The state's tiles as `Layout.tile_codes` takes them."""
    forward = state.edition.tile_sides[0]
    return {space: 1 if tile.side == forward else -1 for space, tile in state.tiles}


def target(layout: Layout, cells: np.ndarray, camel: np.ndarray, steps: np.ndarray, *,
           rows: np.ndarray | None = None) -> np.ndarray:
    """The space each moving camel reaches before any tile acts: camel i moves on track i of
    `cells`, or on track `rows[i]` if `rows` is given."""
    start = _cell(cells, camel, np.arange(len(camel)) if rows is None else rows) >> LEVELS
    return start - MARGIN + layout.direction[camel] * steps


def _cell(cells: np.ndarray, camel: np.ndarray, tracks: np.ndarray) -> np.ndarray:
    """The cell of `camel[i]` on track `tracks[i]`, taken from the cells flattened: two to three
    times quicker than `cells[camel, tracks]`."""
    return cells.take(camel.astype(np.intp) * cells.shape[1] + tracks)


def tile_at(codes: np.ndarray, space: np.ndarray) -> np.ndarray:
    """The tile code on each space; 0 off the track."""
    return codes[np.clip(space + MARGIN, 0, len(codes) - 1)]


def move(layout: Layout, cells: np.ndarray, camel: np.ndarray, steps: np.ndarray, *,
         codes: np.ndarray | None,
         code: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Move `camel[i]` on track i by each value in column i of `steps` (a row per value, or
    one column for every track), carrying what is above it.

    What a move carries is found once for all of a die's values: a third of the work of
    moving three copies of each track.
    The tiles are `codes` (by space; None where there are none, which spares a move their
    steps), or `code`, if given (shaped as `steps` and the tracks): the tile each unit lands
    on, whatever `codes` say.
    Returns the new cells, the tracks moved by the first value first, then by the next...;
    per moved track, the space of the tile the unit landed on (0 where it landed on none;
    None where there are no tiles), so callers can pay the tile's owner; and whether the unit
    crossed the finish line, either way (only a unit moved can have crossed it).
    """
    start = _cell(cells, camel, np.arange(len(camel)))
    spaces = cells >> LEVELS
    space = start >> LEVELS
    movers = (cells >= start) & (spaces == space)
    ahead = layout.direction[camel]
    reached = space + ahead * steps
    if code is None and codes is not None:
        code = codes.take(reached)
    final, landed, mirage = reached, None, None
    if code is not None:
        final = reached + ahead * code
        landed = ((reached - MARGIN) * (code != 0)).ravel()
        under = code < 0
        mirage = under if under.any() else None
    there = spaces[:, None] == final
    below = there.sum(axis=0, dtype=np.int16)
    if mirage is not None:
        below *= ~mirage
    shift = (final << LEVELS) + below - start
    if mirage is None:
        moved = cells[:, None] + movers[:, None] * shift
    else:  # the unit goes under the camels there and lifts them (its own camels move with it)
        lift = there * (mirage * movers.sum(axis=0, dtype=np.int16))
        moved = cells[:, None] + np.where(movers[:, None], shift, lift)
    return moved.reshape(len(cells), -1), landed, layout.beyond.take(final).ravel()


def crazy_camel_to_move(layout: Layout, cells: np.ndarray, numeral: np.ndarray) -> np.ndarray:
    """Which crazy camel the grey die moves on each track (rows), by the 2018 rule: the
    one `crazy_camel_forced` says, or else the one whose colour the numeral shows (`numeral`
    holds the row of that camel)."""
    forced = crazy_camel_forced(layout, cells)
    return np.where(forced < 0, numeral, forced).astype(np.int16)


def crazy_camel_forced(layout: Layout, cells: np.ndarray) -> np.ndarray:
    """The crazy camel (row) the grey die moves on each track whatever its numeral, -1 where
    the numeral decides.

    If only one crazy camel carries racing camels, that one; else if one sits directly on the
    other, the one on top. Each crazy camel scores 2 for carrying and 1 for sitting on the
    other, and the higher score moves: a few steps for every track at once, no choice made
    track by track.
    """
    racing = layout.racing
    crazy, racers = cells[racing:], cells[:racing, None]
    carries = ((racers > crazy) & (racers <= crazy | ((1 << LEVELS) - 1))).any(axis=0)
    score = carries.astype(np.int8) * 2 + (crazy == crazy[::-1] + 1)
    higher = np.sign(score[0] - score[1])
    return np.array([-1, racing, racing + 1], dtype=np.int16).take(higher)  # -1 takes the last
