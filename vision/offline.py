"""Reading recorded frames and photos offline, and writing the marker sheet: the work of the
read-dice, read-cards, read-board and markers commands (vision.commands declares them).

Errors for a person are one line on stderr with exit status 2, never a traceback; the read
commands read every image they can and exit 2 afterwards if any could not be opened.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeGuard

import cv2
import numpy as np

from companion.errors import BadConfig, CompanionError
from vision.board import BoardReader, set_up
from vision.calibrate import (
    CalibrationError,
    TableCalibration,
    calibrate_table,
    learn_colours,
)
from vision.camels import camel_set
from vision.cards import CardReader, learn_card_colours
from vision.colour_dice import ColourDiceReader, learn_face_colours
from vision.colours import DiceColours
from vision.config import VisionConfig, config_path, load_config
from vision.dice import DiceReader
from vision.dicesets import COLOUR_DICE_SETS, UnknownSet, colour_dice_set, dice_set
from vision.light import LightChange
from vision.markers import write_sheet


class BadArgument(CompanionError, ValueError):
    """A command's argument that cannot be used (a value out of range, an image or a path it
    names that cannot be read or written): its message is the one line to show."""


class UnreadableImage(CompanionError, ValueError):
    """One image cannot be read, or is not the size its reader reads: its message says why
    (the others are read all the same)."""


def _guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except (BadArgument, BadConfig, CalibrationError, OSError) as e:
            print(f"camel-companion: {e}", file=sys.stderr)
            return 2
    return guarded


def _read_dice(args: argparse.Namespace) -> int:
    """read-dice: every image read, as JSON or a line each."""
    config, threshold = _settings(args)
    reader: DiceReader | ColourDiceReader
    if args.dice == "any":
        reader = DiceReader(threshold=threshold)
        make = None
    else:
        game = args.game or config.game
        reader, make = _game_reader(game, config, args.calibration, threshold)
    return _read_all(args, _listed("dice", lambda image: (
        make(image) if make is not None else reader).read(image)), lambda r: _line(r, "dice"))


def _settings(args: argparse.Namespace) -> tuple[VisionConfig, float]:
    """A read command's configuration, and the confidence below which a reading is null."""
    config = load_config(config_path(args.config))
    threshold = config.threshold if args.threshold is None else args.threshold
    if not 0.0 <= threshold <= 1.0:
        raise BadArgument("--threshold must lie between 0 and 1")
    return config, threshold


def _listed(key: str, read: Callable[[np.ndarray], list]) -> Callable[[Path], dict]:
    """What the image at a path shows, as `read` finds it, listed under `key`."""
    return lambda path: {key: [r.to_json() for r in read(image_at(path))]}


def _read_all(args: argparse.Namespace, read: Callable[[Path], dict],
              line: Callable[[dict], str]) -> int:
    """What each image shows (`read`: its results' fields, or UnreadableImage), printed as JSON
    or a `line` each; 2 when any image could not be read."""
    results, failed = [], False
    for path in args.images:
        try:
            results.append({"image": str(path), **read(path)})
        except UnreadableImage as e:
            failed = True
            results.append({"image": str(path), "error": str(e)})
    if args.json:
        print(json.dumps(results))
    else:
        for result in results:
            print(line(result))
    if failed:
        print("camel-companion: some images could not be read (marked in the output)",
              file=sys.stderr)
    return 2 if failed else 0


def _read_cards(args: argparse.Namespace) -> int:
    """read-cards: every image's racing cards, as JSON or a line each."""
    config, threshold = _settings(args)
    table, colours, light = config.calibration, None, None
    if args.calibration is not None:
        shot = _given_image(args.calibration, "calibration")
        table = _table_in(shot, config)
        colours = learn_card_colours(shot, table=table)
        light = LightChange.of_shot(shot)
    readers: dict[tuple[int, int], CardReader] = {}

    def read(image: np.ndarray) -> list:
        size = (image.shape[1], image.shape[0])
        if size not in readers:
            found = table if _fits(table, size) else _table_in(image, config)
            readers[size] = CardReader(colours, table=found, threshold=threshold, light=light)
        return readers[size].read(image)

    return _read_all(args, _listed("cards", read), lambda r: _line(r, "cards"))


def _read_board(args: argparse.Namespace) -> int:
    """read-board: every image's stacks of camels, as JSON or a line each."""
    config, threshold = _settings(args)
    reader, size = board_reader(args.calibration, args.game or config.game, config, threshold)
    return _read_all(args, lambda path: reader.read(image_at(path, size)).to_json(),
                     _board_line)


def board_reader(setup_path: Path, game: str, config: VisionConfig, threshold: float
                 ) -> tuple[BoardReader, tuple[int, int]]:
    """The board reader for `game`'s camels, set up from the set-up frame at `setup_path`
    (the table from its markers, or from the configuration's calibration when it was taken
    at that size), and the frame size it reads; a one-line ValueError when it cannot be."""
    try:
        camels = camel_set(game)
    except UnknownSet as e:
        raise BadArgument(str(e)) from None
    setup = _given_image(setup_path, "set-up")
    size = (setup.shape[1], setup.shape[0])
    table = config.calibration if _fits(config.calibration, size) else calibrate_table(
        setup, config.layout)
    return set_up(setup, table, config.board, camels, threshold=threshold), size


def _board_line(result: dict) -> str:
    if "error" in result:
        return f"{result['image']}: cannot read: {result['error']}"
    if result["hand"]:
        return f"{result['image']}: a hand over the board, not read"
    if not result["stacks"]:
        return f"{result['image']}: no camels"
    return f"{result['image']}: " + "; ".join(
        f"{s['space']}: " + ", ".join(c or "?" for c in s["camels"]) + f" ({s['confidence']:.2f})"
        for s in result["stacks"])


