"""A reading the camera was not sure of, put right by a tap in a real browser: a racing card in
Camel Up Cards, the two dice of a throw in The Last Camel."""

import pytest

from tests.test_table_readings import CARDS, LAST_CAMEL, LEG_SETUP, card, face
from tests.web.conftest import CHROMIUM
from tests.web.test_browser import open_page, shoot, unlock

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def settled(page, table, count):
    """Wait until the page shows `count` actions and nothing waits; the table's view."""
    page.wait_for_selector(f'#history-list .entry[data-index="{count - 1}"]')
    page.wait_for_selector("#pending", state="hidden")
    return table.snapshot.view


@pytest.mark.parametrize(("header", "lines"), [(CARDS, [LEG_SETUP])])
def test_a_racing_card_is_put_right_by_a_tap_taken_by_ok_or_set_aside_by_no(browser, served):
    table, url = served
    page = open_page(browser, url)
    unlock(page)

    table.see(card(camel=None, value=None, confidence=0.3))
    page.wait_for_selector("#pending .pending-item")
    assert "could not read" in page.text_content("#pending")
    assert page.is_disabled('#pending [data-answer="ok"]')
    page.click('#pending [data-camel="yellow"]')
    page.click('#pending [data-value="2"]')
    view = settled(page, table, 2)
    assert view["history"][-1]["action"] == {"player": "Ann", "action": "reveal",
                                             "camel": "yellow", "value": 2}

    table.see(card("orange", 1, confidence=0.6))
    page.wait_for_selector('#pending [data-answer="ok"]:not([disabled])')
    shoot(page, "cards-pending-phone")
    page.click('#pending [data-answer="ok"]')
    view = settled(page, table, 3)
    assert view["history"][-1]["action"] == {"player": "Bob", "action": "reveal",
                                             "camel": "orange", "value": 1}

    table.see(card("blue", 2, confidence=0.5))
    page.click('#pending [data-answer="no"]')
    page.wait_for_selector("#pending", state="hidden")
    page.wait_for_selector('#readings .r-rejected', state="attached")
    assert page.text_content('#readings .r-accepted .badge') == "revealed"
    assert [r["outcome"] for r in table.snapshot.view["readings"]] == [
        "accepted", "accepted", "rejected"]
    assert page.errors == []


@pytest.mark.parametrize("header", [LAST_CAMEL])
def test_the_two_dice_read_prefill_the_roll_and_a_tap_puts_a_face_right(browser, served):
    table, url = served
    page = open_page(browser, url)
    unlock(page)

    # a pair whose faces allow one way only is taken by OK
    table.see(face("black", 0.5))
    table.see(face("black"))
    page.click('#pending [data-answer="ok"]:not([disabled])')
    view = settled(page, table, 1)
    assert view["history"][0]["action"] == {"player": "Ann", "action": "roll",
                                            "dice": ["black", "black"], "moves": []}

    table.see(face("red"))
    table.see(face(None, 0.3))
    page.wait_for_selector("#pending .pending-item")
    assert page.is_disabled('#pending [data-answer="ok"]')
    # the roll composer starts from the faces read: red tapped, the unread one not
    assert page.get_attribute('#composer [data-die="0"] [data-face="red"]', "aria-pressed") \
        == "true"
    assert page.locator('#composer [data-die="1"] [aria-pressed="true"]').count() == 0
    page.click('#composer [data-die="1"] [data-face="green"]')
    page.click('#composer .move-button[data-die="red"][data-camel="red-blue"]')
    shoot(page, "last-camel-pending-phone")
    page.click('#composer .move-button[data-die="green"][data-camel="yellow-green"]')
    view = settled(page, table, 2)
    assert view["history"][1]["action"] == {
        "player": "Bob", "action": "roll", "dice": ["red", "green"],
        "moves": [{"die": "red", "camel": "red-blue"}, {"die": "green", "camel": "yellow-green"}]}
    assert [r["outcome"] for r in view["readings"]] == ["accepted"] * 4

    assert page.errors == []


@pytest.mark.parametrize(("header", "lines"), [(CARDS, [LEG_SETUP])])
def test_a_locked_phone_says_once_what_was_read_and_how_to_answer(browser, served):
    table, url = served
    page = open_page(browser, url)
    table.see(card("orange", 1, confidence=0.6))
    page.wait_for_selector("#pending .pending-item")
    text = page.text_content("#pending")
    assert "Press OK or NO on the table's panel, or unlock this phone" in text
    assert page.query_selector('#pending [data-answer="ok"]') is None
    assert text.count("60") == 1     # the confidence is said once
    assert page.errors == []
