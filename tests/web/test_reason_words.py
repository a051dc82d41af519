"""Every payout line the rules write, every reason the table gives for holding or refusing
a camera's reading, every notice, every refusal a phone or a button press can meet and every
error a person meets on the New game and Calibrate pages reaches a page as a sentence of its
own language: a key every language has, with a value for each of the sentence's slots."""

import itertools
import json
import re
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from companion.errors import CompanionError
from companion.game import Game
from companion.gamelog import read_game
from companion.snapshot import NOTICE_REASONS, READING_REASONS, REASONS, pieces, sentence, worded
from companion.table import Announce
from tests.play import HEADERS, random_cards_action, random_game
from vision.calibrate import (
    CalibrationError,
    MarkersNotSeen,
    TableCalibration,
    calibrate_table,
    learn_colours,
)
from vision.cards import learn_card_colours
from vision.colour_dice import learn_face_colours
from vision.config import load_config
from vision.dicesets import colour_dice_set, dice_set
from web import ERRORS, setup, translations

WEB = Path(__file__).resolve().parents[2] / "web"
EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.jsonl"))
CARDS_HEADER = next(read_game(path.read_text().splitlines()).header for path in EXAMPLES
                    if path.stem == "camelup-cards")


def every_payout(game):
    """Each payout line of the game, as played and as if each leg ended at each moment."""
    for count in range(len(game) + 1):
        state = game.state_after(count)
        yield from game.rules.state_json(state).get("payouts", [])
        yield from game.rules.leg_scoring_now(state)


def games():
    yield from (read_game(path.read_text().splitlines()) for path in EXAMPLES)
    for seed in range(6):
        yield random_game(HEADERS["camelup-2014"], seed)
        yield random_game(HEADERS["camelup-2018"], seed)
        yield random_game(CARDS_HEADER, seed, pick=random_cards_action)


def test_every_payout_line_has_a_sentence_in_every_language():
    languages = translations.load(WEB / "languages")
    keys = set()
    for game in games():
        lines = list(every_payout(game))
        found = worded(lines)
        for line in lines:
            assert line["reason"] in found, line["reason"]
            key, params = found[line["reason"]]["key"], found[line["reason"]]["params"]
            keys.add(key)
            for words in languages.values():
                slots = set(re.findall(r"\{(\w+)\}", words[key]))
                assert slots == set(params), (line, words["_language"])
    assert len(keys) >= 12


@pytest.mark.parametrize(("reason", "key", "params"), [
    ("blue landed on Ann's desert tile on 6", "payout.tile",
     {"camel": "blue", "owner": "Ann", "space": 6}),
    ("betting ticket red 5: led the leg", "payout.leg_bet.first", {"camel": "red", "value": 5}),
    ("pyramid tickets x2", "payout.pyramid", {"count": 2}),
    ("3rd right finish card on the overall loser, green", "payout.race_bet.right",
     {"place": 3, "pile": "loser", "camel": "green"}),
    ("wrong race betting card on the overall winner: blue, spared at 0",
     "payout.race_bet.spared", {"pile": "winner", "camel": "blue"}),
    ("final winner card orange: 2nd", "payout.cards.final",
     {"pile": "winner", "camel": "orange", "place": 2}),
])
def test_a_payout_line_is_read_into_its_key_and_values(reason, key, params):
    line = {"player": "Ann", "amount": 1, "reason": reason}
    assert worded([line]) == {reason: {"key": key, "params": params}}


def test_a_line_the_page_does_not_know_keeps_its_own_words():
    line = {"player": "Ann", "amount": 2, "reason": "a house rule's bonus"}
    assert worded([line]) == {}