def _game_reader(game: str, config: VisionConfig, calibration: Path | None,
                 threshold: float
                 ) -> tuple[DiceReader | ColourDiceReader,
                            Callable[[np.ndarray], DiceReader | ColourDiceReader]]:
    """A reader for the game's dice (pips, or colour faces), and a way to get the reader for a
    given image: one that knows the table when the table's calibration fits the image's
    size."""
    shot = None if calibration is None else _given_image(calibration, "calibration")
    if game in COLOUR_DICE_SETS:
        faces = colour_dice_set(game)
        light = None if shot is None else LightChange.of_shot(shot)

        def reader(colours: DiceColours | None, table: TableCalibration | None
                   ) -> DiceReader | ColourDiceReader:
            return ColourDiceReader(faces, colours, table=table, threshold=threshold,
                                    light=light)

        def learn(shot: np.ndarray, table: TableCalibration | None) -> DiceColours:
            return learn_face_colours(shot, faces, table=table)
    else:
        pips = dice_set(game)

        def reader(colours: DiceColours | None, table: TableCalibration | None
                   ) -> DiceReader | ColourDiceReader:
            return DiceReader(pips, colours, table=table, threshold=threshold)

        def learn(shot: np.ndarray, table: TableCalibration | None) -> DiceColours:
            return learn_colours(shot, pips, table=table)
    colours = config.colours_for(game)
    table = config.calibration
    if shot is not None:
        try:
            table = calibrate_table(shot, config.layout)
        except CalibrationError:
            table = None
        colours = learn(shot, table)
    plain = reader(colours, None)
    fitted: dict[tuple[int, int], DiceReader | ColourDiceReader] = {}

    def reader_for(image: np.ndarray) -> DiceReader | ColourDiceReader:
        size = (image.shape[1], image.shape[0])
        found = table if _fits(table, size) else _table_in(image, config)
        if found is None:
            return plain
        if size not in fitted:
            fitted[size] = reader(colours, found)
        return fitted[size]

    return plain, reader_for


def _fits(table: TableCalibration | None, size: tuple[int, int]
          ) -> TypeGuard[TableCalibration]:
    """Whether `table` is a calibration taken at `size` (width, height)."""
    return table is not None and tuple(table.image_size) == size


def _table_in(image: np.ndarray, config: VisionConfig) -> TableCalibration | None:
    """The table found from the markers in `image`, if all four are there."""
    try:
        return calibrate_table(image, config.layout)
    except CalibrationError:
        return None


def image_at(path: Path, size: tuple[int, int] | None = None) -> np.ndarray:
    """The image at `path` (BGR), of `size` (width, height) when given; UnreadableImage saying
    why not."""
    image = load_image(path)
    if image is None:
        raise UnreadableImage(unreadable(path))
    if size is not None and (image.shape[1], image.shape[0]) != size:
        raise UnreadableImage(f"{image.shape[1]}x{image.shape[0]}, not the set-up frame's "
                              f"{size[0]}x{size[1]}")
    return image


def _given_image(path: Path, what: str) -> np.ndarray:
    """The image an option names (`what` it is: "calibration", "set-up"), BGR; BadArgument
    saying why not."""
    image = load_image(path)
    if image is None:
        raise BadArgument(f"cannot read the {what} image {path}: {unreadable(path)}")
    return image


def load_image(path: Path) -> np.ndarray | None:
    """The image at `path` (BGR), or None when it cannot be read as one."""
    try:
        data = np.frombuffer(path.read_bytes(), np.uint8)
    except OSError:
        return None
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None


def unreadable(path: Path) -> str:
    """Why the file at `path` is not an image."""
    if not path.exists():
        return "no such file"
    if path.is_dir():
        return "is a folder, not an image"
    return "not an image OpenCV can read"


def _line(result: dict, key: str) -> str:
    if "error" in result:
        return f"{result['image']}: cannot open: {result['error']}"
    if not result[key]:
        return f"{result['image']}: no {key}"
    describe = _describe if key == "dice" else _describe_card
    return f"{result['image']}: " + "; ".join(describe(d) for d in result[key])


def _describe(die: dict) -> str:
    shown = die["value"] if "value" in die else die["face"]
    value = "?" if shown is None else str(shown)
    name = die["die"] or "die"
    numeral = f" ({die['numeral']})" if "numeral" in die else ""
    x0, y0, x1, y1 = die["box"]
    return f"{name} {value}{numeral} at {x0},{y0}-{x1},{y1} ({die['confidence']:.2f})"


def _describe_card(card: dict) -> str:
    value = "?" if card["value"] is None else f"+{card['value']}"
    x0, y0, x1, y1 = card["box"]
    return (f"{card['camel'] or 'card'} {value} at {x0},{y0}-{x1},{y1} "
            f"({card['confidence']:.2f})")


def _markers(args: argparse.Namespace) -> int:
    if not 5.0 <= args.size <= 90.0:
        raise BadArgument("--size must be between 5 and 90 mm to fit four markers on a page")
    for path in args.paths:
        try:
            write_sheet(path, args.size)
        except OSError as e:
            raise BadArgument(f"cannot write {path}: {e.strerror or e}") from None
        print(f"wrote the marker sheet ({args.size:g} mm markers) to {path}")
    return 0



read_dice = _guarded(_read_dice)
read_cards = _guarded(_read_cards)
read_board = _guarded(_read_board)
markers = _guarded(_markers)
