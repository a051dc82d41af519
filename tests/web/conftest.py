"""Fixtures for the dashboard: a running table on a temp store, the app, its test client; the
same served on loopback, and one headless Chromium per module for the browser tests."""

from pathlib import Path

import pytest

from companion.backup import Backup
from companion.table import Table
from tests.play import SPREAD_2014, stored_game
from web import create_app
from web.server import Server

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

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
    return create_app(table, {"TESTING": True, "PIN": PIN, "SECRET_KEY": "test key",
                              "BACKUP": Backup(table.store_path)})


@pytest.fixture
def client(app):
    return app.test_client()


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


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, driven by Playwright (never Playwright's own browser)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def served(tmp_path, header, lines):
    """The companion on 127.0.0.1: its table and its address."""
    with Table(stored_game(tmp_path / "game.sqlite3", header, lines)) as table:
        app = create_app(table, {"PIN": PIN})
        server = Server(app, host="127.0.0.1", port=0, streams=8).start()
        try:
            yield table, server.url
        finally:
            table.close()
            server.close()