@pytest.mark.parametrize(("reason", "key", "params"), [
    ("read with 68% confidence: check it", "reading.unsure", {"confidence": 68}),
    ("read with 40% confidence: check the dice", "reading.unsure", {"confidence": 40}),
    ("the die could not be read: check it", "reading.unread_die", {}),
    ("camelup-2018 has no orange die", "reading.no_die", {"die": "orange"}),
    ("the grey die's numeral colour could not be read: check it", "reading.unread_numeral", {}),
    ("a Camel Up die shows 1 to 3, not 5: check it", "reading.bad_value", {"value": 5}),
    ("the blue die is already out of the pyramid this leg: it was read again or not put on "
     "its tent", "reading.die_out", {"die": "blue"}),
    ("the race is over: no die can be rolled", "reading.race_over", {}),
    ("the race is over: no racing card is revealed", "reading.race_over", {}),
    ("the leg is over: no racing card is left to reveal until the next leg is set up",
     "reading.leg_over", {}),
    ("the racing card could not be read: check it", "reading.unread_card", {}),
    ("a racing card shows +1 or +2, not +3: check it", "reading.bad_card", {"value": 3}),
    ("a die could not be read: tap its face", "reading.unread_face", {}),
    ("waiting for the other die", "reading.waiting", {}),
    ("red and gold can be used 2 ways: choose the camels", "reading.ways",
     {"first": "red", "second": "gold", "ways": 2}),
    ("reveal: there is no 2nd blue +2 card: each colour has five +1 and one +2",
     "refusal.cards.no_such_card", {"place": 2, "camel": "blue", "value": 2}),
])
def test_why_a_reading_waits_is_read_into_a_sentence_every_language_has(reason, key, params):
    reading = {"id": 3, "die": "blue", "value": 2, "outcome": "pending", "reason": reason}
    assert worded([reading], READING_REASONS) == {reason: {"key": key, "params": params}}
    for words in translations.load(WEB / "languages").values():
        assert set(re.findall(r"\{(\w+)\}", words[key])) <= set(params), words["_language"]


@pytest.mark.parametrize(("notice", "key", "params"), [
    ("the camera is on", "notice.on.camera", {}),
    ("the board camera is on", "notice.on.board_camera", {}),
    ("the camera is being calibrated: log rolls by hand until it is saved",
     "notice.calibrating.camera", {}),
    ("the board camera gives no picture: the board is not checked against the game; it is "
     "tried again every few seconds", "notice.no_picture.board_camera", {}),
    ("the camera cannot be opened (no camera found): log rolls by hand; it is tried again "
     "every few seconds", "notice.cannot_open.camera", {"why": "no camera found"}),
    ("the board camera gave no sign for 10 s: the board camera is given up until the table "
     "starts again", "notice.given_up.board_camera", {}),
    ("OK button: no reading is waiting for OK or NO", "notice.button",
     {"button": "OK", "reason": {"key": "refusal.no_pending", "params": {}}}),
    ("BLUE button: no blue leg betting tile is left this leg", "notice.button",
     {"button": "BLUE", "reason": {"key": "refusal.leg_bet_gone", "params": {"camel": "blue"}}}),
    ("WINNER button: no camel chosen within 2.5 s of WINNER: no overall bet was laid",
     "notice.button", {"button": "WINNER", "reason": {
         "key": "press.too_late", "params": {"seconds": 2.5, "button": "WINNER"}}}),
    ("ORANGE button: camelup-2018 has no orange racing camel to bet on", "notice.button",
     {"button": "ORANGE", "reason": {"key": "press.not_racing", "params": {"camel": "orange"}}}),
    ("the button panel cannot be used (GPIO17 is in use): log on the dashboard",
     "notice.panel_off", {"why": "GPIO17 is in use"}),
    ("there is nothing to undo: no action has been played", "refusal.nothing_to_undo", {}),
])
def test_a_notice_is_read_into_a_sentence_every_language_has(notice, key, params):
    assert worded([{"reason": notice}], NOTICE_REASONS) == {notice: {"key": key,
                                                                     "params": params}}
    for words in translations.load(WEB / "languages").values():
        assert set(re.findall(r"\{(\w+)\}", words[key])) == set(params), words["_language"]


def slots(text):
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_sentence_a_page_is_sent_is_written_in_english_french_and_german():
    """Each of the three files itself (not completed from English) has every key, naming the
    values English names, each one the key is sent with."""
    files = {code: json.loads((WEB / "languages" / f"{code}.json").read_text(encoding="utf-8"))
             for code in ("en", "fr", "de")}
    for key, pattern in [*REASONS, *READING_REASONS, *NOTICE_REASONS, *ERRORS, *setup.ERRORS]:
        english = slots(files["en"][key])
        assert english <= set(pattern.groupindex), key
        for code, words in files.items():
            assert key in words and slots(words[key]) == english, (code, key)


