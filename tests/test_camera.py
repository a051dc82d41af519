"""The table's camera: settled dice become rolls through the table; a camera that fails, is
unplugged or hangs never stops the game and comes back by itself."""

import sys
import threading
import time
import types
from typing import ClassVar

import numpy as np
import pytest

from companion.camera import TableCamera, UnencodableFrame, _annotated_jpeg, _label
from companion.table import Table
from tests.play import SPREAD_2014, stored_game
from tests.waiting import eventually, wait_until
from vision.cards import CardReading
from vision.settle import Settler
from vision.sources import Picamera2Source
from vision.stage import Stage


@pytest.fixture
def table(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3"), beat_time=0.05) as table:
        yield table


SEED = 11


@pytest.fixture(scope="module")
def settler():
    """How a camera reads this stage's table, calibrated once for every test."""
    reader = Stage("camelup-2014", seed=SEED).settler().reader
    return lambda game: Settler(reader, zone=reader.table.zone)


@pytest.fixture
def stage():
    return Stage("camelup-2014", seed=SEED, hard_share=0.0)


def rolled(snapshot):
    return [h["action"] for h in snapshot.view["history"] if h["action"]["action"] == "roll"]


def test_a_die_that_settles_is_the_roll_of_the_player_to_act(table, stage, settler):
    with TableCamera(lambda: stage, settler).attach(table) as camera:
        wait_until(table, lambda s: s.view["camera"]["on"])
        # a die this stage's first throw shows plainly (its green or blue two there is read
        # right but less surely, and waits for a press)
        thrown = stage.throw("yellow")
        after = wait_until(table, lambda s: s.view["readings"])
        assert after.view["readings"][0]["outcome"] == "accepted"
        assert rolled(after) == [{"player": "Ann", "action": "roll", "die": "yellow",
                                  "value": thrown.value}]
        number, jpeg = camera.wait_for_frame(-1, 5.0)
        assert jpeg.startswith(b"\xff\xd8") and number >= 0


def test_a_held_camera_hands_the_table_nothing_until_it_is_let_go(table, stage, settler):
    with TableCamera(lambda: stage, settler).attach(table) as camera:
        wait_until(table, lambda s: s.view["camera"]["on"])
        camera.hold(60)
        held = wait_until(table, lambda s: (s.view["notice"] or {}).get("text", "").startswith(
            "the camera is being calibrated"))
        assert held.view["notice"]["text"] == ("the camera is being calibrated: log rolls by "
                                               "hand until it is saved")
        stage.throw("green")
        eventually(lambda: stage.wait_filmed(0.1))
        camera.hold(0)
        stage.throw("blue")
        after = wait_until(table, lambda s: s.view["readings"])
        assert [r["die"] for r in after.view["readings"]] == ["blue"]


def test_a_camera_that_cannot_be_opened_is_off_and_is_tried_again(table, stage, settler):
    tries = []

    def open_source():
        tries.append(time.monotonic())
        if len(tries) < 3:
            raise OSError("no camera on the ribbon")
        return stage

    with TableCamera(open_source, settler, reopen_time=0.05).attach(table):
        assert table.snapshot.view["camera"] == {"on": False}
        on = wait_until(table, lambda s: s.view["camera"]["on"])
        assert len(tries) == 3
        assert on.view["notice"]["text"] == "the camera is on"


class Unplugged:
    """A source that gives `frames` frames of the stage, then nothing: the cable pulled."""

    def __init__(self, stage, frames):
        self.stage, self.frames = stage, frames

    def read(self):
        self.frames -= 1
        return self.stage.read() if self.frames >= 0 else None

    def close(self):
        pass


def test_an_unplugged_camera_is_off_the_game_goes_on_and_it_comes_back(table,
                                                                        stage, settler):
    sources = [Unplugged(stage, 3), Unplugged(stage, 10 ** 6)]
    opened = threading.Semaphore(0)

    def open_source():
        opened.acquire()
        return sources.pop(0)

    with TableCamera(open_source, settler, reopen_time=0.05).attach(table):
        opened.release()
        off = wait_until(table, lambda s: s.view["notice"] is not None
                         and "no picture" in s.view["notice"]["text"])
        assert off.view["camera"] == {"on": False}
        played = table.act({"action": "leg_bet", "camel": "blue"})
        assert played.view["history"][-1]["action"]["player"] == "Ann"
        opened.release()
        wait_until(table, lambda s: s.view["camera"]["on"])


class Stuck:
    """A source whose driver never returns from its first read, past every timeout."""

    def __init__(self):
        self.release = threading.Event()

    def read(self):
        self.release.wait()

    def close(self):
        pass


def test_a_camera_stuck_in_its_driver_is_given_up_for_the_service_to_start_again(table):
    stuck = Stuck()
    opened, failed = [], []

    def open_source():
        opened.append(stuck)
        return stuck

    with TableCamera(open_source, lambda game: None, stall_time=0.5).attach(table) as camera:
        camera.when_failed.append(failed.append)
        assert camera.is_alive
        eventually(lambda: failed)
        assert failed == ["the camera gave no sign for 0.5 s"]
        assert (camera.has_failed, camera.is_alive, camera.is_on) == (True, False, False)
        assert opened == [stuck]                 # never a second camera beside the stuck one
        played = table.act({"action": "leg_bet", "camel": "blue"})
        assert played.view["history"][-1]["action"]["player"] == "Ann"
        stuck.release.set()


class StandInPicamera2:
    """picamera2.Picamera2 as a Pi's camera behaves when it goes wrong: each frame asked for
    follows `plan` ("frame": the stage's next frame; "hang": none within the timeout; "fail":
    the driver raises), frames once the plan is done; and like libcamera it refuses to open a
    camera that another Picamera2 still holds."""

    camera_controls: ClassVar[dict] = {"ExposureTime": (), "AnalogueGain": ()}
    plan: list[str]
    stage: Stage
    held: list["StandInPicamera2"]
    log: list[str]

    def __init__(self, number):
        if StandInPicamera2.held:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        StandInPicamera2.held.append(self)
        self.log.append("open")

    def create_video_configuration(self, main, controls):
        return {"main": main, "controls": controls}

    def configure(self, config):
        pass

    def start(self):
        pass

    def capture_array(self, name, wait):
        return name

    def wait(self, job, timeout):
        step = self.plan.pop(0) if self.plan else "frame"
        self.log.append(step)
        if step == "hang":
            threading.Event().wait(timeout)
            raise TimeoutError
        if step == "fail":
            raise RuntimeError("Camera frontend has timed out!")
        return self.stage.read().image

    def cancel_all_and_flush(self):
        self.log.append("cancel")

    def stop(self):
        pass

    def close(self):
        self.log.append("close")
        StandInPicamera2.held.remove(self)


@pytest.fixture
def picamera2(monkeypatch, stage):
    module = types.ModuleType("picamera2")
    module.Picamera2 = StandInPicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    StandInPicamera2.plan, StandInPicamera2.stage = [], stage
    StandInPicamera2.held, StandInPicamera2.log = [], []
    return StandInPicamera2


def pi_camera(stage):
    height, width = stage.read().image.shape[:2]
    return lambda: Picamera2Source(size=(width, height), frame_timeout=0.05)


def test_a_pi_camera_that_hangs_and_fails_is_closed_opened_again_and_comes_back(
        table, stage, settler, picamera2):
    picamera2.plan = ["frame", "frame", "hang", "fail", "hang"]
    with TableCamera(pi_camera(stage), settler, reopen_time=0.05,
                     give_up_after=5).attach(table) as camera:
        wait_until(table, lambda s: picamera2.plan == [] and s.view["camera"]["on"])
        thrown = stage.throw("orange")
        after = wait_until(table, rolled)
        assert rolled(after)[0]["die"] == "orange" and rolled(after)[0]["value"] == thrown.value
        assert (camera.has_failed, camera.is_alive) == (False, True)
    assert picamera2.log[:12] == ["open", "frame", "frame", "hang", "cancel", "close",
                                  "open", "fail", "close", "open", "hang", "cancel"]
    assert picamera2.held == []


def test_a_pi_camera_that_keeps_failing_is_given_up_after_so_many_tries(table, stage,
                                                                        picamera2):
    picamera2.plan = ["hang", "fail"] * 10
    failed = []
    with TableCamera(pi_camera(stage), lambda game: None, reopen_time=0.05,
                     give_up_after=3).attach(table) as camera:
        camera.when_failed.append(failed.append)
        eventually(lambda: failed)
        assert failed == ["the camera failed 3 times in a row"]
        assert (camera.has_failed, camera.is_alive) == (True, False)
        assert picamera2.log.count("open") == 3 and picamera2.held == []


def test_a_reading_the_game_cannot_take_is_a_warning_and_never_applied(tmp_path,
                                                                        stage, settler):
    done = {**SPREAD_2014}
    with Table(stored_game(tmp_path / "g.sqlite3", done,
                           [{"player": "Ann", "action": "roll", "die": "white", "value": 1}])) \
            as table, TableCamera(lambda: stage, settler).attach(table):
        stage.throw("white")
        after = wait_until(table, lambda s: s.view["readings"])
        assert after.view["readings"][0]["outcome"] == "refused"
        assert len(after.view["history"]) == 1


@pytest.mark.parametrize(("reading", "label"), [
    ({"die": "blue", "value": 2, "confidence": 0.97}, (["blue"], "2 97%", True)),
    ({"die": "grey", "value": 3, "numeral": "black", "confidence": 0.95},
     (["grey", "black"], "3 95%", True)),
    ({"die": None, "value": 2, "confidence": 0.4}, ([None], "2 40%", False)),
    ({"die": None, "face": "gold", "confidence": 0.8}, (["gold"], "80%", True)),
    ({"camel": "white", "value": None, "confidence": 0.6}, (["white"], "? 60%", False)),
    ({"camel": "green", "value": 2, "confidence": 0.9}, (["green"], "+2 90%", True)),
])
def test_the_camera_view_labels_dice_faces_and_cards_with_what_was_read(reading, label):
    assert _label(reading) == label


def test_a_card_reading_is_drawn_on_the_camera_view():
    stage = Stage("camelup-2014", seed=SEED)
    card = CardReading("white", 2, (10, 10, 60, 90), 0.93)
    jpeg = _annotated_jpeg(stage.read().image, [card], None)
    assert jpeg.startswith(b"\xff\xd8")


def test_a_frame_jpeg_cannot_hold_is_refused_in_one_line():
    too_tall = np.zeros((65_501, 1, 3), np.uint8)
    with pytest.raises(UnencodableFrame) as refusal:
        _annotated_jpeg(too_tall, [], None)
    assert str(refusal.value) == "the frame could not be encoded as JPEG"


def test_a_board_the_players_set_by_the_true_roll_shows_the_misread_and_its_fix(tmp_path,
                                                                               stage):
    from vision.board_watch import BoardWatch
    from vision.stage import BoardStage

    board = BoardStage(stage, seed=SEED)
    board.place(START, hand=False)
    watch = BoardWatch(board.reader())
    with Table(stored_game(tmp_path / "game.sqlite3"), board_grace=30.0) as table, \
            TableCamera(lambda: board, lambda game: None, make_board=lambda game: watch,
                        pace=True).attach(table, shown=False) as camera:
        eventually(lambda: camera.board_picture() is not None)
        assert table.camera is None and table.board_camera is camera
        # the camera read blue 1; the die shows 3, and the players move blue by that
        table.push({"player": "Ann", "action": "roll", "die": "blue", "value": 1})
        board.place({**START, 1: (), 4: ("blue",)})
        alert = wait_until(table, lambda s: s.view["board"]).view["board"]
        assert alert["fix"] == {"index": 0, "action": {"player": "Ann", "action": "roll",
                                                       "die": "blue", "value": 3}}
        assert alert["picture"]["size"] == [1280, 720]
        fixed = table.replace(alert["fix"]["index"], alert["fix"]["action"])
        assert fixed.view["board"] is None and fixed.view["track"]["4"] == ["blue"]
        assert camera.board_picture().startswith(b"\xff\xd8")
        game, stacks = camera.board_stacks()
        assert game == "camelup-2014" and {s["space"] for s in stacks} == {2, 3, 4, 5, 7}


START = {1: ("blue",), 2: ("green",), 3: ("orange",), 5: ("yellow",), 7: ("white",)}
"""Where SPREAD_2014 stands the camels."""
