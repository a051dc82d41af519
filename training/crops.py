"""Windows to train the dice network on (vision.dicenet), each with its class: 0 where no die's
top face lies centred in the window at the size the network reads, else the face shown.

Two sources. Rendered scenes: dice of any colours (dark on light and light on dark, painted,
engraved, translucent), any pip size and spacing, seen from straight above to 60 degrees, lit
from anywhere, crowded or alone, on plain, grained, printed or real-photo table tops, with
blur, noise and JPEG. And the training part of the real photos (training.labelled), each die
taken at many sizes, turns and lights, with windows beside, between and round the dice as
examples of no die. A window between the two (a die a little off centre or of a size between
the one read and another) is left out: it teaches nothing certain.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from training.labelled import LabelledPhoto, die_sides, labelled_photos
from training.scoring import TrueDie
from vision.dicenet import DIE, WINDOW, merge, prepare, search_scales, spots_at
from vision.spec import PIP_CELLS

#: windows are drawn this wide and then cut out of their middle, so that the network's input
#: (measured against the local mean) sees what it would see in a whole image
SCENE = 3 * WINDOW
#: a die counts as centred within this share of its side, and as off centre beyond OFF
NEAR, OFF = 0.16, 0.42
#: a die counts as the size read within this factor of DIE, and as another size beyond FAR
SIZE_NEAR, SIZE_FAR = 1.22, 1.6

#: faces round a die: opposite faces add up to seven
_OPPOSITE = {v: 7 - v for v in range(1, 7)}


@dataclass(frozen=True)
class Sample:
    """One window of the network's input (channels, WINDOW, WINDOW) and its class."""

    window: np.ndarray
    label: int


def label_for(offset: float, size: float) -> int | None:
    """Whether a die `offset` sides off the window's middle and `size` pixels wide is one the
    network must read (True-ish: 1), must not (0), or is in between (None)."""
    ratio = max(size / DIE, DIE / size)
    if offset <= NEAR and ratio <= SIZE_NEAR:
        return 1
    if offset >= OFF or ratio >= SIZE_FAR:
        return 0
    return None


# --- rendered scenes -------------------------------------------------------------------------

@dataclass(frozen=True)
class _Look:
    body: np.ndarray
    pips: np.ndarray
    alpha: float
    engraved: bool
    pip_radius: float
    pip_offset: float
    corner: float


def _random_look(rng: np.random.Generator) -> _Look:
    hue = rng.uniform(0, 180)
    kind = rng.random()
    if kind < 0.3:     # white, ivory or grey dice
        body = cv2.cvtColor(np.uint8([[[hue, rng.uniform(0, 40), rng.uniform(150, 255)]]]),
                            cv2.COLOR_HSV2BGR)[0, 0]
    elif kind < 0.45:  # black or very dark dice
        body = cv2.cvtColor(np.uint8([[[hue, rng.uniform(0, 120), rng.uniform(15, 70)]]]),
                            cv2.COLOR_HSV2BGR)[0, 0]
    else:              # coloured dice, light or dark
        body = cv2.cvtColor(np.uint8([[[hue, rng.uniform(90, 255), rng.uniform(60, 255)]]]),
                            cv2.COLOR_HSV2BGR)[0, 0]
    body = body.astype(np.float32)
    light = float(body.mean()) > 120
    if rng.random() < 0.75:
        pips = np.full(3, rng.uniform(5, 50) if light else rng.uniform(200, 250), np.float32)
    else:   # coloured or gold pips
        tone = rng.uniform(10, 90) if light else rng.uniform(160, 255)
        pip_hue = rng.uniform(0, 180)
        pips = cv2.cvtColor(np.uint8([[[pip_hue, rng.uniform(60, 255), tone]]]),
                            cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    return _Look(body=body, pips=pips,
                 alpha=1.0 if rng.random() < 0.85 else rng.uniform(0.45, 0.85),
                 engraved=rng.random() < 0.35, pip_radius=rng.uniform(0.065, 0.115),
                 pip_offset=rng.uniform(0.22, 0.3), corner=rng.uniform(0.0, 0.18))


def _rounded_square(corner: float, steps: int = 4) -> np.ndarray:
    """A unit square's outline (-1..1) with corners rounded by `corner` (a share of the
    half side), as points."""
    if corner <= 0:
        return np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)
    inner = 1 - corner
    points = []
    for cx, cy, start in ((inner, inner, 0), (-inner, inner, 90), (-inner, -inner, 180),
                          (inner, -inner, 270)):
        for k in range(steps + 1):
            a = math.radians(start + 90 * k / steps)
            points.append((cx + corner * math.cos(a), cy + corner * math.sin(a)))
    return np.array(points)


