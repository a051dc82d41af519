"""The Last Camel on the dashboard: rolls logged by tapping the dice and the camels they may move,
the board drawn from the table's state, and owner cards shown only at the end."""

import json
from pathlib import Path

import pytest

from companion.rules.last_camel import roll_ways
from tests.web.test_browser import board_of, open_page, played, shoot, unlock

EXAMPLE = Path(__file__).parents[2] / "examples" / "last-camel.jsonl"
HEADER, *LINES = [json.loads(line) for line in EXAMPLE.read_text().splitlines()]
NEAR_THE_END = {"game": "last-camel", "players": ["Ann", "Bob"], "spaces": 25,
                "oases": [7, 13, 19], "finish_order": ["red-green", "red-blue", "yellow-green"],
                "start": {"25": ["yellow-blue"]}}
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}


@pytest.mark.parametrize("header", [HEADER])
def test_the_state_offers_every_legal_way_to_use_each_pair_of_faces(client, table):
    state = client.get("/api/state").json
    assert state["pieces"] == {
        "camels": ["red-green", "red-blue", "yellow-green", "yellow-blue"],
        "faces": ["red", "yellow", "green", "blue", "gold", "black"],
        "colours": ["red", "yellow", "green", "blue"], "players": ["Ann", "Bob", "Cy"]}
    assert len(state["rolls"]) == 21
    assert state["rolls"]["black black"] == [[]]
    assert state["rolls"]["red yellow"] == [
        [m.to_json() for m in way] for way in roll_ways(table.snapshot.state, ("red", "yellow"))]
    assert state["legal"] == [{"player": "Ann", "action": "roll"}]


def roll(page, first, second):
    """Tap the two faces rolled; the composer then offers the legal moves."""
    page.click(f'#composer [data-die="0"] [data-face="{first}"]')
    page.click(f'#composer [data-die="1"] [data-face="{second}"]')


def offered(page):
    return {(b.get_attribute("data-die"), b.get_attribute("data-camel"))
            for b in page.locator("#composer .move-button").all()}


@pytest.mark.parametrize("header", [HEADER])
def test_rolls_are_logged_by_tapping_the_dice_and_the_camels_they_may_move(browser, served):
    table, url = served
    page = open_page(browser, url, PHONE)
    unlock(page)
    watcher = open_page(browser, url, PHONE)
    assert page.get_attribute('#kinds [data-kind="roll"]', "aria-pressed") == "true"

    # Every camel is on the start: the black star can move none, so the roll moves nothing.
    roll(page, "black", "black")
    assert offered(page) == set()
    page.click('#composer [data-go="no-move"]')
    played(page, table, 1)

    roll(page, "red", "green")
    ways = roll_ways(table.snapshot.state, ("red", "green"))
    assert offered(page) == {(w[0].die, w[0].camel) for w in ways}
    page.click('#composer .move-button[data-die="red"][data-camel="red-blue"]')
    assert offered(page) == {(w[1].die, w[1].camel) for w in ways
                             if (w[0].die, w[0].camel) == ("red", "red-blue")}
    page.click('#composer .move-button[data-die="green"][data-camel="yellow-green"]')
    view = played(page, table, 2)
    assert view["history"][1]["action"]["moves"] == [{"die": "red", "camel": "red-blue"},
                                                     {"die": "green", "camel": "yellow-green"}]
    assert board_of(page) == view["track"] == {"0": ["red-green", "yellow-blue"],
                                               "1": ["red-blue"], "2": ["yellow-green"]}
    assert page.text_content("#turn") == "Cy to roll"
    watcher.wait_for_selector('#board [data-space="2"] [data-camel="yellow-green"]')
    assert board_of(watcher) == view["track"]

    # Each camel's distance to the next oasis (7) and to the palace (26).
    row = '#distances tr[data-camel="yellow-green"]'
    assert page.text_content(f"{row} .to-oasis") == "5"
    assert page.text_content(f"{row} .to-finish") == "24"

    roll(page, "gold", "black")
    ways = roll_ways(table.snapshot.state, ("gold", "black"))
    assert offered(page) == {(w[0].die, w[0].camel) for w in ways}
    page.click('#composer .move-button[data-die="black"][data-camel="yellow-green"]')
    page.click('#composer .move-button[data-die="gold"][data-camel="red-green"]')
    view = played(page, table, 3)
    assert board_of(page) == view["track"]

    # Owner cards are secret: nothing on the page names one before the end.
    assert page.locator("#players .owner [data-camel]").count() == 0

    # A refused correction: the first roll changed to one that could move a camel, with no
    # move. One line says why; nothing changes.
    page.click('#history-list .entry[data-index="0"] [data-tool="edit"]')
    page.select_option("#edit-die1", "red")
    page.click("#edit-submit")
    page.wait_for_selector("#edit-error:has-text('fewer moves than can be made')")
    page.click("#edit-cancel")
    assert table.snapshot.view["track"] == view["track"]
    assert len(table.snapshot.view["corrections"]) == 0
    assert page.errors == watcher.errors == []


