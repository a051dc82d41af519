"""Frame sources: where frames come from, behind one small interface chosen by configuration.

Every source yields `Frame`s (a BGR image, as OpenCV orders colours, with the time it was taken)
and is a context manager with an idempotent `close()`. Picamera2 runs on the Pi; OpenCV's
`VideoCapture` (a USB webcam or a video file), a folder of images and the renderer run
anywhere. Only `Picamera2Source` touches `picamera2`, and only once it is opened.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.errors import CompanionError

if TYPE_CHECKING:
    from vision.synth import RenderedFrame

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
FRAME_TIMEOUT = 2.0
"""Seconds the Pi camera may take over one frame before it is taken to be stuck."""
SOURCE_KINDS = ("picamera2", "video", "folder", "rendered")
"""The kinds of frame source a `[vision.source]` table may name."""
SOURCE_KEYS = {"kind", "size", "fps", "camera", "device", "path", "seed", "frame_timeout",
               "camera_height_mm"}
"""The keys a `[vision.source]` table may hold, whatever its kind (docs/vision.md)."""


class SourceError(CompanionError, RuntimeError):
    """A frame source cannot be opened or read; the message says which and why."""


class SourceTimeout(SourceError):
    """A source gave no frame in time; it has been closed, and must be opened again."""


@dataclass(frozen=True)
class Frame:
    """One frame: the image (BGR, uint8), when it was taken (seconds) and its number."""

    image: np.ndarray
    time: float
    index: int


AF_MODE_MANUAL = 0
AF_MODE_AUTO = 1
"""libcamera's AfMode values (controls.AfModeEnum): the lens held where it is put, or moved
once by an autofocus cycle."""


@dataclass(frozen=True)
class CameraSettings:
    """The exposure and white balance a table was calibrated under, locked on the camera so
    the dice keep the colours they were calibrated with: exposure time (microseconds),
    analogue gain, the red and blue colour gains, and for a camera that focuses (Camera
    Module 3) the lens position it focused on, in dioptres (1 / metres)."""

    exposure_time: int
    analogue_gain: float
    colour_gains: tuple[float, float]
    lens_position: float | None = None

    def to_config(self) -> dict:
        config = {"exposure_time": self.exposure_time, "analogue_gain": self.analogue_gain,
                  "colour_gains": list(self.colour_gains)}
        if self.lens_position is not None:
            config["lens_position"] = self.lens_position
        return config

    @classmethod
    def from_config(cls, table: Mapping[str, Any]) -> CameraSettings:
        try:
            red, blue = (float(g) for g in table["colour_gains"])
            lens = table.get("lens_position")
            return cls(int(table["exposure_time"]), float(table["analogue_gain"]), (red, blue),
                       None if lens is None else float(lens))
        except (KeyError, TypeError, ValueError) as e:
            raise SourceError(f"[vision.camera] needs exposure_time, analogue_gain and "
                              f"colour_gains = [red, blue] ({e})") from None


class FrameSource:
    """What every source does: read the next frame (None at the end), iterate, close."""

    def read(self) -> Frame | None:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the source holds; calling it again does nothing."""

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Picamera2Source(FrameSource):
    """The Pi's camera through Picamera2.

    The main stream is asked for in RGB888, which libcamera lays out as B, G, R in memory: the
    arrays are in OpenCV's BGR order as they come (the default formats would give RGB and swap
    red and blue). With `settings` the exposure and white balance are locked to the calibrated
    values (AeEnable and AwbEnable off, ExposureTime, AnalogueGain and ColourGains set), so a
    die's colour does not drift as players lean over the table; without them the camera runs
    automatic. `lock` changes that on the running camera, and `measure` turns the automatic
    control back on, lets it settle and locks what it settled on.

    A camera that focuses (Camera Module 3) holds its lens still: at the calibrated lens
    position, else at the distance of `camera_height_mm` (the camera's height above the
    table), else where `focus` (one autofocus cycle) put it.

    A frame that does not come within `frame_timeout` seconds (a loose cable, a driver that
    stopped answering) cancels what the camera was doing, closes it and raises
    `SourceTimeout`: the camera is free for the next `Picamera2Source` to open.
    """

    def __init__(self, *, size: tuple[int, int] = (640, 480), fps: float = 30.0,
                 settings: CameraSettings | None = None, camera: int = 0,
                 frame_timeout: float = FRAME_TIMEOUT,
                 camera_height_mm: float | None = None) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise SourceError("picamera2 is not installed: on the Pi, run "
                              "`sudo apt install python3-picamera2` and make the virtual "
                              "environment with --system-site-packages") from None
        self._camera = None
        self._count = 0
        self.frame_timeout = frame_timeout
        self.lens_position: float | None = None
        """Where the lens is held, in dioptres; None while it is not held."""
        try:
            self._camera = Picamera2(camera)
            self.focuses = "AfMode" in self._camera.camera_controls
            """Whether the camera moves its lens (Camera Module 3)."""
            if self.focuses and camera_height_mm is not None:
                self.lens_position = 1000.0 / float(camera_height_mm)
            self._hold_lens(settings)
            controls: dict[str, Any] = {"FrameDurationLimits": (int(1e6 / fps),) * 2}
            controls.update(self._locked(settings))
            config = self._camera.create_video_configuration(
                main={"size": tuple(size), "format": "RGB888"}, controls=controls)
            self._camera.configure(config)
            self._camera.start()
        except Exception as e:
            self.close()
            raise SourceError(f"cannot start the Pi camera: {e}") from e

    def read(self) -> Frame | None:
        if self._camera is None:
            return None
        job = self._camera.capture_array("main", wait=False)
        try:
            image = self._camera.wait(job, timeout=self.frame_timeout)
        except TimeoutError:
            self._abandon()
            raise SourceTimeout(f"the Pi camera gave no frame in {self.frame_timeout:g} s; "
                                "it was closed") from None
        self._count += 1
        return Frame(np.ascontiguousarray(image[..., :3]), time.monotonic(), self._count - 1)

    def lock(self, settings: CameraSettings | None) -> None:
        """Lock the running camera's exposure, white balance and focus to `settings` from
        the next frames on; None turns automatic exposure and white balance back on."""
        camera = self._open_camera()
        self._hold_lens(settings)
        camera.set_controls(self._locked(settings))

    def measure(self, settle_time: float = 2.0) -> CameraSettings:
        """The exposure and gains the camera's automatic control settles on under this light,
        with automatic control turned back on first and the result locked: what calibration
        stores and locks at every start."""
        camera = self._open_camera()
        camera.set_controls({"AeEnable": True, "AwbEnable": True})
        time.sleep(settle_time)
        meta = camera.capture_metadata()
        red, blue = meta["ColourGains"]
        settings = CameraSettings(int(meta["ExposureTime"]), float(meta["AnalogueGain"]),
                                  (float(red), float(blue)), self.lens_position)
        self.lock(settings)
        return settings

    def focus(self, timeout: float = 5.0) -> float | None:
        """One autofocus cycle on what the camera sees, the lens then held there: its
        position in dioptres, or None for a camera that does not focus."""
        camera = self._open_camera()
        if not self.focuses:
            return None
        camera.set_controls({"AfMode": AF_MODE_AUTO})
        try:
            focused = camera.wait(camera.autofocus_cycle(wait=False), timeout=timeout)
        except TimeoutError:
            focused = False
        if not focused:
            camera.set_controls(self._locked(None))
            raise SourceError("the camera could not focus: put something with sharp edges "
                              "(the board, a card) under it and try again")
        self.lens_position = float(camera.capture_metadata()["LensPosition"])
        camera.set_controls({"AfMode": AF_MODE_MANUAL, "LensPosition": self.lens_position})
        return self.lens_position

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()

    def _open_camera(self) -> Any:
        if self._camera is None:
            raise SourceError("the Pi camera is closed")
        return self._camera

    def _locked(self, settings: CameraSettings | None) -> dict[str, Any]:
        """The controls that hold the camera as `settings` say (automatic without them)."""
        controls: dict[str, Any] = {"AeEnable": True, "AwbEnable": True}
        if settings is not None:
            controls = {"AeEnable": False, "AwbEnable": False,
                        "ExposureTime": settings.exposure_time,
                        "AnalogueGain": settings.analogue_gain,
                        "ColourGains": settings.colour_gains}
        if self.lens_position is not None:
            controls.update({"AfMode": AF_MODE_MANUAL, "LensPosition": self.lens_position})
        return controls

    def _hold_lens(self, settings: CameraSettings | None) -> None:
        """A calibrated lens position overrides the one from the camera's height."""
        if self.focuses and settings is not None and settings.lens_position is not None:
            self.lens_position = settings.lens_position

    def _abandon(self) -> None:
        """Drop the frame asked for and close the camera, whatever state it is in."""
        if self._camera is not None:
            with contextlib.suppress(Exception):
                self._camera.cancel_all_and_flush()
        self.close()


