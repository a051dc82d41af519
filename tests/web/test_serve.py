"""`camel-companion serve`: the log is never written, the game goes on in the store, and a
killed server started again carries on exactly where it stopped."""

import json
import os
import signal
import stat
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.gamelog import read_game
from companion.serve import open_or_import, table_secrets
from companion.store import Store
from tests.web.conftest import HEADER, ROLL

SCRIPT = Path(sys.executable).with_name("camel-companion")
LOG = json.dumps(HEADER) + "\n" + json.dumps(ROLL) + "\n"
BET = {"player": "Bob", "action": "leg_bet", "camel": "green"}


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(LOG)
    return path


def test_the_log_is_imported_once_then_carried_on(log, tmp_path):
    store = tmp_path / "game.sqlite3"
    assert open_or_import(log, store) == (1, False)
    with Store(store) as s:
        s.open_game(1).push(s.open_game(1).game.parse_action(BET))
    assert open_or_import(log, store) == (1, True)
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({**HEADER, "players": ["Ann", "Bob"]}) + "\n")
    assert open_or_import(other, store) == (2, False)
    assert log.read_text() == LOG


def test_the_game_carried_on_is_the_last_one_started_at_the_table(log, tmp_path):
    store = tmp_path / "game.sqlite3"
    assert open_or_import(log, store) == (1, False)
    elsewhere = {**HEADER, "players": ["Cy", "Dee"]}
    with Store(store) as s:
        s.open_game(1)
        s.new_game({**HEADER, "players": ["Ann", "Bob", "Cy", "Dee"]})
        s.new_game({**HEADER, "players": ["Bob", "Ann"]})
        s.import_game(read_game([json.dumps(elsewhere)]))
    assert open_or_import(log, store) == (3, True)


def test_the_store_cannot_be_the_log(log):
    with pytest.raises(CompanionError, match="cannot be the log itself"):
        open_or_import(log, log)


def test_the_pin_and_session_key_are_kept_beside_the_store_for_its_owner_only(tmp_path):
    store = tmp_path / "game.sqlite3"
    first = table_secrets(store, None)
    kept = tmp_path / "game.sqlite3.secrets.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert len(first["pin"]) == 6 and first["pin"].isdigit()
    assert table_secrets(store, None) == first
    given = table_secrets(store, "4711")
    assert given == {**first, "pin": "4711"}
    with pytest.raises(CompanionError, match="--pin"):
        table_secrets(store, " ")


def test_the_secrets_are_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    store = tmp_path / "game.sqlite3"
    first = table_secrets(store, "1234")

    def pulled_plug(fd):
        raise OSError("the power went")

    monkeypatch.setattr("companion.serve.os.fsync", pulled_plug)
    with pytest.raises(OSError, match="the power went"):
        table_secrets(store, "5678")
    monkeypatch.undo()
    assert table_secrets(store, None) == first
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "game.sqlite3.secrets.json", "game.sqlite3.secrets.json.partial"]
    assert table_secrets(store, "5678")["pin"] == "5678"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.sqlite3.secrets.json"]


def start(log):
    """`serve` on a port the operating system picks (--port 0), never one chosen beforehand
    that another test, or another pytest-xdist worker, may take first; and its address."""
    server = subprocess.Popen(
        [str(SCRIPT), "serve", str(log), "--host", "127.0.0.1", "--port", "0",
         "--pin", "1357", "--no-odds"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    lines = [server.stdout.readline() for _ in range(2)]
    assert "the table's PIN is 1357" in lines[1], (lines, server.stderr.read())
    return server, lines, lines[1].split("open ")[1].split(" ")[0].rstrip("/")


def call(url, path, body=None):
    request = urllib.request.Request(
        f"{url}{path}", method="GET" if body is None else "POST",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Table-Pin": "1357"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


@pytest.mark.slow
def test_a_killed_server_started_again_carries_on_where_it_stopped(log):
    server, lines, url = start(log)
    try:
        assert "serving game 1" in lines[0] and "(1 action)" in lines[0]
        assert call(url, "/api/actions", BET)["version"] == 2
        assert call(url, "/api/undo", {})["history"][-1]["action"] == ROLL
        assert len(call(url, "/api/actions", BET)["corrections"]) == 1
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.communicate()
    server, lines, url = start(log)
    try:
        assert "carrying on game 1" in lines[0] and "(2 actions)" in lines[0]
        state = call(url, "/api/state")
        assert [h["action"] for h in state["history"]] == [ROLL, BET]
        assert [c["kind"] for c in state["corrections"]] == ["undo"]
    finally:
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=20)
    assert server.returncode == 0
    assert "every action is in the store" in out
    assert log.read_text() == LOG


def test_a_bad_log_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "chess"}\n')
    result = subprocess.run([str(SCRIPT), "serve", str(bad), "--port", "0"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert result.stderr.startswith(f"{bad}:1: unknown game 'chess'")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("example", ["camelup-cards.jsonl", "last-camel.jsonl"])
def test_camel_up_cards_and_the_last_camel_are_served_too(tmp_path, example):
    log = tmp_path / example
    log.write_text((Path(__file__).parents[2] / "examples" / example).read_text())
    server, _, url = start(log)
    try:
        state = call(url, "/api/state")
        assert state["game"] == log.stem
        assert len(state["history"]) == len(log.read_text().splitlines()) - 1
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=20)
    assert server.returncode == 0
