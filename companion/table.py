"""The table: one thread owns the game; everything else sends it commands and reads snapshots.

Phones (and later the camera and the buttons) never touch the game. They hand the table a
`Command`; its thread runs the commands one at a time, stores every change before taking it
as done, then publishes an immutable `Snapshot` to whoever waits for one. A caller may wait
for its command's answer: the new snapshot, or the one-line error that refused it, in which
case nothing changed.
"""

from __future__ import annotations

import enum
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import seams
from companion.board_check import SeenBoard, board_alert, reads_board
from companion.errors import CompanionError, IllegalAction
from companion.readings import CONFIDENT, FaceReading, confirm, confirm_roll, judge, reading_for
from companion.snapshot import Snapshot, build_view
from companion.store import Record, Store, StoredGame

log = logging.getLogger(__name__)

ANSWER_TIME = 30.0
"""Seconds a caller waits for the table to run its command before giving up on it."""
BEAT_TIME = 2.0
"""Seconds between the table's heartbeats, busy or idle (see `Table.heartbeat`)."""
BOARD_GRACE = 6.0
"""Seconds after the camels move in the game during which the board may still disagree with
it: the players are moving the camels the die just moved."""


class TableClosed(CompanionError, RuntimeError):
    """The table has stopped: nothing more can be asked of it."""


class Change(enum.Enum):
    """What a command changed, so the table knows what to publish."""

    NOTHING = "nothing"
    GAME = "game"
    """The game itself: a new game version, and the odds computed so far no longer hold."""
    VIEW = "view"
    """Only what is shown beside the game (odds, later a pending reading)."""


class Command:
    """Something asked of the table; `run` happens on the table's thread, one at a time.

    `run` either changes what the table holds and says what it changed, or raises a
    `CompanionError` having changed nothing.
    """

    def run(self, table: Table) -> Change:
        raise NotImplementedError


@dataclass(frozen=True)
class Push(Command):
    """Play an action now, given in its game-log form."""

    line: Mapping[str, Any]

    def run(self, table: Table) -> Change:
        stored = table.stored
        stored.push(stored.game.parse_action(_object(self.line)))
        return Change.GAME


@dataclass(frozen=True)
class Act(Command):
    """Play an action for whoever is to act when it runs: a button press names no player."""

    line: Mapping[str, Any]

    def run(self, table: Table) -> Change:
        stored = table.stored
        player = stored.game.state.player_to_act
        if player is None:
            raise IllegalAction("the race is over: nothing more can be played")
        stored.push(stored.game.parse_action({**_object(self.line), "player": player}))
        return Change.GAME


@dataclass(frozen=True)
class Announce(Command):
    """A one-line notice for every page: a refused button press, a camera gone or back."""

    text: str

    def run(self, table: Table) -> Change:
        number = table.notice["id"] + 1 if table.notice else 1
        table.notice = {"id": number, "text": self.text,
                        "at": datetime.now(UTC).isoformat(timespec="seconds")}
        return Change.VIEW


@dataclass(frozen=True)
class Undo(Command):
    """Take back the last action."""

    def run(self, table: Table) -> Change:
        table.stored.undo()
        return Change.GAME


@dataclass(frozen=True)
class Replace(Command):
    """Put another action in place of action `index` (0-based) and replay the rest."""

    index: int
    line: Mapping[str, Any]

    def run(self, table: Table) -> Change:
        stored = table.stored
        stored.replace(self.index, stored.game.parse_action(_object(self.line)))
        return Change.GAME


@dataclass(frozen=True)
class Insert(Command):
    """Put a forgotten action before action `index` (0-based; the length: at the end)."""

    index: int
    line: Mapping[str, Any]

    def run(self, table: Table) -> Change:
        stored = table.stored
        stored.insert(self.index, stored.game.parse_action(_object(self.line)))
        return Change.GAME


@dataclass(frozen=True)
class Delete(Command):
    """Strike action `index` (0-based) as if it had never been played, and replay the rest."""

    index: int

    def run(self, table: Table) -> Change:
        table.stored.delete(self.index)
        return Change.GAME


