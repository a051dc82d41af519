"""The table's camera: frames in, each settled die and each still board handed to the table,
the view for the pages.

The camera runs on a thread of its own and never touches the game: every die that comes to
rest is handed to the table as a `Seen` command, and the board, each time it has come to rest,
as a `BoardSeen`; the table decides what they mean. The camera
failing never stops the game. A source that cannot be opened, gives no frame or raises is
closed, the pages are told the camera is off, and it is opened again every `reopen_time`
seconds until it gives frames again.

Some failures only a new process mends: a camera that opens but fails `give_up_after` times
in a row, or a thread stuck inside the camera's driver past every timeout (it cannot be
stopped in Python, and a second thread could not open the camera it holds). The table's
heartbeat (`watch`) notices a camera that has given no sign for `stall_time` seconds. Either
way the camera is given up on (`has_failed`) and `when_failed` is called: `run` then exits
non-zero, and systemd starts the service again.

Frames are kept only as the latest one and turned into JPEG only when a page asks, once per
frame, so a table nobody is watching pays nothing for the view.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion import seams
from companion.advisor import return_large_blocks
from companion.board_check import track_stacks
from companion.errors import CompanionError
from companion.readings import CONFIDENT
from companion.table import BoardSeen, Command, Seen, Table, TableClosed

if TYPE_CHECKING:
    from vision.board_watch import BoardWatch
    from vision.calibrate import TableCalibration
    from vision.settle import Reading
    from vision.sources import Frame

log = logging.getLogger(__name__)

REOPEN_TIME = 3.0
"""Seconds between tries to open a camera that is off."""
STALL_TIME = 10.0
"""Seconds without a sign from the camera's thread after which it is taken to be stuck."""
GIVE_UP_AFTER = 10
"""Failures in a row of a camera that opened after which it is given up on: about 50 s of a
Pi camera timing out, so systemd's restarts stay well under its limit of five in 2 minutes."""

GREEN = (60, 200, 60)
AMBER = (0, 170, 250)
ZONE = (230, 200, 40)


class UnencodableFrame(CompanionError, RuntimeError):
    """A frame OpenCV could not turn into JPEG for the pages (one over 65,500 pixels a side)."""


