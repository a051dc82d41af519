"""A damaged store is refused in one line, never opened as a shorter or different game; its
intact records can be recovered; a store on read-only media is read; a full disk refuses a
change without changing anything.

The damage is random and of the kinds a failing SD card or a careless copy does: bytes
overwritten, a page zeroed or replaced by another, the file cut short.
"""

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import CompanionError, NotStored
from companion.store import SCHEMA_VERSION, DamagedStore, Store, StoreError, recover
from tests.play import HEADERS, random_game

SCRIPT = Path(sys.executable).with_name("camel-companion")
PAGE = 4096


def records_of(store):
    """Every game's header and records (kind, position, action), game by game."""
    found = {}
    for summary in store.games():
        stored = store.open_game(summary.id)
        found[summary.id] = (stored.game.header,
                             [(r.kind, r.position, r.action) for r in stored.records()])
    return found


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """A store of three games with pushes, undos and corrections, closed cleanly."""
    path = tmp_path_factory.mktemp("whole") / "games.sqlite3"
    with Store(path) as store:
        for seed, edition in enumerate(["camelup-2014", "camelup-2018", "camelup-2014"]):
            planned = random_game(HEADERS[edition], seed, max_actions=60).actions
            stored = store.new_game(HEADERS[edition])
            rng = random.Random(seed)
            for action in planned:
                stored.push(action)
                if rng.random() < 0.1:
                    stored.undo()
                    stored.push(action)
            stored.replace(0, planned[0])
        kept = records_of(store)
    return path, kept


def damage(path, rng):
    """One random kind of damage to the file at `path`."""
    data = bytearray(path.read_bytes())
    pages = len(data) // PAGE
    kind = rng.choice(["bytes", "zero page", "other page", "cut", "bytes"])
    if kind == "bytes":
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(data))
            data[at:at + rng.randint(1, 16)] = rng.randbytes(rng.randint(1, 16))
    elif kind == "zero page":
        page = rng.randrange(pages)
        data[page * PAGE:(page + 1) * PAGE] = bytes(PAGE)
    elif kind == "other page":
        page, other = rng.randrange(pages), rng.randrange(pages)
        data[page * PAGE:(page + 1) * PAGE] = data[other * PAGE:(other + 1) * PAGE]
    else:
        data = data[:rng.randrange(1, pages) * PAGE]
    path.write_bytes(bytes(data))
    return kind


@pytest.mark.slow
def test_a_damaged_store_is_refused_or_whole_never_shorter(whole, tmp_path):
    path, kept = whole
    rng = random.Random(20)
    refused, intact, recovered_games = 0, 0, 0
    for n in range(100):
        copy = tmp_path / f"damaged-{n}.sqlite3"
        shutil.copyfile(path, copy)
        kind = damage(copy, rng)
        try:
            with Store(copy) as store:
                found = records_of(store)
        except StoreError as e:
            refused += 1
            assert "\n" not in str(e) and str(copy) in str(e), (kind, e)
            if isinstance(e, DamagedStore):
                assert "camel-companion recover" in str(e)
            recovered_games += check_recovery(copy, tmp_path / f"recovered-{n}.sqlite3", kept)
            continue
        assert found == kept, (n, kind)
        intact += 1
    print(f"\ndamaged copies: 100, refused in one line: {refused}, opened whole: {intact}, "
          f"opened shorter or different: 0; games recovered from the refused: {recovered_games}")
    assert refused > 50


def check_recovery(damaged, into, kept):
    """Recovering a damaged store gives each game as a beginning of what it was."""
    lines = recover(damaged, into)
    assert all("\n" not in line for line in lines)
    with Store(into) as store:
        found = records_of(store)
    originals = list(kept.values())
    for header, records in found.values():
        assert any(header == h and records == r[:len(records)] for h, r in originals), header
    return len(found)


