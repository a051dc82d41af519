"""The button panel: what players log by hand, and the table's answer in light and sound.

A colour button takes that camel's top leg betting tile for the player to act; WINNER or
LOSER then a colour lays an overall bet; OK and NO settle the oldest reading the camera is
unsure of; UNDO held for a second takes back the last action. The panel never touches the
game: every press is a request to the table, and its answer (the new snapshot, or a one-line
refusal) comes back as a short blink and beep, or a different one.

Gestures (debouncing, holds, WINNER-then-colour) and the lengths of blinks all run on one
clock the panel is given and advance only when it ticks, so tests drive time by hand; a real
panel ticks itself from a thread. gpiozero's default pin factory (lgpio on a Pi 5) is only
chosen when the first device is made, so nothing Pi-only is imported here.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import tomllib
from collections import deque
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gpiozero import LED, Buzzer, DigitalInputDevice

from companion.errors import CompanionError

log = logging.getLogger(__name__)

COLOURS = ("blue", "green", "orange", "yellow", "white", "red", "purple")
"""Every camel colour of both editions; a panel wires the ones it has."""
PILES = ("winner", "loser")
BUTTONS = (*COLOURS, *PILES, "ok", "no", "undo")
LIGHTS = ("accepted", "refused", "pending")
HEADER_GPIOS = range(28)
"""GPIO 0 to 27: the ones on the 40-pin header of every Pi since the B+."""

TICK_TIME = 0.01
"""Seconds between ticks of a panel that ticks itself."""

Pattern = tuple[float, ...]
"""Seconds on, off, on, ... played once from a moment on the panel's clock."""

ACCEPTED_LIGHT: Pattern = (0.3,)
ACCEPTED_SOUND: Pattern = (0.08,)
REFUSED_LIGHT: Pattern = (0.15, 0.1, 0.15, 0.1, 0.15)
REFUSED_SOUND: Pattern = (0.08, 0.08, 0.08, 0.08, 0.08)
WAITING_SOUND: Pattern = (0.4,)
"""One long tone: the camera has a reading it is not sure of, waiting for OK or NO."""
ARMED_BLINK = (0.25, 0.25)
"""The accepted light, on then off, over and over while an overall bet waits for its camel."""


class BadPinMap(CompanionError, ValueError):
    """A pin map that names an unknown button, reuses a pin or holds a bad setting."""


@dataclass(frozen=True)
class PinMap:
    """Which GPIO (BCM numbers) each button, light and the buzzer uses, and the panel's timing.

    Only the buttons and lights a panel has are named; the buzzer is optional.
    """

    buttons: Mapping[str, int]
    lights: Mapping[str, int] = field(default_factory=dict)
    buzzer: int | None = None
    pull_up: bool = True
    """True: each button joins its GPIO to ground and the Pi's pull-up holds it high."""
    bounce_time: float = 0.03
    """A contact counts as made (or broken) once it has stayed so this long."""
    hold_time: float = 1.0
    """How long UNDO is held to undo."""
    overall_bet_time: float = 5.0
    """How long a WINNER or LOSER press waits for its colour."""

    def __post_init__(self) -> None:
        for kind, names, known in (("button", self.buttons, BUTTONS),
                                   ("light", self.lights, LIGHTS)):
            for name in names:
                if name not in known:
                    raise BadPinMap(f"no {kind} is called {name!r}: "
                                    f"the {kind}s are {', '.join(known)}")
        wired = [*((f"the {n} button", p) for n, p in self.buttons.items()),
                 *((f"the {n} light", p) for n, p in self.lights.items()),
                 *((("the buzzer", self.buzzer),) if self.buzzer is not None else ())]
        used: dict[int, str] = {}
        for what, pin in wired:
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in HEADER_GPIOS:
                raise BadPinMap(f"{what} needs a GPIO number from 0 to 27, not {pin!r}")
            if pin in used:
                raise BadPinMap(f"GPIO{pin} is given to both {used[pin]} and {what}: "
                                "each needs its own")
            used[pin] = what
        if not isinstance(self.pull_up, bool):
            raise BadPinMap(f"pull_up is true or false, not {self.pull_up!r}")
        for name, least in (("bounce_time", "0 or more"), ("hold_time", "above 0"),
                            ("overall_bet_time", "above 0")):
            seconds = getattr(self, name)
            if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
                    or not 0 <= seconds < math.inf or (seconds == 0 and least == "above 0"):
                raise BadPinMap(f"{name} is a number of seconds {least}, not {seconds!r}")
        object.__setattr__(self, "buttons", MappingProxyType(dict(self.buttons)))
        object.__setattr__(self, "lights", MappingProxyType(dict(self.lights)))

    @classmethod
    def from_toml(cls, path: str | Path) -> PinMap:
        """The pin map in a TOML file such as firmware_config/buttons.toml."""
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise BadPinMap(f"{path}: {e}") from None
        try:
            return cls.from_mapping(data)
        except BadPinMap as e:
            raise BadPinMap(f"{path}: {e}") from None

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PinMap:
        """The pin map from its TOML form, every key checked."""
        known = {"buttons", "lights", "buzzer", "pull_up", "bounce_time", "hold_time",
                 "overall_bet_time"}
        for key in data:
            if key not in known:
                raise BadPinMap(f"unknown setting {key!r}: the settings are "
                                f"{', '.join(sorted(known))}")
        if "buttons" not in data:
            raise BadPinMap("[buttons] is missing: name each button the panel has and its GPIO")
        for table in ("buttons", "lights"):
            if not isinstance(data.get(table, {}), Mapping):
                raise BadPinMap(f"[{table}] is a table of names and GPIO numbers")
        return cls(**data)


