"""Die colours: a measure of colour that shading changes little, and the nearest reference.

A die's colour is compared by chromaticity (the share of red and green in the light it sends
back) with a weak term for brightness, so a die half in shadow keeps its colour while white and
grey, or yellow and orange, stay apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

_CHROMA_SCALE = 0.03
_BRIGHTNESS_SCALE = 0.45
#: a reference farther than this (in scaled units) is no match at all
MAX_DISTANCE = 4.0


#: the log brightness of every sum of a pixel's three bytes (0 to 765), plus 3
_LOG_TOTALS = np.log(np.arange(3.0, 3 * 255 + 4))


def colour_feature(bgr: np.ndarray) -> np.ndarray:
    """(r, g chromaticity, log brightness) of BGR values (..., 3) in 0..255. A frame's bytes
    take their log brightness from a table of every sum (the same values, without a frame
    of doubles made first or a log taken a pixel)."""
    bgr = np.asarray(bgr)
    if bgr.dtype == np.uint8:
        sums = across_channels(np.add, bgr, np.intp)
        out = np.empty(bgr.shape, np.float64)
        total = sums + 3.0
        np.divide(bgr[..., 2] + 1.0, total, out=out[..., 0])
        np.divide(bgr[..., 1] + 1.0, total, out=out[..., 1])
        out[..., 2] = _LOG_TOTALS[sums]
        return out
    bgr = bgr.astype(np.float64)
    total = across_channels(np.add, bgr) + 3.0
    r = (bgr[..., 2] + 1.0) / total
    g = (bgr[..., 1] + 1.0) / total
    return np.stack([r, g, np.log(total)], axis=-1)


def across_channels(combine: np.ufunc, image: np.ndarray, dtype: type | None = None
                    ) -> np.ndarray:
    """The channels of `image` (..., C) combined pixel by pixel with `combine` (np.add,
    np.maximum, np.logical_or), the first taken as `dtype` if given: one channel after
    another, because NumPy's sum, max or any over an axis of three takes five to twenty
    times as long (a frame's colour features spent three quarters of their time summing)."""
    out = image[..., 0] if dtype is None else image[..., 0].astype(dtype)
    for channel in range(1, image.shape[-1]):
        out = combine(out, image[..., channel])
    return out


def as_bgr(values: Iterable[float]) -> tuple[float, float, float]:
    """Three floats from an array or sequence of exactly three: a colour (or a gain per
    channel) with a type that says it has three, where `tuple(...)` says any number."""
    b, g, r = (float(v) for v in values)
    return b, g, r


def colour_parts(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far colour features lie apart in chromaticity and in brightness, each in
    `colour_distance`'s units (which is the two taken together): a die painted in another
    shade moves the first, a shadow mostly the second."""
    d = np.asarray(a) - np.asarray(b)
    return np.hypot(d[..., 0], d[..., 1]) / _CHROMA_SCALE, np.abs(d[..., 2]) / _BRIGHTNESS_SCALE


def colour_distance(a: np.ndarray, b: np.ndarray, *, shading: float = 1.0,
                    noise: float = 0.0) -> np.ndarray:
    """Distance between colour features, in units of ordinary variation under one light;
    `shading` times as much variation in brightness is ordinary where the faces compared
    may turn to the light differently (a camel's sides). With `noise` (grey levels in a
    channel), a dark colour's chromaticity may vary as much as that noise moves it: the
    chromaticity of black is mostly noise and the light's tint."""
    a, b = np.asarray(a), np.asarray(b)
    d = a - b
    chroma = _CHROMA_SCALE ** 2
    if noise:   # a feature's third part is the log of its sum, so exp(-2 x) is 1 / sum²
        chroma = chroma + noise ** 2 * (np.exp(-2 * a[..., 2]) + np.exp(-2 * b[..., 2]))
    return np.sqrt((d[..., 0] ** 2 + d[..., 1] ** 2) / chroma
                   + (d[..., 2] / (_BRIGHTNESS_SCALE * shading)) ** 2)


@dataclass(frozen=True)
class ColourMatch:
    colour: str | None
    confidence: float


@dataclass(frozen=True)
class DiceColours:
    """Reference colours of a game's dice (BGR 0..255), nominal or learned under a table's light."""

    references: Mapping[str, tuple[float, float, float]]

    def match(self, bgr: np.ndarray, *, noise: float = 0.0) -> ColourMatch:
        """The nearest die colour and how sure that is (0 when nothing is near); `noise` as
        colour_distance's."""
        names = list(self.references)
        feats = colour_feature(np.array([self.references[n] for n in names]))
        d = colour_distance(colour_feature(bgr)[None], feats, noise=noise)
        order = np.argsort(d)
        best = float(d[order[0]])
        if best > MAX_DISTANCE:
            return ColourMatch(None, 0.0)
        second = float(d[order[1]]) if len(order) > 1 else 4 * MAX_DISTANCE
        separation = (second - best) / max(second, 1e-9)
        closeness = 1.0 - max(0.0, best - 1.5) / (MAX_DISTANCE - 1.5)
        return ColourMatch(names[order[0]], float(min(1.0, 2.0 * separation, closeness)))
