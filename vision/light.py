"""How the light on a table has changed since a calibration shot: a cloud, dusk, a lamp
switched on or moved, the camera's exposure.

A reader learns its colours from one shot and compares every later frame with them. What the
shot showed of the bare table (a board, a mat, the wood) tells how the light has changed since:
each channel's log gain is a smooth surface over the frame, a quadratic in the pixel's place,
fitted to the ratio of the frame to the shot where the shot showed the table bare. What stands
there now and did not then (camels, dice, cards, a hand) is far off any smooth change, so the
surface is fitted, round after round, to the pixels nearest the one before (from the middle
change at first). A frame divided by the surface looks as the shot's light would show it. A
change with edges (a shadow across half the table, a lamp's glare left as it was while the
rest of the light dims) is not a smooth surface and is not allowed for.
"""

from __future__ import annotations

import cv2
import numpy as np

#: the light is measured on frames at this share of their size
SCALE = 0.25
#: the surface is fitted to the pixels off it by at most this many times the middle pixel's
#: distance, this many rounds
_NEAR = 2.5
_ROUNDS = 3
#: a region's gain is worked out at one pixel in this many each way, then enlarged
_STEP = 4


def small(image: np.ndarray) -> np.ndarray:
    """`image` at the size the light is measured at, in floats."""
    return cv2.resize(image, None, fx=SCALE, fy=SCALE,
                      interpolation=cv2.INTER_AREA).astype(np.float32)


class LightChange:
    """The light of a calibration shot (`shot`, BGR), and where the shot shows the table bare
    (`bare`, a mask at the size the light is measured at; every other pixel of it is used):
    what later frames are compared with to tell how the light has changed."""

    def __init__(self, shot: np.ndarray, bare: np.ndarray) -> None:
        self.shot = small(shot)
        """The shot at the size the light is measured at."""
        self._frame = shot.shape[:2]
        rows, columns = np.nonzero(bare)
        self._bare = rows[::2], columns[::2]
        self._terms = _terms(self._frame, (self._bare[1], self._bare[0]), SCALE)

    @classmethod
    def of_shot(cls, shot: np.ndarray) -> LightChange:
        """The light of a calibration shot of the roll zone (`shot`, BGR): the whole frame
        is the table, and the dice or cards lying in it, small and moved before the next
        frame, are among what is far off a smooth change."""
        return cls(shot, np.ones(small(shot).shape[:2], bool))

    def as_shot(self, frame: np.ndarray) -> np.ndarray:
        """`frame` (BGR bytes) as the shot's light would show it; a frame of another size
        than the shot's (another camera mode) as it is."""
        if frame.shape[:2] != self._frame:
            return frame
        height, width = self._frame
        return self.relit(frame, self.since(small(frame)), (0, 0, width, height))

    def since(self, frame: np.ndarray) -> np.ndarray:
        """How the light has changed from the shot to `frame` (at the size the light is
        measured at: `small`): each channel's log gain as a surface (6 x 3, the coefficients
        of `_terms`)."""
        change = np.log((frame[self._bare] + 1.0) / (self.shot[self._bare] + 1.0))
        # it starts from the middle change, which no hand or die can pull, not from a
        # surface fitted to every pixel: a hand over a fifth of the frame bends that one
        surface = np.zeros((self._terms.shape[1], 3), np.float32)
        surface[0] = np.median(change, axis=0)
        for _ in range(_ROUNDS):
            off = np.abs(change - self._terms @ surface).max(axis=1)
            fitted = off <= _NEAR * np.median(off)
            surface = np.linalg.lstsq(self._terms[fitted], change[fitted], rcond=None)[0]
        return surface

    def gain(self, surface: np.ndarray, box: tuple[int, int, int, int], scale: float
             ) -> np.ndarray:
        """Each channel's gain under the change `surface` at every pixel of `box` (x0, y0,
        x1, y1) of the frame at `scale`: worked out at one pixel in four each way, then
        enlarged, where the box is larger than the frame the light is measured on."""
        x0, y0, x1, y1 = box
        step = _STEP if scale > SCALE else 1
        grid = np.arange(x0, x1, step)[None], np.arange(y0, y1, step)[:, None]
        gain = np.exp(_terms(self._frame, grid, scale) @ surface.astype(np.float32))
        return gain if step == 1 else cv2.resize(gain, (x1 - x0, y1 - y0))

    def relit(self, image: np.ndarray, surface: np.ndarray, box: tuple[int, int, int, int],
              scale: float = 1.0) -> np.ndarray:
        """`image` (BGR bytes, the region `box` of a frame at `scale`) as the shot's light
        would show it, the light having changed since by `surface`."""
        return cv2.divide(image, self.gain(surface, box, scale), dtype=cv2.CV_8U)


def _terms(frame: tuple[int, ...], grid: tuple[np.ndarray, np.ndarray], scale: float
           ) -> np.ndarray:
    """The terms of a smooth surface over a frame of shape `frame` (1, x, y, x², xy, y², x
    and y from its middle in half its width and height) at the pixels of `grid` (their
    columns and rows, broadcast together) of the frame at `scale`."""
    height, width = frame[:2]
    columns, rows = grid
    x, y = np.broadcast_arrays((columns / scale - width / 2) / (width / 2),
                               (rows / scale - height / 2) / (height / 2))
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1).astype(np.float32)
