"""Calibration: where the table lies in the camera's view, and what the dice look like there.

The table is found once, from the four ArUco markers (or from four points a person taps on the
camera view), as a homography from the table's millimetres to image pixels; it is then checked
cheaply now and then by looking for the markers only where they were. The dice's colours are
learned from one shot of all the game's dice lying in view under the table's own light.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import CalibrationError
from vision.aruco import detect_markers
from vision.colours import (
    MAX_DISTANCE,
    DiceColours,
    across_channels,
    as_bgr,
    colour_distance,
    colour_feature,
    colour_parts,
)
from vision.dice import DiceReader
from vision.dicenet import die_near
from vision.dicesets import DiceSet
from vision.markers import MARKER_IDS
from vision.table import TableLayout

#: the corners of three markers seen must fit the table's layout to within this many pixels
#: for the fourth to be placed from them
_CORNER_FIT = 4.0
#: how far (colour_distance units) a die's colour may lie from where the light's shift of
#: every die's colour puts it, in chromaticity and in brightness (`colour_parts`), and how
#: much nearer another die's colour it may lie than its own. On rendered tuning tables the
#: game's own dice lie within 1.5 and 0.3 for 99 in 100 (500,000-500,399), dice painted in
#: other shades (`vision.synth.other_dice`; 520,000-520,399) within 5.4 and 0.8, a maker's
#: deep red 6.8 off in chromaticity but far nearer red than any other die; the stand-ins
#: taken for a die left out (a shadow, the mat, another die's side) lie further off in
#: brightness, or nearer another die's colour by more than 1.5, but for 3 of 800 (the green
#: mat in dim light for the green die); a thing 10 off in chromaticity is no shade of it
_OFF_SHADE = 10.0
_OFF_LIGHT = 1.5
_NEARER = 1.5


class MarkersNotSeen(CalibrationError):
    """Fewer than three of the table's markers are in the picture: `missing` says which."""

    def __init__(self, missing: Sequence[int]) -> None:
        self.missing = tuple(missing)
        super().__init__(f"marker(s) {', '.join(map(str, missing))} not seen; make sure all "
                         "four are in view and lit, or mark the corners by hand")


@dataclass(frozen=True)
class Place:
    """Where a die (a racing card) was found while the colours were learned: its box in the
    frame (x0, y0, x1, y1), the colour of the die (the camel) it was taken for (None: for
    none), and whether surely that one (its colour lies as near it as the light puts the
    others')."""

    box: tuple[int, int, int, int]
    colour: str | None
    sure: bool


class DiceNotFound(CalibrationError):
    """The colours not learned: a die of the set (a camel's racing card) was not found in
    the frame, or not for sure. The message names its colour (`missing`); `places` holds
    each place where one was found, with what it was taken for, for a picture of where the
    reader looked."""

    def __init__(self, message: str, places: Sequence[Place], missing: Sequence[str]) -> None:
        super().__init__(message)
        self.places = tuple(places)
        self.missing = tuple(missing)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The table's markers seen in `image`: id -> centre (x, y) in pixels."""
    return {marker: quad.mean(axis=0) for marker, quad in find_marker_corners(image).items()}


def find_marker_corners(image: np.ndarray) -> dict[int, np.ndarray]:
    """The table's markers seen in `image`: id -> its four corners (4 x 2 pixels, in the
    marker's own order). A marker missed is looked for again in the image at twice its size:
    far off, seen at a slant (a camera that takes in the whole board), a marker is a few
    pixels a cell, too few for the detector."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    found = _markers_in(gray)
    if len(found) < len(MARKER_IDS):
        larger = cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
        for marker_id, quad in _markers_in(larger).items():
            found.setdefault(marker_id, (quad + 0.5) / 2 - 0.5)
    return found


def _markers_in(gray: np.ndarray) -> dict[int, np.ndarray]:
    corners, ids = detect_markers(gray)
    found = {}
    if ids is not None:
        for quad, marker_id in zip(corners, ids.ravel(), strict=True):
            if int(marker_id) in MARKER_IDS:
                found[int(marker_id)] = quad.reshape(4, 2).astype(np.float64)
    return found


def _refined(image: np.ndarray, found: Mapping[int, np.ndarray]) -> dict[int, np.ndarray]:
    """The markers' corners found to a fraction of a pixel: placing a marker not seen from the
    others' corners carries their errors across the table, twice over (on the 30 rendered
    tables it was chosen on: 1.75 px off at the median and 7.8 px at worst unrefined, 0.5 and
    4.6 refined)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    return {m: cv2.cornerSubPix(gray, quad.astype(np.float32).reshape(-1, 1, 2), (3, 3),
                                (-1, -1), criteria).reshape(4, 2).astype(np.float64)
            for m, quad in found.items()}


