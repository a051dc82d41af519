"""A rendered table where dice are thrown and picked up on cue: the demo's camera.

`Stage` is a frame source like a real camera's: it gives one frame after another of the same
table, and what lies in the roll zone changes only when someone acts. Whoever plays the demo's
table says `throw("blue")` when a die falls out of the pyramid and `clear()` when the leg's
dice go back; the stage films the die tumbling in and coming to rest, hands passing now and
then, the dice picked up. It knows nothing of the rules: it throws whichever die it is told.

Now and then (`hard_share` of the throws) the light drops, as at a real table when a cloud
passes or someone leans over the lamp, and stays low until the leg's dice are picked up: the
reader may be unsure of the dice that land in it, and the table then asks a person. Which
readings end up doubtful is the reader's own verdict on those frames, never decided here.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from dataclasses import dataclass, replace

import numpy as np

from vision.calibrate import calibrate_table, learn_colours
from vision.dice import DiceReader
from vision.dicesets import DieSpec
from vision.settle import Settler
from vision.sources import Frame, FrameSource
from vision.synth import (
    DiePose,
    Hand,
    Light,
    RenderedFrame,
    Table,
    calibration_frame,
    hand_near,
    hand_pass,
    random_light,
    random_table,
    render,
    throw_path,
)


@dataclass(frozen=True)
class Thrown:
    """What a thrown die truly shows, for whoever checks the table's reading of it."""

    colour: str
    value: int
    numeral: str | None
    dim: bool


@dataclass(frozen=True)
class _Shot:
    """One frame to film: what lies on the table and what moves over it."""

    dice: tuple[DiePose, ...]
    hands: tuple[Hand, ...] = ()
    moving: tuple[tuple[float, float], ...] = ()
    dim: bool = False


class Stage(FrameSource):
    """Frames of one rendered table whose dice come and go on cue. Thread-safe: cues may come
    from any thread while the camera's thread reads frames."""

    def __init__(self, game: str = "camelup-2014", *, seed: int = 0,
                 size: tuple[int, int] = (640, 480), fps: float = 15.0,
                 hard_share: float = 0.12, light: str = "neutral") -> None:
        self.game = game
        self.fps = fps
        self.hard_share = hard_share
        self._rng = np.random.default_rng(seed)
        """Decides what happens (where a die lands, which face): the same cues, the same dice."""
        self._noise = np.random.default_rng(seed + 1)
        """Decides each frame's grain and the idle hands, however many frames are read."""
        self.table: Table = random_table(seed, game, size=size, jitter=False)
        self.light: Light = random_light(self._rng, light)
        self._dim_light = replace(random_light(self._rng, "dim"),
                                  strength=self.light.strength * 0.38)
        self._dim = False
        self._resting: list[DiePose] = []
        self._film: deque[_Shot] = deque()
        self._filmed = threading.Event()
        self._filmed.set()
        self._lock = threading.Lock()
        self._count = 0
        self._closed = False
        self.last: RenderedFrame | None = None
        self._reader: DiceReader | None = None
        self.thrown: list[Thrown] = []
        """Every die thrown, as it truly lies, in order."""

    def settler(self) -> Settler:
        """A fresh settler reading this stage's dice, calibrated as a table is at set-up (the
        board's markers found in a frame, then the colours of every die laid in the roll
        zone), once per stage."""
        if self._reader is None:
            table = calibrate_table(self.read().image, self.table.layout)
            colours = learn_colours(self.calibration_frame().image, self.table.dice,
                                    table=table)
            self._reader = DiceReader(self.table.dice, colours, table=table)
        return Settler(self._reader, zone=self._reader.table.zone)

    def calibration_frame(self) -> RenderedFrame:
        """Every die of the game laid in the roll zone under the table's light, for the colour
        calibration a table does at set-up."""
        return calibration_frame(self.table, self.light, int(self._rng.integers(0, 2 ** 31)))

    def throw(self, colour: str) -> Thrown:
        """Film the die `colour` falling into the roll zone, a face at random up."""
        spec = next((d for d in self.table.dice.dice if d.colour == colour), None)
        if spec is None:
            raise ValueError(f"{self.game} has no {colour} die")
        with self._lock:
            self._dim = self._dim or bool(self._rng.random() < self.hard_share)
            final = self._place(spec)
            path = throw_path(self._rng, self.table.layout, final, steps=10)
            still = tuple(self._resting)
            for pose, motion in path:
                self._film.append(_Shot((*still, pose), moving=((0.0, 0.0),) * len(still)
                                        + (motion,), dim=self._dim))
            self._resting.append(final)
            for _ in range(12):
                self._film.append(_Shot(tuple(self._resting), dim=self._dim))
            self._filmed.clear()
            self.thrown.append(Thrown(colour, final.value, final.numeral, self._dim))
            return self.thrown[-1]

    def clear(self) -> None:
        """Film every die lying in the roll zone being picked up, one after another."""
        with self._lock:
            while self._resting:
                gone = self._resting.pop()
                hand = hand_near(self._rng, self.table, gone)
                for _ in range(3):
                    self._film.append(_Shot((*self._resting, gone), hands=(hand,),
                                            dim=self._dim))
                for _ in range(3):
                    self._film.append(_Shot(tuple(self._resting), hands=(hand,),
                                            dim=self._dim))
                self._filmed.clear()
            self._dim = False

    def wait_filmed(self, timeout: float | None = None) -> bool:
        """Wait until every throw and pick-up cued so far has been filmed (read by the
        camera); whether it was within `timeout` seconds."""
        return self._filmed.wait(timeout)

    def read(self) -> Frame | None:
        with self._lock:
            if self._closed:
                return None
            shot = self._film.popleft() if self._film else self._idle()
            if not self._film:
                self._filmed.set()
            self.last = render(self.table, shot.dice,
                               self._dim_light if shot.dim else self.light, rng=self._noise,
                               hands=shot.hands, moving=shot.moving,
                               noise=5.0 if shot.dim else 2.5, jpeg=85)
            self._count += 1
            return Frame(self.last.image, (self._count - 1) / self.fps, self._count - 1)

    def close(self) -> None:
        with self._lock:
            self._closed = True

    def _idle(self) -> _Shot:
        """A frame with nothing happening; now and then a hand starts to pass over the table."""
        resting = tuple(self._resting)
        if self._noise.random() < 0.01:
            first, *rest = hand_pass(self._noise, 14)
            self._film.extend(_Shot(resting, hands=(hand,), dim=self._dim) for hand in rest)
            return _Shot(resting, hands=(first,), dim=self._dim)
        return _Shot(resting, dim=self._dim)

    def _place(self, spec: DieSpec) -> DiePose:
        """Where a die comes to rest: in the roll zone, clear of the dice lying there."""
        x0, y0, x1, y1 = self.table.layout.roll_zone
        s = self.table.layout.die_size
        for _ in range(400):
            x = self._rng.uniform(x0 + s, x1 - s)
            y = self._rng.uniform(y0 + s, y1 - s)
            if all(math.hypot(x - p.x, y - p.y) > s * 1.6 for p in self._resting):
                break
        return DiePose(spec, x, y, self._rng.uniform(0, 2 * math.pi),
                       int(self._rng.integers(0, 6)), int(self._rng.integers(0, 4)))
