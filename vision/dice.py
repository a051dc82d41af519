"""The dice reader: every die lying in view, its colour and the face it shows, with a confidence.

A small convolutional network (vision.dicenet) looks at every place of the frame and says
whether a die's top face lies there and which face it shows: on a calibrated table at the one
size the dice have there, within the roll zone; elsewhere over an image pyramid, so a die is
read at any size. One die is one reading: a side face the network half takes for a top falls
to the top beside it. The die's colour is then read from its top face against the calibrated
references. A reading the reader is not sure of says None rather than guess: a wrong reading
costs the table far more than an unknown one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.colours import DiceColours, as_bgr
from vision.dicenet import DIE, Spot, merge, search_scales, second_look, spots_at
from vision.dicesets import DiceSet
from vision.spec import PIP_CELLS, PIP_OFFSET

if TYPE_CHECKING:
    from vision.calibrate import TableCalibration

#: how much a value no die of the game shows (4-6 on a Camel Up die) lowers confidence
UNEXPECTED_VALUE_FACTOR = 0.6
#: how sure the network must be at one place that a die is there, for it to be weighed
_LEAST_DIE = 0.3
#: on a calibrated table, places nearer than this share of a die's side in the image are
#: one place; which of a die's places is its top is then told on the top faces' plane
_NEIGHBOURS = 0.3
#: a die's places less than this share of its side nearer the camera than its furthest are
#: on its top face (a side face's middle lies half a side nearer or more)
_ON_TOP = 0.5
#: places nearer than this share of a die's side, on the top faces' plane, are one die's
_ONE_DIE = 0.95
#: on a calibrated table, a die of the game read no surer than this is looked at again (the
#: table asks the players about one read at 0.8 or less)
_LOOK_AGAIN = 0.8
#: where a die's side face is read, on the top faces' plane, from its top's middle (shares of
#: its side): from the first to the second towards the camera, and no further aside than the
#: third (on tuning tables 500,000-500,299, 14 of 15 dice read where there was none lay
#: 0.95-1.17 towards the camera and at most 0.46 aside)
_SIDE_FACE = (0.6, 1.35, 0.5)
#: the turns of a die at which its pips are looked for, when its numerals' colour is read
#: (a face's pips repeat after half a turn)
_TURNS = np.radians(np.arange(0.0, 180.0, 7.5))


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
        corners = table.zone if table is not None and zone is None else zone
        self.zone = None if corners is None else np.asarray(corners, np.float32).reshape(-1, 2)
        self.table = table
        self.threshold = threshold

    def read(self, frame: np.ndarray) -> list[DieReading]:
        """Every die found in `frame`, most confident first."""
        x0, y0, image = self._crop(frame)
        scales = [DIE / self.die_size] if self.die_size else search_scales(image.shape)
        zone = None if self.zone is None else self.zone - (x0, y0)
        found = spots_at(image, scales, least=_LEAST_DIE, zone=zone)
        smooth = cv2.GaussianBlur(image, (3, 3), 0)

        def read_one(spot: Spot) -> DieReading | None:
            return self._spot_reading(spot, smooth, (x0, y0), frame.shape)

        def read_at(spots: list[Spot]) -> list[DieReading | None]:
            """The dice at `spots`; a die of the game read no surer than _LOOK_AGAIN is
            read again after a second look (`second_look`) where the network was unsure of
            its face. Only those: most of a frame's places are sure, or no die of the game,
            and a second look at every unsure place took settling plus reading from 7.9 to
            13.3 ms a frame (the bench's 640x480 frames)."""
            read = [read_one(spot) for spot in spots]
            unsure = [i for i, reading in enumerate(read) if reading is not None
                      and reading.die is not None and reading.confidence <= _LOOK_AGAIN]
            for i, spot in zip(unsure, second_look(image, [spots[i] for i in unsure]),
                               strict=True):
                read[i] = read_one(spot)
            return read

        readings: Sequence[DieReading | None]
        if self.table is None:
            readings = [read_one(spot) for spot in second_look(image, merge(found))]
        else:
            readings = _one_per_die(self.table, merge(found, apart=_NEIGHBOURS), (x0, y0),
                                    read_at)
        seen = [r for r in readings if r is not None]
        seen.sort(key=lambda r: -r.confidence)
        if self.dice_set is None:
            return seen
        if self.table is not None:
            seen = _without_side_faces(self.table, seen)
        return _one_per_colour(seen)

    def _spot_reading(self, spot: Spot, smooth: np.ndarray, offset: tuple[int, int],
                      shape: tuple[int, ...]) -> DieReading | None:
        """The reading of one die the network found: its face, and its colour from the
        middle of its top face (what is neither pip nor edge)."""
        x0, y0 = offset
        if spot.die < 0.5:
            return None
        if self.zone is not None and cv2.pointPolygonTest(
                self.zone, (spot.x + x0, spot.y + y0), False) < 0:
            return None
        value = spot.value
        value_confidence = spot.probs[value]
        bgr = _body_colour(smooth, spot)
        die = numeral = None
        has_numerals = False
        confidence = value_confidence
        if self.dice_set is not None and self.colours is not None:
            match = self.colours.match(np.array(bgr))
            if match.colour is None and self.table is not None:
                return None   # on a table whose dice are known, a thing of no die's colour
            expected = (self.dice_set.die(match.colour).values if match.colour
                        else self.dice_set.values)
            if value not in expected:
                value_confidence *= UNEXPECTED_VALUE_FACTOR
            else:
                value_confidence = _of_faces_shown(spot.probs, value, expected)
            confidence = min(value_confidence, match.confidence)
            if match.confidence >= self.threshold:
                die = match.colour
            has_numerals = die is not None and self.dice_set.die(die).has_numerals
        shown = value if value_confidence >= self.threshold else None
        if has_numerals and shown is not None:
            numeral = "white" if _pips_lighter(smooth, spot, value, bgr) else "black"
        height, width = shape[:2]
        bx0, by0, bx1, by1 = spot.box
        box = (max(0, bx0 + x0), max(0, by0 + y0), min(width - 1, bx1 + x0),
               min(height - 1, by1 + y0))
        return DieReading(die, shown, box, float(confidence), numeral, bgr)

    def _crop(self, frame: np.ndarray) -> tuple[int, int, np.ndarray]:
        if self.zone is None:
            return 0, 0, frame
        height, width = frame.shape[:2]
        x, y, w, h = cv2.boundingRect(self.zone)
        pad = int(self.die_size or 0)
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(width, x + w + pad), min(height, y + h + pad)
        return x0, y0, frame[y0:y1, x0:x1]


def _one_per_die(table: TableCalibration, spots: list[Spot], offset: tuple[int, int],
                 read_at: Callable[[list[Spot]], list[DieReading | None]]
                 ) -> list[DieReading]:
    """On a calibrated table, where the dice's top faces lie is known: places found nearer
    than a die's side on that plane are one die, read at its top's middle (`top`). Places
    are gathered round the surest, which can be a side face: then part of the top can fall
    outside and be read as a second die of that colour, round one of its pips with a pip
    fewer (a blue 2 read as a 1). A game has one die of each colour, so two readings of one
    colour nearer than a side are one die: their places are pooled and its top chosen again."""
    places = _on_top_plane(table, [(s.x, s.y) for s in spots], offset)
    away = np.hypot(*(places - table.eye[:2]).T)
    near = _ONE_DIE * table.die_mm

    def top(group: list[int]) -> int:
        """Of a die's places the network is sure of, those furthest from the camera are on its
        top (every other face the camera sees of a die lies half a side nearer or more, a side
        face the network takes for a top too), and of those the surest is the top's middle (a
        place on the top's far edge, round one of its pips, may look like a face with a pip
        fewer)."""
        sure = [j for j in group if max(spots[j].probs[1:]) >= 0.5] or group[:1]
        furthest = max(away[j] for j in sure)
        on_top = [j for j in sure if away[j] > furthest - _ON_TOP * table.die_mm]
        return max(on_top, key=lambda j: spots[j].die)

    order = sorted(range(len(spots)), key=lambda i: -spots[i].die)
    groups: list[tuple[list[int], int]] = []
    taken: set[int] = set()
    for i in order:
        if i in taken:
            continue
        group = [j for j in order if j not in taken and np.hypot(*(places[j] - places[i])) < near]
        taken.update(group)
        groups.append((group, top(group)))
    read = [(reading, group, place) for (group, place), reading
            in zip(groups, read_at([spots[place] for _, place in groups]), strict=True)
            if reading is not None]
    read.sort(key=lambda die: -die[0].confidence)
    dice: list[tuple[DieReading, list[int], int]] = []
    for reading, group, place in read:
        twin = next((k for k, (other, _, at) in enumerate(dice)
                     if reading.die is not None and other.die == reading.die
                     and np.hypot(*(places[place] - places[at])) < near), None)
        if twin is None:
            dice.append((reading, group, place))
            continue
        other, others, at = dice[twin]
        pooled = others + group
        again = top(pooled)
        better = read_at([spots[again]])[0] if again != at else None
        if better is not None and better.die == other.die:
            dice[twin] = (better, pooled, again)
        else:
            dice[twin] = (other, pooled, at)
    return [reading for reading, _, _ in dice]


def _without_side_faces(table: TableCalibration, readings: list[DieReading]
                        ) -> list[DieReading]:
    """`readings` less those of no die's colour for sure that lie where a die read by its
    colour shows its side face to the camera: on the top faces' plane about a side nearer the
    camera than that die's top, in line with it (`_SIDE_FACE`). A side face is shaded, so its
    colour matches no die for sure; the network half takes it for a top."""
    named = [r for r in readings if r.die is not None]
    if not named or len(named) == len(readings):
        return readings
    foot = table.eye[:2]
    tops = _on_top_plane(table, [r.centre for r in named], (0, 0))
    towards = (foot - tops) / np.hypot(*(foot - tops).T)[:, None]
    low, high, aside = (v * table.die_mm for v in _SIDE_FACE)

    def is_side_face(reading: DieReading) -> bool:
        offset = _on_top_plane(table, [reading.centre], (0, 0))[0] - tops
        along = (offset * towards).sum(axis=1)
        across = np.abs(offset[:, 0] * towards[:, 1] - offset[:, 1] * towards[:, 0])
        return bool(((along >= low) & (along <= high) & (across <= aside)).any())

    return [r for r in readings if r.die is not None or not is_side_face(r)]


def _one_per_colour(readings: list[DieReading]) -> list[DieReading]:
    """`readings` (surest first) less those of a colour already read: a game's set holds one
    die of each colour, so a second of one is something else (that die's side face, its
    reflection) that the network took for a die."""
    named: set[str] = set()
    kept = []
    for reading in readings:
        if reading.die in named:
            continue
        if reading.die is not None:
            named.add(reading.die)
        kept.append(reading)
    return kept


def _on_top_plane(table: TableCalibration, points: Sequence[tuple[float, float]],
                  offset: tuple[int, int]) -> np.ndarray:
    """`points` (in the cropped image at `offset`) on the plane of `table`'s dice's top faces,
    in mm (N x 2)."""
    if not points:
        return np.zeros((0, 2))
    image = np.asarray(points, np.float64) + np.asarray(offset, np.float64)
    return cv2.perspectiveTransform(image.reshape(-1, 1, 2), table.from_top).reshape(-1, 2)


def _body_colour(image: np.ndarray, spot: Spot) -> tuple[float, float, float]:
    """The colour of a die's top face round `spot`: the median of the pixels nearest the
    middle's median colour (pips and edges are the rest)."""
    half = max(2, round(0.3 * spot.side))
    x, y = round(spot.x), round(spot.y)
    patch = image[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1]
    pixels = patch.reshape(-1, 3).astype(np.float32)
    middle = np.median(pixels, axis=0)
    distance = np.abs(pixels - middle).sum(axis=1)
    return as_bgr(np.median(pixels[distance <= np.percentile(distance, 60)], axis=0))


def _of_faces_shown(probs: tuple[float, ...], value: int, expected: frozenset[int]
                    ) -> float:
    """How sure the network is of a die showing `value`, among what the die can show: no
    die, or one of its faces (`expected`). A Camel Up die shows 1 to 3, so what the network
    gives a 4, 5 or 6 is said of no face the die has, and is left out rather than counted
    against the face read: on tuning tables 500,000-500,399, the dice read right but below
    the table's 0.8 gave 4 to 6 a share of 0.03 at the median and 0.09 at the 90th
    percentile, enough to hold a reading just under the line that applies it unasked."""
    return probs[value] / (probs[0] + sum(probs[face] for face in expected))


def _pips_lighter(image: np.ndarray, spot: Spot, value: int,
                  body: tuple[float, float, float]) -> bool:
    """Whether the pips of a die showing `value` at `spot` are lighter than its `body`: read
    where that face's pips lie (`PIP_CELLS`), at every turn of the die, as the turn whose
    pips are all lighter than the body by the most against the one whose pips are all
    darker. The pixels of the top's middle furthest from its colour were taken for its
    pips before: a 2's pips lie at the corners, mostly outside it, and a side face's
    pips or the table beside the top stood in for them (3 of the 4 grey dice read with the
    wrong numerals on tuning tables 500,000-500,799 were 2s with white pips)."""
    cells = np.array(PIP_CELLS[value], np.float64) * PIP_OFFSET * spot.side
    cos, sin = np.cos(_TURNS)[:, None], np.sin(_TURNS)[:, None]
    xs = np.round(spot.x + cells[:, 0] * cos - cells[:, 1] * sin).astype(int)
    ys = np.round(spot.y + cells[:, 0] * sin + cells[:, 1] * cos).astype(int)
    height, width = image.shape[:2]
    pips = image[ys.clip(0, height - 1), xs.clip(0, width - 1)].astype(np.float64).sum(axis=2)
    lighter = pips - sum(body)
    return bool(lighter.min(axis=1).max() > (-lighter).min(axis=1).max())