@pytest.mark.parametrize(("error", "key", "params"), [
    ("no blue leg betting tile is left this leg", "refusal.leg_bet_gone", {"camel": "blue"}),
    ("no red betting ticket is left this leg", "refusal.leg_bet_gone", {"camel": "red"}),
    ("white is a crazy camel: finish cards go on racing camels only", "refusal.crazy_camel",
     {"camel": "white"}),
    ("the race is over: nothing more can be played", "refusal.race_over", {}),
    ("the race is over: no die can be rolled", "reading.race_over", {}),
    ("there is no action 12: the game has 11", "refusal.no_action", {"number": 12, "count": 11}),
    ("cannot insert before action 9: the game has 7", "refusal.no_place",
     {"number": 9, "count": 7}),
    ("reading 99 is not waiting: it was settled already", "refusal.settled", {}),
    ("the board and the game agree: there is nothing to dismiss", "refusal.board_agrees", {}),
    ("board alert 2 is gone already", "refusal.board_alert_gone", {}),
    ("the store could not keep this (database or disk is full): nothing changed; free space "
     "on the Pi's card, or check it, then try again", "refusal.not_stored",
     {"why": "database or disk is full"}),
    ("the table closed before running this", "refusal.table_closed", {}),
    ("gold and black can be used 3 ways: choose the camels on a phone", "refusal.ways",
     {"first": "gold", "second": "black", "ways": 3}),
    ("no green Winner card is left this leg", "refusal.cards.winner_gone", {"camel": "green"}),
    ("play_hand: there is no seventh red racing card: intel, revealed and hand cards played "
     "this leg hold all six", "refusal.cards.no_seventh", {"camel": "red"}),
    ("that would make action 4 illegal: move 2 (black on red-blue): the black star never "
     "moves a camel back from an oasis: red-blue is on the oasis on 7", "refusal.breaks_later",
     {"number": 4, "reason": {"key": "refusal.lastcamel.move", "params": {
         "number": 2, "face": "black", "camel": "red-blue", "reason": {
             "key": "refusal.lastcamel.back_from_oasis",
             "params": {"camel": "red-blue", "space": 7}}}}}),
    ("yellow-green may not leave the oasis on 13: it is locked while red-blue stands on or "
     "behind the oasis on 7", "refusal.lastcamel.locked",
     {"camel": "yellow-green", "space": 13, "camel2": "red-blue", "stop": 7}),
    ("yellow-green has no red on its saddle: the red die moves a camel carrying red",
     "refusal.lastcamel.saddle", {"camel": "yellow-green", "face": "red"}),
    ("gold was not rolled: the dice show red and green", "refusal.lastcamel.not_rolled",
     {"face": "gold", "first": "red", "second": "green"}),
    ("the race is over: nothing more can be bet", "refusal.race_over", {}),
    ("an overall bet waits for its camel: press a colour, or NO to cancel it",
     "press.overall_waits", {}),
    ("wrong PIN: ask the table's host for it (it is printed where the companion was started)",
     "request.wrong_pin", {}),
    ("too many wrong PINs: wait 61 s and try again", "request.pin_wait", {"seconds": 61}),
    ("missing or stale X-CSRF-Token: reload the page (API clients: send the PIN in "
     "X-Table-Pin instead)", "request.stale_page", {}),
    ('"player" must be one of Ann, Bob or null, not \'Cy\'', "request.not_playing",
     {"players": "Ann, Bob", "player": "'Cy'"}),
])
def test_a_refusal_is_read_into_its_key_and_values(error, key, params):
    assert sentence(error, ERRORS) == {"key": key, "params": params}


def test_a_refusal_the_page_does_not_know_keeps_its_own_words():
    assert sentence('"value" must be from 1 to 3, not 4', ERRORS) is None
    assert sentence("that would make action 2 illegal: a house rule", ERRORS) == {
        "key": "refusal.breaks_later", "params": {"number": 2, "reason": "a house rule"}}


def refused(make):
    """The one line `make` is refused with."""
    with pytest.raises((CompanionError, CalibrationError)) as refusal:
        make()
    return str(refusal.value)


