"""Faces read on a calibrated table's plane, where a die's size and the camera are known.

The general reader groups pips by how alike they look, and a pip measured badly (blurred into
an edge, its surround misjudged at a face's corner) can be left out of its face. On a
calibrated table there is a surer guide: taken onto the plane of the top faces, a face's pips
lie on a grid of known step. Pips the reader left over (two or more near one another) are
grouped by where they lie there, fitted to each pattern at that step (turn and place free), and
the cells are then read in the image as the reader reads them: a cell is pip or face by its
shade, so a missed pip still counts.
"""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from vision.faces import (
    CELL_SPOTS,
    CELLS,
    LAYOUTS,
    PATTERNS,
    PERMUTATIONS,
    SURFACE_SPOTS,
    Face,
    Shade,
    bilinear,
    clear_of,
    read_in_shade,
)
from vision.pips import Pips

#: a grid's step, centre cell to the next, as a share of a die's side
CELL_SHARE = 0.27
#: how far off its grid a pip may lie, in grid steps
_FIT = 0.25
#: the rescued faces are trusted a little less than those the reader found by itself
_RESCUED = 0.9
#: fewer pips than this are not rescued: a lone pip is read as a one by the reader's own,
#: stricter checks; a pair is a two only where its pips lie a two's diagonal apart on the top
#: faces' plane with plain face all round them (a top face's pip and a side face's do not)
_FEWEST = 2


def rescue_faces(pips: Pips, gray: np.ndarray, lifted: np.ndarray, *,
                 offset: tuple[int, int],
                 die_mm: float) -> list[Face]:
    """Faces made of `pips` (in `gray`'s pixels, `gray` lying at `offset` in the frame) on the
    plane whose homography into the frame is `lifted`."""
    if len(pips) == 0:
        return []
    to_plane = np.linalg.inv(lifted)
    frame = np.stack([pips.x + offset[0], pips.y + offset[1]], 1)
    on_plane = cv2.perspectiveTransform(frame.reshape(-1, 1, 2), to_plane).reshape(-1, 2)
    step = CELL_SHARE * die_mm
    faces = []
    for group in _near_on_plane(on_plane, pips.polarity, 2 * math.sqrt(2) * step * 1.2):
        if not _FEWEST <= len(group) <= 7:
            continue
        # a group may hold a die's side face's pips or a die's beside: when it reads as no
        # face, the best face read from all of it but one pip, else but two, that lie off it
        best = None
        for left_out in range(min(2, len(group) - _FEWEST) + 1):
            if len(group) - left_out > 6:
                continue
            for part in itertools.combinations(group, len(group) - left_out):
                read = _read_shaded if left_out == 0 else _read
                face = read(pips, list(part), on_plane[list(part)], gray,
                            lifted=lifted, offset=offset, step=step, die_mm=die_mm)
                if face is not None and clear_of(face, pips, group) and (
                        best is None or face.confidence > best.confidence):
                    best = face
            if best is not None:
                break
        if best is not None:
            faces.append(best)
    return faces


def _read_shaded(pips: Pips, group: list[int], points: np.ndarray, gray: np.ndarray,
                 **grid) -> Face | None:
    """The face `group`'s pips show, read as evenly lit or else against its own shade: a
    shadow's edge (a hand's) across a face keeps its pips from any group the reader made."""
    return read_in_shade(lambda shade: _read(pips, group, points, gray, shade=shade, **grid),
                         pips, group, gray)