def _unseen_centre(found: Mapping[int, np.ndarray], layout: TableLayout, marker: int
                   ) -> np.ndarray:
    """Where the one marker not seen lies in the image, from the corners of the three seen
    (twelve points: the table's plane is known without the fourth). Each marker may have been
    laid turned any quarter turn, so every turn of each is tried and the one the corners fit
    best kept; corners that fit no turn to within _CORNER_FIT pixels are refused."""
    half = layout.marker_size / 2
    square = np.array([(-half, half), (half, half), (half, -half), (-half, -half)])
    seen = sorted(found)
    dst = np.concatenate([found[m] for m in seen])
    best = (np.inf, None)
    for turns in itertools.product(range(4), repeat=len(seen)):
        src = np.concatenate([np.array(layout.markers[MARKER_IDS.index(m)]) + np.roll(square, t, 0)
                              for m, t in zip(seen, turns, strict=True)])
        homography, _ = cv2.findHomography(src, dst)
        if homography is None:
            continue
        error = float(np.abs(_apply(homography, src) - dst).max())
        if error < best[0]:
            best = (error, homography)
    error, homography = best
    if homography is None or error > _CORNER_FIT:
        raise CalibrationError(f"marker {marker} not seen, and the other three are not where "
                               "the table's layout puts them; make sure all four are in view "
                               "and lit, or mark the corners by hand")
    return _apply(homography, np.array([layout.markers[MARKER_IDS.index(marker)]]))[0]


