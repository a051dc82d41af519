"""The racing card reader: a Camel Up Cards racing card laid face up, its camel and +1 or +2.

The rule book says only that each of the 30 racing cards shows a camel colour (blue, green,
orange, white, yellow) and +1 or +2. Until the printed cards are measured, the reader is built
for the plainest such card (vision.spec's `CARD_MM`, `MARK_SPOTS`): its face in the camel's
colour, with one dark camel mark in the middle for +1, or two, one above the other, for +2.
Counting the marks, each of a known size at a known place, reads the value at any turn of the
card; the face's colour, matched as the dice's colours are (vision.colours), names the camel.

A card is found as a region closed by edges whose outline is a rectangle of a card's size
(on a calibrated table, measured in millimetres on the table) or shape (anywhere in a frame,
without calibration); on a calibrated table also from its camel marks, where its outline
shows only in part. A card cut by a hand or mostly hidden by another card is not read. As for
the dice, what the reader is unsure of it reports as None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.colours import ColourMatch, DiceColours, as_bgr, colour_distance, colour_feature
from vision.dicesets import CAMELUP_2014
from vision.light import LightChange
from vision.spec import CARD_MM, MARK_MM, MARK_SPOTS

if TYPE_CHECKING:
    from vision.calibrate import TableCalibration

#: the camels' colours: the racing cards print the 2014 dice's camel colours
CAMEL_COLOURS = DiceColours({d.colour: d.body_bgr for d in CAMELUP_2014.dice})

#: the gains (B, G, R) a warm lamp and daylight give a colour, against neutral light
LIGHT_TINTS = ((1.0, 1.0, 1.0), (0.85, 0.95, 1.05), (1.06, 1.0, 0.94))
#: pixels per millimetre of the views the reader works in (the table seen from above, a card)
_TABLE_PPM = 2.0
_CARD_PPM = 2.0
#: how far around the reveal zone a card may lie and still be read, in millimetres
_ZONE_MARGIN = 40.0
#: Canny's thresholds for edges of brightness and of colour (Lab's a and b)
_EDGE_LOW, _EDGE_HIGH = 20, 60
_CHROMA_LOW, _CHROMA_HIGH = 10, 30
#: the side (pixels) of the square a card's face region is eroded by, and how far inside the
#: card's edge that leaves the region (half the edge line, and the erosion)
_CUT = 5
_INSET = 1.0 + _CUT / 2
#: two camels' learned card colours nearer than this (vision.colours' units; the nominal
#: colours lie 5.5 or more apart) are taken for two cards of one camel
_ALIKE = 2.0
#: how well two camel marks a +2's spacing apart, each turned across the line between them,
#: fit a card by themselves, where the card's edges do not show
_MARKS_ALONE = 0.6
#: a mark is darker than this share of the card face around it
_MARK_DARKNESS = 0.5


@dataclass(frozen=True)
class CardReading:
    """One racing card seen: its camel (None when unsure), its value 1 or 2 (None when unsure),
    a box around it (x0, y0, x1, y1 in image pixels) and a confidence 0..1."""

    camel: str | None
    value: int | None
    box: tuple[int, int, int, int]
    confidence: float
    #: the card face's measured colour (B, G, R), for colour calibration; not in the JSON
    bgr: tuple[float, float, float] | None = field(default=None, compare=False, repr=False)

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    def to_json(self) -> dict:
        return {"camel": self.camel, "value": self.value, "box": list(self.box),
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class _Face:
    """A card's face as found: its corners in image pixels, the face seen squarely, short side
    across (CARD_MM at _CARD_PPM), and how well it fits a card."""

    corners: np.ndarray
    image: np.ndarray
    fit: float


class CardReader:
    """Reads racing cards from BGR frames.

    With a `table` calibration the reader looks in the reveal zone (the roll zone between the
    markers: Camel Up Cards has no dice) and only for rectangles of a card's size there;
    without one it looks anywhere in the frame for rectangles of a card's shape. `colours` are
    the camels' card colours under the table's light (`learn_card_colours`); readings below
    `threshold` report None for what is unsure. With the `light` of the shot the colours were
    learned from, each frame is first brought back to that light (a cloud, a lamp switched on
    since).
    """

    def __init__(self, colours: DiceColours | None = None, *,
                 table: TableCalibration | None = None, threshold: float = 0.5,
                 light: LightChange | None = None) -> None:
        self.colours = colours or CAMEL_COLOURS
        self.light = light
        # colours not learned under this light: the camel must be the same whatever the
        # light's tint, from a warm lamp to daylight
        self._tints = ((1.0, 1.0, 1.0),) if colours is not None else LIGHT_TINTS
        self.table = table
        self.threshold = threshold

    def read(self, frame: np.ndarray) -> list[CardReading]:
        """Every card found face up in `frame`, most confident first."""
        if self.light is not None:
            frame = self.light.as_shot(frame)
        if self.table is None:
            faces = _find_faces(frame, frame, np.eye(3), size=None)
        else:
            view, to_image = _table_view(self.table, frame)
            size = (CARD_MM[0] * _TABLE_PPM, CARD_MM[1] * _TABLE_PPM)
            faces = _find_faces(view, frame, to_image, size=size)
        read = [(reading, face.corners.astype(np.float32)) for face in faces
                if (reading := self._reading(face, frame.shape)) is not None]
        # a card found both as a region and from its marks is read once, where surest
        read.sort(key=lambda pair: -pair[0].confidence)
        readings: list[CardReading] = []
        outlines: list[np.ndarray] = []
        for reading, outline in read:
            if not any(cv2.pointPolygonTest(o, reading.centre, False) >= 0 for o in outlines):
                readings.append(reading)
                outlines.append(outline)
        return readings

    def _reading(self, face: _Face, shape: tuple[int, ...]) -> CardReading | None:
        value, value_sure = _count_marks(face.image)
        if value is None and value_sure == 0.0:
            return None  # no camel mark at all: a rectangle of the table, not a card
        bgr, match = self._camel(face.image)
        confidence = min(value_sure, match.confidence, face.fit)
        height, width = shape[:2]
        x0, y0 = np.floor(face.corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(face.corners.max(axis=0)).astype(int)
        box = (int(max(0, x0)), int(max(0, y0)), int(min(width - 1, x1)),
               int(min(height - 1, y1)))
        sure = min(value_sure, face.fit) >= self.threshold
        return CardReading(match.colour if min(match.confidence, face.fit) >= self.threshold
                           else None,
                           value if sure else None, box, confidence, bgr)


    def _camel(self, card: np.ndarray) -> tuple[tuple[float, float, float], ColourMatch]:
        """The card face's colour and the camel it names: four sixths of the face at least,
        and the whole face under every tint, must name the camel the whole face does (a
        lamp's glare can turn a sixth or two of an orange card yellow)."""
        bgr, *parts = _face_colours(card)
        match = self.colours.match(np.array(bgr))
        agree = sorted(m.confidence if m.colour == match.colour else 0.0
                       for m in (self.colours.match(np.array(part)) for part in parts))[2]
        for tint in self._tints:
            tinted = self.colours.match(np.array(bgr) / tint)
            agree = min(agree, tinted.confidence if tinted.colour == match.colour else 0.0)
        return bgr, replace(match, confidence=min(match.confidence, 0.25 + agree))


def _table_view(table: TableCalibration, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`table`'s reveal zone and a margin round it seen from straight above, and the
    homography from that view's pixels to the frame's."""
    to_table = np.linalg.inv(table.homography)
    zone_mm = cv2.perspectiveTransform(table.zone.reshape(-1, 1, 2), to_table)
    x0, y0 = zone_mm.reshape(-1, 2).min(axis=0) - _ZONE_MARGIN
    x1, y1 = zone_mm.reshape(-1, 2).max(axis=0) + _ZONE_MARGIN
    # view pixels -> table millimetres (y away from the camera, so up in the view)
    to_mm = np.array([[1 / _TABLE_PPM, 0, x0], [0, -1 / _TABLE_PPM, y1], [0, 0, 1]])
    to_image = table.homography @ to_mm
    size = (int((x1 - x0) * _TABLE_PPM), int((y1 - y0) * _TABLE_PPM))
    view = cv2.warpPerspective(frame, to_image, size,
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT)
    return view, to_image


def _find_faces(view: np.ndarray, frame: np.ndarray, to_image: np.ndarray, *,
                size: tuple[float, float] | None) -> list[_Face]:
    """Card faces in `view`: regions closed by edges whose outline is a card's rectangle (of
    `size` pixels when it is known), seen squarely from `frame`.

    What lies between the edges is eroded first, which cuts a card's face from the table
    where its outline has a short gap. On a calibrated table, cards whose outline has a long
    gap (a blue card on a blue mat) are then looked for from their camel marks."""
    edges = _edges(view)
    free = cv2.erode((edges == 0).astype(np.uint8), np.ones((_CUT, _CUT), np.uint8))
    if size is not None:
        card_area = size[0] * size[1]
        least, most = 0.3 * card_area, 1.1 * card_area
    else:
        least, most = 600, 0.5 * view.shape[0] * view.shape[1]
    count, labels, stats, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
    quads = []
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        cut_off = x == 0 or y == 0 or x + w == free.shape[1] or y + h == free.shape[0]
        if not least <= area <= most or cut_off:
            continue  # not a card's size, or cut by the edge of the view
        mask = (labels[y:y + h, x:x + w] == k).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(contours, key=cv2.contourArea)) + np.array([x, y])
        quad = _quadrilateral(hull)
        if quad is not None:
            fit = _card_fit(quad, hull, size)
            if fit > 0.0:
                quads.append((_grown(quad, _INSET), fit))
    if size is not None:
        quads += _quads_from_marks(view, edges, size)
    faces = []
    for quad, fit in quads:
        corners = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), to_image).reshape(-1, 2)
        faces.append(_Face(corners, _squarely(frame, corners), fit))
    return faces


def _quads_from_marks(view: np.ndarray, edges: np.ndarray, size: tuple[float, float]
                      ) -> list[tuple[np.ndarray, float]]:
    """Cards placed from their camel marks on the table seen from above (`size` pixels): one
    mark in a card's middle, or two a card's mark spacing apart along it, and the card's
    outline turned and moved a little to where its edges bear it out best. A card found as a
    region too is read where it is read surest (`CardReader.read`): on a pile, a region may
    take in part of the card below."""
    ppm = size[0] / CARD_MM[0]
    dark = _dark(view, MARK_MM[1] * ppm)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    marks = []
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        centre = np.array([x + w / 2, y + h / 2])
        if not 0.4 <= area / (MARK_MM[0] * MARK_MM[1] * ppm ** 2) <= 0.9 or \
                max(w, h) > 1.4 * MARK_MM[0] * ppm:
            continue
        points = np.column_stack(np.nonzero(labels[y:y + h, x:x + w] == k)[::-1])
        (_, _), (rw, rh), turn = cv2.minAreaRect(points.astype(np.float32))
        # a mark is wider across the card than along it
        marks.append((centre, turn if rw >= rh else turn + 90))
    spacing = (MARK_SPOTS[2][1] - MARK_SPOTS[2][0]) * ppm
    # two marks a +2's spacing apart, each turned across the line between them, place a card
    # by themselves (a white card on a pale mat shows no edge at all); one mark needs edges
    guesses = []
    for i, (a, a_turn) in enumerate(marks):
        for b, b_turn in marks[i + 1:]:
            if abs(np.linalg.norm(b - a) - spacing) < 0.15 * spacing:
                across = float(np.degrees(np.arctan2(*(b - a)[::-1]))) - 90
                alone = _MARKS_ALONE if max(_turned(across, a_turn),
                                            _turned(across, b_turn)) < 20 else 0.0
                guesses.append(((a + b) / 2, across, alone))
    guesses += [(centre, turn, 0.0) for centre, turn in marks]
    near = cv2.dilate(edges, np.ones((5, 5), np.uint8)) > 0
    turns, dx, dy = (v.ravel() for v in np.meshgrid(np.radians(np.arange(-8, 9, 2)),
                                                     (-3, 0, 3), (-3, 0, 3)))
    as_placed = int(np.flatnonzero((turns == 0) & (dx == 0) & (dy == 0))[0])
    quads = []
    for centre, turn, alone in guesses:
        tries = _rectangles(centre + np.column_stack([dx, dy]), size,
                            np.radians(turn) + turns)
        sides = _side_support(tries, near)
        # every side mostly seen, or two sides meeting at a corner seen all along (a card
        # lit from one side shows no edge on the other against a mat of its colour), or
        # both its ends (the top card of a pile on a card of its colour shows no edge over
        # it; its ends, a card's length apart round its marks, place it still: a +2 whose
        # one mark is hidden, placed round the other, has its ends elsewhere)
        corner = np.minimum(sides, np.roll(sides, -1, axis=1)).max(axis=1)
        ends = np.minimum(sides[:, 0], sides[:, 2])
        support = np.maximum(sides.min(axis=1), np.maximum(corner, ends) - 0.15)
        best = int(np.argmax(support))
        fit = float(np.clip((support[best] - 0.45) / 0.25, 0.0, 1.0))
        if fit >= alone and fit > 0.0:
            quads.append((tries[best], fit))
        elif alone > 0.0:
            quads.append((tries[as_placed], alone))
    return quads


def _turned(a: float, b: float) -> float:
    """How far apart two directions are, in degrees (0 to 90: a line has no way round)."""
    off = abs(a - b) % 180
    return min(off, 180 - off)


def _rectangles(centres: np.ndarray, size: tuple[float, float], angles: np.ndarray
                ) -> np.ndarray:
    """Rectangles' corners (N x 4 x 2), clockwise from an end of a short side: `size`
    (across, along) turned by `angles` (radians) about `centres` (N x 2)."""
    c, s = np.cos(angles)[:, None], np.sin(angles)[:, None]
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * np.array(size) / 2
    x = half[None, :, 0] * c - half[None, :, 1] * s
    y = half[None, :, 0] * s + half[None, :, 1] * c
    return centres[:, None, :] + np.stack([x, y], axis=-1)


def _side_support(quads: np.ndarray, near: np.ndarray) -> np.ndarray:
    """For each of `quads` (N x 4 x 2) and each of its sides, the share of points on the side
    lying by an edge (`near`); 0 for a quad not wholly in view (N x 4)."""
    height, width = near.shape
    t = np.linspace(0.08, 0.92, 24)[None, None, :, None]
    ends = np.roll(quads, -1, axis=1)
    points = np.round(quads[:, :, None] + (ends - quads)[:, :, None] * t).astype(int)
    inside = ((points[..., 0] >= 0) & (points[..., 0] < width) & (points[..., 1] >= 0)
              & (points[..., 1] < height))
    seen = near[np.clip(points[..., 1], 0, height - 1), np.clip(points[..., 0], 0, width - 1)]
    shares = seen.mean(axis=2)
    return np.where(inside.all(axis=(1, 2))[:, None], shares, 0.0)


def _edges(image: np.ndarray) -> np.ndarray:
    """Edges of brightness, and of colour where brightness alone does not tell a card from
    the table (a card's colour is blurred harder: JPEG keeps colour at half size)."""
    lightness, a, b = cv2.split(cv2.cvtColor(image, cv2.COLOR_BGR2Lab))
    edges = cv2.Canny(cv2.GaussianBlur(lightness, (5, 5), 0), _EDGE_LOW, _EDGE_HIGH)
    for channel in (a, b):
        edges |= cv2.Canny(cv2.GaussianBlur(channel, (7, 7), 0), _CHROMA_LOW, _CHROMA_HIGH)
    return edges


def _quadrilateral(hull: np.ndarray) -> np.ndarray | None:
    """The hull's four corners, clockwise, starting at an end of a short side; None when the
    hull is not near a quadrilateral."""
    perimeter = cv2.arcLength(hull, True)
    for share in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(approx) == 4:
            break
    else:
        return None
    quad = approx.reshape(4, 2).astype(np.float64)
    centre = quad.mean(axis=0)
    quad = quad[np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))]
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        quad = np.roll(quad, -1, axis=0)
    return quad


