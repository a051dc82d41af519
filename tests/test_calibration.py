"""Learning a table's camels on the calibration page: the board reader set up from a frame of
every camel alone on its own space, the frame kept beside the calibration, and the board read
with it from the next start on; and the shot The Last Camel's dice were learned from, kept so
that their reader allows for the light's change since."""

import logging

import cv2
import numpy as np
import pytest

from companion.calibration import HOLD_TIME, Calibrator
from companion.errors import CalibrationError
from tests.web.test_setup import StillCamera
from vision.light import LightChange
from vision.stage import ColourDiceStage
from vision.synth_board import board_frame, board_session


@pytest.fixture
def session():
    """A rendered board table of 2014, its set-up frame showing each camel alone."""
    return board_session(3_123_456, game="camelup-2014")


@pytest.fixture
def calibrator(tmp_path, session):
    """A calibrator whose camera sees the set-up frame, the markers found in it."""
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    calibrator.camera = StillCamera(session.setup.image, None)
    calibrator.find_markers()
    return calibrator


def without(session, colour):
    """The set-up frame again, with the `colour` camel taken off the board."""
    return board_frame(session.table, [c for c in session.setup.camels if c.colour != colour],
                       session.light, session.rng, hand=False, tiles=False).image


def test_the_camels_learned_are_kept_beside_the_calibration_and_read_the_board(
        calibrator, session, tmp_path):
    learned = calibrator.learn_camels("camelup-2014")
    assert learned["camels"] == {"camelup-2014": "unsaved", "camelup-2018": None}
    assert learned["unsaved"] == ["camels", "table"]
    saved = calibrator.save()
    assert saved["camels"] == {"camelup-2014": "saved", "camelup-2018": None}
    assert saved["unsaved"] == []
    assert sorted(p.name for p in (tmp_path / "state").iterdir()) == [
        "board-camelup-2014.png", "calibration.toml"]
    assert calibrator.camera.calibrations == [(calibrator.settler, calibrator.board_watch)]

    watch = Calibrator(None, calibrator.calibrated).board_watch("camelup-2014")
    stacks = {1: ["blue", "green"], 2: ["orange"], 3: ["white", "yellow"]}
    frame = session.frame(stacks=stacks, hand=False).image
    assert watch.feed(frame, 0.0) is None   # not yet still for a second
    assert {s.space: s.camels for s in watch.feed(frame, 1.0).stacks} == {
        space: tuple(camels) for space, camels in stacks.items()}


def test_a_game_whose_camels_were_never_learned_has_no_board_watch(calibrator):
    calibrator.save()
    assert calibrator.board_watch("camelup-2014") is None
    assert calibrator.board_watch("camelup-2018") is None
    assert calibrator.board_watch("camelup-cards") is None


def test_a_camel_out_of_the_set_up_is_named_and_nothing_is_learned(calibrator, session):
    calibrator.camera.image = without(session, "green")
    with pytest.raises(CalibrationError, match="could not find the green camel; stand every "
                                               "camel alone on its own space"):
        calibrator.learn_camels("camelup-2014")
    assert calibrator.status()["unsaved"] == ["table"]


@pytest.mark.parametrize(("game", "error"), [
    # 2014's orange camel is not taken for 2018's red one
    ("camelup-2018", "could not find the red, purple, black camels"),
    ("camelup-cards", "the camera reads no camels of camelup-cards: no camels to learn"),
])
def test_the_camels_of_another_game_are_refused_in_one_line(calibrator, game, error):
    with pytest.raises(CalibrationError, match=error):
        calibrator.learn_camels(game)


def test_the_camels_are_learned_only_on_a_calibrated_board(tmp_path, session):
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    calibrator.camera = StillCamera(session.setup.image, None)
    with pytest.raises(CalibrationError, match="find the markers first"):
        calibrator.learn_camels("camelup-2014")


def test_a_set_up_frame_the_calibration_no_longer_fits_is_not_read_and_said_once(
        calibrator, session, caplog):
    calibrator.learn_camels("camelup-2014")
    calibrator.save()
    # the frame kept, as though the camera was moved since: the green camel out of view
    cv2.imwrite(str(calibrator.calibrated.with_name("board-camelup-2014.png")),
                without(session, "green"))
    with caplog.at_level(logging.WARNING, "camel_companion.calibration"):
        assert calibrator.board_watch("camelup-2014") is None
    (warning,) = caplog.messages
    assert "could not find the green camel" in warning
    assert warning.endswith("learn the camels again")


