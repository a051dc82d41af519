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