def _card_fit(quad: np.ndarray, hull: np.ndarray, size: tuple[float, float] | None) -> float:
    """How much the region looks like a card's face, 0..1: its hull fills its quadrilateral,
    and the quadrilateral, _INSET pixels inside the card's edge, has a card's size (when
    known) or shape."""
    area = cv2.contourArea(quad.astype(np.float32))
    if area <= 0:
        return 0.0
    fill = cv2.contourArea(hull) / area
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    short, long = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if size is not None:
        off = max(abs(short + 2 * _INSET - size[0]) / size[0],
                  abs(long + 2 * _INSET - size[1]) / size[1])
        shape = 1.0 - max(0.0, off - 0.05) / 0.1
        # a rectangle seen from above: opposite sides equal
        skew = max(abs(sides[0] - sides[2]) / short, abs(sides[1] - sides[3]) / long)
        shape = min(shape, 1.0 - max(0.0, skew - 0.06) / 0.1)
    else:
        ratio = long / max(short, 1e-9) / (CARD_MM[1] / CARD_MM[0])
        # a perspective seen at an unknown angle stretches a card by up to a quarter or so;
        # its marks, measured on the face seen squarely, tell a card from other rectangles
        shape = 1.0 - max(0.0, abs(np.log(ratio)) - 0.25) / 0.15
    return float(max(0.0, min(1.0, shape, 1.0 - max(0.0, 0.96 - fill) / 0.06)))