class _View:
    """An orthographic view from `tilt` radians off vertical, turned `turn` about the
    vertical, at `scale` pixels a millimetre-free unit, centred on `origin` pixels."""

    def __init__(self, tilt: float, turn: float, scale: float, origin: tuple[float, float]):
        c, s = math.cos(turn), math.sin(turn)
        ct, st = math.cos(tilt), math.sin(tilt)
        # world to camera: turn about z, then tilt about x
        spin = np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]])
        tip = np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
        self.rotation = tip @ spin
        self.scale = scale
        self.origin = np.array(origin)
        self.towards = self.rotation.T @ np.array([0.0, 0.0, 1.0])

    def project(self, points: np.ndarray) -> np.ndarray:
        cam = points @ self.rotation.T
        return np.column_stack([cam[:, 0], -cam[:, 1]]) * self.scale + self.origin


def _fill(image: np.ndarray, points: np.ndarray, colour: np.ndarray, alpha: float = 1.0
          ) -> None:
    pts = [np.round(points * 16).astype(np.int32)]
    if alpha >= 1.0:
        cv2.fillPoly(image, pts, colour.tolist(), cv2.LINE_AA, shift=4)
        return
    layer = image.copy()
    cv2.fillPoly(layer, pts, colour.tolist(), cv2.LINE_AA, shift=4)
    cv2.addWeighted(layer, alpha, image, 1 - alpha, 0, dst=image)


def _draw_die(image: np.ndarray, view: _View, look: _Look, light: np.ndarray, *,
              x: float, y: float, yaw: float, top: int, spin: int) -> None:
    """A unit die (side 2) standing at (x, y) on the table, `top` face up."""
    c, s = math.cos(yaw), math.sin(yaw)
    ex, ey, ez = np.array([c, s, 0.0]), np.array([-s, c, 0.0]), np.array([0.0, 0.0, 1.0])
    centre = np.array([x, y, 1.0])
    sides = [v for v in range(1, 7) if v not in (top, _OPPOSITE[top])]
    faces = [(ez, ex, ey, top, spin)]
    for k, (normal, u) in enumerate(((ex, ey), (ey, -ex), (-ex, -ey), (-ey, ex))):
        faces.append((normal, u, ez, sides[k % len(sides)], k))
    outline = _rounded_square(look.corner)
    shown = [f for f in faces if float(f[0] @ view.towards) > 0.02]
    shown.sort(key=lambda f: float(f[0] @ view.towards))   # the top, most squarely seen, last
    ring = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    for normal, across, down, value, turn in shown:
        lit = 0.4 + 0.6 * max(0.0, float(normal @ light))
        body = np.clip(look.body * lit, 0, 255)
        mid = centre + normal
        corners = mid + np.outer(outline[:, 0], across) + np.outer(outline[:, 1], down)
        _fill(image, view.project(corners), body, look.alpha)
        u, v = (down, -across) if turn % 2 else (across, down)
        pip = np.clip(look.pips * (0.55 + 0.45 * lit), 0, 255)
        rim = np.clip(body * 0.45, 0, 255)
        for i, j in PIP_CELLS[value]:
            at = mid + (u * i + v * j) * (2 * look.pip_offset)
            r = 2 * look.pip_radius
            circle = at + np.outer(np.cos(ring), u) * r + np.outer(np.sin(ring), v) * r
            if look.engraved:
                _fill(image, view.project(circle + (u - v) * 0.25 * r), rim)
            _fill(image, view.project(circle), pip)


