"""Setting up from a phone: a new game, and calibrating the camera step by step."""

import json
import random
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.calibration import Calibrator
from companion.rules import GAMES
from tests.web.conftest import PIN, csrf
from tests.web.test_camera import JPEG, Camera
from vision.sources import CameraSettings
from vision.stage import Stage
from vision.synth import calibration_frame, random_light, random_table
from vision.synth_board import board_session
from vision.synth_cards import card_calibration_frame
from web import create_app

WITH_PIN = {"X-Table-Pin": PIN}
CARDS_HEADER = json.loads(
    (Path(__file__).resolve().parents[2] / "examples" / "camelup-cards.jsonl")
    .read_text().splitlines()[0])


def test_the_new_game_page_offers_every_game_and_the_players_now(client):
    page = client.get("/new")
    assert page.status_code == 200
    for game in GAMES:
        assert f'<option value="{game}">'.encode() in page.data
    boot = page.data.split(b'id="boot">')[1]
    assert b'"players": ["Ann", "Bob", "Cy"]' in boot or b'"players":["Ann","Bob","Cy"]' in boot


def test_a_new_game_with_its_start_rolled_is_played_from_then_on(client, table):
    answer = client.post("/api/games", json={"game": "camelup-2018",
                                             "players": ["Zoe", "Yan", "Xi"]},
                         headers=WITH_PIN)
    assert answer.status_code == 200, answer.json
    state = answer.json
    assert state["game"] == "camelup-2018" and state["turn"] == "Zoe"
    placed = {c for camels in state["track"].values() for c in camels}
    assert placed == {"blue", "green", "yellow", "red", "purple", "white", "black"}
    assert table.snapshot.view["game"] == "camelup-2018"


@pytest.mark.parametrize("game", ["camelup-cards", "last-camel"])
def test_a_new_game_of_any_game_is_set_up_from_its_players_as_its_rule_book_does(client, table,
                                                                               game):
    players = ["Zoe", "Yan", "Xi"]
    answer = client.post("/api/games", json={"game": game, "players": players},
                         headers=WITH_PIN)
    assert answer.status_code == 200, answer.json
    log = client.get("/api/games/latest/log", headers=WITH_PIN).get_data(as_text=True)
    header = json.loads(log.splitlines()[0])
    expected = GAMES[game].new_header(players, random.Random(0))
    assert {**header, "start": None} == {**expected, "start": None}
    assert table.snapshot.view["game"] == game


def test_a_new_game_as_placed_keeps_the_stacks_given(client):
    start = {"1": ["blue", "green"], "2": ["orange"], "3": ["yellow", "white"]}
    answer = client.post("/api/games", json={"game": "camelup-2014", "players": ["A", "B"],
                                             "start": start}, headers=WITH_PIN)
    assert answer.json["track"] == start


@pytest.mark.parametrize(("body", "refused"), [
    ({"game": "camelup-2014", "players": ["Solo"]},
     (409, "players", "refusal.header.player_count")),
    ({"game": "camelup-2018", "players": ["Ann", "Bob", "Ann"]},
     (409, "names someone twice", "refusal.header.players_twice")),
    ({"game": "camelup-2014", "players": ["Ann", ""]},
     (409, "a name on one line", "refusal.header.player_name")),
    ({"game": "chess", "players": ["A", "B"]}, (409, "chess", "refusal.header.unknown_game")),
    ({"game": "camelup-2014", "players": ["A", "B"], "start": {"1": ["pink"]}},
     (409, "must be one of blue, green", "refusal.field.choice")),
    ({"game": "camelup-2014", "players": "Ann, Bob"},
     (400, '"players" must be a list', "refusal.header.players_list")),
])
def test_a_bad_new_game_is_refused_in_one_line_and_the_game_goes_on(client, table, body,
                                                                     refused):
    """In the page's words too, where a person filling in the page can meet it."""
    status, error, key = refused
    before = table.snapshot
    answer = client.post("/api/games", json=body, headers=WITH_PIN)
    assert answer.status_code == status and error in answer.json["error"]
    assert answer.json.get("key") == key
    assert table.snapshot is before


