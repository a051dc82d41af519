"""The colour dice reader: dice without pips (The Last Camel's), whose top face is a colour or
a star, with a confidence.

A top face is found as a square of a die's size with an edge all round it. On a calibrated
table the frame is first taken onto the plane of the top faces, where every top face is a
square of known size at any turn and a side face, standing up, is none; without calibration
the frame is searched at several scales. A face is then read from its colours: its corners
(bare body or paint) and its middle (a star, or the same paint). A reading the reader is not
sure of says None rather than guess: a wrong reading costs the table far more than an unknown
one.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.colours import (
    DiceColours,
    across_channels,
    as_bgr,
    colour_distance,
    colour_feature,
)
from vision.dicesets import ColourDiceSet, ColourFace
from vision.light import LightChange

if TYPE_CHECKING:
    from vision.calibrate import TableCalibration

#: the name of the die's bare body among the references
BODY = "body"
#: a top face's side in the views searched, in pixels
_SIDE = 32.0
#: candidates looked at per view at most, busiest first (the dice, and places busy with
#: edges: a hand's fingers, a mat's grain or a shadow can be busier than a dark die in dim
#: light; once every die is read surely no more are looked at)
_CANDIDATES = 48
#: an edge weaker than this (colour change per pixel) in neutral light is no edge
_EDGE_FLOOR = 4.0
#: a face's corners and its middle, in shares of its side from its middle
_CORNER = (0.27, 0.42)
_MIDDLE = 0.1
#: below this confidence a square of a face's colours is not taken for a die at all (a patch
#: of mat of a face's colour); from it up to the threshold, a die whose face is unknown
_SEEN = 0.3
#: the confidence of a face whose corners and middle name different paints, at most
_DOUBT = 0.4
#: a face read at set-up agrees with the light its surest face sets when its colours lie no
#: further than this in chromaticity from its paints' under that light (`learn_face_colours`)
_AGREES = 1.5
#: a reading this sure of a die's face ends the search once every die is read so
_SURE = 0.9
#: a ring through a star's five points (a share of the side from the middle), and its samples
_STAR_RING = 0.25
_RING_POINTS = 40
#: the sizes (pixels, a top face's side) searched without calibration
_SIZES = (24.0, 34.0, 48.0, 68.0)
#: how far (in colour distance) a star's colour lies at least from the face round it
_STAR_CONTRAST = 2.5
#: places near a candidate tried as a top face's middle
_PLACES = 3
#: a die read surely is left out of the search for the dice beside it this far from its
#: middle, in shares of its half side (its top's edge and the side faces below it)
_EXPLAINED = 1.25
#: a place found again, once the dice read are left out, that lies nearer than this (a
#: share of the side) to one looked at already is that place
_MOVED = 0.25
#: a place looked for again lies this near a die read surely (shares of the side, middle
#: to middle): dice touching lie a side apart, and their side faces about as much again
_BESIDE = 2.0
#: where a side's edge is looked for, in pixels out from where it should be
_BAND = (-1.5, 0.0, 1.5)
#: a star's middle is judged allowing for this much noise in a channel (grey levels: a
#: camera's sensor noise and JPEG): a black star's chromaticity is mostly that noise and the
#: light's tint, and held to a light colour's room, black stars were half the dice the
#: tuning tables did not read right, in dim or warm light above all
_NOISE = 3.0


@dataclass(frozen=True)
class FaceReading:
    """One die seen: which die (always None: the game's dice are alike), the face on top
    (None when unsure), a box round the whole die (x0, y0, x1, y1 in image pixels) and a
    confidence 0..1."""

    die: str | None
    face: str | None
    box: tuple[int, int, int, int]
    confidence: float

    @property
    def value(self) -> str | None:
        """What the die shows: its face, by the name settling and scoring use for any die."""
        return self.face

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    def to_json(self) -> dict:
        return {"die": self.die, "face": self.face, "box": list(self.box),
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class _Square:
    """A top face found in a view: its middle and half-axes there, how strong its edges
    are, its four corners' colours, colours sampled round its middle, and colours on a ring
    through a star's points."""

    centre: tuple[float, float]
    u: tuple[float, float]
    v: tuple[float, float]
    edge: float
    corners: np.ndarray
    middle: np.ndarray
    ring: np.ndarray


@dataclass(frozen=True)
class _Lean:
    """How a die's side faces lean on the top faces' plane: they lie between its top face and
    the point under the camera (`nadir`, view pixels), as deep as `depth` times the top face's
    distance from that point."""

    nadir: tuple[float, float]
    depth: float


def nominal_colours(dice: ColourDiceSet) -> DiceColours:
    """The faces' colours (and the bare body's) under neutral light."""
    return DiceColours({BODY: dice.body_bgr, **{f.name: f.bgr for f in dice.faces}})


class ColourDiceReader:
    """Reads colour dice from BGR frames.

    `colours` are the faces' and the body's reference colours (nominal, or learned under the
    table's light by `learn_face_colours`). A `table` calibration limits the search to the
    roll zone and reads the dice on the plane of their top faces; readings below `threshold`
    report the face as None. With the `light` of the shot the colours were learned from, each
    frame is first brought back to that light (a cloud, a lamp switched on since).
    """

    def __init__(self, dice: ColourDiceSet, colours: DiceColours | None = None, *,
                 table: TableCalibration | None = None, threshold: float = 0.5,
                 light: LightChange | None = None) -> None:
        self.dice = dice
        self.light = light
        self.colours = colours or nominal_colours(dice)
        self.table = table
        self.threshold = threshold
        stars = [f.name for f in dice.faces if f.star]
        self._paint = DiceColours({n: self.colours.references[n]
                                   for n in (BODY, *(f.name for f in dice.faces if not f.star))})
        self._stars = DiceColours({n: self.colours.references[n] for n in stars})
        self._edge_floor = _EDGE_FLOOR * _light_level(self.colours, dice)

    def read(self, frame: np.ndarray) -> list[FaceReading]:
        """Every die found in `frame`, most confident first, and no more than the game
        throws: a reading less sure than each of them is something else (a side face's
        star, a shadow's edge)."""
        if self.light is not None:
            frame = self.light.as_shot(frame)
        readings = [FaceReading(None, face if sure >= self.threshold else None,
                                self._box(square, to_frame, frame.shape), float(sure))
                    for square, to_frame, face, sure in self._found(frame)
                    if face is not None and sure >= _SEEN]
        readings = _apart(readings)
        readings.sort(key=lambda r: -r.confidence)
        return readings[: self.dice.count]

    def _found(self, frame: np.ndarray
               ) -> Iterator[tuple[_Square, np.ndarray, str | None, float]]:
        """Each top face found in the roll zone (with its view's pixels to frame pixels), the
        face it shows (None for no die's face) and how sure that is: of the squares found
        round one place, the one read surest. Candidates are looked at busiest first, and no
        more once each of the game's dice has been read surely."""
        for to_frame, view, where, lean in self._views(frame):
            edges = _Edges.of(view)
            read: list[tuple[_Square, str | None, float]] = []
            places = _busiest(edges, where, self._edge_floor, explained=[])
            self._read_at(places, edges, to_frame, lean, read)
            # a die beside one read surely can have no busy place of its own (a blue die on
            # a blue mat beside a black star): once the places looked at leave a die unread,
            # the dice read surely are taken out and the places beside them looked for again
            explained = [square for square, _, sure in _apart_squares(read) if sure >= _SURE]
            if explained and not self._enough(read):
                again = [place for place in _busiest(edges, where, self._edge_floor,
                                                     explained=explained, lean=lean)
                         if all(math.dist(place, p) >= _MOVED * _SIDE for p in places)
                         and any(math.dist(place, square.centre) <= _BESIDE * _SIDE
                                 for square in explained)]
                self._read_at(again, edges, to_frame, lean, read)
            for square, face, sure in _apart_squares(read):
                yield square, to_frame, face, sure

    def _read_at(self, places: list[tuple[int, int]], edges: _Edges, to_frame: np.ndarray,
                 lean: _Lean | None, read: list[tuple[_Square, str | None, float]]) -> None:
        """The squares found at each of `places` in turn, read and added to `read`, until
        each of the game's dice is read surely."""
        for place in places:
            for square in _fit(edges, place, lean=lean, floor=self._edge_floor):
                if self._in_zone(square, to_frame):
                    face, sure = self._face(square)
                    edge = (square.edge - self._edge_floor) / (1.5 * self._edge_floor)
                    read.append((square, face, min(sure, 1.0, max(0.0, edge))))
            if self._enough(read):
                return

    def _enough(self, read: list[tuple[_Square, str | None, float]]) -> bool:
        """Whether each of the game's dice is read surely among `read`."""
        return sum(sure >= _SURE for _, _, sure in _apart_squares(read)) >= self.dice.count

    def _views(self, frame: np.ndarray
               ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray | None, _Lean | None]]:
        """(view pixels to frame pixels, the view, where dice are looked for in it or None for
        anywhere, how side faces lean in it or None): the top faces' plane of a calibrated
        table's roll zone, or the frame at each scale a die may have."""
        if self.table is not None:
            lifted = self.table.top
            ppm = _SIDE / self.table.die_mm
            zone = self.table.zone.reshape(-1, 1, 2)
            # the zone in table millimetres (a die standing at (x, y) has its top face there),
            # and where the mat seen on the table lies on the top faces' plane
            stood = cv2.perspectiveTransform(zone, np.linalg.inv(self.table.homography))
            seen = cv2.perspectiveTransform(zone, self.table.from_top).reshape(-1, 2)
            corners = np.vstack([stood.reshape(-1, 2), seen])
            margin = self.table.die_mm
            x0, y0 = corners.min(axis=0) - margin
            x1, y1 = corners.max(axis=0) + margin
            to_frame = lifted @ np.array([[1 / ppm, 0, x0], [0, 1 / ppm, y0], [0, 0, 1]])
            size = (int((x1 - x0) * ppm), int((y1 - y0) * ppm))
            inside = np.zeros(size[::-1], np.uint8)
            cv2.fillConvexPoly(inside, np.round((seen - (x0, y0)) * ppm).astype(np.int32), 1)
            # the mat inside its edge: the edge and what lies past it are no die
            inside = cv2.erode(inside, np.ones((int(0.2 * _SIDE),) * 2, np.uint8)) > 0
            lean = None
            if self.table.camera is not None:
                camera = self.table.eye
                lean = _Lean(((camera[0] - x0) * ppm, (camera[1] - y0) * ppm),
                             self.table.die_mm / (camera[2] - self.table.die_mm))
            yield to_frame, cv2.warpPerspective(frame, to_frame, size, flags=cv2.INTER_LINEAR
                                                | cv2.WARP_INVERSE_MAP), inside, lean
            return
        for side in _SIZES:
            factor = _SIDE / side
            to_frame = np.diag([1 / factor, 1 / factor, 1.0])
            yield to_frame, cv2.resize(frame, None, fx=factor, fy=factor,
                                       interpolation=cv2.INTER_AREA if factor < 1
                                       else cv2.INTER_LINEAR), None, None

    def _in_zone(self, square: _Square, to_frame: np.ndarray) -> bool:
        """Whether the die lies in the roll zone, its whole top face over it (anywhere,
        without calibration): a square across the mat's edge is the mat and what lies past
        it, never a die."""
        if self.table is None:
            return True
        on_table = cv2.perspectiveTransform(
            _outline(square, to_frame).reshape(-1, 1, 2),
            self.table.homography @ self.table.from_top)
        zone = self.table.zone.astype(np.float32)
        return all(cv2.pointPolygonTest(zone, (float(x), float(y)), False) >= 0
                   for x, y in on_table.reshape(-1, 2))

    def _face(self, square: _Square) -> tuple[str | None, float]:
        """The face `square` shows and how sure that is; (None, 0) for no die's face."""
        corners = np.median(square.corners, axis=0)
        middle = np.median(square.middle, axis=0)
        plain = _plain(square.corners, corners)
        paint = self._paint.match(corners)
        if paint.colour is None:
            return None, 0.0
        if paint.colour == BODY:
            # a star stands out from the bare face round it: a shade across a plain face, or
            # a dim patch of mat, does not
            star = self._stars.match(middle, noise=_NOISE)
            away = float(colour_distance(colour_feature(middle), colour_feature(corners)))
            if star.colour is None or away < _STAR_CONTRAST:
                return None, 0.0
            return star.colour, min(paint.confidence, star.confidence, plain,
                                    _plain(square.middle, middle, noise=_NOISE),
                                    (away - _STAR_CONTRAST) / 1.5, _five_points(square))
        same = self.colours.match(middle)
        if same.colour != paint.colour:
            # plainly painted corners are a die, but which paint is in doubt (a yellow face
            # gone golden under a warm light): a die whose face is unknown
            return paint.colour, _DOUBT * min(paint.confidence, plain)
        return paint.colour, min(paint.confidence, same.confidence, plain)

    def _box(self, square: _Square, to_frame: np.ndarray,
             shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        """A box round the whole die: on a calibrated table the cube under its top face, else
        the top face's outline grown for the sides beside it."""
        outline = _outline(square, to_frame)
        height, width = shape[:2]
        if self.table is not None and self.table.camera is not None:
            side = self.table.die_mm
            top = cv2.perspectiveTransform(outline.reshape(-1, 1, 2),
                                           self.table.from_top).reshape(-1, 2)
            cube = np.vstack([np.column_stack([top, np.full(4, z)]) for z in (0.0, side)])
            points = self.table.project(cube)
        else:
            xs, ys = outline[:, 0], outline[:, 1]
            grow = 0.2 * max(np.ptp(xs), np.ptp(ys))
            points = np.array([[xs.min() - grow, ys.min() - grow],
                               [xs.max() + grow, ys.max() + grow]])
        return (int(max(0, np.floor(points[:, 0].min()))),
                int(max(0, np.floor(points[:, 1].min()))),
                int(min(width - 1, np.ceil(points[:, 0].max()))),
                int(min(height - 1, np.ceil(points[:, 1].max()))))


def _light_level(colours: DiceColours, dice: ColourDiceSet) -> float:
    """How bright the table's light is, from the colours learned under it against the nominal
    ones (neutral light), at most 1: in dim light every edge is fainter, and an edge must be
    strong for its light, not for daylight."""
    learned = np.array(list(colours.references.values()), np.float64).sum()
    return min(1.0, float(learned / np.array(list(nominal_colours(dice).references.values()),
                                             np.float64).sum()))


def _five_points(square: _Square) -> float:
    """How surely a star's five points cross the ring round the face's middle: going round,
    the colour leaves the bare face and comes back five times, so the fifth harmonic holds
    much of the change round the ring (fingers, a shadow's edge or a dark patch of mat
    share theirs out otherwise)."""
    corners = np.median(square.corners, axis=0)
    off = colour_distance(colour_feature(square.ring), colour_feature(corners)[None])
    harmonics = np.abs(np.fft.rfft(off - off.mean()))[1:]
    share = harmonics[4] / max(float(np.sqrt((harmonics ** 2).sum())), 1e-9)
    return float(min(1.0, max(0.0, (share - 0.1) / 0.1)))


def _apart_squares(read: list[tuple[_Square, str | None, float]]
                   ) -> list[tuple[_Square, str | None, float]]:
    """Of squares read (square, face, confidence) round one place, the one read surest."""
    kept: list[tuple[_Square, str | None, float]] = []
    for entry in sorted(read, key=lambda r: -r[2]):
        if all(math.dist(entry[0].centre, k[0].centre) > 0.7 * _SIDE for k in kept):
            kept.append(entry)
    return kept


def _plain(values: np.ndarray, colour: np.ndarray, *, noise: float = 0.0) -> float:
    """How plainly `values` share the colour `colour`: 1 when nearly all lie near it, 0 when
    many are off it (a corner of the square off the face, a shadow's edge across it);
    `noise` as colour_distance's."""
    off = colour_distance(colour_feature(values), colour_feature(colour)[None], noise=noise)
    return float(min(1.0, max(0.0, (3.5 - np.percentile(off, 80)) / 1.5)))


def _outline(square: _Square, to_frame: np.ndarray) -> np.ndarray:
    """The top face's four corners in frame pixels."""
    c, u, v = (np.array(p) for p in (square.centre, square.u, square.v))
    corners = np.array([c - u - v, c + u - v, c + u + v, c - u + v])
    return cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_frame).reshape(-1, 2)


