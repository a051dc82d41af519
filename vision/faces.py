"""Die faces read from pip candidates: which pips share a face, and what that face shows.

Pips of one face have the same size, the same foreshortening (a die face is flat), the same
polarity, and unbroken face surface between them. Every standard pip pattern is point-symmetric
on a 3x3 grid, so once the pips are put back into a frame where they are round again (whitened
by their mean ellipse) a face is a similarity transform of one canonical layout. The value is
then read from the grid itself: each of the nine cells is sampled and called pip or surface, so
a pip the candidate finder missed still counts, and a pattern that is not a die's is refused.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.colours import colour_feature
from vision.pips import Pips

#: where n found pips may sit on the 3x3 grid (corner cells at +-1+-1j), one orientation
#: each: the whole pattern of n pips first, then patterns of more pips with some not found
#: (a missed pip is still read from the grid)
LAYOUTS = {
    2: (np.array([1 + 1j, -1 - 1j]), np.array([1 + 1j, 1 - 1j])),
    3: (np.array([1 + 1j, 0, -1 - 1j]), np.array([1 + 1j, 1 - 1j, -1 + 1j])),
    4: (np.array([1 + 1j, 1 - 1j, -1 + 1j, -1 - 1j]), np.array([1 + 1j, 1 - 1j, -1 + 1j, 0])),
    5: (np.array([1 + 1j, 1 - 1j, -1 + 1j, -1 - 1j, 0]),
        np.array([1 + 1j, 1, 1 - 1j, -1 + 1j, -1])),
    6: (np.array([1 + 1j, 1, 1 - 1j, -1 + 1j, -1, -1 - 1j]),),
}
PERMUTATIONS = {n: np.array(list(itertools.permutations(range(n)))) for n in LAYOUTS}
_ROW_SPACINGS = (0.7, 0.8, 0.9, 1.0, 1.12, 1.25)
#: a one's pip may be no flatter than this (its shape measured at its core, not its blur)
_MIN_LONE_ROUNDNESS = 0.65
#: how unevenly a one's face may end either side of it (|far - near| / (far + near), mean)
_MAX_LOPSIDED = 0.25
#: in how many of 8 directions the edge of a face of four pips or more must show at least
_PATTERN_EDGES = 4
#: how much rounder, and how much brighter round it (a share), one pip of a pair may be than
#: the other and still lie on one face with it (see _on_two_faces)
_PAIR_ROUNDER = 0.12
_PAIR_BRIGHTER = 0.1
#: how far the colour (red and green shares of the light) must stray from a face's for the
#: face to end there: ordinary variation under one light is about 0.03
COLOUR_EDGE = 0.08
#: how far a face reaches from its centre, in grid steps (its corner cells are at 1)
_FACE_REACH = 1.75
#: how far a point may lie from a face's centre, in grid steps, and still be on it
_ON_FACE = 1.6
#: how much a shadow may darken part of a face (a hand's over the table takes about 40%)
_SHADOW = 0.45
#: a face read less surely than this is read again against its own shade where a shadow
#: may fall (see read_face)
UNSURE = 0.5


def _occupancy_patterns() -> dict[bytes, int]:
    """Every 3x3 pip occupancy a die face can show, mapped to its value."""
    corners = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    cells = {
        1: [[(0, 0)]],
        2: [[(1, 1), (-1, -1)], [(1, -1), (-1, 1)]],
        3: [[(1, 1), (-1, -1), (0, 0)], [(1, -1), (-1, 1), (0, 0)]],
        4: [corners],
        5: [[*corners, (0, 0)]],
        6: [[*corners, (1, 0), (-1, 0)], [*corners, (0, 1), (0, -1)]],
    }
    patterns = {}
    for value, variants in cells.items():
        for variant in variants:
            grid = np.zeros((3, 3), bool)
            for i, j in variant:
                grid[i + 1, j + 1] = True
            patterns[grid.tobytes()] = value
    return patterns


PATTERNS = _occupancy_patterns()
CELLS = np.array([i + 1j * j for i in (-1, 0, 1) for j in (-1, 0, 1)])
CELL_SPOTS = np.array([0, 0.15, -0.15, 0.15j, -0.15j])
#: points of bare face between and around the pip cells, in grid units
SURFACE_SPOTS = np.array(
    [s * 0.5 + 1j * t * 0.5 for s in (-1, 1) for t in (-1, 1)]
    + [s * 1.45 + 1j * t for s in (-1, 1) for t in (-1.45, -0.5, 0.5, 1.45)]
    + [t + 1j * s * 1.45 for s in (-1, 1) for t in (-0.5, 0.5)])
_RING_ANGLES = np.exp(1j * np.linspace(0, 2 * np.pi, 24, endpoint=False))
_EDGE_DIRECTIONS = np.exp(1j * np.linspace(0, 2 * np.pi, 8, endpoint=False))


@dataclass(frozen=True)
class FewPips:
    """How much one or two pips must stand out (contrast, grey levels) and how big they must be
    (pixels) to be read as a face, and in how many of 8 directions a face's edge must show:
    a larger pattern vouches for itself, but wood grain and specks make round dots too, and
    pairs of them. Where the dice's size is known (a calibrated table) a pip of the right size
    needs less, and a die whose sides match the table may hide some of its edges; `centred`
    says whether a one must show by its face's edges that it sits in the middle of its face
    (on a calibrated table the reader checks that at a die's own size instead)."""

    contrast: float = 30.0
    size: float = 4.5
    edges: int = 6
    centred: bool = True

    def edges_for(self, pips: int) -> int:
        """In how many directions the edge of a face of `pips` pips must show: four pips or
        more make a pattern no grain or speck does, and half the directions will do (a white
        face beside its own sides, on a pale table, may show no edge towards them)."""
        return self.edges if pips <= 3 else min(self.edges, _PATTERN_EDGES)


@dataclass(frozen=True)
class Face:
    """One die face read from its pips, in the pixel coordinates of the image it was read in.

    `u` and `v` are the grid's basis (the step from the centre cell to the next) in pixels;
    `outline` is the face's edge found by scanning outwards (8 points); `surface_points` are
    spots of bare face, for its colour; `roundness` is its pips' mean minor/major ratio.
    """

    value: int
    centre: tuple[float, float]
    u: tuple[float, float]
    v: tuple[float, float]
    outline: np.ndarray
    surface_points: np.ndarray
    polarity: int
    roundness: float
    minor_direction: float
    pip_size: float
    contrast: float
    surface: float
    pips: int
    confidence: float

    def scaled(self, factor: float) -> Face:
        """The same face in an image `factor` times larger."""
        return Face(self.value, (self.centre[0] * factor, self.centre[1] * factor),
                    (self.u[0] * factor, self.u[1] * factor),
                    (self.v[0] * factor, self.v[1] * factor), self.outline * factor,
                    self.surface_points * factor, self.polarity, self.roundness,
                    self.minor_direction, self.pip_size * factor, self.contrast, self.surface,
                    self.pips, self.confidence)

    @property
    def half_width(self) -> float:
        """Half the face's width in pixels, from its outline."""
        c = np.array(self.centre)
        return _median(np.hypot(*(self.outline - c).T)) / 1.15


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


def group_pips(pips: Pips, gray: np.ndarray, *, shaded: bool = False) -> list[list[int]]:
    """Sets of pips that may share a face: alike, near, and joined by unbroken surface. With
    `shaded`, a shadow's edge may also lie between them (see read_faces)."""
    n = len(pips)
    if n == 0:
        return []
    i, j = _pairs_within(pips.x, 6.0 * pips.major.max())
    dx = pips.x[j] - pips.x[i]
    dy = pips.y[j] - pips.y[i]
    big = np.maximum(pips.major[i], pips.major[j])
    con = np.minimum(pips.contrast[i], pips.contrast[j])
    rnd = pips.roundness
    # small pips' contrast is measured roughly (a pixel more or less): allow it more spread;
    # their shape is measured at the core, as closely as a large pip's
    small = big < 7.0
    spread = np.where(small, 0.4, 0.25)
    near = ((pips.polarity[i] == pips.polarity[j]) & (np.hypot(dx, dy) < 6.0 * big)
            & (np.abs(pips.core[i] - pips.core[j])
               <= np.maximum(0.375 * np.maximum(pips.core[i], pips.core[j]), 2.0))
            & (np.abs(rnd[i] - rnd[j]) <= 0.2))
    even = (near & (np.abs(pips.contrast[i] - pips.contrast[j])
                    <= spread * np.maximum(pips.contrast[i], pips.contrast[j]))
            & (np.abs(pips.surface[i] - pips.surface[j]) <= 0.35 * con))
    # a shadow across a face darkens a pip with the face round it: such a pair stands out
    # from its surface by the same share, and is as round (a side face is darker too, and
    # its pips flatter)
    share_i = pips.contrast[i] / np.maximum(pips.surface[i], 10.0)
    share_j = pips.contrast[j] / np.maximum(pips.surface[j], 10.0)
    shadowed = (near & ~even & shaded & (np.abs(rnd[i] - rnd[j]) <= 0.08)
                & (np.abs(share_i - share_j) <= 0.4 * np.maximum(share_i, share_j)))
    keep = even | shadowed
    i, j, dx, dy = i[keep], j[keep], dx[keep], dy[keep]
    if len(i):
        # distance in pip diameters, in the frame where the pair's pips are round
        a = (pips.major[i] + pips.major[j]) / 8.0
        b = (pips.minor[i] + pips.minor[j]) / 8.0
        t = np.arctan2(np.sin(2 * pips.angle[i]) + np.sin(2 * pips.angle[j]),
                       np.cos(2 * pips.angle[i]) + np.cos(2 * pips.angle[j])) / 2
        along = dx * np.cos(t) + dy * np.sin(t)
        across = -dx * np.sin(t) + dy * np.cos(t)
        dist = np.hypot(along / a, across / b) / 4.0
        ok = dist <= 5.5
        i, j = i[ok], j[ok]
    if len(i):
        ok = _joined_by_surface(pips, gray, i, j)
        i, j = i[ok], j[ok]
    parent = list(range(n))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for a_, b_ in zip(i.tolist(), j.tolist(), strict=True):
        parent[root(a_)] = root(b_)
    groups: dict[int, list[int]] = {}
    for k in range(n):
        groups.setdefault(root(k), []).append(k)
    return list(groups.values())


def _pairs_within(x: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j), i before j, whose x lie within `reach`: a sweep along x, so a frame
    full of specks does not cost a pair for every two of them."""
    order = np.argsort(x, kind="stable")
    xs = x[order]
    ends = np.searchsorted(xs, xs + reach, side="right")
    counts = ends - np.arange(len(xs)) - 1
    first = np.repeat(np.arange(len(xs)), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    second = np.arange(counts.sum()) - starts + first + 1
    a, b = order[first], order[second]
    return np.minimum(a, b), np.maximum(a, b)


def _joined_by_surface(pips: Pips, gray: np.ndarray, i: np.ndarray, j: np.ndarray
                       ) -> np.ndarray:
    """For each pair, whether the straight path between the pips stays on one surface: its
    shade keeps between the two pips' surfaces (a face may be lit unevenly, or a shadow's edge
    may cross it, and a pip's surface is measured roughly where its ring runs off the face)."""
    steps = 10
    length = np.maximum(np.hypot(pips.x[j] - pips.x[i], pips.y[j] - pips.y[i]), 1e-6)
    start = np.minimum((0.5 * pips.major[i] + 1.5) / length, 0.5)[:, None]
    stop = np.maximum(1 - (0.5 * pips.major[j] + 1.5) / length, start[:, 0])[:, None]
    t = start + np.linspace(0, 1, steps)[None, :] * (stop - start)
    xs = pips.x[i][:, None] + t * (pips.x[j] - pips.x[i])[:, None]
    ys = pips.y[i][:, None] + t * (pips.y[j] - pips.y[i])[:, None]
    values = bilinear(gray, xs, ys)
    con = np.minimum(pips.contrast[i], pips.contrast[j])
    noise = np.maximum(pips.ring_spread[i], pips.ring_spread[j])
    tolerance = np.maximum(np.maximum(0.15 * con, 8.0), 2.5 * noise)[:, None]
    low = np.minimum(pips.surface[i], pips.surface[j])[:, None]
    high = np.maximum(pips.surface[i], pips.surface[j])[:, None]
    off = (values < low - tolerance) | (values > high + tolerance)
    # pips set so close that they touch (large pips on a small die) leave no surface between
    # them, only their joined blur: there the path may only not stray away from the pips
    touching = ((stop - start)[:, 0] * length < 1.0)
    if touching.any():
        toward = pips.polarity[i][:, None] * (values - (low + high) / 2) >= -tolerance
        off[touching] = ~toward[touching]
    # a speck on a textured face is one sample; an edge between faces or dice is a run
    return (off.sum(axis=1) <= 1) & ~(off[:, 1:] & off[:, :-1]).any(axis=1)


def read_faces(pips: Pips, gray: np.ndarray, few: FewPips = FewPips(), *,
               colour: np.ndarray | None = None, shaded: bool = False) -> list[Face]:
    """Every face that can be read from `pips`, splitting groups that hold more than one.
    With `colour` (the BGR image `gray` was made from, at its size) a face also ends where
    the colour changes: a blue face on green felt may be as bright as the felt. With `shaded`
    a shadow's edge (a hand's, held over the table) may cross a face: its pips are grouped
    across it and read against the face's own shade (see Shade)."""
    faces = []
    for group in group_pips(pips, gray, shaded=shaded):
        faces.extend(_read_group(pips, group, gray, few, 0, colour=colour, shaded=shaded))
    return faces


def _read_group(pips: Pips, group: list[int], gray: np.ndarray, few: FewPips,
                depth: int, *, colour: np.ndarray | None = None,
                shaded: bool = False) -> list[Face]:
    """The faces in `group`, splitting it when it holds more than one: first by roundness (a
    side face's pips are flatter than the top's), then by position, then by leaving out one
    pip. A face read from part of a group must have none of the rest lying on it, and a single
    pip split off is read as a one only when the rest were clearly flatter: a lone pip of a two
    or three must never pass for a one."""
    face = read_face(pips, group, gray, few, colour=colour, shaded=shaded)
    if face is not None:
        return [face]
    if len(group) < 2 or depth > 2:
        return []
    found: list[Face] = []
    index = np.array(group)
    roundness = pips.roundness[index]
    order = np.argsort(roundness)
    gaps = np.diff(roundness[order])
    k = int(np.argmax(gaps))
    if gaps[k] >= 0.06:
        rounder = index[order[k + 1:]].tolist()
        flatter = index[order[:k + 1]].tolist()
        for part, single_ok in ((rounder, gaps[k] >= 0.12), (flatter, False)):
            if len(part) > 1 or single_ok:
                found += _read_group(pips, part, gray, few, depth + 1, colour=colour,
                                     shaded=shaded)
    if not found and len(group) >= 4:
        left, right = _split_in_two(np.stack([pips.x[index], pips.y[index]], 1))
        for part in (left, right):
            if len(part) > 1:
                found += _read_group(pips, index[part].tolist(), gray, few, depth + 1,
                                     colour=colour, shaded=shaded)
    most = max((f.pips for f in found), default=0)
    if 3 <= len(group) <= 7 and most < len(group) - 1:
        # leave one pip out: one that looks unlike the rest, or any one when the splits
        # read fewer pips than the rest hold (a side face's pip, as round as the top's, drew
        # a wrong split)
        for k in range(len(group)):
            if not found and not _stands_out(pips, group[k], group[:k] + group[k + 1:]):
                continue
            face = read_face(pips, group[:k] + group[k + 1:], gray, few, colour=colour,
                             shaded=shaded)
            if face is not None and clear_of(face, pips, group):
                found = [face]
                break
    return [f for f in found if clear_of(f, pips, group)]


def _on_two_faces(pips: Pips, pair: np.ndarray) -> bool:
    """Whether the two pips at `pair` lie on two faces of a die, not on one face showing two:
    one is clearly flatter (seen more obliquely) and lies on a face lit differently, as a
    side face's pip beside a top face's does. Either alone is no sign: a two's pips may be
    measured unlike in roundness, and a shadow's edge may fall between them."""
    roundness, surface = pips.roundness[pair], pips.surface[pair]
    return bool(np.ptp(roundness) >= _PAIR_ROUNDER
                and np.ptp(surface) >= _PAIR_BRIGHTER * surface.max())


def _stands_out(pips: Pips, k: int, rest: list[int]) -> bool:
    """Whether pip `k` looks unlike the `rest` (flatter, larger or smaller, fainter or
    stronger): only such a pip may be left out of a group to read the rest."""
    rest_ = np.array(rest)
    return bool(abs(pips.roundness[k] - pips.roundness[rest_].mean()) >= 0.08
                or abs(np.log(pips.major[k] / pips.major[rest_].mean())) >= 0.22
                or abs(np.log(pips.contrast[k] / pips.contrast[rest_].mean())) >= 0.18)


def clear_of(face: Face, pips: Pips, group: list[int]) -> bool:
    """Whether no pip of `group` but the face's own lies on the face."""
    on = _grid_reach(face, pips.x[group], pips.y[group]) < _FACE_REACH
    return int(on.sum()) <= face.pips


def off_faces(pips: Pips, faces: list[Face]) -> Pips:
    """The `pips` that lie on none of `faces`, within their outer cells and a little more."""
    off = np.ones(len(pips), bool)
    for face in faces:
        off &= _grid_reach(face, pips.x, pips.y) >= _ON_FACE
    return pips.take(off)


def _grid_reach(face: Face, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """How far each point (xs, ys) lies from `face`'s centre, in grid steps along whichever
    of its axes it lies further (the corner cells are at 1)."""
    basis = np.array([face.u, face.v]).T
    offsets = np.stack([xs - face.centre[0], ys - face.centre[1]])
    return np.abs(np.linalg.solve(basis, offsets)).max(axis=0)


def _split_in_two(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two-means on positions, seeded with the two points farthest apart."""
    d = ((points[:, None] - points[None]) ** 2).sum(-1)
    a, b = np.unravel_index(np.argmax(d), d.shape)
    ca, cb = points[a], points[b]
    second = np.zeros(len(points), bool)
    for _ in range(8):
        second = ((points - ca) ** 2).sum(1) > ((points - cb) ** 2).sum(1)
        if second.all() or not second.any():
            break
        ca, cb = points[~second].mean(0), points[second].mean(0)
    return np.nonzero(~second)[0], np.nonzero(second)[0]


@dataclass(frozen=True)
class _Reading:
    value: int
    confidence: float
    a: complex
    offset: complex
    surface_spots: np.ndarray


def read_face(pips: Pips, group: list[int], gray: np.ndarray,
              few: FewPips = FewPips(), *, colour: np.ndarray | None = None,
              shaded: bool = False) -> Face | None:
    """The face the pips of `group` show, or None when they show none clearly (`colour` as
    for read_faces). With `shaded` a face not read as evenly lit is read again against its
    own shade (see Shade), and so is one read unsurely: a shadow's edge across one of its
    cells leaves half a pip there."""
    def read(shade: Shade | None) -> Face | None:
        return _read_face(pips, group, gray, few, colour=colour, shade=shade)

    if not shaded or len(group) > 6:
        return read(None)
    return read_in_shade(read, pips, group, gray, unsure=UNSURE)


def read_in_shade(read: Callable[[Shade | None], Face | None], pips: Pips, group: list[int],
                  gray: np.ndarray, *, unsure: float = 0.0) -> Face | None:
    """The face `read` finds in `group`'s pips as evenly lit (`read(None)`) or, when that
    finds none or one less sure than `unsure`, the surer of it and the face read against the
    face's own shade round those pips (see Shade): a shadow's edge across a face darkens part
    of it, and its pips with it."""
    face = read(None)
    if face is None or face.confidence < unsure:
        shade = Shade.of_pips(pips, np.array(group), gray)
        again = None if shade is None else read(shade)
        if again is not None and (face is None or again.confidence > face.confidence):
            face = again
    return face


@dataclass(frozen=True)
class Shade:
    """The shade of a face's bare surface at each place near its pips, for a face that is not
    evenly lit: a shadow (a hand's, held over the table) darkens part of it, and its pips'
    contrast with it. The pips are taken out of the image by a closing (dark pips) or an
    opening (light ones) a little larger than a pip; what is left is the surface, and a pip
    stands out from it by the same share (`relative`) wherever it lies. A place whose surface is
    darker than `low` or brighter than `high` is not this face."""

    x0: int
    y0: int
    surface: np.ndarray
    polarity: int
    relative: float
    low: float
    high: float

    @classmethod
    def around(cls, gray: np.ndarray, xs: np.ndarray, ys: np.ndarray, *, pip: float,
               polarity: int, relative: float, low: float, high: float) -> Shade | None:
        """The shade round the pips at (xs, ys), `pip` pixels wide, out to where a face
        read from them may reach."""
        if relative <= 0:
            return None
        reach = 6.5 * pip
        height, width = gray.shape[:2]
        x0, y0 = int(max(0, xs.min() - reach)), int(max(0, ys.min() - reach))
        x1 = int(min(width, xs.max() + reach + 1))
        y1 = int(min(height, ys.max() + reach + 1))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        size = int(1.6 * pip) | 1
        element = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        surface = cv2.morphologyEx(np.ascontiguousarray(gray[y0:y1, x0:x1], np.float32),
                                   cv2.MORPH_CLOSE if polarity < 0 else cv2.MORPH_OPEN,
                                   element)
        return cls(x0, y0, surface, polarity, relative, low, high)

    @classmethod
    def of_pips(cls, pips: Pips, index: np.ndarray, gray: np.ndarray) -> Shade | None:
        """The shade round a group of pips. A shadow only darkens: the face is lit at least
        where it is brightest round them, and where the shadow falls, darker at most as a
        shadow makes it. Two pips or more may all lie in the shadow, the face beyond them lit
        (a pattern vouches for itself); a lone pip's face is taken to be lit round it: a
        speck in a shadow, beside a brighter table, is not a one."""
        surfaces = pips.surface[index]
        lit = float(surfaces.max())
        high = 1.15 * lit if len(index) == 1 else max(1.15 * lit,
                                                        float(surfaces.min()) / _SHADOW)
        return cls.around(gray, pips.x[index], pips.y[index], pip=float(pips.major[index].max()),
                          polarity=int(pips.polarity[index[0]]),
                          relative=_median(pips.contrast[index]
                                           / np.maximum(surfaces, 1.0)),
                          low=_SHADOW * lit, high=high)

    @classmethod
    def of_face(cls, face: Face, gray: np.ndarray) -> Shade | None:
        """The shade round a face read, lit where its pips are."""
        return cls.around(gray, np.array([face.centre[0]]), np.array([face.centre[1]]),
                          pip=face.pip_size, polarity=face.polarity,
                          relative=face.contrast / max(face.surface, 1.0),
                          low=_SHADOW * face.surface, high=1.15 * face.surface)

    def pipness(self, values: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """How far `values` (at xs, ys) stand out from the surface there, in the pips' own
        contrast there (1: a pip's core, 0: bare face); infinite off this face, which no
        bare face or pip is."""
        local, off = self._local(xs, ys)
        out = self.polarity * (values - local) / (self.relative * np.maximum(local, 10.0))
        return np.where(off, np.inf, out)

    def strays(self, values: np.ndarray, xs: np.ndarray, ys: np.ndarray, *,
               least: float = 8.0) -> np.ndarray:
        """Where `values` (at xs, ys) are not this face's bare surface: off the face, or
        further from its shade there than bare face strays (an eighth of the pips' contrast
        there, and `least` grey levels)."""
        local, off = self._local(xs, ys)
        tolerance = np.maximum(0.12 * self.relative * np.maximum(local, 10.0), least)
        return (np.abs(values - local) > tolerance) | off

    def _local(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The surface's shade at (xs, ys), and where that shade is not this face's."""
        local = bilinear(self.surface, xs - self.x0, ys - self.y0)
        return local, (local < self.low) | (local > self.high)


def _read_face(pips: Pips, group: list[int], gray: np.ndarray, few: FewPips, *,
               colour: np.ndarray | None, shade: Shade | None) -> Face | None:
    n = len(group)
    index = np.array(group)
    if n > 6:
        return None
    contrast = _median(pips.contrast[index])
    if n <= 2 and (contrast < few.contrast or pips.major[index].min() < few.size):
        return None
    if n == 1 and pips.roundness[index[0]] < _MIN_LONE_ROUNDNESS:
        return None
    if n == 2 and _on_two_faces(pips, index):
        return None
    cov = pips.shape_covariance(index)
    w, vecs = np.linalg.eigh(cov)
    whiten = vecs @ np.diag(1.0 / np.sqrt(w)) @ vecs.T / 4.0  # pixels -> pip diameters
    if n == 1:
        # a lone pip is read in rings round it: measure them in its core's diameter, as a
        # strong pip's outline runs far out into its blur
        whiten *= max(1.0, float(pips.major[index[0]] / pips.core[index[0]]))
    unwhiten = np.linalg.inv(whiten)
    centre = np.array([pips.x[index].mean(), pips.y[index].mean()])
    surface = _median(pips.surface[index])
    polarity = int(pips.polarity[index[0]])
    # how far bare face may stray from its median, in units of pip contrast: a speckled face
    # (felt, sand-blasted plastic) strays further
    noise = _median(pips.ring_spread[index])
    plain = min(0.4, max(0.25, 3.0 * noise / contrast))

    def to_image(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        flat = np.ravel(z)
        pts = centre[:, None] + unwhiten @ np.stack([flat.real, flat.imag])
        return pts[0].reshape(np.shape(z)), pts[1].reshape(np.shape(z))

    def pipness(z: np.ndarray) -> np.ndarray:
        xs, ys = to_image(z)
        values = bilinear(gray, xs, ys)
        if shade is not None:
            return shade.pipness(values, xs, ys)
        return polarity * (values - surface) / contrast

    if n == 1:
        reading = _read_lone(pips, index[0], contrast, plain, pipness)
    else:
        q = whiten @ (np.stack([pips.x[index], pips.y[index]]) - centre[:, None])
        readings = [r for fit in _fits(q[0] + 1j * q[1])
                    if (r := _read_grid(fit, plain, pipness)) is not None]
        if not readings:
            return None
        reading = max(readings, key=lambda r: r.confidence)
        if any(r.value != reading.value and r.confidence > 0.3 for r in readings):
            reading = _Reading(reading.value, reading.confidence * 0.6, reading.a,
                               reading.offset, reading.surface_spots)
    if reading is None:
        return None
    sx, sy = to_image(reading.surface_spots + reading.offset)
    bgr = None if colour is None else np.median(bilinear(colour, sx, sy), axis=0)
    outline, ends, reach = _outline(gray, centre, unwhiten, offset=reading.offset,
                                     a=reading.a, surface=surface, contrast=contrast,
                                     noise=noise, lone=n == 1, colour=colour, bgr=bgr,
                                     shade=shade)
    if ends.sum() < few.edges_for(n):
        return None
    if n == 1 and few.centred:
        # a one sits in the middle of its face: the face ends about as far on either side
        # (where a die may hide some of its edges, on the sides where both ends were seen)
        both = ends[:4] & ends[4:] if few.edges < len(ends) - 2 else np.ones(4, bool)
        lopsided = np.abs(reach[:4] - reach[4:]) / (reach[:4] + reach[4:])
        if (both.any() and float(lopsided[both].mean()) > _MAX_LOPSIDED) or reach.min() < 1.2:
            return None
    gx, gy = to_image(reading.offset + np.array([0, reading.a, 1j * reading.a]))
    t = pips.angle[index]
    minor_direction = math.atan2(np.sin(2 * t).mean(), np.cos(2 * t).mean()) / 2 + math.pi / 2
    return Face(value=reading.value, centre=(float(gx[0]), float(gy[0])),
                u=(float(gx[1] - gx[0]), float(gy[1] - gy[0])),
                v=(float(gx[2] - gx[0]), float(gy[2] - gy[0])), outline=outline,
                surface_points=np.stack([sx, sy], 1), polarity=polarity,
                roundness=float(pips.roundness[index].mean()),
                minor_direction=minor_direction,
                pip_size=float(pips.major[index].mean()), contrast=contrast, surface=surface,
                pips=n, confidence=float(max(0.0, reading.confidence)))


def _median(values: np.ndarray) -> float:
    """The median of a face's few pips' values (NumPy's median costs tens of microseconds a
    call, and faces are tried by the hundred a frame)."""
    ordered = np.sort(values)
    k = len(ordered) // 2
    return float(ordered[k] if len(ordered) % 2 else (ordered[k - 1] + ordered[k]) / 2)


def _read_lone(pips: Pips, k: int, contrast: float, plain: float,
               pipness) -> _Reading | None:
    """A one: a lone pip, round and strong, with plain face all around it."""
    inner = pipness(_RING_ANGLES * 1.1)
    outer = pipness(_RING_ANGLES * 1.5)
    if np.abs(inner).max() > 0.35 or outer.max() > 0.5:
        return None
    uniform = float(np.mean(np.abs(np.concatenate([inner, outer])) <= plain))
    if uniform < 0.8:
        return None
    confidence = min(1.0, 1.0 - np.abs(inner).max(), (uniform - 0.75) / 0.25)
    return _Reading(1, confidence, 1.0 + 0j, 0j,
                    np.concatenate([_RING_ANGLES * 1.1, _RING_ANGLES * 1.5]))


def _read_grid(fit: tuple[complex, complex, float, float], plain: float,
               pipness) -> _Reading | None:
    """The value on the grid a fit puts over the face, read cell by cell."""
    a, offset, rms, rows = fit
    if rms > 0.2 or not 0.7 < abs(a) < 3.2:
        return None
    cells = pipness(a * (_stretch(CELLS, rows)[:, None] + CELL_SPOTS[None])
                    + offset).mean(axis=1)
    value = PATTERNS.get((cells > 0.5).reshape(3, 3).tobytes())
    if value is None:
        return None
    spots = pipness(a * _stretch(SURFACE_SPOTS, rows) + offset)
    bare = np.abs(spots) <= plain
    uniform = float(np.mean(bare))
    if uniform < 0.8:
        return None
    margin = float(np.min(np.abs(cells - 0.5)) * 2)
    confidence = min(1.0, margin, 1.0 - rms / 0.3, (uniform - 0.6) / 0.3)
    return _Reading(value, confidence, a, offset, a * _stretch(SURFACE_SPOTS, rows)[bare])


def _fits(z: np.ndarray) -> list[tuple[complex, complex, float, float]]:
    """For each layout n pips may take, the similarity (scale-rotation `a`, offset `b`) that
    best maps it onto `z` over every pairing, its rms error relative to |a|, and the spacing of
    the rows along the imaginary axis (dice differ in how they space a six)."""
    zp = z[PERMUTATIONS[len(z)]]
    zc = zp - zp.mean(axis=1, keepdims=True)
    fits = []
    for base in LAYOUTS[len(z)]:
        best = (0j, 0j, math.inf, 1.0)
        for rows in _ROW_SPACINGS if len(base) == 6 else (1.0,):
            layout = base.real + 1j * rows * base.imag
            w = layout - layout.mean()
            a = (np.conj(w)[None] * zc).sum(axis=1) / (np.abs(w) ** 2).sum()
            rms = (np.sqrt((np.abs(zc - a[:, None] * w[None]) ** 2).mean(axis=1))
                   / np.maximum(np.abs(a), 1e-9))
            k = int(np.argmin(rms))
            if rms[k] < best[2]:
                best = (complex(a[k]), complex(zp[k].mean() - a[k] * layout.mean()),
                        float(rms[k]), rows)
        fits.append(best)
    return fits


def _stretch(z: np.ndarray, rows: float) -> np.ndarray:
    return z.real + 1j * rows * z.imag


def _outline(gray: np.ndarray, centre: np.ndarray, unwhiten: np.ndarray, *, offset: complex,
             a: complex, surface: float, contrast: float, noise: float, lone: bool,
             colour: np.ndarray | None = None, bgr: np.ndarray | None = None,
             shade: Shade | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the face's surface ends along 8 directions from its centre (pixels, 8x2), whether
    it ends within reach in each, and how far (in the scan's units; a lone pip's in pip
    diameters). The scan runs in grid units (`a`), past the pips:
    along the grid's axes from just outside the outer cells, along its diagonals from beyond
    the corner pips; a lone pip's face is scanned from just outside the pip. With `colour`,
    the face also ends where a colour channel strays far from the face's own `bgr`."""
    t = np.linspace(0.0, 1.0, 16)
    if lone:
        reach = np.stack([1.1 + 3.1 * t] * 8)
    else:
        axis, diagonal = 1.45 + 1.75 * t, 2.0 + 2.0 * t
        reach = np.stack([axis, diagonal] * 4)
    z = offset + a * _EDGE_DIRECTIONS[:, None] * reach
    pts = centre[:, None, None] + np.einsum("ij,jkl->ikl", unwhiten,
                                            np.stack([np.real(z), np.imag(z)]))
    values = bilinear(gray, pts[0], pts[1])
    # (a noisy face, dim light's, strays further than 8 grey levels pixel by pixel)
    least = max(8.0, 2.5 * noise)
    if shade is None:
        off = np.abs(values - surface) > max(0.12 * contrast, least)
    else:
        off = shade.strays(values, pts[0], pts[1], least=least)
    if colour is not None:
        hue = colour_feature(bilinear(colour, pts[0], pts[1]))[..., :2]
        strays = np.hypot(*(hue - colour_feature(bgr)[:2]).transpose(2, 0, 1)) > COLOUR_EDGE
        # an edge is where the colour changes and stays changed: next to a pip it is blurred
        # for a sample or so (a camera's colour is coarser than its brightness)
        off[:, :-1] |= strays[:, :-1] & strays[:, 1:]
    found = off.any(axis=1)
    first = np.where(found, off.argmax(axis=1), len(t) - 1)
    rows = np.arange(8)
    return np.stack([pts[0][rows, first], pts[1][rows, first]], 1), found, reach[rows, first]