TWO = {"game": "camelup-2014", "players": ["Ann", "Bob"],
       "start": {"1": ["blue", "green"], "2": ["orange"], "3": ["yellow", "white"]}}


@pytest.mark.parametrize(("body", "key", "params"), [
    ({**TWO, "tiles": {"2": {"owner": "Ann", "side": "oasis"}}}, "refusal.header.part",
     {"where": "tiles '2'", "reason": {"key": "refusal.tile.camels",
                                       "params": {"space": 2, "tile": "desert tile"}}}),
    ({**TWO, "money": {"Cy": 3}}, "refusal.header.money_stranger", {"player": "'Cy'"}),
    ({**CARDS_HEADER, "setup": {**CARDS_HEADER["setup"], "kept": 6}},
     "refusal.header.setup_kept", {"kept": 6, "dealt": 9, "discarded": 4}),
    ({"game": "last-camel", "players": ["Ann", "Bob", "Cy"], "spaces": 25, "oases": [7, 13]},
     "refusal.header.oases_count", {"count": 2}),
])
def test_a_game_brought_in_part_way_is_refused_in_the_page_s_words(client, table, body, key,
                                                                    params):
    before = table.snapshot
    answer = client.post("/api/games", json=body, headers=WITH_PIN)
    assert answer.status_code == 409
    assert (answer.json["key"], answer.json["params"]) == (key, params)
    assert table.snapshot is before


@pytest.mark.parametrize(("text", "key", "params"), [
    ('{"game": "last-camel", "players": ' + "[" * 40 + "]" * 40 + "}",
     "refusal.header.too_deep", {"depth": 32}),
    ('{"game": "last-camel", "players": ["\\ud800"]}',
     "refusal.header.not_text", {"char": "'\\ud800'"}),
])
def test_a_first_line_typed_as_json_the_companion_does_not_read_is_refused_in_words(
        client, table, text, key, params):
    """As the New game page sends what a person typed once the browser has read it as JSON."""
    answer = client.post("/api/games", data=text, content_type="application/json",
                         headers=WITH_PIN)
    assert answer.status_code == 400
    assert (answer.json["key"], answer.json["params"]) == (key, params)


def test_a_new_game_needs_the_pin(client, table):
    answer = client.post("/api/games", json={"game": "camelup-2014", "players": ["A", "B"]},
                         headers={"X-CSRF-Token": csrf(client)})
    assert answer.status_code == 401
    assert table.snapshot.view["players"][0]["name"] == "Ann"


READ_2018 = ("camelup-2018", [{"space": 1, "camels": ["blue", "green"], "confidence": 0.97},
                              {"space": 3, "camels": ["red", None, "purple"], "confidence": 0.81},
                              {"space": 13, "camels": ["black"], "confidence": 0.95},
                              {"space": 16, "camels": ["white"], "confidence": 0.96}])
"""A 2018 start as the camera read it: yellow hidden in the middle of a stack, the black
camel set down a space short of the crazy camels' start."""


class BoardCamera:
    """A camera that read the board as `read` (None: it has not read it yet)."""

    def __init__(self, read):
        self.read = read

    def board_stacks(self):
        return self.read


@pytest.mark.parametrize(("board_camera", "status", "answer"), [
    (None, 404, {"error": "no camera reads this table's board"}),
    (BoardCamera(None), 404, {"error": "the camera has not read the board yet: keep hands off "
                                       "it a moment, then try again",
                              "key": "refusal.board_not_read", "params": {}}),
    (BoardCamera(READ_2018), 200, {"game": "camelup-2018", "stacks": READ_2018[1]}),
])
def test_the_board_as_the_camera_last_read_it_needs_no_pin(table, client, board_camera,
                                                           status, answer):
    table.board_camera = board_camera
    read = client.get("/api/board")
    assert (read.status_code, read.json) == (status, answer)


