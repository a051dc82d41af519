"""The demo's memory, game by game: what `camel-companion demo` and its odds worker hold.

For each game it starts the demo (`--game GAME`, a free loopback port, a fixed seed, fast
speed) as a subprocess, lets it play for SECONDS, sampling twice a second, and prints the
resident (RSS) and proportional (PSS, shared pages split between the processes that map them)
memory of the demo process and of all its children, from /proc/PID/smaps_rollup: the peak and
the median over the run, in MB (one run's peak varies by 10 to 20 MB with what is in
flight when it is sampled; the median less). The target (issue 23) is 150 MB for the whole demo, so
the figure that matters is the total PSS. Linux only; prints figures, asserts nothing.
Run: .venv/bin/python bench/memory.py [SECONDS] [GAME ...]   (default: 45 s, all four games)
"""

from __future__ import annotations

import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = Path(sys.executable).with_name("camel-companion")
GAMES = ["camelup-2014", "camelup-2018", "camelup-cards", "last-camel"]
SEED = 7
SPEED = 4.0
MB = 1024 * 1024


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def children(pid: int) -> list[int]:
    """The process ids of `pid`'s descendants, nearest first."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop(0)
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of process `pid` in bytes; (0, 0) when it has gone."""
    sizes = {}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            key, _, rest = line.partition(":")
            if key in ("Rss", "Pss"):
                sizes[key] = int(rest.split()[0]) * 1024
    except OSError:
        return 0, 0
    return sizes.get("Rss", 0), sizes.get("Pss", 0)


def measure(game: str, seconds: float) -> dict[str, tuple[int, int]]:
    """Peak and median (RSS, PSS) of the demo's main process, its children and both
    together; SystemExit with the demo's last words if it stops on its own."""
    samples: dict[str, list[tuple[int, int]]] = {"main": [], "children": [], "total": []}
    with tempfile.TemporaryDirectory() as home, open(Path(home) / "demo.log", "w+") as log:
        demo = subprocess.Popen(
            [str(SCRIPT), "demo", "--game", game, "--host", "127.0.0.1",
             "--port", str(free_port()), "--seed", str(SEED), "--speed", str(SPEED)],
            stdout=subprocess.DEVNULL, stderr=log, cwd=home)
        try:
            end = time.monotonic() + seconds
            while time.monotonic() < end and demo.poll() is None:
                time.sleep(0.5)
                main = memory(demo.pid)
                kids = [memory(kid) for kid in children(demo.pid)]
                rest = (sum(k[0] for k in kids), sum(k[1] for k in kids))
                samples["main"].append(main)
                samples["children"].append(rest)
                samples["total"].append((main[0] + rest[0], main[1] + rest[1]))
            if demo.poll() is not None:
                log.seek(0)
                raise SystemExit(f"{game}: the demo stopped: {log.read()[-500:]}")
        finally:
            demo.terminate()
            try:
                demo.wait(10)
            except subprocess.TimeoutExpired:
                demo.kill()
                demo.wait()
    figures = {}
    for part, got in samples.items():
        if got:
            figures[f"peak {part}"] = (max(r for r, _ in got), max(p for _, p in got))
            figures[f"median {part}"] = (int(statistics.median(r for r, _ in got)),
                                         int(statistics.median(p for _, p in got)))
    return figures


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 45.0
    games = sys.argv[2:] or GAMES
    print(f"camel-companion demo, seed {SEED}, speed {SPEED:g}, {seconds:g} s a game; MB "
          "(RSS / PSS), children = the odds worker and any other")
    print(f"{'game':<14} {'':<6} {'main':>15} {'children':>15} {'total':>15}")
    for game in games:
        figures = measure(game, seconds)
        for when in ("peak", "median"):
            cells = [figures.get(f"{when} {part}", (0, 0))
                     for part in ("main", "children", "total")]
            print(f"{game:<14} {when:<6} "
                  + " ".join(f"{rss / MB:>6.0f} / {pss / MB:>6.0f}" for rss, pss in cells),
                  flush=True)


if __name__ == "__main__":
    main()
