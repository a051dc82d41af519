"""Camel Up Cards on the dashboard: its pieces and face-down final cards in the API, and a whole
leg played by taps in a real browser against the real table."""

import json
from pathlib import Path

import pytest

from tests.web.conftest import unlock
from tests.web.test_browser import board_of, open_page, played, shoot
from tests.web.test_browser import unlock as unlock_page

EXAMPLE = Path(__file__).parents[2] / "examples" / "camelup-cards.jsonl"
HEADER, *LINES = [json.loads(line) for line in EXAMPLE.read_text().splitlines()]
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
INTEL = {"Ann": "white", "Bob": "blue", "Cy": "yellow"}

pytestmark = pytest.mark.parametrize("header", [HEADER])


def test_the_state_names_the_pieces_a_page_offers(client):
    state = client.get("/api/state").json
    assert state["game"] == "camelup-cards"
    assert state["pieces"] == {
        "camels": ["blue", "green", "orange", "white", "yellow"], "values": [1, 2],
        "figures": ["fennec", "palm"],
        "kinds": ["winner", "midfield"], "piles": ["winner", "loser"],
        "winner_cards": [5, 3, 2, 2], "players": ["Ann", "Bob", "Cy"]}
    assert state["legal"] == [{"action": "leg_setup", "deck": 12}]
    assert state["odds"] is None


@pytest.mark.parametrize("lines", [LINES[:19]])
def test_final_betting_cards_stay_face_down_but_on_their_players_own_phone(client):
    bet = {"player": "Bob", "action": "final_bet", "pile": "winner", "camel": "green"}
    watcher = client.get("/api/state").json
    assert watcher["final_bets"] == {"winner": {"Bob": None}, "loser": {}}
    assert watcher["history"][18]["action"] == {**bet, "camel": None}
    unlock(client, "Bob")
    own = client.get("/api/state").json
    assert own["final_bets"] == {"winner": {"Bob": "green"}, "loser": {}}
    assert own["history"][18]["action"] == bet


@pytest.mark.parametrize("lines", [LINES])
def test_every_final_card_is_turned_up_once_the_race_is_over(client):
    state = client.get("/api/state").json
    assert state["finished"]
    assert state["final_bets"] == {"winner": {"Bob": "green", "Cy": "yellow"},
                                   "loser": {"Bob": "orange"}}


# --- in the browser ------------------------------------------------------------------------------


def tap(page, *selectors):
    for selector in selectors:
        page.click(selector)


def reveal(page, camel, value):
    if page.get_attribute('#kinds [data-kind="reveal"]', "aria-pressed") != "true":
        page.click('#kinds [data-kind="reveal"]')
    tap(page, f'#composer [data-camel="{camel}"]', f'#composer [data-value="{value}"]')