@pytest.mark.parametrize("board_camera", [None, BoardCamera(None)])
def test_the_new_game_page_offers_the_camera_s_reading_where_a_camera_reads_the_board(
        table, client, board_camera):
    table.board_camera = board_camera
    boot = json.loads(client.get("/new").data.split(b'id="boot">')[1].split(b"</script>")[0])
    assert boot["board_camera"] is (board_camera is not None)


class StillCamera:
    """A camera whose latest frame is one the stage filmed."""

    is_on = True
    make_settler = None
    """As a board camera's: it reads no dice."""

    def __init__(self, image, source):
        self.image = image
        self.source = source
        self.calibrations = []
        self.holds = []

    def latest(self):
        return (1, self.image)

    def hold(self, seconds):
        self.holds.append(seconds)

    def recalibrate(self, make_settler, make_board=None):
        self.calibrations.append((make_settler, make_board))


@pytest.fixture
def calibrating(table, tmp_path):
    """The app of a table whose camera sees the stage, and its calibrator."""
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    stage = Stage("camelup-2014", seed=11)
    calibrator.camera = StillCamera(stage.read().image, stage)
    app = create_app(table, {"TESTING": True, "PIN": PIN, "SECRET_KEY": "k",
                             "CALIBRATOR": calibrator})
    return app.test_client(), calibrator, stage


def test_calibration_finds_the_markers_learns_the_colours_and_saves(calibrating, tmp_path):
    client, calibrator, stage = calibrating
    assert client.get("/api/calibration").json["table"] is None
    found = client.post("/api/calibration/markers", headers=WITH_PIN).json
    assert found["table"]["markers"] and len(found["table"]["zone"]) == 4
    assert found["unsaved"] == ["table"]
    calibrator.camera.image = stage.calibration_frame().image
    learned = client.post("/api/calibration/colours", headers=WITH_PIN).json
    assert learned["colours"] == "camelup-2014" and learned["unsaved"] == ["colours", "table"]
    saved = client.post("/api/calibration/save", headers=WITH_PIN).json
    assert saved["unsaved"] == [] and saved["colours"] == "camelup-2014"
    written = tomllib.loads((tmp_path / "state" / "calibration.toml").read_text())
    assert set(written["vision"]) == {"calibration", "colours"}
    assert calibrator.camera.calibrations == [(calibrator.settler, calibrator.board_watch)]
    assert calibrator.settler("camelup-2014").reader.table is not None


def test_the_camels_stood_on_the_track_are_learned_from_the_page_and_saved(table, tmp_path):
    session = board_session(3_123_456, game="camelup-2014")
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    calibrator.camera = StillCamera(session.setup.image, None)
    client = create_app(table, {"TESTING": True, "PIN": PIN, "SECRET_KEY": "k",
                                "CALIBRATOR": calibrator}).test_client()
    assert b"Stand every camel of the game alone on its own space" in client.get("/calibrate").data
    client.post("/api/calibration/markers", headers=WITH_PIN)
    learned = client.post("/api/calibration/camels", headers=WITH_PIN).json
    assert learned["camels"] == {"camelup-2014": "unsaved", "camelup-2018": None}
    saved = client.post("/api/calibration/save", headers=WITH_PIN).json
    assert saved["camels"] == {"camelup-2014": "saved", "camelup-2018": None}
    assert calibrator.camera.calibrations == [(calibrator.settler, calibrator.board_watch)]
    assert calibrator.board_watch("camelup-2014") is not None


class PiCamera:
    """As a Picamera2 source of a Camera Module 3 focuses once, measures what its automatic
    exposure settled on, and locks the running camera."""

    def __init__(self):
        self.calls = []

    def focus(self):
        self.calls.append("focus")
        return 1.6

    def measure(self):
        self.calls.append("measure")
        return CameraSettings(12000, 2.5, (1.8, 1.4), 1.6)

    def lock(self, settings):
        self.calls.append(("lock", settings))


