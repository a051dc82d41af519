"""`camel-companion demo`: the whole product playing a game of the Camel Up family by itself.

Nothing is faked between the camera and the phones. A rendered table (`vision.stage`) is the
camera: the dice a scripted table throws tumble into its roll zone (in Camel Up Cards the
racing cards are laid face up in the reveal zone; in The Last Camel its two colour dice are
thrown), and the game's real reader and settler read them from its frames; the real table loop
judges each reading; a panel of buttons on gpiozero's mock pins is pressed for the leg bets,
the overall bets and OK; the game goes into an SQLite store in a temporary folder; the
dashboard serves it on port 8000. A new game started on the New game page, of any game, is
played and read on: the rendered table becomes that game's.

The scripted table plays as people would. The player to act either shakes a die out of the
pyramid, presses a colour for a leg bet, WINNER or LOSER then a colour, or taps a tile or a
partnership on a phone. When the camera is unsure (the light drops now and then, and the
reader's confidence with it) the reading waits; a player looks at the die and presses OK if
the page has it right, or taps what it really shows. A die the camera missed is logged by
hand, and a die it misread for sure is put right on the page, as a person would. In Camel Up
Cards they also deal the racing cards each leg (the deck, the intel cards shown, the hand
cards), play a hand card, place the fennec or the palm tree; in The Last Camel they choose the
camels for a roll that can be used several ways, and show their owner cards after the race.

In Camel Up a second rendered camera films the board (`vision.stage.BoardStage`), and the
players move the camels on it as each die says, so the table checks the board after every
move. When the camera misread a die for sure they move the camels by what the die truly shows,
and the board alert's one tap puts the game right. Now and then (`SLIP`) a player sets a camel
down wrong: the alert comes, and they put the board right and dismiss it.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import random
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import seams
from companion.advisor import return_large_blocks, share_memory_arenas, trim_memory
from companion.board_check import track_stacks
from companion.buttons import PinMap
from companion.calibration import Calibrator
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
from companion.rules import cards, last_camel, rules_for
from companion.snapshot import Snapshot
from companion.table import Table

if TYPE_CHECKING:
    from vision.board_watch import BoardWatch
    from vision.sources import Frame

log = logging.getLogger("camel_companion.demo")

GAMES = ("camelup-2014", "camelup-2018", cards.GAME, last_camel.GAME)
"""Every game the demo plays, each through its own reader."""
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
PIN_MAP = Path(__file__).resolve().parent.parent / "firmware_config" / "buttons.toml"
PRESS_TIME = 0.12
"""Seconds a scripted finger keeps a button down: longer than its bounce time."""
TURN_TIME = 2.5
"""Seconds between two turns at speed 1 (the default of --pace): slow enough to watch each one
land."""
FPS = 15.0
"""Frames a second the rendered table is filmed at."""
BOARD_FPS = 4.0
"""Frames a second the board is filmed at: it is read only once still."""
DEMO_CAMERAS = """[vision.source]
kind = "rendered"

