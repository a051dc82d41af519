"""What the crash-safe store costs: the latency of one acknowledged push, and a rebuild.

Every push is committed with the write-ahead log synced (synchronous=FULL), so its latency is
the disk's fsync time; on a Pi's SD card it is the figure to watch. A store checks itself
whole when it opens; the time that takes for a year of games is the other figure. Prints,
asserts nothing.
Run: .venv/bin/python bench/store.py [DIRECTORY]   (default: a temporary directory)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.gamelog import dump_line, load_game
from companion.store import Store

EXAMPLE = Path(__file__).parent.parent / "examples" / "camelup-2018.jsonl"
GAMES = 200
"""Games in the store whose check on opening is timed: a year of game nights."""


def main(directory: str | None) -> None:
    game = load_game(EXAMPLE)
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        path = Path(tmp) / "bench.sqlite3"
        with Store(path) as store:
            stored = store.new_game(game.header)
            latencies = []
            for action in game.actions:
                start = time.perf_counter()
                stored.push(action)
                latencies.append(time.perf_counter() - start)
        start = time.perf_counter()
        with Store(path) as store:
            opened = time.perf_counter() - start
            store.open_game()
        rebuild = time.perf_counter() - start
        night = Path(tmp) / "night.sqlite3"
        with Store(night) as store:
            with store.writing():
                for _ in range(GAMES):
                    game_id = store.add_game(game.header)
                    for action in game.actions:
                        store.add_record(game_id, "push", None, dump_line(action.to_json()))
            records = store.db.execute("SELECT COUNT(*) FROM records").fetchone()[0]
        size_mb = night.stat().st_size / 1e6
        start = time.perf_counter()
        Store(night).close()
        checked = time.perf_counter() - start
    ms = sorted(t * 1e3 for t in latencies)
    print(f"push, acknowledged on disk: median {statistics.median(ms):.2f} ms, "
          f"p95 {ms[int(len(ms) * 0.95)]:.2f} ms, max {ms[-1]:.2f} ms over {len(ms)} pushes "
          f"in {path.parent}")
    print(f"reopen and rebuild a {len(ms)}-action game: {rebuild * 1e3:.1f} ms, of which the "
          f"store's check of itself {opened * 1e3:.1f} ms")
    print(f"open and check a store of {GAMES} such games ({records} records, {size_mb:.1f} MB: "
          f"integrity_check, numbering, every row's digest): {checked * 1e3:.0f} ms")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
