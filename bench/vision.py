"""How well and how fast the dice reader works: prints figures, asserts nothing.

Run: .venv/bin/python bench/vision.py [--dice N] [--quick] [--dice-only] [--cards-only]
[--last-camel-only] [--unlike-only]

Rendered frames: at least N dice (default 2,000) over every light, both editions, each table
calibrated as at set-up (markers, then one shot of all the dice), on tables from
VALIDATION_SESSIONS on, which nothing was tuned on; and set-up frames of those tables with one
die left out, which calibration should refuse; then the same on tables whose dice are
painted and pipped unlike the game's own (vision.synth.other_dice), as another maker's or
another renderer's, from UNLIKE_VALIDATION_SESSIONS on (`--unlike-only`: those alone). Real
photos: the labelled sets in
../shared/data/dice-photos, read with no calibration (`--dice any`): each set's validation
photos (never trained or tuned on), then its training photos (a training figure, printed as
such), then the validation photos resized or turned as another camera would take them.
Times are per frame on one core, at 640x480 and 1280x720 (the fastest of five runs of each
frame, the median over the frames): settling alone (a frame the reader is not run on), and a
full read of the roll zone (what a still frame costs on top). Memory: the resident memory of
a process that does nothing but read 1280x720 frames with a calibrated reader. Racing
cards: rendered frames of the reveal zone, read with the table's calibration and without it,
and the time of a read.
The Last Camel: its two colour dice on rendered tables under every light, calibrated
(markers, then one shot of the two dice), and the time of a read.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

# run as a script, this file's folder comes first on the path and its name would hide the
# vision package: look in the repository instead
REPO = Path(__file__).resolve().parent.parent
sys.path[0] = str(REPO)
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.readings import CONFIDENT  # noqa: E402
from training.labelled import SETS, resized, split, turned  # noqa: E402
from training.scoring import Score, TrueDie, score, score_cards  # noqa: E402
from vision.calibrate import CalibrationError, calibrate_table, learn_colours  # noqa: E402
from vision.cards import CardReader, learn_card_colours  # noqa: E402
from vision.colour_dice import ColourDiceReader, learn_face_colours  # noqa: E402
from vision.dice import DiceReader  # noqa: E402
from vision.dicesets import LAST_CAMEL, dice_set  # noqa: E402
from vision.light import LightChange  # noqa: E402
from vision.rendered_set import (  # noqa: E402
    CARD_VALIDATION_SESSIONS,
    LAST_CAMEL_VALIDATION_SESSIONS,
    UNLIKE_VALIDATION_SESSIONS,
    VALIDATION_SESSIONS,
    rendered_table,
)
from vision.settle import Settler  # noqa: E402
from vision.synth import (  # noqa: E402
    LIGHTS,
    calibration_frame,
    random_light,
    random_table,
    roll_sequence,
)
from vision.synth_cards import card_calibration_frame, card_frame  # noqa: E402
from vision.synth_colour_dice import calibration_frame as colour_calibration_frame  # noqa: E402
from vision.synth_colour_dice import colour_dice_table  # noqa: E402
from vision.synth_colour_dice import roll_frame as colour_roll_frame  # noqa: E402


def _tables(unlike: bool) -> tuple[int, str]:
    """Where a rendered set's tables begin, and the words that name the set in a figure."""
    if unlike:
        return UNLIKE_VALIDATION_SESSIONS, ", dice unlike the game's own"
    return VALIDATION_SESSIONS, ""