@dataclass(frozen=True)
class NewGame(Command):
    """Start another game at this table (the game before stays in the store, whole)."""

    header: Mapping[str, Any]

    def run(self, table: Table) -> Change:
        table.start_game(dict(_object(self.header)))
        return Change.GAME


@dataclass(frozen=True)
class Seen(Command):
    """What the camera saw come to rest (a die, a racing card, a Last Camel die's face): an
    action, a reading waiting for OK/NO (or, a lone face, for the other die), or a warning."""

    reading: Mapping[str, Any]

    def run(self, table: Table) -> Change:
        stored = table.stored
        reading = reading_for(stored.game, self.reading)
        lone = stored.lone_face() if isinstance(reading, FaceReading) else None
        partner = None if lone is None else FaceReading.from_json(lone.action or {})
        verdict = judge(stored.game, reading, confident=table.confident, partner=partner)
        pair = None if lone is None or verdict.outcome == "refused" else lone.seq
        stored.see(reading, verdict, pair=pair)
        return Change.GAME if verdict.roll else Change.VIEW


@dataclass(frozen=True)
class AcceptPending(Command):
    """OK: a waiting reading (the oldest unless `reading` names one) becomes the action.

    `correction` may set what it shows first, as a person tapping it right does: a die's
    `die`, `value` or `numeral`; a racing card's `camel` or `value`; a Last Camel pair's
    `dice` (both faces) and `moves` (the camels chosen; needed when the faces allow several).
    """

    reading: int | None = None
    correction: Mapping[str, Any] | None = None

    def run(self, table: Table) -> Change:
        waiting = table.waiting(self.reading)
        stored = table.stored
        seen = waiting.action or {}
        correction = _object(self.correction or {})
        if seen.get("pair") is None:
            vouched = {**seen, **correction, "confidence": 1.0}
            reading = reading_for(stored.game, vouched)
            assert not isinstance(reading, FaceReading)  # a face waits for OK only in a pair
            verdict = confirm(stored.game, reading)
        else:
            first = stored.record(seen["pair"]).action or {}
            verdict = confirm_roll(stored.game,
                                   correction.get("dice", [first.get("face"), seen.get("face")]),
                                   correction.get("moves"))
        stored.resolve(waiting.seq, "accepted", verdict)
        return Change.GAME


@dataclass(frozen=True)
class RejectPending(Command):
    """NO: a waiting reading (the oldest unless `reading` names one; a Last Camel pair, both
    faces) is set aside, kept."""

    reading: int | None = None

    def run(self, table: Table) -> Change:
        table.stored.resolve(table.waiting(self.reading).seq, "rejected")
        return Change.VIEW


@dataclass(frozen=True)
class BoardSeen(Command):
    """What the camera read of the board once it lay still (`vision.board`'s JSON, and
    `picture`: where each space is in the frame it was read from), checked against the game:
    a disagreement raises the board alert on every page."""

    reading: Mapping[str, Any]
    taken: float | None = None
    """When (time.monotonic) the frame read was taken, where the camera says; else now."""

    def run(self, table: Table) -> Change:
        if not reads_board(table.stored.game):
            raise IllegalAction("this game has no board the camera reads")
        seen = SeenBoard.from_json(self.reading)
        table.board_seen = seen
        table.board_taken = time.monotonic() if self.taken is None else self.taken
        return table.check_board(raising=True)


@dataclass(frozen=True)
class DismissBoard(Command):
    """The players put the table right by hand, or find it right: the board alert `alert`
    goes, and the board is checked afresh once the camera sees it still again; the same
    disagreement on the same track is not raised again."""

    alert: int | None = None

    def run(self, table: Table) -> Change:
        shown = table.board_alert
        if shown is None:
            raise IllegalAction("the board and the game agree: there is nothing to dismiss")
        if self.alert is not None and self.alert != shown["id"]:
            raise IllegalAction(f"board alert {self.alert} is gone already")
        table.board_dismissed = (table.stored.game.state.track, shown["disagreements"])
        table.board_alert = table.board_seen = None
        return Change.VIEW