def in_every_language(words):
    """`words` names a sentence every language has, each with a slot for every value sent."""
    for part in within(words):
        for language in translations.load(WEB / "languages").values():
            assert slots(language[part["key"]]) == set(part["params"]), language["_language"]


SETUP_ERRORS = setup.ERRORS + ERRORS
"""What a New game or Calibrate page's call is answered with, its own errors tried first."""

TWO = {"game": "camelup-2014", "players": ["Ann", "Bob"]}
START = {"1": ["blue", "green"], "2": ["orange"], "3": ["yellow", "white"]}

NEW_GAMES = [
    ({**TWO, "players": ["Ann"], "start": START}, "refusal.header.player_count",
     {"low": 2, "high": 8, "count": 1}),
    ({**TWO, "game": "camelup-cards", "players": ["Ann"]}, "refusal.header.player_count",
     {"low": 2, "high": 6, "count": 1}),
    ({**TWO, "players": ["Ann", "Ann"], "start": START}, "refusal.header.players_twice", {}),
    ({**TWO, "players": ["Ann", " "], "start": START}, "refusal.header.player_name", {}),
    ({**TWO, "game": "chess"}, "refusal.header.unknown_game",
     {"game": "'chess'", "games": "camelup-2014, camelup-2018, camelup-cards, last-camel"}),
    ({**TWO, "start": {**START, "4": ["blue"]}}, "refusal.header.start_twice",
     {"camels": "blue"}),
    ({**TWO, "start": {"1": ["blue"]}}, "refusal.header.start_missing",
     {"camels": "green, orange, yellow, white"}),
    (TWO, "refusal.field.missing", {"field": "start"}),
    ({**TWO, "start": []}, "refusal.field.object", {"field": "start", "value": "[]"}),
    ({**TWO, "start": {"1": "blue"}}, "refusal.field.list",
     {"field": "start '1'", "value": "'blue'"}),
    ({**TWO, "start": {"1": ["pink"]}}, "refusal.field.choice",
     {"field": "start '1'", "choices": "blue, green, orange, yellow, white", "value": "'pink'"}),
    ({**TWO, "start": {"17": ["blue"]}}, "refusal.field.space",
     {"where": '"start"', "space": "'17'", "low": 1, "high": 16}),
    ({**TWO, "start": START, "leg": 0}, "refusal.field.range",
     {"field": "leg", "low": 1, "high": 999, "value": 0}),
    ({**TWO, "start": START, "leg": "2"}, "refusal.field.whole_number",
     {"field": "leg", "low": 1, "high": 999, "value": "'2'"}),
    ({**TWO, "start": START, "tiles": {"5": {"owner": "", "side": "oasis"}}},
     "refusal.field.name", {"field": "owner", "value": "''"}),
]
"""New games' first lines the rules refuse, each with its sentence's key and values."""


@pytest.mark.parametrize(("header", "key", "params"), NEW_GAMES)
def test_a_new_game_the_rules_refuse_is_read_into_its_key_and_values(header, key, params):
    words = sentence(refused(lambda: Game(header)), SETUP_ERRORS)
    assert words == {"key": key, "params": params}
    in_every_language(words)


SIX = {"game": "camelup-2018", "players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
       "start": {"1": ["green", "yellow"], "2": ["blue"], "3": ["red", "purple"],
                 "15": ["white"], "16": ["black"]}}
LAST = {"game": "last-camel", "players": ["Ann", "Bob", "Cy"], "spaces": 25, "oases": [7, 13, 19]}
PAIRS = ["red-yellow", "red-green", "red-blue", "yellow-green", "yellow-blue", "green-blue"]


def part(where, key, **params):
    """A part of a game brought in part-way, refused by the rule it breaks."""
    return {"where": where, "reason": {"key": key, "params": params}}


