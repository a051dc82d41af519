"""Vision's configuration: a TOML file's `[vision]` tables, read with tomllib.

The file is the one given with --config, else $CAMEL_COMPANION_CONFIG, else
./camel-companion.toml if there is one; every option has a default that works on a Pi, so no
file at all is fine. docs/vision.md lists the options. Calibration writes its results as TOML
text (`calibration_toml`) to be saved into the same file.

A table may film its board with a second camera (`[vision.board.source]`): a camera close to
the roll zone reads the dice, one further back takes in the whole board. That camera has its
own view of the four markers, `[vision.board.calibration]`, kept apart from the dice camera's.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import BadConfig
from vision.calibrate import CalibrationError, TableCalibration
from vision.colours import DiceColours, as_bgr
from vision.dicesets import DEFAULT_GAME, GAMES
from vision.sources import SOURCE_KEYS, SOURCE_KINDS, CameraSettings, SourceError
from vision.table import BoardLayout, TableLayout

DEFAULT_FILE = "camel-companion.toml"
ENVIRONMENT = "CAMEL_COMPANION_CONFIG"

_KNOWN = {"game", "threshold", "source", "camera", "table", "board", "calibration", "colours",
          "settle"}
#: [vision.settle] keys: vision.settle.Settler's options of the same names
_SETTLE_KEYS = {"stable_frames", "motion_level", "motion_share", "small_width", "retries"}


@dataclass(frozen=True)
class VisionConfig:
    """Everything vision reads from the configuration."""

    game: str = DEFAULT_GAME
    threshold: float = 0.5
    source: Mapping[str, Any] = field(default_factory=lambda: {"kind": "picamera2"})
    camera: CameraSettings | None = None
    layout: TableLayout = field(default_factory=TableLayout)
    board: BoardLayout = field(default_factory=lambda: BoardLayout.around(TableLayout().board))
    calibration: TableCalibration | None = None
    colours: DiceColours | None = None
    colours_game: str | None = None
    settle: Mapping[str, Any] = field(default_factory=dict)
    board_source: Mapping[str, Any] | None = None
    """The board's own camera, or None when the one camera reads the dice and the board."""
    board_calibration: TableCalibration | None = None
    """The board camera's view of the markers, once calibrated."""

    def colours_for(self, game: str) -> DiceColours | None:
        """The calibrated colours, if they were learned for `game`."""
        return self.colours if self.colours_game == game else None


def config_path(given: Path | None = None) -> Path | None:
    """The configuration file to read: `given`, else the environment's, else the default
    file if it exists, else none."""
    if given is not None:
        return given
    if os.environ.get(ENVIRONMENT):
        return Path(os.environ[ENVIRONMENT])
    default = Path(DEFAULT_FILE)
    return default if default.is_file() else None


def load_config(path: Path | None, *, calibrated: Path | None = None) -> VisionConfig:
    """The configuration in `path` (defaults throughout when `path` is None).

    `calibrated` is a file calibration wrote where the program may write (the service's
    state directory, as /etc is read-only to it): each of its `[vision.*]` tables stands in
    for the same table of `path`, and its `[vision.board.calibration]` for that one table of
    `[vision.board]` (whose track and board camera stay the configuration's). A missing
    `calibrated` file is no calibration yet.
    """
    data = read_toml(path) if path is not None else {}
    if calibrated is not None and calibrated.is_file():
        vision = dict(data.get("vision", {}))
        learned = dict(read_toml(calibrated).get("vision", {}))
        board = learned.pop("board", None)
        vision.update(learned)
        if isinstance(board, Mapping) and isinstance(vision.get("board", {}), Mapping):
            vision["board"] = {**vision.get("board", {}), **board}
        data = {**data, "vision": vision}
    try:
        return _from_toml(data)
    except (BadConfig, CalibrationError, SourceError, ValueError, TypeError, KeyError) as e:
        raise BadConfig(f"{path}: {e}") from None


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file's tables; one line saying why when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise BadConfig(f"cannot read configuration {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise BadConfig(f"{path} is not valid TOML: {e}") from None