def rendered(target: int, frames_per_table: int = 6, *, unlike: bool = False) -> None:
    """At least `target` dice on rendered tables, calibrated; with `unlike`, tables whose dice
    are made unlike the game's own (other shades, pips spaced, sized and coloured otherwise)."""
    by_light: dict[str, Score] = defaultdict(Score)
    by_game: dict[str, Score] = defaultdict(Score)
    failed_calibrations = retries = 0
    sure = Score()   # each reading the table applies without a press, scored alone
    first, label = _tables(unlike)
    session = first
    while sum(s.dice for s in by_game.values()) < target:
        table = rendered_table(session, unlike=unlike)
        session += 1
        retries += table.retries
        if table.reader is None:
            failed_calibrations += 1
            continue
        for _ in range(frames_per_table):
            frame = table.roll()
            truth = [TrueDie(d.box, d.value, d.colour, d.numeral) for d in frame.dice
                     if d.visible]
            hidden = [d.box for d in frame.dice if not d.visible]
            readings = table.reader.read(frame.image)
            result = score(truth, readings, ignore=hidden)
            by_light[table.light_name].add(result)
            by_game[table.game].add(result)
            for reading in readings:
                if reading.confidence > CONFIDENT:
                    sure.add(score(truth, [reading], ignore=hidden))
    total = Score()
    for result in by_game.values():
        total.add(result)
    print(f"rendered frames{label}, calibrated (tables {first} to {session - 1}, never tuned on; "
          f"colour calibration asked for "
          f"another shot {retries} times, and failed three times on {failed_calibrations} "
          f"tables, left out):")
    print(f"  all:          {total.summary()}")
    for game, result in by_game.items():
        print(f"  {game}: {result.summary()}")
    for light, result in sorted(by_light.items()):
        print(f"  {light:12s}  {result.summary()}")
    print(f"  read surely enough to be applied without a press (confidence above "
          f"{CONFIDENT}): {sure.right / max(total.dice, 1):.1%} of the dice, read right; "
          f"{sure.wrong} wrong, {sure.false} false")
    kinds: dict[str, int] = defaultdict(int)
    for kind, _, _ in total.misses:
        kinds[kind] += 1
    print("  what went amiss: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))


def left_out(tables: int, *, unlike: bool = False) -> None:
    """Colour calibration from set-up frames with one die left out, as a person who forgot
    it lays them: each should be refused, naming that die; one taken would misname the die
    all game. With `unlike`, on tables whose dice are unlike the game's own."""
    accepted = []
    first, label = _tables(unlike)
    for session in range(first, first + tables):
        table = rendered_table(session, unlike=unlike)
        dice = dice_set(table.game)
        gone = dice.colours[session % len(dice.colours)]
        shot = calibration_frame(table.table, table.light, session, leaving_out=[gone])
        try:
            learn_colours(shot.image, dice, table=calibrate_table(shot.image, table.table.layout))
            accepted.append(f"{session} ({table.game}, {table.light_name}, {gone})")
        except CalibrationError:
            continue
    print(f"set-up frames with one die left out{label} (tables {first} to "
          f"{first + tables - 1}, never tuned on): {len(accepted)} of {tables} "
          f"taken, which should all be refused{': ' if accepted else ''}{', '.join(accepted)}")


def real_photos(parts: tuple[str, ...] = ("validation", "train")) -> None:
    """The labelled photos, read with no calibration (`--dice any`): per set, the part kept
    for measuring only (training/validation-photos.txt) and the part the network was trained
    on (a training figure, printed as such); then the measuring part as other cameras would
    take it: nearer the table, further from it, turned."""
    reader = DiceReader()
    for part in parts:
        label = "held out" if part == "validation" else "TRAINED ON (a training figure)"
        total = Score()
        for name in SETS:
            result = Score()
            for path, truth in split(name, part):
                result.add(score(truth, reader.read(cv2.imread(str(path)))))
            total.add(result)
            print(f"real photos, {label}, {name:16s} {result.summary()}")
        print(f"real photos, {label}, all              {total.summary()}")
    views = {"0.5 times the size": lambda im, t: resized(im, t, 0.5),
             "0.7 times the size": lambda im, t: resized(im, t, 0.7),
             "1.4 times the size": lambda im, t: resized(im, t, 1.4),
             "turned 30 degrees": lambda im, t: turned(im, t, 30)}
    for view, take in views.items():
        result = Score()
        for name in SETS:
            for path, truth in split(name, "validation"):
                image, moved = take(cv2.imread(str(path)), truth)
                result.add(score(moved, reader.read(image)))
        print(f"real photos, held out, {view:16s} {result.summary()}")


def speed(size: tuple[int, int], repeats: int = 5) -> None:
    """Times per frame: for each frame the fastest of `repeats` runs (as timeit advises: the
    slower ones are other processes' doing, which on a shared machine swing by a third), then
    the median over the frames."""
    frames, _ = roll_sequence(5, "camelup-2018", size=size, dice=3)
    found = calibrate_table(frames[0].image, frames[0].layout)
    reader = DiceReader(dice_set("camelup-2018"), table=found)
    settler = Settler(reader, zone=found.zone)
    images = [f.image for f in frames]

    def look(image: np.ndarray) -> bool:
        return settler.moving(settler.small(image))

    watch = []
    for image in images:
        small = settler.small(image)
        watch.append(_fastest(look, image, repeats=repeats))
        settler._previous = small
    busy = [im for im, f in zip(images, frames, strict=True) if f.dice]
    reads = [_fastest(reader.read, image, repeats=repeats) for image in busy[::4]]
    plain = DiceReader()
    anywhere = [_fastest(plain.read, image, repeats=1) for image in busy[::16]]
    w, h = size
    settle, read = float(np.median(watch)), float(np.median(reads))
    print(f"time per {w}x{h} frame, one core: settling {settle * 1e3:.2f} ms; a full read of "
          f"the roll zone {read * 1e3:.1f} ms (slowest {max(reads) * 1e3:.1f}); settling + "
          f"reading {(settle + read) * 1e3:.1f} ms; the whole frame uncalibrated "
          f"(--dice any) {np.median(anywhere) * 1e3:.0f} ms")


#: what the memory's child process runs: a calibrated reader, as the table's camera holds it,
#: reading the frames handed to it one at a time, as a camera gives them; then its peak and
#: present resident memory, in kB
_READER_ALONE = """
import pathlib, pickle, sys
import cv2
import numpy as np
from vision.dice import DiceReader
from vision.dicesets import dice_set
cv2.setNumThreads(1)
folder = pathlib.Path(sys.argv[1])
reader = DiceReader(dice_set("camelup-2018"),
                    table=pickle.loads((folder / "table.pickle").read_bytes()))
for frame in sorted(folder.glob("*.npy")):
    reader.read(np.load(frame))
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
print(status["VmHWM"].split()[0], status["VmRSS"].split()[0])
"""


def reader_memory(size: tuple[int, int] = (1280, 720)) -> None:
    """The resident memory of a process that reads dice and nothing else (a calibrated
    reader, the frames of a rendered roll handed to it already drawn): its peak, and what it
    holds after the reads."""
    frames, _ = roll_sequence(5, "camelup-2018", size=size, dice=3)
    table = calibrate_table(frames[0].image, frames[0].layout)
    images = [f.image for f in frames if f.dice][::4]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "table.pickle").write_bytes(pickle.dumps(table))
        for k, image in enumerate(images):
            np.save(Path(folder) / f"{k:03d}.npy", image)
        out = subprocess.run([sys.executable, "-c", _READER_ALONE, folder], cwd=REPO,
                             capture_output=True, text=True, check=True).stdout
    peak, now = (int(v) / 1024 for v in out.split())
    w, h = size
    print(f"resident memory of a process reading {len(images)} {w}x{h} frames with a "
          f"calibrated reader: peak {peak:.0f} MB, after {now:.0f} MB")


