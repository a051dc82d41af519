"""The advisor: keeps the table's odds fresh from a worker process, never holding the table up.

Every new position the table publishes is handed to a worker process; when its odds come
back they are published beside the game, unless the game has moved on meanwhile. Only the
newest position is ever worked on: positions that came and went while the worker was busy
are skipped, so a burst of rolls costs one computation, not one per roll.

The worker is a plain Python process (`python -m companion.advisor`) fed pickled positions on
its standard input and answering on its standard output. It loads the odds and the rules and
nothing of the table, and hands the memory of each computation back to the system, so that
it stays small beside the dashboard's browser on a Pi.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.snapshot import Snapshot
    from companion.table import Table

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
"""prctl's option number for the signal a process gets when its parent dies (linux/prctl.h)."""
M_ARENA_MAX = -8
"""glibc's `mallopt` setting for how many memory arenas its threads may spread over."""
M_MMAP_THRESHOLD = -3
"""glibc's `mallopt` setting for the size from which a block gets pages of its own (malloc.h)."""
MMAP_THRESHOLD = 256 * 1024
"""Bytes from which glibc gives each block pages of its own, returned when freed."""


class OddsFailed(CompanionError, RuntimeError):
    """The odds worker stopped, or failed on a position: these odds are not there."""


def trim_memory() -> None:
    """Hand the memory this process has freed back to the system, where the C library is glibc
    (which otherwise keeps it, so that a process only ever grows); elsewhere nothing."""
    with contextlib.suppress(AttributeError, OSError, TypeError):
        ctypes.CDLL(None).malloc_trim(0)


def share_memory_arenas(arenas: int = 1) -> None:
    """Have all threads started after this share `arenas` glibc memory arenas rather than one
    each (64 MB apiece to reserve, filled in part and seldom given back); elsewhere nothing.
    One arena for all: the demo's main process holds 15-20 MB less than with two (camelup-2018,
    median PSS 170-174 -> 152-160 MB) for about 6 % more CPU (30.3 -> 32.2 s in 45 s)."""
    with contextlib.suppress(AttributeError, OSError, TypeError):
        ctypes.CDLL(None).mallopt(M_ARENA_MAX, arenas)


def return_large_blocks() -> None:
    """Give every block of MMAP_THRESHOLD bytes or more pages of its own, returned to the
    system the moment it is freed, where the C library is glibc; elsewhere nothing.

    glibc raises its threshold each time it frees a large block, after which frames, the
    rendered table and the readers' tables are carved from its heap: a block that stays pins
    the heap under it, and what is freed below it is kept. Called first thing, before
    anything large is made: the demo's main process measured 160 -> 146 MB median PSS
    (bench/memory.py 45 camelup-2018), where fixing it only once the camera started left
    the set-up's tables in the heap."""
    with contextlib.suppress(AttributeError, OSError, TypeError):
        ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)


def _odds_of(game: str, state: Any, races: int | None) -> dict[str, Any] | None:
    """Run in the worker process, which alone loads NumPy; None for a game without odds."""
    from companion.odds import ODDS, RACES

    odds = ODDS.get(game)
    return None if odds is None else odds(state, races=RACES if races is None else races)


def _send(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    """The next value `_send` wrote; EOFError when the other end has closed."""
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError("the other end closed")
    data = stream.read(struct.unpack("<Q", head)[0])
    return pickle.loads(data)


def serve_odds(requests: IO[bytes], answers: IO[bytes]) -> None:
    """The worker: `(game, state, races)` in, `("odds", odds)` or `("error", text)` out, one
    for one, until its requests end."""
    while True:
        try:
            game, state, races = _receive(requests)
        except EOFError:
            return
        answer: tuple[str, Any]
        try:
            answer = ("odds", _odds_of(game, state, races))
        except Exception:
            answer = ("error", traceback.format_exc())
        _send(answers, answer)
        trim_memory()


class Advisor:
    """Computes the odds of each new game version in one worker process. A context manager."""

    def __init__(self, table: Table, *, races: int | None = None) -> None:
        self.table = table
        self.races = races
        self._newest: Snapshot | None = None
        self._wake = threading.Condition()
        self._is_closed = False
        self._worker: subprocess.Popen[bytes] | None = None
        self._thread = threading.Thread(target=self._loop, name="advisor", daemon=True)
        self._thread.start()
        table.when_published.append(self._on_snapshot)
        self._on_snapshot(table.snapshot)

    def __enter__(self) -> Advisor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop taking positions, let the worker finish, and end; safe to call twice."""
        if self._on_snapshot in self.table.when_published:
            self.table.when_published.remove(self._on_snapshot)
        with self._wake:
            self._is_closed = True
            self._wake.notify_all()
        self._thread.join()
        self._stop_worker()

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        """On the table's thread: note the newest game version and return at once."""
        if snapshot.version != snapshot.game_version:
            return
        with self._wake:
            self._newest = snapshot
            self._wake.notify_all()

    def _loop(self) -> None:
        from companion.table import TableClosed

        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._is_closed or self._newest is not None)
                if self._is_closed:
                    return
                snapshot, self._newest = self._newest, None
            assert snapshot is not None
            try:
                odds = self._ask(snapshot.view["game"], snapshot.state)
            except Exception:
                log.exception("the odds of game version %d could not be computed",
                              snapshot.game_version)
                continue
            if odds is None:
                continue
            try:
                self.table.publish_odds(snapshot.game_version, odds)
            except TableClosed:
                return

    def _ask(self, game: str, state: Any) -> dict[str, Any] | None:
        """The worker's odds of `state`, starting the worker if it is not running. A worker
        found dead while asked (killed a moment before: not yet seen to have ended) is
        started again and asked once more, so the position's odds are not lost."""
        for attempt in range(2):
            if self._worker is not None and self._worker.poll() is not None:
                self._stop_worker()
            if self._worker is None:
                self._worker = self._start_worker()
            assert self._worker.stdin is not None and self._worker.stdout is not None
            try:
                _send(self._worker.stdin, (game, state, self.races))
                kind, answer = _receive(self._worker.stdout)
                break
            except (OSError, EOFError) as e:
                self._stop_worker()
                if attempt:
                    raise OddsFailed("the odds worker stopped") from e
        if kind == "error":
            raise OddsFailed(f"the odds worker failed:\n{answer}")
        return answer

    def _start_worker(self) -> subprocess.Popen:
        here = str(Path(__file__).resolve().parent.parent)
        path = os.pathsep.join(filter(None, (here, os.environ.get("PYTHONPATH"))))
        return subprocess.Popen([sys.executable, "-m", "companion.advisor", str(os.getpid())],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": path})

    def _stop_worker(self) -> None:
        """Close the worker's requests, so that it ends, and wait for it."""
        worker, self._worker = self._worker, None
        if worker is None:
            return
        assert worker.stdin is not None and worker.stdout is not None
        with contextlib.suppress(OSError):
            worker.stdin.close()
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        worker.stdout.close()


def die_with_parent(parent: int) -> None:
    """Have Linux end this process the moment its parent (pid `parent`) dies, even
    mid-computation: its requests ending tells it so only once it next reads them. Elsewhere
    nothing is done."""
    name = ctypes.util.find_library("c")
    if not sys.platform.startswith("linux") or name is None:
        return
    ctypes.CDLL(name).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:     # the parent died before the call
        os._exit(0)


if __name__ == "__main__":
    return_large_blocks()
    die_with_parent(int(sys.argv[1]))
    answers, sys.stdout = sys.stdout.buffer, sys.stderr  # a stray print must not break a reply
    serve_odds(sys.stdin.buffer, answers)
