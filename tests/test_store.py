"""The store: a real SQLite file that keeps every change, rebuilds the game, and moves logs."""

import json
import sqlite3

import pytest

from companion.errors import IllegalAction, NothingToUndo
from companion.gamelog import read_game
from companion.rules.camelup import DesertTile, LegBet, RaceBet, Roll
from companion.store import Record, Store, StoreError
from tests.play import HEADERS, random_game
from tests.test_gamelog import EXAMPLE_2014

HEADER_2014 = HEADERS["camelup-2014"]
PLAYED = [LegBet("Ann", "blue"), Roll("Bob", "green", 3), DesertTile("Cy", 6, "oasis"),
          RaceBet("Ann", "winner", "yellow")]


@pytest.fixture
def db(tmp_path):
    return tmp_path / "table.sqlite"


def history(records):
    """The records without their sequence numbers and times."""
    return [(r.kind, r.position, r.action) for r in records]


def test_every_change_is_appended_and_the_history_keeps_the_corrections(db):
    with Store(db) as store:
        stored = store.new_game(HEADER_2014)
        for action in PLAYED:
            stored.push(action)
        assert stored.undo() == PLAYED[3]
        stored.replace(1, Roll("Bob", "green", 1))
        stored.delete(2)
        assert stored.game.actions == [PLAYED[0], Roll("Bob", "green", 1)]
        state, records = stored.game.state, stored.records()
    assert history(records) == [
        ("push", None, {"player": "Ann", "action": "leg_bet", "camel": "blue"}),
        ("push", None, {"player": "Bob", "action": "roll", "die": "green", "value": 3}),
        ("push", None, {"player": "Cy", "action": "desert_tile", "space": 6, "side": "oasis"}),
        ("push", None, {"player": "Ann", "action": "race_bet", "pile": "winner",
                        "camel": "yellow"}),
        ("undo", None, None),
        ("replace", 1, {"player": "Bob", "action": "roll", "die": "green", "value": 1}),
        ("delete", 2, None),
    ]
    assert [r.seq for r in records] == sorted({r.seq for r in records})
    assert all(isinstance(r, Record) and r.at for r in records)
    with Store(db) as store:
        reopened = store.open_game()
        assert reopened.game.actions == [PLAYED[0], Roll("Bob", "green", 1)]
        assert reopened.game.state == state
        assert reopened.records() == records


def test_reopening_a_store_rebuilds_a_whole_random_game(db):
    for header in HEADERS.values():
        game = random_game(header, seed=7)
        with Store(db) as store:
            stored = store.new_game(header)
            for action in game.actions:
                stored.push(action)
        with Store(db) as store:
            reopened = store.open_game()
            assert reopened.game.actions == game.actions
            assert reopened.game.state == game.state


def test_an_illegal_change_writes_nothing_and_changes_nothing(db):
    with Store(db) as store:
        stored = store.new_game(HEADER_2014)
        with pytest.raises(NothingToUndo):
            stored.undo()
        for action in PLAYED:
            stored.push(action)
        before, records = list(stored.game.actions), stored.records()
        with pytest.raises(IllegalAction, match="it is Bob's turn, not Ann's"):
            stored.push(LegBet("Ann", "green"))
        with pytest.raises(IllegalAction, match="action 3 illegal"):
            stored.replace(1, Roll("Bob", "orange", 3))  # orange, white on 6: Cy's space
        with pytest.raises(IllegalAction):
            stored.delete(0)
        with pytest.raises(NothingToUndo):
            stored.delete(4)
        assert stored.game.actions == before and stored.records() == records
    with Store(db) as store:
        assert store.open_game().game.actions == before


def test_the_store_is_a_write_ahead_log_synced_in_full(db):
    with Store(db) as store:
        assert store.db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert store.db.execute("PRAGMA synchronous").fetchone() == (2,)
    other = sqlite3.connect(db)
    try:
        assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        other.close()


def test_import_then_export_gives_back_the_game_log(db, tmp_path):
    game = read_game(EXAMPLE_2014.splitlines())
    with Store(db) as store:
        stored = store.import_game(game)
        assert stored.export() == EXAMPLE_2014
        assert [kind for kind, _, _ in history(stored.records())] == ["push"] * 4
    with Store(db) as store:
        assert store.open_game(stored.id).export() == EXAMPLE_2014