def test_the_focus_and_exposure_of_a_pi_camera_are_measured_kept_and_locked_live(
        calibrating, tmp_path):
    client, calibrator, _ = calibrating
    calibrator.camera.source = camera = PiCamera()
    locked = client.post("/api/calibration/exposure", headers=WITH_PIN).json
    measured = CameraSettings(12000, 2.5, (1.8, 1.4), 1.6)
    assert locked["exposure"] == measured.to_config()
    assert camera.calls == ["focus", "measure"]
    client.post("/api/calibration/save", headers=WITH_PIN)
    assert calibrator.vision().camera == measured
    assert camera.calls[-1] == ("lock", measured)


def test_calibration_by_tapping_the_roll_zone(calibrating):
    client, _, _ = calibrating
    zone = [[100, 80], [540, 80], [600, 420], [40, 420]]
    found = client.post("/api/calibration/points", json={"kind": "zone", "points": zone},
                        headers=WITH_PIN).json
    assert found["table"]["zone"] == [[float(x), float(y)] for x, y in zone]


@pytest.mark.parametrize(("path", "body", "error", "key"), [
    ("points", {"kind": "zone", "points": [[1, 2]]}, '"points" must be four', None),
    ("points", {"kind": "edge", "points": [[1, 2]] * 4}, '"kind" must be', None),
    ("points", {"kind": "zone", "points": [[1, 2], [3, 4], [5, 6], [9999, 1]]},
     "must lie in the 640x480 frame", None),
    ("points", {"kind": "zone", "points": [[100, 100]] * 4},
     "do not make a quadrilateral", "refusal.calibration.zone_askew"),
    ("save", None, "nothing new to save", "refusal.calibration.nothing_to_save"),
    ("exposure", None, "only a Pi camera's exposure can be locked",
     "refusal.calibration.no_exposure"),
    ("camels", None, "the board is not calibrated: find the markers first",
     "refusal.calibration.board_first"),
])
def test_a_calibration_step_that_cannot_be_done_says_why_and_changes_nothing(
        calibrating, path, body, error, key):
    """In the page's words too, but for what only a script sends (the page taps within the
    picture, four points of a kind it names)."""
    client, calibrator, _ = calibrating
    answer = client.post(f"/api/calibration/{path}", json=body, headers=WITH_PIN)
    assert answer.status_code == 422 and error in answer.json["error"]
    assert answer.json.get("key") == key
    assert client.get("/api/calibration").json["unsaved"] == []
    assert not calibrator.calibrated.exists()


def test_markers_not_in_view_are_named(calibrating):
    client, calibrator, _ = calibrating
    calibrator.camera.image = calibrator.camera.image[:, :200].copy()
    answer = client.post("/api/calibration/markers", headers=WITH_PIN)
    assert answer.status_code == 422 and "not seen" in answer.json["error"]
    assert (answer.json["key"], answer.json["params"]) == (
        "refusal.calibration.markers_not_seen", {"markers": "1, 2"})


def test_dice_not_found_are_named_in_the_page_s_words(calibrating):
    client, calibrator, _ = calibrating
    calibrator.camera.image = np.zeros_like(calibrator.camera.image)
    answer = client.post("/api/calibration/colours", headers=WITH_PIN)
    assert answer.status_code == 422 and answer.json["key"] == "refusal.calibration.dice_missing"
    assert answer.json["params"] == {"found": 0, "count": 5,
                                     "dice": "blue, green, orange, yellow, white"}


def near(image, bgr, tolerance=40):
    """How many pixels of `image` lie within `tolerance` of `bgr` in every channel."""
    return int((np.abs(image.astype(int) - bgr).max(axis=2) <= tolerance).sum())


