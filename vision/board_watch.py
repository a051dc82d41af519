"""The board watched frame by frame, and read once each time it comes to rest.

Reading the board takes tens of milliseconds and means something only when nobody is moving
camels: a frame halfway through a move shows a stack in the air. The watch looks at each frame
small, over the board and what stands on it, and compares it with the frame before. Once
something has moved there and the board has then been still for `still_time` seconds, the
board is read, once; a frame with a hand over it is not a reading, and the watch waits for
the next still moment. A board nobody touches is read again every `recheck_time` seconds, so
whoever compares it with a game learns that it is still as it was (a camel nobody moved).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.board import BoardReader, BoardReading
from vision.track_view import SHIFT

#: seconds the board must be still before it is read: a hand setting a stack down has left
STILL_TIME = 1.0
#: seconds after which a board still all along is read again
RECHECK_TIME = 10.0
#: the frames are compared at this share of their size: enough to see a camel move
_SCALE = 0.25
#: a pixel whose brightness changed by more than this (of 255) from the frame before moved
_CHANGE = 12
#: the board moved when more pixels than this share of a space's area changed
_MOVED = 0.15


class BoardWatch:
    """Frames in (`feed`), a reading of the board out each time it has come to rest."""

    def __init__(self, reader: BoardReader, *, still_time: float = STILL_TIME,
                 recheck_time: float = RECHECK_TIME) -> None:
        self.reader = reader
        self.still_time = still_time
        self.recheck_time = recheck_time
        view = reader.view
        self._mask: np.ndarray | None = None
        tallest = (len(reader.names) - 1) * view.track.stack_step + view.track.camel[2]
        self._outline = view.board_outline(scale=_SCALE, height=tallest)
        space = view.track.space_size * _SCALE * reader.pixels_per_mm
        self._moved = _MOVED * space * space
        self._before: np.ndarray | None = None
        self.still_since = 0.0
        """When (frame time) the board last moved: a reading says what stood still since."""
        self._read_at = -recheck_time
        self._due = True

    def feed(self, image: np.ndarray, time: float,
             against: Mapping[int, Sequence[str]] | None = None) -> BoardReading | None:
        """The board read from `image` (taken at `time` seconds; `against` a board, as
        `BoardReader.read` is) if it has just come to rest after moving, or has not been read
        for `recheck_time`; else None."""
        small = cv2.cvtColor(cv2.resize(image, None, fx=_SCALE, fy=_SCALE,
                                        interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        if self._mask is None or self._mask.shape != small.shape:
            self._mask = np.zeros(small.shape, np.uint8)
            cv2.fillConvexPoly(self._mask, self._outline, 255, shift=SHIFT)
            self._before, self.still_since = None, time
        if self._before is not None:
            changed = cv2.absdiff(small, self._before) > _CHANGE
            if np.count_nonzero(changed & (self._mask > 0)) > self._moved:
                self.still_since, self._due = time, True
        self._before = small
        due = self._due or time - self._read_at >= self.recheck_time
        if not due or time - self.still_since < self.still_time:
            return None
        reading = self.reader.read(image, against)
        if reading.hand:
            self.still_since = time
            return None
        self._due, self._read_at = False, time
        return reading
