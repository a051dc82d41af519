"""Every payout line the rules write, and every reason the table gives for holding or refusing
a camera's reading, reaches a page as a sentence of its own language: a key every language
has, with a value for each of the sentence's slots."""

import re
from pathlib import Path

import pytest

from companion.gamelog import read_game
from companion.snapshot import NOTICE_REASONS, READING_REASONS, worded
from tests.play import HEADERS, random_cards_action, random_game
from web import translations

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
])
def test_a_camera_s_notice_is_read_into_a_sentence_every_language_has(notice, key, params):
    assert worded([{"reason": notice}], NOTICE_REASONS) == {notice: {"key": key,
                                                                     "params": params}}
    for words in translations.load(WEB / "languages").values():
        assert set(re.findall(r"\{(\w+)\}", words[key])) == set(params), words["_language"]
