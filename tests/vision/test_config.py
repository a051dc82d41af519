"""The `[vision]` configuration: defaults, every table, and one-line errors."""

import pytest

from companion.errors import BadConfig
from vision.calibrate import TableCalibration
from vision.config import calibration_toml, config_path, load_config
from vision.sources import CameraSettings
from vision.table import TableLayout


def test_no_file_means_defaults_that_work():
    config = load_config(None)
    assert (config.game, config.threshold, config.source["kind"]) == ("camelup-2014", 0.5,
                                                                      "picamera2")
    assert config.calibration is None and config.colours_for("camelup-2014") is None


def test_every_table_is_read(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("""
game = "camelup-2018"
[vision]
threshold = 0.7
[vision.source]
kind = "folder"
path = "frames"
[vision.camera]
exposure_time = 9000
analogue_gain = 1.5
colour_gains = [2.0, 1.4]
[vision.table]
die_size = 15
roll_zone = [0, 0, 200, 150]
[vision.settle]
stable_frames = 7
""")
    config = load_config(path)
    assert (config.game, config.threshold, dict(config.source)) == (
        "camelup-2018", 0.7, {"kind": "folder", "path": "frames"})
    assert config.camera == CameraSettings(9000, 1.5, (2.0, 1.4))
    assert (config.layout.die_size, config.layout.roll_zone) == (15.0, (0, 0, 200, 150))
    assert config.settle["stable_frames"] == 7


@pytest.mark.parametrize(("text", "message"), [
    ("[vision]\nzoom = 2\n", "unknown key.s. in .vision.: zoom"),
    ("[vision.table]\nroll_zone = [1, 2]\n", "roll_zone must be"),
    ("[vision]\nthreshold = 3\n", "threshold must lie between 0 and 1"),
    ("[vision\n", "not valid TOML"),
    ("[vision.camera]\nexposure_time = 1\n", "colour_gains"),
])
def test_a_bad_file_is_one_clear_line_naming_it(tmp_path, text, message):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(BadConfig, match=message) as error:
        load_config(path)
    assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_the_file_comes_from_the_option_then_the_environment_then_the_working_folder(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CAMEL_COMPANION_CONFIG", raising=False)
    assert config_path() is None
    (tmp_path / "camel-companion.toml").write_text("")
    assert config_path().name == "camel-companion.toml"
    monkeypatch.setenv("CAMEL_COMPANION_CONFIG", "/etc/cc.toml")
    assert str(config_path()) == "/etc/cc.toml"
    assert str(config_path(tmp_path / "x.toml")) == str(tmp_path / "x.toml")


def test_a_board_camera_has_its_own_source_and_its_own_calibration(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[vision.source]\ncamera = 0\n[vision.board]\nstack_step = 16\n'
                    '[vision.board.source]\ncamera = 1\nsize = [1280, 720]\n')
    assert load_config(path).board_source == {"camera": 1, "size": [1280, 720]}
    assert load_config(path).board_calibration is None
    dice = TableCalibration.from_points([[0, 0], [640, 0], [640, 480], [0, 480]], (640, 480),
                                        TableLayout())
    board = TableCalibration.from_points([[100, 50], [1180, 50], [1180, 670], [100, 670]],
                                         (1280, 720), TableLayout())
    calibrated = tmp_path / "calibration.toml"
    calibrated.write_text(calibration_toml(calibration=dice, board_calibration=board))
    config = load_config(path, calibrated=calibrated)
    assert config.calibration.image_size == (640, 480)
    assert config.board_calibration.image_size == (1280, 720)
    assert (config.board_source["camera"], config.board.stack_step) == (1, 16.0)
    assert load_config(None, calibrated=calibrated).board_calibration is None


@pytest.mark.parametrize(("text", "message"), [
    ('[vision.board.source]\nkind = "usb"\n',
     "[vision.board.source] kind 'usb' is unknown; use picamera2, video, folder, rendered"),
    ('[vision.board.source]\nkind = "folder"\n',
     '[vision.board.source] kind = "folder" needs path = "..."'),
    ("[vision.board.source]\nzoom = 2\n", "unknown key(s) in [vision.board.source]: zoom"),
    ("[vision.board]\nsource = 1\n", "[vision.board.source] must be a table"),
    ("[vision.board.source]\ncamera = 0\n",
     "[vision.board.source] is the dice camera's Pi camera: set its camera = 1 (a Pi 5's "
     "second connector)"),
    ('[vision.source]\nkind = "usb"\n',
     "[vision.source] kind 'usb' is unknown; use picamera2, video, folder, rendered"),
])
def test_a_bad_camera_source_is_one_line_before_any_camera_opens(tmp_path, text, message):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(BadConfig) as error:
        load_config(path)
    assert str(error.value) == f"{path}: {message}"