PART_WAY = [
    ({**TWO, "start": START, "money": {"Cy": 3}}, "refusal.header.money_stranger",
     {"player": "'Cy'"}),
    ({**CARDS_HEADER, "money": {"Dan": 3}}, "refusal.header.money_stranger", {"player": "'Dan'"}),
    ({**TWO, "start": START, "dice_out": ["blue", "blue"]}, "refusal.header.dice_out_twice", {}),
    ({**TWO, "start": START, "dice_out": ["blue", "green", "orange", "yellow", "white"]},
     "refusal.header.dice_out_full", {"count": 5, "most": 5}),
    ({**TWO, "start": START, "dice_out": ["blue"], "pyramid_tickets": {"Ann": 1, "Bob": 1}},
     "refusal.header.tickets", {}),
    ({**TWO, "start": START, "pyramid_tickets": {"Cy": 0}}, "refusal.header.part",
     part("pyramid_tickets", "refusal.header.not_player", player="'Cy'")),
    ({**TWO, "start": START, "tiles": {"1": {"owner": "Ann", "side": "oasis"}}},
     "refusal.header.part", part("tiles '1'", "refusal.tile.space_one", tile="desert tile")),
    ({**TWO, "start": START, "tiles": {"5": {"owner": "Ann", "side": "oasis"},
                                       "6": {"owner": "Bob", "side": "mirage"}}},
     "refusal.header.part",
     part("tiles '6'", "refusal.tile.next_to", tile="desert tile", owner="Ann", space=5)),
    ({**TWO, "start": START, "tiles": {"5": {"owner": "Cy", "side": "oasis"}}},
     "refusal.header.part", part("tiles '5'", "refusal.header.not_player", player="'Cy'")),
    ({**TWO, "start": START, "leg_bets": [{"player": "Ann", "camel": "blue"}] * 4},
     "refusal.header.part_item", {"field": "leg_bets", "item": 4, "reason": {
         "key": "refusal.leg_bet_gone", "params": {"camel": "blue"}}}),
    ({**TWO, "start": START, "race_bets": {"winner": [{"player": "Ann", "camel": "blue"}],
                                           "loser": [{"player": "Ann", "camel": "blue"}]}},
     "refusal.header.part",
     part("race_bets loser", "refusal.race_bet_played", player="Ann", camel="blue")),
    ({**TWO, "start": START, "partnerships": [["Ann", "Bob"]]}, "refusal.header.part",
     part("partnerships", "refusal.partner.none", game="camelup-2014")),
    ({**SIX, "partnerships": [["Ann"]]}, "refusal.header.pairs", {}),
    ({**SIX, "partnerships": [["Ann", "Ann"]]}, "refusal.header.part",
     part("partnerships", "refusal.partner.self", player="Ann")),
    ({**SIX, "partnerships": [["Ann", "Zed"]]}, "refusal.header.part",
     part("partnerships", "refusal.unknown_player", player="'Zed'",
          players="Ann, Bob, Cy, Dee, Eve, Fay")),
    ({**SIX, "partnerships": [["Ann", "Bob"], ["Bob", "Cy"]]}, "refusal.header.part",
     part("partnerships", "refusal.partner.taken", player="Bob", partner="Ann")),
    ({**SIX, "players": ["Ann", "Bob", "Cy", "Dee"], "partnerships": [["Ann", "Bob"]]},
     "refusal.header.part", part("partnerships", "refusal.partner.few", count=6)),
    ({**CARDS_HEADER, "setup": {**CARDS_HEADER["setup"], "kept": 6}},
     "refusal.header.setup_kept", {"kept": 6, "dealt": 9, "discarded": 4}),
    ({**CARDS_HEADER, "setup": {**CARDS_HEADER["setup"], "left": 1}},
     "refusal.header.setup_left", {"left": 1, "kept": 5, "deck": 3}),
    ({**CARDS_HEADER, "setup": {"dealt": 9, "discarded": 5, "kept": 4, "deck": 3, "left": 1,
                                "intel": 1}},
     "refusal.header.setup_players",
     {"players": 3, "want_left": 2, "want_intel": 1, "left": 1, "intel": 1}),
    ({**CARDS_HEADER, "players": ["A", "B", "C", "D", "E"]}, "refusal.header.setup_deck",
     {"players": 5, "deck": 3, "intel": 1, "size": 20}),
    ({**CARDS_HEADER, "setup": {"dealt": 11, "discarded": 6, "kept": 5, "deck": 3, "left": 2,
                                "intel": 1}},
     "refusal.header.setup_dealt", {"players": 3, "dealt": 11}),
    ({**CARDS_HEADER, "sandstorm": [2]}, "refusal.header.sandstorm", {"spaces": "[2]"}),
    ({**CARDS_HEADER, "figures": {"fennec": 2}}, "refusal.header.figure_space", {"space": 2}),
    ({**CARDS_HEADER, "final_bets": {"winner": {"Dan": "blue"}}}, "refusal.header.part",
     part('"final_bets"', "refusal.header.not_player", player="'Dan'")),
    ({**CARDS_HEADER, "final_bets": {"winner": {"Ann": "blue", "Bob": "blue"}}},
     "refusal.header.final_twice", {"camel": "blue", "pile": "winner"}),
    ({**LAST, "start": {"0": PAIRS[1:]}}, "refusal.header.part",
     part("\"start '0'\"", "refusal.lastcamel.out", camel="green-blue")),
    ({**LAST, "finish_order": ["red-yellow"]}, "refusal.header.part",
     part('"finish_order"', "refusal.lastcamel.out", camel="red-yellow")),
    ({**LAST, "players": ["A", "B", "C", "D"], "finish_order": ["red-blue"],
      "start": {"0": PAIRS}}, "refusal.header.order_twice", {"camels": "red-blue"}),
    ({**LAST, "start": {"0": ["red-blue"]}}, "refusal.header.order_missing",
     {"camels": "red-green, yellow-green, yellow-blue"}),
    ({**LAST, "oases": [7, 13]}, "refusal.header.oases_count", {"count": 2}),
    ({**LAST, "oases": [13, 7, 19]}, "refusal.header.oases_order", {"oases": "[13, 7, 19]"}),
    ({**CARDS_HEADER, "start": {"0": ["blue", "green", "orange", "yellow", "white"]}},
     "refusal.header.start_off", {}),
]
"""Games brought in part-way the rules refuse, each with its sentence's key and values."""


