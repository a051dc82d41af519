"""The New game and Calibrate pages in a real browser: Debian's Chromium, waitress, a table
whose camera films a rendered stage."""

import json

import pytest

from companion.calibration import Calibrator
from companion.camera import TableCamera
from companion.table import Table
from tests.play import stored_game
from tests.waiting import eventually
from tests.web.conftest import CHROMIUM, PIN
from tests.web.test_browser import PHONE, shoot
from tests.web.test_setup import CARDS_HEADER
from vision.sources import Frame
from vision.stage import Stage
from vision.synth import calibration_frame
from vision.synth_board import board_session
from web import create_app
from web.server import Server

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


@pytest.fixture
def served(tmp_path):
    """A table with a camera on a rendered stage, its calibrator, and the dashboard's address."""
    stage = Stage("camelup-2014", seed=11, hard_share=0.0)
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    with Table(stored_game(tmp_path / "game.sqlite3")) as table:
        calibrator.camera = TableCamera(lambda: stage, lambda game: stage.settler(), pace=True)
        app = create_app(table, {"PIN": PIN, "CALIBRATOR": calibrator})
        server = Server(app, host="127.0.0.1", port=0, streams=8).start()
        with calibrator.camera.attach(table):
            try:
                yield table, calibrator, server.url
            finally:
                table.close()
                server.close()


def phone(browser, url):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(url)
    return page


