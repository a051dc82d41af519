"""Frames rendered beforehand, given to the table's camera as a live camera gives them: for the
camera tests and the table's benchmark."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from vision.sources import Frame


class Film:
    """A film of rendered images at `fps`, one frame a read, numbered from 0.

    `paced`, a frame goes out no sooner than its own time after the first; else as fast as it
    is read. Once the film ends it sets `done` and holds its last frame, as a camera keeps
    filming a table where nothing moves, or with `hold_last=False` gives None, as a camera
    gone. `delivered` notes the moment each frame that `marks` names (its number: a mark) went
    out, by its mark.
    """

    def __init__(self, images: Sequence[Any], *, fps: float = 30.0, paced: bool = False,
                 hold_last: bool = True, marks: Mapping[int, Any] | None = None) -> None:
        self.images, self.fps, self.paced, self.hold_last = images, fps, paced, hold_last
        self.marks = marks or {}
        self.delivered: dict[Any, float] = {}
        self.done = threading.Event()
        self._next = 0
        self._start = time.monotonic()

    def read(self) -> Frame | None:
        if self._next >= len(self.images):
            self.done.set()
            if not self.hold_last:
                return None
            time.sleep(0.02)
        elif self.paced:
            time.sleep(max(0.0, self._start + self._next / self.fps - time.monotonic()))
        k = min(self._next, len(self.images) - 1)
        if k == self._next and k in self.marks:
            self.delivered[self.marks[k]] = time.monotonic()
        frame = Frame(self.images[k], self._next / self.fps, self._next)
        self._next += 1
        return frame

    def close(self) -> None:
        pass
