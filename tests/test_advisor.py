"""The advisor keeps the table's odds fresh from a worker process."""

import time

import pytest

from companion.advisor import Advisor
from companion.odds import odds_json
from companion.table import Table
from tests.play import stored_game
from tests.test_table import ROLL

RACES = 2_000


def odds_of(table: Table, game_version: int, wait: float = 30.0):
    """The odds published for `game_version`, waiting for the worker."""
    deadline = time.monotonic() + wait
    seen = 0
    while time.monotonic() < deadline:
        snapshot = table.wait_for_snapshot(seen, timeout=deadline - time.monotonic())
        if snapshot is None:
            break
        seen = snapshot.version
        if snapshot.game_version == game_version and snapshot.view["odds"] is not None:
            return snapshot
    pytest.fail(f"no odds for game version {game_version} within {wait} s")


@pytest.fixture
def table(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3")) as table:
        yield table


def test_the_odds_of_each_new_position_arrive_after_it_without_holding_it_up(table):
    with Advisor(table, races=RACES):
        first = odds_of(table, table.snapshot.game_version)
        assert first.view["odds"] == odds_json(first.state, races=RACES)
        rolled = table.push(ROLL)
        assert rolled.view["odds"] is None
        second = odds_of(table, rolled.game_version)
        assert second.view["odds"] == odds_json(rolled.state, races=RACES)
        assert second.view["history"] == rolled.view["history"]


def test_a_burst_of_positions_ends_with_the_odds_of_the_newest(table):
    with Advisor(table, races=RACES):
        table.push(ROLL)
        table.push({"player": "Bob", "action": "leg_bet", "camel": "blue"})
        last = table.push({"player": "Cy", "action": "roll", "die": "green", "value": 1})
        assert odds_of(table, last.game_version).view["odds"] == odds_json(last.state,
                                                                           races=RACES)


def test_closing_the_advisor_twice_is_safe_and_leaves_the_table_running(table):
    advisor = Advisor(table, races=RACES)
    advisor.close()
    advisor.close()
    assert table.push(ROLL).view["odds"] is None
