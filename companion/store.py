"""The store: one SQLite file holding every game and every change made to it, append-only.

A game is kept as its header and a list of records (push, undo, replace, insert, delete), never
rewritten, so the whole history of what was played and what was corrected survives. A change
is acknowledged only once its record is committed with the write-ahead log synced to disk
(WAL, synchronous=FULL): pull the plug at any moment and every acknowledged action is there.

A store is checked whole when it opens (its write-ahead log's frames, SQLite's own check of its
pages, the records' unbroken numbering, each row's digest), so a damaged file is refused in one line
naming what is wrong rather than served as a shorter or different game; `recover` copies
every intact record of a damaged store into a new one.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import struct
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.errors import CompanionError, NotStored
from companion.game import Game
from companion.gamelog import dump_line, game_text
from companion.readings import AnyReading, Verdict

SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    created TEXT NOT NULL,
    follows INTEGER,
    digest TEXT
);
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    position INTEGER,
    action TEXT,
    at TEXT NOT NULL,
    digest TEXT
);
CREATE INDEX IF NOT EXISTS records_by_game ON records (game_id, seq);
"""
"""Schema 2 adds `follows` (the game played at the table before this one was started there)
and each row's `digest`; a schema 1 store gains them, digests of what it holds, when opened."""

FULL_CHECK_SIZE = 32 * 1024 * 1024
"""Stores up to this size get SQLite's full integrity_check when opened, larger ones its
quick_check (pages and records, not the indexes' agreement)."""


GAME_CHANGES = ("push", "undo", "replace", "insert", "delete")
"""Records that change the game; the others (a camera's reading, its resolution) sit beside it."""

READING_RECORDS = ("reading", "resolve")


class StoreError(CompanionError, OSError):
    """The store file cannot be used: not a companion store, or a record that no longer replays."""