[vision.board.source]
kind = "rendered"
size = [1280, 720]
"""
"""The demo's two cameras as a configuration says them: the Calibrate page's steps work on
the dice camera's frames and, for the camels, the board camera's."""
READ_TIME = 5.0
"""Seconds the table waits for the camera to read a die once it lies still, before logging
it by hand."""
BOARD_TIME = 20.0
"""Seconds the players wait for the board alert after setting the camels down as the die
truly says (or wrong), before they put the game (or the board) right by hand: the table's
grace for moving camels, then the board filmed still and read."""
SLIP = 0.05
"""The share of moves in which a player sets a camel down wrong."""


def add_command(commands: Any) -> None:
    """Add `demo` to the CLI's subcommands."""
    demo = commands.add_parser("demo", help="watch a game of Camel Up play itself: rendered "
                                            "camera, mock buttons, live dashboard")
    demo.add_argument("--game", choices=GAMES, default="camelup-2018",
                      help="the game (default camelup-2018)")
    demo.add_argument("--players", type=int, default=4,
                      help="how many play (2-8 in camelup-2014, 3-8 in camelup-2018, 2-6 in "
                           "camelup-cards and last-camel; default 4)")
    demo.add_argument("--speed", type=float, default=1.0,
                      help="how fast the table plays: 2 is twice as fast (default 1)")
    demo.add_argument("--pace", type=float, default=TURN_TIME, metavar="SECONDS",
                      help=f"seconds between two turns at speed 1, longer to play along on a "
                           f"phone or the panel (default {TURN_TIME:g})")
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
    if args.pace < 0:
        raise CompanionError("--pace must be 0 seconds or more")
    seed = random.randrange(2 ** 31) if args.seed is None else args.seed
    return_large_blocks()  # before the rendered table and the readers are made
    share_memory_arenas()  # the camera, the table, the server and the players each a thread
    start_logging()
    with tempfile.TemporaryDirectory(prefix="camel-companion-demo-") as folder:
        store_path = Path(folder) / "demo.sqlite3"
        header = rules_for(args.game).new_header(NAMES[:args.players], random.Random(seed))
        listening = Listening(args.host, args.port, args.pin, f"demo-{seed}", args.streams)
        with Table(store_path, first_game=header) as table, \
                DemoTable(table, seed=seed, speed=args.speed, pace=args.pace,
                          games=args.games) as players, \
                advisor(table, args.odds), \
                dashboard(table, listening,
                          {"CALIBRATOR": players.calibrator(Path(folder))}) as server:
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
    """The people around the demo's table: they throw dice into the stage (lay racing cards),
    press the mock panel's buttons and tap what the panel cannot say. A context manager."""

    def __init__(self, table: Table, *, seed: int, speed: float = 1.0, pace: float = TURN_TIME,
                 games: int = 0, slip: float = SLIP, size: tuple[int, int] = (640, 480)
                 ) -> None:
        from gpiozero.pins.mock import MockFactory

        from companion.buttons import Panel

        self.table = table
        self.speed = speed
        self.pace = pace
        self.games = games
        self.slip = slip
        """The share of moves in which a player sets a camel down wrong on the board."""
        self.size = size
        self.rng = random.Random(seed)
        self.when_done: list[Callable[[], None]] = []
        """Called once the table has played `games` games and stopped playing."""
        self.outcomes: Counter[str] = Counter()
        """How each die thrown (card laid) came into the game: "read" by the camera alone,
        "confirmed" with OK, "corrected" on the page, "logged" by hand, "replaced" after a sure
        misread, "fixed_by_board" with the board alert's one tap after a sure misread; and
        "rejected", the false readings set aside with NO. The board alerts: "slip_caught" (a
        camel set down wrong, shown), "slip_missed" (not shown in BOARD_TIME), "false_alert"
        (the board was as the game has it)."""
        self.pin_map = PinMap.from_toml(PIN_MAP)
        self.pins = MockFactory()
        self.stage = _stage(table.snapshot.view["game"], seed, size)
        self.stage.settler()  # calibrated before the camera starts, as a table is at set-up
        self._deck: list[tuple[str, int]] = []
        """Camel Up Cards: the racing deck of this leg, its top card last."""
        self._hands: dict[str, list[str]] = {}
        """Camel Up Cards: the camels of each player's hand cards this leg."""
        self._played = 0
        """How many actions the game held when the table last looked."""
        self.camera = TableCamera(lambda: _Lens(self), self._settler, pace=True)
        self.board = _board_stage(self.stage, self.rng.randrange(2 ** 31), table.snapshot)
        """The board's camera and the camels on it (None in a game without a board)."""
        self.board_camera = TableCamera(lambda: _BoardLens(self), lambda game: None,
                                        make_board=self._board_watch, pace=True,
                                        name="the board camera",
                                        when_off="the board is not checked against the game")
        self.panel = Panel(table, self.pin_map, pin_factory=self.pins)
        self._stopping = threading.Event()
        self._busy = threading.Lock()
        """Held by the people through each turn, and by a calibration step between turns."""
        self._thread = threading.Thread(target=self._play, name="demo-table", daemon=True)

    def _settler(self, game: str) -> seams.Settler | None:
        """The camera reads the stage's dice, and none of a game the stage does not film."""
        stage = self.stage
        return stage.settler() if game == stage.game else None

    def _board_watch(self, game: str) -> BoardWatch | None:
        """The board's camera reads the board of the game it films, set up as a table is."""
        from vision.board_watch import BoardWatch
        from vision.calibrate import CalibrationError

        board = self.board
        if board is None or board.game != game:
            return None
        try:
            return BoardWatch(board.reader())
        except CalibrationError as e:
            log.warning("the board's camera cannot be set up: %s", e)
            return None

    @contextlib.contextmanager
    def laid_out(self, *, camels: bool = False) -> Iterator[None]:
        """Between two turns, the people lay out what a calibration step needs (every die in
        the roll zone; with `camels`, every camel alone on its own space), until the step is
        done; then the camels go back where the game has them."""
        with self._busy:
            laid = self.board if camels else self.stage
            if laid is None:
                yield
                return
            laid.lay_out()
            laid.wait_filmed(READ_TIME)
            if camels:
                self._pause(1.5, scaled=False)  # the board camera shows them still
            try:
                yield
            finally:
                if camels and self.board is not None:
                    self.board.place(track_stacks(self.table.snapshot.view["track"]))

    def calibrator(self, folder: Path) -> Calibrator:
        """The Calibrate page's calibrator of this rendered table, its state kept in `folder`:
        the dice camera and the board camera as `run` configures two cameras."""
        config = folder / "demo.toml"
        config.write_text(DEMO_CAMERAS)
        calibrator = _DemoCalibrator(self, config, folder / "calibration.toml")
        calibrator.camera, calibrator.board_camera = self.camera, self.board_camera
        return calibrator

    def __enter__(self) -> DemoTable:
        self.camera.attach(self.table)
        self.board_camera.attach(self.table, shown=False)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        if self._thread.is_alive():
            self._thread.join()
        self.camera.close()
        self.board_camera.close()
        self.panel.close()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()

    @property
    def is_playing(self) -> bool:
        """Whether the table's people are still at it (not stopped by an error)."""
        return self._thread.is_alive()

    # --- the table's people -----------------------------------------------------------

    def _play(self) -> None:
        played = 0
        try:
            while not self._stopping.is_set():
                with self._busy:
                    snapshot = self.table.snapshot
                    self._follow(snapshot)
                    view = snapshot.view
                    if view["board"]:
                        self._answer_board(snapshot)
                    elif view["finished"] and not view["legal"]:
                        played += 1
                        if self.games and played >= self.games:
                            break
                        self._pause(4.0)
                        self._new_game(snapshot)
                    elif view["pending"]:
                        self._check_pending(snapshot)
                    elif view["finished"]:
                        self._show_owner(snapshot)
                    else:
                        self._turn(snapshot)
                    self._keep_board(self.table.snapshot)
                trim_memory()  # frames drawn and read this turn, given back before the next
                self._pause(self.pace)
        except _Stopped:
            return
        except CompanionError as e:
            if not self.table.is_closed:
                log.exception("the demo table stopped playing: %s", e)
        for callback in self.when_done:
            callback()

    def _follow(self, snapshot: Snapshot) -> None:
        """Set the table for the game now played, if a new game of another one was started
        (on the New game page): its pieces, calibrated before it is filmed, as at set-up. A new
        game of the same one starts with the roll zone cleared."""
        game, played = snapshot.view["game"], len(snapshot.view["history"])
        was, self._played = self._played, played
        if game == self.stage.game:
            if was and not played:  # a new game of the same: the last one's pieces go
                self.stage.clear()
            return
        log.info("a game of %s was started: the table is set for it", game)
        stage = _stage(game, self.rng.randrange(2 ** 31), self.size)
        stage.settler()
        old, self.stage = self.stage, stage
        old.close()
        board, self.board = self.board, _board_stage(stage, self.rng.randrange(2 ** 31),
                                                     snapshot)
        if board is not None:
            board.close()
        # a table set anew is read as set up, whatever was calibrated on the one before
        self.camera.recalibrate(self._settler)
        self.board_camera.recalibrate(self.board_camera.make_settler, self._board_watch)
        self._deck, self._hands = [], {}

    def _turn(self, snapshot: Snapshot) -> None:
        game = snapshot.view["game"]
        if game == cards.GAME:
            self._cards_turn(snapshot)
        elif game == last_camel.GAME:
            self._cue(snapshot, self.stage.throw())
        else:
            self._board_turn(snapshot)

    def _board_turn(self, snapshot: Snapshot) -> None:
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
            self._cue(snapshot, self.stage.throw(self.rng.choice(view["dice_in_pyramid"])))
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

    def _cards_turn(self, snapshot: Snapshot) -> None:
        """Camel Up Cards: deal the leg's cards when it is set up, else reveal the deck's top
        card into the reveal zone, play a hand card, place a figure or bet, on a phone."""
        view = snapshot.view
        legal = view["legal"]
        if legal[0]["action"] == "leg_setup":
            self._set_up_leg(snapshot)
            return
        turn = view["turn"]
        hand = [line for line in legal if line["action"] == "play_hand"
                and line["camel"] in self._hands.get(turn, ())]
        others = {kind: [line for line in legal if line["action"] == kind]
                  for kind in ("place_figure", "leg_bet", "final_bet")}
        choice = self.rng.choices(
            ["reveal", "play_hand", *others],
            weights=[55 if self._deck else 0, 8 if hand else 0,
                     *((w if others[k] else 0) for k, w in zip(others, (8, 24, 5),
                                                                strict=True))])[0]
        if choice == "reveal":
            self._cue(snapshot, self.stage.lay(*self._deck.pop()))
        elif choice == "play_hand":
            line = self.rng.choice(hand)
            self._hands[turn].remove(line["camel"])
            self.table.push(line)
        else:
            self.table.push(self.rng.choice(others[choice]))

    def _set_up_leg(self, snapshot: Snapshot) -> None:
        """Gather up the last leg's cards, deal the racing cards, each player keeping some,
        putting some in the deck and showing one of those (intel); log the setup."""
        self.stage.clear()
        setup = snapshot.view["setup"]
        players = [p["name"] for p in snapshot.view["players"]]
        pack = list(cards.RACING_CARDS)
        self.rng.shuffle(pack)
        self._deck, self._hands, intel = [], {}, {}
        for k, player in enumerate(players):
            kept = pack[k * setup["dealt"]:][:setup["kept"]]
            into = kept[:setup["deck"] + setup["intel"]]
            self._deck += into
            if setup["intel"]:
                intel[player] = {"camel": into[0][0], "value": into[0][1]}
            self._hands[player] = [camel for camel, _ in kept[len(into):]]
        self.rng.shuffle(self._deck)
        self.table.push({"action": "leg_setup", "deck": len(self._deck), "intel": intel})

    def _show_owner(self, snapshot: Snapshot) -> None:
        """The Last Camel after the race: a player shows the camel on their owner card."""
        legal = snapshot.view["legal"]
        player = legal[0]["player"]
        self.table.push(self.rng.choice([line for line in legal if line["player"] == player]))

    def _cue(self, snapshot: Snapshot, truth: Any) -> None:
        """A die thrown (a racing card laid, the two colour dice thrown) on the stage: make
        sure the table got what it truly shows."""
        leg, actions = snapshot.view["leg"], len(snapshot.view["history"])
        while not self.stage.wait_filmed(0.2):
            if self._stopping.is_set():
                raise _Stopped
        after = self._wait(lambda s: len(s.view["history"]) > actions or bool(s.view["pending"]),
                           snapshot.version)
        if after is None:
            log.info("the camera did not read %s: logging it by hand", _words(truth))
            self.outcomes["logged"] += 1
            after = self.table.push(_line(snapshot, truth))
        elif after.view["pending"]:
            after = self._check_pending(after)
        elif not _shows(after.view["history"][-1]["action"], truth):
            after = self._fix_misread(snapshot, after, truth)
        else:
            self.outcomes["read"] += 1
        # the players move the camels as soon as the roll is in the game, before they take
        # the dice away: the table's board grace runs from then
        self._keep_board(self.table.snapshot)
        if hasattr(truth, "faces") or after.view["leg"] != leg or after.view["finished"]:
            self._pause(1.5)
            self.stage.clear()

    def _fix_misread(self, before: Snapshot, after: Snapshot, truth: Any) -> Snapshot:
        """The camera misread a die for sure: the players move the camels by what it truly
        shows, and take the board alert's one tap when it offers that roll; else (no board,
        no alert in time, another fix) they put the roll right on the page."""
        board, line = self.board, _line(before, truth)
        if board is not None and board.game == before.view["game"]:
            rules = rules_for(board.game)
            state = rules.apply(before.state, rules.parse_action(line))
            board.place(track_stacks(rules.state_json(state)["track"]))
            alert = self._wait(lambda s: bool(s.view["board"]), after.version, BOARD_TIME)
            fix = alert and alert.view["board"]["fix"]
            if fix and _shows(fix["action"], truth):
                log.info("the board shows the camera misread %s: one tap puts it right",
                         _words(truth))
                self.outcomes["fixed_by_board"] += 1
                return self.table.replace(fix["index"], fix["action"])
        log.info("the camera misread %s: putting it right", _words(truth))
        self.outcomes["replaced"] += 1
        return self.table.replace(len(before.view["history"]), line)

    def _keep_board(self, snapshot: Snapshot) -> None:
        """Move the camels on the board as the game has them now; now and then (`slip`) a
        camel is set down wrong, and the players wait for the board alert, then put it right
        (by hand after BOARD_TIME if none came)."""
        from vision.synth_board import slipped

        board = self.board
        if board is None or board.game != snapshot.view["game"]:
            return
        stacks = track_stacks(snapshot.view["track"])
        if stacks == board.stacks:
            return
        if not board.stacks or self.rng.random() >= self.slip:
            board.place(stacks)
            return
        log.info("a camel is set down wrong on the board")
        board.place(slipped(self.rng, stacks))
        alert = self._wait(lambda s: bool(s.view["board"]), snapshot.version, BOARD_TIME)
        if alert is not None:
            self._answer_board(alert, slip=True)
            return
        log.info("the camel set down wrong was not shown: putting it right")
        self.outcomes["slip_missed"] += 1
        board.place(stacks)

    def _answer_board(self, snapshot: Snapshot, *, slip: bool = False) -> None:
        """The board alert: the players look at the board, put it as the game has it and
        dismiss the alert (they set a camel down wrong, with `slip`; else the camera was
        wrong)."""
        alert = snapshot.view["board"]
        self._pause(1.5)
        if slip:
            log.info("the board alert shows the camel set down wrong: putting it right")
        else:
            log.warning("a board alert with the board as the game has it: %s",
                        alert["disagreements"])
        self.outcomes["slip_caught" if slip else "false_alert"] += 1
        if self.board is not None:
            self.board.place(track_stacks(snapshot.view["track"]))
        with contextlib.suppress(CompanionError):  # it went as the board was put right
            self.table.dismiss_board(alert["id"])

    def _check_pending(self, snapshot: Snapshot) -> Snapshot:
        """Look at the die the camera was unsure of: OK if the page has it right, NO if the
        die thrown is in the game already (a second, false reading: a side face, a speck, the
        die read again after a hand passed over it), else tap what it shows."""
        waiting = snapshot.view["pending"][0]
        thrown = self.stage.thrown[-1] if self.stage.thrown else None
        self._pause(1.5)
        now = self.table.snapshot
        # a die is thrown once a leg; a racing card or a pair of faces may come again
        again = hasattr(thrown, "colour") or not _shows(waiting, thrown)
        if thrown is None or (_played(now, thrown) and again):
            self.outcomes["rejected"] += 1
            return self.table.reject_pending()
        if hasattr(thrown, "faces"):
            # the camels a roll moves are chosen on a phone, with the faces it truly shows
            self.outcomes["confirmed" if _shows(waiting, thrown) else "corrected"] += 1
            return self.table.accept_pending(correction=_line(now, thrown))
        if _shows(waiting, thrown):
            before = now.version
            self._press("ok")
            after = self._wait(lambda s: not s.view["pending"], before)
            if after is not None:
                self.outcomes["confirmed"] += 1
                return after
        correction = {k: v for k, v in _line(now, thrown).items() if k not in ("player", "action")}
        self.outcomes["corrected"] += 1
        return self.table.accept_pending(correction=correction)

    def _new_game(self, snapshot: Snapshot) -> None:
        self.stage.clear()
        players = [p["name"] for p in snapshot.view["players"]]
        self.table.new_game(rules_for(snapshot.view["game"]).new_header(players, self.rng))

    # --- hands and time ---------------------------------------------------------------

    def _press(self, button: str) -> None:
        """Press a panel button as a finger does: down, a moment, up."""
        pin = self.pins.pin(self.pin_map.buttons[button])
        pin.drive_low()
        self._pause(PRESS_TIME, scaled=False)
        pin.drive_high()
        self._pause(0.2, scaled=False)

    def _wait(self, done: Callable[[Snapshot], bool], after: int,
              timeout: float = READ_TIME) -> Snapshot | None:
        """The first snapshot past version `after` for which `done` holds, or None within
        `timeout` seconds."""
        deadline = time.monotonic() + timeout
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


