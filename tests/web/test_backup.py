"""Nothing lost on a dead SD card: with the PIN, a phone downloads any game as its game log
and the whole store as one SQLite file, while the game goes on."""

import pytest

from companion.gamelog import load_game
from companion.store import Store
from tests.web.conftest import PIN

WITH_PIN = {"X-Table-Pin": PIN}


def test_a_game_downloads_as_its_game_log_that_loads_back_as_it_stands(client, table,
                                                                          tmp_path):
    table.act({"action": "leg_bet", "camel": "blue"})
    answer = client.get("/api/games/latest/log", headers=WITH_PIN)
    assert answer.status_code == 200 and answer.mimetype == "application/x-ndjson"
    assert answer.headers["Content-Disposition"] == (
        'attachment; filename="camel-companion-game-latest.jsonl"')
    (tmp_path / "copy.jsonl").write_bytes(answer.data)
    copy = load_game(tmp_path / "copy.jsonl")
    kept = load_game_of(table)
    assert list(copy.lines()) == list(kept.lines())
    assert list(copy.lines())[-1]["action"] == "leg_bet"
    games = client.get("/api/games", headers=WITH_PIN).json["games"]
    by_id = client.get(f"/api/games/{games[-1]['id']}/log", headers=WITH_PIN)
    assert by_id.data == answer.data


def test_the_whole_store_downloads_as_one_sqlite_file_holding_every_game(client, table,
                                                                         tmp_path):
    table.act({"action": "leg_bet", "camel": "green"})
    answer = client.get("/api/store", headers=WITH_PIN)
    assert answer.status_code == 200 and answer.mimetype == "application/vnd.sqlite3"
    (tmp_path / "copy.sqlite3").write_bytes(answer.data)
    with Store(tmp_path / "copy.sqlite3", read_only=True) as copy, \
            Store(table.store_path, read_only=True) as kept:
        assert copy.games() == kept.games()
        assert copy.open_game().export() == kept.open_game().export()


@pytest.mark.parametrize("path", ["/api/games", "/api/games/latest/log", "/api/store"])
def test_nothing_downloads_without_the_pin(client, path):
    answer = client.get(path)
    assert answer.status_code == 401 and "PIN" in answer.json["error"]


def test_a_game_that_is_not_there_is_a_404_in_one_line(client):
    assert client.get("/api/games/99/log", headers=WITH_PIN).status_code == 404
    assert client.get("/api/games/x/log", headers=WITH_PIN).json["error"] == (
        "no game 'x': give its number, or latest")


def load_game_of(table):
    with Store(table.store_path, read_only=True) as store:
        return store.open_game().game