def _background(rng: np.random.Generator, size: int, patches: list[np.ndarray]) -> np.ndarray:
    kind = rng.random()
    if patches and kind < 0.4:
        patch = patches[int(rng.integers(len(patches)))]
        ph, pw = patch.shape[:2]
        zoom = rng.uniform(0.5, 2.0)
        side = min(ph, pw, max(8, int(size / zoom)))
        y0, x0 = int(rng.integers(ph - side + 1)), int(rng.integers(pw - side + 1))
        out = cv2.resize(patch[y0:y0 + side, x0:x0 + side], (size, size))
        return out.astype(np.float32)
    base = rng.uniform(20, 240, 3).astype(np.float32)
    out = np.empty((size, size, 3), np.float32)
    out[:] = base
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    if kind < 0.6:     # wood grain: stripes bent by noise
        angle = rng.uniform(0, math.pi)
        bend = cv2.GaussianBlur(rng.normal(0, 1, (size, size)).astype(np.float32), (0, 0), 8)
        phase = (xx * math.cos(angle) + yy * math.sin(angle)) * rng.uniform(8, 40) + bend * 20
        out *= (1 + rng.uniform(0.05, 0.3) * np.sin(phase))[..., None]
    elif kind < 0.75:  # printed clutter: shapes and lines of other colours
        for _ in range(int(rng.integers(2, 9))):
            colour = rng.uniform(0, 255, 3).tolist()
            p = rng.uniform(0, size, 2).astype(int)
            if rng.random() < 0.5:
                cv2.circle(out, tuple(p.tolist()), int(rng.integers(2, size // 3)), colour, -1,
                           cv2.LINE_AA)
            else:
                q = rng.uniform(0, size, 2).astype(int)
                cv2.line(out, tuple(p.tolist()), tuple(q.tolist()), colour,
                         int(rng.integers(1, 6)), cv2.LINE_AA)
    # felt or paper: fine noise, and a slow gradient of light
    grain = cv2.GaussianBlur(rng.normal(0, 1, (size, size)).astype(np.float32), (0, 0),
                             rng.uniform(0.5, 2.0))
    out += (grain * rng.uniform(0, 10))[..., None]
    out *= (1 + rng.uniform(-0.2, 0.2) * (xx - 0.5) + rng.uniform(-0.2, 0.2) * (yy - 0.5)
            )[..., None]
    return np.clip(out, 0, 255)


def _camera_effects(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """The light's colour and strength, lens blur, sensor noise and JPEG."""
    out = image * rng.uniform(0.8, 1.2, 3).astype(np.float32) * rng.uniform(0.35, 1.3)
    if rng.random() < 0.5:
        gamma = rng.uniform(0.7, 1.4)
        out = 255 * (np.clip(out, 0, 255) / 255) ** gamma
    if rng.random() < 0.7:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3))
    if rng.random() < 0.1:
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2] = 1.0 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                       rng.uniform(0, 180), 1)
        out = cv2.filter2D(out, -1, cv2.warpAffine(kernel, turn, (length, length)))
    out = out + rng.normal(0, rng.uniform(0, 9), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                              int(rng.integers(30, 96))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out


def rendered_sample(rng: np.random.Generator, patches: list[np.ndarray]) -> Sample | None:
    """One rendered window: a scene of dice round the middle, or none there."""
    size = SCENE * 2
    image = _background(rng, size, patches)
    wanted = rng.random()
    if wanted < 0.55:      # a die centred at the size read
        side = DIE * math.exp(rng.uniform(-math.log(SIZE_NEAR), math.log(SIZE_NEAR)))
        offset = rng.uniform(0, NEAR)
    elif wanted < 0.7:     # a die off the middle
        side = DIE * math.exp(rng.uniform(-math.log(SIZE_FAR), math.log(SIZE_FAR)))
        offset = rng.uniform(OFF, 1.3)
    elif wanted < 0.85:    # a die of another size in the middle: a large die's pips, a speck
        far = math.log(SIZE_FAR)
        side = DIE * (math.exp(rng.uniform(far, far + 1.7)) if rng.random() < 0.7
                      else math.exp(-rng.uniform(far, far + 1.0)))
        offset = rng.uniform(0, 0.5)
    else:                  # no die near
        side = DIE * math.exp(rng.uniform(-0.5, 0.5))
        offset = rng.uniform(1.6, 3.0)
    label = label_for(offset, side)
    if label is None:
        return None
    tilt = math.radians(rng.uniform(0, 60) if rng.random() < 0.8 else rng.uniform(0, 15))
    turn = rng.uniform(0, 2 * math.pi)
    scale = side    # pixels a unit in the supersampled scene, where a die is 2 units wide
    view = _View(tilt, turn, scale, (size / 2, size / 2))
    light = rng.normal(0, 1, 3)
    light[2] = abs(light[2]) + 0.6
    light /= np.linalg.norm(light)
    look = _random_look(rng)
    top, spin = int(rng.integers(1, 7)), int(rng.integers(0, 4))
    # the die stands where its top face's middle lands `offset` sides from the window's
    angle = rng.uniform(0, 2 * math.pi)
    target = np.array([math.cos(angle), math.sin(angle)]) * offset * side * 2
    lifted = view.project(np.array([[0.0, 0.0, 2.0]]))[0] - view.origin
    x, y = _on_table(view, target + view.origin - lifted)
    placed = [(x, y)]
    neighbours = int(rng.choice([0, 0, 1, 2, 3, 4]))
    for _ in range(neighbours):
        for _ in range(10):
            nx, ny = x + rng.uniform(-5, 5), y + rng.uniform(-5, 5)
            if all(math.hypot(nx - px, ny - py) > 2.5 for px, py in placed):
                placed.append((nx, ny))
                break
    # the furthest from the camera first
    order = sorted(range(len(placed)),
                   key=lambda k: float(view.rotation[2] @ np.array([*placed[k], 0.0])))
    for k in order:
        px, py = placed[k]
        this_look = look if k == 0 or rng.random() < 0.5 else _random_look(rng)
        _shadow(image, view, light, (px, py), rng)
        _draw_die(image, view, this_look, light, x=px, y=py, yaw=rng.uniform(0, math.pi / 2),
                  top=top if k == 0 else int(rng.integers(1, 7)),
                  spin=spin if k == 0 else int(rng.integers(0, 4)))
    if not label and rng.random() < 0.25:
        _hand(image, rng, side)
    image = cv2.resize(image, (SCENE, SCENE), interpolation=cv2.INTER_AREA)
    image = _camera_effects(rng, image)
    return Sample(_middle(prepare(image)), top if label else 0)


def _hand(image: np.ndarray, rng: np.random.Generator, side: float) -> None:
    """A hand reaching over the table: a palm and four or five fingers in a skin's colour,
    lit from one side; its knuckles and nails are no pips."""
    size = image.shape[0]
    skin = cv2.cvtColor(np.uint8([[[rng.uniform(5, 20), rng.uniform(60, 170),
                                    rng.uniform(90, 240)]]]), cv2.COLOR_HSV2BGR)[0, 0]
    layer = np.zeros(image.shape[:2], np.float32)
    palm = rng.uniform(0, size, 2)
    width = side * rng.uniform(2.0, 4.0)
    angle = rng.uniform(0, 2 * math.pi)
    cv2.ellipse(layer, (int(palm[0]), int(palm[1])), (int(width / 2), int(width * 0.6)),
                math.degrees(angle), 0, 360, 1.0, -1, cv2.LINE_AA)
    for k in range(int(rng.integers(4, 6))):
        spread = angle + (k - 2) * 0.3
        base = palm + width * 0.45 * np.array([math.cos(spread), math.sin(spread)])
        tip = base + width * rng.uniform(0.5, 0.9) * np.array([math.cos(spread),
                                                                 math.sin(spread)])
        cv2.line(layer, tuple(int(v) for v in base), tuple(int(v) for v in tip), 1.0,
                 max(2, int(width * 0.18)), cv2.LINE_AA)
    shade = cv2.GaussianBlur(layer, (0, 0), max(1.0, width * 0.08))
    lit = (0.75 + 0.35 * shade)[..., None] * skin.astype(np.float32)
    image[:] = image * (1 - layer[..., None]) + lit * layer[..., None]


def _on_table(view: _View, pixel: np.ndarray) -> tuple[float, float]:
    """The point of the table (z = 0) the view shows at `pixel`."""
    u, v = (pixel - view.origin) / view.scale
    # camera x = u, camera y = -v; a table point p has camera coordinates R p
    r = view.rotation
    a = np.array([[r[0, 0], r[0, 1]], [r[1, 0], r[1, 1]]])
    x, y = np.linalg.solve(a, np.array([u, -v]))
    return float(x), float(y)


def _shadow(image: np.ndarray, view: _View, light: np.ndarray, at: tuple[float, float],
            rng: np.random.Generator) -> None:
    """A die's soft shadow on the table, cast away from the light."""
    x, y = at
    reach = 2.0 * light[:2] / max(light[2], 0.3)
    base = np.array([[x - 1, y - 1, 0], [x + 1, y - 1, 0], [x + 1, y + 1, 0], [x - 1, y + 1, 0]])
    cast = base - np.array([reach[0], reach[1], 0]) * 0.7
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.fillPoly(mask, [np.round(view.project(np.vstack([base, cast]))).astype(np.int32)], 1.0)
    hull = cv2.convexHull(np.round(view.project(np.vstack([base, cast]))).astype(np.int32))
    cv2.fillPoly(mask, [hull], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, view.scale * 0.3))
    image *= (1 - rng.uniform(0.15, 0.5) * mask)[..., None]


