"""A game is named on the pages as a player knows it, in the page's language ("Camel Up
(2. Edition, 2018)"), never by its id ("camelup-2018"): ids stay in addresses, the API and
form values."""

import pytest

from companion.table import Table
from tests.play import HEADERS, stored_game
from tests.test_table_readings import LAST_CAMEL
from tests.web.conftest import CHROMIUM, PIN
from tests.web.test_browser import open_page
from tests.web.test_setup_browser import phone, unlock
from web import create_app
from web.server import Server

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

IDS = ("camelup-2014", "camelup-2018", "camelup-cards", "last-camel")


class Learned:
    """A calibrator that has learned the dice's colours and the camels of Camel Up (2018)."""

    def status(self):
        return {"camera": True, "table": None, "exposure": None, "colours": "camelup-2018",
                "camels": {"camelup-2014": None, "camelup-2018": "saved"},
                "board_camera": False, "unsaved": []}


@pytest.fixture
def calibrated(tmp_path):
    """A table playing Camel Up (2018), its camera calibrated for it, and its address."""
    with Table(stored_game(tmp_path / "game.sqlite3", HEADERS["camelup-2018"])) as table:
        server = Server(create_app(table, {"PIN": PIN, "CALIBRATOR": Learned()}),
                        host="127.0.0.1", port=0, streams=8).start()
        try:
            yield server.url
        finally:
            table.close()
            server.close()


def shown_text(page):
    """Everything a player reads on the page: its text and its title."""
    return page.evaluate("document.title + ' ' + document.body.innerText")


@pytest.mark.parametrize(("lang", "done"), [
    ("fr", "fait pour Camel Up (2e édition, 2018)"),
    ("de", "erledigt für Camel Up (2. Edition, 2018)"),
])
def test_the_calibrate_page_names_the_game_learned_for_in_its_language(browser, calibrated,
                                                                       lang, done):
    page = phone(browser, calibrated + f"calibrate?lang={lang}")
    unlock(page)
    expect(page.locator("#colours-state")).to_have_text(done)
    expect(page.locator("#camels-state")).to_have_text(done)
    assert not [game for game in IDS if game in shown_text(page)]
    assert page.errors == []


@pytest.mark.parametrize(("lang", "names", "no_partners"), [
    ("fr", ["Camel Up (2014)", "Camel Up (2e édition, 2018)", "Camel Up Cards",
            "Le Dernier Chameau"], "Camel Up (2014) n'a pas de partenariats"),
    ("de", ["Camel Up (2014)", "Camel Up (2. Edition, 2018)", "Camel Up Cards",
            "Das letzte Kamel"], "Camel Up (2014) hat keine Partnerschaften"),
])
def test_the_new_game_page_names_the_games_in_its_language(browser, calibrated, lang, names,
                                                          no_partners):
    page = phone(browser, calibrated + f"new?lang={lang}")
    expect(page.locator("#game option:not([value=other])")).to_have_text(names)
    assert page.eval_on_selector_all("#game option", "os => os.map((o) => o.value)") == [
        "camelup-2014", "camelup-2018", "camelup-cards", "last-camel", "other"]
    assert page.input_value("#game") == "camelup-2018"
    assert not [game for game in IDS if game in shown_text(page)]
    assert page.evaluate("""() => {
      const boot = JSON.parse(document.getElementById("boot").textContent);
      return window.camelWords(boot.lang, boot.words).worded(
        { key: "refusal.partner.none", params: { game: "camelup-2014" } }, "");
    }""") == no_partners
    assert page.errors == []


@pytest.mark.parametrize("header", [LAST_CAMEL])
@pytest.mark.parametrize(("lang", "name"), [("en", "The Last Camel"), ("fr", "Le Dernier Chameau"),
                                            ("de", "Das letzte Kamel")])
def test_the_dashboard_of_the_last_camel_is_headed_by_its_name(browser, served, lang, name):
    _, url = served
    page = open_page(browser, url + f"?lang={lang}")
    expect(page.locator("#headline")).to_have_text(name)
    assert page.errors == []