def test_a_whole_leg_is_played_by_taps_and_the_board_follows(browser, served):
    table, url = served
    host = open_page(browser, url, PHONE)
    unlock_page(host)
    cy = open_page(browser, url, PHONE)
    unlock_page(cy, "Cy")
    watcher = open_page(browser, url, PHONE)

    # The leg's setup: the deck's size is known, each player's intel card is tapped.
    assert "Set up leg 1" in host.text_content("#turn")
    for player, camel in INTEL.items():
        host.click(f'.intel-row[data-player="{player}"] [data-camel="{camel}"]')
    host.click('#composer [data-go="leg_setup"]')
    view = played(host, table, 1)
    assert view["intel"] == [{"player": p, "camel": c, "value": 1} for p, c in INTEL.items()]
    host.wait_for_selector('#deck [data-deck="12"]')

    reveal(host, "white", 1)
    view = played(host, table, 2)
    assert board_of(host) == view["track"] == {"1": ["orange", "white"], "2": ["blue", "green"],
                                               "3": ["yellow"]}

    # Bob puts the palm tree on a space tapped on the board, then adds his bet to his turn.
    tap(host, '#kinds [data-kind="place_figure"]', '#composer [data-figure="palm"]',
        '#board [data-space="6"]', "#composer button.primary")
    played(host, table, 3)
    host.wait_for_selector('#board [data-space="6"] [data-figure="palm"]')
    assert "Bob may still bet" in host.text_content("#turn")
    tap(host, '#kinds [data-kind="leg_bet"]', '#composer [data-bettor="Bob"]',
        '#composer [data-kind="winner"][data-camel="yellow"]')
    played(host, table, 4)
    host.wait_for_selector('#players [data-player="Bob"] .chip[data-camel="yellow"]')
    assert host.text_content('#betting-cards [data-camel="yellow"] .winner-left') == "3 2 2"

    # Cy's final card is chosen on Cy's own phone: every other phone sees it face down.
    host.click('#kinds [data-kind="final_bet"]')
    assert "from their own phone" in host.text_content("#composer")
    tap(cy, '#kinds [data-kind="final_bet"]', '#composer [data-camel="green"]')
    played(cy, table, 5)
    cy.wait_for_selector('#piles [data-pile="winner"] [data-camel="green"]')
    for page in (host, watcher):
        page.wait_for_selector('#history-list .entry[data-index="4"]')
        assert page.get_attribute('#piles [data-pile="winner"] .chip', "data-camel") == "hidden"
        assert page.get_attribute('#history-list .entry[data-index="4"] .chip',
                                  "data-camel") == "hidden"

    reveal(host, "blue", 1)
    played(host, table, 6)
    tap(host, '#kinds [data-kind="play_hand"]', '#composer [data-camel="orange"]')
    played(host, table, 7)
    reveal(host, "yellow", 1)
    played(host, table, 8)
    reveal(host, "green", 2)
    view = played(host, table, 9)
    assert board_of(host) == view["track"]

    # A refused tap: there is only one green +2 card. One line says why; nothing changes.
    reveal(host, "green", 2)
    host.wait_for_selector("#toast.error:not([hidden])")
    assert "green +2" in host.text_content("#toast")
    assert len(table.snapshot.view["history"]) == 9

    tap(host, '#kinds [data-kind="leg_bet"]',
        '#composer [data-kind="midfield"][data-camel="green"]')
    played(host, table, 10)
    cards = [("orange", 1), ("green", 1), ("orange", 1), ("green", 1), ("orange", 1), ("blue", 1),
             ("white", 1), ("yellow", 1)]
    for count, (camel, value) in enumerate(cards, start=11):
        reveal(host, camel, value)
        view = played(host, table, count)

    # The deck's last card ends the leg: its payouts are in the history, the money in the table.
    assert view["leg"] == 2 and view["leg_setup_due"]
    host.wait_for_selector("#headline:has-text('Leg 2')")
    assert board_of(host) == view["track"]
    last = host.locator('#history-list .entry[data-index="17"] .payouts li')
    assert last.count() == len(view["history"][17]["payouts"]) == 2
    money = {p["name"]: str(p["money"]) for p in view["players"]}
    assert {name: host.text_content(f'#players [data-player="{name}"] .money')
            for name in money} == money == {"Ann": "2", "Bob": "2", "Cy": "3"}
    assert host.locator('.intel-row[data-player="Ann"]').count() == 1
    assert host.errors == cy.errors == watcher.errors == []


@pytest.mark.parametrize("lines", [LINES[:25]])
def test_screenshots_at_phone_and_tablet_size(browser, served):
    _, url = served
    for name, size in {"cards-phone": PHONE, "cards-tablet": TABLET}.items():
        page = open_page(browser, url, size)
        unlock_page(page, "Bob")
        page.click('#kinds [data-kind="place_figure"]')
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} scrolls sideways: {width} px"
        assert page.locator('#board [data-space="0"]').count() == 1
        shoot(page, name)
        assert page.errors == []


@pytest.mark.parametrize("lines", [LINES[:6]])
def test_a_past_reveal_is_corrected_from_the_page(browser, served):
    table, url = served
    page = open_page(browser, url, TABLET)
    unlock_page(page)
    page.click('#history-list .entry[data-index="3"] [data-tool="edit"]')
    assert page.input_value("#edit-camel") == "yellow"
    page.select_option("#edit-value", "2")
    page.click("#edit-submit")
    page.wait_for_selector('#history-list .entry.corrected[data-index="3"]')
    view = table.snapshot.view
    assert view["history"][3]["action"] == {
        "player": "Bob", "action": "reveal", "camel": "yellow", "value": 2}
    assert board_of(page) == view["track"]
    assert view["track"]["4"] == ["yellow"]
    page.click('#history-list .entry[data-index="0"] [data-tool="edit"]')
    page.select_option("#edit-deck", "10")
    page.click("#edit-submit")
    page.wait_for_selector("#edit-error:has-text('not 10')")
    assert page.errors == []