def _near_on_plane(points: np.ndarray, polarity: np.ndarray, reach: float) -> list[list[int]]:
    parent = list(range(len(points)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    gaps = np.hypot(*(points[:, None] - points[None]).transpose(2, 0, 1))
    for i, j in zip(*np.nonzero(np.triu(gaps <= reach, 1)), strict=True):
        if polarity[i] == polarity[j]:
            parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for k in range(len(points)):
        groups.setdefault(root(k), []).append(k)
    return list(groups.values())


def _read(pips: Pips, group: list[int], points: np.ndarray, gray: np.ndarray, *,
          lifted: np.ndarray, offset: tuple[int, int], step: float,
          die_mm: float, shade: Shade | None = None) -> Face | None:
    """The face `group`'s pips show on the grid laid over them at a die's step, read as an
    evenly lit face or (with `shade`) against the face's own shade."""
    z = points[:, 0] + 1j * points[:, 1]
    fits = [_fit(z, layout * step) for layout in LAYOUTS[len(group)]]
    polarity = int(pips.polarity[group[0]])

    def image(w: np.ndarray) -> np.ndarray:
        flat = np.ravel(w)
        pts = cv2.perspectiveTransform(np.stack([flat.real, flat.imag], 1).reshape(-1, 1, 2),
                                       lifted).reshape(-1, 2) - offset
        return pts.reshape(*np.shape(w), 2)

    best = None
    for centre, turn, rms in fits:
        if rms > _FIT * step:
            continue
        spots = image(centre + turn * step * SURFACE_SPOTS)
        bare = bilinear(gray, spots[:, 0], spots[:, 1])
        surface = float(np.median(bare))
        own = image(z)
        core = float(np.median(bilinear(gray, own[:, 0], own[:, 1])))
        contrast = polarity * (core - surface)
        if contrast < 15.0:
            continue

        def pipness(w: np.ndarray, surface: float = surface, contrast: float = contrast
                    ) -> np.ndarray:
            at = image(w)
            values = bilinear(gray, at[..., 0], at[..., 1])
            if shade is not None:
                return shade.pipness(values, at[..., 0], at[..., 1])
            return polarity * (values - surface) / contrast

        cells = pipness(centre + turn * step * (CELLS[:, None] + CELL_SPOTS[None])).mean(axis=1)
        value = PATTERNS.get((cells > 0.5).reshape(3, 3).tobytes())
        if value is None:
            continue
        margin = float(np.min(np.abs(cells - 0.5)) * 2)
        plain = np.abs(pipness(centre + turn * step * SURFACE_SPOTS)) <= 0.25
        uniform = float(np.mean(plain))
        if uniform < 0.8:
            continue
        confidence = _RESCUED * min(1.0, margin, (uniform - 0.6) / 0.3, 1 - rms / (2 * step))
        if best is None or confidence > best[0]:
            best = (confidence, value, centre, turn, surface, contrast, spots[plain])
    if best is None:
        return None
    confidence, value, centre, turn, surface, contrast, bare_spots = best
    half = die_mm / 2
    square = centre + turn * half * np.exp(1j * np.pi / 4 * np.arange(8)) * np.where(
        np.arange(8) % 2, math.sqrt(2), 1.0)
    axes = image(np.array([centre, centre + turn * step, centre + 1j * turn * step]))
    t = pips.angle[group]
    return Face(value=value, centre=(float(axes[0, 0]), float(axes[0, 1])),
                u=tuple(float(v) for v in axes[1] - axes[0]),
                v=tuple(float(v) for v in axes[2] - axes[0]), outline=image(square),
                surface_points=bare_spots, polarity=polarity,
                roundness=float(pips.roundness[group].mean()),
                minor_direction=math.atan2(np.sin(2 * t).mean(), np.cos(2 * t).mean()) / 2
                + math.pi / 2,
                pip_size=float(pips.major[group].mean()), contrast=contrast, surface=surface,
                pips=len(group), confidence=float(max(0.0, confidence)))


def _fit(z: np.ndarray, layout: np.ndarray) -> tuple[complex, complex, float]:
    """The turn and place (scale fixed) that best lay `layout` onto `z`, over every pairing:
    (centre of the layout's grid, turn as a unit complex number, rms error)."""
    zp = z[PERMUTATIONS[len(z)]]
    w = layout - layout.mean()
    zc = zp - zp.mean(axis=1, keepdims=True)
    cross = (np.conj(w)[None] * zc).sum(axis=1)
    turn = cross / np.maximum(np.abs(cross), 1e-12)
    rms = np.sqrt((np.abs(zc - turn[:, None] * w[None]) ** 2).mean(axis=1))
    k = int(np.argmin(rms))
    return complex(zp[k].mean() - turn[k] * layout.mean()), complex(turn[k]), float(rms[k])
