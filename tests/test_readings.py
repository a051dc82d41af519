"""Readings are not actions: a sure legal one rolls, a doubtful one waits, a bad one is refused."""

import pytest

from companion.errors import IllegalAction
from companion.game import Game
from companion.readings import Reading, Verdict, judge
from companion.table import Table
from tests.play import HEADERS, stored_game
from tests.test_table import HEADER_2014


def reading(die="blue", value=2, confidence=0.99, numeral=None) -> Reading:
    return Reading(die, value, confidence, numeral)


def game_2014(**part_way) -> Game:
    return Game({**HEADER_2014, **part_way})


def test_a_sure_legal_reading_is_the_roll_of_the_player_to_act():
    assert judge(game_2014(), reading()) == Verdict(
        "accepted", "blue 2 rolled by Ann",
        {"player": "Ann", "action": "roll", "die": "blue", "value": 2})


@pytest.mark.parametrize(("seen", "why"), [
    (reading(die=None), "the die could not be read"),
    (reading(value=None), "the die could not be read"),
    (reading(value=5), "a Camel Up die shows 1 to 3, not 5"),
    (reading(confidence=0.6), "read with 60% confidence"),
])
def test_a_doubtful_reading_waits_for_a_person(seen, why):
    verdict = judge(game_2014(), seen)
    assert (verdict.outcome, verdict.roll) == ("pending", None)
    assert verdict.reason.startswith(why)


def test_a_grey_die_without_its_numeral_colour_waits():
    game = Game(HEADERS["camelup-2018"])
    assert judge(game, reading("grey", 2)).outcome == "pending"
    assert judge(game, reading("grey", 2, numeral="black")).roll == {
        "player": "Ann", "action": "roll", "die": "grey", "value": 2, "numeral": "black"}


@pytest.mark.parametrize(("game", "seen", "why"), [
    (game_2014(dice_out=["blue"]), reading(), "the blue die is already out of the pyramid"),
    (game_2014(), reading(die="purple"), "camelup-2014 has no purple die"),
])
def test_a_reading_that_cannot_be_legal_is_refused(game, seen, why):
    verdict = judge(game, seen)
    assert (verdict.outcome, verdict.roll) == ("refused", None)
    assert verdict.reason.startswith(why)


@pytest.mark.parametrize("line", [
    [1], {"die": "blue", "value": 2}, {"die": "blue", "value": 2, "confidence": 1.5},
    {"die": "blue", "value": "2", "confidence": 0.9}, {"die": 3, "value": 2, "confidence": 0.9},
    {"die": "grey", "value": 2, "confidence": 0.9, "numeral": "grey"},
])
def test_a_malformed_reading_is_refused_in_one_line(line):
    with pytest.raises(IllegalAction) as refused:
        Reading.from_json(line)
    assert "\n" not in str(refused.value)


@pytest.fixture
def table(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3")) as table:
        yield table


def test_a_sure_reading_rolls_and_is_kept_with_its_confidence(table):
    after = table.see({"die": "blue", "value": 3, "confidence": 0.97})
    assert after.view["track"]["4"] == ["blue"]
    assert after.view["history"][-1]["action"] == {"player": "Ann", "action": "roll",
                                                   "die": "blue", "value": 3}
    assert [(r["die"], r["value"], r["confidence"], r["outcome"])
            for r in after.view["readings"]] == [("blue", 3, 0.97, "accepted")]
    assert after.view["pending"] == []


def test_a_doubtful_reading_waits_and_ok_makes_it_the_roll(table):
    waiting = table.see({"die": "blue", "value": 3, "confidence": 0.5})
    assert len(waiting.view["history"]) == 0
    assert [(p["die"], p["value"], p["outcome"]) for p in waiting.view["pending"]] == [
        ("blue", 3, "pending")]
    after = table.accept_pending()
    assert after.view["track"]["4"] == ["blue"]
    assert after.view["pending"] == []
    assert after.view["readings"][0]["outcome"] == "accepted"


def test_no_sets_a_reading_aside_but_keeps_it(table):
    table.see({"die": None, "value": None, "confidence": 0.2})
    after = table.reject_pending()
    assert (after.view["pending"], len(after.view["history"])) == ([], 0)
    assert after.view["readings"][0]["outcome"] == "rejected"


def test_a_tap_corrects_a_waiting_reading_before_it_rolls(table):
    table.see({"die": "blue", "value": 5, "confidence": 0.95})
    after = table.accept_pending(correction={"value": 2})
    assert after.view["history"][-1]["action"]["value"] == 2


def test_ok_on_a_reading_no_longer_legal_is_refused_and_changes_nothing(table):
    table.see({"die": "blue", "value": 3, "confidence": 0.5})
    table.push({"player": "Ann", "action": "roll", "die": "blue", "value": 3})
    before = table.snapshot
    with pytest.raises(IllegalAction, match="the blue die is already out"):
        table.accept_pending()
    assert table.snapshot is before and len(before.view["pending"]) == 1


def test_ok_and_no_with_nothing_waiting_are_refused(table):
    for answer in (table.accept_pending, table.reject_pending):
        with pytest.raises(IllegalAction, match="no reading is waiting"):
            answer()


def test_a_reading_of_a_die_already_out_is_a_warning_never_a_roll(table):
    table.see({"die": "blue", "value": 3, "confidence": 0.99})
    after = table.see({"die": "blue", "value": 1, "confidence": 0.99})
    assert len(after.view["history"]) == 1
    assert after.view["readings"][-1]["outcome"] == "refused"


def test_a_waiting_reading_survives_a_restart(tmp_path):
    path = stored_game(tmp_path / "game.sqlite3")
    with Table(path) as table:
        table.see({"die": "green", "value": 1, "confidence": 0.4})
    with Table(path) as again:
        assert [(p["die"], p["value"]) for p in again.snapshot.view["pending"]] == [("green", 1)]
        assert again.accept_pending().view["track"]["3"] == ["orange", "green"]
