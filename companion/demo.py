"""`camel-companion demo`: the whole product playing a game of Camel Up by itself.

Nothing is faked between the camera and the phones. A rendered table (`vision.stage`) is the
camera: the dice a scripted table throws tumble into its roll zone, and the real dice reader
and settler read them from its frames; the real table loop judges each reading; a panel of
buttons on gpiozero's mock pins is pressed for the leg bets, the overall bets and OK; the game
goes into an SQLite store in a temporary folder; the dashboard serves it on port 8000.

The scripted table plays as people would. The player to act either shakes a die out of the
pyramid, presses a colour for a leg bet, WINNER or LOSER then a colour, or taps a tile or a
partnership on a phone. When the camera is unsure (the light drops now and then, and the
reader's confidence with it) the reading waits; a player looks at the die and presses OK if
the page has it right, or taps what it really shows. A die the camera missed is logged by
hand, and a die it misread for sure is put right on the page, as a person would.
"""

from __future__ import annotations

import argparse
import logging
import random
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.advisor import share_memory_arenas, trim_memory
from companion.buttons import PinMap
from companion.camera import TableCamera
from companion.errors import CompanionError
from companion.hosting import (
    Listening,
    add_listening_options,
    address,
    advisor,
    dashboard,
    serve_until_stopped,
    start_logging,
)
from companion.newgame import new_header
from companion.snapshot import Snapshot
from companion.table import Table

log = logging.getLogger("camel_companion.demo")

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
PIN_MAP = Path(__file__).resolve().parent.parent / "firmware_config" / "buttons.toml"
PRESS_TIME = 0.12
"""Seconds a scripted finger keeps a button down: longer than its bounce time."""
TURN_TIME = 2.5
"""Seconds between two turns at speed 1: slow enough to watch each one land."""
READ_TIME = 5.0
"""Seconds the table waits for the camera to read a die once it lies still, before logging
it by hand."""


def add_command(commands: Any) -> None:
    """Add `demo` to the CLI's subcommands."""
    demo = commands.add_parser("demo", help="watch a game of Camel Up play itself: rendered "
                                            "camera, mock buttons, live dashboard")
    demo.add_argument("--game", choices=("camelup-2014", "camelup-2018"),
                      default="camelup-2018", help="the edition (default camelup-2018)")
    demo.add_argument("--players", type=int, default=4,
                      help="how many play (2-8 in 2014, 3-8 in 2018; default 4)")
    demo.add_argument("--speed", type=float, default=1.0,
                      help="how fast the table plays: 2 is twice as fast (default 1)")
    add_listening_options(demo)
    demo.add_argument("--pin", default="123456", help="the table's PIN (default 123456)")
    demo.add_argument("--seed", type=int, help="the same seed plays the same table")
    demo.add_argument("--no-odds", dest="odds", action="store_false",
                      help="play without odds and advice")
    demo.add_argument("--games", type=int, default=0,
                      help="stop playing after this many games, leaving the last one on the "
                           "dashboard (default: play one after another)")
    demo.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 2 <= args.players <= len(NAMES):
        raise CompanionError(f"--players must be 2 to {len(NAMES)}, not {args.players}")
    if args.speed <= 0:
        raise CompanionError("--speed must be above 0")
    seed = random.randrange(2 ** 31) if args.seed is None else args.seed
    share_memory_arenas()  # the camera, the table, the server and the players each a thread
    start_logging()
    with tempfile.TemporaryDirectory(prefix="camel-companion-demo-") as folder:
        store_path = Path(folder) / "demo.sqlite3"
        header = new_header(args.game, NAMES[:args.players], random.Random(seed))
        listening = Listening(args.host, args.port, args.pin, f"demo-{seed}", args.streams)
        with Table(store_path, first_game=header) as table, \
                DemoTable(table, seed=seed, speed=args.speed, games=args.games) as players, \
                advisor(table, args.odds), dashboard(table, listening) as server:
            print(f"camel-companion: a demo game of {args.game} for {args.players} players "
                  f"(seed {seed}), kept in {store_path} until the demo stops", flush=True)
            here = f"http://localhost:{server.port}/ here, or " \
                if args.host in ("0.0.0.0", "::", "") else ""
            print(f"camel-companion: open {here}{address(args.host, server.port)} on any phone "
                  f"or browser; the table's PIN is {args.pin}; Ctrl-C stops", flush=True)
            players.when_done.append(lambda: print(
                f"camel-companion: {args.games} game(s) played; the dashboard shows the last "
                "one until Ctrl-C", flush=True))
            players.start()
            serve_until_stopped(table, server, on_stop=players.stop)
    print("camel-companion: the demo stopped", flush=True)
    return 0


