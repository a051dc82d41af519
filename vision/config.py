"""Vision's configuration: a TOML file's `[vision]` tables, read with tomllib.

The file is the one given with --config, else $CAMEL_COMPANION_CONFIG, else
./camel-companion.toml if there is one; every option has a default that works on a Pi, so no
file at all is fine. docs/vision.md lists the options. Calibration writes its results as TOML
text (`calibration_toml`) to be saved into the same file.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.calibrate import CalibrationError, TableCalibration
from vision.colours import DiceColours
from vision.dicesets import DEFAULT_GAME, DICE_SETS
from vision.sources import CameraSettings, SourceError
from vision.table import BoardLayout, TableLayout

DEFAULT_FILE = "camel-companion.toml"
ENVIRONMENT = "CAMEL_COMPANION_CONFIG"

_KNOWN = {"game", "threshold", "source", "camera", "table", "board", "calibration", "colours",
          "settle"}
#: [vision.settle] keys: vision.settle.Settler's options of the same names
_SETTLE_KEYS = {"stable_frames", "motion_level", "motion_share", "small_width", "retries"}


class ConfigError(ValueError):
    """The configuration file cannot be used; the message names the file and the key."""


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
    for the same table of `path`. A missing `calibrated` file is no calibration yet.
    """
    data = read_toml(path) if path is not None else {}
    if calibrated is not None and calibrated.is_file():
        vision = dict(data.get("vision", {}))
        vision.update(read_toml(calibrated).get("vision", {}))
        data = {**data, "vision": vision}
    try:
        return _from_toml(data)
    except (ConfigError, CalibrationError, SourceError, ValueError, TypeError, KeyError) as e:
        raise ConfigError(f"{path}: {e}") from None


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file's tables; one line saying why when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise ConfigError(f"cannot read configuration {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path} is not valid TOML: {e}") from None


def _from_toml(data: Mapping[str, Any]) -> VisionConfig:
    vision = data.get("vision", {})
    if not isinstance(vision, Mapping):
        raise ConfigError("[vision] must be a table")
    unknown = set(vision) - _KNOWN
    if unknown:
        raise ConfigError(f"unknown key(s) in [vision]: {', '.join(sorted(unknown))}")
    game = vision.get("game", data.get("game", DEFAULT_GAME))
    if game not in DICE_SETS:
        raise ConfigError(f"game {game!r} has no dice known to vision; known: "
                          f"{', '.join(DICE_SETS)}")
    threshold = float(vision.get("threshold", 0.5))
    if not 0.0 <= threshold <= 1.0:
        raise ConfigError("[vision] threshold must lie between 0 and 1")
    settle = dict(vision.get("settle", {}))
    unknown = set(settle) - _SETTLE_KEYS
    if unknown:
        raise ConfigError(f"unknown key(s) in [vision.settle]: {', '.join(sorted(unknown))}")
    colours = colours_game = None
    if "colours" in vision:
        table = dict(vision["colours"])
        colours_game = table.pop("game", game)
        colours = DiceColours({name: tuple(float(c) for c in bgr)
                               for name, bgr in table.items()})
    layout = TableLayout.from_config(vision.get("table", {}))
    return VisionConfig(
        game=game, threshold=threshold, source=dict(vision.get("source", {"kind": "picamera2"})),
        camera=CameraSettings.from_config(vision["camera"]) if "camera" in vision else None,
        layout=layout, board=BoardLayout.from_config(vision.get("board", {}), layout),
        calibration=(TableCalibration.from_config(vision["calibration"])
                     if "calibration" in vision else None),
        colours=colours, colours_game=colours_game, settle=settle)


def calibration_toml(*, calibration: TableCalibration | None = None,
                     colours: DiceColours | None = None, game: str | None = None,
                     camera: CameraSettings | None = None) -> str:
    """TOML text for the sections calibration fills in, to be saved in the config file."""
    parts = []
    if camera is not None:
        parts.append(_section("vision.camera", camera.to_config()))
    if calibration is not None:
        parts.append(_section("vision.calibration", calibration.to_config()))
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
