"""The dashboard in a real browser: Debian's Chromium driven by Playwright, against waitress.

One browser for the module; each test gets a fresh table and server on a free loopback port.
Screenshots at phone and tablet size go to tests/artifacts/ for a person to look at.
"""

import time
from pathlib import Path

import pytest

from tests.web.conftest import CHROMIUM, PIN, ROLL
from tests.web.conftest import HEADER as HEADER_2014

playwright_api = pytest.importorskip("playwright.sync_api")

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}
XSS = "<img src=x onerror=alert(1)>"
BET = {"player": "Bob", "action": "leg_bet", "camel": "yellow"}
CARD = {"player": "Cy", "action": "race_bet", "pile": "winner", "camel": "green"}

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def open_page(browser, url, size=PHONE):
    """A fresh phone (its own cookies) on the dashboard, once its live stream is open."""
    context = browser.new_context(viewport=size, device_scale_factor=2 if size == PHONE else 1,
                                  has_touch=size == PHONE)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.errors.append("dialog " + d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_selector("#live.on")
    return page


def unlock(page, player=""):
    page.click("#lock")
    page.fill("#pin-input", PIN)
    page.select_option("#pin-player", player)
    page.click("#pin-submit")
    page.wait_for_selector("#controls:not([hidden])")


def unlock_after_a_wrong_pin(page, refusal):
    """A wrong PIN first, refused with words starting `refusal`, then the right one."""
    page.click("#lock")
    page.fill("#pin-input", "0000")
    page.click("#pin-submit")
    page.wait_for_selector(f"#pin-error:has-text('{refusal}')")
    page.fill("#pin-input", PIN)
    page.click("#pin-submit")
    page.wait_for_selector("#controls:not([hidden])")
    page.wait_for_selector("#live.on")


def played(page, table, count):
    """Wait until the page shows `count` actions, and return the table's view."""
    page.wait_for_selector(f'#history-list .entry[data-index="{count - 1}"]')
    view = table.snapshot.view
    assert len(view["history"]) == count
    return view


def board_of(page):
    """Every space the page draws with camels: its camels in the order the page lists them
    (a stack bottom to top; Camel Up Cards' Start card left to right; The Last Camel's palace
    in finishing order)."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#board [data-space]')].map((g) => [g.dataset.space, [...g.querySelectorAll(
        '[data-camel]')].map((c) => c.dataset.camel)]).filter(([, camels]) => camels.length))""")


def shoot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    if page.is_visible("#toast"):
        page.click("#toast")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_a_phone_shows_a_die_within_a_second_of_its_roll(browser, served):
    table, url = served
    page = open_page(browser, url)
    assert page.locator("#dice-out [data-die]").count() == 0
    start = time.monotonic()
    table.push(ROLL)
    page.wait_for_selector('#dice-out [data-die="blue"]', timeout=1000)
    assert time.monotonic() - start < 1.0
    assert page.text_content('#dice-out [data-die="blue"]') == "3"
    assert page.locator('#board [data-space="4"] [data-camel="blue"]').count() == 1
    assert page.errors == []


def test_the_pin_unlocks_the_controls_and_a_roll_is_logged_from_the_page(browser, served):
    table, url = served
    page = open_page(browser, url)
    assert page.is_hidden("#controls")
    unlock_after_a_wrong_pin(page, "wrong PIN")
    page.click('#kinds [data-kind="roll"]')
    page.click('#composer [data-die="green"]')
    page.click('#composer [data-value="2"]')
    page.wait_for_selector('#dice-out [data-die="green"]')
    assert table.snapshot.view["history"][0]["action"] == {
        "player": "Ann", "action": "roll", "die": "green", "value": 2}
    shoot(page, "phone-unlocked")
    assert page.errors == []


def test_a_tile_half_placed_is_kept_when_the_turn_passes_and_placed_for_the_player_to_act(
        browser, served):
    table, url = served
    page = open_page(browser, url)
    unlock(page)
    page.click('#kinds [data-kind="tile"]')
    page.click('#composer [data-side="mirage"]')
    page.click('#composer [data-space="10"]')
    table.push(ROLL)
    played(page, table, 1)
    assert page.get_attribute('#kinds [data-kind="tile"]', "aria-pressed") == "true"
    assert page.get_attribute('#composer [data-side="mirage"]', "aria-pressed") == "true"
    assert page.get_attribute('#composer [data-space="10"]', "aria-pressed") == "true"
    assert "Bob's turn" in page.text_content('#composer [data-passed="Bob"]')
    page.click("#composer .primary")
    view = played(page, table, 2)
    assert view["history"][1]["action"] == {
        "player": "Bob", "action": "desert_tile", "space": 10, "side": "mirage"}
    assert page.locator("#composer [data-passed]").count() == 0
    assert page.errors == []