class VideoSource(FrameSource):
    """OpenCV's VideoCapture: a USB webcam (by number) or a video file (by path). A file's
    frames are timed by its frame rate, a camera's by the clock."""

    def __init__(self, device: int | str, *, size: tuple[int, int] | None = None) -> None:
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError(f"cannot open video source {device!r}")
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._is_file = isinstance(device, str)
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self._fps = fps if fps and fps > 0 else 30.0
        self._count = 0

    def read(self) -> Frame | None:
        if self._capture is None:
            return None
        ok, image = self._capture.read()
        if not ok:
            return None
        self._count += 1
        when = (self._count - 1) / self._fps if self._is_file else time.monotonic()
        return Frame(image, when, self._count - 1)

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()


class FolderSource(FrameSource):
    """The images of a folder in name order, timed as if taken at `fps`; files that are not
    images are passed over, and one that cannot be read stops the source with its name."""

    def __init__(self, folder: Path, *, fps: float = 30.0) -> None:
        folder = Path(folder)
        if not folder.is_dir():
            raise SourceError(f"no folder at {folder}")
        self._paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self._fps = fps
        self._count = 0

    def read(self) -> Frame | None:
        if self._count >= len(self._paths):
            return None
        path = self._paths[self._count]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"cannot read image {path}")
        self._count += 1
        return Frame(image, (self._count - 1) / self._fps, self._count - 1)

    def close(self) -> None:
        self._count = len(self._paths)