def test_recover_copies_every_record_of_a_game_before_the_damage(whole, tmp_path):
    path, kept = whole
    copy = tmp_path / "damaged.sqlite3"
    shutil.copyfile(path, copy)
    db = sqlite3.connect(copy)
    with db:
        last = db.execute("SELECT MAX(seq) FROM records").fetchone()[0]
        db.execute("UPDATE records SET action = replace(action, 'Ann', 'Bob') WHERE seq = ?",
                   (last,))
    db.close()
    with pytest.raises(DamagedStore, match=f"record {last} does not match its digest"):
        Store(copy)
    result = subprocess.run([str(SCRIPT), "recover", str(copy), "--db", str(tmp_path / "new.db")],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    games = result.stdout.splitlines()
    for line in games[:2]:
        assert "records found" in line and f"record {last} is lost or damaged" in line
    assert f"record {last} is lost or damaged and may have been its last" in games[2]
    with Store(tmp_path / "new.db") as store:
        found = records_of(store)
    assert found[1] == kept[1] and found[2] == kept[2]
    assert found[3][1] == kept[3][1][:-1]


def test_recover_will_not_write_over_a_file(whole, tmp_path):
    path, _ = whole
    taken = tmp_path / "taken.sqlite3"
    taken.write_text("mine")
    with pytest.raises(StoreError, match="exists already"):
        recover(path, taken)
    assert taken.read_text() == "mine"


def tamper(path, *statements: str) -> None:
    """Change a store's file behind the store's back, as a bad disk or a person might."""
    db = sqlite3.connect(path)
    with db:
        for statement in statements:
            db.execute(statement)
    db.close()


def test_a_store_whose_last_records_are_lost_is_refused(whole, tmp_path):
    path, _ = whole
    copy = tmp_path / "short.sqlite3"
    shutil.copyfile(path, copy)
    tamper(copy, "DELETE FROM records WHERE seq > (SELECT MAX(seq) - 3 FROM records)")
    with pytest.raises(DamagedStore, match="some are lost"):
        Store(copy)


@pytest.fixture
def schema_1_store(tmp_path):
    """A store as schema 1 wrote it (no digests), holding one game: its path and the game."""
    path = tmp_path / "old.sqlite3"
    game = random_game(HEADERS["camelup-2014"], 3, max_actions=10)
    db = sqlite3.connect(path)
    with db:
        db.executescript("""
            CREATE TABLE games (id INTEGER PRIMARY KEY, header TEXT NOT NULL,
                                created TEXT NOT NULL);
            CREATE TABLE records (seq INTEGER PRIMARY KEY AUTOINCREMENT,
                game_id INTEGER NOT NULL REFERENCES games(id), kind TEXT NOT NULL,
                position INTEGER, action TEXT, at TEXT NOT NULL);
            PRAGMA user_version=1;""")
        db.execute("INSERT INTO games (header, created) VALUES (?, 'then')",
                   (json.dumps(game.header),))
        for action in game.actions:
            db.execute("INSERT INTO records (game_id, kind, action, at) VALUES (1, 'push', ?, "
                       "'then')", (json.dumps(action.to_json()),))
    db.close()
    return path, game


def test_a_schema_1_store_is_brought_up_to_date_and_checked_from_then_on(schema_1_store):
    path, game = schema_1_store
    with Store(path) as store:
        assert store.open_game().game.actions == game.actions
        assert store.db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    tamper(path, "UPDATE records SET at = 'later' WHERE seq = 2")
    with pytest.raises(DamagedStore, match="record 2 does not match"):
        Store(path)


def test_a_schema_1_store_on_read_only_media_is_read_as_it_is(schema_1_store, tmp_path):
    path, game = schema_1_store
    with Store(path, read_only=True) as store:
        assert store.open_game().game.actions == game.actions
    with pytest.raises(StoreError, match="holds no game: it is an empty file"):
        (tmp_path / "empty.sqlite3").touch()
        Store(tmp_path / "empty.sqlite3", read_only=True)


def test_a_full_disk_refuses_the_change_and_keeps_the_game_as_it_was(tmp_path):
    game = random_game(HEADERS["camelup-2014"], 4, max_actions=200)
    with Store(tmp_path / "full.sqlite3") as store:
        stored = store.new_game(HEADERS["camelup-2014"])
        pages = store.db.execute("PRAGMA page_count").fetchone()[0]
        store.db.execute(f"PRAGMA max_page_count={pages + 1}")
        played = 0
        with pytest.raises(NotStored, match=r"could not keep this .*full.*nothing changed"):
            for action in game.actions:
                stored.push(action)
                played += 1
        assert stored.game.actions == game.actions[:played]
        store.db.execute("PRAGMA max_page_count=1000000")
        stored.push(game.actions[played])
    with Store(tmp_path / "full.sqlite3") as store:
        assert store.open_game().game.actions == game.actions[:played + 1]


def read_only_copy(tmp_path, path):
    """`path` in a folder mounted read-only (root) or made read-only (anyone else)."""
    source, media = tmp_path / "source", tmp_path / "media"
    source.mkdir()
    media.mkdir()
    shutil.copyfile(path, source / path.name)
    if os.geteuid() != 0:
        os.chmod(source / path.name, 0o444)
        os.chmod(source, 0o555)
        return source / path.name, lambda: os.chmod(source, 0o755)
    mounted = subprocess.run(["mount", "--bind", "-o", "ro", str(source), str(media)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        mounted = subprocess.run(f"mount --bind {source} {media} && "
                                 f"mount -o remount,bind,ro {media}", shell=True,
                                 capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a folder read-only here: {mounted.stderr!r}")
    return media / path.name, lambda: subprocess.run(["umount", str(media)], check=True)


def test_a_store_on_read_only_media_is_exported_and_a_write_says_what_is_wrong(whole, tmp_path):
    path, _ = whole
    on_media, unmount = read_only_copy(tmp_path, path)
    try:
        exported = subprocess.run([str(SCRIPT), "export", "--db", str(on_media), "--game", "2"],
                                  capture_output=True, text=True, timeout=60, check=False)
        assert exported.returncode == 0, exported.stderr
        assert len(exported.stdout.splitlines()) > 1
        listed = subprocess.run([str(SCRIPT), "games", "--db", str(on_media)],
                                capture_output=True, text=True, timeout=60, check=False)
        assert listed.returncode == 0
        assert len(listed.stdout.splitlines()) == 1 + 3   # the heading and the three games
        with pytest.raises(CompanionError) as refused:
            Store(on_media)
        assert "read-only" in str(refused.value)
        assert "not a camel-companion store" not in str(refused.value)
    finally:
        unmount()


def crash_image(tmp_path, name):
    """A store as a crash leaves it: its file and its write-ahead log, never checkpointed."""
    path = tmp_path / "live" / "game.sqlite3"
    path.parent.mkdir(exist_ok=True)
    game = random_game(HEADERS["camelup-2018"], 5, max_actions=60)
    with Store(path) as store:
        stored = store.new_game(HEADERS["camelup-2018"])
        for action in game.actions:
            stored.push(action)
        image = tmp_path / name
        image.mkdir()
        for suffix in ("", "-wal"):
            shutil.copyfile(f"{path}{suffix}", f"{image / path.name}{suffix}")
    return image / path.name, game


@pytest.mark.parametrize("where", ["a page", "a frame's salt", "the header"])
def test_a_log_damaged_before_later_changes_is_refused_not_read_short(tmp_path, where):
    path, _ = crash_image(tmp_path, "image")
    wal = Path(f"{path}-wal")
    data = bytearray(wal.read_bytes())
    frame = 24 + 4096
    data[{"a page": 32 + 4 * frame + 300, "a frame's salt": 32 + 4 * frame + 9,
          "the header": 17}[where]] ^= 0x5A
    wal.write_bytes(bytes(data))
    with pytest.raises(DamagedStore, match=r"write-ahead log .* is damaged before"):
        Store(path)
    assert wal.read_bytes() == bytes(data)
    report = recover(path, tmp_path / "rescued.sqlite3")
    assert report[-1].startswith("its write-ahead log is damaged: the ")
    assert wal.read_bytes() == bytes(data)


def test_a_log_torn_only_in_its_last_change_opens_without_it(tmp_path):
    path, game = crash_image(tmp_path, "image")
    wal = Path(f"{path}-wal")
    data = bytearray(wal.read_bytes())
    data[-100] ^= 0x5A  # a power cut in the middle of the last write, never acknowledged
    wal.write_bytes(bytes(data))
    with Store(path) as store:
        assert store.open_game().game.actions == game.actions[:-1]


@pytest.mark.slow
def test_random_damage_to_the_log_is_refused_or_costs_at_most_its_last_change(tmp_path):
    """A damaged frame in the log's last change is a power cut's torn write as far as anyone
    can tell (that change was never synced whole, so never acknowledged); anywhere before it,
    the store is refused."""
    path, game = crash_image(tmp_path, "image")
    data = Path(f"{path}-wal").read_bytes()
    rng = random.Random(21)
    refused, whole, torn = 0, 0, 0
    for n in range(60):
        copy = tmp_path / f"copy-{n}"
        copy.mkdir()
        shutil.copyfile(path, copy / path.name)
        bad = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(bad))
            bad[at] ^= rng.randrange(1, 256)
        Path(f"{copy / path.name}-wal").write_bytes(bytes(bad))
        try:
            with Store(copy / path.name) as store:
                actions = store.open_game().game.actions
        except StoreError as e:
            assert "\n" not in str(e)
            refused += 1
            continue
        assert actions in (game.actions, game.actions[:-1]), n
        whole += actions == game.actions
        torn += actions != game.actions
    print(f"\nlogs damaged: 60, refused in one line: {refused}, opened whole: {whole}, "
          f"opened without their last change (a torn write): {torn}, shorter still: 0")
    assert refused > 30
