"""The table's camera: settled dice become rolls through the table; a camera that fails, is
unplugged or hangs never stops the game and comes back by itself."""

import threading
import time

import pytest

from companion.camera import TableCamera, _annotated_jpeg, _label
from companion.table import Table
from tests.play import SPREAD_2014, stored_game
from vision.cards import CardReading
from vision.settle import Settler
from vision.stage import Stage

WAIT = 60.0


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


def wait_until(table, done, timeout=WAIT):
    """The first snapshot for which `done` holds; fails the test after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    snapshot = table.snapshot
    while not done(snapshot):
        left = deadline - time.monotonic()
        assert left > 0, (f"gave up waiting; the table shows {snapshot.view['notice']}, "
                          f"the readings {snapshot.view['readings']}")
        snapshot = table.wait_for_snapshot(snapshot.version, left) or table.snapshot
    return snapshot


def rolled(snapshot):
    return [h["action"] for h in snapshot.view["history"] if h["action"]["action"] == "roll"]


def test_a_die_that_settles_is_the_roll_of_the_player_to_act(table, stage, settler):
    with TableCamera(lambda: stage, settler).attach(table) as camera:
        wait_until(table, lambda s: s.view["camera"]["on"])
        thrown = stage.throw("green")
        after = wait_until(table, lambda s: s.view["readings"])
        assert after.view["readings"][0]["outcome"] == "accepted"
        assert rolled(after) == [{"player": "Ann", "action": "roll", "die": "green",
                                  "value": thrown.value}]
        number, jpeg = camera.wait_for_frame(-1, 5.0)
        assert jpeg.startswith(b"\xff\xd8") and number >= 0


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
    """A source whose driver never returns from its first read."""

    def __init__(self):
        self.release = threading.Event()

    def read(self):
        self.release.wait()

    def close(self):
        pass


def test_a_camera_stuck_in_its_driver_is_replaced_by_the_table_heartbeat(table,
                                                                         stage, settler):
    stuck = Stuck()
    opened = []

    def open_source():
        opened.append(stuck if not opened else stage)
        return opened[-1]

    with TableCamera(open_source, settler, stall_time=1.0).attach(table) as camera:
        threads = wait_until(table, lambda s: s.view["camera"]["on"])
        assert threads.view["notice"]["text"] == "the camera is on"
        assert sum(t.name.startswith("camera-") for t in threading.enumerate()) >= 2
        thrown = stage.throw("yellow")
        after = wait_until(table, rolled)
        assert rolled(after)[0]["die"] == "yellow" and rolled(after)[0]["value"] == thrown.value
        stuck.release.set()
        camera.close()


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
    ({"die": "blue", "value": 2, "confidence": 0.97}, ("blue 2 97%", True)),
    ({"die": "grey", "value": 3, "numeral": "black", "confidence": 0.95},
     ("grey 3 black 95%", True)),
    ({"die": None, "value": 2, "confidence": 0.4}, ("? 2 40%", False)),
    ({"die": None, "face": "gold", "confidence": 0.8}, ("gold 80%", True)),
    ({"camel": "white", "value": None, "confidence": 0.6}, ("white ? 60%", False)),
])
def test_the_camera_view_labels_dice_faces_and_cards_with_what_was_read(reading, label):
    assert _label(reading) == label


def test_a_card_reading_is_drawn_on_the_camera_view():
    stage = Stage("camelup-2014", seed=SEED)
    card = CardReading("white", 2, (10, 10, 60, 90), 0.93)
    jpeg = _annotated_jpeg(stage.read().image, [card], None)
    assert jpeg.startswith(b"\xff\xd8")
