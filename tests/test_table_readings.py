"""The camera's readings of Camel Up Cards (racing cards) and The Last Camel (two colour dice)
at the table: a sure legal one is the action, a doubtful one waits for OK, NO or a tap, an
impossible one is a warning; a waiting one survives a restart."""

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.buttons import Panel
from companion.errors import IllegalAction
from companion.game import Game
from companion.readings import CardReading, FaceReading, Verdict, judge
from companion.table import Table
from tests.play import stored_game
from tests.test_buttons import ACCEPTED, NOTHING, PIN_MAP, REFUSED, WAITING, Clock, Hands

CARDS = {"game": "camelup-cards", "players": ["Ann", "Bob", "Cy"], "length": 16,
         "setup": {"dealt": 9, "discarded": 4, "kept": 5, "deck": 3, "left": 2, "intel": 1},
         "start": {"0": ["white"], "1": ["orange"], "2": ["blue", "green"], "3": ["yellow"]}}
LEG_SETUP = {"action": "leg_setup", "deck": 12,
             "intel": {"Ann": {"camel": "white", "value": 1}, "Bob": {"camel": "blue", "value": 1},
                       "Cy": {"camel": "yellow", "value": 1}}}
LAST_CAMEL = {"game": "last-camel", "players": ["Ann", "Bob", "Cy"], "spaces": 25,
              "oases": [7, 13, 19]}


def card(camel="green", value=2, confidence=0.97):
    return {"camel": camel, "value": value, "box": [10, 10, 60, 90], "confidence": confidence}


def face(name, confidence=0.97):
    return {"die": None, "face": name, "box": [10, 10, 40, 40], "confidence": confidence}


def outcomes(snapshot):
    return [r["outcome"] for r in snapshot.view["readings"]]


def last_action(snapshot):
    return snapshot.view["history"][-1]["action"] if snapshot.view["history"] else None


# --- Camel Up Cards ------------------------------------------------------------------------------