class _DemoCalibrator(Calibrator):
    """Calibrating the demo's rendered table from its Calibrate page, as a Pi's: the markers
    found in the camera's frame, the colours and the camels learned from what the demo's people
    lay out when the step is asked for, between two turns; saved, the cameras read with it."""

    def __init__(self, demo: DemoTable, config: Path, calibrated: Path) -> None:
        super().__init__(config, calibrated)
        self.demo = demo

    def learn_colours(self, game: str) -> dict[str, Any]:
        with self.demo.laid_out():
            return super().learn_colours(game)

    def learn_camels(self, game: str) -> dict[str, Any]:
        with self.demo.laid_out(camels=True):
            return super().learn_camels(game)


class _Stopped(CompanionError):
    """The demo was told to stop in the middle of a turn."""


class _Lens:
    """The demo's camera: the frames of whichever stage the table is set with now, numbered
    and timed as one film, so a new game's table is filmed on without a break."""

    def __init__(self, demo: DemoTable) -> None:
        self.demo = demo
        self.count = 0

    def read(self) -> Frame | None:
        from vision.sources import Frame

        frame = self.demo.stage.read()
        if frame is None:
            frame = self.demo.stage.read()  # the stage closed as the table was set anew
        if frame is None:
            return None
        self.count += 1
        return Frame(frame.image, (self.count - 1) / FPS, self.count - 1)

    def close(self) -> None:
        self.demo.stage.close()


