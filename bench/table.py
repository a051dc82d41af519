"""The whole table: a die settling in the camera's frames to the roll on a phone, the loop's
CPU per frame, the demo's memory after a full game, and the time from start to serving.

1. Latency. A camera replays frames rendered beforehand at 30 frames a second, as a live
   camera delivers them (rendering is not the camera's cost); dice are thrown one after
   another. Each roll is timed from the moment the first frame with its die at rest is
   delivered to the moment a page's live stream (SSE over loopback) carries the roll.
2. CPU per frame: the same frames read as fast as the loop takes them, on one core, the
   process's CPU time (camera, settling, reading, table, store) over the frames, at 640x480
   and 1280x720.
3. Memory: `camel-companion demo` plays one whole game (fast), then its resident memory and
   its odds worker's are read from /proc.
4. Start-up: `camel-companion run` (no camera, no panel) and `camel-companion demo`, from
   the process starting to the dashboard answering.

Prints figures, asserts nothing.
Run: .venv/bin/python bench/table.py [ROLLS]   (default 15 rolls per measure)
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.camera import TableCamera  # noqa: E402
from companion.hosting import Listening, dashboard  # noqa: E402
from companion.rules import GAMES  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.film import Film  # noqa: E402
from vision.stage import Stage  # noqa: E402

SCRIPT = Path(sys.executable).with_name("camel-companion")
FPS = 30.0


def film(rolls: int, size: tuple[int, int], seed: int = 5):
    """A stage's frames of `rolls` dice thrown one by one (the dice picked up after every
    five), the frame where each die first lies still, and the stage and the dice thrown."""
    stage = Stage("camelup-2014", seed=seed, size=size, fps=FPS, hard_share=0.0)
    stage.settler()  # calibrated before filming, as a table is at set-up

    def settler(game: str) -> Any:
        return stage.settler()

    frames = [stage.read().image for _ in range(10)]
    resting = {}
    dice = [s.colour for s in stage.table.dice.dice]
    for k in range(rolls):
        if k and k % len(dice) == 0:
            stage.clear()
            while not stage.wait_filmed(0):
                frames.append(stage.read().image)
        stage.throw(dice[k % len(dice)])
        for step in range(22):
            if step == 10:
                resting[len(frames)] = k
            frames.append(stage.read().image)
        frames += [stage.read().image for _ in range(8)]
    return frames, resting, settler


def latency(rolls: int) -> None:
    frames, resting, settler = film(rolls, (640, 480))
    header = GAMES["camelup-2014"].new_header(["Ann", "Bob"], random.Random(1))
    arrived: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as folder, \
            Table(Path(folder) / "t.sqlite3", first_game=header) as table, \
            dashboard(table, Listening("127.0.0.1", 0, "1357", "k")) as server:
        server.start()
        stream = urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/events", timeout=30)

        def listen() -> None:
            with contextlib.suppress(OSError, AttributeError, ValueError):
                read(stream)

        def read(stream) -> None:
            for raw in stream:
                line = raw.decode()
                if line.startswith("data: "):
                    view = json.loads(line[6:])
                    rolls_seen = sum(h["action"]["action"] == "roll" for h in view["history"])
                    for k in range(rolls_seen):
                        arrived.setdefault(k, time.monotonic())

        threading.Thread(target=listen, daemon=True).start()
        time.sleep(0.3)
        source = Film(frames, fps=FPS, paced=True, hold_last=False, marks=resting)
        with TableCamera(lambda: source, settler).attach(table):
            source.done.wait(len(frames) / FPS + 60)
            time.sleep(1.0)
        stream.close()
    waits = sorted((arrived[k] - source.delivered[k]) * 1000 for k in source.delivered
                   if k in arrived)
    missed = len(source.delivered) - len(waits)
    print(f"settled die -> roll on a page's live stream: {len(waits)} rolls, "
          f"p50 {statistics.median(waits):.0f} ms, p95 {_p95(waits):.0f} ms, "
          f"max {max(waits):.0f} ms ({missed} not read)")
    print("  (the settler waits for 5 still frames at 30 fps: 167 ms of that is by design)")


def cpu_per_frame(rolls: int, size: tuple[int, int]) -> None:
    frames, resting, settler = film(rolls, size)
    header = GAMES["camelup-2014"].new_header(["Ann", "Bob"], random.Random(1))
    with tempfile.TemporaryDirectory() as folder, \
            Table(Path(folder) / "t.sqlite3", first_game=header) as table:
        source = Film(frames, fps=FPS, hold_last=False, marks=resting)
        start_cpu, start = time.process_time(), time.monotonic()
        with TableCamera(lambda: source, settler).attach(table):
            source.done.wait(600)
        cpu, wall = time.process_time() - start_cpu, time.monotonic() - start
        rolled = len(table.snapshot.view["history"])
    print(f"whole loop at {size[0]}x{size[1]}: {cpu / len(frames) * 1000:.1f} ms CPU per frame "
          f"({len(frames)} frames, {rolled} rolls, {len(frames) / wall:.0f} frames/s on one "
          f"core)")


def demo_memory() -> None:
    started = time.monotonic()
    demo = subprocess.Popen([str(SCRIPT), "demo", "--port", "0", "--host", "127.0.0.1",
                             "--speed", "40", "--seed", "3", "--players", "3", "--games", "1",
                             "--game", "camelup-2014"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        demo.stdout.readline()
        url = demo.stdout.readline().split("open ")[1].split(" ")[0]
        state: dict = {}
        while time.monotonic() - started < 1800:
            with urllib.request.urlopen(url + "api/state", timeout=30) as answer:
                state = json.load(answer)
            if state["finished"]:
                break
            time.sleep(2)
        rss = _rss(demo.pid)
        workers = [_rss(int(p)) for p in _children(demo.pid)]
        print(f"demo after a whole game ({len(state['history'])} actions, "
              f"{len(state['readings'])} camera readings, finished {state['finished']}, "
              f"{time.monotonic() - started:.0f} s): {rss:.0f} MB resident; its child "
              f"processes (odds worker, multiprocessing's tracker) "
              f"{' + '.join(f'{w:.0f}' for w in workers) or 'none'} MB")
    finally:
        demo.terminate()
        demo.wait(60)


def start_up() -> None:
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "c.toml"
        config.write_text('[table]\nport = 0\nhost = "127.0.0.1"\nbuttons = ""\ncamera = false\n')
        times = [_time_to_serving([str(SCRIPT), "run", "--config", str(config)],
                                  {"STATE_DIRECTORY": str(Path(folder) / "state")})
                 for _ in range(3)]
    print(f"start-up of run (no camera, no panel) to serving: median "
          f"{statistics.median(times):.2f} s of {', '.join(f'{t:.2f}' for t in times)}")
    times = [_time_to_serving([str(SCRIPT), "demo", "--port", "0", "--host", "127.0.0.1",
                               "--no-odds"], {}) for _ in range(3)]
    print(f"start-up of demo (renders and calibrates its table first) to serving: median "
          f"{statistics.median(times):.2f} s")


def _time_to_serving(command: list[str], env: dict[str, str]) -> float:
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, env={**os.environ, **env})
    try:
        url = ""
        while "open " not in url:
            url = process.stdout.readline()
        url = url.split("open ")[1].split(" ")[0]
        with urllib.request.urlopen(url + "api/state", timeout=30):
            return time.monotonic() - started
    finally:
        process.terminate()
        process.wait(60)


def _rss(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _children(pid: int) -> list[str]:
    """The processes `pid` started, from any of its threads (the odds worker is started by
    the advisor's)."""
    return [child for task in Path(f"/proc/{pid}/task").iterdir()
            for child in (task / "children").read_text().split()]


def _p95(values: list[float]) -> float:
    return values[min(len(values) - 1, int(len(values) * 0.95))]


def main() -> None:
    rolls = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"one core ({os.cpu_count()} on this machine); {rolls} rolls per measure")
    latency(rolls)
    cpu_per_frame(rolls, (640, 480))
    cpu_per_frame(rolls, (1280, 720))
    start_up()
    demo_memory()


if __name__ == "__main__":
    main()