def no_dice(game):
    """The board camera's settler: it reads no dice."""


@pytest.fixture
def two_cameras(tmp_path, session):
    """A calibrator of a table with a board camera: the dice camera sees the table small and
    has found its markers, the board camera sees the camels' set-up frame."""
    config = tmp_path / "camel-companion.toml"
    config.write_text('[vision.board.source]\nkind = "folder"\npath = "board"\n')
    calibrator = Calibrator(config, tmp_path / "state" / "calibration.toml")
    calibrator.camera = StillCamera(cv2.resize(session.setup.image, (640, 360),
                                               interpolation=cv2.INTER_AREA), None)
    calibrator.board_camera = StillCamera(session.setup.image, None)
    calibrator.board_camera.make_settler = no_dice
    calibrator.find_markers()
    return calibrator


def test_the_board_camera_finds_its_markers_and_camels_in_one_frame_and_both_are_saved(
        two_cameras, session):
    learned = two_cameras.learn_camels("camelup-2014")
    assert (learned["board_camera"], learned["unsaved"]) == (True, ["camels", "table"])
    two_cameras.save()
    vision = Calibrator(two_cameras.config, two_cameras.calibrated).vision()
    assert vision.calibration.image_size == (640, 360)
    assert vision.board_calibration.image_size == (1280, 720)
    assert two_cameras.camera.calibrations == [(two_cameras.settler, None)]
    assert two_cameras.board_camera.calibrations == [(no_dice, two_cameras.board_watch)]

    watch = Calibrator(two_cameras.config, two_cameras.calibrated).board_watch("camelup-2014")
    stacks = {1: ["blue", "green"], 2: ["orange", "yellow"], 3: ["white"]}
    frame = session.frame(stacks=stacks, hand=False).image
    watch.feed(frame, 0.0)
    assert {s.space: s.camels for s in watch.feed(frame, 1.0).stacks} == {
        space: tuple(camels) for space, camels in stacks.items()}


@pytest.mark.parametrize(("seen", "error"), [
    (lambda session: session.setup.image[:, :640].copy(),
     "the board camera does not see marker(s) 0, 1, 2, 3: make sure all four are in its "
     "picture and lit, and try again"),
    (lambda session: without(session, "white"),
     "found 4 camels on the board, the game has 5: could not find the white camel; stand "
     "every camel alone on its own space, in view, and try again"),
])
def test_a_board_camera_frame_that_cannot_be_learned_says_why_in_one_line(
        two_cameras, session, seen, error):
    two_cameras.board_camera.image = seen(session)
    with pytest.raises(CalibrationError) as refused:
        two_cameras.learn_camels("camelup-2014")
    assert str(refused.value) == error
    assert two_cameras.status()["unsaved"] == ["table"]


def test_a_board_camera_without_a_picture_is_named(two_cameras):
    two_cameras.board_camera = None
    with pytest.raises(CalibrationError, match="the board camera has no picture"):
        two_cameras.learn_camels("camelup-2014")


def test_the_cameras_play_nothing_laid_out_while_the_page_calibrates(calibrator):
    calibrator.status()
    calibrator.learn_camels("camelup-2014")
    assert calibrator.camera.holds[-1] == HOLD_TIME
    calibrator.save()
    assert calibrator.camera.holds[-1] == 0


def test_the_shot_the_colour_dice_were_learned_from_is_kept_and_let_go_when_the_camera_moves(
        tmp_path):
    """The Last Camel's readers allow for the light's change since the colours were learned,
    from the shot kept beside the calibration; once the markers are found again, that shot no
    longer lines up with the camera and is let go."""
    stage = ColourDiceStage(seed=5)
    calibrator = Calibrator(None, tmp_path / "state" / "calibration.toml")
    calibrator.camera = StillCamera(stage.read().image, stage)
    calibrator.find_markers()
    calibrator.camera.image = stage.calibration_frame().image
    assert calibrator.learn_colours("last-camel")["unsaved"] == ["colours", "table"]
    calibrator.save()
    kept = tmp_path / "state" / "colours-last-camel.png"
    assert kept.is_file()
    light = Calibrator(None, calibrator.calibrated).settler("last-camel").reader.light
    assert np.array_equal(light.shot, LightChange.of_shot(cv2.imread(str(kept))).shot)

    calibrator.camera.image = stage.read().image
    calibrator.find_markers()
    calibrator.save()
    assert not kept.exists()
    assert Calibrator(None, calibrator.calibrated).settler("last-camel").reader.light is None
