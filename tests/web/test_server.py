"""The companion's own web server: it serves, and it closes whatever state its loop is in."""

import os
import urllib.error
import urllib.request

import pytest

from web import create_app
from web.server import Server


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "api/state", timeout=5) as answer:
            return answer.status == 200
    except (urllib.error.URLError, ConnectionError):
        return False


@pytest.fixture
def server(table):
    server = Server(create_app(table), host="127.0.0.1", port=0, streams=2).start()
    yield server
    server.close()


def test_the_server_answers_until_it_is_closed(server):
    assert answers(server.url)
    server.close()
    server.close()
    assert not answers(server.url)


def test_the_server_closes_even_when_its_loop_can_no_longer_be_woken(server):
    """A stray second close elsewhere in the process can take the descriptor of the pipe that
    wakes waitress's loop; closing the server must still end it, not raise."""
    assert answers(server.url)
    os.close(server._server.trigger.trigger)   # what that stray close does
    server.close()
    assert not answers(server.url)
