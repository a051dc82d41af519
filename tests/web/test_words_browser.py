"""What a person reads on a phone, in a real browser: the page after the race, words that fit
their place at 360 and 390 px wide, French throughout (its words, its decimal comma), and
what the table refuses said in German."""

import json
import re
from pathlib import Path

import pytest

from companion.table import Announce
from tests.web.conftest import ROLL
from tests.web.test_browser import TABLET, open_page, unlock_after_a_wrong_pin

playwright_api = pytest.importorskip("playwright.sync_api")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEADER_2018, *RACE_2018 = [json.loads(line) for line in
                           (EXAMPLES / "camelup-2018.jsonl").read_text().splitlines()]
HEADER_CARDS, *RACE_CARDS = [json.loads(line) for line in
                             (EXAMPLES / "camelup-cards.jsonl").read_text().splitlines()]
NARROW = {"width": 390, "height": 800}

pytestmark = pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                                reason="Debian's chromium is not installed")


def finished_odds(view):
    """Odds as a worker computes them for a finished race: certainties, 0 % and 100 %."""
    camels = view["pieces"]["camels"]
    first, last = view["ranking"][0], view["ranking"][-1]
    return {"leg": {c: [float(c == first), 0.0] for c in camels},
            "race": {"winner": {c: float(c == first) for c in camels},
                     "loser": {c: float(c == last) for c in camels}},
            "actions": []}


@pytest.mark.parametrize("header", [HEADER_2018])
@pytest.mark.parametrize("lines", [RACE_2018])
def test_after_the_race_no_odds_and_no_tickets_are_shown(browser, served):
    table, url = served
    table.publish_odds(table.snapshot.game_version, finished_odds(table.snapshot.view))
    page = open_page(browser, url, NARROW)
    page.wait_for_function("() => !document.querySelector('#odds-body table')"
                           " && document.querySelector('#odds-body').textContent.trim()")
    assert page.text_content("#odds-body").strip() == "The race is over."
    assert "%" not in page.text_content("#odds")
    headings = page.locator("#players thead th").all_text_contents()
    assert headings == ["Player", "Coins"]
    assert page.locator("#players .chip").count() == 0
    assert page.errors == []


@pytest.mark.parametrize("header", [HEADER_CARDS])
@pytest.mark.parametrize("lines", [RACE_CARDS])
def test_after_a_camel_up_cards_race_no_betting_cards_are_shown(browser, served):
    _, url = served
    page = open_page(browser, url, NARROW)
    assert page.locator("#players thead th").all_text_contents() == ["Player", "Coins"]
    assert page.locator("#players .chip").count() == 0
    assert page.errors == []


@pytest.mark.parametrize("header", [HEADER_2018])
@pytest.mark.parametrize("lines", [RACE_2018[:4]])
def test_the_corrections_are_counted_with_a_space(browser, served):
    table, url = served
    table.undo()
    table.undo()
    page = open_page(browser, url, NARROW)
    page.wait_for_selector("#corrections-box:not([hidden])")
    assert page.inner_text("#corrections-box summary").strip() == "Corrections (2)"


@pytest.mark.parametrize("header", [HEADER_CARDS])
@pytest.mark.parametrize("lines", [RACE_CARDS[:7]])
def test_a_figure_fits_its_tile_in_every_language(browser, served):
    _, url = served
    for lang in ("en", "fr", "de"):
        page = open_page(browser, f"{url}?lang={lang}", NARROW)
        page.wait_for_selector('#board [data-figure="palm"]')
        overflow = page.evaluate("""() => [...document.querySelectorAll('#board [data-figure]')]
            .flatMap((tile) => {
              const box = tile.getBBox();
              return [...tile.parentNode.querySelectorAll('text')].filter((t) => {
                const b = t.getBBox();
                return b.y >= box.y && b.y < box.y + box.height
                  && (b.x < box.x || b.x + b.width > box.x + box.width);
              }).map((t) => t.textContent);
            })""")
        assert overflow == [], lang


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_header_and_the_language_menu_are_whole_on_a_phone(browser, served, width, lang):
    _, url = served
    for path in ("", "calibrate", "new"):
        page = open_page(browser, f"{url}?lang={lang}", {"width": width, "height": 800})
        if path:
            page.goto(f"{url}{path}")
            page.wait_for_load_state("load")
        cut = page.evaluate("""() => [...document.querySelectorAll('.bar h1, .bar a, .bar p')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1
                           || e.getBoundingClientRect().right > innerWidth)
            .map((e) => e.textContent)""")
        assert cut == [], (path, cut)
        if path:
            continue
        menu = page.evaluate("""() => {
            const select = document.querySelector('#lang');
            const probe = document.createElement('span');
            probe.style.font = getComputedStyle(select).font;
            probe.style.whiteSpace = 'nowrap';
            document.body.append(probe);
            const widths = [...select.options].map((o) => {
              probe.textContent = o.textContent; return probe.getBoundingClientRect().width; });
            probe.remove();
            const box = select.getBoundingClientRect();
            return { needed: Math.max(...widths), inner: select.clientWidth, right: box.right };
        }""")
        assert menu["inner"] >= menu["needed"] + 16, menu
        assert menu["right"] <= width, menu