class TableCamera:
    """A frame source watched for settled dice, on behalf of one table.

    `open_source()` gives a fresh frame source; `make_settler(game)` a fresh settler for the
    dice of the game on the table, or None when the camera has no dice of that game to read
    (it then only shows what it sees); `make_board(game)` a `vision.board_watch.BoardWatch`
    for the board of that game, or None when the camera does not read its board. A new game
    of another edition gets a new settler and watch. `pace` makes the thread wait for each
    frame's own time, for sources that would otherwise run as fast as they can (rendered
    frames, files); a live camera paces itself.
    """

    def __init__(self, open_source: Callable[[], seams.FrameSource],
                 make_settler: Callable[[str], seams.Settler | None], *,
                 make_board: Callable[[str], BoardWatch | None] | None = None,
                 pace: bool = False,
                 name: str = "the camera", when_off: str = "log rolls by hand",
                 reopen_time: float = REOPEN_TIME, stall_time: float = STALL_TIME,
                 give_up_after: int = GIVE_UP_AFTER) -> None:
        self.name = name
        """What the pages and the log call it ("the board camera" beside the dice's)."""
        self.when_off = when_off
        """What the players do while it is off, as the pages tell them."""
        self.open_source = open_source
        self.make_settler = make_settler
        self.make_board = make_board
        self.pace = pace
        self.reopen_time = reopen_time
        self.stall_time = stall_time
        self.give_up_after = give_up_after
        self.is_on = False
        """Whether frames are coming in now; read by the table for its pages."""
        self.has_failed = False
        """Whether the camera was given up on: only a new process can open it again."""
        self.when_failed: list[Callable[[str], None]] = []
        """Called with why, once, when the camera is given up on."""
        self._failures = 0
        self.source: seams.FrameSource | None = None
        """The frame source open now (calibration measures a Pi camera through it)."""
        self.table: Table | None = None
        self._generation = 0
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._frames = threading.Condition()
        self._frame: tuple[int, Any, list[Reading], TableCalibration | None] | None = None
        self._jpeg: tuple[int, bytes] | None = None
        self._last_sign = time.monotonic()
        self._settler: seams.Settler | None = None
        self._settler_game: str | None = None
        self._board: BoardWatch | None = None
        self._board_game: str | None = None
        self._board_frame: tuple[Any, bytes | None] | None = None
        self._board_read: tuple[str, list[dict[str, Any]]] | None = None
        self._held_until = 0.0

    def attach(self, table: Table, *, shown: bool = True) -> TableCamera:
        """Start watching for `table`: it keeps watch over this camera, shows it on its pages
        when `shown` (a table's second camera, on the board alone, is not), and shows its
        picture of the board beside a board alert when it reads the board."""
        return_large_blocks()  # frames are large and short-lived
        self.table = table
        if shown:
            table.camera = self
        if self.make_board is not None:
            table.board_camera = self
        table.heartbeat.append(self.watch)
        self._start()
        return self

    def __enter__(self) -> TableCamera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the thread and close the source; safe to call twice."""
        self._stopping.set()
        if self.table is not None and self.watch in self.table.heartbeat:
            self.table.heartbeat.remove(self.watch)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread() \
                and not self.has_failed:
            thread.join(self.stall_time)
        with self._frames:
            self._frames.notify_all()

    def recalibrate(self, make_settler: Callable[[str], seams.Settler | None],
                    make_board: Callable[[str], BoardWatch | None] | None = None) -> None:
        """Read with a new settler and board watch (a new calibration) from the next frame."""
        self.make_settler, self.make_board = make_settler, make_board
        self._settler = self._board = self._board_game = None

    def hold(self, seconds: float) -> None:
        """Hand the table nothing seen for `seconds` from now (0: hand it on again from now):
        the dice and camels laid out for calibration are neither a roll nor a board to check.
        The pages are told once, when the hold begins."""
        was = self.is_holding
        self._held_until = time.monotonic() + seconds
        if seconds > 0 and not was:
            self._announce(f"{self.name} is being calibrated: {self.when_off} until it is "
                           "saved")

    @property
    def is_holding(self) -> bool:
        """Whether what is seen is kept from the table now (see `hold`)."""
        return time.monotonic() < self._held_until

    @property
    def is_alive(self) -> bool:
        """Whether the camera's thread still answers (with frames or without): what the
        service's watchdog asks of it."""
        return not self.has_failed and (self._stopping.is_set()
                                        or time.monotonic() - self._last_sign < self.stall_time)

    def watch(self) -> None:
        """The table's heartbeat: give up on a camera whose thread is stuck for `stall_time`."""
        if not self._stopping.is_set() and not self.has_failed and not self.is_alive:
            self._fail(f"{self.name} gave no sign for {self.stall_time:g} s")

    def latest(self) -> tuple[int, Any] | None:
        """The latest frame as it came (a BGR array) with its number, for calibration."""
        with self._frames:
            return None if self._frame is None else (self._frame[0], self._frame[1])

    def wait_for_frame(self, after: int, timeout: float) -> tuple[int, bytes] | None:
        """The first frame numbered above `after`, as JPEG with what the reader found drawn
        on it; None if none comes within `timeout` seconds or the camera is closed."""
        with self._frames:
            self._frames.wait_for(lambda: self._stopping.is_set() or (
                self._frame is not None and self._frame[0] > after), timeout)
            frame = self._frame
            if frame is None or frame[0] <= after:
                return None
            if self._jpeg is None or self._jpeg[0] != frame[0]:
                self._jpeg = (frame[0], _annotated_jpeg(*frame[1:]))
            return self._jpeg

    def board_stacks(self) -> tuple[str, list[dict[str, Any]]] | None:
        """The board as last read still: the game whose camels were looked for, and the
        stacks (`vision.board`'s JSON: space, camels bottom to top with None for one not
        seen, confidence); None before the first reading. What a new game may start from."""
        with self._frames:
            return self._board_read

    def board_picture(self) -> bytes | None:
        """The frame the board was last read from, as JPEG; None before the first reading."""
        with self._frames:
            if self._board_frame is None:
                return None
            image, jpeg = self._board_frame
            if jpeg is None:
                jpeg = _jpeg(image)
                self._board_frame = (image, jpeg)
            return jpeg

    def _start(self) -> None:
        self._generation += 1
        self._last_sign = time.monotonic()
        self._thread = threading.Thread(target=self._run, args=(self._generation,),
                                        name=f"camera-{self._generation}", daemon=True)
        self._thread.start()

    def _is_current(self, generation: int) -> bool:
        return generation == self._generation and not self._stopping.is_set()

    def _run(self, generation: int) -> None:
        source = None
        started = None
        try:
            while self._is_current(generation):
                self._last_sign = time.monotonic()
                if source is None:
                    source, started = self._open(), None
                    if source is None:
                        self._stopping.wait(self.reopen_time)
                        continue
                try:
                    frame = source.read()
                    taken = time.monotonic()
                except Exception as e:
                    log.warning("%s failed: %s", self.name, e)
                    frame = None
                if not self._is_current(generation):
                    return
                if frame is None:
                    _close(source)
                    source = self.source = None
                    self._failures += 1
                    if self._failures >= self.give_up_after:
                        self._fail(f"{self.name} failed {self._failures} times in a row")
                        return
                    self._went_off(f"{self.name} gives no picture: {self.when_off}; it is "
                                   "tried again every few seconds")
                    self._stopping.wait(self.reopen_time)
                    continue
                self._failures = 0
                started = self._wait_for(frame.time, started)
                self._look(frame, taken)
                self._went_on()
        finally:
            if source is not None:
                _close(source)

    def _open(self) -> seams.FrameSource | None:
        try:
            source = self.open_source()
        except Exception as e:
            self._went_off(f"{self.name} cannot be opened ({e}): {self.when_off}; it is "
                           "tried again every few seconds")
            return None
        self._settler = None
        self.source = source
        return source

    def _wait_for(self, at: float, started: float | None) -> float:
        """With `pace`, sleep until the frame's own time; returns when the film started."""
        now = time.monotonic()
        if not self.pace:
            return now
        if started is None:
            return now - at
        self._stopping.wait(max(0.0, started + at - now))
        return started

    def _look(self, frame: Frame, taken: float) -> None:
        """Hand the table what `frame` shows (taken when time.monotonic() was `taken`): each
        die that settled, the board come to rest; keep it for the pages."""
        assert self.table is not None
        game = self.table.snapshot.view["game"]
        if self._settler is None or game != self._settler_game:
            self._settler, self._settler_game = self.make_settler(game), game
        settler = self._settler
        if settler is not None:
            for event in settler.feed(frame.image, frame.time):
                if event.kind == "landed":
                    self._hand_in(Seen(event.reading.to_json()))
        self._watch_board(game, frame.image, frame.time, taken)
        with self._frames:
            self._frame = (frame.index, frame.image,
                           [] if settler is None else list(settler.dice),
                           None if settler is None else settler.reader.table)
            self._frames.notify_all()

    def _watch_board(self, game: str, image: Any, at: float, taken: float) -> None:
        """Hand the table the board each time it has come to rest (`image`, the frame of
        time `at`, taken when time.monotonic() was `taken`), read against the track the game
        has now, with how long it has been still and where each space is in the picture, and
        keep that frame for the pages."""
        if self.make_board is None:
            return
        if game != self._board_game:
            self._board, self._board_game = self.make_board(game), game
        if self._board is None:
            return
        assert self.table is not None
        track = self.table.snapshot.view.get("track") or {}
        reading = self._board.feed(image, at, track_stacks(track))
        if reading is None:
            return
        read = reading.to_json()
        with self._frames:
            self._board_frame = (image, None)
            self._board_read = (game, read["stacks"])
        watch = self._board
        picture = {"size": [image.shape[1], image.shape[0]],
                   "spaces": {str(k): v for k, v in watch.reader.space_outlines().items()}}
        self._hand_in(BoardSeen({**read, "picture": picture, "against": track,
                                 "still": round(at - watch.still_since, 2)}, taken))

    def _hand_in(self, command: Command) -> None:
        """Give what was seen to the table without waiting (the camera never blocks on it),
        unless it is held."""
        assert self.table is not None
        if self.is_holding:
            return
        try:
            self.table.submit(command)
        except TableClosed:
            self._stopping.set()

    def _fail(self, why: str) -> None:
        """Give the camera up: its thread ends, and `when_failed` hears why."""
        self.has_failed = True
        self._generation += 1
        log.error("%s: giving %s up", why, self.name)
        self._went_off(f"{why}: {self.name} is given up until the table starts again")
        for callback in list(self.when_failed):
            callback(why)

    def _went_on(self) -> None:
        if not self.is_on:
            self.is_on = True
            self._announce(f"{self.name} is on")

    def _went_off(self, why: str) -> None:
        if self.is_on or self._frame is None:
            log.warning("%s", why)
        was_on = self.is_on
        self.is_on = False
        if was_on:
            self._announce(why)

    def _announce(self, text: str) -> None:
        if self.table is not None and not self.table.is_closed:
            with contextlib.suppress(TableClosed):
                self.table.announce(text)


