"""Fixtures for the dashboard: a running table on a temp store, the app, its test client."""

import pytest

from companion.table import Table
from tests.play import SPREAD_2014, stored_game
from web import create_app

PIN = "2468"
HEADER = SPREAD_2014
ROLL = {"player": "Ann", "action": "roll", "die": "blue", "value": 3}


@pytest.fixture
def lines():
    """The actions played before the test starts; override to start elsewhere."""
    return []


@pytest.fixture
def header():
    return HEADER


@pytest.fixture
def table(tmp_path, header, lines):
    with Table(stored_game(tmp_path / "game.sqlite3", header, lines)) as table:
        yield table


@pytest.fixture
def app(table):
    return create_app(table, {"TESTING": True, "PIN": PIN, "SECRET_KEY": "test key"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def csrf(client):
    """The session's CSRF token, as the page reads it."""
    return client.get("/api/viewer").json["csrf"]


def unlock(client, player=None):
    """Enter the PIN as the page does; returns the headers the page then sends."""
    headers = {"X-CSRF-Token": csrf(client)}
    answer = client.post("/api/pin", json={"pin": PIN, "player": player}, headers=headers)
    assert answer.status_code == 200, answer.json
    return headers


@pytest.fixture
def host(client):
    """A client whose session entered the PIN, and the headers its page sends."""
    return client, unlock(client)