def _middle(channels: np.ndarray) -> np.ndarray:
    start = (channels.shape[1] - WINDOW) // 2
    return channels[:, start:start + WINDOW, start:start + WINDOW].astype(np.float16)


# --- real photos -----------------------------------------------------------------------------

def _window(image: np.ndarray, centre: tuple[float, float], side: float, *, turn: float,
            flip: bool, die: float) -> np.ndarray:
    """A SCENE-wide view of `image` round `centre`, scaled so that `side` pixels become
    `die`, turned by `turn` degrees (and mirrored)."""
    k = die / side
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), turn, k)
    m[:, 2] += SCENE / 2 - np.array(centre, np.float64)
    if flip:
        m[0] = -m[0]
        m[0, 2] += SCENE
    interpolation = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (SCENE, SCENE), flags=interpolation,
                          borderMode=cv2.BORDER_REFLECT)


@dataclass(frozen=True)
class _Photo:
    """A labelled photo: its image, true dice, and each die's side and centre in pixels."""

    image: np.ndarray
    truth: list[TrueDie]
    sides: list[float]
    centres: list[tuple[float, float]]

    @classmethod
    def read(cls, name: str, path: Path, truth: list[TrueDie]) -> _Photo | None:
        """Photo `path` of set `name` with its true dice, or None where it cannot be read."""
        image = cv2.imread(str(path))
        if image is None:
            return None
        return cls(image, truth, die_sides(name, truth),
                   [((t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2) for t in truth])


def photo_samples(labelled: LabelledPhoto, seed: int, *, per_die: int = 24,
                  empty: int = 120) -> list[Sample]:
    """Windows of one labelled photo: each die `per_die` times at the size read (and as many
    again off centre or at another size), and `empty` windows of the photo anywhere. They are
    drawn from the photo's own stream (`seed` and its name), so that a photo gives the same
    windows whichever part it is read in and whichever worker reads it."""
    name, path, truth = labelled
    photo = _Photo.read(name, path, truth)
    if photo is None or not truth:
        return []
    rng = np.random.default_rng([seed, zlib.crc32(f"{name}/{path.name}".encode())])
    samples: list[Sample] = []
    for t, side, centre in zip(truth, photo.sides, photo.centres, strict=True):
        for _ in range(per_die):
            samples += _photo_window(rng, photo, centre, side, on_centre=True, value=t.value)
            samples += _photo_window(rng, photo, centre, side, on_centre=False, value=t.value)
    height, width = photo.image.shape[:2]
    for _ in range(empty):   # anywhere, at any size the reader looks for dice at
        centre = (rng.uniform(0, width), rng.uniform(0, height))
        side = math.exp(rng.uniform(math.log(10), math.log(min(height, width) / 3)))
        samples += _photo_window(rng, photo, centre, side, on_centre=False, value=0)
    return samples


def _photo_window(rng: np.random.Generator, photo: _Photo, centre: tuple[float, float],
                  side: float, *, on_centre: bool, value: int) -> Iterator[Sample]:
    """One window round `centre` of `photo`, where a die is `side` pixels wide: close round
    it at the size read (`on_centre`), else off a die or at another size (`value` > 0), else
    wherever it falls."""
    die = DIE * math.exp(rng.uniform(-math.log(SIZE_NEAR), math.log(SIZE_NEAR)))
    at = np.array(centre, np.float64)
    if on_centre:
        at += rng.normal(0, NEAR / 2.5, 2) * side
    elif value:
        if rng.random() < 0.6:
            angle = rng.uniform(0, 2 * math.pi)
            at += np.array([math.cos(angle), math.sin(angle)]) * rng.uniform(OFF, 1.2) * side
        else:
            far = math.log(SIZE_FAR)
            die = DIE * (math.exp(rng.uniform(far, far + 1.9)) if rng.random() < 0.7
                         else math.exp(-rng.uniform(far, far + 1.0)))
            at += rng.uniform(-0.4, 0.4, 2) * side   # anywhere on it: one of its pips
    label = _label_at(photo, (float(at[0]), float(at[1])), side, die)
    if label is None:
        return
    view = _window(photo.image, tuple(at), side, turn=rng.uniform(0, 360),
                   flip=rng.random() < 0.5, die=die)
    if rng.random() < 0.15:
        view = 255 - view
    view = _camera_effects(rng, view.astype(np.float32))
    yield Sample(_middle(prepare(view)), label)


def _label_at(photo: _Photo, at: tuple[float, float], side: float, die: float) -> int | None:
    """The class of a window round `at` that shows `side` pixels of the photo as `die`:
    judged against every true die, not only one it may have been drawn round."""
    scale = die / side
    label = 0
    for t, s, c in zip(photo.truth, photo.sides, photo.centres, strict=True):
        this = label_for(math.hypot(c[0] - at[0], c[1] - at[1]) / s, s * scale)
        if this is None:
            return None
        if this:
            label = t.value
    return label


def background_patches(count: int = 400, seed: int = 0) -> list[np.ndarray]:
    """Pieces of the training photos with no die in them, as table tops for rendered dice:
    from the "fit" part alone, so that rendered windows show nothing of the tuning photos and
    the same rendered windows serve a network fitted for tuning and one trained on all."""
    rng = np.random.default_rng(seed)
    patches: list[np.ndarray] = []
    photos = labelled_photos("fit")
    while len(patches) < count:
        name, path, truth = photos[int(rng.integers(len(photos)))]
        image = cv2.imread(str(path))
        height, width = image.shape[:2]
        side = int(rng.integers(40, min(height, width) // 2))
        x0, y0 = int(rng.integers(width - side)), int(rng.integers(height - side))
        sides = die_sides(name, truth)
        clear = all(t.box[2] + s * 0.5 < x0 or t.box[0] - s * 0.5 > x0 + side
                    or t.box[3] + s * 0.5 < y0 or t.box[1] - s * 0.5 > y0 + side
                    for t, s in zip(truth, sides, strict=True))
        if clear:
            patches.append(image[y0:y0 + side, x0:x0 + side].copy())
    return patches


def hard_negatives(model: Path, rng: np.random.Generator, *, part: str = "train",
                   copies: int = 3) -> Iterator[Sample]:
    """Windows of the photos of `part` where the network `model` sees a die and there is
    none (grain, a print, a speck), each `copies` times in other lights: the places a first
    network errs on, for the next to learn from."""
    for name, path, truth in labelled_photos(part):
        photo = _Photo.read(name, path, truth)
        if photo is None:
            continue
        scales = search_scales(photo.image.shape)
        for spot in merge(spots_at(photo.image, scales, least=0.5, model=model)):
            if _label_at(photo, (spot.x, spot.y), spot.side, DIE) != 0:
                continue
            for _ in range(copies):
                yield from _photo_window(rng, photo, (spot.x, spot.y), spot.side,
                                         on_centre=True, value=0)