class _BoardLens:
    """The demo's board camera: the frames of whichever board the table is set with now, as
    one film; a game without a board, an empty picture now and then (nothing to read)."""

    def __init__(self, demo: DemoTable) -> None:
        self.demo = demo
        self.count = 0

    def read(self) -> Frame | None:
        import numpy as np

        from vision.sources import Frame

        board = self.demo.board
        frame = None if board is None else board.read()
        if frame is None:
            time.sleep(1.0 / BOARD_FPS)
            frame = Frame(np.zeros((72, 128, 3), np.uint8), 0.0, 0)
        self.count += 1
        return Frame(frame.image, (self.count - 1) / BOARD_FPS, self.count - 1)

    def close(self) -> None:
        if self.demo.board is not None:
            self.demo.board.close()


def _board_stage(stage: Any, seed: int, snapshot: Snapshot) -> Any:
    """The board of `stage`'s table and its camera, if its game has one, the camels set up
    as the game on the table has them."""
    from vision.camels import CAMEL_SETS
    from vision.stage import BoardStage

    if stage.game not in CAMEL_SETS:
        return None
    board = BoardStage(stage, seed=seed, fps=BOARD_FPS)
    board.place(track_stacks(snapshot.view["track"]), hand=False)
    return board


def _line(snapshot: Snapshot, truth: Any) -> dict[str, Any]:
    """The action a die thrown (a card laid, a pair of colour dice) truly makes. A truth is
    one of vision.stage's: `Thrown` (a `colour`), `Laid` (a `camel`), `Rolled` (`faces`)."""
    player = snapshot.view["turn"]
    if hasattr(truth, "camel"):
        return {"player": player, "action": "reveal", "camel": truth.camel,
                "value": truth.value}
    if hasattr(truth, "faces"):
        faces = sorted(truth.faces, key=last_camel.FACES.index)
        ways = snapshot.view["rolls"][" ".join(faces)]
        return {"player": player, "action": "roll", "dice": faces,
                "moves": ways[0] if ways else []}
    line = {"player": player, "action": "roll", "die": truth.colour, "value": truth.value}
    if truth.numeral is not None:
        line["numeral"] = truth.numeral
    return line