@dataclass(frozen=True)
class Gesture:
    """A debounced happening on one button, stamped with the moment the contact made or broke
    (a hold: the moment it had been held for `hold_time`)."""

    button: str
    kind: str
    """`pressed`, `held` or `released`."""
    at: float


class Contact:
    """One button's contact as the panel understands it: debounced, with its hold.

    A change of level counts once the level has stayed `bounce_time`; a shorter blip is
    ignored. A button already down when the panel starts counts only once it has been let go.
    """

    def __init__(self, button: str, *, is_closed: bool, at: float, bounce_time: float,
                 hold_time: float) -> None:
        self.button = button
        self.bounce_time = bounce_time
        self.hold_time = hold_time
        self.level = is_closed
        """The contact as last seen, bounces and all."""
        self.is_held = False
        self._level_since = at
        self._settled = is_closed
        self._ignored = is_closed
        self._pressed_at = at

    @property
    def is_pressed(self) -> bool:
        return self._settled and not self._ignored

    def change(self, is_closed: bool, at: float) -> list[Gesture]:
        """The contact was seen made (or broken) at `at`: the gestures settled before then."""
        gestures = self.advance(at)
        if is_closed != self.level:
            self.level, self._level_since = is_closed, at
        return gestures

    def advance(self, now: float) -> list[Gesture]:
        """The gestures settled by `now`, in order."""
        gestures = []
        while (gesture := self._next(now)) is not None:
            gestures.append(gesture)
        return gestures

    def _next(self, now: float) -> Gesture | None:
        if self.is_pressed and not self.is_held:
            held_at = self._pressed_at + self.hold_time
            broke_before = not self.level and self._level_since <= held_at
            if held_at <= now and not broke_before:
                self.is_held = True
                return Gesture(self.button, "held", held_at)
        if self.level == self._settled or now - self._level_since < self.bounce_time:
            return None
        self._settled = self.level
        if self._ignored:
            self._ignored = False
            return None
        self.is_held = False
        if self._settled:
            self._pressed_at = self._level_since
            return Gesture(self.button, "pressed", self._level_since)
        return Gesture(self.button, "released", self._level_since)


class Signal:
    """A light or the buzzer: a pattern played once over a steady state, on the panel's clock.

    `device` is a gpiozero output device, or None when the panel has no such part.
    """

    def __init__(self, device: LED | Buzzer | None) -> None:
        self.device = device
        self._pattern: Pattern = ()
        self._from = 0.0

    def play(self, pattern: Pattern, at: float) -> None:
        self._pattern, self._from = pattern, at

    def show(self, now: float, *, steady: bool = False) -> None:
        """Turn the part on or off as it should be at `now`."""
        if self.device is None:
            return
        is_on = steady
        elapsed = now - self._from
        if 0 <= elapsed < sum(self._pattern):
            for index, seconds in enumerate(self._pattern):
                if elapsed < seconds:
                    is_on = index % 2 == 0
                    break
                elapsed -= seconds
        if self.device.is_active != is_on:
            self.device.value = is_on