@pytest.mark.parametrize("header", [HEADER])
@pytest.mark.parametrize("lines", [LINES[:3]])
def test_a_camel_tapped_that_a_correction_made_impossible_is_tapped_again(browser, served):
    table, url = served
    page = open_page(browser, url, PHONE)
    unlock(page)
    roll(page, "red", "black")
    page.click('#composer .move-button[data-die="black"][data-camel="red-green"]')
    table.replace(2, {"player": "Cy", "action": "roll", "dice": ["red", "red"],
                      "moves": [{"die": "red", "camel": "red-blue"},
                                {"die": "red", "camel": "red-blue"}]})
    page.wait_for_selector('#history-list .entry.corrected[data-index="2"]')
    ways = roll_ways(table.snapshot.state, ("red", "black"))
    assert ("black", "red-green") not in {(w[0].die, w[0].camel) for w in ways}
    assert offered(page) == {(w[0].die, w[0].camel) for w in ways}
    assert page.get_attribute('#composer [data-die="1"] [data-face="black"]',
                              "aria-pressed") == "true"
    assert page.errors == []


@pytest.mark.parametrize("header", [HEADER])
@pytest.mark.parametrize("lines", [LINES[:3]])
def test_the_faces_tapped_in_go_when_the_turn_passes(browser, served):
    table, url = served
    page = open_page(browser, url, PHONE)
    unlock(page)
    roll(page, "red", "black")
    table.push({"player": "Ann", "action": "roll", "dice": ["red", "black"],
                "moves": [{"die": "red", "camel": "red-green"},
                          {"die": "black", "camel": "red-blue"}]})
    played(page, table, 4)
    assert page.locator('#composer [aria-pressed="true"], #composer .move-button').count() == 0
    assert page.errors == []


@pytest.mark.parametrize("header", [NEAR_THE_END])
def test_the_last_roll_ends_the_race_and_each_player_shows_their_card(browser, served):
    table, url = served
    page = open_page(browser, url, PHONE)
    unlock(page)
    roll(page, "yellow", "gold")
    assert "Only one" in page.text_content("#composer")
    page.click('#composer .move-button[data-die="yellow"][data-camel="yellow-blue"]')
    played(page, table, 1)
    page.wait_for_selector("#turn:has-text('show the owner cards')")
    assert board_of(page) == {"26": ["red-green", "red-blue", "yellow-green", "yellow-blue"]}
    page.click('.intel-row[data-player="Ann"] [data-camel="yellow-blue"]')
    played(page, table, 2)
    assert page.locator('.intel-row[data-player="Bob"] [data-camel="yellow-blue"]').count() == 0
    page.click('.intel-row[data-player="Bob"] [data-camel="red-green"]')
    view = played(page, table, 3)
    assert view["winners"] == ["Ann"]
    page.wait_for_selector("#turn:has-text('won by Ann')")
    assert page.get_attribute('#players [data-player="Ann"] .owner .chip',
                              "data-camel") == "yellow-blue"
    assert page.errors == []


@pytest.mark.parametrize("header", [HEADER])
@pytest.mark.parametrize("lines", [LINES[:14]])
def test_screenshots_at_phone_and_tablet_size(browser, served):
    _, url = served
    for name, size in {"last-camel-phone": PHONE, "last-camel-tablet": TABLET}.items():
        page = open_page(browser, url, size)
        unlock(page, "Cy")
        roll(page, "gold", "black")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} scrolls sideways: {width} px"
        shoot(page, name)
        assert page.errors == []