@pytest.mark.parametrize(("header", "key", "params"), PART_WAY)
def test_a_game_brought_in_part_way_the_rules_refuse_is_read_into_its_key_and_values(
        header, key, params):
    """Money, tiles, tickets, bets and partnerships already on the table, Camel Up Cards'
    setup, sandstorms, figures and final bets, The Last Camel's oases and finished camels:
    each refused in words every language has, a part's refusal by the rule it breaks."""
    words = sentence(refused(lambda: Game(header)), SETUP_ERRORS)
    assert words == {"key": key, "params": params}
    in_every_language(words)


FIRST_LINE_FROM_THE_PAGE = {"refusal.header.players_list", "refusal.header.too_deep",
                            "refusal.header.not_text"}
"""What the New game page's call itself refuses before the rules read the first line (see
tests/web/test_setup.py); every other sentence of a first line is the rules' own."""


def test_every_sentence_of_a_first_line_is_one_the_rules_really_raise():
    """Each pattern of `setup.ERRORS` for a first line (not calibration) matches, whole, a
    refusal the rules raise from a header above, the rules' own code and not a copy of its
    words: a refusal reworded in the rules fails here, not in a person's language."""
    met = set()
    for header, _, _ in NEW_GAMES + PART_WAY:
        words = sentence(refused(partial(Game, header)), SETUP_ERRORS)
        met.update(part["key"] for part in within(words))
    first_line = {key for key, _ in setup.ERRORS
                  if not key.startswith(("refusal.calibration.", "refusal.board_not_read"))}
    assert first_line - FIRST_LINE_FROM_THE_PAGE <= met
    assert not FIRST_LINE_FROM_THE_PAGE & met


BLANK = np.zeros((480, 640, 3), np.uint8)
"""A picture with nothing in it: no marker, die or card."""


def looking_straight_down():
    """A table seen square on, its markers tapped where a camera straight above would see them:
    nothing tells how far away that camera is, so nothing standing on the table can be placed."""
    layout = load_config(None).layout
    markers = np.array(layout.markers, np.float64) * [2, -2] + [60, 420]
    return TableCalibration.from_points(markers, (640, 480), layout)