def _fastest(run: Callable[[np.ndarray], object], image: np.ndarray, *, repeats: int
             ) -> float:
    """The shortest of `repeats` runs of `run` on `image`, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run(image)
        times.append(time.perf_counter() - start)
    return min(times)


def cards(tables: int, frames_per_table: int = 5) -> None:
    """Racing cards on rendered tables, read with the table's calibration (markers and the
    cards' colours) and without any, and the time of a read."""
    calibrated, anywhere, every = Score(), Score(), Score()
    by_light: dict[str, Score] = defaultdict(Score)
    times: dict[str, list[float]] = defaultdict(list)
    retries = failed = 0
    for session in range(CARD_VALIDATION_SESSIONS, CARD_VALIDATION_SESSIONS + tables):
        rng = np.random.default_rng(session)
        table = random_table(int(rng.integers(1 << 30)))
        light = random_light(rng, LIGHTS[session % len(LIGHTS)])
        colours = None
        for attempt in range(3):   # a person lays the cards out again when calibration asks
            shot = card_calibration_frame(table, light, session * 10 + attempt).image
            try:
                found = calibrate_table(shot, table.layout)
                colours = learn_card_colours(shot, table=found)
                break
            except CalibrationError:
                retries += 1
        if colours is None:
            failed += 1
            continue
        readers = {"calibrated": CardReader(colours, table=found,
                                            light=LightChange.of_shot(shot)),
                   "anywhere": CardReader()}
        for _ in range(frames_per_table):
            frame = card_frame(table, light, rng)
            readings = {}
            for name, reader in readers.items():
                start = time.perf_counter()
                readings[name] = reader.read(frame.image)
                times[name].append(time.perf_counter() - start)
            in_view, all_cards = score_cards(frame, readings["calibrated"])
            calibrated.add(in_view)
            by_light[light.name].add(in_view)
            every.add(all_cards)
            anywhere.add(score_cards(frame, readings["anywhere"])[0])
    print(f"racing cards, rendered ({tables} tables at 640x480, calibrated as at set-up with "
          f"one card of each camel: another shot asked {retries} times, three failed on "
          f"{failed} tables, left out):")
    print(f"  cards in full view, calibrated:   {_of_cards(calibrated)}")
    print(f"  cards in full view, anywhere (no calibration): {_of_cards(anywhere)}")
    print(f"  every card, hidden ones too, calibrated: {_of_cards(every)}")
    for light, result in sorted(by_light.items()):
        print(f"  {light:12s}  {_of_cards(result)}")
    print(f"  time per frame, one core: calibrated {np.median(times['calibrated']) * 1e3:.1f} ms, "
          f"anywhere {np.median(times['anywhere']) * 1e3:.1f} ms (median)")


