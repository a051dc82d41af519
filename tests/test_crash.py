"""Pull the plug on the writer: every action it acknowledged is in the store, which opens clean.

A writer process pushes the actions of a random game into a store and prints one line after
each push returns: its acknowledgement. The test kills it with SIGKILL at random points, often
in the middle of the next write, then reopens the store as the table would after a restart.
"""

import random

from companion.store import Store
from tests.play import HEADERS, random_game
from tests.writer import kill_after, start_writer

WRITER = """
import sys
from companion.store import Store
from tests.play import HEADERS, random_game

path, edition, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
planned = random_game(HEADERS[edition], seed).actions
with Store(path) as store:
    stored = store.open_game() if store.games() else store.new_game(HEADERS[edition])
    print("ready", len(stored.game), flush=True)
    for action in planned[len(stored.game):]:
        stored.push(action)
        print("ack", len(stored.game), flush=True)
print("done", flush=True)
"""
"""Resumes the game where the store left it, as the table does after a restart."""


def run_until_killed(path, edition, seed, rng):
    """Start the writer, let it acknowledge a random number of pushes, SIGKILL it, half the
    time somewhere inside the next push; the number of actions acknowledged."""
    acks = rng.randint(0, 12)
    pause = rng.uniform(0, 0.003) if rng.random() < 0.5 else 0.0
    return kill_after(start_writer(WRITER, path, edition, seed), acks, pause, timeout=10)


def test_every_acknowledged_action_survives_sigkill_of_the_writer(tmp_path):
    kills = 0
    for seed in range(8):
        edition = ("camelup-2014", "camelup-2018")[seed % 2]
        planned = random_game(HEADERS[edition], seed).actions
        path, rng = tmp_path / f"store-{seed}.sqlite", random.Random(seed)
        for _ in range(3):
            acked = run_until_killed(path, edition, seed, rng)
            kills += 1
            with Store(path) as store:
                assert store.db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
                stored = store.open_game()
                kept = stored.game.actions
                assert len(kept) >= acked, (seed, len(kept), acked)
                assert kept == planned[: len(kept)], seed
                assert {r.kind for r in stored.records()} <= {"push"}
        finished = start_writer(WRITER, path, edition, seed)
        out, err = finished.communicate(timeout=60)
        assert finished.returncode == 0, err
        assert out.splitlines()[-1] == "done"
        with Store(path) as store:
            assert store.db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert store.open_game().game.actions == planned
    assert kills == 24
