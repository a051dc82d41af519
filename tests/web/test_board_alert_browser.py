"""The board alert in a real browser: every phone shows where the board the camera read and the
game disagree, over the camera's picture; an unlocked phone puts the game right in one tap, or
says the players will fix the board."""

import cv2
import numpy as np
import pytest

from tests.test_table_board import seen
from tests.web.conftest import CHROMIUM
from tests.web.test_board_alert import AS_SEEN, MISREAD, BoardCamera
from tests.web.test_browser import TABLET, open_page, shoot, unlock

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

PICTURE = {"size": [1280, 720],
           "spaces": {"2": [[300, 400], [420, 400], [420, 520], [300, 520]],
                      "4": [[560, 400], [680, 400], [680, 520], [560, 520]]}}
JPEG = cv2.imencode(".jpg", np.full((72, 128, 3), (120, 190, 225), np.uint8))[1].tobytes()


def camels(page, space, side):
    """The colours a page shows on one side of a disagreeing space, bottom to top."""
    chips = page.locator(f'#board-alert tr[data-space="{space}"] [data-side="{side}"] [data-camel]')
    return chips.evaluate_all("chips => chips.map((c) => c.dataset.camel)")


@pytest.mark.parametrize("lines", [[MISREAD]])
def test_every_phone_shows_the_disagreement_and_one_tap_puts_the_game_right(browser, served):
    table, url = served
    table.board_grace = 0.0
    table.board_camera = BoardCamera(JPEG)
    phone = open_page(browser, url)
    unlock(phone)
    tablet = open_page(browser, url, TABLET)

    table.see_board(seen(table, AS_SEEN, picture=PICTURE))
    for page in (phone, tablet):
        page.wait_for_selector("#board-alert:not([hidden])")
        assert [camels(page, space, side) for space in (2, 4) for side in ("game", "camera")] \
            == [["green", "blue"], ["green"], [], ["blue"]]
        assert page.locator("#board-alert polygon").count() == 2
        assert page.locator("#board .cell.disagrees").count() == 2
        # a function, evaluated once: an expression is evaluated again at each poll, which
        # the page's CSP (no 'unsafe-eval') refuses once the picture is slower than the first
        # look, as on a loaded machine
        page.wait_for_function("() => document.querySelector('#board-alert img').naturalWidth > 0")
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # a locked phone says what to do, and offers nothing to tap
    assert "unlock this phone with the table's PIN" in tablet.text_content("#board-alert")
    assert tablet.locator("#board-alert button").count() == 0
    shoot(phone, "board-alert-phone")
    shoot(tablet, "board-alert-tablet")

    fix = phone.locator('#board-alert [data-answer="fix"]')
    assert fix.text_content() == "The blue die showed 3: put the game right"
    fix.click()
    for page in (phone, tablet):
        page.wait_for_selector("#board-alert", state="hidden")
    assert table.snapshot.view["history"][0]["action"] == {**MISREAD, "value": 3}
    # the alert hides with the next snapshot, which may reach a page before the answer to its
    # own tap does: wait for the toast rather than read it at once
    expect(phone.locator("#toast")).to_have_text("Action #1 corrected")
    assert phone.errors == [] and tablet.errors == []


@pytest.mark.parametrize("lines", [[MISREAD]])
def test_a_board_no_roll_explains_is_dismissed_for_the_players_to_fix(browser, served):
    table, url = served
    table.board_grace = 0.0
    phone = open_page(browser, url)
    unlock(phone)

    knocked = {2: [None, "green"], 3: ["orange"], 5: ["yellow"], 7: ["white"]}
    table.see_board(seen(table, knocked))
    phone.wait_for_selector("#board-alert:not([hidden])")
    assert camels(phone, 2, "camera") == ["hidden", "green"]
    assert phone.text_content('#board-alert tr[data-space="2"] [data-side="camera"]') == "?green"
    assert "No roll in place of the last one explains this board." \
        in phone.text_content("#board-alert")
    assert phone.locator("#board-alert img").count() == 0      # no picture came with it
    assert phone.locator('#board-alert [data-answer="fix"]').count() == 0
    phone.click('#board-alert [data-answer="dismiss"]')
    phone.wait_for_selector("#board-alert", state="hidden")
    assert table.snapshot.view["board"] is None
    expect(phone.locator("#toast")).to_contain_text("Set the camels as the game has them")
    assert phone.errors == []
