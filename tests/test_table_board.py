"""The table checks the board the camera reads against the game, and raises the board alert."""

import time

import pytest

from companion.errors import IllegalAction
from companion.rules.last_camel import BOARD_OASES, BOARD_SPACES
from companion.table import Table
from tests.play import SPREAD_2014, stored_game

START = {1: ["blue"], 2: ["green"], 3: ["orange"], 5: ["yellow"], 7: ["white"]}
ROLL = {"player": "Ann", "action": "roll", "die": "blue", "value": 1}


def seen(table, stacks, contradicts=0.9, **extra):
    """A camera's reading of the board with `stacks` (space: camels bottom to top), read
    against the track `table` has now, and that sure it shows another."""
    return {"stacks": [{"space": space, "camels": camels, "confidence": 0.9}
                       for space, camels in sorted(stacks.items())], "hand": False,
            "against": table.snapshot.view["track"], "contradicts": contradicts, **extra}


@pytest.fixture
def table(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3"), board_grace=0.0) as table:
        yield table


def test_a_board_as_the_game_has_it_raises_nothing(table):
    assert table.see_board(seen(table, START)).view["board"] is None
    after = table.push(ROLL)
    # the die is in the game before anyone moves the camel: the board seen before says nothing
    assert after.view["board"] is None
    moved = {**START, 1: [], 2: ["green", "blue"]}
    assert table.see_board(seen(table, {k: v for k, v in moved.items() if v})).view["board"] is None


def test_a_misread_roll_is_shown_with_the_roll_that_explains_the_board(table):
    table.push(ROLL)
    board = {2: ["green"], 3: ["orange"], 4: ["blue"], 5: ["yellow"], 7: ["white"]}
    picture = {"size": [1280, 720], "spaces": {"2": [[1, 2], [3, 4], [5, 6]]}}
    alert = table.see_board(seen(table, board, picture=picture)).view["board"]
    assert alert["id"] == 1 and alert["rolls"] == 1 and alert["picture"] == picture
    assert alert["disagreements"] == [
        {"space": 2, "game": ["green", "blue"], "camera": ["green"]},
        {"space": 4, "game": [], "camera": ["blue"]}]
    assert alert["fix"] == {"index": 0, "action": {**ROLL, "value": 3}}
    fixed = table.replace(alert["fix"]["index"], alert["fix"]["action"])
    assert fixed.view["board"] is None and fixed.view["track"]["4"] == ["blue"]


def test_the_camera_unsure_the_board_is_another_waits_for_a_better_look(table):
    table.push(ROLL)
    wrong = {2: ["blue", "green"], 3: ["orange"], 5: ["yellow"], 7: ["white"]}
    assert table.see_board(seen(table, wrong, contradicts=0.3)).view["board"] is None
    # read against the track before the roll: the camera cannot say
    stale = {**seen(table, wrong), "against": {str(k): v for k, v in START.items()}}
    assert table.see_board(stale).view["board"] is None
    assert table.see_board(seen(table, wrong)).view["board"]["disagreements"] == [
        {"space": 2, "game": ["green", "blue"], "camera": ["blue", "green"]}]


def test_a_camel_set_down_wrong_is_shown_until_the_players_put_it_right(table):
    table.push(ROLL)
    wrong = {2: ["blue", "green"], 3: ["orange"], 5: ["yellow"], 7: ["white"]}
    alert = table.see_board(seen(table, wrong)).view["board"]
    assert alert["fix"] is None and alert["rolls"] == 0
    assert alert["disagreements"] == [
        {"space": 2, "game": ["green", "blue"], "camera": ["blue", "green"]}]
    # the game moving on does not end it while the board still contradicts it
    bet = table.push({"player": "Bob", "action": "leg_bet", "camel": "blue"})
    assert bet.view["board"]["id"] == alert["id"]
    with pytest.raises(IllegalAction, match="board alert 7 is gone already"):
        table.dismiss_board(7)
    assert table.dismiss_board(alert["id"]).view["board"] is None
    with pytest.raises(IllegalAction, match="nothing to dismiss"):
        table.dismiss_board()
    # the players set the stack right: the next still board agrees
    right = {2: ["green", "blue"], 3: ["orange"], 5: ["yellow"], 7: ["white"]}
    assert table.see_board(seen(table, right)).view["board"] is None


def test_a_board_the_players_found_right_is_not_raised_again_until_the_game_moves_on(table):
    table.push(ROLL)
    misread = {2: ["blue", "green"], 3: ["orange"], 5: ["yellow"], 7: ["white"]}
    first = table.see_board(seen(table, misread)).view["board"]
    table.dismiss_board(first["id"])
    # the players looked and the board is right: the camera misreading it the same way at
    # its next look raises nothing
    assert table.see_board(seen(table, misread)).view["board"] is None
    # read another way, it is another alert
    other = {2: ["green"], 3: ["orange", "blue"], 5: ["yellow"], 7: ["white"]}
    assert table.see_board(seen(table, other)).view["board"]["id"] == first["id"] + 1
    table.dismiss_board()
    # once the camels move in the game, the board is held to the new track
    moved = table.push({"player": "Bob", "action": "roll", "die": "green", "value": 1})
    assert moved.view["track"]["3"] == ["orange", "green", "blue"]
    assert table.see_board(seen(table, misread)).view["board"]["id"] == first["id"] + 2


def test_the_players_have_a_moment_to_move_the_camels_before_the_board_must_agree(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3"), board_grace=0.5) as table:
        table.see_board(seen(table, START, still=30))
        table.push(ROLL)
        # the board, untouched since before the roll: not yet a disagreement, and a bet does
        # not move a camel
        assert table.see_board(seen(table, START, still=30)).view["board"] is None
        table.push({"player": "Bob", "action": "leg_bet", "camel": "blue"})
        time.sleep(0.5)
        # nobody moves it: the camera's next look raises the alert
        alert = table.see_board(seen(table, START, still=40)).view["board"]
        assert alert["disagreements"] == [
            {"space": 1, "game": [], "camera": ["blue"]},
            {"space": 2, "game": ["green", "blue"], "camera": ["green"]}]


def test_a_board_touched_since_the_camels_moved_in_the_game_is_checked_at_once(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3"), board_grace=60) as table:
        table.push(ROLL)
        wrong = {2: ["blue", "green"], 3: ["orange"], 5: ["yellow"], 7: ["white"]}
        assert table.see_board(seen(table, wrong, still=30)).view["board"] is None
        assert table.see_board(seen(table, wrong, still=0.0)).view["board"]["disagreements"]


def test_a_board_filmed_before_the_camels_moved_in_the_game_is_not_held_against_them(tmp_path):
    """A busy table may read a frame late: one filmed before the roll came into the game shows
    the camels where they stood then, however long after the roll it is read."""
    with Table(stored_game(tmp_path / "game.sqlite3"), board_grace=0.5) as table:
        filmed = time.monotonic()
        table.push(ROLL)
        time.sleep(0.6)
        assert table.see_board(seen(table, START, still=30), filmed).view["board"] is None
        alert = table.see_board(seen(table, START, still=30)).view["board"]
        assert alert["disagreements"][0] == {"space": 1, "game": [], "camera": ["blue"]}


def test_no_alert_while_a_die_waits_for_ok(table):
    table.see({"die": "blue", "value": 1, "confidence": 0.3})
    assert table.snapshot.view["pending"]
    moved = {2: ["green", "blue"], 3: ["orange"], 5: ["yellow"], 7: ["white"]}
    assert table.see_board(seen(table, moved)).view["board"] is None
    assert table.accept_pending().view["board"] is None


@pytest.mark.parametrize("reading, match", [
    ({"stacks": "all of them"}, '"stacks": a list'),
    ({"stacks": [{"space": 17, "camels": ["blue"]}]}, "a space 1-16"),
    ({"stacks": [{"space": 2, "camels": []}]}, "a space 1-16 and its camels"),
    ({"stacks": [{"space": 2, "camels": ["blue"]}, {"space": 2, "camels": ["green"]}]},
     "gives space 2 twice"),
    ({"stacks": [], "against": ["blue"]}, '"against" is the track'),
    ({"stacks": [], "against": {}}, 'how sure the board is another'),
    ({"stacks": [], "against": {}, "contradicts": 2}, '"contradicts" is how sure'),
    ({"stacks": [], "against": {}, "contradicts": 1, "still": -1}, '"still" is the seconds'),
])
def test_a_malformed_board_reading_is_refused_and_changes_nothing(table, reading, match):
    before = table.snapshot
    with pytest.raises(IllegalAction, match=match):
        table.see_board(reading)
    assert table.snapshot is before and table.board_seen is None


def test_a_game_without_a_board_refuses_a_board_reading(tmp_path):
    header = {"game": "last-camel", "players": ["Ann", "Bob"], "spaces": BOARD_SPACES,
              "oases": list(BOARD_OASES)}
    with Table(stored_game(tmp_path / "last.sqlite3", header)) as table, \
            pytest.raises(IllegalAction, match="no board the camera reads"):
        table.see_board(seen(table, {1: ["blue"]}))


def test_a_new_game_forgets_the_board(table):
    table.push(ROLL)
    table.see_board(seen(table, {2: ["blue", "green"], 3: ["orange"], 5: ["yellow"], 7: ["white"]}))
    after = table.new_game(SPREAD_2014)
    assert after.view["board"] is None and table.snapshot.view["board"] is None
