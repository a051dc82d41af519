"""Where a calibrated table's track and the camels on it lie in the camera's image.

The calibration's homography gives the camera (vision.calibrate.TableCalibration.camera), so
any point above the table projects into the image: a camel is a box of `[vision.board]
camel` size standing on its space's middle, turned along the race, `stack_step` higher for
each camel below it. The board reader draws these outlines and reads what lies in them.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibrate import CalibrationError, TableCalibration
from vision.colours import as_bgr, colour_distance, colour_feature
from vision.table import BoardLayout

#: outlines are drawn with this many fractional bits (cv2's `shift`), so a small image keeps
#: a camel's outline to a fraction of a pixel
SHIFT = 4


class TrackView:
    """The camera's view of a table's track, for up to `most` camels in one stack."""

    def __init__(self, table: TableCalibration, track: BoardLayout, most: int) -> None:
        if table.camera is None:
            raise CalibrationError("the camera looks straight down on the table: the board is "
                                   "read from an angle (25 to 55 degrees off vertical)")
        self.table = table
        self.track = track
        #: where the camera is, in table millimetres
        self.eye = table.eye
        self.most = most

    def distance(self, space: int) -> float:
        """How far `space` (1-16) lies from the point of the table under the camera (mm)."""
        x, y = self.track.spaces[space - 1]
        return float(np.hypot(x - self.eye[0], y - self.eye[1]))

    def camel_outline(self, space: int, level: int, *, grow: float = 0.0, levels: int = 1,
                      head: float = 0.0, scale: float = 1.0) -> np.ndarray:
        """The outline in the image (`scale` times the frame, SHIFT fractional bits) of the
        camel `level` up the stack on `space`, its box grown by `grow` mm each way across
        the table, `levels` camels tall, and `head` times a camel's height more on top."""
        middle, along, across = self._axes(space)
        length, width, height = self.track.camel
        a, b = length / 2 + grow, width / 2 + grow
        foot = [middle + along * u + across * v for u in (-a, a) for v in (-b, b)]
        z0 = level * self.track.stack_step
        z1 = z0 + (levels - 1) * self.track.stack_step + height * (1 + head)
        return cv2.convexHull(self._pixels([(*f, z) for f in foot for z in (z0, z1)], scale))

    def board_outline(self, *, scale: float = 1.0, height: float = 0.0) -> np.ndarray:
        """The outline in the image (SHIFT fractional bits) of the track's spaces and of
        everything up to `height` mm above them."""
        x0, y0, x1, y1 = self.extent()
        return cv2.convexHull(self._pixels(
            [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (0.0, height)], scale))

    def space_outline(self, space: int, share: float = 1.0, *, scale: float = 1.0
                      ) -> np.ndarray:
        """The outline in the image (SHIFT fractional bits) of `space`'s square, `share` of
        its side, on the board."""
        x, y = self.track.spaces[space - 1]
        half = self.track.space_size * share / 2
        return self._pixels([(x - half, y - half, 0.0), (x + half, y - half, 0.0),
                             (x + half, y + half, 0.0), (x - half, y + half, 0.0)], scale)

    def _pixels(self, points: list, scale: float) -> np.ndarray:
        """Table points (mm, z up) in the image, `scale` times the frame, SHIFT fractional
        bits, as OpenCV draws them."""
        uv = self.table.project(np.array(points, np.float64))
        return np.round(uv * scale * (1 << SHIFT)).astype(np.int32)

    def _axes(self, space: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`space`'s middle (table mm), the direction the race runs through it, and the
        direction across it."""
        yaw = self.track.heading(space)
        along = np.array([np.cos(yaw), np.sin(yaw)])
        return np.array(self.track.spaces[space - 1]), along, np.array([-along[1], along[0]])

    def extent(self) -> tuple[float, float, float, float]:
        """The track's extent in mm: half a space beyond its outer spaces' middles."""
        spaces = np.array(self.track.spaces)
        half = self.track.space_size / 2
        (x0, y0), (x1, y1) = spaces.min(0) - half, spaces.max(0) + half
        return float(x0), float(y0), float(x1), float(y1)

    def standing(self, image: np.ndarray, space: int
                 ) -> tuple[tuple[float, ...], tuple[tuple[float, float, float], ...]] | None:
        """What stands alone on `space` (set-up): how far the colours of a camel's side
        facing the camera and of its back each lie from the board's round the space
        (colour_distance units), and those two colours (None: out of view)."""
        x, y = self.track.spaces[space - 1]
        length, width, height = self.track.camel
        centre, along, across = self._axes(space)
        middle, direction, half = self._face(space)
        side = [(*(middle + direction * a), z) for z in np.linspace(0.3, 0.7, 5) * height
                for a in np.linspace(-0.3, 0.3, 5) * half]
        back = [(*(centre + along * a + across * b), height)
                for a in np.linspace(-0.3, 0.2, 4) * length
                for b in np.linspace(-0.2, 0.2, 3) * width]
        reach = 0.38 * self.track.space_size
        ground = [(x + dx * reach, y + dy * reach, 0.0) for dx in (-1, 1) for dy in (-1, 1)]
        uv = self.table.project(np.array(side + back + ground, np.float64))
        h, w = image.shape[:2]
        if uv.min() < 0 or uv[:, 0].max() >= w - 1 or uv[:, 1].max() >= h - 1:
            return None
        flat = uv.reshape(-1, 1, 2).astype(np.float32)
        colours = cv2.remap(image, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR)
        parts = np.split(colours.reshape(-1, 3).astype(np.float64),
                         [len(side), len(side) + len(back)])
        faces = np.array([np.median(parts[0], axis=0), np.median(parts[1], axis=0)])
        board = colour_feature(np.median(parts[2], axis=0))
        apart = colour_distance(colour_feature(faces), board)
        return tuple(float(d) for d in apart), tuple(as_bgr(face) for face in faces)

    def _face(self, space: int) -> tuple[np.ndarray, np.ndarray, float]:
        """The side of a camel on `space` the camera sees widest: the middle of its foot
        (table mm, a little inside it), the direction along it, and its half-length."""
        middle, along, across = self._axes(space)
        length, width, _ = self.track.camel
        to_eye = self.eye[:2] - middle
        view = to_eye / np.linalg.norm(to_eye)
        faces = [(along, length / 2, across, width / 2), (-along, length / 2, across, width / 2),
                 (across, width / 2, along, length / 2), (-across, width / 2, along, length / 2)]
        normal, depth, direction, half = max(faces, key=lambda f: f[3] * (f[0] @ view))
        return middle + normal * (depth - min(3.0, depth / 2)), direction, half