class DamagedStore(StoreError):
    """A store whose file is damaged: refused whole, never served as a shorter game."""


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

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self.playing: int | None = None
        """The game last opened or started here: a game started next follows it."""
        self._db: sqlite3.Connection | None = None
        if not self.path.parent.is_dir():
            raise StoreError(f"cannot open a store at {self.path}: the folder "
                             f"{self.path.parent} does not exist")
        if read_only and not self.path.is_file():
            raise StoreError(f"no store at {self.path}")
        lost = _commits_lost_in_log(Path(f"{self.path}-wal"))
        if lost:
            self._damaged(f"its write-ahead log ({self.path.name}-wal) is damaged before "
                          f"{lost} later changes, which SQLite would pass over")
        try:
            self._db = self._connect()
            self._check_is_ours()
            if not read_only:
                self._set_up()
            self._check_whole()
        except sqlite3.DatabaseError as e:
            self.close()
            raise self._refusal(e) from None
        except BaseException:
            self.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        if not self.read_only:
            return sqlite3.connect(self.path)
        uri = f"file:{quote(str(self.path.resolve()))}"
        try:
            db = sqlite3.connect(f"{uri}?mode=ro", uri=True)
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError:
            # a store in WAL mode on read-only media, its -shm file not there to be made:
            # nothing else can be writing it, so it is read as it lies
            return sqlite3.connect(f"{uri}?immutable=1", uri=True)

    def _set_up(self) -> None:
        """WAL and full syncs; the tables made, or a schema 1 store brought up to date."""
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        if version == SCHEMA_VERSION:
            return
        with self.db:
            columns = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
            if columns and "digest" not in columns:
                self._check_pages()
                self._check_numbering()
                self.db.execute("ALTER TABLE games ADD COLUMN follows INTEGER")
                self.db.execute("ALTER TABLE games ADD COLUMN digest TEXT")
                self.db.execute("ALTER TABLE records ADD COLUMN digest TEXT")
                for row in self.db.execute("SELECT id, header, created, follows FROM games"
                                           ).fetchall():
                    self.db.execute("UPDATE games SET digest = ? WHERE id = ?",
                                    (_digest(*row), row[0]))
                for row in self.db.execute("SELECT seq, game_id, kind, position, action, at "
                                           "FROM records").fetchall():
                    self.db.execute("UPDATE records SET digest = ? WHERE seq = ?",
                                    (_digest(*row), row[0]))
            self.db.executescript(SCHEMA)
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _refusal(self, e: sqlite3.Error) -> StoreError:
        """What an SQLite error met while opening says, for a person."""
        text = str(e)
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            return StoreError(f"cannot write to {self.path}: it or its folder is read-only "
                              f"({text}); copy it somewhere writable, or only read it "
                              "(export, games)")
        if "not a database" in text:
            return StoreError(f"{self.path} is not a camel-companion store: {text}")
        return DamagedStore(f"{self.path} is damaged ({' '.join(text.split())}): nothing was "
                            f"changed: {RECOVER_HINT.format(path=self.path)}")

    def _check_whole(self) -> None:
        """Refuse a damaged store: SQLite's check of its pages, then the rows' own (a schema 1
        store read where it cannot be brought up to date has no digests)."""
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master "
                                                     "WHERE type = 'table'")}
        if "games" not in tables:
            raise StoreError(f"{self.path} holds no game: it is an empty file")
        self._check_pages()
        self._check_numbering()
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(records)")}
        if "digest" not in columns:
            return
        for game_id, header, created, follows, digest in self.db.execute(
                "SELECT id, header, created, follows, digest FROM games"):
            if digest != _digest(game_id, header, created, follows):
                self._damaged(f"game {game_id}'s header does not match its digest")
        for seq, *row, digest in self.db.execute(
                "SELECT seq, game_id, kind, position, action, at, digest FROM records"):
            if digest != _digest(seq, *row):
                self._damaged(f"record {seq} does not match its digest")

    def _check_pages(self) -> None:
        full = self.path.stat().st_size <= FULL_CHECK_SIZE
        found = [row[0] for row in self.db.execute(
            "PRAGMA integrity_check(3)" if full else "PRAGMA quick_check(3)")]
        if found != ["ok"]:
            self._damaged("; ".join(found))

    def _check_numbering(self) -> None:
        """Records are numbered from 1 without a gap (none is ever deleted), every one of a
        game that is there, and the last number given out is the last one there."""
        count, first, last = self.db.execute(
            "SELECT COUNT(*), IFNULL(MIN(seq), 1), IFNULL(MAX(seq), 0) FROM records").fetchone()
        given = self.db.execute("SELECT IFNULL(MAX(seq), 0) FROM sqlite_sequence "
                                "WHERE name = 'records'").fetchone()[0]
        if (count, first) != (last, 1) or given != last:
            self._damaged(f"its records are numbered 1 to {last} with {count} there, the "
                          f"last given out {given}: some are lost")
        orphans = self.db.execute("SELECT COUNT(*) FROM records WHERE game_id NOT IN "
                                  "(SELECT id FROM games)").fetchone()[0]
        games, top = self.db.execute("SELECT COUNT(*), IFNULL(MAX(id), 0) FROM games"
                                     ).fetchone()
        if orphans or games != top:
            self._damaged(f"{top - games} of its {top} games are lost")

    def _damaged(self, what: str) -> None:
        what = " ".join(what.replace("*** in database main ***", "").split())
        raise DamagedStore(f"{self.path} is damaged: {what}; nothing was changed: "
                           f"{RECOVER_HINT.format(path=self.path)}")

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
        """Start a game at the table, after the one played there (`playing`); its header is
        checked by the rules before anything is written."""
        return self.import_game(Game(header), follows=self.playing)

    def import_game(self, game: Game, *, follows: int | None = None) -> StoredGame:
        """Store a game with each of its actions as a push, all in one transaction."""
        with self.writing():
            game_id = self.add_game(game.header, follows=follows)
            for action in game.actions:
                self.add_record(game_id, "push", None, dump_line(action.to_json()))
        self.playing = game_id
        return StoredGame(self, game_id, game.copy())

    @contextmanager
    def writing(self) -> Iterator[None]:
        """One transaction: every row added in it is kept, or (raising `NotStored`) none."""
        try:
            with self.db:
                yield
        except sqlite3.Error as e:
            raise NotStored(f"the store could not keep this ({e}): nothing changed; free "
                            "space on the Pi's card, or check it, then try again") from None

    def add_game(self, header: dict[str, Any], *, follows: int | None = None,
                 created: str | None = None) -> int:
        """For `writing` blocks: a game row with its digest; its number."""
        text, created = dump_line(header), created or _now()
        cursor = self.db.execute("INSERT INTO games (header, created, follows) VALUES (?, ?, ?)",
                                 (text, created, follows))
        game_id = cursor.lastrowid
        assert game_id is not None
        self.db.execute("UPDATE games SET digest = ? WHERE id = ?",
                        (_digest(game_id, text, created, follows), game_id))
        return game_id

    def add_record(self, game_id: int, kind: str, position: int | None, action: str | None,
                   at: str | None = None) -> int:
        """For `writing` blocks: a record with its digest; its number (seq)."""
        at = at or _now()
        cursor = self.db.execute(
            "INSERT INTO records (game_id, kind, position, action, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, kind, position, action, at))
        seq = cursor.lastrowid
        assert seq is not None
        self.db.execute("UPDATE records SET digest = ? WHERE seq = ?",
                        (_digest(seq, game_id, kind, position, action, at), seq))
        return seq

    def latest_after(self, game_id: int) -> int:
        """The game now played at the table where `game_id` was: it, or the last of the games
        started there after it, one after the other."""
        while True:
            after = self.db.execute("SELECT MAX(id) FROM games WHERE follows = ?",
                                    (game_id,)).fetchone()[0]
            if after is None:
                return game_id
            game_id = after

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
        self.playing = stored.id
        return stored


WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER, FRAME_HEADER = 32, 24


def _commits_lost_in_log(wal: Path) -> int:
    """How many committed changes of a write-ahead log come after a damaged frame: 0 for a
    log that is whole, or torn only in its last change (a power cut in the middle of a write
    that was never acknowledged).

    SQLite reads a log up to its first frame whose checksum fails and passes over the rest, so
    a damaged frame with changes committed after it would open as a shorter game, silently.
    A change is only begun once the one before it is synced and acknowledged, so a second
    commit after the damage means an acknowledged change would be lost. Read before SQLite
    opens the store, which may checkpoint and remove the log.
    """
    try:
        data = wal.read_bytes()
    except OSError:
        return 0
    if len(data) < WAL_HEADER + FRAME_HEADER:
        return 0
    magic, _, page_size, _, *salts = struct.unpack(">8I", data[:WAL_HEADER])
    frame = FRAME_HEADER + page_size
    if magic not in WAL_MAGIC or not 512 <= page_size <= 65536 \
            or page_size & (page_size - 1):
        page_size = next((size for size in (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)
                          if _frame_salts(data, WAL_HEADER, size) is not None), 4096)
        frame = FRAME_HEADER + page_size
        header_whole = False
    else:
        header_whole = _checksum(data[:24], (0, 0), magic & 1) == tuple(salts[2:4])
    salt, sums = tuple(salts[:2]), tuple(salts[2:4])
    if not header_whole:  # SQLite reads none of the log: its frames' own salts tell its end
        salt = struct.unpack(">2I", data[WAL_HEADER + 8:WAL_HEADER + 16])
    at, damaged, commits_after = WAL_HEADER, not header_whole, 0
    while at + frame <= len(data):
        page, commit, salt_1, salt_2, sum_1, sum_2 = struct.unpack(
            ">6I", data[at:at + FRAME_HEADER])
        if (salt_1, salt_2) != salt:
            # the end of this log (what follows is an earlier one's, overwritten), or a
            # damaged frame: either way SQLite reads no further, so count what comes after
            damaged = True
        else:
            if not damaged:
                sums = _checksum(data[at + FRAME_HEADER:at + frame],
                                 _checksum(data[at:at + 8], sums, magic & 1), magic & 1)
                damaged = sums != (sum_1, sum_2) or page == 0
            if damaged and commit:
                commits_after += 1
        at += frame
    return commits_after if commits_after >= 2 else 0


def _frame_salts(data: bytes, at: int, page_size: int) -> tuple[int, int] | None:
    """The salts two frames in a row agree on, if frames are `page_size` long."""
    second = at + FRAME_HEADER + page_size
    if second + FRAME_HEADER > len(data):
        return None
    first_salts = data[at + 8:at + 16]
    return struct.unpack(">2I", first_salts) if data[second + 8:second + 16] == first_salts \
        else None


def _checksum(data: bytes, sums: tuple[int, int], big_endian: int) -> tuple[int, int]:
    """SQLite's write-ahead log checksum of `data`, carried on from `sums`."""
    s0, s1 = sums
    for x0, x1 in struct.iter_unpack(">2I" if big_endian else "<2I", data):
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    return s0, s1


RECOVER_HINT = ("copy every intact record into a new store with `camel-companion recover "
                "{path} --db NEW.sqlite3`, then serve or export that one")


def _digest(*fields: Any) -> str:
    """What a row holds, hashed: a damaged byte anywhere in it no longer matches."""
    text = "\x1f".join("\x00" if f is None else str(f) for f in fields)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def recover(damaged: str | Path, into: str | Path) -> list[str]:
    """Copy every intact record of a damaged store into the new store `into`; one line per
    game saying what was kept.

    A row is intact when SQLite can still read it and it matches its digest. Each game keeps
    its records in order up to the first that is lost, damaged or no longer replays (a record
    lost between two of a game's may have been that game's, so nothing after it is trusted);
    the damaged file is only read, from a copy.
    """
    damaged, into = Path(damaged), Path(into)
    if into.exists():
        raise StoreError(f"{into} exists already: recover into a new file")
    if not damaged.is_file():
        raise StoreError(f"no store at {damaged}")
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "damaged.sqlite3"
        shutil.copyfile(damaged, copy)
        if Path(f"{damaged}-wal").is_file():
            shutil.copyfile(f"{damaged}-wal", f"{copy}-wal")
        source = sqlite3.connect(copy)
        try:
            games, _ = _intact_rows(source, "games", "id", "header, created, follows")
            records, highest = _intact_rows(source, "records", "seq",
                                            "game_id, kind, position, action, at")
        finally:
            source.close()
    lost = _commits_lost_in_log(Path(f"{damaged}-wal"))
    with Store(into) as store, store.writing():
        report = _copy_intact(store, games, records, highest) or [
            f"no game of {damaged} could be read: {into} holds none"]
    return report + ([f"its write-ahead log is damaged: the {lost} changes written after the "
                      "damage could not be read, and are not in any game above"] if lost else [])


def _intact_rows(db: sqlite3.Connection, table: str, key: str, columns: str
                 ) -> tuple[dict[int, tuple[Any, ...]], int]:
    """Every row of `table` SQLite can still read, looked up one by one so that a damaged
    page loses only its own rows, and that matches its digest (a schema 1 store has none);
    and the highest number the table is known to have given out."""
    highest = 0
    for query in (f"SELECT MAX({key}) FROM {table}",
                  f"SELECT seq FROM sqlite_sequence WHERE name = '{table}'"):
        try:
            highest = max(highest, int((db.execute(query).fetchone() or [0])[0] or 0))
        except (sqlite3.Error, ValueError, TypeError):
            continue
    rows: dict[int, tuple[Any, ...]] = {}
    misses, number = 0, 0
    while number < highest or misses < 1000:
        number += 1
        try:
            row = db.execute(f"SELECT {key}, {columns}, digest FROM {table} WHERE {key} = ?",
                             (number,)).fetchone()
        except sqlite3.Error:
            row = None
        if row is None:
            misses += 1
            continue
        misses = 0
        rows[number] = row
    has_digests = any(row[-1] is not None for row in rows.values())
    return ({number: row[1:-1] for number, row in rows.items()
             if not has_digests or _intact(row)}, max(highest, *rows, 0))


def _intact(row: tuple[Any, ...]) -> bool:
    try:
        return row[-1] == _digest(*row[:-1])
    except (TypeError, ValueError):
        return False


def _copy_intact(store: Store, games: dict[int, tuple[Any, ...]],
                 records: dict[int, tuple[Any, ...]], highest: int) -> list[str]:
    """Replay each intact game's records in the order written, into `store` (in one of its
    `writing` blocks); the report."""
    new_ids: dict[int, int] = {}
    replaying: dict[int, Game] = {}
    report: dict[int, str] = {}
    for game_id, (header, created, follows) in sorted(games.items()):
        try:
            replaying[game_id] = Game(json.loads(header))
        except (CompanionError, ValueError, TypeError) as e:
            report[game_id] = f"game {game_id}: its header no longer reads ({e}): left out"
            continue
        new_ids[game_id] = store.add_game(json.loads(header), created=created,
                                          follows=new_ids.get(follows))
    kept: dict[int, int] = dict.fromkeys(new_ids, 0)
    owned: dict[int, int] = {}
    for recs in records.values():
        owned[recs[0]] = owned.get(recs[0], 0) + 1
    new_seq: dict[int, int] = {}
    last_seen: dict[int, int] = {}
    missing = [seq for seq in range(1, highest + 1) if seq not in records]
    for seq, (game_id, kind, position, action, at) in sorted(records.items()):
        if game_id not in replaying:
            continue
        lost = [m for m in missing if last_seen.get(game_id, 0) < m < seq]
        why = f"record {lost[0]} is lost or damaged" if lost else None
        if why is None:
            why = _replayed(replaying[game_id], kind, position, action, new_seq)
        if why is not None:
            report[game_id] = (f"game {game_id}: kept its first {kept[game_id]} records, as "
                               f"game {new_ids[game_id]}; left out the "
                               f"{owned[game_id] - kept[game_id]} found from record {seq} on: "
                               f"{why}")
            del replaying[game_id]
            continue
        moved = position if kind != "resolve" else new_seq[position]
        text = action
        if kind == "reading" and action is not None:
            seen = json.loads(action)
            if seen.get("pair") is not None:
                text = dump_line({**seen, "pair": new_seq[seen["pair"]]})
        new_seq[seq] = store.add_record(new_ids[game_id], kind, moved, text, at)
        kept[game_id] += 1
        last_seen[game_id] = seq
    for game_id, new_id in new_ids.items():
        after = [m for m in missing if m > last_seen.get(game_id, 0)]
        if after:
            report.setdefault(game_id, (
                f"game {game_id}: kept the {kept[game_id]} records found, as game {new_id}; "
                f"record {after[0]} is lost or damaged"
                + (f" (and {len(after) - 1} more after it)" if len(after) > 1 else "")
                + " and may have been its last"))
        report.setdefault(game_id, f"game {game_id}: kept all {kept[game_id]} of its records, "
                                   f"as game {new_id}")
    return [report[game_id] for game_id in sorted(report)]


def _replayed(game: Game, kind: str, position: int | None, action: str | None,
              new_seq: dict[int, int]) -> str | None:
    """Replay one record onto `game`: None, or why it cannot be kept."""
    try:
        data = None if action is None else json.loads(action)
        if kind == "resolve" and position not in new_seq:
            return f"the reading it settles (record {position}) was left out"
        if kind == "reading" and data and data.get("pair") is not None \
                and data["pair"] not in new_seq:
            return f"the die read with it (record {data['pair']}) was left out"
        _replay(game, Record(0, kind, position, data, ""))
    except (CompanionError, ValueError, TypeError, AssertionError) as e:
        return f"it no longer replays ({e})"
    return None


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
        rows = [(kind, position, _json_of(data)) for kind, position, data in records]
        with self.store.writing():
            seqs = [self.store.add_record(self.id, *row) for row in rows]
        self.game = trial
        return seqs[0]

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