def test_export_gives_the_actions_as_they_now_stand(db):
    with Store(db) as store:
        stored = store.import_game(read_game(EXAMPLE_2014.splitlines()))
        stored.undo()
        stored.replace(1, Roll("Bob", "green", 1))
    with Store(db) as store:
        lines = store.open_game().export().splitlines()
    assert lines == [*EXAMPLE_2014.splitlines()[:2],
                     '{"player": "Bob", "action": "roll", "die": "green", "value": 1}',
                     EXAMPLE_2014.splitlines()[3]]


def test_several_games_share_a_store_and_the_latest_opens_by_default(db):
    with Store(db) as store:
        first = store.import_game(random_game(HEADERS["camelup-2018"], seed=1))
        second = store.new_game(HEADER_2014)
        second.push(PLAYED[0])
        first_text = first.export()
    with Store(db) as store:
        summaries = [(g.id, g.game, g.players, g.records) for g in store.games()]
        assert summaries == [
            (first.id, "camelup-2018", HEADERS["camelup-2018"]["players"], len(first.game)),
            (second.id, "camelup-2014", ["Ann", "Bob", "Cy"], 1),
        ]
        assert store.open_game().id == second.id
        assert store.open_game().game.actions == [PLAYED[0]]
        assert store.open_game(first.id).export() == first_text


def test_a_store_without_the_game_asked_for_says_so(db):
    with Store(db) as store:
        with pytest.raises(StoreError, match="holds no game"):
            store.open_game()
        store.new_game(HEADER_2014)
        with pytest.raises(StoreError, match="holds no game number 99"):
            store.open_game(99)


def test_a_game_log_is_not_a_store_and_is_left_untouched(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text(EXAMPLE_2014)
    with pytest.raises(StoreError, match="is not a camel-companion store"):
        Store(log)
    assert log.read_text() == EXAMPLE_2014
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_another_programs_sqlite_file_is_not_a_store_and_is_left_untouched(tmp_path):
    photos = tmp_path / "photos.sqlite"
    other = sqlite3.connect(photos)
    with other:
        other.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    other.close()
    with pytest.raises(StoreError, match="is not a camel-companion store"):
        Store(photos).close()
    other = sqlite3.connect(photos)
    try:
        tables = [row[0] for row in other.execute("SELECT name FROM sqlite_master")]
        assert tables == ["photos"]
        assert other.execute("PRAGMA user_version").fetchone() == (0,)
    finally:
        other.close()


def test_a_store_from_a_newer_companion_is_refused(db):
    Store(db).close()
    newer = sqlite3.connect(db)
    newer.execute("PRAGMA user_version=3")
    newer.close()
    with pytest.raises(StoreError, match="newer camel-companion"):
        Store(db)


def test_a_record_that_no_longer_replays_is_named(db):
    with Store(db) as store:
        stored = store.new_game(HEADER_2014)
        stored.push(PLAYED[0])
        with store.writing():
            store.add_record(stored.id, "push", None,
                             json.dumps({"player": "Ann", "action": "leg_bet", "camel": "blue"}))
    with Store(db) as store, pytest.raises(StoreError, match=r"record 2 \(push\) no longer"):
        store.open_game()


def test_a_closed_store_refuses_work_and_closes_again_quietly(db):
    store = Store(db)
    stored = store.new_game(HEADER_2014)
    stored.push(PLAYED[0])
    store.close()
    store.close()
    for work in (store.games, store.open_game, lambda: store.new_game(HEADER_2014),
                 lambda: stored.push(PLAYED[1]), stored.undo):
        with pytest.raises(StoreError, match="is closed"):
            work()
    assert stored.game.actions == [PLAYED[0]]
    with Store(db) as reopened:
        assert reopened.open_game().game.actions == [PLAYED[0]]


def test_the_store_closes_when_its_block_ends_even_on_an_error(db):
    with pytest.raises(IllegalAction), Store(db) as store:
        store.new_game(HEADER_2014).push(PLAYED[1])
    with pytest.raises(StoreError, match="is closed"):
        store.games()
