"""Pip candidates: small, round, high-contrast blobs, dark or light, on a uniform surface.

A pip is found as a connected blob of pixels darker (or lighter) than the local mean, then
measured by its second moments (an ellipse: a round pip seen at an angle), its contrast against
a ring of surface around it, and how uniform that ring is. Everything is vectorised over the
blobs: a frame of wood grain can hold hundreds of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

DARK = -1
LIGHT = 1

_RING = 24
_RUN = 10
_ANGLES = np.linspace(0.0, 2.0 * np.pi, _RING, endpoint=False)
_COS = np.cos(_ANGLES)
_SIN = np.sin(_ANGLES)


@dataclass(frozen=True)
class Pips:
    """Pip candidates, one row per blob, in the pixel coordinates of the image searched.

    `major`/`minor` are the ellipse's full axes, `angle` the major axis's direction (radians),
    `polarity` DARK or LIGHT, `contrast` how far the blob is from its `surface` (always > 0),
    `ring_spread` half the spread of the ring's values that make up `surface` (the tightest run
    of ten in 24 about the median: a ring partly off the face still finds it), and `fill` the
    blob's area over its ellipse's (about 1 for a clean pip, less for two pips run together).
    The outline runs out into a pip's blur, the further the stronger the pip: centre, `angle`
    and roundness (`minor` / `major`) are measured at its core (half way from the surface to
    its peak), and so is `core`, the core's longest diameter, by which pips are alike in size.
    """

    x: np.ndarray
    y: np.ndarray
    major: np.ndarray
    minor: np.ndarray
    angle: np.ndarray
    polarity: np.ndarray
    contrast: np.ndarray
    surface: np.ndarray
    ring_spread: np.ndarray
    fill: np.ndarray
    core: np.ndarray

    def __len__(self) -> int:
        return len(self.x)

    @property
    def roundness(self) -> np.ndarray:
        return self.minor / self.major

    def take(self, index: np.ndarray) -> Pips:
        return Pips(*(getattr(self, f)[index] for f in self.__dataclass_fields__))

    def scaled(self, factor: float) -> Pips:
        """The same pips in an image `factor` times larger."""
        return Pips(self.x * factor, self.y * factor, self.major * factor,
                    self.minor * factor, self.angle, self.polarity, self.contrast, self.surface,
                    self.ring_spread, self.fill, self.core * factor)

    def shape_covariance(self, index: np.ndarray) -> np.ndarray:
        """The mean second-moment matrix of the pips at `index` (2x2)."""
        a, b, t = self.major[index] / 4.0, self.minor[index] / 4.0, self.angle[index]
        c, s = np.cos(t), np.sin(t)
        xx = (a * a * c * c + b * b * s * s).mean()
        yy = (a * a * s * s + b * b * c * c).mean()
        xy = ((a * a - b * b) * c * s).mean()
        return np.array([[xx, xy], [xy, yy]])


def concat_pips(parts: list[Pips]) -> Pips:
    fields = Pips.__dataclass_fields__
    if not parts:
        return Pips(*(np.zeros(0) for _ in fields))
    return Pips(*(np.concatenate([getattr(p, f) for p in parts]) for f in fields))


def find_pips(gray: np.ndarray, window: int, *, min_contrast: float = 15.0,
              min_diameter: float = 2.5) -> Pips:
    """Pip candidates in `gray` (float32, lightly blurred) no wider than about `window` / 2.

    `window` is the side of the local-mean box; it should be about a die face's width, so that
    the mean is mostly the face's surface.
    """
    window |= 1
    mean = cv2.blur(gray, (window, window))
    element = cv2.getStructuringElement(cv2.MORPH_RECT, (window // 2 | 1,) * 2)
    levels = gray.astype(np.uint8)
    found = []
    for polarity in (DARK, LIGHT):
        diff = (mean - gray) if polarity == DARK else (gray - mean)
        sizes = {"min_contrast": min_contrast, "min_diameter": min_diameter,
                 "max_diameter": window / 2.0}
        loose = _blobs(gray, diff, polarity, threshold=8.0, **sizes)
        # pips set close together run into one blob at a loose threshold, and so does a face
        # standing out from the table with its pips: a stricter one parts them. The mean of
        # such a face (a grey die on dark felt, an orange one on pale wood) lies between it and
        # the table, so the face would still stand out from it; an opening (closing) of pip
        # size takes the pips out and leaves the face, the surface they stand out from where
        # it lies beyond the mean
        # (in whole grey levels, which OpenCV does several times faster)
        faces = cv2.morphologyEx(levels, cv2.MORPH_CLOSE if polarity == DARK
                                 else cv2.MORPH_OPEN, element).astype(np.float32)
        if polarity == DARK:
            parted = np.minimum(mean, faces) - gray
        else:
            parted = gray - np.maximum(mean, faces)
        strict = _blobs(gray, parted, polarity, threshold=24.0, **sizes)
        if len(loose) and len(strict):
            # one pip found twice: keep the loose outline (it holds the whole pip) unless it
            # is much larger than the strict one, having run into the face's edge or a shadow
            d = np.hypot(strict.x[:, None] - loose.x[None], strict.y[:, None] - loose.y[None])
            same = d < 0.5 * loose.major[None]
            swollen = loose.major[None] > 1.4 * strict.major[:, None]
            loose = loose.take(~(same & swollen).any(axis=0))
            strict = strict.take(~(same & ~swollen).any(axis=1))
        found += [loose, strict]
    return concat_pips(found)


def _blobs(gray: np.ndarray, diff: np.ndarray, polarity: int, *, threshold: float,
           min_contrast: float, min_diameter: float, max_diameter: float) -> Pips:
    low = diff > threshold
    # components without OpenCV's statistics, which cost ten times the labelling: areas come
    # from a count over the blobs' own pixels, and shape from the moments below (block-based
    # labelling, the fastest here, numbers the components just as the default does)
    n, labels = cv2.connectedComponentsWithAlgorithm(low.view(np.uint8), 8, cv2.CV_32S,
                                                     cv2.CCL_BBDT)
    if n <= 1:
        return concat_pips([])
    # the blobs' pixels by their place in the flattened image: a flat lookup is several
    # times faster than one by row and column
    at = np.flatnonzero(low)
    lab = labels.ravel().take(at)
    depth = diff.ravel().take(at)
    area = np.bincount(lab, minlength=n)
    has_core = np.bincount(lab[depth > min_contrast], minlength=n) > 0
    keep = (has_core & (area >= 0.6 * min_diameter ** 2)
            & (area <= np.pi / 4 * (1.2 * max_diameter) ** 2))
    keep[0] = False
    index = np.nonzero(keep)[0]
    if len(index) == 0:
        return concat_pips([])

    chosen = keep[lab]
    at, lab, depth = at[chosen], lab[chosen], depth[chosen]
    shade = gray.ravel().take(at).astype(np.float64)
    row, column = np.divmod(at, gray.shape[1])
    xs = column.astype(np.float64)
    ys = row.astype(np.float64)
    count = area[index].astype(np.float64)

    def moment(weights: np.ndarray) -> np.ndarray:
        return np.bincount(lab, weights, minlength=n)[index] / count

    mx, my = moment(xs), moment(ys)
    cxx = moment(xs * xs) - mx * mx + 1.0 / 12.0
    cyy = moment(ys * ys) - my * my + 1.0 / 12.0
    cxy = moment(xs * ys) - mx * my
    # a pip's shade is that of its core (above half its peak): the blurred rim round a small
    # pip would water it down, the more so the larger the rim
    peak = np.zeros(n, np.float32)
    np.maximum.at(peak, lab, depth)
    strong = (depth >= 0.5 * peak[lab]).astype(np.float64)
    inside = (np.bincount(lab, strong * shade, minlength=n)[index]
              / np.bincount(lab, strong, minlength=n)[index])
    half_trace = (cxx + cyy) / 2.0
    disc = np.sqrt(np.maximum(half_trace ** 2 - (cxx * cyy - cxy * cxy), 0.0))
    major = 4.0 * np.sqrt(half_trace + disc)
    minor = 4.0 * np.sqrt(np.maximum(half_trace - disc, 1e-6))
    angle = 0.5 * np.arctan2(2.0 * cxy, cxx - cyy)
    fill = count / (np.pi / 4.0 * major * minor)

    surface, spread = _surface(gray, mx, my, 0.55 * major + 1.0)
    contrast = polarity * (inside - surface)
    # only blobs shaped like a pip and standing out from a surface are measured further
    like = (np.isfinite(surface) & (contrast >= min_contrast) & (fill >= 0.8)
            & (major <= 1.2 * max_diameter) & (major <= 3.5 * minor))
    if not like.any():
        return concat_pips([])
    blobs = np.zeros(n, bool)
    blobs[index[like]] = True
    pixels = blobs[lab]
    index, mx, my, major, minor, angle, fill, inside, surface, spread = (
        a[like] for a in (index, mx, my, major, minor, angle, fill, inside, surface, spread))
    # measured at the core, pips of one face are alike in size and shape however they stand
    # out, and a flat one looks flat
    cx, cy, size, roundness, angle_, measured = _core_shape(
        polarity, surface, lab=lab[pixels], xs=xs[pixels], ys=ys[pixels],
        shade=shade[pixels], index=index)
    mx, my = np.where(measured, cx, mx), np.where(measured, cy, my)
    minor = np.where(measured, major * roundness, minor)
    angle = np.where(measured, angle_, angle)
    size = np.where(measured, size, major)
    # a strong pip's outline runs far into its blur, and a ring round it, at a face's corner,
    # runs off the face: where the core says the pip is much smaller, look again closer in
    closer = measured & (0.75 * size + 1.5 < 0.55 * major + 1.0)
    if closer.any():
        near, near_spread = _surface(gray, mx[closer], my[closer], 0.75 * size[closer] + 1.5)
        surface[closer], spread[closer] = near, near_spread
    contrast = polarity * (inside - surface)
    ok = np.isfinite(surface) & (contrast >= min_contrast) & (contrast >= 4.5 * spread)
    pol = np.full(len(index), float(polarity))
    return Pips(mx, my, major, minor, angle, pol, contrast, surface, spread, fill,
                size).take(ok)


def _surface(gray: np.ndarray, x: np.ndarray, y: np.ndarray, radius: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """The surface's shade round each blob, from a ring of `radius` round (x, y), and half the
    spread of the values it is made of (NaN where the ring runs off the image)."""
    height, width = gray.shape
    px = np.rint(x[:, None] + radius[:, None] * _COS).astype(np.intp)
    py = np.rint(y[:, None] + radius[:, None] * _SIN).astype(np.intp)
    inside_image = (px >= 0) & (py >= 0) & (px < width) & (py < height)
    ring = gray[np.clip(py, 0, height - 1), np.clip(px, 0, width - 1)].astype(np.float64)
    # off the image: values that can never join a tight run
    ring[~inside_image] = 1e6 + np.arange(_RING)[None, :].repeat(len(ring), 0)[~inside_image]
    # the surface is the tightest run of _RUN ring values about the median: a corner pip's ring
    # runs partly off its face (onto a side face or the table), and the face holds together
    ring.sort(axis=1)
    lowest = _RING // 2 - _RUN + 1  # every run considered holds the ring's median
    spans = ring[:, lowest + _RUN - 1:_RING // 2 + _RUN] - ring[:, lowest:_RING // 2 + 1]
    first = spans.argmin(axis=1) + lowest
    rows = np.arange(len(ring))
    window = ring[rows[:, None], first[:, None] + np.arange(_RUN)[None, :]]
    surface = np.where(window[:, -1] < 1e6, window.mean(axis=1), np.nan)
    return surface, spans[rows, first - lowest] / 2.0


def _core_shape(polarity: int, surface: np.ndarray, *, lab: np.ndarray, xs: np.ndarray,
                ys: np.ndarray, shade: np.ndarray, index: np.ndarray
                ) -> tuple[np.ndarray, ...]:
    """Centre (x, y), longest diameter, roundness and major-axis direction of each blob's
    core, and whether it could be measured: the blob's pixels (at `xs`, `ys`, of `shade`)
    weighted by how far they lie from the `surface` towards its peak (none below a quarter of
    the way, fully from three quarters on, so the core's outline lies half way, to a fraction
    of a pixel). A core of under three pixels is not measured."""
    n = len(index)
    slot = np.zeros(int(lab.max()) + 1, np.intp)
    slot[index] = np.arange(n)
    k = slot[lab]
    shade = polarity * shade
    peak = np.full(n, -np.inf)
    np.maximum.at(peak, k, shade)
    base = np.where(np.isfinite(surface), polarity * surface, peak)
    t = (shade - base[k]) / np.maximum(peak[k] - base[k], 1e-6)
    weight = np.clip(2.0 * t - 0.5, 0.0, 1.0)
    total = np.bincount(k, weight, minlength=n)
    measured = total >= 3.0
    total = np.maximum(total, 1e-9)

    def moment(v: np.ndarray) -> np.ndarray:
        return np.bincount(k, weight * v, minlength=n) / total

    mx, my = moment(xs), moment(ys)
    cxx = moment(xs * xs) - mx * mx + 1.0 / 12.0
    cyy = moment(ys * ys) - my * my + 1.0 / 12.0
    cxy = moment(xs * ys) - mx * my
    half_trace = (cxx + cyy) / 2.0
    disc = np.sqrt(np.maximum(half_trace ** 2 - (cxx * cyy - cxy * cxy), 0.0))
    longest = np.maximum(half_trace + disc, 1e-6)
    roundness = np.sqrt(np.maximum(half_trace - disc, 1e-6) / longest)
    angle = 0.5 * np.arctan2(2.0 * cxy, cxx - cyy)
    return mx, my, 4.0 * np.sqrt(longest), roundness, angle, measured
