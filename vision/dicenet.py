"""The learned stage of the dice reader: a small convolutional network that says, for every
place of an image, whether a die's top face lies centred there and which face it shows.

The network is a classifier of windows of `WINDOW` pixels holding a die of about `DIE` pixels in
their middle. It has no dense layer, so it runs over a whole image at once and answers on a grid
every `STRIDE` pixels; run on an image pyramid it finds dice of any size, and on a calibrated
table at the one scale the dice have there. Its judgement (a die or not, which face, how sure)
was learned from rendered and real photos by `training/train_dice.py`; it ships as the ONNX file
beside this module and is run by OpenCV's `dnn`, so a Pi needs nothing more than OpenCV.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

#: the network's window, in pixels: what it sees of the image round one place
WINDOW = 34
#: the side, in pixels, of a die the network reads best: a window is 1.7 dice across
DIE = 20.0
#: the network answers every STRIDE pixels of the image it is run on
STRIDE = 4
#: the smallest die looked for where the dice's size is not known, in pixels
SMALLEST_DIE = 14.0
#: the width of the largest frame searched at full size (the camera's 1280x720)
LARGEST_FRAME = 1280
#: classes: 0 is "no die's top face in the middle of this window", 1-6 a die's face
CLASSES = 7
#: the local brightness is measured over a Gaussian of this many pixels' deviation
_LOCAL = DIE * 0.6

#: how far from its surroundings (in local spreads) a pixel must stand to be worth a look
_BUSY = 1.5
#: or how far its grey level must lie from theirs, as a share of their level (and a little)
_BUSY_LEVEL = 0.3
#: or how far its colour (the colour-difference channels) must lie from theirs
_BUSY_COLOUR = 0.5

#: what stands out this near a zone's edge (a share of a die's side) is the edge's own
_EDGE = 0.2

#: the spots that vote on a die's face: those at its scale within this share of its side
_VOTE = 0.25

MODEL = Path(__file__).with_name("dicenet.onnx")
#: the second look's network: the same shape of network, twice as wide, trained on the same
#: windows; it reads a few windows of each unsure die, never a whole region
LOOK = Path(__file__).with_name("dicenet_look.onnx")


def prepare(image: np.ndarray) -> np.ndarray:
    """The network's input for a BGR image: its grey levels against their local mean and
    spread (so a dim table and a lamp's glare look alike to it), and two colour-difference
    channels (a coloured die stands out from its table): float32, channels first. The local
    measures are taken on a quarter-size copy: they change slowly, and it costs a quarter."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    centred = grey - _local_mean(grey)
    spread = np.sqrt(_local_mean(centred * centred))
    local = np.clip(centred / (spread + 8.0), -4.0, 4.0)
    b, g, r = cv2.split(image.astype(np.float32))
    return np.stack([local, (r - g) / 64.0, (b - g) / 64.0])


def _local_mean(values: np.ndarray, where: np.ndarray | None = None) -> np.ndarray:
    """The mean of `values` round each place, over a Gaussian of `_LOCAL` pixels; with a mask
    `where`, of the values where it is set alone."""
    if where is not None:
        weight = where.astype(np.float32)
        return _local_mean(values * weight) / np.maximum(_local_mean(weight), 1e-3)
    height, width = values.shape
    small = cv2.resize(values, (max(1, width // 4), max(1, height // 4)),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), _LOCAL / 4), (width, height),
                      interpolation=cv2.INTER_LINEAR)


@dataclass(frozen=True)
class Spot:
    """A place where the network saw a die: its centre and side in the image's pixels, and
    the network's probabilities of no die and of faces 1-6 there."""

    x: float
    y: float
    side: float
    probs: tuple[float, ...]

    @classmethod
    def of(cls, x: float, y: float, side: float, die: float, faces: np.ndarray) -> Spot:
        """A spot where the network is `die` sure of a die, and, if there is one, gives each
        face its share of `faces` (which sum to 1)."""
        return cls(x, y, side, (1.0 - die, *(float(f) * die for f in faces)))

    @property
    def die(self) -> float:
        """How sure the network is that a die's top face lies here."""
        return 1.0 - self.probs[0]

    @property
    def value(self) -> int:
        return int(np.argmax(self.probs[1:])) + 1

    @property
    def box(self) -> tuple[int, int, int, int]:
        half = self.side / 2
        return (round(self.x - half), round(self.y - half), round(self.x + half),
                round(self.y + half))


_IDLE: dict[str, list[cv2.dnn.Net]] = {}
_IDLE_LOCK = threading.Lock()


@contextlib.contextmanager
def _network(path: str) -> Iterator[cv2.dnn.Net]:
    """The network read from `path`, lent to one reader at a time: a Net keeps its last input
    and output, so two threads (the table's camera, a calibration) must not run one at once.
    Networks given back wait for the next reader, so there are only as many as have read at
    once (a network is about 9 MB), whichever threads read."""
    with _IDLE_LOCK:
        idle = _IDLE.setdefault(path, [])
        net = idle.pop() if idle else None
    if net is None:
        net = cv2.dnn.readNetFromONNX(path)
    try:
        yield net
    finally:
        with _IDLE_LOCK:
            _IDLE[path].append(net)


def probabilities(inputs: np.ndarray, *, model: Path = MODEL) -> np.ndarray:
    """The network's class probabilities over `inputs` (prepared, at least a window wide):
    an array (CLASSES, rows, columns) whose cell (r, c) answers for the window whose top left
    corner is (STRIDE * c, STRIDE * r)."""
    with _network(str(model)) as net:
        net.setInput(np.ascontiguousarray(inputs)[None])
        return _softmax(net.forward()[0], axis=0)


def _softmax(logits: np.ndarray, axis: int) -> np.ndarray:
    """The network's answers (logits along `axis`) as probabilities."""
    odds = np.exp(logits - logits.max(axis=axis, keepdims=True))
    return odds / odds.sum(axis=axis, keepdims=True)


def standing_out(image: np.ndarray, inputs: np.ndarray, zone: np.ndarray | None = None
                 ) -> np.ndarray:
    """Where `image` (BGR; `inputs`, the network's input prepared from it) stands out from
    its surroundings: in brightness against their spread (a die's pips and edges), in
    brightness against their level (in dim light a die's pips and edges stand out less than
    the spread a lit table allows its grain), or in colour. With a `zone` (a mask), only what
    stands out inside it, clear of its edge, and against surroundings inside it too: the
    zone's own edge (a mat's border, a tray's rim) stands out all along it."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    level = _local_mean(grey, zone)
    busy = (np.abs(inputs[0]) > _BUSY) | (np.abs(grey - level) > _BUSY_LEVEL * (level + 16.0))
    for colour in inputs[1:]:
        busy |= np.abs(colour - _local_mean(colour, zone)) > _BUSY_COLOUR
    if zone is not None:
        edge = round(_EDGE * DIE)
        busy &= cv2.erode(zone.astype(np.uint8), np.ones((2 * edge + 1, 2 * edge + 1),
                                                         np.uint8)).astype(bool)
    return busy


def busy_regions(busy: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of an image that hold everything set in its mask `busy` (what
    stands out, `standing_out`), with a window's reach round it: the network need look
    nowhere else (a die always stands out, a bare mat never does). The whole image when most
    of it is busy (a hand, a grained table)."""
    height, width = busy.shape
    small = cv2.resize(busy.astype(np.float32), (max(1, width // STRIDE), max(1, height // STRIDE)),
                       interpolation=cv2.INTER_AREA) > 0
    reach = WINDOW // (2 * STRIDE) + 1
    grown = cv2.dilate(small.astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
    if grown.mean() > 0.5:
        return [(0, 0, width, height)]
    count, _, stats, _ = cv2.connectedComponentsWithStats(grown)
    boxes = []
    for x, y, w, h, _ in stats[1:count]:
        x0, y0 = max(0, x * STRIDE - STRIDE), max(0, y * STRIDE - STRIDE)
        x1, y1 = min(width, (x + w + 1) * STRIDE), min(height, (y + h + 1) * STRIDE)
        if x1 - x0 < WINDOW:
            x0, x1 = max(0, min(x0, width - WINDOW)), min(width, max(x1, x0 + WINDOW))
        if y1 - y0 < WINDOW:
            y0, y1 = max(0, min(y0, height - WINDOW)), min(height, max(y1, y0 + WINDOW))
        boxes.append((x0, y0, x1, y1))
    return boxes


def spots(image: np.ndarray, scale: float, *, least: float = 0.5, model: Path = MODEL,
          zone: np.ndarray | None = None) -> list[Spot]:
    """The places where the network, run on `image` resized by `scale`, sees a die at least
    `least` surely, in `image`'s pixels; a die of `DIE / scale` pixels is what it looks for.
    It is run only where something stands out (busy_regions), and with a `zone` (a polygon in
    `image`'s pixels) only round what stands out inside it."""
    height, width = image.shape[:2]
    size = (max(WINDOW, round(width * scale)), max(WINDOW, round(height * scale)))
    scaled = _scaled(image, size, scale)
    inputs = prepare(scaled)
    centre = (WINDOW - 1) / 2
    sx, sy = width / size[0], height / size[1]
    busy = standing_out(scaled, inputs, None if zone is None
                        else _inside(zone / (sx, sy), inputs.shape[1:]))
    found = []
    for x0, y0, x1, y1 in busy_regions(busy):
        probs = probabilities(inputs[:, y0:y1, x0:x1], model=model)
        rows, cols = np.nonzero(probs[0] <= 1.0 - least)
        found += [Spot((x0 + STRIDE * c + centre) * sx, (y0 + STRIDE * r + centre) * sy,
                       DIE * sx, tuple(float(p) for p in probs[:, r, c]))
                  for r, c in zip(rows, cols, strict=True)]
    return found


def spots_at(image: np.ndarray, scales: list[float], *, least: float = 0.5,
             model: Path = MODEL, zone: np.ndarray | None = None) -> list[Spot]:
    """The places where the network sees a die at least `least` surely, at each of
    `scales` (spots), together."""
    return [spot for scale in scales
            for spot in spots(image, scale, least=least, model=model, zone=zone)]


def die_near(image: np.ndarray, x: float, y: float, side: float, *,
             model: Path = MODEL) -> float:
    """How sure the network is that a die of `side` pixels has its top face's middle within
    a third of a side of (x, y) in `image`: the surest of its answers there (0 where nothing
    stands out)."""
    x0, y0 = max(0, round(x - 2 * side)), max(0, round(y - 2 * side))
    crop = image[y0:max(0, round(y + 2 * side)), x0:max(0, round(x + 2 * side))]
    if min(crop.shape[:2]) < side:
        return 0.0
    near = [s.die for s in spots(crop, DIE / side, least=0.0, model=model)
            if abs(s.x + x0 - x) <= side / 3 and abs(s.y + y0 - y) <= side / 3]
    return max(near, default=0.0)


def _inside(zone: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A mask of `shape` set inside the polygon `zone` (in its pixels)."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(zone).astype(np.int32).reshape(-1, 1, 2)], 1)
    return mask.astype(bool)


def search_scales(shape: tuple[int, ...]) -> list[float]:
    """The scales a frame whose dice's size is not known is searched at: dice from
    SMALLEST_DIE pixels to a third of the frame (a photo larger than the camera's largest
    frame, LARGEST_FRAME wide, is searched as if at that size)."""
    height, width = shape[:2]
    shortest = SMALLEST_DIE * max(1.0, max(height, width) / LARGEST_FRAME)
    return pyramid(shortest, min(height, width) / 3)


def pyramid(shortest: float, longest: float, step: float = 1.25) -> list[float]:
    """The scales to run the network at so that dice from `shortest` to `longest` pixels are
    each seen within a `step` of `DIE`."""
    scales = []
    side = shortest
    while side <= longest * step:
        scales.append(DIE / side)
        side *= step
    return scales


def merge(found: list[Spot], *, apart: float = 0.7) -> list[Spot]:
    """One spot per die: dice lying flat side by side have top faces at least a side apart
    (about 0.7 of one seen at an angle), so of spots nearer than `apart` of the larger one's
    side the surest stands, and a die's side face, which the network may also half take for
    a top, falls. Its face is voted by the spots at its scale right round it, each weighted
    by how sure it is that a die is there (a window a little off the die's middle still sees
    its face); how sure it is of a die is its own."""
    kept: list[Spot] = []
    for spot in sorted(found, key=lambda s: -s.die):
        if any(math.hypot(spot.x - k.x, spot.y - k.y) < apart * max(spot.side, k.side)
               for k in kept):
            continue
        kept.append(spot)
    merged = []
    for k in kept:
        near = [s for s in found if abs(s.x - k.x) < _VOTE * k.side
                and abs(s.y - k.y) < _VOTE * k.side and s.side == k.side]
        weights = np.array([s.die for s in near])
        faces = np.array([s.probs[1:] for s in near])
        faces = np.average(faces / faces.sum(axis=1, keepdims=True), axis=0, weights=weights)
        x = float(np.average([s.x for s in near], weights=weights))
        y = float(np.average([s.y for s in near], weights=weights))
        side = float(np.exp(np.average(np.log([s.side for s in near]), weights=weights)))
        merged.append(Spot.of(x, y, side, k.die, faces))
    return merged


#: a die whose face the network is at least this sure of at first needs no second look
_SURE = 0.9


def _turned(window: np.ndarray) -> list[np.ndarray]:
    """A window (channels, WINDOW, WINDOW) in its eight orientations: the four quarter turns,
    each also mirrored."""
    views = []
    for quarter in range(4):
        view = np.rot90(window, quarter, axes=(1, 2))
        views += [view, view[:, :, ::-1]]
    return views


def second_look(image: np.ndarray, found: list[Spot], *, model: Path = LOOK) -> list[Spot]:
    """`found` (one spot per die, in `image`'s pixels) after a look again at each die whose
    face the network was not sure of (below `_SURE` at first), by a wider network (`LOOK`:
    it reads a few windows, not a whole region): centred on the die, in eight orientations
    (turned by quarter turns and mirrored). A die's face does not change as it turns, so the
    eight answers are averaged, and a wrong answer given one way up is outvoted by the
    others. How sure it is of a die is the mean of the eight and the first look; which face,
    the eight's alone. All the views go through the network as one batch."""
    again_at = [i for i, spot in enumerate(found) if max(spot.probs[1:]) < _SURE]
    if not again_at:
        return found
    views = np.stack([view for i in again_at for view in _turned(_centred(image, found[i]))])
    probs = _batch(views, model=model).reshape(len(again_at), 8, CLASSES).mean(axis=1)
    looked = list(found)
    for i, again in zip(again_at, probs, strict=True):
        spot = found[i]
        die = (spot.die + 1.0 - float(again[0])) / 2
        faces = again[1:] / again[1:].sum()
        looked[i] = Spot.of(spot.x, spot.y, spot.side, die, faces)
    return looked


def _batch(windows: np.ndarray, *, model: Path = MODEL) -> np.ndarray:
    """The network's class probabilities for each of `windows` (N, channels, WINDOW, WINDOW),
    run as one batch: (N, CLASSES)."""
    with _network(str(model)) as net:
        net.setInput(np.ascontiguousarray(windows, np.float32))
        return _softmax(net.forward()[:, :, 0, 0], axis=1)


def _centred(image: np.ndarray, spot: Spot) -> np.ndarray:
    """The network's input for the window centred on `spot`, at the scale its die is read
    at: prepared from three windows' breadth round it, as the window would be within a whole
    image (its local mean and spread reach that far); beyond the image's edge, its mirror."""
    scale = DIE / spot.side
    side = max(3, round(3 * WINDOW / scale))
    x0, y0 = round(spot.x - side / 2), round(spot.y - side / 2)
    crop = image[max(0, y0):max(0, y0 + side), max(0, x0):max(0, x0 + side)]
    if crop.shape[:2] != (side, side):
        top, left = max(0, -y0), max(0, -x0)
        crop = cv2.copyMakeBorder(crop, top, side - top - crop.shape[0], left,
                                  side - left - crop.shape[1], cv2.BORDER_REFLECT)
    scene = _scaled(crop, (3 * WINDOW, 3 * WINDOW), scale)
    return prepare(scene)[:, WINDOW:2 * WINDOW, WINDOW:2 * WINDOW]


def _scaled(image: np.ndarray, size: tuple[int, int], scale: float) -> np.ndarray:
    """`image` resized to `size` (about `scale` times its own): averaged over the pixels
    that fall into each when shrinking, interpolated when growing."""
    return cv2.resize(image, size,
                      interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
