"""The board alert over HTTP: in the state while the camera's board contradicts the game, put
right by the one roll that explains it or dismissed by the players; the picture beside it."""

import pytest

from tests.test_table_board import seen
from tests.web.test_api import WITH_PIN

MISREAD = {"player": "Ann", "action": "roll", "die": "blue", "value": 1}
AS_SEEN = {2: ["green"], 3: ["orange"], 4: ["blue"], 5: ["yellow"], 7: ["white"]}
"""The camels as a blue 3 leaves them from the spread start: the die was misread as a 1."""
JPEG = b"\xff\xd8board\xff\xd9"


class BoardCamera:
    """A camera that read the board from `picture` (None: it has not read it yet)."""

    def __init__(self, picture):
        self.picture = picture

    def board_picture(self):
        return self.picture


@pytest.fixture
def lines():
    return [MISREAD]


@pytest.fixture
def table(table):
    """The conftest's table, checking a board as soon as the camera reads it."""
    table.board_grace = 0.0
    return table


@pytest.fixture
def alert(table):
    """The alert the misread roll raises once the camera sees the board."""
    return table.see_board(seen(table, AS_SEEN)).view["board"]


def test_the_state_carries_the_alert_and_its_fix_puts_the_game_right(client, alert):
    assert client.get("/api/state").json["board"] == alert
    assert alert["fix"] == {"index": 0, "action": {**MISREAD, "value": 3}}
    fixed = client.put(f"/api/actions/{alert['fix']['index']}", json=alert["fix"]["action"],
                       headers=WITH_PIN)
    assert fixed.status_code == 200
    assert fixed.json["board"] is None and fixed.json["track"]["4"] == ["blue"]


def test_the_players_dismiss_the_alert_they_were_shown(client, alert):
    assert client.post("/api/board/dismiss", json={"id": alert["id"]}).status_code in (401, 403)
    wrong = client.post("/api/board/dismiss", json={"id": alert["id"] + 1}, headers=WITH_PIN)
    assert (wrong.status_code, wrong.json) == (
        422, {"error": f"board alert {alert['id'] + 1} is gone already",
              "key": "refusal.board_alert_gone", "params": {}})
    dismissed = client.post("/api/board/dismiss", json={"id": alert["id"]}, headers=WITH_PIN)
    assert dismissed.status_code == 200 and dismissed.json["board"] is None
    again = client.post("/api/board/dismiss", headers=WITH_PIN)
    assert (again.status_code, again.json) == (
        422, {"error": "the board and the game agree: there is nothing to dismiss",
              "key": "refusal.board_agrees", "params": {}})


def test_dismiss_without_an_id_takes_the_alert_shown(client, alert):
    assert client.post("/api/board/dismiss", headers=WITH_PIN).json["board"] is None


@pytest.mark.parametrize("number", ["1", True, 1.5])
def test_dismiss_refuses_an_id_that_is_not_a_number(client, alert, number):
    answer = client.post("/api/board/dismiss", json={"id": number}, headers=WITH_PIN)
    assert (answer.status_code, answer.json) == (
        400, {"error": f'"id" must be the number of a board alert, not {number!r}'})
    assert client.get("/api/state").json["board"] == alert


def test_the_board_picture_is_the_frame_the_board_was_read_from(table, client):
    assert client.get("/camera/board.jpg").json == {"error": "no camera reads this table's board"}
    table.board_camera = BoardCamera(None)
    before = client.get("/camera/board.jpg")
    assert (before.status_code, before.json) == (
        404, {"error": "the camera has not read the board yet"})
    table.board_camera = BoardCamera(JPEG)
    picture = client.get("/camera/board.jpg?alert=1")
    assert (picture.status_code, picture.mimetype, picture.data) == (200, "image/jpeg", JPEG)
    assert picture.headers["Cache-Control"] == "no-store"