@pytest.fixture
def cards_table(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3", CARDS, [LEG_SETUP])) as table:
        yield table


def test_a_sure_card_is_the_reveal_of_the_player_to_act():
    game = Game(CARDS)
    game.push(game.parse_action(LEG_SETUP))
    assert judge(game, CardReading("green", 2, 0.97)) == Verdict(
        "accepted", "green +2 revealed by Ann",
        {"player": "Ann", "action": "reveal", "camel": "green", "value": 2})


def test_a_card_read_at_the_table_moves_its_camel_and_is_kept(cards_table):
    after = cards_table.see(card())
    assert last_action(after) == {"player": "Ann", "action": "reveal", "camel": "green",
                                  "value": 2}
    assert after.view["track"]["4"] == ["green"]
    assert [(r["camel"], r["value"], r["confidence"], r["outcome"])
            for r in after.view["readings"]] == [("green", 2, 0.97, "accepted")]


@pytest.mark.parametrize(("seen", "why"), [
    (card(camel=None), "the racing card could not be read"),
    (card(value=None), "the racing card could not be read"),
    (card(value=3), "a racing card shows +1 or +2, not +3"),
    (card(confidence=0.6), "read with 60% confidence"),
])
def test_a_doubtful_card_waits_and_ok_or_a_tap_reveals_it(cards_table, seen, why):
    waiting = cards_table.see(seen)
    (pending,) = waiting.view["pending"]
    assert pending["reason"].startswith(why) and waiting.view["history"][-1]["index"] == 0
    if seen["camel"] and seen["value"] in (1, 2):
        after = cards_table.accept_pending()
    else:
        after = cards_table.accept_pending(correction={"camel": "orange", "value": 1})
    assert last_action(after)["action"] == "reveal" and after.view["pending"] == []
    assert outcomes(after) == ["accepted"]


def test_a_tap_corrects_a_card_read_wrong(cards_table):
    cards_table.see(card(camel="orange", confidence=0.5))
    after = cards_table.accept_pending(correction={"camel": "yellow", "value": 1})
    assert last_action(after) == {"player": "Ann", "action": "reveal", "camel": "yellow",
                                  "value": 1}


def test_no_sets_a_card_aside_but_keeps_it(cards_table):
    cards_table.see(card(confidence=0.4))
    after = cards_table.reject_pending()
    assert (after.view["pending"], len(after.view["history"])) == ([], 1)
    assert outcomes(after) == ["rejected"]


def test_a_card_that_cannot_exist_is_a_warning_never_a_reveal(cards_table):
    cards_table.see(card("green", 2))
    after = cards_table.see(card("green", 2))
    assert len(after.view["history"]) == 2 and outcomes(after) == ["accepted", "refused"]
    assert "+2" in after.view["readings"][-1]["reason"]
    unknown = cards_table.see(card("purple", 1))
    assert unknown.view["readings"][-1]["reason"] == "Camel Up Cards has no purple camel"


def test_a_card_before_the_leg_is_set_up_is_refused(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3", CARDS)) as table:
        after = table.see(card())
    assert after.view["history"] == [] and outcomes(after) == ["refused"]
    assert after.view["readings"][0]["reason"].startswith("the leg is over")


def test_a_waiting_card_survives_a_restart(tmp_path):
    path = stored_game(tmp_path / "game.sqlite3", CARDS, [LEG_SETUP])
    with Table(path) as table:
        table.see(card("blue", 1, confidence=0.3))
    with Table(path) as again:
        assert [(p["camel"], p["value"]) for p in again.snapshot.view["pending"]] == [("blue", 1)]
        after = again.accept_pending()
    assert last_action(after) == {"player": "Ann", "action": "reveal", "camel": "blue",
                                  "value": 1}


# --- The Last Camel ------------------------------------------------------------------------------


@pytest.fixture
def camel_table(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3", LAST_CAMEL)) as table:
        yield table


def test_a_lone_face_waits_for_the_other_die_without_asking_anyone(camel_table):
    after = camel_table.see(face("red"))
    assert (after.view["pending"], after.view["history"]) == ([], [])
    assert outcomes(after) == ["waiting"]


def test_a_sure_pair_with_one_way_to_log_it_is_the_roll_at_once(camel_table):
    camel_table.see(face("black"))
    after = camel_table.see(face("black", 0.95))
    assert last_action(after) == {"player": "Ann", "action": "roll",
                                  "dice": ["black", "black"], "moves": []}
    assert outcomes(after) == ["accepted", "accepted"] and after.view["pending"] == []
    assert [r["confidence"] for r in after.view["readings"]] == [0.97, 0.95]


def test_a_pair_the_player_must_choose_for_waits_and_a_tap_chooses_the_camels(camel_table):
    camel_table.see(face("red"))
    waiting = camel_table.see(face("green"))
    (pending,) = waiting.view["pending"]
    assert pending["faces"] == ["red", "green"] and pending["confidences"] == [0.97, 0.97]
    assert outcomes(waiting) == ["pending", "pending"]
    assert waiting.view["readings"][0]["pair_of"] == pending["id"]
    assert pending["reason"].startswith("red and green can be used")
    with pytest.raises(IllegalAction, match="choose the camels"):
        camel_table.accept_pending()
    moves = [{"die": "red", "camel": "red-blue"}, {"die": "green", "camel": "yellow-green"}]
    after = camel_table.accept_pending(correction={"moves": moves})
    assert last_action(after) == {"player": "Ann", "action": "roll", "dice": ["red", "green"],
                                  "moves": moves}
    assert outcomes(after) == ["accepted", "accepted"] and after.view["pending"] == []


def test_a_face_read_wrong_or_not_at_all_is_put_right_by_a_tap(camel_table):
    camel_table.see(face(None, 0.2))
    waiting = camel_table.see(face("black", 0.5))
    assert waiting.view["pending"][0]["reason"] == "a die could not be read: tap its face"
    after = camel_table.accept_pending(correction={"dice": ["black", "black"]})
    assert last_action(after)["dice"] == ["black", "black"]


def test_a_doubtful_pair_with_one_way_is_logged_by_ok(camel_table):
    camel_table.see(face("black", 0.5))
    waiting = camel_table.see(face("black"))
    assert waiting.view["pending"][0]["reason"] == "read with 50% confidence: check the dice"
    assert last_action(camel_table.accept_pending())["moves"] == []


def test_no_sets_the_pair_aside_and_keeps_both_faces(camel_table):
    camel_table.see(face("red"))
    camel_table.see(face("gold"))
    after = camel_table.reject_pending()
    assert outcomes(after) == ["rejected", "rejected"] and after.view["history"] == []


def test_a_face_the_dice_do_not_have_is_refused_and_pairs_with_nothing(camel_table):
    camel_table.see(face("red"))
    refused = camel_table.see(face("purple"))
    assert outcomes(refused) == ["waiting", "refused"]
    assert refused.view["readings"][1]["reason"] == "The Last Camel's dice have no purple face"
    after = camel_table.see(face("green"))
    assert after.view["pending"][0]["faces"] == ["red", "green"]


def test_a_lone_face_left_behind_by_a_roll_logged_by_hand_pairs_with_nothing(camel_table):
    camel_table.see(face("red"))
    camel_table.push({"player": "Ann", "action": "roll", "dice": ["black", "black"],
                      "moves": []})
    after = camel_table.see(face("blue"))
    assert outcomes(after) == ["waiting", "waiting"] and after.view["pending"] == []


def test_a_waiting_pair_survives_a_restart(tmp_path):
    path = stored_game(tmp_path / "game.sqlite3", LAST_CAMEL)
    with Table(path) as table:
        table.see(face("yellow"))
        table.see(face("blue"))
    with Table(path) as again:
        (pending,) = again.snapshot.view["pending"]
        assert pending["faces"] == ["yellow", "blue"]
        moves = [{"die": "yellow", "camel": "yellow-blue"}, {"die": "blue", "camel": "red-blue"}]
        after = again.accept_pending(correction={"moves": moves})
    assert last_action(after)["moves"] == moves


def test_a_malformed_face_is_refused_in_one_line():
    with pytest.raises(IllegalAction, match='"face" must be a colour or null'):
        FaceReading.from_json({"face": 3, "confidence": 0.9})


# --- the button panel's OK and NO ----------------------------------------------------------------


@pytest.fixture
def panel_at(tmp_path):
    """A panel on mock pins at a table of `header` (after `lines`), and the hands pressing it."""
    saved = Device.pin_factory
    Device.pin_factory = factory = MockFactory()
    opened = []

    def at(header, lines=()):
        table = Table(stored_game(tmp_path / "game.sqlite3", header, lines)).start()
        panel = Panel(table, PIN_MAP, clock=(clock := Clock()), tick_time=None)
        opened.append((table, panel))
        return table, Hands(panel, factory, clock)

    try:
        yield at
    finally:
        for table, panel in opened:
            panel.close()
            table.close()
        factory.reset()
        Device.pin_factory = saved


def test_ok_on_the_panel_reveals_a_waiting_card_and_no_sets_one_aside(panel_at):
    table, hands = panel_at(CARDS, [LEG_SETUP])
    table.see(card("white", 1, confidence=0.5))
    assert hands.wait(0.5) == WAITING
    assert hands.press("ok") == ACCEPTED
    table.see(card("blue", 2, confidence=0.5))
    assert hands.wait(0.5) == WAITING
    assert hands.press("no") == ACCEPTED and hands.lit() == set()
    assert last_action(table.snapshot) == {"player": "Ann", "action": "reveal",
                                           "camel": "white", "value": 1}
    assert outcomes(table.snapshot) == ["accepted", "rejected"]


def test_a_lone_face_is_silent_and_ok_cannot_choose_the_camels_of_a_pair(panel_at):
    table, hands = panel_at(LAST_CAMEL)
    table.see(face("red"))
    assert hands.wait(0.5) == NOTHING
    table.see(face("green"))
    assert hands.wait(0.5) == WAITING
    assert hands.press("ok") == REFUSED
    assert "choose the camels on a phone" in hands.refusals[-1]
    assert hands.press("no") == ACCEPTED and hands.lit() == set()
    assert outcomes(table.snapshot) == ["rejected", "rejected"]
