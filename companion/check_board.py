"""`camel-companion check-board`: does a photo of the table agree with the game's log?

The camera reads the board in the frame (vision.board, its camels' colours learned from a
set-up frame), and the board is compared with the track the game has after its log
(companion.board_check): the spaces where they disagree, and the rolls that, in place of the
last roll, would explain the board. Exit status 0 when they agree, 1 when they do not, 2 on
bad input (one line, no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.board_check import board_game_state, disagreements, explaining_rolls
from companion.errors import CompanionError
from companion.gamelog import dump_line, load_game
from companion.rules.words import counted


def add_command(commands: argparse._SubParsersAction) -> None:
    check = commands.add_parser("check-board", help="compare a photo of the board with the "
                                                    "game's log")
    check.add_argument("log", type=Path, metavar="GAME.jsonl")
    check.add_argument("image", type=Path, metavar="IMAGE")
    check.add_argument("--calibration", type=Path, metavar="SET-UP", required=True,
                       help="the set-up frame: every camel of the game alone on its own space, "
                            "taken by the same camera in the same light")
    check.add_argument("--config", type=Path, metavar="FILE", help="the TOML configuration")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(run=_check_board)


def _check_board(args: argparse.Namespace) -> int:
    from vision.config import load_config
    from vision.offline import UnreadableImage, board_reader, image_at

    try:
        game = load_game(args.log)
        config = load_config(args.config)
        reader, size = board_reader(args.calibration, game.header["game"], config,
                                    config.threshold)
        frame = image_at(args.image, size)
    except UnreadableImage as e:
        print(f"camel-companion: cannot read {args.image}: {e}", file=sys.stderr)
        return 2
    except (CompanionError, ValueError, OSError) as e:
        print(f"camel-companion: {e}", file=sys.stderr)
        return 2
    reading = reader.read(frame)
    if reading.hand:
        print(f"camel-companion: a hand is over the board in {args.image}: take another "
              "picture", file=sys.stderr)
        return 2
    board = {stack.space: stack.camels for stack in reading.stacks}
    wrong = disagreements(board_game_state(game).track, board)
    rolls = explaining_rolls(game, board) if wrong else []
    if args.json:
        print(json.dumps({"agrees": not wrong, "actions": len(game),
                          "disagreements": [d.to_json() for d in wrong],
                          "explained_by": [roll.to_json() for roll in rolls]}))
    else:
        _print(wrong, rolls, len(game))
    return 1 if wrong else 0


def _print(wrong: list, rolls: list, actions: int) -> None:
    if not wrong:
        print(f"the board agrees with the game after {counted(actions, 'action')}")
        return
    for d in wrong:
        print(f"space {d.space}: the game has {_camels(d.game)}; the camera sees "
              f"{_camels(d.camera)}")
    if len(rolls) == 1:
        print(f"the board is the game's if the last roll was: {dump_line(rolls[0].to_json())}")
    elif rolls:
        print(f"{len(rolls)} rolls in place of the last one would explain the board: "
              + "; ".join(dump_line(r.to_json()) for r in rolls))
    else:
        print("no roll in place of the last one explains the board: put the camels as the "
              "game has them, or correct the game")


def _camels(stack) -> str:
    return ", ".join(c or "a camel it cannot tell" for c in stack) if stack else "no camel"
