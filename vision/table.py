"""What lies where on the table, in millimetres: the markers, the roll zone, the board.

The table's plane has x to the right and y away from the camera, as the camera sees it; the
markers' centres fix it. Defaults fit the marker sheet's 30 mm markers round a roll zone of
220 x 160 mm with the board to its left, as the renderer draws it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TableLayout:
    """Marker centres 0-3 (far left, far right, near right, near left), the roll zone and the
    board as (x0, y0, x1, y1), all in millimetres, and the side of a die."""

    markers: tuple[tuple[float, float], ...] = ((-10, 190), (250, 190), (250, -10), (-10, -10))
    marker_size: float = 30.0
    roll_zone: tuple[float, float, float, float] = (10, 10, 230, 170)
    board: tuple[float, float, float, float] = (-300, -40, -30, 240)
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
        values = {}
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