class Panel:
    """The buttons beside the table, their lights and buzzer. A context manager; `close()` is
    idempotent.

    `table` is anything with the table's `snapshot`, `is_closed`, `act`, `announce`, `undo`,
    `accept_pending` and `reject_pending`. `clock` gives seconds (monotonic). With `tick_time`
    None nothing ticks the panel but its caller, who calls `tick()`; otherwise a thread ticks
    it that often.
    `pin_factory` is gpiozero's (None: its default, lgpio on a Pi 5).
    """

    def __init__(self, table: Any, pin_map: PinMap, *,
                 clock: Callable[[], float] = time.monotonic,
                 tick_time: float | None = TICK_TIME, pin_factory: Any = None) -> None:
        self.table = table
        self.pin_map = pin_map
        self.clock = clock
        self.tick_time = tick_time
        self.when_refused: list[Callable[[str], None]] = []
        """Called with the one-line reason whenever a press is refused (on the ticking thread);
        the panel itself shows every page the button and the reason."""
        self._devices = ExitStack()
        self._inputs: dict[str, DigitalInputDevice] = {}
        self._contacts: dict[str, Contact] = {}
        self._edges: deque[tuple[str, bool, float]] = deque()
        self._pile: str | None = None
        self._pile_at = 0.0
        self._pending: set[Any] = set()
        self._stopping = threading.Event()
        self._ticker: threading.Thread | None = None
        self._tick_failed = False
        self._is_closed = False
        try:
            now = clock()
            for name, pin in pin_map.buttons.items():
                button = self._devices.enter_context(DigitalInputDevice(
                    pin, pull_up=pin_map.pull_up, pin_factory=pin_factory))
                button.when_activated = partial(self._edge, name, True)
                button.when_deactivated = partial(self._edge, name, False)
                self._inputs[name] = button
                self._contacts[name] = Contact(name, is_closed=button.is_active, at=now,
                                               bounce_time=pin_map.bounce_time,
                                               hold_time=pin_map.hold_time)
            self.lights = {name: Signal(self._output(LED, pin_map.lights.get(name), pin_factory))
                           for name in LIGHTS}
            self.buzzer = Signal(self._output(Buzzer, pin_map.buzzer, pin_factory))
            if tick_time is not None:
                self._ticker = threading.Thread(target=self._tick_until_closed,
                                                args=(tick_time,), name="buttons",
                                                daemon=True)
                self._ticker.start()
        except BaseException:
            self.close()
            raise

    def _output(self, kind: type[LED | Buzzer], pin: int | None,
                pin_factory: Any) -> LED | Buzzer | None:
        """The light or buzzer on `pin` (None: the panel has none), switched off on close."""
        if pin is None:
            return None
        device = self._devices.enter_context(kind(pin, pin_factory=pin_factory))
        self._devices.callback(device.off)
        return device

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop ticking, put the lights and buzzer out and free the pins; safe to call twice."""
        self._stopping.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join()
        self._is_closed = True
        self._devices.close()

    @property
    def is_closed(self) -> bool:
        return self._is_closed

    @property
    def overall_bet_pile(self) -> str | None:
        """`winner` or `loser` while a WINNER or LOSER press waits for its colour, else None."""
        return self._pile

    def tick(self) -> None:
        """Settle what the buttons did up to now, ask the table, and set the lights and buzzer."""
        if self._is_closed:
            return
        now = self.clock()
        gestures = []
        while self._edges:
            name, is_closed, at = self._edges.popleft()
            gestures += self._contacts[name].change(is_closed, at)
        for name, contact in self._contacts.items():
            if self._inputs[name].is_active != contact.level:
                gestures += contact.change(not contact.level, now)
            gestures += contact.advance(now)
        for gesture in sorted(gestures, key=lambda g: g.at):
            self._give_up_waiting(gesture.at)
            self._on(gesture)
        self._give_up_waiting(now)
        self._show(self.clock())

    def _edge(self, name: str, is_closed: bool) -> None:
        """gpiozero saw a pin change (on its own thread): stamp it now, settle it on a tick."""
        self._edges.append((name, is_closed, self.clock()))

    def _on(self, gesture: Gesture) -> None:
        button = gesture.button
        if gesture.kind == "held" and button == "undo":
            self._pile = None
            self._ask(button, "undo", self.table.undo)
        elif gesture.kind != "pressed" or button == "undo":
            return
        elif button in PILES:
            if self._pile is not None:
                self._accept(button, f"overall bet on the {self._pile} pile cancelled")
                self._pile = None
            elif not self._is_race_over(button):
                self._pile, self._pile_at = button, gesture.at
                self._accept(button, f"the {button} pile waits for its camel")
        elif button in COLOURS:
            pile, self._pile = self._pile, None
            self._bet(button, pile)
        elif self._pile is not None:
            if button == "no":
                self._accept(button, f"overall bet on the {self._pile} pile cancelled")
                self._pile = None
            else:
                self._refuse(button, "an overall bet waits for its camel: press a colour, "
                                     "or NO to cancel it")
        elif button == "ok":
            self._ask(button, "reading accepted", self.table.accept_pending)
        else:
            self._ask(button, "reading rejected", self.table.reject_pending)

    def _bet(self, camel: str, pile: str | None) -> None:
        """A leg bet on `camel` for the player to act, or an overall bet on `pile`."""
        if self._is_race_over(camel):
            return
        view = self.table.snapshot.view
        if camel not in view["leg_bets_left"]:
            self._refuse(camel, f"{view['game']} has no {camel} racing camel to bet on")
            return
        if pile is None:
            line = {"action": "leg_bet", "camel": camel}
            done = f"the player to act took the top {camel} leg betting tile"
        else:
            line = {"action": "race_bet", "pile": pile, "camel": camel}
            done = f"the player to act laid an overall bet on the {pile} pile"
        self._ask(camel, done, partial(self.table.act, line))

    def _is_race_over(self, button: str) -> bool:
        if self.table.snapshot.view["turn"] is None:
            self._refuse(button, "the race is over: nothing more can be bet")
            return True
        return False

    def _ask(self, button: str, done: str, request: Callable[[], Any]) -> None:
        """Ask the table, and answer the press with what it said."""
        try:
            request()
        except CompanionError as e:
            self._refuse(button, str(e))
        except Exception:
            log.exception("the table could not answer the %s button", button)
            self._refuse(button, "the table could not answer: see the log")
        else:
            self._accept(button, done)

    def _accept(self, button: str, done: str) -> None:
        log.info("%s button: %s", button.upper(), done)
        now = self.clock()
        self.lights["accepted"].play(ACCEPTED_LIGHT, now)
        self.buzzer.play(ACCEPTED_SOUND, now)

    def _refuse(self, button: str, reason: str) -> None:
        log.warning("%s button refused: %s", button.upper(), reason)
        if not self.table.is_closed:
            self.table.announce(f"{button.upper()} button: {reason}")
        now = self.clock()
        self.lights["refused"].play(REFUSED_LIGHT, now)
        self.buzzer.play(REFUSED_SOUND, now)
        for callback in list(self.when_refused):
            try:
                callback(reason)
            except Exception:
                log.exception("a refusal subscriber failed")

    def _give_up_waiting(self, now: float) -> None:
        """An overall bet not given its colour in time is not laid: a refusal says so."""
        if self._pile is not None and now - self._pile_at >= self.pin_map.overall_bet_time:
            pile, self._pile = self._pile, None
            self._refuse(pile, f"no camel chosen within {self.pin_map.overall_bet_time:g} s "
                               f"of {pile.upper()}: no overall bet was laid")

    def _show(self, now: float) -> None:
        pending = {reading["id"] for reading in self.table.snapshot.view["pending"]}
        if pending - self._pending:
            self.buzzer.play(WAITING_SOUND, now)
        self._pending = pending
        on, off = ARMED_BLINK
        self.lights["accepted"].show(now, steady=self._pile is not None
                                     and (now - self._pile_at) % (on + off) < on)
        self.lights["refused"].show(now)
        self.lights["pending"].show(now, steady=bool(pending))
        self.buzzer.show(now)

    def _tick_until_closed(self, tick_time: float) -> None:
        while not self._stopping.wait(tick_time):
            try:
                self.tick()
            except Exception:
                if not self._tick_failed:
                    log.exception("the button panel could not tick; it keeps trying")
                self._tick_failed = True
            else:
                if self._tick_failed:
                    log.info("the button panel ticks again")
                self._tick_failed = False