@pytest.mark.parametrize(("make", "key", "params"), [
    (lambda: learn_colours(BLANK, dice_set("camelup-2018")), "refusal.calibration.dice_missing",
     {"found": 0, "count": 6, "dice": "blue, green, yellow, red, purple, grey"}),
    (lambda: learn_card_colours(BLANK), "refusal.calibration.cards_missing",
     {"found": 0, "count": 5, "camels": "blue, green, orange, yellow, white"}),
    (lambda: learn_face_colours(BLANK, colour_dice_set("last-camel")),
     "refusal.calibration.no_die", {"count": 2}),
    (lambda: calibrate_table(BLANK, load_config(None).layout),
     "refusal.calibration.markers_not_seen", {"markers": "0, 1, 2, 3"}),
    (lambda: learn_colours(BLANK, dice_set("camelup-2014"), table=looking_straight_down()),
     "refusal.calibration.tilt", {}),
])
def test_what_vision_refuses_to_calibrate_is_read_into_its_key_and_values(make, key, params):
    words = sentence(refused(make), SETUP_ERRORS)
    assert words == {"key": key, "params": params}
    in_every_language(words)


@pytest.mark.parametrize(("error", "key", "params"), [
    (str(MarkersNotSeen([3])), "refusal.calibration.markers_not_seen", {"markers": 3}),
    ("could not find the grey, white die for sure: lay all the dice in the roll zone, apart "
     "and in full light, and try again", "refusal.calibration.dice_unsure",
     {"dice": "grey, white"}),
    ("the blue and green cards look alike: lay one card of each camel face up in view, apart, "
     "and try again", "refusal.calibration.cards_alike", {"camels": "blue and green"}),
    ("found 6 camels on the board, the game has 7: could not find the black camel; stand "
     "every camel alone on its own space, in view, and try again",
     "refusal.calibration.camels_missing", {"found": 6, "count": 7, "camels": "black"}),
    ("found 3 camels on the board, the game has 5: could not find the blue, white camels; "
     "stand every camel alone on its own space, in view, and try again",
     "refusal.calibration.camels_missing", {"found": 3, "count": 5, "camels": "blue, white"}),
    ("the roll zone's corners do not make a quadrilateral; mark them again, far left first, "
     "clockwise", "refusal.calibration.zone_askew", {}),
    ("the camera looks straight down on the table: the board is read from an angle (25 to 55 "
     "degrees off vertical)", "refusal.calibration.straight_down", {}),
    ("the board camera: marker 1 not seen, and the other three are not where the table's "
     "layout puts them; make sure all four are in view and lit, or mark the corners by hand",
     "refusal.calibration.board_camera", {"reason": {
         "key": "refusal.calibration.marker_astray", "params": {"marker": 1}}}),
    ("the board camera does not see marker(s) 0, 3: make sure all four are in its picture "
     "and lit, and try again", "refusal.calibration.board_camera_markers",
     {"markers": "0, 3"}),
    ("the board camera has no picture: check it is plugged in and try again",
     "refusal.calibration.no_picture.board_camera", {}),
    ("the camera could not be measured: no lens position", "refusal.calibration.not_measured",
     {"why": "no lens position"}),
    ("cannot write /var/lib/camel-companion/calibration.toml: No space left on device",
     "refusal.calibration.cannot_write",
     {"path": "/var/lib/camel-companion/calibration.toml", "why": "No space left on device"}),
])
def test_a_calibration_step_refused_is_read_into_its_key_and_values(error, key, params):
    words = sentence(error, SETUP_ERRORS)
    assert words == {"key": key, "params": params}
    in_every_language(words)


def test_a_die_the_game_lacks_is_refused_with_a_sentence_of_its_own(table):
    """As when a die of the other edition lands as a new game of it starts."""
    seen = table.see({"die": "purple", "value": 2, "confidence": 0.99}).view
    reading = seen["readings"][-1]
    assert (reading["outcome"], reading["reason"]) == ("refused", "camelup-2014 has no purple die")
    assert seen["reasons"][reading["reason"]] == {"key": "reading.no_die",
                                                  "params": {"die": "purple"}}


def offered(game):
    """Every line a phone's composers and editors can send in `game` as it stands, for every
    player: what a person tapping can be refused."""
    p = pieces(game)
    for player in p["players"]:
        yield from OFFERS[game.rules.game](game, p, player)


