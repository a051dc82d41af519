"""What lies where on the table, in millimetres: the markers, the roll zone, the board and its
track, and the camels' size.

The table's plane has x to the right and y away from the camera, as the camera sees it; the
markers' centres fix it. Defaults fit the marker sheet's 30 mm markers round a roll zone of
220 x 160 mm with the board to its left, as the renderer draws it. The board's defaults are
estimates of the published games' boards (docs/vision.md says from what); a table whose board
differs changes only the `[vision.table] board` and `[vision.board]` keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np


@dataclass(frozen=True)
class TableLayout:
    """Marker centres 0-3 (far left, far right, near right, near left), the roll zone and the
    board as (x0, y0, x1, y1), all in millimetres, and the side of a die."""

    markers: tuple[tuple[float, float], ...] = ((-10, 190), (250, 190), (250, -10), (-10, -10))
    marker_size: float = 30.0
    roll_zone: tuple[float, float, float, float] = (10, 10, 230, 170)
    board: tuple[float, float, float, float] = (-470, -110, -30, 330)
    die_size: float = 16.0

    @property
    def roll_zone_corners(self) -> np.ndarray:
        """The roll zone's corners in the markers' order (far left first, clockwise)."""
        return _corners(self.roll_zone)

    @property
    def board_corners(self) -> np.ndarray:
        """The board's corners, in the same order."""
        return _corners(self.board)

    @classmethod
    def from_config(cls, table: Mapping) -> TableLayout:
        """A layout from a `[vision.table]` TOML table; keys left out keep their defaults."""
        known = {"markers", "marker_size", "roll_zone", "board", "die_size"}
        unknown = set(table) - known
        if unknown:
            raise ValueError(f"unknown key(s) in [vision.table]: {', '.join(sorted(unknown))}")
        values: dict[str, Any] = {}  # the fields given, each checked, for cls(**values)
        if "markers" in table:
            markers = tuple(tuple(float(v) for v in m) for m in table["markers"])
            if len(markers) != 4 or any(len(m) != 2 for m in markers):
                raise ValueError("[vision.table] markers must be four [x, y] pairs in mm")
            values["markers"] = markers
        for key in ("roll_zone", "board"):
            if key in table:
                box = tuple(float(v) for v in table[key])
                if len(box) != 4:
                    raise ValueError(f"[vision.table] {key} must be [x0, y0, x1, y1] in mm")
                values[key] = box
        for key in ("marker_size", "die_size"):
            if key in table:
                values[key] = float(table[key])
        return cls(**values)


def _corners(box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.array([(x0, y1), (x1, y1), (x1, y0), (x0, y0)], np.float64)


#: how many spaces the Camel Up track has, space 1 first
TRACK_SPACES = 16


@dataclass(frozen=True)
class BoardLayout:
    """The track on the board: the centres of its 16 spaces in table millimetres (space 1
    first, in the camels' running order), a space's side, a camel's (length, width, height)
    and the height each camel adds to a stack (less than its own: a camel sits in the hollow
    of the back below it)."""

    spaces: tuple[tuple[float, float], ...]
    space_size: float = 80.0
    camel: tuple[float, float, float] = (36.0, 14.0, 22.0)
    stack_step: float = 17.0

    @classmethod
    def around(cls, board: tuple[float, float, float, float]) -> BoardLayout:
        """The printed boards' track: 16 spaces round the board's edge, five a side with the
        corners shared, space 1 at the near left corner and the race running away from the
        camera up the left side."""
        x0, y0, x1, y1 = board
        pitch = min(x1 - x0, y1 - y0) / 5
        ax0, ay0, ax1, ay1 = x0 + pitch / 2, y0 + pitch / 2, x1 - pitch / 2, y1 - pitch / 2
        spaces = []
        for k in range(TRACK_SPACES):
            side, quarter = divmod(k, 4)
            f = quarter / 4
            spaces.append(((ax0, ay0 + f * (ay1 - ay0)), (ax0 + f * (ax1 - ax0), ay1),
                           (ax1, ay1 - f * (ay1 - ay0)), (ax1 - f * (ax1 - ax0), ay0))[side])
        return cls(tuple(spaces), space_size=round(0.9 * pitch, 1))

    def heading(self, space: int) -> float:
        """The direction the race runs through `space` (1-16), in radians from +x: from the
        space before it to the space after it, so a corner space runs diagonally."""
        before = np.array(self.spaces[(space - 2) % TRACK_SPACES])
        after = np.array(self.spaces[space % TRACK_SPACES])
        dx, dy = after - before
        return float(np.arctan2(dy, dx))

    @classmethod
    def from_config(cls, board: Mapping, table: TableLayout) -> BoardLayout:
        """A track from a `[vision.board]` TOML table; keys left out keep their defaults,
        the spaces round `table`'s board."""
        known = {"spaces", "space_size", "camel", "stack_step"}
        unknown = set(board) - known
        if unknown:
            raise ValueError(f"unknown key(s) in [vision.board]: {', '.join(sorted(unknown))}")
        layout = cls.around(table.board)
        values: dict = {}
        if "spaces" in board:
            spaces = tuple(tuple(float(v) for v in p) for p in board["spaces"])
            if len(spaces) != TRACK_SPACES or any(len(p) != 2 for p in spaces):
                raise ValueError(f"[vision.board] spaces must be {TRACK_SPACES} [x, y] centres "
                                 "in mm, space 1 first")
            values["spaces"] = spaces
        if "camel" in board:
            camel = tuple(float(v) for v in board["camel"])
            if len(camel) != 3 or min(camel) <= 0:
                raise ValueError("[vision.board] camel must be [length, width, height] in mm")
            values["camel"] = camel
        for key in ("space_size", "stack_step"):
            if key in board:
                value = float(board[key])
                if value <= 0:
                    raise ValueError(f"[vision.board] {key} must be more than 0 mm")
                values[key] = value
        return replace(layout, **values)
