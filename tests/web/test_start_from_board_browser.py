"""A new game's start read from the board by the table's camera, on the New game page in a real
browser: the camels it saw are placed, the ones it could not see are asked once."""

import pytest

from tests.play import HEADERS
from tests.web.conftest import CHROMIUM
from tests.web.test_browser import shoot
from tests.web.test_setup import READ_2018, BoardCamera
from tests.web.test_setup_browser import phone, unlock

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


@pytest.fixture
def header():
    """The table plays Camel Up (2018): its camera looks for that game's camels."""
    return HEADERS["camelup-2018"]


def test_a_new_game_starts_as_the_camera_read_the_board(browser, served):
    table, url = served
    table.board_camera = BoardCamera(READ_2018)
    page = phone(browser, url + "new")
    unlock(page)
    page.select_option("#game", "camelup-2014")
    page.check("input[name=start][value=table]")
    page.click("#read-board")
    expect(page.locator("#toast")).to_contain_text(
        "The camera looked for the camels of Camel Up (second edition, 2018), the game at the "
        "table now")
    assert page.locator(".placing button.chosen").count() == 0

    page.select_option("#game", "camelup-2018")
    page.click("#read-board")
    expect(page.locator("#unseen")).to_have_text("The camera could not see them: tap their "
                                                 "spaces, lowest in a stack first: yellow and "
                                                 "purple")
    expect(page.locator(".placing.unseen .camel")).to_have_text(["yellow", "purple"])
    row = {camel: page.locator(".placing", has=page.locator(f".camel.{camel}"))
           for camel in ("yellow", "purple", "black")}
    expect(row["black"].locator("button.chosen")).to_have_text("13")
    shoot(page, "new-game-from-camera-phone")
    for camel in ("yellow", "purple"):
        row[camel].locator("button", has_text="3").click()
    expect(page.locator("#unseen")).to_have_count(0)
    page.click("#start-game")
    page.wait_for_url(url)
    assert table.snapshot.view["track"] == {"1": ["blue", "green"],
                                            "3": ["red", "yellow", "purple"],
                                            "13": ["black"], "16": ["white"]}
    assert page.errors == []