class RenderedSource(FrameSource):
    """Frames drawn by the renderer: dice thrown into the roll zone and taken away, for ever
    (or `limit` frames), timed at `fps`."""

    def __init__(self, *, seed: int = 0, game: str = "camelup-2014",
                 size: tuple[int, int] = (640, 480), fps: float = 30.0,
                 limit: int | None = None) -> None:
        from vision.synth import frames_forever

        self._frames: Iterator[RenderedFrame] | None = frames_forever(seed, game, size=size)
        self._fps = fps
        self._limit = limit
        self._count = 0
        self.last: RenderedFrame | None = None

    def read(self) -> Frame | None:
        if self._frames is None or (self._limit is not None and self._count >= self._limit):
            return None
        self.last = next(self._frames)
        self._count += 1
        return Frame(self.last.image, (self._count - 1) / self._fps, self._count - 1)

    def close(self) -> None:
        self._frames = None


def open_source(config: Mapping[str, Any], *, game: str = "camelup-2014",
                camera: CameraSettings | None = None) -> FrameSource:
    """The source a `[vision.source]` table names: kind = "picamera2" | "video" | "folder" |
    "rendered", with its options (see docs/vision.md)."""
    kind = config.get("kind", "picamera2")
    size = tuple(config.get("size", (640, 480)))
    fps = float(config.get("fps", 30.0))
    if kind == "picamera2":
        return Picamera2Source(size=size, fps=fps, settings=camera,
                               camera=int(config.get("camera", 0)),
                               frame_timeout=float(config.get("frame_timeout", FRAME_TIMEOUT)),
                               camera_height_mm=config.get("camera_height_mm"))
    if kind == "video":
        device = config.get("device", 0)
        return VideoSource(device if isinstance(device, int) else str(device), size=size)
    if kind == "folder":
        if "path" not in config:
            raise SourceError('[vision.source] kind = "folder" needs path = "..."')
        return FolderSource(Path(config["path"]), fps=fps)
    if kind == "rendered":
        return RenderedSource(seed=int(config.get("seed", 0)), game=game, size=size, fps=fps)
    raise SourceError(f"unknown [vision.source] kind {kind!r}; use {', '.join(SOURCE_KINDS)}")
