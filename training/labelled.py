"""The labelled photos of real dice in ../shared/data/dice-photos, read into true dice.

matteop65-valid/ labels each photo in YOLO form (class 0-5 = One..Six, box of the pip pattern,
normalised); skovy/ keeps one labels.csv (split, file, face, corners normalised). Both boxes
are of the top face's pips, not the whole die.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.scoring import TrueDie

SETS = ("matteop65-valid", "skovy")


def photos(folder: Path) -> Iterator[tuple[Path, list[TrueDie]]]:
    """Every labelled photo of one set's folder, with its true dice."""
    folder = Path(folder)
    if (folder / "labels.csv").is_file():
        yield from _csv_labels(folder)
    else:
        yield from _yolo_labels(folder)


def _yolo_labels(folder: Path) -> Iterator[tuple[Path, list[TrueDie]]]:
    for image in sorted(folder.glob("*.jpg"), key=lambda p: (len(p.stem), p.stem)):
        label = image.with_suffix(".txt")
        if not label.is_file():
            continue
        height, width = cv2.imread(str(image), cv2.IMREAD_REDUCED_GRAYSCALE_8).shape
        width, height = width * 8, height * 8
        dice = []
        for line in label.read_text().split("\n"):
            if line.strip():
                face, cx, cy, w, h = (float(v) for v in line.split())
                dice.append(TrueDie(((cx - w / 2) * width, (cy - h / 2) * height,
                                     (cx + w / 2) * width, (cy + h / 2) * height), int(face) + 1))
        yield image, dice


def _csv_labels(folder: Path) -> Iterator[tuple[Path, list[TrueDie]]]:
    by_file: dict[str, list[list[str]]] = {}
    with open(folder / "labels.csv", newline="") as f:
        for row in csv.reader(f):
            if len(row) >= 9:
                by_file.setdefault(row[1], []).append(row)
    for name in sorted(by_file):
        image = folder / name
        height, width = cv2.imread(str(image), cv2.IMREAD_REDUCED_GRAYSCALE_8).shape
        width, height = width * 8, height * 8
        yield image, [TrueDie((float(r[3]) * width, float(r[4]) * height, float(r[7]) * width,
                               float(r[8]) * height), int(r[2])) for r in by_file[name]]


def resized(image: np.ndarray, truth: list[TrueDie], factor: float
            ) -> tuple[np.ndarray, list[TrueDie]]:
    """A photo as a camera nearer the table (`factor` > 1) or further (< 1) would take it,
    with its true dice moved to match: the reader must not depend on the size the photos
    happen to show the dice and the table's grain at."""
    shrink = factor < 1
    out = cv2.resize(image, None, fx=factor, fy=factor,
                     interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    return out, [TrueDie(tuple(v * factor for v in t.box), t.value, t.colour, t.numeral)
                 for t in truth]


def turned(image: np.ndarray, truth: list[TrueDie], degrees: float
           ) -> tuple[np.ndarray, list[TrueDie]]:
    """A photo turned by `degrees` (counter-clockwise) on a canvas that holds all of it, the
    corners filled with its median colour; each true die's box becomes the square round its
    turned centre, as large as its longer side."""
    height, width = image.shape[:2]
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
    size = (int(height * sin + width * cos), int(height * cos + width * sin))
    turn[:, 2] += (size[0] - width) / 2, (size[1] - height) / 2
    fill = tuple(float(v) for v in np.median(image.reshape(-1, image.shape[2]), axis=0))
    out = cv2.warpAffine(image, turn, size, borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    moved = []
    for t in truth:
        x0, y0, x1, y1 = t.box
        cx, cy = turn[:, :2] @ ((x0 + x1) / 2, (y0 + y1) / 2) + turn[:, 2]
        half = max(x1 - x0, y1 - y0) / 2
        moved.append(TrueDie((cx - half, cy - half, cx + half, cy + half), t.value, t.colour,
                             t.numeral))
    return out, moved
