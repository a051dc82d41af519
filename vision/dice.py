"""The dice reader: every die lying in view, its colour and the face it shows, with a confidence.

Faces are found from their pips (vision.faces) on one or more levels of an image pyramid, so a
die is read at any size; faces of one die (the top and the sides the camera also sees) are
resolved to the top face, the one seen most squarely. A reading the reader is not sure of says
None rather than guess: a wrong reading costs the table far more than an unknown one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.colours import DiceColours, colour_feature
from vision.dicesets import DiceSet
from vision.faces import (
    COLOUR_EDGE,
    UNSURE,
    Face,
    FewPips,
    Shade,
    bilinear,
    off_faces,
    read_face,
    read_faces,
)
from vision.pips import LIGHT, Pips, concat_pips, find_pips
from vision.plane import CELL_SHARE, rescue_faces

if TYPE_CHECKING:
    from vision.calibrate import TableCalibration

#: a face seen less squarely than this is taken for a side face
MIN_TOP_ROUNDNESS = 0.62
#: how much a value no die of the game shows (4-6 on a Camel Up die) lowers confidence
UNEXPECTED_VALUE_FACTOR = 0.6
_WINDOW = 31
#: the size (pixels) a die of known size is searched at
_DIE_PIXELS = 36.0
#: how much flatter than a pip lying on the table a top-face pip may look (a small pip's shape
#: is measured roughly)
_FLAT_SLACK = 0.22
#: the same for a face read's pips on average (a pattern is judged more strictly: a wrong
#: face costs more than a pip left out)
_FACE_FLAT_SLACK = 0.16
_SMALLEST_LEVEL = 96
#: how much smaller or larger than the dice read surely a face may be, where the dice's size
#: is not known (perspective across a table changes it by far less)
_SIZE_SPREAD = 2.0
#: how sure a face of two pips or more must be to set the size of the dice in a frame
_SURE = 0.8
#: the narrowest a one's face may be, as a share of a die's width (about 0.45 when its
#: edges are seen; less than this, its outline ran into something at the pip's rim)
_LEAST_HALF_WIDTH = 0.3


@dataclass(frozen=True)
class DieReading:
    """One die seen: colour (None when unknown or not asked), value 1-6 (None when unsure),
    the pip colour on a die whose pip colour means something, a box around the whole die
    (x0, y0, x1, y1 in image pixels) and a confidence 0..1."""

    die: str | None
    value: int | None
    box: tuple[int, int, int, int]
    confidence: float
    numeral: str | None = None
    #: the die's measured colour (B, G, R), for colour calibration; not part of the JSON
    bgr: tuple[float, float, float] | None = field(default=None, compare=False, repr=False)

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    def to_json(self) -> dict:
        out: dict = {"die": self.die, "value": self.value}
        if self.numeral is not None:
            out["numeral"] = self.numeral
        out["box"] = list(self.box)
        out["confidence"] = round(self.confidence, 3)
        return out


class DiceReader:
    """Reads dice from BGR frames.

    With a `dice_set` and its `colours` each die is named by colour; without them (`--dice any`)
    dice of any colour are read and `die` is None. A `table` calibration limits the search to
    the roll zone and to dice of the size they have there, and knows which way is up on the
    table, so a side face is never taken for a top one; `die_size` (pixels) and `zone` (a
    polygon in pixels) do the first two by hand. Readings below `threshold` report None for
    what is unsure.
    """

    def __init__(self, dice_set: DiceSet | None = None, colours: DiceColours | None = None, *,
                 table: TableCalibration | None = None, die_size: float | None = None,
                 zone: Sequence[tuple[float, float]] | None = None,
                 threshold: float = 0.5) -> None:
        if dice_set is not None and colours is None:
            colours = DiceColours({d.colour: d.body_bgr for d in dice_set.dice})
        self.dice_set = dice_set
        self.colours = colours
        self.die_size = table.die_size if table is not None and die_size is None else die_size
        if table is not None and zone is None:
            zone = table.zone
        self.zone = None if zone is None else np.asarray(zone, np.float32).reshape(-1, 2)
        self.table = table
        self.threshold = threshold

    def read(self, frame: np.ndarray) -> list[DieReading]:
        """Every die found in `frame`, most confident first."""
        x0, y0, image = self._crop(frame)
        levels = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        gray = levels.astype(np.float32)
        fine = cv2.GaussianBlur(gray, (3, 3), 0)
        smooth = cv2.GaussianBlur(image, (3, 3), 0).astype(np.float32)
        plausible = self._plausible(smooth, gray, (x0, y0))
        faces, ones, pips = self._faces(image, levels, fine, (x0, y0), plausible)
        if self.table is not None:
            # a face rescued beside a face read is that die's side face (read against its
            # shade, the table below it passes for the shadowed part of a face)
            tops = self._on_top_plane([f.centre for f in faces], (x0, y0))
            faces += [f for f in rescue_faces(off_faces(pips, faces), fine, self.table.top,
                                              offset=(x0, y0), die_mm=self.table.die_mm)
                      if plausible(f) and self._clear_of_dice(f, tops, (x0, y0))]
            tops = self._on_top_plane([f.centre for f in faces], (x0, y0))
            faces += [one for one in ones if self._clear_of_dice(one, tops, (x0, y0))]
        tops = _top_faces(faces)
        if not self.die_size:
            tops = _of_one_size(tops)
        readings = []
        for face, doubt in tops:
            reading = self._reading(face, doubt, smooth, offset=(x0, y0), shape=frame.shape)
            if reading is not None:
                readings.append(reading)
        readings.sort(key=lambda r: -r.confidence)
        return readings

    def _plausible(self, image: np.ndarray, gray: np.ndarray, offset: tuple[int, int]
                   ) -> Callable[[Face], bool]:
        """Whether a face found in `image` (cropped at `offset`, lightly blurred: a dim
        face's colour is noisy pixel by pixel) can be a die's top: on a calibrated table it
        lies flat at a die's height, and a one's pip is alone on a face about a die's width
        (a speck at a shadow's edge ends where it starts)."""
        if self.table is None:
            return lambda face: True
        lifted, to_table = self.table.top, self.table.from_top
        x0, y0 = offset
        die_mm = self.table.die_mm

        def plausible(face: Face) -> bool:
            return _lies_flat(face, to_table, x0, y0, die_mm) and (
                face.pips > 1 or (face.half_width >= _LEAST_HALF_WIDTH * self.die_size
                                  and _alone(face, image, gray, lifted, to_table,
                                             offset=offset, die_mm=die_mm)))

        return plausible

    def _crop(self, frame: np.ndarray) -> tuple[int, int, np.ndarray]:
        if self.zone is None:
            return 0, 0, frame
        height, width = frame.shape[:2]
        x, y, w, h = cv2.boundingRect(self.zone)
        pad = int(self.die_size or 0)
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(width, x + w + pad), min(height, y + h + pad)
        return x0, y0, frame[y0:y1, x0:x1]

    def _flat_enough(self, pips: Pips, scale: float, offset: tuple[int, int]) -> np.ndarray:
        """Which pips are about as round as a pip lying on the table would look there; a
        pip on a side face stands up and looks much flatter."""
        x = pips.x * scale + offset[0]
        y = pips.y * scale + offset[1]
        h, g = self.table.top, self.table.from_top
        w = g[2, 0] * x + g[2, 1] * y + g[2, 2]
        tx = (g[0, 0] * x + g[0, 1] * y + g[0, 2]) / w
        ty = (g[1, 0] * x + g[1, 1] * y + g[1, 2]) / w
        # the table-to-image Jacobian at each pip's place on the table
        d = h[2, 0] * tx + h[2, 1] * ty + h[2, 2]
        u = (h[0, 0] * tx + h[0, 1] * ty + h[0, 2]) / d
        v = (h[1, 0] * tx + h[1, 1] * ty + h[1, 2]) / d
        jac = np.stack([np.stack([h[0, 0] - u * h[2, 0], h[0, 1] - u * h[2, 1]], -1),
                        np.stack([h[1, 0] - v * h[2, 0], h[1, 1] - v * h[2, 1]], -1)], -2)
        sv = np.linalg.svd(jac / d[:, None, None], compute_uv=False)
        expected = sv[:, 1] / sv[:, 0]
        return pips.roundness >= expected - _FLAT_SLACK

    def _faces(self, image: np.ndarray, gray: np.ndarray, fine: np.ndarray,
               offset: tuple[int, int], plausible: Callable[[Face], bool]
               ) -> tuple[list[Face], list[Face], Pips]:
        """The `plausible` faces found in `image` (BGR; `gray` its grey levels, `fine` those
        lightly blurred, as float32); on a calibrated table, the ones read from each pip left
        on none of them; and (there too) the pips looked at; in `image`'s pixels. The pips on
        none of the faces are read again as a face a shadow may fall across (a hand's, held
        over the table). A one beside other pips (its own die's side faces, another die) was
        lost with their group, hence the ones: where a one is checked at a die's own size,
        every pip left is read alone, and the reader keeps those that lie on no die it has
        read (a side face's pip would)."""
        faces: list[Face] = []
        ones: list[Face] = []
        seen = []
        pyramid, tinted, at = gray, image, 1.0
        for factor, window in self._scales(gray.shape):
            if factor > 1.0:
                searched = cv2.resize(gray, None, fx=factor, fy=factor,
                                      interpolation=cv2.INTER_LINEAR)
                tinted = cv2.resize(image, None, fx=factor, fy=factor,
                                    interpolation=cv2.INTER_LINEAR)
            else:
                while at > factor:
                    pyramid, at = cv2.pyrDown(pyramid), at / 2
                    tinted = cv2.pyrDown(tinted)
                searched = pyramid
            blurred = fine if factor == 1.0 else cv2.GaussianBlur(
                searched.astype(np.float32), (3, 3), 0)
            pips = find_pips(blurred, window)
            if self.die_size:
                pip = 0.14 * self.die_size * factor
                pips = pips.take((pips.major > 0.4 * pip) & (pips.major < 4.0 * pip))
                if self.table is not None:
                    pips = pips.take(self._flat_enough(pips, 1 / factor, offset))
                few = FewPips(contrast=20.0, size=max(2.5, 0.6 * pip), edges=3,
                              centred=self.table is None)
                seen.append(pips.scaled(1 / factor))
            else:
                few = FewPips()
            for shaded in (False, True):
                found = [(f, face) for f in read_faces(pips, blurred, few, colour=tinted,
                                                       shaded=shaded)
                         if plausible(face := f.scaled(1 / factor))
                         and (factor >= 1.0 or _uniform_in_full(face, fine))]
                faces += [face for _, face in found]
                # an unsure face leaves its pips to the second look, against its own shade
                pips = off_faces(pips, [f for f, _ in found if shaded or f.confidence >= UNSURE])
            if self.table is not None:
                ones += [face for k in range(len(pips))
                         if (f := read_face(pips, [k], blurred, few,
                                            colour=tinted)) is not None
                         and plausible(face := f.scaled(1 / factor))]
        return faces, ones, concat_pips(seen)

    def _on_top_plane(self, points: Sequence[tuple[float, float]], offset: tuple[int, int]
                      ) -> np.ndarray:
        """`points` (in the cropped image at `offset`) on the plane of the dice's top faces,
        in mm (N x 2)."""
        if not points:
            return np.zeros((0, 2))
        image = np.asarray(points, np.float64) + np.asarray(offset, np.float64)
        return cv2.perspectiveTransform(image.reshape(-1, 1, 2),
                                        self.table.from_top).reshape(-1, 2)

    def _clear_of_dice(self, face: Face, tops: np.ndarray, offset: tuple[int, int]) -> bool:
        """Whether `face` lies clear of the dice whose top faces lie at `tops` (on the top
        faces' plane): no two dice lying flat have top faces' centres closer than a die's
        side, and a side face's pip lies within that of its die's top."""
        if len(tops) == 0:
            return True
        centre = self._on_top_plane([face.centre], offset)[0]
        return bool(np.hypot(*(tops - centre).T).min() >= 0.95 * self.table.die_mm)

    def _scales(self, shape: tuple[int, ...]) -> list[tuple[float, int]]:
        """(scale to search the image at, local-mean window there) pairs: every octave of an
        image pyramid for dice of any size, or the one scale that shows a die of known size
        at about _DIE_PIXELS (enlarged when smaller: small pips need the room)."""
        if self.die_size:
            factor = _DIE_PIXELS / self.die_size
            if factor < 1.0:
                factor = 2.0 ** -math.floor(math.log2(1 / factor))
            return [(factor, max(9, int(0.9 * self.die_size * factor)) | 1)]
        scales = [(1.0, _WINDOW)]
        while min(shape[:2]) * scales[-1][0] / 2 >= _SMALLEST_LEVEL:
            scales.append((scales[-1][0] / 2, _WINDOW))
        return scales

    def _reading(self, face: Face, doubt: float, smooth: np.ndarray, *, offset: tuple[int, int],
                 shape: tuple[int, ...]) -> DieReading | None:
        x0, y0 = offset
        cx, cy = face.centre
        if self.zone is not None and cv2.pointPolygonTest(
                self.zone, (cx + x0, cy + y0), False) < 0:
            return None
        pts = face.surface_points
        bgr = tuple(float(c) for c in np.median(bilinear(smooth, pts[:, 0], pts[:, 1]), axis=0))
        value_confidence = face.confidence * doubt
        die = numeral = None
        confidence = value_confidence
        if self.dice_set is not None and self.colours is not None:
            match = self.colours.match(np.array(bgr))
            expected = (self.dice_set.die(match.colour).values if match.colour
                        else self.dice_set.values)
            if face.value not in expected:
                value_confidence *= UNEXPECTED_VALUE_FACTOR
            confidence = min(value_confidence, match.confidence)
            if match.confidence >= self.threshold:
                die = match.colour
        value = face.value if value_confidence >= self.threshold else None
        if die is not None and value is not None and self.dice_set.die(die).has_numerals:
            numeral = "white" if face.polarity == LIGHT else "black"
        box = (_cube_box(face, self.table, x0, y0, shape) if self.table is not None
               and self.table.camera is not None else _die_box(face, x0, y0, shape))
        return DieReading(die, value, box, float(confidence), numeral,
                          bgr)


def _uniform_in_full(face: Face, gray: np.ndarray) -> bool:
    """Whether a face found on a coarse level still has a plain surface at full resolution:
    a textured table blurred down can pass for a die face, and a whole die for a pip on it."""
    pts = face.surface_points
    values = bilinear(gray, pts[:, 0], pts[:, 1])
    tolerance = max(0.25 * face.contrast, 10.0)
    return bool(np.mean(np.abs(values - np.median(values)) <= tolerance) >= 0.8)


def _lies_flat(face: Face, to_table: np.ndarray, x0: int, y0: int, die_mm: float) -> bool:
    """Whether `face` lies flat on the table as a top face does: its grid, taken back onto the
    table's plane, is square and of a die's size (a side face's is squashed, and stands up)."""
    x, y = face.centre[0] + x0, face.centre[1] + y0
    g = to_table
    w = g[2, 0] * x + g[2, 1] * y + g[2, 2]
    tx = (g[0, 0] * x + g[0, 1] * y + g[0, 2]) / w
    ty = (g[1, 0] * x + g[1, 1] * y + g[1, 2]) / w
    jacobian = np.array([[g[0, 0] - tx * g[2, 0], g[0, 1] - tx * g[2, 1]],
                         [g[1, 0] - ty * g[2, 0], g[1, 1] - ty * g[2, 1]]]) / w
    u = jacobian @ np.array(face.u)
    v = jacobian @ np.array(face.v)
    lu, lv = np.linalg.norm(u), np.linalg.norm(v)
    if not 0.75 <= lu / lv <= 1.33 or abs(float(u @ v)) > 0.35 * lu * lv:
        return False
    if face.pips == 1:
        return True
    # a side face's pips, seen edge-on, are all flat: a top face's may on average be little
    # flatter than a round pip lying on the table looks here (one of them, run into the
    # face's edge, may be measured flatter)
    sv = np.linalg.svd(np.linalg.inv(jacobian), compute_uv=False)
    expected = sv[1] / sv[0]
    if face.roundness < expected - _FACE_FLAT_SLACK:
        return False
    return 0.85 * CELL_SHARE * die_mm <= (lu + lv) / 2 <= 1.18 * CELL_SHARE * die_mm


def _alone(face: Face, image: np.ndarray, gray: np.ndarray, lifted: np.ndarray,
           to_table: np.ndarray, *, offset: tuple[int, int], die_mm: float) -> bool:
    """Whether a one's pip is alone in the middle of its face: where a two's or a three's
    corner pips would be (a ring through all four corner cells, whichever way the die is
    turned) there is no pip, so the one pip of a two that was found is not read as a one, and
    there is plain face, of the face's shade and colour, so a speck on the table or a pip
    near a face's edge (the ring then runs off the face) is not either."""
    x0, y0 = offset
    centre = cv2.perspectiveTransform(
        np.array([[[face.centre[0] + x0, face.centre[1] + y0]]], np.float64), to_table)[0, 0]
    angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    radius = math.sqrt(2) * CELL_SHARE * die_mm
    ring = centre + radius * np.stack([np.cos(angles), np.sin(angles)], 1)
    pts = cv2.perspectiveTransform(ring.reshape(-1, 1, 2), lifted).reshape(-1, 2)
    xs, ys = pts[:, 0] - x0, pts[:, 1] - y0
    values = bilinear(gray, xs, ys)
    spots = face.surface_points
    own = colour_feature(np.median(bilinear(image, spots[:, 0], spots[:, 1]), axis=0))
    hue = np.hypot(*(colour_feature(bilinear(image, xs, ys))[:, :2] - own[:2]).T)
    if _plain_ring(face.polarity * (values - face.surface) / face.contrast, hue):
        return True
    # a shadow's edge (a hand's, held over the table) may cross the face: its colour holds
    shade = Shade.of_face(face, gray)
    return shade is not None and _plain_ring(shade.pipness(values, xs, ys), hue)


def _plain_ring(pipness: np.ndarray, hue: np.ndarray) -> bool:
    """Whether a ring round a one's pip, where another pip would be, shows none, and bare face
    of the face's colour nearly all round."""
    plain = (np.abs(pipness) <= 0.3) & (hue <= COLOUR_EDGE)
    return bool(pipness.max() < 0.5 and plain.mean() >= 0.8)


def _top_faces(faces: list[Face]) -> list[tuple[Face, float]]:
    """The top face of each die, with a factor (<= 1) for doubt about it.

    A face found more than once (on two pyramid levels: in the same place, as round) is taken
    from the finding with the most pips, since a pip can be missed but not invented; findings
    that disagree add doubt.
    Then a face next to a rounder one, and either clearly flatter or lying where that face's
    sides would be, is a side face; a side face nearly as round as the top adds doubt too.
    """
    faces = sorted(faces, key=lambda f: (-f.pips, -f.confidence))
    unique: list[list] = []
    for face in faces:
        for entry in unique:
            if (math.dist(face.centre, entry[0].centre)
                    < 0.6 * (face.half_width + entry[0].half_width)
                    and abs(face.roundness - entry[0].roundness) < 0.15):
                if face.value != entry[0].value and face.confidence >= 0.5:
                    entry[1] = min(entry[1], 0.6)
                break
        else:
            unique.append([face, 1.0])
    unique.sort(key=lambda e: (-round(e[0].roundness, 2), -e[0].confidence))
    kept: list[list] = []
    for face, doubt in unique:
        if face.roundness < MIN_TOP_ROUNDNESS:
            continue
        for entry in kept:
            top = entry[0]
            gap = math.dist(face.centre, top.centre)
            if gap < 1.25 * (face.half_width + top.half_width):
                flatter = top.roundness - face.roundness
                direction = math.atan2(face.centre[1] - top.centre[1],
                                       face.centre[0] - top.centre[0])
                along = abs(math.cos(direction - face.minor_direction))
                if flatter > 0.12 or (flatter > 0.04 and along > 0.85):
                    if flatter < 0.08:
                        entry[1] = min(entry[1], 0.75)
                    break
        else:
            kept.append([face, doubt])
    return [(f, d) for f, d in kept]


def _of_one_size(tops: list[tuple[Face, float]]) -> list[tuple[Face, float]]:
    """The faces about as large as the dice read surely: the dice on one table are of one
    size, give or take perspective, so where faces of two pips or more set it, a face less
    than half their size or more than twice is a speck or a pattern on the table (wood grain
    seen close up makes round dots with plain wood round them), not a die. Where no face is
    sure, every face is kept."""
    sizes = [f.half_width for f, doubt in tops if f.pips >= 2 and f.confidence * doubt >= _SURE]
    if not sizes:
        return tops
    size = float(np.median(sizes))
    return [(f, doubt) for f, doubt in tops
            if size / _SIZE_SPREAD <= f.half_width <= size * _SIZE_SPREAD]


def _die_box(face: Face, x0: int, y0: int, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A box around the whole die: the face's outline, grown for the sides beside it."""
    xs, ys = face.outline[:, 0], face.outline[:, 1]
    grow = 0.12 * max(xs.max() - xs.min(), ys.max() - ys.min())
    height, width = shape[:2]
    return (int(max(0, xs.min() - grow + x0)), int(max(0, ys.min() - grow + y0)),
            int(min(width - 1, xs.max() + grow + x0)), int(min(height - 1, ys.max() + grow + y0)))


def _cube_box(face: Face, table: TableCalibration, x0: int, y0: int,
              shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A box around the whole die from the camera the table's calibration implies: the top
    face lies a die's height above the table, so the cube under it is known, sides and all."""
    side = table.die_mm
    to_top = table.from_top
    points = np.array([[face.centre[0] + x0, face.centre[1] + y0],
                       [face.centre[0] + x0 + face.u[0], face.centre[1] + y0 + face.u[1]]])
    (cx, cy), (ux, uy) = cv2.perspectiveTransform(points.reshape(-1, 1, 2),
                                                  to_top).reshape(2, 2)
    turn = math.atan2(uy - cy, ux - cx)
    c, s = math.cos(turn) * side / 2, math.sin(turn) * side / 2
    corners = np.array([[cx + i * c - j * s, cy + i * s + j * c, z]
                        for i in (-1, 1) for j in (-1, 1) for z in (0.0, side)])
    uv = table.project(corners)
    height, width = shape[:2]
    return (int(max(0, np.floor(uv[:, 0].min()))), int(max(0, np.floor(uv[:, 1].min()))),
            int(min(width - 1, np.ceil(uv[:, 0].max()))),
            int(min(height - 1, np.ceil(uv[:, 1].max()))))