@dataclass(frozen=True)
class _Edges:
    """A view's colour change: the view smoothed (float), its gradients per channel, how
    strong the change is at each pixel, and its direction doubled twice (so that a square's
    four sides agree) as a vector weighted by that strength."""

    image: np.ndarray
    gx: np.ndarray
    gy: np.ndarray
    strength: np.ndarray
    c4: np.ndarray
    s4: np.ndarray

    @classmethod
    def of(cls, view: np.ndarray) -> _Edges:
        image = cv2.GaussianBlur(view, (3, 3), 0).astype(np.float32)
        gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3) / 8
        gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3) / 8
        jxx, jyy, jxy = (across_channels(np.add, gx * gx), across_channels(np.add, gy * gy),
                         across_channels(np.add, gx * gy))
        strength = np.sqrt(jxx + jyy)
        double = np.arctan2(2 * jxy, jxx - jyy)
        return cls(image, gx, gy, strength, np.cos(2 * double) * strength,
                   np.sin(2 * double) * strength)


def _busiest(edges: _Edges, where: np.ndarray | None, floor: float, *,
             explained: list[_Square], lean: _Lean | None = None) -> list[tuple[int, int]]:
    """The places of a view busy with edges (`where` it says), busiest first, at most
    _CANDIDATES: peaks of the edges' strength over a die-sized window, apart by half a die.
    The `explained` squares (dice read), a rim round them and the side faces below them
    (as they `lean`) are left out, so that a die beside one shows a peak of its own."""
    strength = edges.strength if where is None else edges.strength * where
    if explained:
        strength = strength.copy()
        for square in explained:
            cv2.fillConvexPoly(strength, _cube(square, lean), 0.0)
    window = (int(0.4 * _SIDE),) * 2
    busy = cv2.blur(cv2.blur(strength, window), window)
    peaks = (busy >= cv2.dilate(busy, np.ones((int(0.5 * _SIDE),) * 2, np.uint8))) & (
        busy > floor)
    if where is not None:
        peaks &= where
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-busy[ys, xs])[:_CANDIDATES]
    return [(int(x), int(y)) for x, y in zip(xs[order], ys[order], strict=True)]


