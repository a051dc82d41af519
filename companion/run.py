"""`camel-companion run --config PATH`: the table on the Pi, as its service starts it.

Everything a table needs is started from one TOML file (firmware_config/camel-companion.toml
is the example, /etc/camel-companion/camel-companion.toml on a Pi): the camera through the
vision configuration with its locked exposure, the button panel from its pin map on gpiozero's
default pin factory, the dashboard on waitress, and the store in the state directory, where
every game, correction and camera reading is kept. A store with no game yet starts the
configured first game; players start the next ones from the dashboard.

Neither a missing camera nor a panel that cannot be opened stops the table: the dashboard
says so, and phones log what they cannot. A camera given up on (its driver stuck) does: run
exits with status 1 and systemd starts it again. The service is ready for systemd once the
dashboard listens, and its watchdog is fed by the table's own heartbeat while the dashboard
answers and the camera's thread is alive.

A table configured with a board camera (`[vision.board.source]`) runs two: the dice camera,
shown on the pages, reads the dice; the board camera reads the board. Each is watched, and
either given up on ends run, as one camera does.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import random
import sys
import threading
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.advisor import return_large_blocks, share_memory_arenas
from companion.calibration import Calibrator
from companion.errors import BadConfig
from companion.hosting import (
    DEFAULT_STREAMS,
    Listening,
    address,
    advisor,
    dashboard,
    phone_addresses,
    serve_until_stopped,
    start_logging,
)
from companion.hotspot import read_hotspot
from companion.readings import CONFIDENT
from companion.rules import GAMES
from companion.serve import secrets_path, table_secrets
from companion.service import Watchdog, answers_http, notify
from companion.table import Table

if TYPE_CHECKING:
    from companion.camera import TableCamera

log = logging.getLogger("camel_companion.run")

DEFAULT_CONFIG = Path("/etc/camel-companion/camel-companion.toml")
STORE_NAME = "camel-companion.sqlite3"
CALIBRATED_NAME = "calibration.toml"
"""Calibration's results, written in the state directory (the service cannot write /etc)."""
FIRST_GAME = {"game": "camelup-2018", "players": ["Player 1", "Player 2", "Player 3"]}
#: the languages the table can speak in: the dashboard's, which espeak-ng has voices for
SPOKEN = ("en", "fr", "de")
_TABLE_KEYS = {"host", "port", "pin", "buttons", "camera", "odds", "confident", "state",
               "streams", "first_game"}


@dataclass(frozen=True)
class TableConfig:
    """The `[table]` part of the configuration: how the table is served and what it uses."""

    path: Path | None = None
    host: str = "0.0.0.0"
    port: int = 8000
    pin: str | None = None
    buttons: Path | None = None
    camera: bool = True
    odds: bool = True
    confident: float = CONFIDENT
    state: Path | None = None
    streams: int = DEFAULT_STREAMS
    first_game: Mapping[str, Any] = field(default_factory=lambda: dict(FIRST_GAME))
    speech: str | None = None
    """The language the table speaks in (`[speech]`, companion.speech); None: it is silent."""

    @classmethod
    def from_file(cls, path: Path) -> TableConfig:
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except OSError as e:
            raise BadConfig(f"cannot read the configuration {path}: "
                            f"{e.strerror or e}") from None
        except tomllib.TOMLDecodeError as e:
            raise BadConfig(f"{path} is not valid TOML: {e}") from None
        try:
            settings = cls.from_mapping(data.get("table", {}), path)
        except (TypeError, ValueError) as e:
            raise BadConfig(f"{path}: [table] {e}") from None
        try:
            return replace(settings, speech=_speech(data.get("speech", {})))
        except (TypeError, ValueError) as e:
            raise BadConfig(f"{path}: [speech] {e}") from None

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any], path: Path | None = None) -> TableConfig:
        """The `[table]` settings; a path in them is relative to the file they came from."""
        if not isinstance(table, Mapping):
            raise TypeError("must be a table")
        unknown = set(table) - _TABLE_KEYS
        if unknown:
            raise ValueError(f"has unknown key(s): {', '.join(sorted(unknown))}")
        here = Path(".") if path is None else path.parent

        def beside(name: str) -> Path | None:
            value = table.get(name)
            if value is None or value == "":
                return None
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a path in quotes")
            return here / value

        first_game = table.get("first_game", FIRST_GAME)
        if not isinstance(first_game, Mapping):
            raise TypeError("first_game must be a table: game and players")
        port = _typed(table, "port", int, 8000)
        confident = float(_typed(table, "confident", int | float, CONFIDENT))
        if not 0 <= port < 65536:
            raise ValueError(f"port must be 1 to 65535 (0: any free port), not {port}")
        if not 0 <= confident <= 1:
            raise ValueError(f"confident must lie between 0 and 1, not {confident}")
        pin = table.get("pin")
        if pin is not None and not (isinstance(pin, str) and pin.strip() and pin.isprintable()):
            raise ValueError("pin must be printable characters in quotes")
        return cls(path=path, host=_typed(table, "host", str, "0.0.0.0"), port=port, pin=pin,
                   buttons=beside("buttons"), camera=_typed(table, "camera", bool, True),
                   odds=_typed(table, "odds", bool, True), confident=confident,
                   state=beside("state"), streams=_typed(table, "streams", int, DEFAULT_STREAMS),
                   first_game=dict(first_game))

    def state_directory(self) -> Path:
        """Where the store lives: systemd's StateDirectory, else `state`, else the user's."""
        if os.environ.get("STATE_DIRECTORY"):
            return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
        if self.state is not None:
            return self.state
        base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
        return Path(base) / "camel-companion"