def _shows(seen: dict[str, Any], truth: Any) -> bool:
    """Whether a roll, reveal or reading says what the thrown die (laid card) truly shows."""
    if hasattr(truth, "camel"):
        return seen.get("camel") == truth.camel and seen.get("value") == truth.value
    if hasattr(truth, "faces"):
        return sorted(seen.get("dice") or seen.get("faces") or [None], key=str) \
            == sorted(truth.faces)
    return (seen.get("die") == truth.colour and seen.get("value") == truth.value
            and (truth.numeral is None or seen.get("numeral") == truth.numeral))


def _played(snapshot: Snapshot, truth: Any) -> bool:
    """Whether the die thrown (card laid, pair thrown) is in the game already: a reading
    that still waits is then a second, false one."""
    view = snapshot.view
    if hasattr(truth, "colour"):
        return truth.colour not in view["dice_in_pyramid"]
    history = view["history"]
    return bool(history) and _shows(history[-1]["action"], truth)


def _words(truth: Any) -> str:
    if hasattr(truth, "camel"):
        return f"the racing card {truth.camel} +{truth.value}"
    if hasattr(truth, "faces"):
        return f"the dice ({' and '.join(truth.faces)})"
    return f"the {truth.colour} die"


def _stage(game: str, seed: int, size: tuple[int, int]) -> Any:
    from vision.stage import stage_for

    return stage_for(game, seed=seed, size=size, fps=FPS)