def _close(source: seams.FrameSource) -> None:
    try:
        source.close()
    except Exception as e:
        log.warning("the camera did not close cleanly: %s", e)


def _label(reading: dict[str, Any]) -> tuple[list[str | None], str, bool]:
    """What a reading says, as drawn beside it in no language: the colours read, each as a
    swatch (a die's or a card's camel, the grey die's numeral, a face; None: not read), then
    the value and how sure ("2 97%", "? 40%"), and whether every part of it was read."""
    if "face" in reading:
        colours, values = [reading["face"]], []
    else:
        colours = [reading[key] for key in ("die", "camel") if key in reading]
        colours += [reading["numeral"]] if "numeral" in reading else []
        values = [reading["value"]] if "value" in reading else []
    shown = ["?" if v is None else f"+{v}" if "camel" in reading else str(v) for v in values]
    text = " ".join([*shown, f"{reading['confidence']:.0%}"])
    return colours, text, None not in colours + values


@dataclass(frozen=True)
class Mark:
    """One thing found in a frame, as drawn on it: its box (x0, y0, x1, y1), its colours as
    swatches (None: not read), words of no language beside them (a value, how sure), and
    whether it was read for sure (boxed green) or not (amber)."""

    box: tuple[int, int, int, int]
    colours: Sequence[str | None]
    text: str = ""
    sure: bool = True