def _speech(speech: Mapping[str, Any]) -> str | None:
    """The `[speech]` settings: the language the table speaks in when `enabled`, else None."""
    if not isinstance(speech, Mapping):
        raise TypeError("must be a table")
    unknown = set(speech) - {"enabled", "language"}
    if unknown:
        raise ValueError(f"has unknown key(s): {', '.join(sorted(unknown))}")
    language = _typed(speech, "language", str, "en")
    if language not in SPOKEN:
        raise ValueError(f"language must be one of {', '.join(SPOKEN)}, not {language!r}")
    return language if _typed(speech, "enabled", bool, False) else None


def _typed(table: Mapping[str, Any], key: str, kind: Any, default: Any) -> Any:
    value = table.get(key, default)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"{key} must be {_kind_name(kind)}, not {value!r}")
    return value


def _kind_name(kind: Any) -> str:
    return {str: "text in quotes", int: "a whole number", bool: "true or false"}.get(
        kind, "a number")


def add_command(commands: Any) -> None:
    """Add `run` and `calibrate` to the CLI's subcommands."""
    for name, helped in (("run", "run the table on the Pi: camera, buttons, dashboard, store "
                                  "(what the service starts)"),
                         ("calibrate", "run the table and walk through calibrating the camera "
                                       "on the dashboard's calibration page")):
        command = config_command(commands, name, helped, run)
        command.add_argument("--port", type=int, help="the port, instead of the configured one")
        command.set_defaults(calibrating=name == "calibrate")