def unlock(page):
    page.fill("#pin", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#pin-form", state="hidden")


def test_a_new_game_is_started_from_a_phone_with_the_camels_as_placed(browser, served):
    table, _, url = served
    page = phone(browser, url + "new")
    unlock(page)
    page.select_option("#game", "camelup-2018")
    names = page.locator("#players input")
    names.nth(0).fill("Zoe")
    page.click("#add-player")
    names.nth(3).fill("Wim")
    page.check("input[name=start][value=table]")
    for camel, space in [("blue", 1), ("green", 1), ("yellow", 2), ("red", 3),
                         ("purple", 3), ("white", 16), ("black", 14)]:
        page.locator(".placing", has=page.locator(f".camel.{camel}")) \
            .locator("button", has_text=str(space)).click()
    shoot(page, "new-game-phone")
    page.click("#start-game")
    page.wait_for_url(url)
    view = table.snapshot.view
    assert view["game"] == "camelup-2018"
    assert [p["name"] for p in view["players"]] == ["Zoe", "Bob", "Cy", "Wim"]
    assert view["track"] == {"1": ["blue", "green"], "2": ["yellow"], "3": ["red", "purple"],
                             "14": ["black"], "16": ["white"]}
    assert page.errors == []


@pytest.mark.parametrize(("game", "set_up"), [
    ("camelup-cards", lambda view: view["leg_setup_due"]),
    ("last-camel", lambda view: view["track"] == {"0": view["pieces"]["camels"]})])
def test_a_new_game_of_camel_up_cards_or_the_last_camel_needs_only_its_players(
        browser, served, game, set_up):
    table, _, url = served
    page = phone(browser, url + "new")
    unlock(page)
    page.select_option("#game", game)
    expect(page.locator("#start-box")).to_be_hidden()
    expect(page.locator("#header-box")).to_be_hidden()
    page.locator("#players input").nth(0).fill("Zoe")
    page.click("#start-game")
    page.wait_for_url(url)
    view = table.snapshot.view
    assert view["game"] == game
    assert [p["name"] for p in view["players"]] == ["Zoe", "Bob", "Cy"]
    assert set_up(view)
    assert page.errors == []


def test_a_new_game_missing_a_camel_is_refused_on_the_page(browser, served):
    table, _, url = served
    page = phone(browser, url + "new")
    unlock(page)
    page.check("input[name=start][value=table]")
    page.click("#start-game")
    expect(page.locator("#toast")).to_contain_text("Place every camel first: blue, green")
    assert table.snapshot.view["history"] == [] and table.snapshot.view["game"] == "camelup-2014"


def test_the_camera_is_calibrated_from_a_phone(browser, served):
    _, calibrator, url = served
    page = phone(browser, url + "calibrate")
    unlock(page)
    expect(page.locator("#board-state")).to_have_text("not yet")
    eventually(lambda: page.evaluate("document.getElementById('camera').naturalWidth") > 0,
               timeout=30.0)
    for _ in range(5):  # a hand passing over a marker hides it: a person tries again
        page.click("#find-markers")
        page.wait_for_selector("#find-markers:enabled")
        if page.text_content("#board-state") == "done":
            break
        assert "not seen" in page.text_content("#toast")
        page.wait_for_timeout(1000)
    expect(page.locator("#board-state")).to_have_text("done")
    page.wait_for_selector("#overlay polygon.zone", state="attached")
    expect(page.locator("#save-state")).to_have_text("not saved yet: the board")
    page.click("#lock-exposure")
    expect(page.locator("#toast")).to_contain_text("only a Pi camera's exposure can be locked")
    # the stage films dice, not the camels on the track: the step says what to do
    expect(page.locator("#camels-state")).to_have_text("not yet")
    page.click("#learn-camels")
    expect(page.locator("#toast")).to_contain_text("stand every camel alone on its own space")
    shoot(page, "calibrate-phone")
    page.click("#save")
    expect(page.locator("#toast")).to_have_text(
        "Saved: the camera reads with this calibration from now on.")
    expect(page.locator("#save-state")).to_have_text("")
    assert calibrator.calibrated.is_file()
    assert calibrator.vision().calibration is not None
    assert page.errors == []


def test_the_setup_pages_say_what_is_refused_in_the_page_s_language(browser, served):
    """A wrong PIN, a new game the rules refuse and a calibration step that cannot be done,
    each in the page's language; colours and markers listed as that language lists them."""
    _, _, url = served
    page = phone(browser, url + "new?lang=de")
    page.fill("#pin", "1357")
    page.click("#pin-form button[type=submit]")
    expect(page.locator("#toast")).to_have_text(
        "falsche PIN: Frag den Gastgeber des Tisches danach (sie wird dort angezeigt, wo der "
        "Begleiter gestartet wurde)")
    unlock(page)
    page.locator("#players input").nth(1).fill("Ann")
    page.click("#start-game")
    expect(page.locator("#toast")).to_have_text(
        "zwei Spieler haben denselben Namen: Jeder Spieler braucht einen eigenen")
    assert page.errors == []

    page = phone(browser, url + "calibrate?lang=fr")
    unlock(page)
    page.click("#lock-exposure")
    expect(page.locator("#toast")).to_have_text(
        "seule l'exposition d'une caméra du Pi peut être bloquée ; cette caméra règle la sienne")
    assert page.evaluate("""() => {
      const boot = JSON.parse(document.getElementById("boot").textContent);
      const { worded } = window.camelWords(boot.lang, boot.words);
      return [
        worded({ key: "refusal.calibration.dice_missing",
                 params: { found: 4, count: 5, dice: "grey, white" } }, ""),
        worded({ key: "refusal.calibration.markers_not_seen", params: { markers: "0, 2" } }, ""),
      ];
    }""") == [
        "4 dés trouvés, le jeu en a 5 (il manque : gris et blanc) : posez-les tous en vue, "
        "séparés, puis réessayez",
        "repère(s) 0 et 2 non vu(s) : veillez à ce que les quatre soient en vue et éclairés, ou "
        "marquez les coins à la main"]
    assert page.errors == []


def test_a_first_line_typed_on_the_page_is_refused_in_the_page_s_language(browser, served):
    """A part of a game brought in part-way, by the rule it breaks, and The Last Camel's
    camels, each named by its two colours as the page's language names them."""
    _, _, url = served
    page = phone(browser, url + "new?lang=fr")
    unlock(page)
    page.select_option("#game", "other")
    start = {"1": ["blue", "green"], "2": ["orange"], "3": ["yellow", "white"]}
    tiles = {"5": {"owner": "Ann", "side": "oasis"}, "6": {"owner": "Bob", "side": "mirage"}}
    page.fill("#header", json.dumps({"game": "camelup-2014", "players": ["Ann", "Bob"],
                                     "start": start, "tiles": tiles}))
    page.click("#start-game")
    expect(page.locator("#toast")).to_have_text(
        "tiles '6' : une tuile désert ne peut pas être à côté d'une autre : celle de Ann est "
        "sur la case 5")

    page = phone(browser, url + "new?lang=de")
    unlock(page)
    page.select_option("#game", "other")
    page.fill("#header", json.dumps({"game": "last-camel", "players": ["Ann", "Bob", "Cy"],
                                     "spaces": 25, "oases": [7, 13, 19],
                                     "start": {"0": ["red-blue"]}}))
    page.click("#start-game")
    expect(page.locator("#toast")).to_have_text(
        '"start" und "finish_order" lassen rot/grün, gelb/grün und gelb/blau aus: Jedes Kamel '
        "im Rennen steht auf dem Spielplan oder ist im Ziel")
    assert page.errors == []


START = {"1": ["blue", "green"], "2": ["orange"], "3": ["yellow", "white"]}
TWO = {"game": "camelup-2014", "players": ["Ann", "Bob"], "start": START}
SIX = {"game": "camelup-2018", "players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
       "start": {"1": ["green", "yellow"], "2": ["blue"], "3": ["red", "purple"],
                 "15": ["white"], "16": ["black"]}}
LAST = {"game": "last-camel", "players": ["Ann", "Bob", "Cy"], "spaces": 25, "oases": [7, 13, 19]}


@pytest.mark.parametrize(("lang", "unplaced", "refused"), [
    ("fr", "Placez d'abord chaque chameau : bleu, vert, orange, jaune et blanc", [
        ({**TWO, "dice_out": ["blue"], "pyramid_tickets": {"Ann": 1, "Bob": 1}},
         '"pyramid_tickets" compte plus de tuiles pyramide qu\'il n\'y a de dés dans "dice_out"'),
        ({**SIX, "partnerships": [["Ann", "Bob"], ["Bob", "Cy"]]},
         "partnerships : la carte partenariat de Bob n'est pas disponible : Bob est déjà en "
         "partenariat avec Ann cette manche"),
        ({**CARDS_HEADER, "setup": {**CARDS_HEADER["setup"], "kept": 6}},
         '"setup" : kept (6) doit être égal à dealt (9) - discarded (4)'),
        ({**LAST, "oases": [13, 7, 19]},
         '"oases" doit donner trois cases différentes dans l\'ordre croissant, pas [13, 7, 19]'),
    ]),
    ("de", "Stelle zuerst jedes Kamel auf: blau, grün, orange, gelb und weiß", [
        ({**TWO, "leg_bets": [{"player": "Ann", "camel": "blue"}] * 4},
         "leg_bets, Nr. 4: in dieser Etappe ist keine Etappenwette blau mehr übrig"),
        ({**SIX, "race_bets": {"winner": [{"player": "Ann", "camel": "white"}]}},
         "race_bets winner: weiß ist ein verrücktes Kamel: Gewettet wird nur auf Rennkamele"),
        ({**CARDS_HEADER, "final_bets": {"winner": {"Ann": "blue", "Bob": "blue"}}},
         '"final_bets": die Schlusskarte blau für den Gesamtsieger ist zweimal vergeben'),
        ({**LAST, "oases": [7, 13]}, '"oases" muss die Felder der drei Oasen nennen, nicht 2'),
    ]),
])
def test_a_new_game_is_refused_on_the_page_in_its_language(browser, served, lang, unplaced,
                                                           refused):
    """Camels left unplaced, named in the page's language, then a first line typed on the
    page for each game, refused where that game's rules refuse it (tickets and leg bets,
    partnerships and overall bets, Camel Up Cards' set-up and final cards, The Last Camel's
    oases): the page says why in its language, and the game at the table goes on."""
    table, _, url = served
    page = phone(browser, url + f"new?lang={lang}")
    unlock(page)
    page.check("input[name=start][value=table]")
    page.click("#start-game")
    expect(page.locator("#toast")).to_have_text(unplaced)
    page.select_option("#game", "other")
    for header, words in refused:
        page.fill("#header", json.dumps(header))
        page.click("#start-game")
        expect(page.locator("#toast")).to_have_text(words)
    assert table.snapshot.view["game"] == "camelup-2014"
    assert page.errors == []

class StillSource:
    """A camera that sees one picture, ten frames a second."""

    def __init__(self, image):
        self.image = image
        self.index = 0

    def read(self):
        self.index += 1
        return Frame(self.image, self.index / 10, self.index)

    def close(self):
        pass


def test_the_camels_are_learned_on_the_board_camera_s_picture(browser, tmp_path):
    session = board_session(3_123_456, game="camelup-2014")
    config = tmp_path / "camel-companion.toml"
    config.write_text('[vision.board.source]\nkind = "folder"\npath = "board"\n')
    calibrator = Calibrator(config, tmp_path / "state" / "calibration.toml")
    stage = Stage("camelup-2014", seed=11, hard_share=0.0)
    calibrator.camera = TableCamera(lambda: stage, lambda game: stage.settler(), pace=True)
    calibrator.board_camera = TableCamera(lambda: StillSource(session.setup.image),
                                          lambda game: None, make_board=calibrator.board_watch,
                                          pace=True)
    with Table(stored_game(tmp_path / "game.sqlite3")) as table, \
            calibrator.camera.attach(table), calibrator.board_camera.attach(table, shown=False):
        server = Server(create_app(table, {"PIN": PIN, "CALIBRATOR": calibrator}),
                        host="127.0.0.1", port=0, streams=8).start()
        try:
            page = phone(browser, server.url + "calibrate")
            unlock(page)
            expect(page.locator("#camels-camera")).to_have_text(
                "With the board camera, shown here: it finds the four markers in the same "
                "picture, so keep them in its view too.")
            eventually(lambda: page.evaluate(
                "document.getElementById('board-camera').naturalWidth") == 1280, timeout=30.0)
            page.click("#learn-camels")
            expect(page.locator("#camels-state")).to_have_text("done for Camel Up (2014)")
            page.click("#save")
            expect(page.locator("#save-state")).to_have_text("")
            shoot(page, "calibrate-board-camera-phone")
            assert calibrator.vision().board_calibration.image_size == (1280, 720)
            assert calibrator.vision().calibration is None
            assert page.errors == []
        finally:
            table.close()
            server.close()


def test_a_die_not_found_is_shown_under_the_refusal_where_the_camera_looked(browser, tmp_path):
    """The yellow die forgotten: under the refusal, in the page's language, the frame the
    colours were tried on, drawn with where each die was found; gone once they are learned
    from all the dice."""
    stage = Stage("camelup-2014", seed=11, hard_share=0.0)
    source = StillSource(calibration_frame(stage.table, stage.light, 5,
                                           leaving_out=["yellow"]).image)
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    calibrator.camera = TableCamera(lambda: source, lambda game: None, pace=True)
    with Table(stored_game(tmp_path / "game.sqlite3")) as table, \
            calibrator.camera.attach(table):
        server = Server(create_app(table, {"PIN": PIN, "CALIBRATOR": calibrator}),
                        host="127.0.0.1", port=0, streams=8).start()
        try:
            page = phone(browser, server.url + "calibrate?lang=fr")
            unlock(page)
            expect(page.locator("#colours-refused")).to_be_hidden()
            page.click("#find-markers")
            expect(page.locator("#board-state")).to_have_text("fait")
            page.click("#learn-colours")
            expect(page.locator("#colours-refusal")).to_have_text(
                "4 dés trouvés, le jeu en a 5 (il manque : jaune) : posez-les tous en vue, "
                "séparés, puis réessayez")
            expect(page.locator("#colours-refused figcaption")).to_contain_text(
                "Là où la caméra a cherché")
            picture = page.locator("#refused-picture")
            expect(picture).to_be_visible()
            expect(picture).to_have_attribute("src", "/api/calibration/refused.jpg?n=1")
            eventually(lambda: picture.evaluate("img => img.complete && img.naturalWidth") == 640,
                       timeout=10.0)
            shoot(page, "calibrate-refused-phone")

            every_die = stage.calibration_frame().image
            source.image = every_die
            eventually(lambda: calibrator.camera.latest()[1] is every_die, timeout=10.0)
            page.click("#learn-colours")
            expect(page.locator("#colours-state")).to_have_text("fait pour Camel Up (2014)")
            expect(page.locator("#colours-refused")).to_be_hidden()
            assert picture.get_attribute("src") is None
            assert page.errors == []
        finally:
            table.close()
            server.close()