@dataclass(frozen=True)
class TableCalibration:
    """Where the table lies in the image: the homography from table millimetres to pixels, the
    roll zone's corners in pixels, a die's size in pixels there, where each marker was, a
    die's side in millimetres, and the board's corners in pixels."""

    homography: np.ndarray
    image_size: tuple[int, int]
    zone: np.ndarray
    die_size: float
    markers: Mapping[int, tuple[float, float]]
    die_mm: float = 16.0
    board: np.ndarray | None = None

    @classmethod
    def from_points(cls, marker_px: Sequence[Sequence[float]] | np.ndarray,
                    image_size: tuple[int, int],
                    layout: TableLayout, markers_seen: bool = False) -> TableCalibration:
        """From the four marker centres in pixels (found, or tapped by a person on the camera
        view in the markers' order: far left, far right, near right, near left)."""
        src = np.array(layout.markers, np.float64)
        dst = np.array(marker_px, np.float64).reshape(4, 2)
        homography, _ = cv2.findHomography(src, dst)
        if homography is None:
            raise CalibrationError("the four corners do not make a quadrilateral; mark them "
                                   "again, far left first, clockwise")
        zone = _apply(homography, layout.roll_zone_corners)
        centre = layout.roll_zone_corners.mean(axis=0)
        half = layout.die_size / 2
        ends = _apply(homography, centre + np.array([[-half, 0], [half, 0], [0, -half],
                                                     [0, half]]))
        die = (np.linalg.norm(ends[1] - ends[0]) + np.linalg.norm(ends[3] - ends[2])) / 2
        markers = ({i: (float(x), float(y)) for i, (x, y) in zip(MARKER_IDS, dst, strict=True)}
                   if markers_seen else {})
        return cls(homography, image_size, zone, float(die), markers, layout.die_size,
                   _apply(homography, layout.board_corners))

    @classmethod
    def from_zone(cls, zone_px: Sequence[Sequence[float]], image_size: tuple[int, int],
                  layout: TableLayout) -> TableCalibration:
        """From the roll zone's four corners tapped by a person (far left first, clockwise),
        for a table without markers."""
        src = layout.roll_zone_corners
        dst = np.array(zone_px, np.float64).reshape(4, 2)
        homography, _ = cv2.findHomography(src, dst)
        if homography is None:
            raise CalibrationError("the roll zone's corners do not make a quadrilateral; mark "
                                   "them again, far left first, clockwise")
        marker_px = _apply(homography, np.array(layout.markers, np.float64))
        return cls.from_points(marker_px, image_size, layout)

    @functools.cached_property
    def camera(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The camera (K, R, t: table millimetres to pixels) the homography implies, taking
        square pixels and the principal point at the image's centre; None when the view is
        too square-on to tell the focal length."""
        cx, cy = self.image_size[0] / 2, self.image_size[1] / 2
        a, b = self.homography[:, 0], self.homography[:, 1]
        # the table's axes are at right angles and of one length: two equations in f squared,
        # solved together (either alone fails for some tilts)
        ax, ay = a[0] - cx * a[2], a[1] - cy * a[2]
        bx, by = b[0] - cx * b[2], b[1] - cy * b[2]
        coefficients = np.array([a[2] * b[2], a[2] ** 2 - b[2] ** 2])
        targets = np.array([-(ax * bx + ay * by), bx ** 2 + by ** 2 - ax ** 2 - ay ** 2])
        weight = float(coefficients @ coefficients)
        if weight < 1e-18:
            return None
        focal2 = float(coefficients @ targets) / weight
        if focal2 <= 0:
            return None
        k = np.array([[np.sqrt(focal2), 0, cx], [0, np.sqrt(focal2), cy], [0, 0, 1]])
        inverse = np.linalg.inv(k)
        scale = 1.0 / np.linalg.norm(inverse @ a)
        r1, r2 = scale * (inverse @ a), scale * (inverse @ b)
        t = scale * (inverse @ self.homography[:, 2])
        if t[2] < 0:  # the table lies in front of the camera
            r1, r2, t = -r1, -r2, -t
        r = np.column_stack([r1, r2, np.cross(r1, r2)])
        return k, r, t

    @property
    def known_camera(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The `camera`, for what cannot be done without it: placing in the image what
        stands above the table."""
        camera = self.camera
        if camera is None:
            raise CalibrationError("the camera looks straight down on the table: tilt it and "
                                   "calibrate again")
        return camera

    @functools.cached_property
    def eye(self) -> np.ndarray:
        """Where the camera is, in table millimetres (x, y, height above the table)."""
        _, r, t = self.known_camera
        return -r.T @ t

    def lifted(self, height: float) -> np.ndarray:
        """The homography of the plane `height` mm above the table (a die's top face)."""
        camera = self.camera
        if camera is None:
            return self.homography
        k, r, t = camera
        return k @ np.column_stack([r[:, 0], r[:, 1], height * r[:, 2] + t])

    @functools.cached_property
    def top(self) -> np.ndarray:
        """The homography of the dice's top faces' plane (`lifted` by a die's side), which
        every read of the dice looks at several times."""
        return self.lifted(self.die_mm)

    @functools.cached_property
    def from_top(self) -> np.ndarray:
        """The homography from the image onto the dice's top faces' plane."""
        return np.linalg.inv(self.top)

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image positions (N x 2) of table points (N x 3, millimetres, z up)."""
        k, r, t = self.known_camera
        uv = (points @ r.T + t) @ k.T
        return uv[:, :2] / uv[:, 2:3]

    def check(self, image: np.ndarray, tolerance: float = 0.01) -> bool:
        """Whether the markers are still where they were (within `tolerance` of the image's
        width), looking only near each; a hidden marker counts for nothing either way."""
        if not self.markers:
            return True
        width = image.shape[1]
        reach = int(0.08 * width)
        for marker_id, (x, y) in self.markers.items():
            x0, y0 = max(0, int(x) - reach), max(0, int(y) - reach)
            crop = image[y0:int(y) + reach, x0:int(x) + reach]
            seen = find_markers(crop).get(marker_id)
            if seen is not None and np.hypot(seen[0] + x0 - x, seen[1] + y0 - y) \
                    > tolerance * width:
                return False
        return True

    def to_config(self) -> dict:
        """The `[vision.calibration]` TOML table that stores this calibration."""
        return {"homography": [[float(v) for v in row] for row in self.homography],
                "image_size": list(self.image_size),
                "zone": [[float(v) for v in p] for p in self.zone],
                **({} if self.board is None
                   else {"board": [[float(v) for v in p] for p in self.board]}),
                "die_size": float(self.die_size),
                "die_mm": float(self.die_mm),
                "markers": {str(k): list(v) for k, v in self.markers.items()}}

    @classmethod
    def from_config(cls, table: Mapping) -> TableCalibration:
        try:
            homography = np.array(table["homography"], np.float64).reshape(3, 3)
            width, height = (int(v) for v in table["image_size"])
            return cls(homography, (width, height),
                       np.array(table["zone"], np.float64).reshape(4, 2),
                       float(table["die_size"]),
                       {int(k): (float(v[0]), float(v[1]))
                        for k, v in table.get("markers", {}).items()},
                       float(table.get("die_mm", 16.0)),
                       np.array(table["board"], np.float64).reshape(4, 2)
                       if "board" in table else None)
        except (KeyError, TypeError, ValueError) as e:
            raise CalibrationError(f"[vision.calibration] is incomplete or malformed ({e}); "
                                   "calibrate the table again") from None


def calibrate_table(image: np.ndarray, layout: TableLayout) -> TableCalibration:
    """The table found from its four markers in `image`, or from three of them when the
    fourth is hidden or out of the picture."""
    found = find_marker_corners(image)
    missing = [m for m in MARKER_IDS if m not in found]
    if len(missing) > 1:
        raise MarkersNotSeen(missing)
    centres = {m: quad.mean(axis=0) for m, quad in found.items()}
    for marker in missing:  # one hidden (a hand, a die, the frame's edge): three are enough
        centres[marker] = _unseen_centre(_refined(image, found), layout, marker)
    height, width = image.shape[:2]
    return TableCalibration.from_points([centres[m] for m in MARKER_IDS], (width, height),
                                        layout, markers_seen=True)


def _apply(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64),
                                    homography).reshape(-1, 2)


def learn_colours(image: np.ndarray, dice: DiceSet, *,
                  table: TableCalibration | None = None) -> DiceColours:
    """The colour of each of the game's dice under this light, from one frame showing each die
    once, any face up: the dice found are matched to the set's colours, each colour once, so
    that their colours lie nearest the nominal ones overall.

    A die is found by its face, as the reader finds it, whose colour is then measured as the
    reader will measure it. On a calibrated table a die whose face cannot be read (a hand's
    shadow, glare) is also found as a blob standing out from the roll zone's mat, and a die
    touching another (one blob for two) by the colour the light gives it: the dice found show
    how this light shifts every die's colour, so the missing one's is known before it is seen.

    A frame on which a die cannot be found, or not for sure, is refused with `DiceNotFound`:
    it names the die, and holds where the others were found and which die each was taken for."""
    reader = DiceReader(table=table, threshold=0.0)
    colours = dice.colours
    seen = [(r.box, r.bgr) for r in sorted(reader.read(image), key=lambda r: -r.confidence)
            if r.bgr is not None and r.confidence >= 0.5]
    nominal = colour_feature(np.array([d.body_bgr for d in dice.dice], np.float64))
    assignment, odd = _assigned(seen, nominal)
    if (assignment is None or odd.any()) and table is not None:
        # a die the reader missed, its place taken by a side face or a shadow of another
        mat = _standing_out(image, table)
        seen += [blob for blob in _blobs_on_mat(mat, table)
                 if _another_die(image, blob[0], [box for box, _ in seen], table)]
        assignment, odd = _assigned(seen, nominal)
        if assignment is None or odd.any():
            seen, assignment, odd = _with_colour_search(image, mat, table, seen, nominal)
    if assignment is None or odd.any():
        raise _not_found(seen, assignment, odd, nominal, colours)
    return DiceColours({colour: seen[k][1] for colour, k in zip(colours, assignment,
                                                                strict=True)})


def _with_colour_search(image: np.ndarray, mat: _Mat, table: TableCalibration, seen: list,
                        nominal: np.ndarray) -> tuple[list, list[int] | None, np.ndarray]:
    """`seen`, its places matched to the set's dice as `_assigned` matches them, with each die
    not found for sure looked for by the colour this light gives it: the median shift from
    nominal of the dice found for sure, added to its own nominal colour: a patch of that colour
    that holds another die (`_another_die`)."""
    found = _surely_found(seen, nominal)
    if len(found) < 2:
        return seen, *_assigned(seen, nominal)   # too few to tell what the light does
    measured = colour_feature(np.array([seen[k][1] for k in found.values()], np.float64))
    shift = np.median(measured - nominal[list(found)], axis=0)
    expected = nominal + shift
    taken = [seen[k][0] for k in found.values()]
    places = {die: seen[k] for die, k in found.items()}
    for die in range(len(nominal)):
        if die not in places:
            place = _by_colour(mat, table, expected, die, taken)
            if place is None or not _another_die(image, place[0], taken, table):
                return seen, *_assigned(seen, nominal)
            places[die] = place
    chosen = [places[die] for die in range(len(nominal))]
    return chosen, list(range(len(nominal))), np.zeros(len(nominal), bool)


def _surely_found(seen: list, nominal: np.ndarray) -> dict[int, int]:
    """Which of the set's dice (index into `nominal`) are surely the places `seen` (index),
    matching each place found to a die, each once: the dice whose match lies near the others'
    shift, as `_assigned` judges it."""
    if not seen:
        return {}
    assignment, odd = _assigned(seen, nominal)
    if assignment is not None:
        return {die: int(place) for die, (place, far) in enumerate(zip(assignment, odd,
                                                                       strict=True)) if not far}
    dice, far = _matched(seen, nominal)
    return {die: place for place, (die, off) in enumerate(zip(dice, far, strict=True))
            if not off}


def _assigned(seen: list, nominal: np.ndarray) -> tuple[list[int] | None, np.ndarray]:
    """Which of the places `seen` (box, colour; surest first) is each of the set's dice
    (`nominal`: their colours' features), each once, nearest overall: None when there are too
    few; and which dice lie far off the others' shift. The light shifts every die's colour
    alike; one die far off is a shadow, the mat or another die's side taken for it, and
    learning it would misname that die all game."""
    if len(seen) < len(nominal):
        return None, np.zeros(len(nominal), bool)
    measured = colour_feature(np.array([bgr for _, bgr in seen[:len(nominal) + 4]],
                                       np.float64))
    cost = colour_distance(nominal[:, None], measured[None])
    assignment = cheapest_assignment(cost)
    return assignment, _far(measured[assignment], np.arange(len(nominal)), nominal)


def _matched(seen: list, nominal: np.ndarray) -> tuple[list[int], np.ndarray]:
    """For each of the places `seen` (no more than the set has dice), the die of the set it
    is, each die once, nearest overall; and which lie far off the others' shift."""
    measured = colour_feature(np.array([bgr for _, bgr in seen], np.float64))
    cost = colour_distance(measured[:, None], nominal[None])
    dice = cheapest_assignment(cost)
    return dice, _far(measured, np.asarray(dice), nominal)


def _far(measured: np.ndarray, dice: np.ndarray, nominal: np.ndarray) -> np.ndarray:
    """Which of the places matched (their colours' features `measured`) to the set's `dice`
    (indices into `nominal`, the set's colours' features) lie far off the shift the light
    gives every die (the median of their own): in chromaticity further than another
    maker's shade of the colour, in brightness further than a die of that colour under this
    light (a shadow), or nearer another die's colour than their own (that die's side)."""
    expected = nominal[dice]
    shift = np.median(measured - expected, axis=0)
    chroma, brightness = colour_parts(measured, expected + shift)
    every = colour_distance(measured[:, None], (nominal + shift)[None])
    own = every[np.arange(len(dice)), dice]
    every[np.arange(len(dice)), dice] = np.inf
    return ((chroma > _OFF_SHADE) | (brightness > _OFF_LIGHT)
            | (own > every.min(axis=1) + _NEARER))


def _not_found(seen: list, assignment: list[int] | None, odd: np.ndarray, nominal: np.ndarray,
               colours: Sequence[str]) -> DiceNotFound:
    """The refusal of a frame whose dice were not all found (`assignment` None: too few
    places `seen`), or not all for sure (`odd`): it names the colours a person must look for
    on the table (a die matched only to a place far off the light's shift too: a side face
    or a shadow is not that die), and holds each place found with the die it was taken for."""
    if assignment is None:
        # the places found matched to the nearest of the set's dice, each once
        dice, far = _matched(seen, nominal) if seen else ([], np.zeros(0, bool))
        places = [Place(box, colours[die], not bool(f))
                  for (box, _), die, f in zip(seen, dice, far, strict=True)]
        sure = {die for die, f in zip(dice, far, strict=True) if not f}
        missing = [c for k, c in enumerate(colours) if k not in sure]
        return DiceNotFound(f"found {len(sure)} dice, the game has {len(colours)}: could not "
                            f"find the {', '.join(missing)} die; lay all of them in view, "
                            "apart, and try again", places, missing)
    die_at = {place: die for die, place in enumerate(assignment)}
    places = [Place(box, colours[die_at[k]] if k in die_at else None,
                    k in die_at and not odd[die_at[k]])
              for k, (box, _) in enumerate(seen[:len(nominal) + 4])]   # those `_assigned` weighs
    missing = [c for c, o in zip(colours, odd, strict=True) if o]
    return DiceNotFound(f"could not find the {', '.join(missing)} die for sure: lay all the "
                        "dice in the roll zone, apart and in full light, and try again",
                        places, missing)


def _another_die(image: np.ndarray, box: tuple[int, int, int, int],
                 taken: Sequence[tuple[int, int, int, int]], table: TableCalibration) -> bool:
    """Whether `box`, a place found by what stands out from the mat or by a die's colour
    alone, holds a die besides those at the places `taken`: its middle lies most of a die's
    side from theirs, and the network sees a die's top there. Without it, where a die was
    left out, the mat's corner, a die's shadow, its side or a highlight on it would be learned
    as that die."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    side = table.die_size
    return (all(math.hypot(x - (t[0] + t[2]) / 2, y - (t[1] + t[3]) / 2) >= 0.75 * side
                for t in taken)
            and die_near(image, x, y, side) >= 0.5)


def _blobs_on_mat(mat: _Mat, table: TableCalibration
                  ) -> list[tuple[tuple[int, int, int, int], tuple[float, float, float]]]:
    """Die-sized blobs standing out from the roll zone's mat: their boxes and their colours."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mat.out)
    area = table.die_size ** 2
    found = []
    for k in range(1, n):
        bw, bh, pixels = stats[k][2:]
        if (not 0.5 * area <= pixels <= 3.0 * area or max(bw, bh) > 2 * min(bw, bh)
                or pixels < 0.4 * bw * bh):
            continue  # not a die's size or shape: an edge of the mat, a shadow, two dice
        inside_blob = labels == k
        values = mat.crop[inside_blob]
        # the die's own colour: the blob's pixels least like the mat (its edge and its shadow
        # are mostly mat), and of those the brighter half (the top face, lit from above)
        away = np.abs(values - mat.bare[inside_blob]).max(axis=1)
        found.append((mat.box(stats[k]), _top_colour(values[away >= np.percentile(away, 60)])))
    return found


def _by_colour(mat: _Mat, table: TableCalibration, expected: np.ndarray, die: int,
               taken: Sequence[tuple[int, int, int, int]]
               ) -> tuple[tuple[int, int, int, int], tuple[float, float, float]] | None:
    """The largest die-sized patch standing out from the mat, outside the places `taken`, whose
    pixels lie nearer die `die`'s `expected` colour (features of every die of the set under
    this light) than any other die's: its box and colour, or None where there is none."""
    distances = colour_distance(colour_feature(mat.crop)[:, :, None], expected[None, None])
    ours = ((distances.argmin(axis=2) == die) & (distances[:, :, die] < MAX_DISTANCE)
            & (mat.out > 0)).astype(np.uint8)
    for x0, y0, x1, y1 in taken:
        ours[max(0, y0 - mat.y):max(0, y1 - mat.y), max(0, x0 - mat.x):max(0, x1 - mat.x)] = 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(
        cv2.morphologyEx(ours, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    area = table.die_size ** 2
    sizes = [(stats[k][4], k) for k in range(1, n) if 0.3 * area <= stats[k][4] <= 3.0 * area]
    if not sizes:
        return None
    k = max(sizes)[1]
    return mat.box(stats[k]), _top_colour(mat.crop[labels == k])


def _top_colour(values: np.ndarray) -> tuple[float, float, float]:
    """The colour of a die's pixels' brighter half: its top face, lit from above."""
    top = values[values.sum(axis=1) >= np.median(values.sum(axis=1))]
    return as_bgr(np.median(top, axis=0))


@dataclass(frozen=True)
class _Mat:
    """The roll zone's bounding crop (blurred, at `x`, `y` in the frame), the bare mat as it
    looks round each place, and the mask of what stands out from it inside the zone."""

    crop: np.ndarray
    bare: np.ndarray
    out: np.ndarray
    x: int
    y: int

    def box(self, stats: np.ndarray) -> tuple[int, int, int, int]:
        """A component's box (its `connectedComponentsWithStats` row) in the frame."""
        bx, by, bw, bh = (int(v) for v in stats[:4])
        return bx + self.x, by + self.y, bx + bw + self.x, by + bh + self.y


def _standing_out(image: np.ndarray, table: TableCalibration) -> _Mat:
    """What stands out from the roll zone's mat: the mat is what a median over most of a die's
    width leaves (light falls unevenly), a die what differs from it by more than noise."""
    x, y, w, h = cv2.boundingRect(table.zone.astype(np.float32))
    x, y = max(0, x), max(0, y)
    crop = cv2.GaussianBlur(image[y:y + h, x:x + w], (5, 5), 0).astype(np.float32)
    inside = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(table.zone - (x, y)).astype(np.int32), 1)
    small = cv2.resize(crop.astype(np.uint8), None, fx=0.25, fy=0.25,
                       interpolation=cv2.INTER_AREA)
    kernel = max(3, int(0.75 * table.die_size)) | 1
    bare = cv2.resize(cv2.medianBlur(small, kernel), (crop.shape[1], crop.shape[0]),
                      interpolation=cv2.INTER_LINEAR).astype(np.float32)
    out = ((across_channels(np.maximum, np.abs(crop - bare)) > 18) & (inside > 0)
           ).astype(np.uint8)
    return _Mat(crop, bare, cv2.morphologyEx(out, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)),
                x, y)


def cheapest_assignment(cost: np.ndarray) -> list[int]:
    """For each row a distinct column, with the least total cost (exact, over subsets)."""
    rows, cols = cost.shape
    best: dict[int, tuple[float, list[int]]] = {0: (0.0, [])}
    for r in range(rows):
        step: dict[int, tuple[float, list[int]]] = {}
        for used, (total, picks) in best.items():
            for c in range(cols):
                if used & (1 << c):
                    continue
                key = used | (1 << c)
                candidate = (total + float(cost[r, c]), [*picks, c])
                if key not in step or candidate[0] < step[key][0]:
                    step[key] = candidate
        best = step
    return min(best.values(), key=lambda v: v[0])[1]