def _from_toml(data: Mapping[str, Any]) -> VisionConfig:
    vision = data.get("vision", {})
    if not isinstance(vision, Mapping):
        raise BadConfig("[vision] must be a table")
    unknown = set(vision) - _KNOWN
    if unknown:
        raise BadConfig(f"unknown key(s) in [vision]: {', '.join(sorted(unknown))}")
    game = vision.get("game", data.get("game", DEFAULT_GAME))
    if game not in GAMES:
        raise BadConfig(f"game {game!r} has no dice known to vision; known: "
                        f"{', '.join(GAMES)}")
    threshold = float(vision.get("threshold", 0.5))
    if not 0.0 <= threshold <= 1.0:
        raise BadConfig("[vision] threshold must lie between 0 and 1")
    settle = dict(vision.get("settle", {}))
    unknown = set(settle) - _SETTLE_KEYS
    if unknown:
        raise BadConfig(f"unknown key(s) in [vision.settle]: {', '.join(sorted(unknown))}")
    colours = colours_game = None
    if "colours" in vision:
        table = dict(vision["colours"])
        colours_game = table.pop("game", game)
        if any(len(bgr) != 3 for bgr in table.values()):
            raise BadConfig("[vision.colours] each colour must be [b, g, r]")
        colours = DiceColours({name: as_bgr(bgr) for name, bgr in table.items()})
    layout = TableLayout.from_config(vision.get("table", {}))
    board = dict(vision.get("board", {}))
    source = _source(vision.get("source", {"kind": "picamera2"}), "vision.source")
    board_source = board_calibration = None
    if "source" in board:
        board_source = _source(board.pop("source"), "vision.board.source")
        pi_camera = _pi_camera(source)
        if pi_camera is not None and _pi_camera(board_source) == pi_camera:
            raise BadConfig("[vision.board.source] is the dice camera's Pi camera: set its "
                            "camera = 1 (a Pi 5's second connector)")
        if "calibration" in board:
            board_calibration = TableCalibration.from_config(board["calibration"])
    board.pop("calibration", None)
    return VisionConfig(
        game=game, threshold=threshold, source=source,
        camera=CameraSettings.from_config(vision["camera"]) if "camera" in vision else None,
        layout=layout, board=BoardLayout.from_config(board, layout),
        calibration=(TableCalibration.from_config(vision["calibration"])
                     if "calibration" in vision else None),
        colours=colours, colours_game=colours_game, settle=settle,
        board_source=board_source, board_calibration=board_calibration)


def _source(table: Any, name: str) -> dict[str, Any]:
    """A camera's `[vision.source]`-like table, checked before the camera is ever opened."""
    if not isinstance(table, Mapping):
        raise BadConfig(f"[{name}] must be a table")
    unknown = set(table) - SOURCE_KEYS
    if unknown:
        raise BadConfig(f"unknown key(s) in [{name}]: {', '.join(sorted(unknown))}")
    kind = table.get("kind", "picamera2")
    if kind not in SOURCE_KINDS:
        raise BadConfig(f"[{name}] kind {kind!r} is unknown; use {', '.join(SOURCE_KINDS)}")
    if kind == "folder" and "path" not in table:
        raise BadConfig(f'[{name}] kind = "folder" needs path = "..."')
    return dict(table)


def _pi_camera(source: Mapping[str, Any]) -> int | None:
    """Which Pi camera `source` opens; None when it is no Pi camera."""
    return int(source.get("camera", 0)) if source.get("kind", "picamera2") == "picamera2" else None


def calibration_toml(*, calibration: TableCalibration | None = None,
                     colours: DiceColours | None = None, game: str | None = None,
                     camera: CameraSettings | None = None,
                     board_calibration: TableCalibration | None = None) -> str:
    """TOML text for the sections calibration fills in, to be saved in the config file."""
    parts = []
    if camera is not None:
        parts.append(_section("vision.camera", camera.to_config()))
    if calibration is not None:
        parts.append(_section("vision.calibration", calibration.to_config()))
    if board_calibration is not None:
        parts.append(_section("vision.board.calibration", board_calibration.to_config()))
    if colours is not None:
        values: dict[str, Any] = {} if game is None else {"game": game}
        values.update({k: [round(float(c), 1) for c in v]
                       for k, v in colours.references.items()})
        parts.append(_section("vision.colours", values))
    return "\n".join(parts)


def _section(name: str, values: Mapping[str, Any]) -> str:
    lines = [f"[{name}]"]
    nested = []
    for key, value in values.items():
        if isinstance(value, Mapping):
            nested.append(_section(f"{name}.{key}", value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    return "\n".join(lines) + "\n" + "".join("\n" + n for n in nested)


def _key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else f'"{key}"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")
