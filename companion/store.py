"""The store: one SQLite file holding every game and every change made to it, append-only.

A game is kept as its header and a list of records (push, undo, replace, insert, delete), never
rewritten, so the whole history of what was played and what was corrected survives. A change
is acknowledged only once its record is committed with the write-ahead log synced to disk
(WAL, synchronous=FULL): pull the plug at any moment and every acknowledged action is there.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.game import Game
from companion.gamelog import dump_line, game_text
from companion.readings import AnyReading, Verdict

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    position INTEGER,
    action TEXT,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_game ON records (game_id, seq);
"""


GAME_CHANGES = ("push", "undo", "replace", "insert", "delete")
"""Records that change the game; the others (a camera's reading, its resolution) sit beside it."""

READING_RECORDS = ("reading", "resolve")


class StoreError(CompanionError, OSError):
    """The store file cannot be used: not a companion store, or a record that no longer replays."""


@dataclass(frozen=True)
class Record:
    """One change as stored: what was done (`kind`), to which action, and when.

    For a `reading` record `action` holds the reading with its outcome; a `resolve` record
    points (`position`) at the reading it settles, `action` saying how.
    """

    seq: int
    kind: str
    position: int | None
    action: dict[str, Any] | None
    at: str


@dataclass(frozen=True)
class GameSummary:
    id: int
    game: str
    players: list[str]
    created: str
    records: int


