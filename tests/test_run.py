"""`camel-companion run`: the table as the Pi's service starts it, told to systemd, and carried
on exactly where it was after the process is killed outright."""

import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.calibration import Calibrator
from companion.game import Game
from companion.run import TableConfig, first_game
from companion.service import Watchdog, answers_http
from companion.store import Store
from tests.web.test_setup import StillCamera
from vision.calibrate import calibrate_table, learn_colours
from vision.config import calibration_toml
from vision.stage import Stage
from vision.synth_board import board_session

EXAMPLE = Path(__file__).resolve().parent.parent / "firmware_config" / "camel-companion.toml"
PIN = "2468"


def test_the_example_configuration_reads_as_the_pi_needs_it():
    settings = TableConfig.from_file(EXAMPLE)
    assert settings.port == 8000 and settings.camera and settings.odds
    assert settings.buttons == EXAMPLE.parent / "buttons.toml"
    assert settings.first_game["game"] == "camelup-2018"


@pytest.mark.parametrize(("table", "error"), [
    ({"prot": 8000}, "has unknown key(s): prot"),
    ({"port": 70000}, "port must be 1 to 65535"),
    ({"port": "8000"}, "port must be a whole number"),
    ({"camera": "yes"}, "camera must be true or false"),
    ({"confident": 2}, "confident must lie between 0 and 1"),
    ({"pin": ""}, "pin must be printable"),
    ({"first_game": "camelup-2018"}, "first_game must be a table"),
])
def test_a_bad_table_setting_is_refused_in_one_line(tmp_path, table, error):
    path = tmp_path / "c.toml"
    path.write_text("[table]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in table.items()))
    with pytest.raises(ValueError) as refused:
        TableConfig.from_file(path)
    assert str(refused.value).startswith(f"{path}: [table] {error}")


@pytest.mark.parametrize("game", ["camelup-2018", "camelup-cards", "last-camel"])
def test_a_first_game_configured_by_its_game_and_players_is_set_up_as_its_rule_book_says(game):
    header = first_game({"game": game, "players": ["Ann", "Bob", "Cy"]})
    assert Game(header).state.player_to_act in ("Ann", None)   # Camel Up Cards: a leg setup
    assert first_game({"game": game, "players": ["Ann", "Bob", "Cy"], "start": {}}) \
        == {"game": game, "players": ["Ann", "Bob", "Cy"], "start": {}}


@pytest.mark.parametrize("header", [{"game": "chess", "players": ["Ann", "Bob"]},
                                    {"game": ["camelup-2018"], "players": ["Ann", "Bob"]},
                                    {"game": "camelup-2018", "players": "Ann, Bob"}])
def test_a_first_game_the_rules_cannot_set_up_is_left_for_them_to_refuse(header):
    assert first_game(header) == header


def test_the_state_directory_is_systemds_when_it_gives_one(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    assert TableConfig().state_directory() == tmp_path / "state"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert TableConfig().state_directory() == tmp_path / "xdg" / "camel-companion"


def config(tmp_path, folder=None, board=None):
    """A Pi's configuration for a test: no panel, no odds, the camera a folder of frames, and
    the board camera another when `board` is given."""
    path = tmp_path / "camel-companion.toml"
    camera = ("false" if folder is None else
              f'true\n[vision.source]\nkind = "folder"\npath = "{folder}"\n')
    if board is not None:
        camera += f'[vision.board.source]\nkind = "folder"\npath = "{board}"\n'
    path.write_text(f'[table]\nport = 0\nhost = "127.0.0.1"\npin = "{PIN}"\nbuttons = ""\n'
                    f"odds = false\ncamera = {camera}")
    return path


def film_of_a_die_landing_as_the_light_drops(tmp_path, hard_share=1.0):
    """Frames of a table where the green die lands just as the light drops (with `hard_share`
    0, in a steady light), and the table's calibration (taken in good light) in the state
    directory, where the calibration page writes it."""
    stage = Stage("camelup-2014", seed=11, hard_share=hard_share)
    table = calibrate_table(stage.read().image, stage.table.layout)
    colours = learn_colours(stage.calibration_frame().image, stage.table.dice, table=table)
    (tmp_path / "state").mkdir(exist_ok=True)
    (tmp_path / "state" / "calibration.toml").write_text(
        calibration_toml(calibration=table, colours=colours, game="camelup-2014"))
    folder = tmp_path / "frames"
    folder.mkdir()
    frames = [stage.read() for _ in range(8)]
    stage.throw("green")
    frames += [stage.read() for _ in range(40)]
    for frame in frames:
        cv2.imwrite(str(folder / f"{frame.index:04d}.png"), frame.image)
    return folder


class Service:
    """`camel-companion run` started as systemd starts it, in its state directory."""

    def __init__(self, tmp_path, env=None, folder=None, board=None):
        self.config = config(tmp_path, folder, board)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--config", str(self.config)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "STATE_DIRECTORY": str(tmp_path / "state"), **(env or {})})
        lines = [self.process.stdout.readline() for _ in range(2)]
        assert lines[1].endswith(f"the table's PIN is kept in {self.config}\n"), lines
        self.url = lines[1].split("open ")[1].split(" ")[0]

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.load(answer)

    def post(self, path, body):
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json",
                                                  "X-Table-Pin": PIN}, method="POST")
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def wait_for(self, done, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.get("api/state")
            if done(state):
                return state
            time.sleep(0.05)
        raise AssertionError(f"gave up waiting; the state was {state}")

    def stop(self, how=signal.SIGTERM):
        self.process.send_signal(how)
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, out, err

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        """A service the test has not stopped (it failed first) is killed, not left running."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()


def test_the_service_tells_systemd_it_is_ready_and_feeds_its_watchdog(tmp_path):
    path = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(path)
    listener.settimeout(20)
    service = Service(tmp_path, {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"})
    try:
        said = []
        while sum(m == "WATCHDOG=1" for m in said) < 2:
            said.append(listener.recv(4096).decode())
        ready = next(m for m in said if m.startswith("READY=1"))
        assert f"STATUS=serving {service.url}" in ready
    finally:
        code, out, err = service.stop()
        listener.close()
    assert code == 0 and "every action is in the store" in out
    assert PIN not in out + err
    assert "holds the table's PIN and others can read it: chmod 600" in err


def test_a_killed_service_carries_on_at_the_same_action_with_its_pending_reading(tmp_path):
    header = {"game": "camelup-2014", "players": ["Ann", "Bob", "Cy"],
              "start": {"1": ["blue", "green"], "2": ["orange"], "3": ["white", "yellow"]}}
    folder = film_of_a_die_landing_as_the_light_drops(tmp_path)
    with Store(tmp_path / "state" / "camel-companion.sqlite3") as store:
        store.new_game(header)
    with Service(tmp_path, folder=folder) as service:
        for line in [{"player": "Ann", "action": "leg_bet", "camel": "blue"},
                     {"player": "Bob", "action": "roll", "die": "white", "value": 2},
                     {"player": "Cy", "action": "desert_tile", "space": 7, "side": "oasis"}]:
            service.post("api/actions", line)
        # the film ends: the camera is off until it is opened again, a few seconds on
        before = service.wait_for(lambda s: s["pending"] and not s["camera"]["on"])
        code, _, _ = service.stop(signal.SIGKILL)
    assert code == -signal.SIGKILL

    again = Service(tmp_path)
    try:
        after = again.get("api/state")
        assert after["history"] == before["history"] and len(after["history"]) == 3
        assert after["readings"] == before["readings"]
        assert after["pending"] == before["pending"] and len(after["pending"]) == 1
        waiting = after["pending"][0]
        assert waiting["die"] in ("green", None) and waiting["confidence"] < 0.9
        accepted = again.post("api/pending/accept", {"die": "green", "value": 3})
        assert accepted["history"][-1]["action"] == {"player": "Ann", "action": "roll",
                                                     "die": "green", "value": 3}
    finally:
        again.stop()


START_2014 = {"game": "camelup-2014", "players": ["Ann", "Bob", "Cy"],
              "start": {"1": ["blue", "green"], "2": ["orange"], "3": ["white", "yellow"]}}
LEFT_WRONG = {1: ["blue", "green"], 2: ["orange", "yellow"], 3: ["white"]}
"""The board of START_2014 as the players left it: yellow set down on orange, not on white."""


def film_of_a_board_left_wrong(tmp_path, session):
    """A folder of frames of the board LEFT_WRONG; a hand passes at the end of the film, so
    the board is read again each time the film starts over."""
    still = tmp_path / "still.png"
    cv2.imwrite(str(still), session.frame(stacks=LEFT_WRONG, hand=False).image)
    cv2.imwrite(str(tmp_path / "hand.png"), session.frame(stacks=LEFT_WRONG, hand=True).image)
    folder = tmp_path / "board"
    folder.mkdir()
    for k in range(40):
        (folder / f"{k:04d}.png").symlink_to(still)
    (folder / "0040.png").symlink_to(tmp_path / "hand.png")
    return folder


def test_the_board_is_read_with_the_camels_learned_and_a_board_left_wrong_is_told(tmp_path):
    session = board_session(3_123_456, game="camelup-2014")
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    calibrator.camera = StillCamera(session.setup.image, None)
    calibrator.find_markers()
    calibrator.learn_camels("camelup-2014")
    calibrator.save()
    with Store(tmp_path / "state" / "camel-companion.sqlite3") as store:
        store.new_game(START_2014)
    service = Service(tmp_path, folder=film_of_a_board_left_wrong(tmp_path, session))
    try:
        told = service.wait_for(lambda s: s["board"])["board"]
        assert told["disagreements"] == [
            {"space": 2, "game": ["orange"], "camera": ["orange", "yellow"]},
            {"space": 3, "game": ["white", "yellow"], "camera": ["white"]}]
        assert told["fix"] is None
    finally:
        service.stop()


def test_a_board_camera_tells_a_board_left_wrong_while_the_dice_camera_reads_the_dice(
        tmp_path):
    session = board_session(3_123_456, game="camelup-2014")
    dice = film_of_a_die_landing_as_the_light_drops(tmp_path, hard_share=0.0)
    board = film_of_a_board_left_wrong(tmp_path, session)
    calibrator = Calibrator(config(tmp_path, dice, board), tmp_path / "state" / "calibration.toml")
    calibrator.board_camera = StillCamera(session.setup.image, None)
    calibrator.learn_camels("camelup-2014")
    calibrator.save()
    with Store(tmp_path / "state" / "camel-companion.sqlite3") as store:
        store.new_game(START_2014)
    service = Service(tmp_path, folder=dice, board=board)
    try:
        rolled = service.wait_for(lambda s: s["history"])["history"]
        assert [line["action"] for line in rolled] == [
            {"player": "Ann", "action": "roll", "die": "green", "value": 1}]
        told = service.wait_for(lambda s: s["board"])["board"]
        assert told["disagreements"] == [
            {"space": 1, "game": ["blue"], "camera": ["blue", "green"]},
            {"space": 2, "game": ["orange", "green"], "camera": ["orange", "yellow"]},
            {"space": 3, "game": ["white", "yellow"], "camera": ["white"]}]
        # beside the alert, the board camera's picture (the dice camera's is 640x480)
        assert told["picture"]["size"] == [1280, 720]
        with urllib.request.urlopen(service.url + "camera/board.jpg", timeout=10) as shown:
            assert cv2.imdecode(np.frombuffer(shown.read(), np.uint8),
                                cv2.IMREAD_COLOR).shape == (720, 1280, 3)
    finally:
        service.stop()


@pytest.mark.parametrize(("text", "error"), [
    ("[table]\nport = 'x'\n", "[table] port must be a whole number, not 'x'"),
    ("[vision.board.source]\nkind = 'usb'\n",
     "[vision.board.source] kind 'usb' is unknown; use picamera2, video, folder, rendered"),
])
def test_a_bad_configuration_exits_2_in_one_line_so_systemd_does_not_retry(tmp_path, text,
                                                                           error):
    path = tmp_path / "c.toml"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--config", str(path)],
                          check=False, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "STATE_DIRECTORY": str(tmp_path / "state")})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"camel-companion: {path}: {error}"]


STUCK_PICAMERA2 = '''
import threading


class Picamera2:
    """A Pi camera whose driver stops answering after its first frame, past every timeout."""

    camera_controls = {}

    def __init__(self, number):
        self.frames = 0

    def create_video_configuration(self, main, controls):
        return {"main": main}

    def configure(self, config):
        self.size = config["main"]["size"]

    def start(self):
        pass

    def capture_array(self, name, wait):
        return name

    def wait(self, job, timeout):
        import numpy
        self.frames += 1
        if self.frames > 1:
            threading.Event().wait()
        return numpy.zeros((self.size[1], self.size[0], 3), numpy.uint8)

    def stop(self):
        pass

    def close(self):
        pass
'''


@pytest.mark.parametrize(("cameras", "name"), [
    ('[vision.source]\nkind = "picamera2"\nsize = [64, 48]\n', "the camera"),
    ('[vision.source]\nkind = "folder"\npath = "{frames}"\n'
     '[vision.board.source]\nkind = "picamera2"\ncamera = 1\nsize = [64, 48]\n',
     "the board camera"),
])
def test_a_pi_camera_stuck_in_its_driver_ends_the_service_with_status_1(tmp_path, cameras,
                                                                        name):
    (tmp_path / "pi").mkdir()
    (tmp_path / "pi" / "picamera2.py").write_text(STUCK_PICAMERA2)
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "0000.png"), np.zeros((48, 64, 3), np.uint8))
    path = tmp_path / "camel-companion.toml"
    path.write_text(f'[table]\nport = 0\nhost = "127.0.0.1"\npin = "{PIN}"\nbuttons = ""\n'
                    "odds = false\n" + cameras.format(frames=tmp_path / "frames"))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--config", str(path)],
                          check=False, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "STATE_DIRECTORY": str(tmp_path / "state"),
                               "PYTHONPATH": os.pathsep.join([str(tmp_path / "pi"),
                                                              os.environ.get("PYTHONPATH", ""),
                                                              str(Path(__file__).parents[1])])})
    assert done.returncode == 1, done.stderr
    assert time.monotonic() - started < 30
    assert f"{name} gave no sign for 10 s: giving {name} up" in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        f"camel-companion: {name} was given up on: exiting with status 1, for systemd to "
        "start the service again")
    assert "every action is in the store" in done.stdout


def test_the_watchdog_is_fed_only_while_every_part_answers(tmp_path, monkeypatch):
    path = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(path)
    listener.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    camera = ["the camera stopped answering"]
    watchdog = Watchdog(0.001, checks=[lambda: None, lambda: camera[0]])
    watchdog.feed()
    with pytest.raises(BlockingIOError):
        listener.recv(64)
    camera[0] = None
    watchdog.feed()
    assert listener.recv(64) == b"WATCHDOG=1"
    listener.close()


def test_the_dashboard_check_asks_the_server_for_an_answer():
    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        assert answers_http("127.0.0.1", port, timeout=0.2) == (
            "the dashboard does not answer (timed out)")
    assert answers_http("127.0.0.1", port, timeout=0.2).startswith(
        "the dashboard does not answer ([Errno 111]")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert answers_http("0.0.0.0", server.server_address[1]) is None
    finally:
        server.shutdown()
        server.server_close()


def test_phones_are_given_the_address_then_the_name_on_mdns(monkeypatch):
    from companion import hosting

    monkeypatch.setattr(hosting.socket, "gethostname", lambda: "camel")
    monkeypatch.setattr(hosting, "lan_address", lambda: "192.168.1.23")
    assert hosting.phone_addresses("0.0.0.0", 8000) == ["http://192.168.1.23:8000/",
                                                        "http://camel.local:8000/"]
    monkeypatch.setattr(hosting, "lan_address", lambda: None)
    assert hosting.phone_addresses("::", 8000) == ["http://camel.local:8000/"]
    assert hosting.phone_addresses("127.0.0.1", 8080) == ["http://127.0.0.1:8080/"]
