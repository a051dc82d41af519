"""The live stream: the current snapshot at once, then every new one, as the viewer may see it."""

import json

import pytest

from tests.web.conftest import PIN, ROLL, unlock
from web import create_app

CARD = {"player": "Ann", "action": "race_bet", "pile": "winner", "camel": "green"}


def messages(response):
    """The stream's data messages, one parsed snapshot at a time (keep-alives passed over)."""
    for chunk in response.response:
        for block in chunk.decode().split("\n\n"):
            data = [line[6:] for line in block.splitlines() if line.startswith("data: ")]
            if data:
                yield json.loads("\n".join(data))


def test_a_page_gets_the_current_snapshot_then_each_new_one(client, table):
    response = client.get("/api/events", buffered=False)
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    stream = messages(response)
    first = next(stream)
    assert first == client.get("/api/state").json
    table.push(ROLL)
    second = next(stream)
    assert second["version"] == first["version"] + 1
    assert second["history"][0]["action"] == ROLL
    response.close()


def test_the_stream_says_how_soon_to_reconnect_and_names_each_snapshot(client, table):
    response = client.get("/api/events", buffered=False)
    chunks = iter(response.response)
    assert next(chunks) == b"retry: 2000\n\n"
    assert next(chunks).startswith(b"id: 1\ndata: {")
    response.close()


def test_an_idle_stream_keeps_the_line_alive(table):
    app = create_app(table, {"PIN": PIN, "KEEPALIVE_TIME": 0.01})
    response = app.test_client().get("/api/events", buffered=False)
    chunks = iter(response.response)
    next(chunks), next(chunks)
    assert next(chunks) == b": still here\n\n"
    response.close()


@pytest.mark.parametrize("lines", [[CARD]])
def test_each_stream_carries_what_its_viewer_may_see(app, table):
    watcher, owner = app.test_client(), app.test_client()
    unlock(owner, "Ann")
    seen = [next(messages(c.get("/api/events", buffered=False))) for c in (watcher, owner)]
    assert seen[0]["race_bets"]["winner"] == [{"player": "Ann", "camel": None}]
    assert seen[1]["race_bets"]["winner"] == [{"player": "Ann", "camel": "green"}]


def test_a_stream_ends_when_the_table_closes(client, table):
    response = client.get("/api/events", buffered=False)
    stream = messages(response)
    next(stream)
    table.close()
    assert list(stream) == []


def test_too_many_open_pages_are_refused_until_one_closes(table):
    app = create_app(table, {"PIN": PIN, "MAX_STREAMS": 2})
    client = app.test_client()
    open_ = [client.get("/api/events", buffered=False) for _ in range(2)]
    for response in open_:
        next(iter(response.response))
    refused = client.get("/api/events")
    assert refused.status_code == 429
    assert "too many pages" in refused.json["error"]
    open_[0].close()
    again = client.get("/api/events", buffered=False)
    assert again.status_code == 200
    again.close()
    open_[1].close()
    assert app.extensions["streams"].count == 0


def test_a_page_that_goes_away_before_its_first_byte_gives_its_place_back(table):
    app = create_app(table, {"PIN": PIN, "MAX_STREAMS": 1})
    client = app.test_client()
    client.get("/api/events", buffered=False).close()
    assert app.extensions["streams"].count == 0
    again = client.get("/api/events", buffered=False)
    assert again.status_code == 200
    again.close()