class Store:
    """An open store file; a context manager, closed once whatever happens."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None
        if not self.path.parent.is_dir():
            raise StoreError(f"cannot open a store at {self.path}: the folder "
                             f"{self.path.parent} does not exist")
        try:
            self._db = sqlite3.connect(self.path)
            self._check_is_ours()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._db:
                self._db.executescript(SCHEMA)
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as e:
            self.close()
            raise StoreError(f"{self.path} is not a camel-companion store: {e}") from None
        except BaseException:
            self.close()
            raise

    def _check_is_ours(self) -> None:
        """Refuse, before writing a byte, a file that is another program's or a newer one's."""
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master "
                                                     "WHERE type = 'table'")}
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer camel-companion "
                             f"(schema {version}); update before opening it")
        if tables and "games" not in tables:
            raise StoreError(f"{self.path} is not a camel-companion store: it is another "
                             "program's SQLite file; give a new file or a store")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"the store {self.path} is closed")
        return self._db

    def new_game(self, header: dict[str, Any]) -> StoredGame:
        """Start a game; its header is checked by the rules before anything is written."""
        return self.import_game(Game(header))

    def import_game(self, game: Game) -> StoredGame:
        """Store a game with each of its actions as a push, all in one transaction."""
        with self.db:
            cursor = self.db.execute("INSERT INTO games (header, created) VALUES (?, ?)",
                                     (dump_line(game.header), _now()))
            assert cursor.lastrowid is not None
            self.db.executemany(
                "INSERT INTO records (game_id, kind, action, at) VALUES (?, 'push', ?, ?)",
                [(cursor.lastrowid, dump_line(a.to_json()), _now()) for a in game.actions])
        return StoredGame(self, cursor.lastrowid, game.copy())

    def games(self) -> list[GameSummary]:
        """Every stored game, the oldest first."""
        rows = self.db.execute(
            "SELECT g.id, g.header, g.created, COUNT(r.seq) FROM games g "
            "LEFT JOIN records r ON r.game_id = g.id GROUP BY g.id ORDER BY g.id").fetchall()
        summaries = []
        for game_id, header, created, count in rows:
            head = json.loads(header)
            summaries.append(GameSummary(game_id, head["game"], head["players"], created, count))
        return summaries

    def open_game(self, game_id: int | None = None) -> StoredGame:
        """A stored game rebuilt from its records: the latest one unless `game_id` is given."""
        if game_id is None:
            row = self.db.execute("SELECT id, header FROM games ORDER BY id DESC LIMIT 1")
        else:
            row = self.db.execute("SELECT id, header FROM games WHERE id = ?", (game_id,))
        found = row.fetchone()
        if found is None:
            raise StoreError(f"{self.path} holds no game" +
                             ("" if game_id is None else f" number {game_id}"))
        try:
            stored = StoredGame(self, found[0], Game(json.loads(found[1])))
        except CompanionError as e:
            raise StoreError(f"game {found[0]}'s header no longer reads: {e}") from None
        for record in stored.records():
            try:
                _replay(stored.game, record)
            except CompanionError as e:
                raise StoreError(f"game {stored.id}, record {record.seq} ({record.kind}) no "
                                 f"longer replays: {e}") from None
        return stored


def _replay(game: Game, record: Record) -> None:
    if record.kind in READING_RECORDS:
        return
    if record.kind == "push":
        game.push(game.parse_action(record.action or {}))
    elif record.kind == "undo":
        game.undo()
    elif record.kind == "replace":
        assert record.position is not None
        game.replace(record.position, game.parse_action(record.action or {}))
    elif record.kind == "insert":
        assert record.position is not None
        game.insert(record.position, game.parse_action(record.action or {}))
    elif record.kind == "delete":
        assert record.position is not None
        game.delete(record.position)
    else:
        raise StoreError(f"unknown kind of record {record.kind!r}")


class StoredGame:
    """A game whose every change is written to the store before it is taken as done.

    Each change is tried on a copy first: an illegal one raises and writes nothing, and a
    write that fails leaves the game in memory as it was.
    """

    def __init__(self, store: Store, game_id: int, game: Game) -> None:
        self.store = store
        self.id = game_id
        self.game = game

    def push(self, action: Any) -> None:
        self._write([("push", None, action)], lambda g: g.push(action))

    def undo(self) -> Any:
        last = self.game.actions[-1] if self.game.actions else None
        self._write([("undo", None, None)], lambda g: g.undo())
        return last

    def replace(self, index: int, action: Any) -> None:
        self._write([("replace", index, action)], lambda g: g.replace(index, action))

    def insert(self, index: int, action: Any) -> None:
        self._write([("insert", index, action)], lambda g: g.insert(index, action))

    def delete(self, index: int) -> None:
        self._write([("delete", index, None)], lambda g: g.delete(index))

    def see(self, reading: AnyReading, verdict: Verdict, *, pair: int | None = None) -> int:
        """Keep a reading with its verdict; an accepted one's action is pushed in the same write.

        `pair` is the Last Camel face read before this one, which this one's verdict judged
        with it: accepted, it is resolved by the same roll.
        """
        seen = {**reading.to_json(), "outcome": verdict.outcome, "reason": verdict.reason,
                **({"pair": pair} if pair is not None else {})}
        pushed, change = self._rolled(verdict)
        partner = ([("resolve", pair, {"outcome": "accepted", "roll": verdict.roll})]
                   if pair is not None and verdict.roll else [])
        return self._write([("reading", None, seen), *partner, *pushed], change)

    def resolve(self, reading: int, outcome: str, verdict: Verdict | None = None) -> None:
        """Settle the waiting reading numbered `reading`: accepted (with its action) or
        rejected. A Last Camel pair is settled whole: the face read first with it."""
        settled = {"outcome": outcome, **({"roll": verdict.roll} if verdict else {})}
        pair = self.record(reading).action or {}
        both = [reading] if pair.get("pair") is None else [pair["pair"], reading]
        pushed, change = self._rolled(verdict)
        self._write([*[("resolve", seq, settled) for seq in both], *pushed], change)

    def record(self, seq: int) -> Record:
        """The record numbered `seq` of this game."""
        for record in self.records():
            if record.seq == seq:
                return record
        raise CompanionError(f"game {self.id} has no record {seq}")

    def lone_face(self) -> Record | None:
        """The Last Camel face read alone since the game last changed, waiting for the other
        die's; None if there is none (a face read before a roll was logged by hand stays
        alone, in the history)."""
        records = self.records()
        paired = {r.action.get("pair") for r in records if r.kind == "reading" and r.action}
        for record in reversed(records):
            if record.kind in GAME_CHANGES:
                return None
            if record.kind == "reading" and record.action \
                    and record.action["outcome"] == "waiting" and record.seq not in paired:
                return record
        return None

    def pending(self) -> list[Record]:
        """The readings waiting for a person's OK or NO, the oldest first."""
        records = self.records()
        settled = {r.position for r in records if r.kind == "resolve"}
        return [r for r in records if r.kind == "reading" and r.action
                and r.action["outcome"] == "pending" and r.seq not in settled]

    def _rolled(self, verdict: Verdict | None) -> tuple[list[tuple[str, None, Any]], Any]:
        """The push record of the roll a verdict makes, and the change it is, if any."""
        if verdict is None or verdict.roll is None:
            return [], None
        action = self.game.parse_action(verdict.roll)
        return [("push", None, action)], lambda g: g.push(action)

    def _write(self, records: list[tuple[str, int | None, Any]], change: Any) -> int:
        """Try `change` on a copy, then append `records` in one transaction, then take it.

        Returns the number (seq) of the first record written.
        """
        trial = self.game.copy()
        if change is not None:
            change(trial)
        rows = [(self.id, kind, position, _json_of(data), _now())
                for kind, position, data in records]
        with self.store.db:
            first = None
            for row in rows:
                cursor = self.store.db.execute(
                    "INSERT INTO records (game_id, kind, position, action, at) "
                    "VALUES (?, ?, ?, ?, ?)", row)
                first = cursor.lastrowid if first is None else first
        self.game = trial
        assert first is not None
        return first

    def records(self) -> list[Record]:
        """Every change made to this game, in the order it was made, corrections included."""
        rows = self.store.db.execute(
            "SELECT seq, kind, position, action, at FROM records WHERE game_id = ? ORDER BY seq",
            (self.id,))
        return [Record(seq, kind, pos, None if a is None else json.loads(a), at)
                for seq, kind, pos, a, at in rows]

    def export(self) -> str:
        """The game log of this game, its actions as they now stand."""
        return game_text(self.game)


def _json_of(data: Any) -> str | None:
    """An action, a reading or nothing, as the records table keeps it."""
    if data is None:
        return None
    return dump_line(data if isinstance(data, dict) else data.to_json())


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