def test_a_die_not_found_is_shown_where_the_camera_looked_until_a_step_is_taken(calibrating):
    """The yellow die forgotten when the dice are laid out: the refusal names it, and the
    frame it was tried on is served drawn: the roll zone, and above each die found a swatch of
    the colour it was taken for, none of yellow's; the dice learned at the next try take it
    away."""
    client, calibrator, stage = calibrating
    assert client.get("/api/calibration/refused.jpg").status_code == 404
    client.post("/api/calibration/markers", headers=WITH_PIN)
    shot = calibration_frame(stage.table, stage.light, 5, leaving_out=["yellow"])
    calibrator.camera.image = shot.image
    answer = client.post("/api/calibration/colours", headers=WITH_PIN)
    assert answer.status_code == 422
    assert (answer.json["key"], answer.json["params"]) == (
        "refusal.calibration.dice_missing", {"found": 4, "count": 5, "dice": "yellow"})
    status = client.get("/api/calibration").json
    assert status["refused"] == {"step": "colours", "error": answer.json["error"], "picture": 1,
                                 "key": answer.json["key"], "params": answer.json["params"]}
    assert status["unsaved"] == ["table"]
    served = client.get("/api/calibration/refused.jpg?n=1")
    assert served.status_code == 200 and served.mimetype == "image/jpeg"
    drawn = cv2.imdecode(np.frombuffer(served.data, np.uint8), cv2.IMREAD_COLOR)
    raw = shot.image
    assert drawn.shape == raw.shape
    body = {d.colour: d.body_bgr for d in stage.table.dice.dice}
    assert sorted(d.colour for d in shot.dice) == ["blue", "green", "orange", "white"]
    for die in shot.dice:
        x0, y0, x1, y1 = die.box
        above = (slice(y0 - 26, y0 + 4), slice(x0 - 4, x0 + 32))
        assert near(drawn[above], body[die.colour]) - near(raw[above], body[die.colour]) > 80
        around = (slice(y0 - 8, y1 + 8), slice(x0 - 8, x1 + 8))
        assert near(drawn[around], (60, 200, 60)) - near(raw[around], (60, 200, 60)) > 40
    assert near(drawn, body["yellow"]) - near(raw, body["yellow"]) < 20
    for (ax, ay), (bx, by) in zip(status["table"]["zone"], status["table"]["zone"][1:],
                                  strict=False):
        x, y = round((ax + bx) / 2), round((ay + by) / 2)
        assert near(drawn[y - 2:y + 3, x - 2:x + 3], (230, 200, 40), 60) > 0

    calibrator.camera.image = stage.calibration_frame().image
    learned = client.post("/api/calibration/colours", headers=WITH_PIN).json
    assert learned["colours"] == "camelup-2014" and learned["refused"] is None
    assert client.get("/api/calibration").json["refused"] is None
    gone = client.get("/api/calibration/refused.jpg")
    assert (gone.status_code, gone.json["error"]) == (
        404, "no colours step is refused now: there is no picture of where the camera looked")


def test_each_refusal_of_the_colours_step_is_pictured_anew(calibrating):
    """A second try refused shows its own frame, numbered anew for the page to fetch; a try
    refused for another reason shows none."""
    client, calibrator, stage = calibrating
    client.post("/api/calibration/markers", headers=WITH_PIN)
    pictures = []
    for forgotten in (["yellow"], ["blue", "white"]):
        calibrator.camera.image = calibration_frame(stage.table, stage.light, 5,
                                                    leaving_out=forgotten).image
        assert client.post("/api/calibration/colours", headers=WITH_PIN).status_code == 422
        refused = client.get("/api/calibration").json["refused"]
        assert refused["params"]["dice"] == ", ".join(forgotten)
        pictures.append((refused["picture"], client.get("/api/calibration/refused.jpg").data))
    assert [n for n, _ in pictures] == [1, 2] and pictures[0][1] != pictures[1][1]
    calibrator.camera.latest = lambda: None
    assert client.post("/api/calibration/colours", headers=WITH_PIN).status_code == 422
    assert client.get("/api/calibration").json["refused"] is None


def test_markers_tapped_square_on_are_refused_in_the_page_s_words_when_the_dice_are_learnt(
        calibrating):
    """Seen from straight above the table, the picture cannot tell where a die's top lies."""
    client, calibrator, _ = calibrating
    square_on = [[40, 40], [560, 40], [560, 440], [40, 440]]
    client.post("/api/calibration/points", json={"kind": "markers", "points": square_on},
                headers=WITH_PIN)
    calibrator.camera.image = np.zeros_like(calibrator.camera.image)
    answer = client.post("/api/calibration/colours", headers=WITH_PIN)
    assert answer.status_code == 422
    assert (answer.json["error"], answer.json["key"], answer.json["params"]) == (
        "the camera looks straight down on the table: tilt it and calibrate again",
        "refusal.calibration.tilt", {})