def _grown(quad: np.ndarray, pixels: float) -> np.ndarray:
    """`quad` moved out by `pixels` on every side (near enough: along its corners' diagonals)."""
    centre = quad.mean(axis=0)
    out = quad - centre
    lengths = np.linalg.norm(out, axis=1, keepdims=True)
    return centre + out * (1 + pixels * np.sqrt(2) / np.maximum(lengths, 1e-9))


def _squarely(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card's face, short side across, as if seen from straight above."""
    width, length = (round(v * _CARD_PPM) for v in CARD_MM)
    target = np.array([[0, 0], [width, 0], [width, length], [0, length]], np.float32)
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    return cv2.warpPerspective(frame, warp, (width, length), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def _dark(image: np.ndarray, mark_side: float) -> np.ndarray:
    """What is darker than _MARK_DARKNESS of the light round it (a mask), marks `mark_side`
    pixels across at the narrowest being closed over to measure that light. Closed, not
    spread: a white card's light must not reach over a blue card beside it and make the blue
    card dark, joining its marks to a dark mat."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    closed = (round(mark_side) + 4) | 1
    lit = np.maximum(cv2.blur(cv2.morphologyEx(gray, cv2.MORPH_CLOSE,
                                               np.ones((closed, closed), np.uint8)),
                              (5, 5)), 1.0)
    dark = (gray < _MARK_DARKNESS * lit).astype(np.uint8)
    return cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _marks(card: np.ndarray) -> np.ndarray:
    """The dark marks on a card's face seen squarely, away from its edge (a mask)."""
    inset = round(3 * _CARD_PPM)
    return _dark(card[inset:-inset, inset:-inset], MARK_MM[1] * _CARD_PPM)


def _count_marks(card: np.ndarray) -> tuple[int | None, float]:
    """The card's value from its camel marks, and how sure that is: each mark must be a
    camel's size and lie where the value's marks lie, and nothing else dark may be there.
    (None, 0) when no mark at all is seen."""
    dark = _marks(card)
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    inset = 3 * _CARD_PPM
    length = CARD_MM[1] * _CARD_PPM
    mark_w, mark_h = (v * _CARD_PPM for v in MARK_MM)
    marks, stray = [], 0.0
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        size = min(1.0 - abs(np.log(w / mark_w)) / 0.35, 1.0 - abs(np.log(h / mark_h)) / 0.35,
                   1.0 - max(0.0, abs(area / (w * h) - 0.55) - 0.2) / 0.15)
        if size > 0.0:
            marks.append((x + w / 2 + inset, y + h / 2 + inset, size))
        else:
            stray = max(stray, area / (mark_w * mark_h))
    if not marks:
        return None, 0.0
    if len(marks) not in MARK_SPOTS:
        return None, 0.01
    value = len(marks)
    spots = sorted(length / 2 + s * _CARD_PPM for s in MARK_SPOTS[value])
    ys = sorted(y for _, y, _ in marks)
    off = max(*(abs(y - s) for y, s in zip(ys, spots, strict=True)),
              *(abs(x - CARD_MM[0] * _CARD_PPM / 2) for x, _, _ in marks))
    place = 1.0 - max(0.0, off / _CARD_PPM - 3.0) / 5.0
    sure = min(place, *(s for _, _, s in marks), 1.0 - max(0.0, stray - 0.05) / 0.2)
    return value, float(max(0.01, sure))


def _face_colours(card: np.ndarray) -> list[tuple[float, float, float]]:
    """The median colour of the card's face away from its edge and its marks: over the whole
    face first, then over each sixth of it (a lamp's glare or a shadow shows as sixths of
    unlike colours)."""
    dark = _marks(card)
    inset = round(3 * _CARD_PPM)
    inner = card[inset:-inset, inset:-inset]
    bare = cv2.dilate(dark, np.ones((5, 5), np.uint8)) == 0
    height, width = bare.shape
    parts = [(slice(0, height), slice(0, width))]
    parts += [(slice(height * i // 3, height * (i + 1) // 3), slice(width * j // 2,
                                                                   width * (j + 1) // 2))
              for i in range(3) for j in range(2)]
    colours = []
    for rows, columns in parts:
        face = inner[rows, columns][bare[rows, columns]]
        if len(face) < 20:
            face = inner[rows, columns].reshape(-1, 3)
        # glare only adds light, and turns a colour towards white: the darker half holds it
        lit = face.sum(axis=1, dtype=np.int32)
        colours.append(as_bgr(np.median(face[lit <= np.median(lit)], axis=0)))
    return colours


def learn_card_colours(frame: np.ndarray, *, table: TableCalibration | None = None,
                       camels: Sequence[str] = tuple(CAMEL_COLOURS.references)) -> DiceColours:
    """Each camel's card colour under this light, from one frame showing one card of each
    camel face up, apart: the cards found are matched to the camels, each once, so that their
    colours lie nearest the nominal ones overall. Two cards of one camel, and none of another,
    would teach that camel the other's colour: colours too alike to tell apart are refused.
    Refused, `DiceNotFound` holds where each card was found and the camel it was taken for."""
    from vision.calibrate import DiceNotFound, Place, cheapest_assignment

    reader = CardReader(table=table, threshold=0.0)
    found = [(r.box, r.bgr) for r in reader.read(frame) if r.bgr is not None
             and r.value is not None]
    seen = [bgr for _, bgr in found]
    nominal = colour_feature(np.array([CAMEL_COLOURS.references[c] for c in camels]))
    measured = colour_feature(np.array(seen, np.float64).reshape(-1, 3))
    if len(seen) < len(camels):
        # the cards found matched to the nearest camels, each once
        taken = cheapest_assignment(colour_distance(measured[:, None], nominal[None]))
        raise DiceNotFound(f"found {len(seen)} racing cards, need one of each of the "
                           f"{len(camels)} camels ({', '.join(camels)}): lay them face up "
                           "in view, apart, and try again",
                           [Place(box, camels[k], True)
                            for (box, _), k in zip(found, taken, strict=True)],
                           [c for k, c in enumerate(camels) if k not in taken])
    assignment = cheapest_assignment(colour_distance(nominal[:, None], measured[None]))
    chosen = measured[assignment]
    apart = colour_distance(chosen[:, None], chosen[None]) + np.eye(len(camels)) * _ALIKE
    alike = [c for c, row in zip(camels, apart, strict=True) if row.min() < _ALIKE]
    if alike:
        raise DiceNotFound(f"the {' and '.join(alike)} cards look alike: lay one card of "
                           "each camel face up in view, apart, and try again",
                           [Place(found[k][0], c, c not in alike)
                            for c, k in zip(camels, assignment, strict=True)], alike)
    return DiceColours({camel: seen[k] for camel, k in zip(camels, assignment, strict=True)})
