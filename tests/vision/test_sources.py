"""Frame sources: a folder, a video file, the renderer, and Picamera2 (against a stand-in, as
picamera2 exists only on the Pi), all behind one interface chosen by configuration."""

import sys
import threading
import time
import types

import cv2
import numpy as np
import pytest

from vision.sources import (
    AF_MODE_AUTO,
    AF_MODE_MANUAL,
    CameraSettings,
    Picamera2Source,
    RenderedSource,
    SourceError,
    SourceTimeout,
    VideoSource,
    open_source,
)


def test_a_folder_gives_its_images_in_name_order_and_passes_over_other_files(tmp_path):
    for name, shade in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), shade, np.uint8))
    (tmp_path / "notes.txt").write_text("not a frame")
    with open_source({"kind": "folder", "path": str(tmp_path), "fps": 10}) as source:
        frames = list(source)
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 30]
    assert [f.time for f in frames] == [0.0, 0.1, 0.2]


def test_a_video_file_gives_its_frames_timed_by_its_rate(tmp_path):
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (64, 48))
    for k in range(5):
        writer.write(np.full((48, 64, 3), 40 * k, np.uint8))
    writer.release()
    with VideoSource(str(path)) as source:
        frames = list(source)
    assert len(frames) == 5 and frames[-1].time == pytest.approx(4 / 25)
    assert abs(int(frames[3].image.mean()) - 120) < 6


def test_the_renderer_is_a_source_too():
    with RenderedSource(seed=1, limit=3) as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2] and frames[0].image.shape == (480, 640, 3)
    assert source.last is not None


def test_unknown_kinds_and_missing_folders_are_one_line_errors(tmp_path):
    with pytest.raises(SourceError, match=r"unknown .vision.source. kind 'scanner'"):
        open_source({"kind": "scanner"})
    with pytest.raises(SourceError, match="no folder"):
        open_source({"kind": "folder", "path": str(tmp_path / "none")})
    with pytest.raises(SourceError, match="cannot open video source"):
        VideoSource(str(tmp_path / "none.mp4"))


class FakePicamera2:
    """What Picamera2Source uses of picamera2.Picamera2, recording what it is asked."""

    made: list["FakePicamera2"]

    hangs = False
    """Whether a frame asked for never comes (the driver stopped answering)."""
    camera_controls: dict
    """What the camera can be asked to do: with AfMode, a Camera Module 3."""

    def __init__(self, number):
        self.calls = []
        FakePicamera2.made.append(self)

    def set_controls(self, controls):
        self.calls.append(("set", controls))

    def autofocus_cycle(self, wait):
        assert wait is False
        return "focus"

    def create_video_configuration(self, main, controls):
        self.calls.append(("configure", main, controls))
        return {"main": main, "controls": controls}

    def configure(self, config):
        self.config = config

    def start(self):
        self.calls.append("start")

    def capture_array(self, name, wait):
        assert (name, wait) == ("main", False)
        return ("job", name)

    def wait(self, job, timeout):
        if job == "focus":
            return True
        self.calls.append(("wait", timeout))
        if FakePicamera2.hangs:
            threading.Event().wait(timeout)
            raise TimeoutError
        image = np.zeros((48, 64, 3), np.uint8)
        image[..., 0] = 200          # RGB888 is laid out B, G, R: blue comes first
        return image

    def cancel_all_and_flush(self):
        self.calls.append("cancel")

    def capture_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.9, 1.6),
                "LensPosition": 1.6}

    def stop(self):
        self.calls.append("stop")

    def close(self):
        self.calls.append("close")