def test_a_table_without_a_camera_has_nothing_to_calibrate(client):
    page = client.get("/calibrate").data
    assert b'"has_camera": false' in page and b"This table has no camera" in page
    answer = client.get("/api/calibration")
    assert answer.status_code == 404
    assert answer.json == {"error": "this table has no camera to calibrate"}


@pytest.mark.parametrize("header", [CARDS_HEADER])
def test_the_colours_of_camel_up_cards_racing_cards_are_learned(tmp_path, table):
    """For Camel Up Cards the page learns one racing card of each camel, laid apart."""
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    scene = random_table(5)
    calibrator.camera = StillCamera(
        card_calibration_frame(scene, random_light(np.random.default_rng(5), "neutral"),
                               5).image, None)
    client = create_app(table, {"TESTING": True, "PIN": PIN, "SECRET_KEY": "k",
                                "CALIBRATOR": calibrator}).test_client()
    learned = client.post("/api/calibration/colours", headers=WITH_PIN).json
    assert learned["colours"] == "camelup-cards", learned
    client.post("/api/calibration/save", headers=WITH_PIN)
    assert calibrator.vision().colours_for("camelup-cards") is not None
    assert calibrator.settler("camelup-cards").reader.colours is not None


@pytest.mark.parametrize("header", [CARDS_HEADER])
def test_a_racing_card_not_found_is_pictured_where_the_camera_looked(tmp_path, table):
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    scene = random_table(5)
    shot = card_calibration_frame(scene, random_light(np.random.default_rng(5), "neutral"), 5,
                                  leaving_out=["green"])
    calibrator.camera = StillCamera(shot.image, None)
    client = create_app(table, {"TESTING": True, "PIN": PIN, "SECRET_KEY": "k",
                                "CALIBRATOR": calibrator}).test_client()
    answer = client.post("/api/calibration/colours", headers=WITH_PIN)
    assert answer.json["key"] == "refusal.calibration.cards_missing"
    assert client.get("/api/calibration").json["refused"]["params"]["found"] == 4
    drawn = cv2.imdecode(np.frombuffer(client.get("/api/calibration/refused.jpg").data,
                                       np.uint8), cv2.IMREAD_COLOR)
    for card in shot.cards:
        x0, y0, x1, _ = card.box
        edge = (slice(y0 - 6, y0 + 6), slice(x0, x1))   # the box's top side
        assert near(drawn[edge], (60, 200, 60)) - near(shot.image[edge], (60, 200, 60)) > 60


def test_the_camels_step_shows_the_board_camera_where_the_table_has_one(table, tmp_path):
    config = tmp_path / "camel-companion.toml"
    config.write_text('[vision.board.source]\nkind = "folder"\npath = "board"\n')
    calibrator = Calibrator(config, tmp_path / "state" / "calibration.toml")
    table.camera, table.board_camera = Camera(), Camera()
    table.board_camera.frames = [(7, b"\xff\xd8board\xff\xd9")]
    client = create_app(table, {"TESTING": True, "PIN": PIN, "SECRET_KEY": "k",
                                "CALIBRATOR": calibrator}).test_client()
    assert client.get("/api/calibration").json["board_camera"] is True
    page = client.get("/calibrate").data
    assert b'id="board-camera" alt="What the board camera sees"' in page
    assert client.get("/camera.jpg?camera=board").data == b"\xff\xd8board\xff\xd9"
    assert b"\xff\xd8board\xff\xd9\r\n" in client.get("/camera.mjpg?camera=board").data
    assert client.get("/camera.jpg").data == JPEG


def test_without_a_board_camera_the_camels_step_uses_the_camera(calibrating):
    client, _, _ = calibrating
    assert client.get("/api/calibration").json["board_camera"] is False
    assert client.get("/camera.jpg?camera=board").json == {
        "error": "the board camera is off: check it is plugged in"}