def test_a_roll_half_tapped_in_goes_when_the_turn_passes(browser, served):
    table, url = served
    page = open_page(browser, url)
    unlock(page)
    page.click('#kinds [data-kind="roll"]')
    page.click('#composer [data-die="green"]')
    table.push(ROLL)
    played(page, table, 1)
    assert page.get_attribute('#kinds [data-kind="roll"]', "aria-pressed") == "true"
    assert page.get_attribute('#composer [data-die="green"]', "aria-pressed") == "false"
    assert page.locator("#composer [data-value], #composer [data-passed]").count() == 0
    assert page.errors == []


@pytest.mark.parametrize("lines", [[ROLL]])
def test_a_die_a_correction_took_out_of_the_pyramid_goes_from_the_roll_being_tapped_in(
        browser, served):
    table, url = served
    page = open_page(browser, url)
    unlock(page)
    page.click('#kinds [data-kind="roll"]')
    page.click('#composer [data-die="green"]')
    table.replace(0, {**ROLL, "die": "green"})
    page.wait_for_selector('#composer [data-die="blue"]')
    assert page.locator('#composer [data-die="green"], #composer [data-value]').count() == 0
    assert page.errors == []


@pytest.mark.parametrize("lines", [[ROLL, BET]])
def test_undo_from_the_page_takes_back_the_last_action(browser, served):
    table, url = served
    page = open_page(browser, url)
    unlock(page)
    assert page.locator("#history-list .entry").count() == 2
    page.click("#undo")
    assert page.locator("#history-list .entry").count() == 2
    page.click("#undo")
    playwright_api.expect(page.locator("#history-list .entry")).to_have_count(1)
    assert len(table.snapshot.view["history"]) == 1
    assert page.errors == []


@pytest.mark.parametrize("lines", [[ROLL, BET, {"player": "Cy", "action": "roll",
                                                "die": "yellow", "value": 1}]])
def test_a_past_roll_is_corrected_from_the_page(browser, served):
    table, url = served
    page = open_page(browser, url, TABLET)
    unlock(page)
    page.click('#history-list .entry[data-index="0"] [data-tool="edit"]')
    page.select_option("#edit-value", "1")
    page.click("#edit-submit")
    page.wait_for_selector('#history-list .entry.corrected[data-index="0"]')
    assert table.snapshot.view["track"]["2"] == ["green", "blue"]
    assert "it was" in page.text_content('#history-list .entry[data-index="0"] .badge')
    page.click('#history-list .entry[data-index="2"] [data-tool="edit"]')
    page.select_option("#edit-die", "blue")
    page.click("#edit-submit")
    page.wait_for_selector("#edit-error:has-text('already out of the pyramid')")
    page.click("#edit-cancel")
    shoot(page, "tablet-corrected")
    assert page.errors == []


@pytest.mark.parametrize("lines", [[ROLL, BET, CARD]])
def test_overall_bets_stay_face_down_but_on_their_players_own_phone(browser, served):
    _, url = served
    watcher = open_page(browser, url)
    assert watcher.get_attribute('#piles [data-pile="winner"] .chip', "data-camel") == "hidden"
    assert watcher.get_attribute('#history-list .entry[data-index="2"] .chip',
                                 "data-camel") == "hidden"
    assert watcher.locator('#piles [data-camel="green"]').count() == 0
    host = open_page(browser, url)
    unlock(host)
    assert host.get_attribute('#piles [data-pile="winner"] .chip', "data-camel") == "hidden"
    owner = open_page(browser, url)
    unlock(owner, "Cy")
    owner.wait_for_selector('#piles [data-pile="winner"] [data-camel="green"]')
    assert watcher.errors == host.errors == owner.errors == []


HEADER_2018 = {"game": "camelup-2018", "players": ["Ann", "Bob", "Cy"],
               "start": {"1": ["green", "yellow"], "2": ["blue"], "3": ["red", "purple"],
                         "15": ["white"], "16": ["black"]}}


@pytest.mark.parametrize("header", [{**HEADER_2014, "players": [XSS, "Bob"]}])
def test_a_typed_name_is_shown_as_text(browser, served):
    _, url = served
    page = open_page(browser, url)
    assert page.locator("#players img").count() == 0
    assert XSS in page.text_content("#players")
    assert page.errors == []


@pytest.mark.parametrize("header", [HEADER_2018])
@pytest.mark.parametrize("lines", [[
    {"player": "Ann", "action": "spectator_tile", "space": 6, "side": "cheering"},
    {"player": "Bob", "action": "roll", "die": "blue", "value": 2},
    {"player": "Cy", "action": "leg_bet", "camel": "blue"},
    {"player": "Ann", "action": "roll", "die": "grey", "value": 1, "numeral": "white"},
    {"player": "Bob", "action": "race_bet", "pile": "loser", "camel": "red"}]])
def test_screenshots_at_phone_and_tablet_size_portrait_and_landscape(browser, served):
    _, url = served
    sizes = {"phone-portrait": PHONE, "phone-landscape": {"width": 740, "height": 360},
             "tablet-portrait": {"width": 768, "height": 1024}, "tablet-landscape": TABLET}
    for name, size in sizes.items():
        page = open_page(browser, url, size)
        unlock(page, "Cy")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} scrolls sideways: {width} px"
        shoot(page, name)
        assert page.errors == []