@pytest.fixture
def picamera2(monkeypatch):
    FakePicamera2.made = []
    FakePicamera2.hangs = False
    FakePicamera2.camera_controls = {"ExposureTime": (), "AnalogueGain": ()}
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_picamera2_gives_bgr_frames_with_exposure_and_white_balance_locked(picamera2):
    settings = CameraSettings(12000, 2.0, (1.9, 1.6))
    with Picamera2Source(size=(64, 48), settings=settings) as source:
        frame = source.read()
    camera = picamera2.made[0]
    _, main, controls = camera.calls[0]
    assert main == {"size": (64, 48), "format": "RGB888"}
    assert {k: controls[k] for k in ("AeEnable", "AwbEnable", "ExposureTime", "AnalogueGain",
                                     "ColourGains")} == {
        "AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.0,
        "ColourGains": (1.9, 1.6)}
    assert frame.image[0, 0].tolist() == [200, 0, 0]
    assert camera.calls[-2:] == ["stop", "close"]
    source.close()
    assert camera.calls.count("close") == 1


def test_a_picamera2_frame_that_never_comes_times_out_and_frees_the_camera(picamera2):
    source = Picamera2Source(size=(64, 48), frame_timeout=0.05)
    assert source.read().index == 0
    picamera2.hangs = True
    started = time.monotonic()
    with pytest.raises(SourceTimeout, match=r"no frame in 0\.05 s"):
        source.read()
    assert time.monotonic() - started < 1.0
    assert picamera2.made[0].calls[-4:] == [("wait", 0.05), "cancel", "stop", "close"]
    assert source.read() is None
    picamera2.hangs = False
    with Picamera2Source(size=(64, 48)) as again:
        assert again.read().image.shape == (48, 64, 3)


LOCKED = {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.0,
          "ColourGains": (1.9, 1.6)}


def test_picamera2_measures_with_automatic_control_back_on_and_locks_it_live(picamera2,
                                                                            monkeypatch):
    monkeypatch.setattr("vision.sources.time.sleep", lambda s: None)
    with Picamera2Source(size=(64, 48), settings=CameraSettings(500, 8.0, (1.0, 1.0))) as source:
        assert source.measure() == CameraSettings(12000, 2.0, (1.9, 1.6))
        source.lock(None)
    sets = [call[1] for call in picamera2.made[0].calls if call[0] == "set"]
    assert sets == [{"AeEnable": True, "AwbEnable": True}, LOCKED,
                    {"AeEnable": True, "AwbEnable": True}]


def test_a_camera_module_3_holds_its_lens_at_the_distance_of_the_camera_height(picamera2):
    picamera2.camera_controls = {"AfMode": (), "LensPosition": ()}
    with Picamera2Source(size=(64, 48), camera_height_mm=625) as source:
        assert source.lens_position == 1.6
    controls = picamera2.made[0].calls[0][2]
    assert (controls["AfMode"], controls["LensPosition"]) == (AF_MODE_MANUAL, 1.6)


def test_one_autofocus_cycle_finds_the_lens_position_that_is_then_held_and_stored(
        picamera2, monkeypatch):
    monkeypatch.setattr("vision.sources.time.sleep", lambda s: None)
    picamera2.camera_controls = {"AfMode": (), "LensPosition": ()}
    with Picamera2Source(size=(64, 48)) as source:
        assert source.focus() == 1.6
        settings = source.measure()
    assert settings == CameraSettings(12000, 2.0, (1.9, 1.6), 1.6)
    assert CameraSettings.from_config(settings.to_config()) == settings
    sets = [call[1] for call in picamera2.made[0].calls if call[0] == "set"]
    assert sets[:2] == [{"AfMode": AF_MODE_AUTO},
                        {"AfMode": AF_MODE_MANUAL, "LensPosition": 1.6}]
    assert sets[-1] == {**LOCKED, "AfMode": AF_MODE_MANUAL, "LensPosition": 1.6}
    with Picamera2Source(size=(64, 48), settings=settings, camera_height_mm=400):
        pass
    assert picamera2.made[1].calls[0][2]["LensPosition"] == 1.6


def test_a_camera_without_autofocus_is_never_asked_to_focus(picamera2):
    with Picamera2Source(size=(64, 48), camera_height_mm=625) as source:
        assert (source.focus(), source.lens_position) == (None, None)
    assert "AfMode" not in picamera2.made[0].calls[0][2]


def test_without_picamera2_the_pi_source_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceError, match="python3-picamera2"):
        Picamera2Source()
