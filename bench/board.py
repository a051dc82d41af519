"""How well and how fast the board reader works: prints figures, asserts nothing.

Run: .venv/bin/python bench/board.py [--tables N] [--frames K] [--first SESSION] [--unlike]
                                     [--legs]

Rendered board tables from vision.synth_board.VALIDATION_SESSIONS on (nothing was tuned on
them; `--first` reads other tables, e.g. the tuning tables from 600,000), both editions in
turn and the six lights two tables each, seen from 25 to 55 degrees off vertical at 1280x720.
Each table is calibrated as at set-up (markers, then one frame of every camel alone on its own
space); then K frames of camels in stacks, with desert tiles, coins, cards, the pyramid, and a
hand over the board in about one frame in five. Prints the share of camels right, wrong,
unknown, missed and false, whole boards right, hand frames read as boards (and camels wrong on
them), by edition and by light, and the time of a read per frame on one core (the fastest of
three runs of each frame, the median over the frames). Each frame without a hand is also read
against its true board and against one with a camel set down wrong, as the table reads it
against the game's: how often the board alert would be raised for each. `--unlike` reads
tables whose camels are painted unlike the game's own (another maker's shades), from
vision.synth_board.UNLIKE_VALIDATION_SESSIONS on. `--legs` reads the same tables with every
camel cut with legs rather than a solid block (the board shows under a camel standing on it;
stacks nest): a change of shape alone, against the figures without it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

# run as a script, this file's folder comes first on the path and its name would hide the
# vision package: look in the repository instead
REPO = Path(__file__).resolve().parent.parent
sys.path[0] = str(REPO)
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.board_check import SURE  # noqa: E402
from training.scoring import BoardScore, score_board  # noqa: E402
from vision.board import set_up  # noqa: E402
from vision.calibrate import CalibrationError, calibrate_table  # noqa: E402
from vision.camels import camel_set  # noqa: E402
from vision.synth_board import (  # noqa: E402
    UNLIKE_VALIDATION_SESSIONS,
    VALIDATION_SESSIONS,
    board_session,
    slipped,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--frames", type=int, default=5)
    parser.add_argument("--first", type=int)
    parser.add_argument("--unlike", action="store_true",
                        help="camels painted unlike the game's own, on their own tables")
    parser.add_argument("--legs", action="store_true",
                        help="camels cut with legs rather than solid blocks, the same tables")
    args = parser.parse_args()
    validation = UNLIKE_VALIDATION_SESSIONS if args.unlike else VALIDATION_SESSIONS
    if args.first is None:
        args.first = validation
    cv2.setNumThreads(1)
    total = BoardScore()
    by_game: dict[str, BoardScore] = defaultdict(BoardScore)
    by_light: dict[str, BoardScore] = defaultdict(BoardScore)
    refused, times = [], []
    alerts: dict[bool, list[bool]] = {False: [], True: []}
    rng = random.Random(args.first)
    for session in range(args.first, args.first + args.tables):
        table = board_session(session, unlike=args.unlike, legs=args.legs)
        camels = camel_set(table.game)
        try:
            found = calibrate_table(table.setup.image, table.table.layout)
            reader = set_up(table.setup.image, found, table.table.track, camels)
        except CalibrationError as e:
            refused.append(f"{session} ({table.game}, {table.light.name}): {e}")
            continue
        for _ in range(args.frames):
            frame = table.frame()
            runs = []
            for _ in range(3):
                start = time.perf_counter()
                reading = reader.read(frame.image)
                runs.append(time.perf_counter() - start)
            times.append(min(runs))
            result = score_board(frame.stacks, frame.hand, reading)
            for score in (total, by_game[table.game], by_light[table.light.name]):
                score.add(result)
            if not frame.hand:
                for wrong, against in ((False, frame.stacks), (True, slipped(rng, frame.stacks))):
                    read = reader.read(frame.image, against)
                    alerts[wrong].append(read.contradicts is not None
                                         and read.contradicts >= SURE)
    print(f"board tables {args.first:,}-{args.first + args.tables - 1:,}, {args.frames} frames "
          f"each, 1280x720" + (", camels unlike the game's own" if args.unlike else "")
          + (", camels cut with legs" if args.legs else "")
          + (" (VALIDATION: never tuned on)" if args.first >= validation else " (not validation)"))
    print(f"  all: {total.summary()}")
    for name, score in sorted(by_game.items()):
        print(f"  {name}: {score.summary()}")
    for name, score in sorted(by_light.items()):
        print(f"  {name} light: {score.summary()}")
    right, wrong = alerts[False], alerts[True]
    print(f"  board alert (contradicts >= {SURE}): on {sum(right)} of {len(right)} boards read "
          f"against the truth (false alerts), on {sum(wrong)} of {len(wrong)} read against the "
          "truth with a camel set a space on or two neighbours swapped")
    print(f"  set-up refused on {len(refused)} of {args.tables} tables")
    for line in refused:
        print(f"    {line}")
    print(f"  a read: median {1000 * float(np.median(times)):.1f} ms, 90th percentile "
          f"{1000 * float(np.percentile(times, 90)):.1f} ms per frame, one core")


if __name__ == "__main__":
    main()