def last_camel(tables: int, frames_per_table: int = 8) -> None:
    """The Last Camel's two dice on rendered tables, each calibrated as at set-up, and the
    time of a read of the roll zone."""
    by_light: dict[str, Score] = defaultdict(Score)
    times = []
    for session in range(LAST_CAMEL_VALIDATION_SESSIONS, LAST_CAMEL_VALIDATION_SESSIONS + tables):
        rng = np.random.default_rng(session)
        table = colour_dice_table(int(rng.integers(1 << 30)))
        light = random_light(rng, LIGHTS[session % len(LIGHTS)])
        shot = colour_calibration_frame(table, light, int(rng.integers(1 << 30))).image
        found = calibrate_table(shot, table.layout)
        reader = ColourDiceReader(LAST_CAMEL, learn_face_colours(shot, LAST_CAMEL, table=found),
                                  table=found, light=LightChange.of_shot(shot))
        for _ in range(frames_per_table):
            frame = colour_roll_frame(table, light, rng)
            start = time.perf_counter()
            readings = reader.read(frame.image)
            times.append(time.perf_counter() - start)
            by_light[light.name].add(score([TrueDie(d.box, d.face) for d in frame.dice
                                            if d.visible], readings,
                                           ignore=[d.box for d in frame.dice if not d.visible]))
    total = Score()
    for result in by_light.values():
        total.add(result)
    print(f"The Last Camel's dice, rendered ({tables} tables, 640x480, calibrated):")
    print(f"  all:          {total.summary()}")
    for light, result in sorted(by_light.items()):
        print(f"  {light:12s}  {result.summary()}")
    print(f"  time per frame, one core: {np.median(times) * 1e3:.1f} ms median, slowest "
          f"{max(times) * 1e3:.1f} ms")


def _of_cards(result: Score) -> str:
    """A score's summary, counting cards (training.scoring counts everything as dice)."""
    return result.summary().replace("dice", "cards")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dice", type=int, default=2000, help="rendered dice to read")
    parser.add_argument("--quick", action="store_true", help="200 rendered dice, no photos")
    parser.add_argument("--cards-only", action="store_true", help="the racing cards alone")
    parser.add_argument("--last-camel-only", action="store_true",
                        help="The Last Camel's dice alone")
    parser.add_argument("--dice-only", action="store_true",
                        help="the pip dice alone: speed, real photos, rendered tables")
    parser.add_argument("--unlike-only", action="store_true",
                        help="rendered tables whose dice are unlike the game's own, alone")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.unlike_only:
        rendered(200 if args.quick else args.dice, unlike=True)
        left_out(12 if args.quick else 300, unlike=True)
        return
    if args.cards_only:
        cards(6 if args.quick else 100)
        return
    if args.last_camel_only:
        last_camel(6 if args.quick else 180)
        return
    speed((640, 480))
    speed((1280, 720))
    reader_memory()
    if not args.quick:
        real_photos()
    for unlike in (False, True):
        rendered(200 if args.quick else args.dice, unlike=unlike)
        left_out(12 if args.quick else 300, unlike=unlike)
    if args.dice_only:
        return
    cards(6 if args.quick else 100)
    last_camel(6 if args.quick else 180)


if __name__ == "__main__":
    main()