def _cube(square: _Square, lean: _Lean | None) -> np.ndarray:
    """Where a die whose top face is `square` shows in a view, as a convex outline (integer
    pixels): its top grown by a rim, and the side faces below it, leaning towards the point
    under the camera (none without calibration: the view is the frame, at some scale)."""
    c, u, v = (np.array(p) for p in (square.centre, square.u, square.v))
    top = c + (np.array([-u - v, u - v, u + v, -u + v])) * _EXPLAINED
    outline = top
    if lean is not None:
        outline = np.vstack([top, top + (np.array(lean.nadir) - c) * lean.depth])
    return cv2.convexHull(np.round(outline).astype(np.int32))


def _fit(edges: _Edges, start: tuple[int, int], *, lean: _Lean | None, floor: float
         ) -> list[_Square]:
    """Squares near `start`, turned by the edges' dominant direction round it (modulo a right
    angle), whose sides lie on edges: the best few places apart from each other, each
    refined. A die's side face and part of its top can outscore the top alone (a top face as
    light as the mat has faint edges there), so the best square moved a side face's depth
    away from the camera is tried too; the faces' colours choose between them."""
    gx, gy, image = edges.gx, edges.gy, edges.image
    x, y = start
    reach = int(0.8 * _SIDE)
    y0, y1, x0, x1 = max(0, y - reach), y + reach + 1, max(0, x - reach), x + reach + 1
    turn = math.atan2(edges.s4[y0:y1, x0:x1].sum(), edges.c4[y0:y1, x0:x1].sum()) / 4
    along = np.linspace(-0.8, 0.8, 12) * _SIDE / 2
    offsets = np.arange(-0.6 * _SIDE, 0.6 * _SIDE + 1e-6, 3.0)
    dx, dy = (a.ravel() for a in np.meshgrid(offsets, offsets))
    score = _edge_score(gx, gy, (start[0] + dx, start[1] + dy), [turn], along=along)[0]
    places: list[tuple[float, float]] = []
    least = max(floor, 0.5 * float(score.max()))
    for k in np.argsort(-score):
        if score[k] < least or len(places) == _PLACES:
            break
        place = (start[0] + float(dx[k]), start[1] + float(dy[k]))
        if all(math.dist(place, p) >= 0.3 * _SIDE for p in places):
            places.append(place)
    squares = [_refined(gx, gy, image, place, turn, along=along) for place in places]
    if squares and lean is not None:
        best = squares[0]
        (cx, cy), (nx, ny) = best.centre, lean.nadir
        squares.append(_refined(gx, gy, image, (cx + (cx - nx) * lean.depth,
                                                cy + (cy - ny) * lean.depth),
                                math.atan2(best.u[1], best.u[0]), along=along))
    return squares


