"""A renderer of Camel Up table frames as the camera sees them, with the truth for every frame.

The table is a plane in millimetres (x to the right, y away from the camera, z up) holding the
four ArUco markers, the board (track, camels, pyramid), and the roll zone where dice land. The
camera is a pinhole looking down at it at an angle. Dice are cubes drawn face by face with their
pips, shaded by one light, casting shadows; hands pass over; the frame then gets motion blur,
sensor noise and JPEG artefacts. Everything comes from one seed, so a frame can be drawn again.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import Field, dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

import cv2
import numpy as np

from vision.aruco import marker_image
from vision.colours import as_bgr
from vision.dicesets import BLACK, DiceSet, DieSpec, dice_set
from vision.markers import MARKER_IDS
from vision.spec import PIP_CELLS, PIP_OFFSET, PIP_RADIUS
from vision.table import BoardLayout, TableLayout

if TYPE_CHECKING:
    from vision.synth_colour_dice import FaceTruth

LIGHTS = ("neutral", "warm", "cool", "dim", "uneven", "glare")
SUPERSAMPLE = 2
"""Times its size each way a frame is drawn at, then shrunk, for smooth edges (a caller may
ask for 1: drawn at its size, in a quarter of the memory)."""
_GRAIN_ROWS = 64
"""Rows of a frame whose sensor grain is drawn at once."""
_BAND_ROWS = 120
"""Rows of bare table (where nothing is drawn) a frame takes at once (`render`)."""


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: position in table millimetres, the point it looks at, focal length
    and image size in pixels."""

    position: tuple[float, float, float] = (120.0, -70.0, 330.0)
    target: tuple[float, float, float] = (120.0, 88.0, 0.0)
    focal: float = 570.0
    size: tuple[int, int] = (640, 480)
    origin: tuple[float, float] = (0.0, 0.0)
    """Where the part of the image drawn starts (pixels of `size`): a band of rows drawn on
    its own (`render`) is seen by the camera with its top here, the rest as the whole's."""

    def matrices(self, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """K (intrinsics), R (table to camera rotation) and t, for an image `scale` times the
        camera's size, seen from `origin`: worked out once for each (read only), as a frame
        projects hundreds of faces through the same few."""
        return _matrices(self, scale)

    def project(self, points: np.ndarray, scale: float = 1.0) -> np.ndarray:
        """Image positions (N x 2) of table points (N x 3)."""
        k, r, t = self.matrices(scale)
        cam = points @ r.T + t
        uv = cam @ k.T
        return uv[:, :2] / uv[:, 2:3]

    def homography(self, scale: float = 1.0) -> np.ndarray:
        """The table plane (z = 0, millimetres) to image pixels."""
        k, r, t = self.matrices(scale)
        return k @ np.column_stack([r[:, 0], r[:, 1], t])


@functools.lru_cache(maxsize=256)
def _matrices(camera: Camera, scale: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c = np.array(camera.position, np.float64)
    forward = np.array(camera.target, np.float64) - c
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, (0.0, 0.0, 1.0))
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    r = np.stack([right, down, forward])
    w, h = camera.size
    ox, oy = camera.origin
    k = np.array([[camera.focal * scale, 0, (w / 2 - ox) * scale],
                  [0, camera.focal * scale, (h / 2 - oy) * scale], [0, 0, 1]])
    matrices = k, r, -r @ c
    for matrix in matrices:
        matrix.setflags(write=False)
    return matrices


@dataclass(frozen=True)
class Light:
    """One light: its name, colour (B, G, R gains), strength, direction (towards the light),
    how unevenly it falls across the table, and a lamp's glare (position in mm, strength)."""

    name: str
    colour: tuple[float, float, float]
    strength: float
    direction: tuple[float, float, float]
    uneven: float = 0.0
    glare: tuple[float, float, float] | None = None


class Pose(Protocol):
    """A die that `render` draws: where it lies, the face on top, how to draw itself and what
    it truly shows. A frozen dataclass (DiePose, vision.synth_colour_dice's ColourDiePose), so
    a tumbling die is its pose `replace`d."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def x(self) -> float: ...

    @property
    def y(self) -> float: ...

    @property
    def yaw(self) -> float: ...

    @property
    def top(self) -> int: ...

    def draw(self, image: np.ndarray, camera: Camera, light: Light, *, size: float, s: int,
             alpha: float = 1.0) -> None: ...

    def truth(self, box: tuple[int, int, int, int], visible: bool) -> DieTruth | FaceTruth: ...


#: a die of one kind: what a throw or a scatter gives back is the kind it was given
_PoseT = TypeVar("_PoseT", bound=Pose)
#: what a scattered die is made from (DieSpec; a ColourDiceSet for colour dice)
_SpecT = TypeVar("_SpecT")
_WhatT = TypeVar("_WhatT")
_EventT = TypeVar("_EventT")


@dataclass(frozen=True)
class DiceLook:
    """How the dice are made: the game's own by default, or another maker's, as another
    renderer would draw them: bodies of other shades (`bodies`, colour name to BGR, for the
    colours that differ), pips spaced and sized otherwise (shares of a face's side) and of
    other colours."""

    bodies: tuple[tuple[str, tuple[int, int, int]], ...] = ()
    pip_offset: float = PIP_OFFSET
    pip_radius: float = PIP_RADIUS
    black_pips: tuple[int, int, int] = (28, 28, 30)
    white_pips: tuple[int, int, int] = (238, 238, 236)

    def body(self, spec: DieSpec) -> tuple[int, int, int]:
        return dict(self.bodies).get(spec.colour, spec.body_bgr)


#: the dice as the game makes them
GAME_DICE = DiceLook()


def other_shades(rng: np.random.Generator, colours: Sequence[tuple[str, tuple[int, int, int]]]
                 ) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    """`colours` (name, BGR) as another maker paints them, at random: each one's saturation
    and brightness up to 20 % and 15 % off, its hue turned up to 15 degrees but no more than
    a third of the way to the nearest other colour's (a maker's orange stays redder than its
    yellow); a grey stays grey."""
    hsv = cv2.cvtColor(np.array([[bgr for _, bgr in colours]], np.uint8),
                       cv2.COLOR_BGR2HSV)[0].astype(float)
    hue, coloured = hsv[:, 0], hsv[:, 1] > 60   # OpenCV's hue: 0-180 for 0-360 degrees
    shaded = []
    for k, (name, _) in enumerate(colours):
        apart = np.abs((hue - hue[k] + 90) % 180 - 90)[coloured & (np.arange(len(hue)) != k)]
        turn = min(7.5, float(apart.min(initial=180.0)) / 3)
        h, sat, val = ((hue[k] + rng.uniform(-turn, turn)) % 180,
                       hsv[k, 1] * rng.uniform(0.8, 1.2), hsv[k, 2] * rng.uniform(0.85, 1.15))
        turned = np.clip(np.round([h, sat, val]), 0, 255).astype(np.uint8)[None, None]
        b, g, r = (int(c) for c in cv2.cvtColor(turned, cv2.COLOR_HSV2BGR)[0, 0])
        shaded.append((name, (b, g, r)))
    return tuple(shaded)


def other_dice(rng: np.random.Generator, game: str) -> DiceLook:
    """Dice of `game` unlike the game's own, at random: bodies of other shades
    (`other_shades`), pips spaced 0.22-0.30 and sized 0.065-0.115 of a side (the range of
    real dice), black pips up to 60 levels grey, white ones down to 200."""
    bodies = other_shades(rng, [(d.colour, d.body_bgr) for d in dice_set(game).dice])
    black, white = int(rng.uniform(0, 60)), int(rng.uniform(200, 255))
    return DiceLook(bodies, rng.uniform(0.22, 0.30), rng.uniform(0.065, 0.115),
                    (black, black, black), (white, white, white))


@dataclass(frozen=True)
class DiePose:
    """A die on the table: which die, its centre (mm), turn about the vertical (radians), the
    face on top (an index into its faces), how that face's pattern is turned (0-3), and how
    the die is made."""

    spec: DieSpec
    x: float
    y: float
    yaw: float
    top: int
    spin: int = 0
    look: DiceLook = GAME_DICE

    @property
    def value(self) -> int:
        return self.spec.faces[self.top][0]

    @property
    def numeral(self) -> str | None:
        return self.spec.faces[self.top][1] if self.spec.has_numerals else None

    def draw(self, image: np.ndarray, camera: Camera, light: Light, *, size: float, s: int,
             alpha: float = 1.0) -> None:
        """Draw this die; `render` draws any pose that can draw itself and say its truth
        (vision.synth_colour_dice's dice too)."""
        _draw_die(image, camera, light, self, size=size, s=s, alpha=alpha)

    def truth(self, box: tuple[int, int, int, int], visible: bool) -> DieTruth:
        return DieTruth(self.spec.colour, self.value, box, self.numeral, visible)


@dataclass(frozen=True)
class DieTruth:
    """What the frame really shows of one die."""

    colour: str
    value: int
    box: tuple[int, int, int, int]
    numeral: str | None
    visible: bool


@dataclass(frozen=True)
class Hand:
    """A hand over the table: where its palm is (image fraction), which way the arm comes
    from (radians), its size (fraction of the image width) and skin colour (BGR)."""

    x: float
    y: float
    angle: float
    size: float
    skin: tuple[int, int, int]


@dataclass(frozen=True)
class RenderedFrame:
    """A rendered frame (BGR) with its truth."""

    image: np.ndarray
    dice: tuple[DieTruth | FaceTruth, ...]
    light: str
    camera: Camera
    layout: TableLayout
    hands: int = 0


@dataclass
class Table:
    """A table's look: everything about the scene that stays put between frames."""

    game: str
    layout: TableLayout
    camera: Camera
    seed: int
    camels: list[CamelPose] = field(default_factory=list)
    board: BoardLayout | None = None
    dice_look: DiceLook = GAME_DICE
    _texture: np.ndarray | bytes | None = None
    _texture_origin: tuple[float, float, float] = (0.0, 0.0, 1.0)
    _lit: dict[tuple[Light, int], tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    _dressed: dict[Any, Table] = field(default_factory=dict)
    """The last table dressed from this one with cards (`vision.synth_cards.dressed_table`),
    kept while the same cards lie in the same light."""

    @property
    def dice(self) -> DiceSet:
        return dice_set(self.game)

    @property
    def texture(self) -> np.ndarray:
        """The table top (`_table_texture`), which a table kept only as drawn has let go;
        unpacked each time it is asked for where it is kept packed (`packed`)."""
        if self._texture is None:
            raise ValueError("this table was kept only as drawn (vision.synth.drawn): it "
                             "renders only under the light it was drawn under, supersampled "
                             "as usual")
        if isinstance(self._texture, bytes):
            return cv2.imdecode(np.frombuffer(self._texture, np.uint8), cv2.IMREAD_UNCHANGED)
        return self._texture

    @property
    def track(self) -> BoardLayout:
        """The board's track: the table's own, else the printed boards' round its board."""
        return self.board or BoardLayout.around(self.layout.board)


def random_table(seed: int, game: str = "camelup-2014", *, size: tuple[int, int] = (640, 480),
                 layout: TableLayout | None = None, jitter: bool = True,
                 camels: Sequence[DieSpec] | None = None,
                 dice_look: DiceLook = GAME_DICE) -> Table:
    """A table for `game` seen by a camera placed with some randomness (`jitter`), with
    `camels` on the board (default: one of each die's colour) and its dice made as
    `dice_look` says."""
    rng = np.random.default_rng(seed)
    layout = layout or TableLayout()
    base = Camera()
    scale = min(size[0] / base.size[0], size[1] / base.size[1])
    if jitter:
        px, py, pz = base.position
        tx, ty, _ = base.target
        dx = rng.uniform(-15, 15)
        camera = Camera(position=(px + dx, py + rng.uniform(-30, 20), pz + rng.uniform(-20, 30)),
                        target=(tx + dx + rng.uniform(-8, 8), ty + rng.uniform(-8, 8), 0.0),
                        focal=base.focal * scale * rng.uniform(0.96, 1.06), size=size)
    else:
        camera = replace(base, focal=base.focal * scale, size=size)
    table = Table(game, layout, camera, seed, dice_look=dice_look)
    specs = dice_set(game).dice if camels is None else camels
    spaces = [int(rng.integers(8, 14)) for _ in specs]
    if game == "camelup-2018":
        specs = (*specs, DieSpec("white", (235, 235, 232), ((1, BLACK),) * 6),
                 DieSpec("black", (40, 40, 40), ((1, BLACK),) * 6))
        spaces += [int(rng.integers(9, 15)) for _ in range(2)]
    table.camels[:] = stacked_camels(table.track, [(s.colour, s.body_bgr) for s in specs],
                                     spaces)
    table._texture, table._texture_origin = _table_texture(table, rng)
    return table


def drawn(table: Table, light: Light) -> Table:
    """`table` drawn under `light` and kept only as drawn, its texture let go: for a table
    rendered under that one light alone (one with cards painted on), half the memory."""
    lit = {(light, SUPERSAMPLE): _lit_table(table, light, SUPERSAMPLE)}
    return replace(table, _texture=None, _lit=lit)


def packed(table: Table) -> Table:
    """`table` with its top kept as PNG, the same pixels (1.1-1.3 MB rather than 7): for a
    table filmed a long while (the demo's), whose top is unpacked, 60 ms, only when it is
    drawn under a new light."""
    png = cv2.imencode(".png", table.texture, [cv2.IMWRITE_PNG_COMPRESSION, 1])[1]
    return replace(table, _texture=png.tobytes())


def random_light(rng: np.random.Generator, name: str | None = None) -> Light:
    """One of the LIGHTS (or `name`), with its own small variations."""
    name = name or LIGHTS[int(rng.integers(0, len(LIGHTS)))]
    azimuth = rng.uniform(0, 2 * math.pi)
    elevation = rng.uniform(0.9, 1.35)
    direction = (math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation),
                 math.sin(elevation))
    tint = rng.uniform(0.95, 1.05, 3)
    colour, strength, uneven, glare = (1.0, 1.0, 1.0), rng.uniform(0.9, 1.1), 0.1, None
    if name == "warm":
        colour = (0.72, 0.9, 1.1)
    elif name == "cool":
        colour = (1.12, 1.0, 0.86)
    elif name == "dim":
        strength = rng.uniform(0.45, 0.6)
    elif name == "uneven":
        uneven = rng.uniform(0.45, 0.65)
        elevation = rng.uniform(0.6, 0.9)
        direction = (math.cos(azimuth) * math.cos(elevation),
                     math.sin(azimuth) * math.cos(elevation), math.sin(elevation))
    elif name == "glare":
        glare = (rng.uniform(20, 220), rng.uniform(20, 160), rng.uniform(0.6, 1.0))
    return Light(name, as_bgr(c * t for c, t in zip(colour, tint, strict=True)),
                 float(strength), direction, uneven, glare)


def scatter_dice(rng: np.random.Generator, specs: Sequence[DieSpec], layout: TableLayout,
                 *, touching: float = 0.15, look: DiceLook = GAME_DICE) -> list[DiePose]:
    """The dice `specs`, made as `look` says, lying at random in the roll zone without
    overlapping; with chance `touching` a die is pushed against the previous one."""
    return scattered(rng, specs, layout, functools.partial(DiePose, look=look),
                     touching=touching)


def scattered(rng: np.random.Generator, specs: Sequence[_SpecT], layout: TableLayout,
              pose: Callable[[_SpecT, float, float, float, int, int], _PoseT], *,
              touching: float = 0.15) -> list[_PoseT]:
    """`scatter_dice` for dice of any kind: each `pose(spec, x, y, yaw, top, spin)`."""
    x0, y0, x1, y1 = layout.roll_zone
    s = layout.die_size
    poses: list[_PoseT] = []
    for spec in specs:
        for _ in range(200):
            if poses and rng.random() < touching:
                prev = poses[-1]
                angle = rng.uniform(0, 2 * math.pi)
                x = prev.x + math.cos(angle) * s * 1.5
                y = prev.y + math.sin(angle) * s * 1.5
            else:
                x = rng.uniform(x0 + s, x1 - s)
                y = rng.uniform(y0 + s, y1 - s)
            if not (x0 + s * 0.8 < x < x1 - s * 0.8 and y0 + s * 0.8 < y < y1 - s * 0.8):
                continue
            if all(math.hypot(x - p.x, y - p.y) > s * 1.45 for p in poses):
                break
        else:
            continue
        poses.append(pose(spec, x, y, rng.uniform(0, 2 * math.pi), int(rng.integers(0, 6)),
                          int(rng.integers(0, 4))))
    return poses


def random_hand(rng: np.random.Generator) -> Hand:
    skins = ((150, 180, 225), (120, 150, 200), (90, 120, 170), (60, 85, 130), (170, 195, 235))
    base = np.array(skins[int(rng.integers(0, len(skins)))], np.float64)
    b, g, r = (int(c) for c in np.clip(base * rng.uniform(0.9, 1.1), 0, 255))
    return Hand(rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9), rng.uniform(0, 2 * math.pi),
                rng.uniform(0.18, 0.28), (b, g, r))


def render(table: Table, dice: Sequence[Pose], light: Light, *,
           rng: np.random.Generator, hands: Sequence[Hand] = (), blur: float = 0.0,
           noise: float = 2.0, jpeg: int | None = 90,
           moving: Sequence[tuple[float, float]] = (), camels: Sequence[CamelPose] | None = None,
           props: Sequence[Prop] = (), supersample: int = SUPERSAMPLE) -> RenderedFrame:
    """One frame of `table` with `dice` lying on it under `light`, and `camels` (default: the
    table's own) and `props` (tiles, coins, the pyramid) on the board, nearest drawn last.

    `blur` is the length (pixels) of camera-shake motion blur, `noise` the sensor noise's
    standard deviation, `jpeg` the JPEG quality (None: none); `moving` gives, per die, its
    motion in mm during the exposure (blurred along it). The frame is drawn `supersample`
    times its size each way and shrunk, for smooth edges; 1 draws it at its size, in a
    quarter of the memory.
    """
    camera, layout = table.camera, table.layout
    s = supersample
    w, h = camera.size
    if (light, s) not in table._lit:
        table._lit = {}  # the last light's drawing let go before this one's is drawn
        table._lit = {(light, s): _lit_table(table, light, s)}
    lit, bare = table._lit[(light, s)]
    shadows = _shadows(table, dice, light, s)
    painted = [_hand_paint(hand, light, (w * s, h * s), s) for hand in hands]
    things: tuple[Prop | CamelPose, ...] = (*props,
                                             *(table.camels if camels is None else camels))
    things = tuple(sorted(things, key=lambda t: t.depth(camera)))
    # the frame is drawn a band of rows at a time, so that a frame's worth of floats (15 MB
    # for the dice camera, drawn at twice its size) is never held: the rows where something
    # is drawn, in floats at `s` times the size, each as one band that holds all of every
    # thing drawn there (OpenCV draws a shape cut by the band's edge a little differently);
    # the other rows are the bare table, shrunk once. Every pixel goes through what it went
    # through drawn whole.
    margin = 2 * s + 2  # edges' width and antialiasing, and a fading die's rows (`faded`)
    motions = [moving[i] if i < len(moving) else (0.0, 0.0) for i in range(len(dice))]
    reach = [thing.corners(table.track) for thing in things]
    reach += [np.vstack([corners for step, _ in _steps(pose, motion)
                         for corners, *_ in _cube_faces(step.x, step.y, step.yaw,
                                                        (layout.die_size,) * 3)])
              for pose, motion in zip(dice, motions, strict=True)]
    spans = [(math.floor(ys.min()) - margin, math.ceil(ys.max()) + margin + 1)
             for ys in (camera.project(points, s)[:, 1] for points in reach)]
    laid = [p for _, p in painted if p is not None]
    patches = [*laid, *([] if shadows is None else [shadows])]
    blurred = blur > 0.5
    image = np.empty((h, w, 3), np.float32 if blurred else np.uint8)
    for top, bottom, drawn in _bands(h, s, [*spans, *((p.y0, p.y0 + len(p.dark))
                                                      for p in patches)]):
        if drawn:
            band = lit[top * s:bottom * s].astype(np.float32)
            meets = [a < bottom * s and b > top * s for a, b in spans]
            _draw_band(band, top, table, light, s,
                       things=[t for t, m in zip(things, meets, strict=False) if m],
                       dice=[(d, motion) for d, motion, m in zip(
                           dice, motions, meets[len(things):], strict=True) if m],
                       shadows=shadows, hands=laid)
            if s > 1:
                band = cv2.resize(band, (w, bottom - top), interpolation=cv2.INTER_AREA)
        else:
            band = bare[top:bottom].astype(np.float32)
        if not blurred:
            _grain(band, rng, noise)
            np.clip(band, 0, 255, out=band)
        image[top:bottom] = band
    if blurred:
        image = _motion_blur(image, blur, rng.uniform(0, math.pi))
        _grain(image, rng, noise)
        image = np.clip(image, 0, 255, out=image).astype(np.uint8)
    if jpeg is not None:
        _, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truths = []
    covered = np.zeros((h * s, w * s), bool)
    for mask, _ in painted:
        covered |= mask
    for pose in dice:
        box = _die_box(camera, pose, layout.die_size)
        x0, y0, x1, y1 = box
        patch = covered[y0 * s:(y1 + 1) * s, x0 * s:(x1 + 1) * s]
        hidden = float(patch.mean()) if patch.size else 1.0
        inside = x0 > 0 and y0 > 0 and x1 < w - 1 and y1 < h - 1
        truths.append(pose.truth(box, bool(inside and hidden < 0.05)))
    return RenderedFrame(image, tuple(truths), light.name, camera, layout, len(hands))


def _bands(h: int, s: int, spans: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int, bool]]:
    """A frame's rows (`h`) in bands (top, bottom, whether anything is drawn there): each run
    of rows where the `spans` (rows at `s` times the size) drawn over meet is one band, the
    rest are bands of bare table `_BAND_ROWS` high."""
    runs: list[list[int]] = []
    for a, b in sorted((max(0, a // s), min(h, -(-b // s))) for a, b in spans):
        if a >= b:
            continue
        if runs and a < runs[-1][1]:
            runs[-1][1] = max(runs[-1][1], b)
        else:
            runs.append([a, b])
    row = 0
    for a, b in [*runs, [h, h]]:
        for top in range(row, a, _BAND_ROWS):
            yield top, min(a, top + _BAND_ROWS), False
        if a < b:
            yield a, b, True
        row = b


def _draw_band(band: np.ndarray, top: int, table: Table, light: Light, s: int, *,
               things: Sequence[Prop | CamelPose], dice: Sequence[tuple[Pose, tuple[float, float]]],
               shadows: _Patch | None, hands: Sequence[_Patch]) -> None:
    """Draw on `band`, the frame's rows from `top` on at `s` times its size, what lies in
    it: the dice's shadows, the `things` on the board (in order), the dice (farthest first;
    each with how far, mm, it moves during the exposure), the hands."""
    camera = table.camera
    view = replace(camera, origin=(0.0, float(top)))
    if shadows is not None:
        shadows.lay(band, top * s)
    canvas = Canvas(band, np.full(band.shape[:2], np.inf, np.float32), view, light,
                    table.track, s)
    for thing in things:
        thing.draw(canvas)
    size = table.layout.die_size
    for pose, motion in sorted(dice, key=lambda d: -_distance(camera, d[0])):
        for step, alpha in _steps(pose, motion):
            step.draw(band, view, light, size=size, s=s, alpha=alpha)
    for hand in hands:
        hand.lay(band, top * s)


def random_frame(seed: int, game: str = "camelup-2014", *, size: tuple[int, int] = (640, 480),
                 light: str | None = None, dice_count: int | None = None,
                 hands: bool | None = None) -> RenderedFrame:
    """A frame of a random table, light and roll: some of the game's dice in the roll zone
    (each at most once, as from the pyramid), perhaps a hand, blur, noise and JPEG."""
    rng = np.random.default_rng(seed)
    table = random_table(int(rng.integers(0, 2 ** 31)), game, size=size)
    return roll_frame(table, random_light(rng, light), rng, dice_count=dice_count, hands=hands)


def roll_frame(table: Table, light: Light, rng: np.random.Generator, *,
               dice_count: int | None = None, hands: bool | None = None) -> RenderedFrame:
    """A frame of `table` under `light` with some of its dice lying in the roll zone."""
    specs = list(table.dice.dice)
    count = dice_count or int(rng.integers(1, len(specs) + 1))
    chosen = [specs[i] for i in rng.permutation(len(specs))[:count]]
    poses = scatter_dice(rng, chosen, table.layout, look=table.dice_look)
    with_hands = rng.random() < 0.25 if hands is None else hands
    hand_list = [_hand_away_from(rng, table, poses)] if with_hands else []
    blur = rng.uniform(0, 2.5) if rng.random() < 0.3 else 0.0
    noise = rng.uniform(1.5, 4.0) * (1.8 if light.name == "dim" else 1.0)
    return render(table, poses, light, rng=rng, hands=hand_list, blur=blur, noise=noise,
                  jpeg=int(rng.integers(55, 96)))


def calibration_frame(table: Table, light: Light, seed: int, *,
                      leaving_out: Iterable[str] = (),
                      supersample: int = SUPERSAMPLE) -> RenderedFrame:
    """All of the game's dice laid in the roll zone, any face up, for colour calibration;
    but for the dice of the colours `leaving_out`, as a person who forgot one lays them."""
    rng = np.random.default_rng(seed)
    gone = set(leaving_out)
    poses = scatter_dice(rng, [d for d in table.dice.dice if d.colour not in gone],
                         table.layout, touching=0.0, look=table.dice_look)
    return render(table, poses, light, rng=rng, noise=2.0, jpeg=92, supersample=supersample)


@dataclass(frozen=True)
class SequenceEvent:
    """What happens at a frame of a rendered sequence: a die comes to rest ("landed") or is
    taken away ("gone")."""

    frame: int
    kind: str
    colour: str
    value: int


def roll_sequence(seed: int, game: str = "camelup-2014", *, size: tuple[int, int] = (640, 480),
                  light: str | None = None, dice: int = 3
                  ) -> tuple[list[RenderedFrame], list[SequenceEvent]]:
    """A short film of a leg at the table (`rolls_filmed`) whole: its frames, and what truly
    happened, frame by frame."""
    return gathered(rolls_filmed(seed, game, size=size, light=light, dice=dice),
                    lambda frame, what: SequenceEvent(frame, *what))


def gathered(film: Iterable[RenderedFrame | _WhatT], event: Callable[[int, _WhatT], _EventT]
             ) -> tuple[list[RenderedFrame], list[_EventT]]:
    """A film drawn frame by frame (`rolls_filmed`) whole: its frames, and each thing that
    truly happened in it as `event(frame, what)`, `frame` the first frame it holds for."""
    frames: list[RenderedFrame] = []
    events: list[_EventT] = []
    for shown in film:
        if isinstance(shown, RenderedFrame):
            frames.append(shown)
        else:
            events.append(event(len(frames), shown))
    return frames, events


def rolls_filmed(seed: int, game: str = "camelup-2014", *, size: tuple[int, int] = (640, 480),
                 light: str | None = None, dice: int = 3
                 ) -> Iterator[RenderedFrame | tuple[str, str, int]]:
    """A short film of a leg at the table, frame by frame as the camera takes it: dice are
    thrown into the roll zone one after another, tumble and come to rest; hands pass over
    them, one is nudged; then each is picked up and taken away. What truly happens (kind
    "landed" or "gone", the die's colour, its value) comes before the first frame it holds
    for."""
    rng = np.random.default_rng(seed)
    table = random_table(int(rng.integers(0, 2 ** 31)), game, size=size)
    lit = random_light(rng, light)
    specs = [table.dice.dice[i] for i in rng.permutation(len(table.dice.dice))[:dice]]
    finals = scatter_dice(rng, specs, table.layout, touching=0.0, look=table.dice_look)
    shot = filming(table, lit, rng)
    resting: list[DiePose] = []
    for _ in range(8):
        yield shot(resting)
    for final in finals:
        path = throw_path(rng, table.layout, final, steps=10)
        for pose, motion in path:
            yield shot([*resting, pose], moving=[(0.0, 0.0)] * len(resting) + [motion])
        resting.append(final)
        yield "landed", final.spec.colour, final.value
        for _ in range(12):
            yield shot(resting)
    yield from hand_passing(shot, rng, resting)
    nudged = resting[0]
    resting[0] = replace(nudged, x=nudged.x + 4.0, y=nudged.y - 3.0, yaw=nudged.yaw + 0.2)
    for k in range(3):
        t = (k + 1) / 3
        yield shot([replace(nudged, x=nudged.x + 4.0 * t, y=nudged.y - 3.0 * t,
                            yaw=nudged.yaw + 0.2 * t), *resting[1:]],
                   hands=[hand_near(rng, table, nudged)])
    for _ in range(10):
        yield shot(resting)
    for shown in taken_away(shot, rng, table, resting):
        yield shown if isinstance(shown, RenderedFrame) else (
            "gone", shown.spec.colour, shown.value)


def filming(table: Table, light: Light, rng: np.random.Generator
            ) -> Callable[..., RenderedFrame]:
    """The camera filming `table` under `light`: `shot(dice, hands=(), moving=())` is its next
    frame (the dice lying or in the air, hands over the table, the moving dice's motion in
    pixels, blurred). A film is drawn a frame at a time, as it is watched: a camera that
    waited for a whole film would seem dead, and hold every frame at once."""
    def shot(dice: Sequence[Pose], hands: Sequence[Hand] = (),
             moving: Sequence[tuple[float, float]] = ()) -> RenderedFrame:
        return render(table, dice, light, rng=rng, hands=hands, noise=2.5, jpeg=85,
                      moving=moving)

    return shot


def taken_away(shot: Callable[..., RenderedFrame], rng: np.random.Generator, table: Table,
               resting: list[_PoseT]) -> Iterator[RenderedFrame | _PoseT]:
    """The dice lying in `resting` picked up one by one, the last first, each filmed by
    `shot(dice, hands=...)`: a hand reaches in and leaves with the die, the die itself comes
    once it is out of view, and the table rests a moment."""
    while resting:
        gone = resting.pop()
        hand = hand_near(rng, table, gone)
        for _ in range(3):
            yield shot([*resting, gone], hands=[hand])
        for _ in range(3):
            yield shot(resting, hands=[hand])
        yield gone
        for _ in range(10):
            yield shot(resting)


def frames_forever(seed: int, game: str = "camelup-2014", *,
                   size: tuple[int, int] = (640, 480)) -> Iterator[RenderedFrame]:
    """Roll sequences one after another, for a rendered camera source, each frame drawn as it
    is read."""
    k = 0
    while True:
        for shown in rolls_filmed(seed + k, game, size=size):
            if isinstance(shown, RenderedFrame):
                yield shown
        k += 1


# --- drawing --------------------------------------------------------------------------------

def _distance(camera: Camera, pose: Pose) -> float:
    return math.dist(camera.position, (pose.x, pose.y, 0.0))


@dataclass(frozen=True)
class CamelPose:
    """A camel on the board: its colour's name and body colour, the space it stands on (1-16)
    and its height in the stack there (0 at the bottom), its centre (mm) and its heading
    (radians; a crazy camel faces against the race); and whether it is cut with legs (the
    board shows under its belly) or is a solid block."""

    colour: str
    bgr: tuple[int, int, int]
    space: int
    level: int
    x: float
    y: float
    yaw: float
    legs: bool = False

    def depth(self, camera: Camera) -> tuple[float, float]:
        """Things that stand are drawn after the flat ones, in any order (`fill_solid`)."""
        return (0.0, 0.0)

    def draw(self, canvas: Canvas) -> None:
        """A camel as wooden blocks: a body and a head at its front, and its legs below."""
        for x, y, dims, z0 in self._blocks(canvas.track):
            _draw_block(canvas, self.bgr, x=x, y=y, yaw=self.yaw, dims=dims, z0=z0)

    def corners(self, track: BoardLayout) -> np.ndarray:
        return np.vstack([corners for x, y, dims, z0 in self._blocks(track)
                          for corners, *_ in _cube_faces(x, y, self.yaw, dims, z0)])

    def _blocks(self, track: BoardLayout
                ) -> list[tuple[float, float, tuple[float, float, float], float]]:
        """The camel's blocks (centre x, y, size, height of the bottom): body, head, then the
        legs of a camel cut with them. Its legs are slabs at its front and back, and the arch
        between them under its belly is as high as the camel below rises into it (the camel's
        height less the stack's step), so a stack nests and only a camel standing on the board
        shows the board under it; a solid camel's body reaches the ground."""
        length, width, height = track.camel
        z0 = self.level * track.stack_step
        c, n = math.cos(self.yaw), math.sin(self.yaw)

        def ahead(reach: float) -> tuple[float, float]:
            return self.x + c * reach * length, self.y + n * reach * length

        arch = max(0.0, height - track.stack_step) if self.legs else 0.0
        blocks = [(*ahead(0.0), (length, width, height - arch), z0 + arch),
                  (*ahead(0.42), (0.24 * length, 0.6 * width, 0.5 * height), z0 + 0.8 * height)]
        if arch:
            blocks += [(*ahead(end * 0.39), (0.22 * length, width, arch), z0) for end in (-1, 1)]
        return blocks


def stacked_camels(track: BoardLayout, camels: Sequence[tuple[str, tuple[int, int, int]]],
                   spaces: Sequence[int], *, crazy: Sequence[str] = (),
                   rng: np.random.Generator | None = None, legs: bool = False
                   ) -> list[CamelPose]:
    """`camels` (colour, body colour) standing on the 0-based track `spaces`, each on top of
    those before it on its space, cut with `legs` or solid; with `rng`, each stack set down a
    little off the space's middle and turned a little, as hands put them, and each camel in
    it a little askew on the one below (the camels nest, legs astride the back below, so
    less)."""
    levels: dict[int, int] = {}
    placed: dict[int, tuple[float, float, float]] = {}
    poses = []
    for (colour, bgr), space in zip(camels, spaces, strict=True):
        level = levels.get(space, 0)
        levels[space] = level + 1
        if space not in placed:
            x, y = track.spaces[space]
            off = (rng.uniform(-4, 4), rng.uniform(-4, 4), rng.uniform(-0.15, 0.15)) \
                if rng is not None else (0.0, 0.0, 0.0)
            placed[space] = (x + off[0], y + off[1], track.heading(space + 1) + off[2])
        x, y, yaw = placed[space]
        if rng is not None:
            x, y = x + rng.uniform(-2, 2), y + rng.uniform(-2, 2)
            yaw += rng.uniform(-0.08, 0.08)
        yaw += math.pi if colour in crazy else 0.0
        poses.append(CamelPose(colour, bgr, space + 1, level, x, y, yaw, legs))
    return poses


class Prop:
    """A thing on the table that is not read: it says when to draw it (flat things first)
    and draws itself."""

    def depth(self, camera: Camera) -> tuple[float, float]:
        raise NotImplementedError

    def draw(self, canvas: Canvas) -> None:
        raise NotImplementedError

    def corners(self, track: BoardLayout) -> np.ndarray:
        """Points (N x 3, table mm) whose outline holds all that `draw` draws."""
        raise NotImplementedError


def _table_texture(table: Table, rng: np.random.Generator
                   ) -> tuple[np.ndarray, tuple[float, float, float]]:
    """The table top seen from straight above at 2 px/mm: wood or cloth, the roll zone's mat,
    the board with its track, the pyramid and the markers; in bytes (7 MB, where floats would
    be 29), seen by the camera in bytes and lit in floats for each light."""
    ppm = 2.0
    x0, y0, x1, y1 = -560.0, -180.0, 420.0, 440.0
    w, h = int((x1 - x0) * ppm), int((y1 - y0) * ppm)
    woods = ((120, 165, 205), (70, 100, 140), (150, 150, 150), (95, 130, 170), (190, 200, 210))
    base = np.array(woods[int(rng.integers(0, len(woods)))], np.float32)
    yy = np.linspace(0, 1, h, dtype=np.float32)[:, None]
    xx = np.linspace(0, 1, w, dtype=np.float32)[None, :]
    freq, phase = rng.uniform(20, 60), rng.uniform(0, 6.28)
    grain = (0.06 * np.sin(freq * (yy + 0.1 * np.sin(3 * xx + phase)) * 6.28)
             + 0.03 * np.sin(freq * 3.1 * yy * 6.28 + phase))
    tex = base[None, None, :] * (1 + grain)[..., None]
    tex = np.broadcast_to(tex, (h, w, 3)).copy()
    # the grain's noise is drawn at one size whatever the texture's, and spread over it, so
    # that what is drawn after it (the mat) stays the same for a seed
    noise = rng.normal(0, 3.0, (291, 421, 3)).astype(np.float32)
    tex += cv2.resize(noise, (w // 4 + 1, h // 4 + 1), interpolation=cv2.INTER_NEAREST
                      ).repeat(4, 0).repeat(4, 1)[:h, :w]
    tex = np.clip(tex, 0, 255).astype(np.uint8)

    def to_px(x: float, y: float) -> tuple[int, int]:
        return int((x - x0) * ppm), int((y1 - y) * ppm)

    layout = table.layout
    mats = ((60, 110, 60), (200, 215, 225), (110, 70, 50), (90, 90, 160), (70, 70, 70))
    mat = mats[int(rng.integers(0, len(mats)))]
    zx0, zy0, zx1, zy1 = layout.roll_zone
    cv2.rectangle(tex, to_px(zx0, zy1), to_px(zx1, zy0), mat, -1)
    cv2.rectangle(tex, to_px(zx0, zy1), to_px(zx1, zy0),
                  tuple(int(c * 0.7) for c in mat), 3)
    bx0, by0, bx1, by1 = layout.board
    cv2.rectangle(tex, to_px(bx0, by1), to_px(bx1, by0), (120, 190, 225), -1)
    track = table.track
    half = track.space_size / 2
    for k, (sx, sy) in enumerate(track.spaces):
        colour = (95, 160, 205) if k % 2 else (140, 205, 235)
        cv2.rectangle(tex, to_px(sx - half, sy + half), to_px(sx + half, sy - half), colour, -1)
        cv2.putText(tex, str(k + 1), to_px(sx - half + 4, sy - half + 14),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.7, (60, 90, 120), 2)
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    pyramid = np.array([to_px(cx - 45, cy - 45), to_px(cx + 45, cy - 45),
                        to_px(cx + 45, cy + 45), to_px(cx - 45, cy + 45)], np.int32)
    apex = to_px(cx, cy)
    for k, shade in enumerate((150, 175, 200, 125)):
        tri = np.array([pyramid[k], pyramid[(k + 1) % 4], apex], np.int32)
        cv2.fillPoly(tex, [tri], (int(shade * 0.8), int(shade * 0.95), shade))
    side = int(layout.marker_size * ppm)
    border = int(6 * ppm)
    for marker_id, (mx, my) in zip(MARKER_IDS, layout.markers, strict=True):
        img = marker_image(marker_id, side)
        px, py = to_px(mx, my)
        cv2.rectangle(tex, (px - side // 2 - border, py - side // 2 - border),
                      (px + side // 2 + border, py + side // 2 + border), (245, 245, 245), -1)
        tex[py - side // 2:py - side // 2 + side, px - side // 2:px - side // 2 + side] = \
            img[..., None]
    return tex, (x0, y1, ppm)


def _light_field(table: Table, light: Light, s: int) -> np.ndarray:
    """How much light reaches each pixel of the table (H x W x 3), glare included."""
    camera = table.camera
    w, h = camera.size[0] * s, camera.size[1] * s
    ys, xs = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    hom = np.linalg.inv(camera.homography(s))
    pts = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size, np.float32)])
    table_pts = hom @ pts
    tx = (table_pts[0] / table_pts[2]).reshape(xs.shape)
    ty = (table_pts[1] / table_pts[2]).reshape(xs.shape)
    lx, ly, lz = light.direction
    diffuse = 0.35 + 0.65 * lz
    field = np.full(xs.shape, light.strength * diffuse, np.float32)
    if light.uneven:
        along = (tx * lx + ty * ly) / max(math.hypot(lx, ly), 1e-6)
        field *= 1.0 + light.uneven * np.clip(along / 250.0, -1.0, 1.0)
    field = cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
    out = field[..., None] * np.array(light.colour, np.float32)[None, None, :]
    if light.glare is not None:
        gx, gy, strength = light.glare
        txf = cv2.resize(tx, (w, h))
        tyf = cv2.resize(ty, (w, h))
        blob = strength * np.exp(-((txf - gx) ** 2 + (tyf - gy) ** 2) / (2 * 28.0 ** 2))
        out += blob[..., None] * 1.2
    return out


def _lit_table(table: Table, light: Light, s: int) -> tuple[np.ndarray, np.ndarray]:
    """`table` drawn under `light` at `s` times the camera's size, kept in half floats (7 MB
    for the dice camera, where floats would be 15), and shrunk to the camera's size: the
    bare table of every frame (where `s` is 1, the same half floats: 5 MB for the board's
    1280x720 camera, where floats would be 11)."""
    lit = _draw_table(table, light, s)
    if s == 1:
        half = lit.astype(np.float16)
        return half, half
    return lit.astype(np.float16), cv2.resize(lit, table.camera.size,
                                              interpolation=cv2.INTER_AREA)


def _draw_table(table: Table, light: Light, s: int) -> np.ndarray:
    camera = table.camera
    w, h = camera.size[0] * s, camera.size[1] * s
    ox, oy, ppm = table._texture_origin
    to_table = np.array([[1 / ppm, 0, ox], [0, -1 / ppm, oy], [0, 0, 1]])
    warp = camera.homography(s) @ to_table
    # beyond the texture the table goes on in its own colour (a mirror of it would show a
    # second board)
    texture = table.texture
    edge = tuple(float(c) for c in np.median(texture[:8].reshape(-1, 3), axis=0))
    seen = cv2.warpPerspective(texture, warp, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=edge)
    image = _light_field(table, light, s)
    image *= seen
    return image


def _shade(colour: Sequence[float], normal: np.ndarray, light: Light) -> tuple[float, ...]:
    lit = 0.35 + 0.65 * max(0.0, float(np.dot(normal, light.direction)))
    gain = light.strength * lit
    return tuple(float(c * gain * g) for c, g in zip(colour, light.colour, strict=True))


def _cube_faces(cx: float, cy: float, yaw: float, dims: tuple[float, float, float],
                z0: float = 0.0) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """The five faces of an upright box but its bottom: (corners 4x3, normal, u axis, v axis)
    with u, v the face's in-plane half-axes."""
    sx, sy, sz = dims[0] / 2, dims[1] / 2, dims[2] / 2
    c, s = math.cos(yaw), math.sin(yaw)
    ex = np.array([c, s, 0.0])
    ey = np.array([-s, c, 0.0])
    ez = np.array([0.0, 0.0, 1.0])
    centre = np.array([cx, cy, z0 + sz])
    faces = []
    for normal, half, u, v in ((ez, sz, ex * sx, ey * sy), (ex, sx, ey * sy, ez * sz),
                               (-ex, sx, -ey * sy, ez * sz), (ey, sy, -ex * sx, ez * sz),
                               (-ey, sy, ex * sx, ez * sz)):
        mid = centre + normal * half
        corners = np.array([mid - u - v, mid + u - v, mid + u + v, mid - u + v])
        faces.append((corners, normal, u, v))
    return faces


def _fill(image: np.ndarray, pts: np.ndarray, colour: Sequence[float]) -> None:
    cv2.fillPoly(image, [np.round(pts * 16).astype(np.int32)], tuple(float(c) for c in colour),
                 lineType=cv2.LINE_AA, shift=4)


@dataclass(frozen=True)
class _Patch:
    """A change drawn in the whole frame's pixels over only the part of it that it reaches
    (its corner x0, y0): that part darkened by `dark` (a shadow), then, for a hand, `keep` of
    it kept and `paint` added."""

    x0: int
    y0: int
    dark: np.ndarray
    keep: np.ndarray | None = None
    paint: np.ndarray | None = None

    def lay(self, band: np.ndarray, top: int) -> None:
        """Lay the patch's rows that fall in `band`, the frame's rows from `top` on."""
        a, b = max(self.y0, top), min(self.y0 + len(self.dark), top + band.shape[0])
        if a >= b:
            return
        region = band[a - top:b - top, self.x0:self.x0 + self.dark.shape[1]]
        rows = slice(a - self.y0, b - self.y0)
        region *= self.dark[rows]
        if self.keep is not None and self.paint is not None:
            region[:] = region * self.keep[rows] + self.paint[rows]


@dataclass(frozen=True)
class Canvas:
    """What things on the board draw themselves on: the frame as it is drawn (`SUPERSAMPLE`
    times the camera's size, `s`), how far from the camera the nearest surface drawn at
    each of its pixels lies, the camera, the light, and the board's track."""

    image: np.ndarray
    depth: np.ndarray
    camera: Camera
    light: Light
    track: BoardLayout
    s: int


def _draw_block(canvas: Canvas, colour: Sequence[float], *, x: float, y: float, yaw: float,
                dims: tuple[float, float, float], z0: float) -> None:
    """An upright box, face by face, each pixel only where nothing drawn before is nearer."""
    eye = np.array(canvas.camera.position)
    for corners, normal, _, _ in _cube_faces(x, y, yaw, dims, z0):
        if np.dot(normal, eye - corners.mean(0)) > 0:
            fill_solid(canvas, corners, _shade(colour, normal, canvas.light))


def fill_solid(canvas: Canvas, corners: np.ndarray, colour: Sequence[float]) -> None:
    """A flat polygon in space (N x 3 table mm) drawn where it is nearer the camera than
    what was drawn there before: things that stand in one another's way (camels in a stack,
    set down askew) hide one another as they would."""
    camera, depth, image, s = canvas.camera, canvas.depth, canvas.image, canvas.s
    pts = camera.project(corners, s)
    h, w = depth.shape
    x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + 1, (w, h))
    if x0 >= x1 or y0 >= y1:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round((pts - (x0, y0)) * 16).astype(np.int32)], 1, shift=4)
    k, r, t = camera.matrices(s)
    normal = r @ np.cross(corners[1] - corners[0], corners[2] - corners[0])
    offset = float(normal @ (r @ corners[0] + t))
    vs, us = np.nonzero(mask)
    rays = np.linalg.inv(k) @ np.vstack([us + x0, vs + y0, np.ones(len(us))])
    along = normal @ rays
    with np.errstate(divide="ignore"):
        far = np.where(np.abs(along) > 1e-12, offset / along, np.inf)
    rows, cols = vs + y0, us + x0
    nearer = far < depth[rows, cols]
    rows, cols = rows[nearer], cols[nearer]
    depth[rows, cols] = far[nearer]
    image[rows, cols] = np.asarray(colour, np.float32)


#: which face index sits where, for a die whose top is faces[top]: the opposite face is the
#: bottom, and the other four go round the sides
_SIDES = {0: (2, 4, 3, 5), 1: (2, 5, 3, 4), 2: (0, 5, 1, 4), 3: (0, 4, 1, 5), 4: (0, 2, 1, 3),
          5: (0, 3, 1, 2)}


@contextlib.contextmanager
def faded(image: np.ndarray, camera: Camera, faces: Sequence[tuple[np.ndarray, ...]], *,
          s: int, alpha: float) -> Iterator[np.ndarray]:
    """What is drawn on the image yielded lies `alpha` opaque over `image` after: a die
    fading along its motion. Only the rows the die's `faces` span are kept aside (not a copy
    of the whole frame); the rest of the frame is blended with itself as before, so every
    pixel comes out as it did when the die was drawn on a copy of the frame."""
    if alpha >= 1.0:
        yield image
        return
    ys = camera.project(np.vstack([corners for corners, *_ in faces]), s)[:, 1]
    margin = 2 * s + 2  # the edges' width and their antialiasing
    y0 = max(0, math.floor(ys.min()) - margin)
    y1 = min(image.shape[0], math.ceil(ys.max()) + margin + 1)
    under = image[y0:y1].copy()
    yield image
    drawn = image[y0:y1].copy()
    image[y0:y1] = under
    cv2.addWeighted(image, alpha, image, 1 - alpha, 0, dst=image)
    image[y0:y1] = cv2.addWeighted(drawn, alpha, under, 1 - alpha, 0)


def _draw_die(image: np.ndarray, camera: Camera, light: Light, pose: DiePose, *,
              size: float, s: int, alpha: float = 1.0) -> None:
    eye = np.array(camera.position)
    look = pose.look
    faces = _cube_faces(pose.x, pose.y, pose.yaw, (size, size, size))
    shown = [pose.top, *_SIDES[pose.top]]
    with faded(image, camera, faces, s=s, alpha=alpha) as target:
        for k, (corners, normal, u, v) in enumerate(faces):
            if np.dot(normal, eye - corners.mean(0)) <= 0:
                continue
            body = _shade(look.body(pose.spec), normal, light)
            pts = camera.project(corners, s)
            _fill(target, pts, body)
            edge = tuple(c * 0.75 for c in body)
            cv2.polylines(target, [np.round(pts * 16).astype(np.int32)], True, edge,
                          max(1, s // 2), cv2.LINE_AA, shift=4)
            value, pips = pose.spec.faces[shown[k]]
            pip_colour = look.black_pips if pips == BLACK else look.white_pips
            shaded_pip = _shade(pip_colour, normal, light)
            turn = pose.spin if k == 0 else 0
            mid = corners.mean(0)
            uu, vv = (u, v) if turn % 2 == 0 else (v, -u)
            if turn >= 2:
                uu, vv = -uu, -vv
            ring = np.linspace(0, 2 * math.pi, 20, endpoint=False)
            for i, j in PIP_CELLS[value]:
                centre = mid + (uu * i + vv * j) * (2 * look.pip_offset)
                circle = (centre[None] + np.outer(np.cos(ring), uu) * 2 * look.pip_radius
                          + np.outer(np.sin(ring), vv) * 2 * look.pip_radius)
                _fill(target, camera.project(circle, s), shaded_pip)


def _steps(pose: _PoseT, motion: tuple[float, float]) -> list[tuple[_PoseT, float]]:
    """A die as it is drawn (each pose, how opaque): once where it lies; tumbling during the
    exposure (`motion`, mm), along its motion, fading, a new face each time, so it blurs as
    a moving die does."""
    if motion == (0.0, 0.0):
        return [(pose, 1.0)]
    steps = 4
    drawn = []
    for k in range(steps):
        t = k / (steps - 1) - 0.5
        drawn.append((replace(pose, x=pose.x + motion[0] * t, y=pose.y + motion[1] * t,
                              yaw=pose.yaw + 0.3 * t, top=(pose.top + k) % 6), 1.0 / (k + 1)))
    return drawn


def _shadows(table: Table, dice: Sequence[Pose], light: Light, s: int
             ) -> _Patch | None:
    """The dice's soft shadows, drawn and blurred over only the part of the frame they reach;
    None without dice."""
    lx, ly, lz = light.direction
    if lz <= 0 or not dice:
        return None
    size = table.layout.die_size
    hulls = []
    for pose in dice:
        corners = _cube_faces(pose.x, pose.y, pose.yaw, (size, size, size))[0][0]
        base = corners.copy()
        base[:, 2] = 0
        cast = base - np.outer(corners[:, 2] / lz, (lx, ly, 0.0))
        hull = cv2.convexHull(np.float32(np.vstack([table.camera.project(base, s),
                                                    table.camera.project(cast, s)])))
        hulls.append(np.round(hull).astype(np.int32))
    sigma = 2.0 * s
    # the blur's reach (OpenCV's kernel for floats spans 4 sigma each way) and the edges'
    # antialiasing: beyond it the blurred shadow is 0 and the frame unchanged
    reach = math.ceil(4 * sigma) + 3
    w, h = table.camera.size[0] * s, table.camera.size[1] * s
    corners = np.vstack(hulls).reshape(-1, 2)
    x0, y0 = (int(v) for v in np.maximum(corners.min(0) - reach, 0))
    x1, y1 = (int(v) for v in np.minimum(corners.max(0) + reach + 1, (w, h)))
    if x0 >= x1 or y0 >= y1:
        return None
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    for hull in hulls:
        cv2.fillConvexPoly(mask, hull - np.array((x0, y0), np.int32), 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    return _Patch(x0, y0, (1.0 - 0.45 * mask)[..., None])


def _hand_mask(hand: Hand, w: int, h: int) -> np.ndarray:
    """The pixels (uint8, 255) a hand and forearm reaching in from the edge of a w x h image
    cover."""
    mask = np.zeros((h, w), np.uint8)
    cx, cy = hand.x * w, hand.y * h
    size = hand.size * w
    ca, sa = math.cos(hand.angle), math.sin(hand.angle)
    palm = ((int(cx), int(cy)), (int(size * 0.45), int(size * 0.38)),
            math.degrees(hand.angle))
    cv2.ellipse(mask, palm[0], palm[1], palm[2], 0, 360, 255, -1)
    arm_end = (int(cx + ca * w * 1.5), int(cy + sa * w * 1.5))
    cv2.line(mask, (int(cx), int(cy)), arm_end, 255, int(size * 0.55))
    for k, spread in enumerate((-0.55, -0.2, 0.15, 0.5)):
        angle = hand.angle + math.pi + spread
        length = size * (0.7 if k in (1, 2) else 0.6)
        start = (cx + math.cos(angle) * size * 0.35, cy + math.sin(angle) * size * 0.35)
        end = (start[0] + math.cos(angle) * length, start[1] + math.sin(angle) * length)
        cv2.line(mask, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 255,
                 int(size * 0.13))
    thumb = hand.angle + math.pi / 2
    cv2.line(mask, (int(cx), int(cy)), (int(cx + math.cos(thumb) * size * 0.65),
                                        int(cy + math.sin(thumb) * size * 0.65)), 255,
             int(size * 0.15))
    return mask


def _hand_paint(hand: Hand, light: Light, size: tuple[int, int], s: int
                ) -> tuple[np.ndarray, _Patch | None]:
    """A hand over a frame drawn at `size`: the pixels it covers, and the hand and its shadow
    softened and shaded over only the part of the frame they reach (None: the hand is
    wholly out of the frame)."""
    w, h = size
    mask = _hand_mask(hand, w, h)
    size_px = hand.size * w
    dy, dx = int(size_px * 0.25), int(size_px * 0.2)
    pad = int(4 * s) + 1
    x, y, bw, bh = cv2.boundingRect(mask)
    if bw == 0:
        return mask > 0, None
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(w, x + bw + pad + dx), min(h, y + bh + pad + dy)
    soft = cv2.GaussianBlur(mask[y0:y1, x0:x1].astype(np.float32) / 255.0, (0, 0), 1.5 * s)
    shadow = np.zeros_like(soft)
    sh, sw = soft.shape
    if dy < sh and dx < sw:
        shadow[dy:, dx:] = soft[:sh - dy, :sw - dx]
    skin = np.array(hand.skin, np.float32) * light.strength * np.array(light.colour, np.float32)
    shade = 0.85 + 0.15 * np.cos(np.linspace(0, math.pi, w, dtype=np.float32))[None, x0:x1]
    return mask > 0, _Patch(x0, y0, (1.0 - 0.4 * shadow)[..., None], 1 - soft[..., None],
                            skin[None, None, :] * shade[..., None] * soft[..., None])


def _hand_away_from(rng: np.random.Generator, table: Table, poses: Sequence[Pose]) -> Hand:
    """A hand somewhere over the frame that covers none of `poses`, if one can be found."""
    w, h = table.camera.size
    boxes = [_die_box(table.camera, p, table.layout.die_size) for p in poses]
    for _ in range(40):
        hand = random_hand(rng)
        covered = _hand_mask(hand, w * 2, h * 2) > 0
        if not any(covered[y0 * 2:(y1 + 1) * 2, x0 * 2:(x1 + 1) * 2].any()
                   for x0, y0, x1, y1 in boxes):
            return hand
    return hand


def hand_near(rng: np.random.Generator, table: Table, pose: Pose) -> Hand:
    u, v = table.camera.project(np.array([[pose.x, pose.y, 8.0]]))[0]
    w, h = table.camera.size
    hand = random_hand(rng)
    return replace(hand, x=float(u / w), y=float(v / h))


def hand_pass(rng: np.random.Generator, steps: int) -> list[Hand]:
    hand = random_hand(rng)
    y = rng.uniform(0.3, 0.7)
    return [replace(hand, x=-0.2 + 1.4 * k / (steps - 1), y=y, angle=math.pi / 2 + 0.4)
            for k in range(steps)]


def hand_passing(shot: Callable[..., RenderedFrame], rng: np.random.Generator,
                 resting: Sequence[_PoseT]) -> Iterator[RenderedFrame]:
    """The film of a hand passing over the dice `resting` (`shot` films them, with the
    hands given), then of the table still: a hand over dice at rest reads nothing again."""
    for hand in hand_pass(rng, 14):
        yield shot(resting, hands=[hand])
    for _ in range(10):
        yield shot(resting)


def throw_path(rng: np.random.Generator, layout: TableLayout, final: _PoseT,
                steps: int) -> list[tuple[_PoseT, tuple[float, float]]]:
    """A die's way in: from the roll zone's edge to where it stops, fast then slow."""
    angle = rng.uniform(0, 2 * math.pi)
    reach = rng.uniform(60, 110)
    path = []
    for k in range(steps):
        t = k / steps
        remaining = (1 - t) ** 2
        speed = 2 * (1 - t) * reach / steps
        x = final.x + math.cos(angle) * reach * remaining
        y = final.y + math.sin(angle) * reach * remaining
        pose = replace(final, x=x, y=y, yaw=final.yaw + 3 * remaining,
                       top=int(rng.integers(0, 6)))
        path.append((pose, (-math.cos(angle) * speed, -math.sin(angle) * speed)))
    return path


def _die_box(camera: Camera, pose: Pose, size: float) -> tuple[int, int, int, int]:
    corners = np.vstack([c for c, _, _, _ in _cube_faces(pose.x, pose.y, pose.yaw,
                                                          (size, size, size))])
    uv = camera.project(corners)
    w, h = camera.size
    x0, y0 = np.floor(uv.min(0)).astype(int)
    x1, y1 = np.ceil(uv.max(0)).astype(int)
    return (int(max(0, x0)), int(max(0, y0)), int(min(w - 1, x1)), int(min(h - 1, y1)))


def _grain(image: np.ndarray, rng: np.random.Generator, noise: float) -> None:
    """The sensor's grain, drawn a few rows at a time: the same numbers as drawn at once
    (and as drawn band by band, in order), without a frame's worth of them held."""
    for top in range(0, image.shape[0], _GRAIN_ROWS):
        grain = rng.standard_normal(image[top:top + _GRAIN_ROWS].shape, dtype=np.float32)
        grain *= np.float32(noise)
        image[top:top + _GRAIN_ROWS] += grain


def _motion_blur(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    k = math.ceil(length) * 2 + 1
    kernel = np.zeros((k, k), np.float32)
    c = k // 2
    dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1,
             cv2.LINE_AA)
    return cv2.filter2D(image, -1, kernel / kernel.sum())