def annotated_jpeg(image: Any, marks: Sequence[Mark], zone: Any = None) -> bytes:
    """The frame as JPEG with the roll zone (its corners in pixels; None: not calibrated)
    and each thing found boxed with its `Mark`: no words, so every phone reads it in its own
    language, in letters a phone's screen shows (they grow with the frame)."""
    import cv2
    import numpy as np

    out = image.copy()
    scale = max(1.0, out.shape[1] / 640)
    size = int(14 * scale)
    if zone is not None:
        cv2.polylines(out, [np.asarray(zone, np.int32).reshape(-1, 1, 2)], True, ZONE, 2)
    for mark in marks:
        x0, y0, x1, y1 = (int(v) for v in mark.box)
        colour = GREEN if mark.sure else AMBER
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, 2)
        x, y = x0, max(size + 2, y0 - 4)
        for name in mark.colours:
            swatch = (x, y - size, x + size, y)
            if name is not None:
                cv2.rectangle(out, swatch[:2], swatch[2:], _bgr(name), -1)
            cv2.rectangle(out, swatch[:2], swatch[2:], colour, 1)
            x += size + 3
        if mark.text:
            cv2.putText(out, mark.text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, colour,
                        max(1, int(scale)), cv2.LINE_AA)
    return _jpeg(out)


def _annotated_jpeg(image: Any, dice: list[Reading], table: TableCalibration | None) -> bytes:
    """The frame as JPEG with the roll zone and each die or card the reader found, what was
    read of it and how sure (`annotated_jpeg`)."""
    marks = []
    for reading in dice:
        colours, text, read = _label(reading.to_json())
        marks.append(Mark(reading.box, colours, text, read and reading.confidence >= CONFIDENT))
    return annotated_jpeg(image, marks, None if table is None else table.zone)


def _jpeg(image: Any) -> bytes:
    """`image` (BGR) as JPEG, as the pages are sent it. An OpenCV that cannot encode it
    answers False or raises, as its version has it (4.6, the Pi's, raises)."""
    import cv2

    try:
        ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    except cv2.error:
        ok = False
    if not ok:
        raise UnencodableFrame("the frame could not be encoded as JPEG")
    return buffer.tobytes()


def _bgr(name: str) -> tuple[int, int, int]:
    """The colour a swatch of `name` is drawn in: the dice's, the camels' and the faces' own
    (vision's nominal colours), grey for a name vision does not know."""
    return _swatches().get(name, (128, 128, 128))


@functools.cache
def _swatches() -> dict[str, tuple[int, int, int]]:
    """Every colour vision knows by name, gathered once."""
    from vision.camels import CAMEL_SETS
    from vision.dicesets import DICE_SETS, LAST_CAMEL

    colours = {d.colour: d.body_bgr for dice in DICE_SETS.values() for d in dice.dice}
    colours.update(c for camels in CAMEL_SETS.values() for c in camels.camels)
    colours.update((f.name, f.bgr) for f in LAST_CAMEL.faces)
    return colours