def _refined(gx: np.ndarray, gy: np.ndarray, image: np.ndarray, start: tuple[float, float],
             turn: float, *, along: np.ndarray) -> _Square:
    """The square at `start` turned by `turn`, moved and turned a little to lie best on
    edges, with its colours."""
    half = _SIDE / 2
    edge, centre, angle = -math.inf, start, turn
    for spread, step, turns in ((2.0, 1.0, np.radians([-3.0, 0.0, 3.0])),
                                (0.5, 0.5, np.radians([-1.0, 0.0, 1.0]))):
        offsets = np.arange(-spread, spread + 1e-6, step)
        dx, dy = (a.ravel() for a in np.meshgrid(offsets, offsets))
        around, base = centre, angle
        # the turns at once, the first best in their order as when tried one by one
        scores = _edge_score(gx, gy, (around[0] + dx, around[1] + dy),
                             [base + extra for extra in turns], along=along)
        t, k = np.unravel_index(int(np.argmax(scores)), scores.shape)
        if scores[t, k] > edge:
            edge, centre, angle = (float(scores[t, k]),
                                   (around[0] + float(dx[k]), around[1] + float(dy[k])),
                                   base + float(turns[t]))
    cx, cy = centre
    u = (half * math.cos(angle), half * math.sin(angle))
    v = (-half * math.sin(angle), half * math.cos(angle))
    corner_cells = np.linspace(*_CORNER, 4)
    cu, cv_ = np.meshgrid(corner_cells, corner_cells)
    signs = np.array([(1, 1), (1, -1), (-1, 1), (-1, -1)])
    a = (signs[:, None, 0] * cu.ravel()[None]).ravel() * 2
    b = (signs[:, None, 1] * cv_.ravel()[None]).ravel() * 2
    ring = np.linspace(0, 2 * math.pi, 8, endpoint=False)
    ma = np.concatenate([[0.0], _MIDDLE * 2 * np.cos(ring), _MIDDLE * np.cos(ring)])
    mb = np.concatenate([[0.0], _MIDDLE * 2 * np.sin(ring), _MIDDLE * np.sin(ring)])

    def sample(p: np.ndarray, q: np.ndarray) -> np.ndarray:
        px = cx + p * u[0] + q * v[0]
        py = cy + p * u[1] + q * v[1]
        return np.stack([bilinear(image[..., c], px, py) for c in range(3)], axis=1)

    corners = np.median(sample(a, b).reshape(4, -1, 3), axis=1)
    round_ = np.linspace(0, 2 * math.pi, _RING_POINTS, endpoint=False)
    ring = sample(2 * _STAR_RING * np.cos(round_), 2 * _STAR_RING * np.sin(round_))
    return _Square((cx, cy), u, v, edge, corners, sample(ma, mb), ring)


