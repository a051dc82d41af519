"""The `[vision]` configuration: defaults, every table, and one-line errors."""

import pytest

from vision.config import ConfigError, config_path, load_config
from vision.sources import CameraSettings


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
    with pytest.raises(ConfigError, match=message) as error:
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