class DemoTable:
    """The people around the demo's table: they throw dice into the stage, press the mock
    panel's buttons and tap what the panel cannot say. A context manager."""

    def __init__(self, table: Table, *, seed: int, speed: float = 1.0, games: int = 0,
                 size: tuple[int, int] = (640, 480)) -> None:
        from gpiozero.pins.mock import MockFactory

        from companion.buttons import Panel

        self.table = table
        self.speed = speed
        self.games = games
        self.rng = random.Random(seed)
        self.when_done: list[Callable[[], None]] = []
        """Called once the table has played `games` games and stopped playing."""
        self.outcomes: Counter[str] = Counter()
        """How each die thrown came into the game: "read" by the camera alone, "confirmed" with
        OK, "corrected" on the page, "logged" by hand, "replaced" after a sure misread; and
        "rejected", the false readings set aside with NO."""
        self.pin_map = PinMap.from_toml(PIN_MAP)
        self.pins = MockFactory()
        self.stage = _stage(table.snapshot.view["game"], seed, size)
        self.stage.settler()  # calibrated before the camera starts, as a table is at set-up
        self.camera = TableCamera(lambda: self.stage, self._settler, pace=True)
        self.panel = Panel(table, self.pin_map, pin_factory=self.pins)
        self.panel.when_refused.append(table.announce)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._play, name="demo-table", daemon=True)

    def _settler(self, game: str) -> Any:
        """The camera reads the stage's dice, and none of a game the stage does not film."""
        return self.stage.settler() if game == self.stage.game else None

    def __enter__(self) -> DemoTable:
        self.camera.attach(self.table)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        if self._thread.is_alive():
            self._thread.join()
        self.camera.close()
        self.panel.close()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()

    # --- the table's people -----------------------------------------------------------

    def _play(self) -> None:
        played = 0
        try:
            while not self._stopping.is_set():
                snapshot = self.table.snapshot
                if snapshot.view["finished"]:
                    played += 1
                    if self.games and played >= self.games:
                        break
                    self._pause(4.0)
                    self._new_game(snapshot)
                elif snapshot.view["pending"]:
                    self._check_pending(snapshot)
                else:
                    self._turn(snapshot)
                trim_memory()  # frames drawn and read this turn, given back before the next
                self._pause(TURN_TIME)
        except _Stopped:
            return
        except CompanionError as e:
            if not self.table.is_closed:
                log.exception("the demo table stopped playing: %s", e)
        for callback in self.when_done:
            callback()

    def _turn(self, snapshot: Snapshot) -> None:
        view = snapshot.view
        legal = view["legal"]
        kinds = {line["action"] for line in legal}
        choice = self.rng.choices(
            ["roll", "leg_bet", "race_bet", "tile", "partnership"],
            weights=[55 if "roll" in kinds else 0, 25 if "leg_bet" in kinds else 0,
                     6 if "race_bet" in kinds else 0,
                     10 if {"desert_tile", "spectator_tile"} & kinds else 0,
                     2 if "partnership" in kinds else 0])[0]
        if choice == "roll":
            self._roll(snapshot)
        elif choice == "leg_bet":
            camel = self.rng.choice([a["camel"] for a in legal if a["action"] == "leg_bet"])
            self._press(camel)
        elif choice == "race_bet":
            bet = self.rng.choice([a for a in legal if a["action"] == "race_bet"])
            self._press(bet["pile"])
            self._pause(0.6)
            self._press(bet["camel"])
        else:
            line = self.rng.choice([a for a in legal if a["action"] in
                                    ({"desert_tile", "spectator_tile"} if choice == "tile"
                                     else {"partnership"})])
            self.table.push(line)

    def _roll(self, snapshot: Snapshot) -> None:
        """Shake a die out of the pyramid; make sure the table got what it truly shows."""
        die = self.rng.choice(snapshot.view["dice_in_pyramid"])
        thrown = self.stage.throw(die)
        leg, actions = snapshot.view["leg"], len(snapshot.view["history"])
        while not self.stage.wait_filmed(0.2):
            if self._stopping.is_set():
                raise _Stopped
        after = self._wait(lambda s: len(s.view["history"]) > actions or bool(s.view["pending"]),
                           snapshot.version)
        if after is None:
            log.info("the camera did not read the %s die: logging it by hand", die)
            self.outcomes["logged"] += 1
            after = self.table.push(_roll_line(snapshot, thrown))
        elif after.view["pending"]:
            after = self._check_pending(after)
        elif not _shows(after.view["history"][-1]["action"], thrown):
            log.info("the camera misread the %s die: putting it right", die)
            self.outcomes["replaced"] += 1
            after = self.table.replace(actions, _roll_line(snapshot, thrown))
        else:
            self.outcomes["read"] += 1
        if after.view["leg"] != leg or after.view["finished"]:
            self._pause(1.5)
            self.stage.clear()

    def _check_pending(self, snapshot: Snapshot) -> Snapshot:
        """Look at the die the camera was unsure of: OK if the page has it right, NO if the
        die thrown is out of the pyramid already (a second, false reading: a side face, a
        speck), else tap what it shows."""
        waiting = snapshot.view["pending"][0]
        thrown = self.stage.thrown[-1] if self.stage.thrown else None
        self._pause(1.5)
        in_pyramid = self.table.snapshot.view["dice_in_pyramid"]
        if thrown is not None and thrown.colour not in in_pyramid and not _shows(waiting, thrown):
            self.outcomes["rejected"] += 1
            return self.table.reject_pending()
        if thrown is not None and _shows(waiting, thrown):
            before = self.table.snapshot.version
            self._press("ok")
            after = self._wait(lambda s: not s.view["pending"], before)
            if after is not None:
                self.outcomes["confirmed"] += 1
                return after
        if thrown is None:
            self.outcomes["rejected"] += 1
            return self.table.reject_pending()
        correction = {"die": thrown.colour, "value": thrown.value}
        if thrown.numeral is not None:
            correction["numeral"] = thrown.numeral
        self.outcomes["corrected"] += 1
        return self.table.accept_pending(correction=correction)

    def _new_game(self, snapshot: Snapshot) -> None:
        self.stage.clear()
        players = [p["name"] for p in snapshot.view["players"]]
        self.table.new_game(new_header(snapshot.view["game"], players, self.rng))

    # --- hands and time ---------------------------------------------------------------

    def _press(self, button: str) -> None:
        """Press a panel button as a finger does: down, a moment, up."""
        pin = self.pins.pin(self.pin_map.buttons[button])
        pin.drive_low()
        self._pause(PRESS_TIME, scaled=False)
        pin.drive_high()
        self._pause(0.2, scaled=False)

    def _wait(self, done: Callable[[Snapshot], bool], after: int) -> Snapshot | None:
        """The first snapshot past version `after` for which `done` holds, or None in time."""
        deadline = time.monotonic() + READ_TIME
        while time.monotonic() < deadline:
            snapshot = self.table.wait_for_snapshot(after, deadline - time.monotonic())
            if self._stopping.is_set() or self.table.is_closed:
                raise _Stopped
            if snapshot is None:
                return None
            if done(snapshot):
                return snapshot
            after = snapshot.version
        return None

    def _pause(self, seconds: float, *, scaled: bool = True) -> None:
        self._stopping.wait(seconds / self.speed if scaled else seconds)
        if self._stopping.is_set():
            raise _Stopped


class _Stopped(CompanionError):
    """The demo was told to stop in the middle of a turn."""


def _roll_line(snapshot: Snapshot, thrown: Any) -> dict[str, Any]:
    line = {"player": snapshot.view["turn"], "action": "roll", "die": thrown.colour,
            "value": thrown.value}
    if thrown.numeral is not None:
        line["numeral"] = thrown.numeral
    return line


def _shows(seen: dict[str, Any], thrown: Any) -> bool:
    """Whether a roll or reading says what the thrown die truly shows."""
    return (seen.get("die") == thrown.colour and seen.get("value") == thrown.value
            and (thrown.numeral is None or seen.get("numeral") == thrown.numeral))


def _stage(game: str, seed: int, size: tuple[int, int]) -> Any:
    from vision.stage import Stage

    return Stage(game, seed=seed, size=size)