def _edge_score(gx: np.ndarray, gy: np.ndarray, centres: tuple[np.ndarray, np.ndarray],
                angles: Sequence[float], *, along: np.ndarray) -> np.ndarray:
    """How well squares of side _SIDE at `centres` (x, y arrays), turned by each of `angles`,
    lie on edges (angles x centres): the mean of their weakest side's edge and of all four
    sides'. A side's edge is the mean, over the points `along` it, of the strongest colour
    change across it within a pixel or two (a face is a little larger or smaller than the
    calibration says, and its edge is blurred)."""
    cx, cy = centres
    # the colour change across each pair of sides, measured only round these squares
    room = math.hypot(_SIDE / 2 + max(map(abs, _BAND)), float(np.abs(along).max())) + 2
    x0, y0 = max(0, int(cx.min() - room)), max(0, int(cy.min() - room))
    x1, y1 = int(cx.max() + room) + 1, int(cy.max() + room) + 1
    wx, wy = gx[y0:y1, x0:x1], gy[y0:y1, x0:x1]
    height, width = wx.shape[:2]
    # every point looked at, at once: (angle and normal, side, reach, square, point along);
    # one gather rather than one for each angle, side and reach (NumPy's few calls on many
    # points, not many calls on a few: a die's refining scores 25 squares at a time)
    turned = [(math.cos(a), math.sin(a)) for a in angles]
    normals = [n for ca, sa in turned for n in ((ca, sa), (-sa, ca))]
    nx, ny = (np.array(normals)[:, None, None, None, None, k] for k in (0, 1))
    signs = np.array([1.0, -1.0])[None, :, None, None, None]
    reaches = (_SIDE / 2 + np.array(_BAND))[None, None, :, None, None]
    px = cx[:, None] + signs * (nx * reaches - ny * along) - x0 + 0.5
    py = cy[:, None] + signs * (ny * reaches + nx * along) - y0 + 0.5
    # clipped before truncation, which is the same as after it and the same pixels
    xi = np.clip(px, 0, width - 1).astype(np.intp)
    yi = np.clip(py, 0, height - 1).astype(np.intp)
    across = np.stack([np.sqrt(across_channels(np.add, (wx * n[0] + wy * n[1]) ** 2))
                       for n in normals])
    normal = np.arange(len(normals))[:, None, None, None, None]
    strongest = across.ravel().take((normal * height + yi) * width + xi).max(axis=2)
    edges = strongest.mean(axis=-1).reshape(len(angles), 4, -1)
    return 0.5 * (edges.min(axis=1) + edges.mean(axis=1))


