"""The advisor: keeps the table's odds fresh from a worker process, never holding the table up.

Every new position the table publishes is handed to a worker process; when its odds come
back they are published beside the game, unless the game has moved on meanwhile. Only the
newest position is ever worked on: positions that came and went while the worker was busy
are skipped, so a burst of rolls costs one computation, not one per roll.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from companion.snapshot import Snapshot
from companion.table import Table, TableClosed

log = logging.getLogger(__name__)


def _odds_of(game: str, state: Any, races: int | None) -> dict[str, Any] | None:
    """Run in the worker process, which alone loads NumPy; None for a game without odds."""
    from companion.odds import ODDS, RACES

    odds = ODDS.get(game)
    return None if odds is None else odds(state, races=RACES if races is None else races)


class Advisor:
    """Computes the odds of each new game version in one worker process. A context manager."""

    def __init__(self, table: Table, *, races: int | None = None) -> None:
        self.table = table
        self.races = races
        self._newest: Snapshot | None = None
        self._wake = threading.Condition()
        self._is_closed = False
        self._workers = ProcessPoolExecutor(max_workers=1,
                                            mp_context=multiprocessing.get_context("spawn"))
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
        self._workers.shutdown(cancel_futures=True)

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        """On the table's thread: note the newest game version and return at once."""
        if snapshot.version != snapshot.game_version:
            return
        with self._wake:
            self._newest = snapshot
            self._wake.notify_all()

    def _loop(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._is_closed or self._newest is not None)
                if self._is_closed:
                    return
                snapshot, self._newest = self._newest, None
            assert snapshot is not None
            try:
                odds = self._workers.submit(_odds_of, snapshot.view["game"], snapshot.state,
                                            self.races).result()
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