@pytest.mark.parametrize("header", [HEADER_2018])
@pytest.mark.parametrize("lines", [RACE_2018])
def test_french_payouts_and_numbers_are_french(browser, served):
    _, url = served
    page = open_page(browser, f"{url}?lang=fr", NARROW)
    last = page.text_content('#history-list .entry[data-index="58"] .payouts')
    assert "tuiles pyramide \u00d71" in last
    assert "1er bon pari sur le perdant final : vert" in last
    history = page.text_content("#history-list")
    assert re.findall(r"\b(?:pyramid|ticket|right|wrong|led|place|card)\b", history) == []
    assert "étape" not in page.text_content("body").lower()
    assert page.evaluate("() => document.documentElement.lang") == "fr"
    assert page.errors == []


@pytest.mark.parametrize("header", [HEADER_2018])
@pytest.mark.parametrize("lines", [RACE_2018[:30]])
def test_french_odds_have_a_decimal_comma(browser, served):
    table, url = served
    view = table.snapshot.view
    camels = view["pieces"]["camels"]
    odds = {"leg": {c: [0.055, 0.25] for c in camels},
            "race": {"winner": {c: 0.2 for c in camels}, "loser": {c: 0.2 for c in camels}},
            "actions": [{"action": {"player": view["turn"], "action": "roll"}, "ev": 1.25}]}
    table.publish_odds(table.snapshot.game_version, odds)
    page = open_page(browser, f"{url}?lang=fr", NARROW)
    page.wait_for_selector("#odds-body .advice")
    assert "1,25 pièces" in page.text_content("#odds-body .advice")
    assert "5,5" in page.text_content("#odds-body table")


@pytest.mark.parametrize("header", [HEADER_CARDS])
@pytest.mark.parametrize(("lang", "said"), [
    ("fr", "probabilités de manche sur 20\u202f000 manches simulées (erreur type 0,3\u00a0%), "
           "de course exactes"),
    ("de", "Etappenchancen aus 20.000 simulierten Etappen (Standardfehler 0,3\u00a0%), "
           "Rennchancen exakt")])
def test_what_the_cards_odds_assume_is_said_in_the_pages_language(browser, served, lang, said):
    table, url = served
    camels = table.snapshot.view["pieces"]["camels"]
    odds = {"leg": {c: [0.2, 0.2] for c in camels},
            "race": {"winner": {c: 0.2 for c in camels}, "loser": {c: 0.2 for c in camels},
                     "races": 0, "stderr": 0.0},
            "actions": [], "assumes": "in English", "leg_samples": 20000, "leg_stderr": 0.0031}
    table.publish_odds(table.snapshot.game_version, odds)
    page = open_page(browser, f"{url}?lang={lang}", NARROW)
    page.wait_for_selector("#odds-body .assumes")
    assert said in page.text_content("#odds-body .assumes")
    assert page.errors == []


def test_why_a_reading_waits_is_said_in_french(browser, served):
    table, url = served
    table.see({"die": "blue", "value": 2, "confidence": 0.685})
    page = open_page(browser, f"{url}?lang=fr", NARROW)
    page.wait_for_selector("#pending:not([hidden])")
    text = page.text_content("#pending-list")
    assert "pas assez sûre : vérifiez-la" in text
    assert text.count("%") == 1, text
    assert page.errors == []


@pytest.mark.parametrize("header", [HEADER_2018])
@pytest.mark.parametrize("lines", [RACE_2018])
def test_the_page_speaks_german(browser, served):
    _, url = served
    page = open_page(browser, f"{url}?lang=de", NARROW)
    assert page.text_content("#headline") == "Etappe 6"
    assert page.text_content("#turn") == "Das Rennen ist vorbei: Bob gewinnt"
    last = page.text_content('#history-list .entry[data-index="58"] .payouts')
    assert "1. richtige Wette auf den Gesamtverlierer: grün" in last
    assert page.locator("#players thead th").all_text_contents() == ["Spieler", "Münzen"]
    assert page.errors == []


@pytest.mark.parametrize("lines", [[ROLL, {"player": "Bob", "action": "roll", "die": "green",
                                           "value": 1}]])
def test_a_wrong_pin_a_refused_press_and_a_refused_correction_are_said_in_german(browser,
                                                                                  served):
    table, url = served
    page = open_page(browser, f"{url}?lang=de", TABLET)
    unlock_after_a_wrong_pin(page, "falsche PIN: Frag den Gastgeber")
    table.submit(Announce("BLUE button: no blue leg betting tile is left this leg")).result(5)
    page.wait_for_selector("#toast:has-text('Taste BLAU')")
    assert page.text_content("#toast") == ("Taste BLAU: in dieser Etappe ist keine Etappenwette "
                                           "blau mehr übrig")
    page.click('#history-list .entry[data-index="0"] [data-tool="edit"]')
    page.select_option("#edit-die", "green")
    page.click("#edit-submit")
    page.wait_for_selector("#edit-error:has-text('Nr. 2')")
    assert page.text_content("#edit-error") == ("das würde Aktion Nr. 2 regelwidrig machen: der "
                                                "Würfel grün ist in dieser Etappe schon aus der "
                                                "Pyramide")
    assert page.errors == []