def board_game_lines(game, p, player):
    for die, value in itertools.product(p["dice"], (1, 2, 3)):
        for numeral in p["crazy_camels"] if die == "grey" else [None]:
            yield {"player": player, "action": "roll", "die": die, "value": value,
                   **({"numeral": numeral} if numeral else {})}
    for camel in p["camels"]:
        yield {"player": player, "action": "leg_bet", "camel": camel}
        for pile in ("winner", "loser"):
            yield {"player": player, "action": "race_bet", "pile": pile, "camel": camel}
    for space, side in itertools.product(range(2, p["spaces"] + 1), p["tile_sides"]):
        yield {"player": player, "action": p["tile"], "space": space, "side": side}
    for other in p["players"] if p["partnerships"] else []:
        yield {"player": player, "action": "partnership", "with": other}


def cards_lines(game, p, player):
    for camel in p["camels"]:
        yield {"player": player, "action": "play_hand", "camel": camel}
        for value in (1, 2):
            yield {"player": player, "action": "reveal", "camel": camel, "value": value}
        for kind in p["kinds"]:
            yield {"player": player, "action": "leg_bet", "camel": camel, "kind": kind}
        for pile in p["piles"]:
            yield {"player": player, "action": "final_bet", "pile": pile, "camel": camel}
    for figure, space in itertools.product(p["figures"], range(1, game.state.length + 4)):
        yield {"player": player, "action": "place_figure", "figure": figure, "space": space}
    for deck, value in itertools.product((10, 12), (1, 2)):
        yield {"action": "leg_setup", "deck": deck,
               "intel": {n: {"camel": "blue", "value": value} for n in p["players"][1:]}}


def last_camel_lines(game, p, player):
    for camel in p["camels"]:
        yield {"player": player, "action": "reveal_owner", "camel": camel}
    for dice in itertools.combinations_with_replacement(p["faces"], 2):
        moves = [{"die": die, "camel": camel} for die in dict.fromkeys(dice)
                 for camel in p["camels"]]
        for count in (0, 1, 2):
            for chosen in itertools.islice(itertools.permutations(moves, count), 0, None, 5):
                yield {"player": player, "action": "roll", "dice": list(dice),
                       "moves": list(chosen)}


OFFERS = {"camelup-2014": board_game_lines, "camelup-2018": board_game_lines,
          "camelup-cards": cards_lines, "last-camel": last_camel_lines}


def refusals(played):
    """What the rules answer each line offered at every moment of `played`, and each tenth
    line offered at its end put in place of its first and its middle action."""
    game = Game(played.header)
    for action in [*played.actions, None]:
        for line in offered(game):
            try:
                game.rules.apply(game.state, game.parse_action(line))
            except CompanionError as e:
                yield str(e)
        if action is not None:
            game.push(action)
    for index, line in itertools.product((0, len(game) // 2),
                                         itertools.islice(offered(game), 0, None, 10)):
        try:
            game.copy().replace(index, game.parse_action(line))
        except CompanionError as e:
            yield str(e)


def within(words):
    """A sentence and each refusal within it."""
    while isinstance(words, dict):
        yield words
        words = words["params"].get("reason")


def test_every_refusal_a_phone_can_meet_has_a_sentence_in_every_language():
    languages = translations.load(WEB / "languages")
    keys = set()
    for path in EXAMPLES:
        for error in set(refusals(read_game(path.read_text().splitlines()))):
            words = sentence(error, ERRORS)
            assert words is not None, error
            for part in within(words):
                keys.add(part["key"])
                assert not isinstance(part["params"].get("reason"), str), error
                for language in languages.values():
                    assert slots(language[part["key"]]) == set(part["params"]), error
    assert len(keys) >= 40


def test_a_refused_press_reaches_every_page_as_its_button_and_the_refusal(table):
    notice = "UNDO button: there is nothing to undo: no action has been played"
    shown = table.submit(Announce(notice)).result(5)
    assert shown.view["reasons"][notice] == {"key": "notice.button", "params": {
        "button": "UNDO", "reason": {"key": "refusal.nothing_to_undo", "params": {}}}}