def config_command(commands: Any, name: str, helped: str,
                   runs: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    """A subcommand of the Pi's, which reads its configuration file (`--config`)."""
    command = commands.add_parser(name, help=helped)
    command.add_argument("--config", type=Path, default=DEFAULT_CONFIG,
                         help=f"the configuration file (default {DEFAULT_CONFIG})")
    command.set_defaults(run=runs)
    return command


def run(args: argparse.Namespace) -> int:
    settings = TableConfig.from_file(args.config)
    if args.port is not None:
        settings = replace(settings, port=args.port)
    state = settings.state_directory()
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadConfig(f"cannot make the state directory {state}: {e.strerror}") from None
    store_path = state / STORE_NAME
    secrets_ = table_secrets(store_path, settings.pin)
    if settings.pin is not None and args.config.stat().st_mode & 0o077:
        log.warning("%s holds the table's PIN and others can read it: chmod 600 it (owned by "
                    "the service's user)", args.config)
    return_large_blocks()  # before the readers are made
    share_memory_arenas()  # the cameras, the table, the panel and the server each a thread
    start_logging()
    notify("STATUS=opening the store")
    listening = Listening(settings.host, settings.port, secrets_["pin"],
                          secrets_["secret_key"], settings.streams)
    watchdog = Watchdog()
    calibrator = Calibrator(args.config, state / CALIBRATED_NAME)
    with Table(store_path, first_game=first_game(settings.first_game),
               confident=settings.confident) as table:
        table.heartbeat.append(watchdog.feed)
        with _cameras(table, settings, calibrator) as cameras, \
                _panel(table, settings), _voice(table, settings), advisor(table, settings.odds), \
                dashboard(table, listening, {"CALIBRATOR": calibrator,
                                             "HOTSPOT": read_hotspot(args.config)}) as server:
            watchdog.checks.append(lambda: answers_http(settings.host, server.port))
            for name, camera in cameras.items():
                watchdog.checks.append(_answering(name, camera))
            url = address(settings.host, server.port)
            view = table.snapshot.view
            print(f"camel-companion: game of {view['game']} with "
                  f"{len(view['history'])} actions, kept in {store_path}", flush=True)
            urls = " or ".join(phone_addresses(settings.host, server.port))
            kept = args.config if settings.pin is not None else secrets_path(store_path)
            # Never the PIN itself: this goes to the journal, which more people can read.
            print(f"camel-companion: open {urls} on every phone; the table's PIN is kept in "
                  f"{kept}", flush=True)
            if args.calibrating:
                print(f"camel-companion: calibrate the camera at {url}calibrate", flush=True)
            if not cameras:
                print("camel-companion: no camera: log rolls on the dashboard", flush=True)
            notify(f"READY=1\nSTATUS=serving {url}")
            serve_until_stopped(table, server, on_stop=lambda: notify("STOPPING=1"))
    print("camel-companion: stopped; every action is in the store", flush=True)
    for name, camera in cameras.items():
        if camera.has_failed:
            print(f"camel-companion: {name} was given up on: exiting with status 1, for systemd "
                  "to start the service again", file=sys.stderr, flush=True)
            return 1
    return 0


def first_game(header: Mapping[str, Any]) -> dict[str, Any]:
    """The configured first game; when the configuration leaves out the start, the game is
    set up as its rule book says (`GameRules.new_header`: the start rolled, and what else the
    game's first line needs), the configuration's own keys kept. A game or players the
    rules do not know are left for them to refuse, in one line."""
    game, players = header.get("game"), header.get("players")
    if "start" in header or not isinstance(game, str) or game not in GAMES \
            or not isinstance(players, list):
        return dict(header)
    return {**GAMES[game].new_header(players, random.Random()), **header}


def _voice(table: Table, settings: TableConfig) -> Any:
    """The table speaking through espeak-ng in its language; nothing when it is silent."""
    if settings.speech is None:
        return contextlib.nullcontext()
    from companion.speech import Announcer, Espeak
    from web import LANGUAGES
    from web.translations import load

    return Announcer(table, Espeak(settings.speech), load(LANGUAGES)[settings.speech])


@contextlib.contextmanager
def _cameras(table: Table, settings: TableConfig,
             calibrator: Calibrator) -> Iterator[dict[str, TableCamera]]:
    """The table's cameras by name, each watching from its own thread: the one camera reading
    the dice and, once the camels are learned, the board; or, with a board camera configured,
    the dice camera (the one the pages show) and the board camera; none when configured off."""
    if not settings.camera:
        yield {}
        return
    from companion.camera import TableCamera

    two = calibrator.vision().board_source is not None
    calibrator.camera = TableCamera(calibrator.open_source, calibrator.settler,
                                    make_board=None if two else calibrator.board_watch)
    if two:
        calibrator.board_camera = TableCamera(
            calibrator.open_board_source, lambda game: None, make_board=calibrator.board_watch,
            name="the board camera", when_off="the board is not checked against the game")
    cameras = {c.name: c for c in (calibrator.camera, calibrator.board_camera) if c is not None}
    with contextlib.ExitStack() as attached:
        for camera in cameras.values():
            # A camera given up on ends the table, and run exits non-zero: only a new process
            # can open a Pi camera whose driver stopped answering.
            camera.when_failed.append(lambda why: threading.Thread(
                target=table.close, name="camera-given-up", daemon=True).start())
            attached.enter_context(camera.attach(table, shown=camera is calibrator.camera))
        yield cameras


def _answering(name: str, camera: TableCamera) -> Callable[[], str | None]:
    """A watchdog check: None while the camera's thread answers, else what stopped."""
    return lambda: None if camera.is_alive else f"{name} stopped answering"


def _panel(table: Table, settings: TableConfig) -> Any:
    """The button panel on gpiozero's default pins; none if not configured or unavailable."""
    if settings.buttons is None:
        return contextlib.nullcontext()
    from gpiozero.exc import GPIOZeroError

    from companion.buttons import Panel, PinMap

    pin_map = PinMap.from_toml(settings.buttons)
    try:
        panel = Panel(table, pin_map)
    except (GPIOZeroError, OSError, RuntimeError) as e:
        log.warning("the button panel cannot be used: %s", e)
        table.announce(f"the button panel cannot be used ({e}): log on the dashboard")
        return contextlib.nullcontext()
    return panel
