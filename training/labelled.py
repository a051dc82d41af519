"""The labelled photos of real dice in ../shared/data/dice-photos, read into true dice, and the
split of each set into the photos the learned reader is trained and tuned on and the photos it
is only ever measured on (`validation-photos.txt` beside this module, a fixed list: every
fourth photo of each set in name order). The training photos divide again, for choosing
between ways of training: a network being compared is fitted to the "fit" part and measured
on the "tuning" part (every third training photo of each set in name order), so that a
choice is made on photos the networks compared have not learned from; the network kept is
then trained on all the training photos.

matteop65-valid/ labels each photo in YOLO form (class 0-5 = One..Six, box of the pip pattern,
normalised); skovy/ keeps one labels.csv (split, file, face, corners normalised), also of the
pip pattern; nell-byler-train/ keeps labels.json, pixel boxes round each whole die.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from training.scoring import TrueDie

PHOTOS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dice-photos"
SETS = ("matteop65-valid", "skovy", "nell-byler-train")
#: the sets whose boxes surround the pip pattern, not the whole die
PIP_BOXES = frozenset({"matteop65-valid", "skovy"})
_VALIDATION = Path(__file__).with_name("validation-photos.txt")
#: the parts a set's photos are split into: "train" is "fit" and "tuning" together
PARTS = ("train", "fit", "tuning", "validation", "all")


def validation_photos() -> frozenset[str]:
    """The photos kept for measuring only, as 'set/file' paths relative to the photos' root."""
    return frozenset(line.strip() for line in _VALIDATION.read_text().splitlines()
                     if line.strip())


def photo_folder(name: str) -> Path:
    """One set's folder, or a clear error where ../shared is not beside the checkout."""
    folder = PHOTOS / name
    if not folder.is_dir():
        raise FileNotFoundError(f"the labelled photos {folder} are missing: the dice photos "
                                "come with ../shared beside this checkout")
    return folder


def split(name: str, part: str) -> Iterator[tuple[Path, list[TrueDie]]]:
    """The labelled photos of set `name` in `part` (one of PARTS)."""
    if part not in PARTS:
        raise ValueError(f"no part {part!r}: {', '.join(PARTS)}")
    kept = validation_photos()
    trained = 0
    for path, truth in photos(photo_folder(name)):
        if path.relative_to(PHOTOS).as_posix() in kept:
            own = "validation"
        else:
            own = "tuning" if trained % 3 == 2 else "fit"
            trained += 1
        if part in (own, "all") or (part == "train" and own != "validation"):
            yield path, truth


#: one labelled photo: its set's name, its path and its true dice
LabelledPhoto = tuple[str, Path, list[TrueDie]]


def labelled_photos(part: str) -> list[LabelledPhoto]:
    """Every set's photos of `part` (one of PARTS), set by set."""
    return [(name, path, truth) for name in SETS for path, truth in split(name, part)]


def photos(folder: Path) -> Iterator[tuple[Path, list[TrueDie]]]:
    """Every labelled photo of one set's folder, with its true dice."""
    folder = Path(folder)
    if (folder / "labels.json").is_file():
        yield from _json_labels(folder)
    elif (folder / "labels.csv").is_file():
        yield from _csv_labels(folder)
    else:
        yield from _yolo_labels(folder)


def _size(image: Path) -> tuple[int, int]:
    height, width = cv2.imread(str(image), cv2.IMREAD_REDUCED_GRAYSCALE_8).shape
    return width * 8, height * 8


def _yolo_labels(folder: Path) -> Iterator[tuple[Path, list[TrueDie]]]:
    for image in sorted(folder.glob("*.jpg"), key=lambda p: (len(p.stem), p.stem)):
        label = image.with_suffix(".txt")
        if not label.is_file():
            continue
        width, height = _size(image)
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
        width, height = _size(image)
        yield image, [TrueDie((float(r[3]) * width, float(r[4]) * height, float(r[7]) * width,
                               float(r[8]) * height), int(r[2])) for r in by_file[name]]


def _json_labels(folder: Path) -> Iterator[tuple[Path, list[TrueDie]]]:
    labels = json.loads((folder / "labels.json").read_text())
    for name in sorted(labels):
        yield folder / "images" / name, [TrueDie((x0, y0, x1, y1), int(value))
                                         for x0, y0, x1, y1, value in labels[name]]


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


def die_sides(name: str, truth: list[TrueDie]) -> list[float]:
    """Each true die's side in pixels. Where a set boxes the pip pattern, a pattern of two or
    more pips spans about 0.68 of the face; a one's box is its pip alone, so its die is taken
    to be as large as the photo's other dice (or five times its pip, in a photo of ones)."""
    spans = [max(t.box[2] - t.box[0], t.box[3] - t.box[1]) for t in truth]
    if name not in PIP_BOXES:
        return spans
    patterned = [s / 0.68 for s, t in zip(spans, truth, strict=True) if t.value > 1]
    usual = float(np.median(patterned)) if patterned else None
    return [s / 0.68 if t.value > 1 else (usual or s * 5.0)
            for s, t in zip(spans, truth, strict=True)]