@dataclass(frozen=True)
class PublishOdds(Command):
    """Odds computed from the snapshot numbered `version`: shown unless the game moved on."""

    version: int
    odds: Mapping[str, Any]

    def run(self, table: Table) -> Change:
        if self.version < table.snapshot.game_version:
            return Change.NOTHING
        table.odds = dict(self.odds)
        return Change.VIEW


def _object(line: Any) -> Mapping[str, Any]:
    if not isinstance(line, Mapping):
        raise IllegalAction(f"an action is a JSON object in the game-log form, not {line!r}")
    return line


class Table:
    """The one owner of a stored game. A context manager: `close()` is idempotent.

    The store is opened by the table's own thread (an SQLite connection belongs to the thread
    that opened it), so the table is given where the game is kept rather than an open game.
    `camera` is whatever supplies the camera's frames, or None when the table has none.
    """

    def __init__(self, store_path: str | Path, *, game_id: int | None = None,
                 first_game: Mapping[str, Any] | None = None,
                 camera: seams.Camera | None = None,
                 confident: float = CONFIDENT, beat_time: float = BEAT_TIME,
                 board_grace: float = BOARD_GRACE) -> None:
        self.store_path = Path(store_path)
        self.game_id = game_id
        self.first_game = first_game
        """The header of the game to start when the store holds none yet (a new Pi)."""
        self.camera = camera
        """The table's camera, shown on its pages; None when it has none."""
        self.board_camera: seams.BoardCamera | None = None
        """The camera reading the board, whose picture of it is shown beside a board alert;
        None when no camera reads it."""
        self.confident = confident
        """Readings less sure than this wait for a person's OK or NO."""
        self.beat_time = beat_time
        self.board_grace = board_grace
        """Seconds after the camels move in the game before the board must agree with it."""
        self.when_published: list[Callable[[Snapshot], None]] = []
        """Called on the table's thread with every new snapshot; keep them quick."""
        self.heartbeat: list[Callable[[], None]] = []
        """Called on the table's thread every `beat_time` seconds, busy or idle, so what must
        know the table is responsive (systemd's watchdog) or keep watch for it (over the camera)
        hangs off the one thread that matters; keep them quick."""
        self.odds: dict[str, Any] | None = None
        """The odds of the current game version, set on the table's thread only."""
        self.notice: dict[str, Any] | None = None
        """The latest notice for the pages, set on the table's thread only."""
        self.board_seen: SeenBoard | None = None
        """The board the camera last read still."""
        self.board_taken = 0.0
        """When (time.monotonic) the frame of the board the camera last read was taken."""
        self.board_alert: dict[str, Any] | None = None
        """Where the board and the game disagree, while they do (see `check_board`)."""
        self.board_dismissed: tuple[object, list[dict[str, Any]]] | None = None
        """The game's track and the disagreements of the board alert the players dismissed
        last: the camera seeing the same again on that track raises no alert."""
        self._alerts = 0
        self._track: object = None
        self._track_changed = time.monotonic()
        self._commands: queue.Queue[tuple[Command, Future[Snapshot]] | None] = queue.Queue()
        self._published = threading.Condition()
        self._snapshot: Snapshot | None = None
        self._stored: StoredGame | None = None
        self._thread: threading.Thread | None = None
        self._is_closed = False

    def __enter__(self) -> Table:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> Table:
        """Open the stored game on the table's thread and publish its first snapshot."""
        if self._thread is not None:
            return self
        ready: Future[None] = Future()
        self._thread = threading.Thread(target=self._loop, args=(ready,), name="table",
                                        daemon=True)
        self._thread.start()
        try:
            ready.result()
        except BaseException:
            self._thread.join()
            self._mark_closed()
            raise
        return self

    def close(self) -> None:
        """Finish the command running, refuse the rest, close the store; safe to call twice."""
        if self._thread is not None and self._thread.is_alive():
            self._commands.put(None)
            self._thread.join()
        self._mark_closed()

    @property
    def is_closed(self) -> bool:
        return self._is_closed

    @property
    def snapshot(self) -> Snapshot:
        """The latest snapshot published."""
        if self._snapshot is None:
            raise TableClosed("the table has not started: call start() first")
        return self._snapshot

    @property
    def stored(self) -> StoredGame:
        """The stored game, for commands: only the table's own thread may touch it."""
        if self._stored is None or threading.current_thread() is not self._thread:
            raise RuntimeError("only the table's thread may touch the game: send a Command")
        return self._stored

    def wait_for_snapshot(self, after: int, timeout: float | None = None) -> Snapshot | None:
        """The latest snapshot once its version is above `after`; None on timeout or close."""
        with self._published:
            self._published.wait_for(
                lambda: self._is_closed or (self._snapshot is not None
                                            and self._snapshot.version > after), timeout)
            snapshot = self._snapshot
        if snapshot is None or snapshot.version <= after:
            return None
        return snapshot

    def submit(self, command: Command) -> Future[Snapshot]:
        """Queue `command`; the future gives the snapshot after it, or the error refusing it."""
        future: Future[Snapshot] = Future()
        with self._published:
            if self._is_closed or self._thread is None:
                raise TableClosed("the table is closed: nothing more can be played on it")
            self._commands.put((command, future))
        return future

    def ask(self, command: Command, timeout: float = ANSWER_TIME) -> Snapshot:
        """Run `command` and wait for it: the snapshot after it, or its error raised here."""
        return self.submit(command).result(timeout)

    def push(self, line: Mapping[str, Any]) -> Snapshot:
        return self.ask(Push(line))

    def act(self, line: Mapping[str, Any]) -> Snapshot:
        return self.ask(Act(line))

    def announce(self, text: str) -> None:
        """Show `text` on every page, without waiting."""
        self.submit(Announce(text))

    def undo(self) -> Snapshot:
        return self.ask(Undo())

    def replace(self, index: int, line: Mapping[str, Any]) -> Snapshot:
        return self.ask(Replace(index, line))

    def insert(self, index: int, line: Mapping[str, Any]) -> Snapshot:
        return self.ask(Insert(index, line))

    def delete(self, index: int) -> Snapshot:
        return self.ask(Delete(index))

    def see(self, reading: Mapping[str, Any]) -> Snapshot:
        return self.ask(Seen(reading))

    def see_board(self, reading: Mapping[str, Any], taken: float | None = None) -> Snapshot:
        return self.ask(BoardSeen(reading, taken))

    def dismiss_board(self, alert: int | None = None) -> Snapshot:
        return self.ask(DismissBoard(alert))

    def new_game(self, header: Mapping[str, Any]) -> Snapshot:
        return self.ask(NewGame(header))

    def accept_pending(self, reading: int | None = None,
                       correction: Mapping[str, Any] | None = None) -> Snapshot:
        return self.ask(AcceptPending(reading, correction))

    def reject_pending(self, reading: int | None = None) -> Snapshot:
        return self.ask(RejectPending(reading))

    def start_game(self, header: dict[str, Any]) -> None:
        """For commands: store a new game (its header checked first) and play it from now."""
        self._stored = self.stored.store.new_game(header)
        self.odds = None
        self.board_seen = self.board_alert = self.board_dismissed = None

    def check_board(self, *, raising: bool) -> Change:
        """For commands: compare the board last seen with the game, keeping the board alert
        up to date. A new alert is raised only when `raising`, on a board someone touched
        after the camels last moved in the game (the players moved them) or filmed
        `board_grace` seconds after those moved (the players had time to; a frame filmed
        before them, read late on a busy table, shows nothing of it), and while no reading
        waits for OK or NO (the die on the table is not in the game yet), and not for what
        the players dismissed before on the same track (they looked: the board is as the game
        has it, and the camera misreads it the same way each look); any change to the game
        may end one, or change what it says."""
        game = self.stored.game
        if not reads_board(game):
            return Change.NOTHING
        if game.state.track != self._track:
            self._track, self._track_changed = game.state.track, time.monotonic()
        seen, shown = self.board_seen, self.board_alert
        # when someone last touched the board seen, where the camera says
        touched = None if seen is None or seen.still is None else self.board_taken - seen.still
        raising = raising and ((touched is not None and touched > self._track_changed)
                               or self.board_taken - self._track_changed >= self.board_grace)
        if seen is None or (shown is None and (not raising or self.stored.pending())):
            return Change.NOTHING
        found = board_alert(game, seen)
        if found is None:
            self.board_alert = None
            return Change.VIEW if shown is not None else Change.NOTHING
        if shown is None and self.board_dismissed == (game.state.track,
                                                      found["disagreements"]):
            return Change.NOTHING   # the players looked at this board and said it is right
        if shown is None:
            self._alerts += 1
        number = self._alerts if shown is None else shown["id"]
        self.board_alert = {"id": number, **found, "picture": seen.picture,
                            "at": datetime.now(UTC).isoformat(timespec="seconds")}
        return Change.VIEW

    def waiting(self, reading: int | None = None) -> Record:
        """For commands: the waiting reading numbered `reading`, or the oldest one."""
        pending = self.stored.pending()
        if not pending:
            raise IllegalAction("no reading is waiting for OK or NO")
        if reading is None:
            return pending[0]
        for record in pending:
            if record.seq == reading:
                return record
        raise IllegalAction(f"reading {reading} is not waiting: it was settled already")

    def publish_odds(self, version: int, odds: Mapping[str, Any]) -> None:
        """Hand in the odds a worker computed from snapshot `version`, without waiting.

        They are published as a new snapshot unless the game has changed since that
        snapshot, in which case they are dropped (the worker has newer work by then).
        """
        self.submit(PublishOdds(version, odds))

    def _loop(self, ready: Future[None]) -> None:
        try:
            store = Store(self.store_path)
        except BaseException as e:
            ready.set_exception(e)
            return
        with store:
            try:
                self._stored = self._open(store)
                self._publish(Change.GAME)
            except BaseException as e:
                ready.set_exception(e)
                return
            ready.set_result(None)
            beat_due = time.monotonic()
            item: tuple[Command, Future[Snapshot]] | tuple[()] | None
            while True:
                try:
                    item = self._commands.get(timeout=max(0.0, beat_due - time.monotonic()))
                except queue.Empty:
                    item = ()
                if item is None:
                    break
                if item:
                    self._run(*item)
                if time.monotonic() >= beat_due:
                    self._beat()
                    beat_due = time.monotonic() + self.beat_time
            self._mark_closed()
            self._refuse_waiting()

    def _open(self, store: Store) -> StoredGame:
        """The game to play: the one asked for, else the latest, else `first_game` begun."""
        if self.game_id is None and self.first_game is not None and not store.games():
            return store.new_game(dict(self.first_game))
        return store.open_game(self.game_id)

    def _beat(self) -> None:
        for callback in list(self.heartbeat):
            try:
                callback()
            except Exception:
                log.exception("a heartbeat callback failed")

    def _run(self, command: Command, future: Future[Snapshot]) -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            change = command.run(self)
        except CompanionError as e:
            future.set_exception(e)
            return
        except Exception as e:
            log.exception("the table could not run %r", command)
            future.set_exception(e)
            return
        future.set_result(self._publish(change))

    def _publish(self, change: Change) -> Snapshot:
        before = self._snapshot
        if change is Change.NOTHING and before is not None:
            return before
        version = 1 if before is None else before.version + 1
        if change is Change.GAME:
            self.odds = None
            self.check_board(raising=False)
            game_version = version
        else:
            assert before is not None
            game_version = before.game_version
        stored = self.stored
        view = build_view(stored.game, stored.records(), version=version,
                          extra={"odds": self.odds, "notice": self.notice,
                                 "board": self.board_alert,
                                 "camera": {"on": self.camera is not None
                                            and bool(self.camera.is_on)}})
        snapshot = Snapshot(version, game_version, stored.game.state, view)
        with self._published:
            self._snapshot = snapshot
            self._published.notify_all()
        for callback in list(self.when_published):
            try:
                callback(snapshot)
            except Exception:
                log.exception("a snapshot subscriber failed")
        return snapshot

    def _mark_closed(self) -> None:
        with self._published:
            self._is_closed = True
            self._published.notify_all()

    def _refuse_waiting(self) -> None:
        while True:
            try:
                item = self._commands.get_nowait()
            except queue.Empty:
                return
            if item is not None and item[1].set_running_or_notify_cancel():
                item[1].set_exception(TableClosed("the table closed before running this"))