def _apart(readings: list[FaceReading]) -> list[FaceReading]:
    """One reading per die: of readings whose boxes hold each other's centre, the surest."""
    kept: list[FaceReading] = []
    for reading in sorted(readings, key=lambda r: (r.face is None, -r.confidence)):
        if not any(_holds(k.box, reading.centre) or _holds(reading.box, k.centre)
                   for k in kept):
            kept.append(reading)
    return kept


def _holds(box: tuple[int, int, int, int], point: tuple[float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def learn_face_colours(image: np.ndarray, dice: ColourDiceSet, *,
                       table: TableCalibration | None = None) -> DiceColours:
    """The faces' colours under this table's light, from one frame of the dice lying in view,
    any face up: the light's colour is what turns the faces read surest there (as many as the
    game has dice) into their nominal colours (one gain per channel), and every face's colour
    is the nominal one under it.

    The surest face sets the light; each other face joins it only where its colours agree
    with that light, and then with a brightness of its own (a face turned from the lamp, or
    in a die's shadow, is darker all over): a face half misread, or a shaded one, would tilt
    the light's colour, most in the channels the surest face says little about."""
    from vision.calibrate import CalibrationError

    nominal = nominal_colours(dice)
    colours = nominal
    for _ in range(3):
        reader = ColourDiceReader(dice, colours, table=table, threshold=0.0)
        found = sorted(((square, face, sure) for square, _, face, sure in reader._found(image)
                        if face is not None), key=lambda r: -r[2])
        if not found:
            raise CalibrationError(f"found no die: lay the {dice.count} dice in view, apart, "
                                   "and try again")
        faces = [_face_pairs(square, dice.face(face), nominal)
                 for square, face, _ in found[:dice.count]]
        gains = _gains(*faces[0])
        measured, expected = list(faces[0][0]), list(faces[0][1])
        for seen, meant in faces[1:]:
            under = meant * gains
            if colour_distance(colour_feature(seen), colour_feature(under),
                               shading=np.inf).max() <= _AGREES:
                shading = float((seen * under).sum() / (under ** 2).sum())
                measured += list(seen / shading)
                expected += list(meant)
        gains = _gains(np.array(measured), np.array(expected))
        colours = DiceColours({name: as_bgr(np.array(bgr) * gains)
                               for name, bgr in nominal.references.items()})
    return colours


def _face_pairs(square: _Square, face: ColourFace, nominal: DiceColours
                ) -> tuple[np.ndarray, np.ndarray]:
    """A face read: its corners' and middle's colours as seen, and as painted (nominal)."""
    seen = np.array([np.median(square.corners, axis=0), np.median(square.middle, axis=0)])
    meant = np.array([nominal.references[BODY if face.star else face.name],
                      nominal.references[face.name]], np.float64)
    return seen, meant


def _gains(measured: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """The light's gain in each channel that turns `expected` colours into `measured` ones
    best (least squares)."""
    return (measured * expected).sum(axis=0) / (expected ** 2).sum(axis=0)


def bilinear(image: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """`image` sampled at float positions (clamped to the border)."""
    height, width = image.shape[:2]
    xs = np.clip(xs, 0, width - 1.001)
    ys = np.clip(ys, 0, height - 1.001)
    x0 = xs.astype(np.intp)
    y0 = ys.astype(np.intp)
    fx = xs - x0
    fy = ys - y0
    if image.ndim == 3:
        fx = fx[..., None]
        fy = fy[..., None]
    top = image[y0, x0] * (1 - fx) + image[y0, x0 + 1] * fx
    bottom = image[y0 + 1, x0] * (1 - fx) + image[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy
