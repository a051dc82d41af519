"""The vision commands of `camel-companion`: read-dice, read-cards, read-board and markers.

Declaring them loads nothing heavy: OpenCV and NumPy are imported only when one of them runs
(vision.offline), so every other command of the companion starts without them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from vision.camels import CAMEL_SETS
from vision.dicesets import GAMES


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Add read-dice, read-cards, read-board and markers to the `camel-companion` command's
    subcommands."""
    read = _reading(commands, "read-dice", "read the dice in photos or camera frames", _read_dice)
    read.add_argument("--game", choices=sorted(GAMES),
                      help="the dice set (default: the configured game, else camelup-2014)")
    read.add_argument("--calibration", type=Path, metavar="IMAGE",
                      help="first learn the dice's colours from this frame, taken in the same "
                           "light, showing each of the game's dice once")
    read.add_argument("--dice", choices=("game", "any"), default="game",
                      help="'any': dice of any colour, anywhere, no calibration (die is null)")

    cards = _reading(commands, "read-cards",
                     "read the racing cards (Camel Up Cards) in photos or frames", _read_cards)
    cards.add_argument("--calibration", type=Path, metavar="IMAGE",
                       help="first learn the cards' colours from this frame, taken in the same "
                            "light, showing one card of each camel face up")

    board = _reading(commands, "read-board", "read the camels on the board in photos or frames",
                     _read_board)
    board.add_argument("--game", choices=sorted(CAMEL_SETS),
                       help="whose camels (default: the configured game)")
    board.add_argument("--calibration", type=Path, metavar="SET-UP", required=True,
                       help="the set-up frame, taken by the same camera in the same light, "
                            "every camel of the game standing alone on its own space")

    markers = commands.add_parser("markers", help="write the ArUco marker sheet to print")
    markers.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                         help="where to write it: .pdf for a PDF, otherwise a PNG image")
    markers.add_argument("--size", type=float, default=30.0, metavar="MM",
                         help="the printed side of each marker in millimetres (default 30)")
    markers.set_defaults(run=_markers)


def _reading(commands: argparse._SubParsersAction, name: str, what: str,
             run: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    """A command that reads images: their paths, --json, --threshold and --config."""
    command = commands.add_parser(name, help=what)
    command.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    command.add_argument("--json", action="store_true", help="print one JSON list")
    command.add_argument("--threshold", type=float, metavar="T",
                         help="confidence below which a reading says null (default 0.5)")
    command.add_argument("--config", type=Path, metavar="FILE", help="the TOML configuration")
    command.set_defaults(run=run)
    return command


def _read_dice(args: argparse.Namespace) -> int:
    from vision.offline import read_dice

    return read_dice(args)


def _read_cards(args: argparse.Namespace) -> int:
    from vision.offline import read_cards

    return read_cards(args)


def _read_board(args: argparse.Namespace) -> int:
    from vision.offline import read_board

    return read_board(args)


def _markers(args: argparse.Namespace) -> int:
    from vision.offline import markers

    return markers(args)
