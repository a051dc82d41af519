"""A rendered table where dice are thrown and picked up on cue: the demo's camera.

`Stage` is a frame source like a real camera's: it gives one frame after another of the same
table, and what lies in the roll zone changes only when someone acts. Whoever plays the demo's
table says `throw("blue")` when a die falls out of the pyramid and `clear()` when the leg's
dice go back; the stage films the die tumbling in and coming to rest, hands passing now and
then, the dice picked up. It knows nothing of the rules: it throws whichever die it is told.

The other games have stages of their own with the same film: `CardStage` lays Camel Up Cards'
racing cards face up in the reveal zone (`lay("blue", 1)`) for the card reader, and
`ColourDiceStage` throws The Last Camel's two colour dice together (`throw()`) for the colour
dice reader; `stage_for(game)` picks the one a game is played on.

A board game's table has a second camera on its board (`BoardStage`), placed as docs/camera.md
says, filming the camels where whoever plays puts them (`place(stacks)`), a hand moving them.

Now and then (`hard_share` of the throws) the light drops, as at a real table when a cloud
passes or someone leans over the lamp, and stays low until the leg's dice are picked up: the
reader may be unsure of the dice that land in it, and the table then asks a person. Which
readings end up doubtful is the reader's own verdict on those frames, never decided here.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from vision.board import BoardReader, set_up
from vision.calibrate import CalibrationError, calibrate_table, learn_colours
from vision.camels import camel_set
from vision.cards import CAMEL_COLOURS, CardReader, learn_card_colours
from vision.colour_dice import ColourDiceReader, learn_face_colours
from vision.colours import as_bgr
from vision.dice import DiceReader
from vision.dicesets import LAST_CAMEL, DieSpec
from vision.light import LightChange
from vision.settle import CARD_REACH, Settler
from vision.sources import Frame, FrameSource, SourceError
from vision.spec import CARD_MM
from vision.synth import (
    CamelPose,
    DiePose,
    Hand,
    Light,
    RenderedFrame,
    Table,
    calibration_frame,
    hand_near,
    hand_pass,
    packed,
    random_light,
    random_table,
    render,
    throw_path,
)
from vision.synth_board import board_view, hand_over_board, placed_camels, props, setup_camels
from vision.synth_cards import CardPose, card_calibration_frame, dressed_table
from vision.synth_colour_dice import ColourDiePose, colour_dice_table
from vision.synth_colour_dice import calibration_frame as colour_calibration_frame
from vision.table import TRACK_SPACES

CARDS_GAME = "camelup-cards"
_SUPERSAMPLE = 1
"""The dice's and the board's frames are drawn at their size, not supersampled: the table
drawn for every frame is then 2 MB for the dice camera, not 11, and 5 MB for the board's
1280x720 (the demo runs beside a Pi's browser), and the readers read them as well (tuning
tables 500,000-500,039: 100 % of 786 dice right, 91 % at a confidence the table applies by
itself, against 99.9 % and 87 % drawn at twice the size and shrunk, measured before the second
look read a calibrated table's unsure dice). A card's painted table
is drawn as every rendered frame is (`drawn`)."""


@dataclass(frozen=True)
class Thrown:
    """What a thrown die truly shows, for whoever checks the table's reading of it."""

    colour: str
    value: int
    numeral: str | None
    dim: bool


@dataclass(frozen=True)
class Laid:
    """What a racing card laid in the reveal zone truly shows."""

    camel: str
    value: int
    dim: bool


@dataclass(frozen=True)
class Rolled:
    """The faces The Last Camel's two dice truly show once thrown."""

    faces: tuple[str, str]
    dim: bool


@dataclass(frozen=True)
class _Shot:
    """One frame to film: what lies on the table (dice or cards) and what moves over it."""

    dice: tuple[Any, ...]
    hands: tuple[Hand, ...] = ()
    moving: tuple[tuple[float, float], ...] = ()
    dim: bool = False


@dataclass(frozen=True)
class _Laid:
    """A frame drawn whole beforehand: what calibration needs, laid out in the roll zone."""

    image: np.ndarray


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
        self.table: Table = packed(self._table(seed, size))
        self.light: Light = random_light(self._rng, light)
        self._dim_light = replace(random_light(self._rng, "dim"),
                                  strength=self.light.strength * 0.38)
        self._dim = False
        self._resting: list[Any] = []
        self._film: deque[_Shot | _Laid] = deque()
        self._filmed = threading.Event()
        self._filmed.set()
        self._lock = threading.Lock()
        self._count = 0
        self._closed = False
        self._reader: Any = None
        self.thrown: list[Any] = []
        """Every die thrown (a card laid, a pair of dice thrown), as it truly lies, in order."""

    def _table(self, seed: int, size: tuple[int, int]) -> Table:
        return random_table(seed, self.game, size=size, jitter=False)

    def settler(self) -> Settler:
        """A fresh settler reading this stage's dice, calibrated as a table is at set-up (the
        board's markers found in a frame, then the colours of every die laid in the roll
        zone), once per stage."""
        if self._reader is None:
            table = calibrate_table(self._next_image(), self.table.layout)
            colours = learn_colours(self.calibration_frame().image, self.table.dice,
                                    table=table)
            self._reader = DiceReader(self.table.dice, colours, table=table)
        return Settler(self._reader, zone=self._reader.table.zone)

    def calibration_frame(self) -> RenderedFrame:
        """Every die of the game laid in the roll zone under the table's light, for the colour
        calibration a table does at set-up."""
        return calibration_frame(self.table, self.light, int(self._rng.integers(0, 2 ** 31)),
                                 supersample=_SUPERSAMPLE)

    def throw(self, colour: str) -> Thrown:
        """Film the die `colour` falling into the roll zone, a face at random up."""
        spec = next((d for d in self.table.dice.dice if d.colour == colour), None)
        if spec is None:
            raise ValueError(f"{self.game} has no {colour} die")
        with self._lock:
            self._dims()
            final = self._place(spec)
            path = throw_path(self._rng, self.table.layout, final, steps=10)
            still = tuple(self._resting)
            for pose, motion in path:
                self._film.append(_Shot((*still, pose), moving=((0.0, 0.0),) * len(still)
                                        + (motion,), dim=self._dim))
            self._resting.append(final)
            self._film_still()
            self.thrown.append(Thrown(colour, final.value, final.numeral, self._dim))
            return self.thrown[-1]

    def _film_still(self) -> None:
        """What lies in the zone now, still for a while: the settler's cue to read it."""
        for _ in range(12):
            self._film.append(_Shot(tuple(self._resting), dim=self._dim))
        self._filmed.clear()

    def _dims(self) -> bool:
        """Whether the light drops with this throw (and stays low until the zone is cleared)."""
        self._dim = self._dim or bool(self._rng.random() < self.hard_share)
        return self._dim

    def lay_out(self) -> None:
        """Film what colour calibration needs laid in the roll zone, still (every die of the
        game, apart; one racing card of each camel), as a person lays it out when the
        Calibrate page asks: what lay there is gathered up first, and the zone is left empty
        after."""
        with self._lock:
            self._resting.clear()
            self._film.extend([_Laid(self.calibration_frame().image)] * 12)
            self._filmed.clear()

    def clear(self) -> None:
        """Film every die lying in the roll zone being picked up, one after another."""
        with self._lock:
            while self._resting:
                gone = self._resting.pop()
                hand = self._hand_at(gone)
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
            image = shot.image if isinstance(shot, _Laid) else self._render(shot).image
            self._count += 1
            return Frame(image, (self._count - 1) / self.fps, self._count - 1)

    def close(self) -> None:
        with self._lock:
            self._closed = True

    def _next_image(self) -> np.ndarray:
        """The next frame's image, to calibrate from: a closed stage has none."""
        frame = self.read()
        if frame is None:
            raise SourceError("the stage is closed")
        return frame.image

    def _render(self, shot: _Shot) -> RenderedFrame:
        return render(self.table, shot.dice, self._dim_light if shot.dim else self.light,
                      rng=self._noise, hands=shot.hands, moving=shot.moving,
                      noise=5.0 if shot.dim else 2.5, jpeg=85, supersample=_SUPERSAMPLE)

    def _hand_at(self, thing: Any) -> Hand:
        """A hand reaching for a die (a card) lying in the zone."""
        return hand_near(self._rng, self.table, thing)

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
        x, y = self._spot()
        return DiePose(spec, x, y, self._rng.uniform(0, 2 * math.pi),
                       int(self._rng.integers(0, 6)), int(self._rng.integers(0, 4)))

    def _spot(self, apart: float = 1.6) -> tuple[float, float]:
        """A place in the roll zone at least `apart` dice from the dice lying there."""
        x0, y0, x1, y1 = self.table.layout.roll_zone
        s = self.table.layout.die_size
        for _ in range(400):
            x = self._rng.uniform(x0 + s, x1 - s)
            y = self._rng.uniform(y0 + s, y1 - s)
            if all(math.hypot(x - p.x, y - p.y) > s * apart for p in self._resting):
                break
        return x, y


class ColourDiceStage(Stage):
    """The Last Camel's table: its two colour dice thrown together on cue, read by the colour
    dice reader. `throw()` films both tumbling in; `clear()` picks them up."""

    def __init__(self, game: str = LAST_CAMEL.game, **options: Any) -> None:
        super().__init__(game, **options)

    def _table(self, seed: int, size: tuple[int, int]) -> Table:
        return colour_dice_table(seed, size=size, jitter=False)

    def settler(self) -> Settler:
        if self._reader is None:
            table = calibrate_table(self._next_image(), self.table.layout)
            shot = self.calibration_frame().image
            colours = learn_face_colours(shot, LAST_CAMEL, table=table)
            self._reader = ColourDiceReader(LAST_CAMEL, colours, table=table,
                                            light=LightChange.of_shot(shot))
        return Settler(self._reader, zone=self._reader.table.zone)

    def calibration_frame(self) -> RenderedFrame:
        return colour_calibration_frame(self.table, self.light,
                                        int(self._rng.integers(0, 2 ** 31)),
                                        supersample=_SUPERSAMPLE)

    def throw(self, colour: str | None = None) -> Rolled:  # type: ignore[override]
        """Film the two dice thrown together into the roll zone, any faces up."""
        with self._lock:
            self._dims()
            finals = []
            for _ in range(LAST_CAMEL.count):
                x, y = self._spot(apart=3.0)
                finals.append(ColourDiePose(LAST_CAMEL, x, y, self._rng.uniform(0, 2 * math.pi),
                                            int(self._rng.integers(0, 6)),
                                            int(self._rng.integers(0, 4))))
                self._resting.append(finals[-1])
            del self._resting[-len(finals):]
            paths = [throw_path(self._rng, self.table.layout, final, steps=10)
                     for final in finals]
            still = tuple(self._resting)
            for step in zip(*paths, strict=True):
                self._film.append(_Shot((*still, *(pose for pose, _ in step)),
                                        moving=((0.0, 0.0),) * len(still)
                                        + tuple(motion for _, motion in step), dim=self._dim))
            self._resting += finals
            self._film_still()
            faces = (finals[0].face.name, finals[1].face.name)
            self.thrown.append(Rolled(faces, self._dim))
            return self.thrown[-1]


class CardStage(Stage):
    """Camel Up Cards' table: racing cards laid face up in the reveal zone on cue, some on the
    pile of those before, read by the card reader. `lay(camel, value)` films a hand laying
    one; `clear()` gathers them up, top first."""

    pile = 0.5
    """The chance that a card is laid on the one before, as on the revealed cards' pile."""

    def __init__(self, game: str = CARDS_GAME, **options: Any) -> None:
        super().__init__(game, **options)

    def _table(self, seed: int, size: tuple[int, int]) -> Table:
        return random_table(seed, size=size, jitter=False)

    def settler(self) -> Settler:
        if self._reader is None:
            table = calibrate_table(self._next_image(), self.table.layout)
            shot = self.calibration_frame().image
            colours = learn_card_colours(shot, table=table)
            self._reader = CardReader(colours, table=table, light=LightChange.of_shot(shot))
        return Settler(self._reader, zone=self._reader.table.zone, reach=CARD_REACH)

    def calibration_frame(self) -> Any:
        return card_calibration_frame(self.table, self.light,
                                      int(self._rng.integers(0, 2 ** 31)))

    def throw(self, colour: str) -> Thrown:
        raise ValueError("Camel Up Cards has no dice: its racing cards are laid")

    def lay(self, camel: str, value: int) -> Laid:
        """Film a hand laying the racing card `camel` +`value` face up in the reveal zone."""
        if camel not in CAMEL_COLOURS.references:
            raise ValueError(f"Camel Up Cards has no {camel} camel")
        with self._lock:
            self._dims()
            card = self._place_card(camel, value)
            hand = self._hand_at(card)
            for _ in range(3):
                self._film.append(_Shot(tuple(self._resting), hands=(hand,), dim=self._dim))
            self._resting.append(card)
            for _ in range(3):
                self._film.append(_Shot(tuple(self._resting), hands=(hand,), dim=self._dim))
            self._film_still()
            self.thrown.append(Laid(camel, value, self._dim))
            return self.thrown[-1]

    def _place_card(self, camel: str, value: int) -> CardPose:
        """Where a card is laid: on the pile now and then, else apart from the cards lying
        there where there is room, else on the pile."""
        x0, y0, x1, y1 = self.table.layout.roll_zone
        reach = CARD_MM[1] / 2
        gain = as_bgr(self._rng.uniform(0.92, 1.08, 3))
        yaw = self._rng.uniform(0, 2 * math.pi)
        if not self._resting or self._rng.random() >= self.pile:
            for _ in range(100):
                x, y = self._rng.uniform(x0 + 30, x1 - 30), self._rng.uniform(y0 + 30, y1 - 30)
                if all(math.dist((x, y), (c.x, c.y)) > 2 * reach for c in self._resting):
                    return CardPose(camel, value, x, y, yaw, gain)
        below = self._resting[-1] if self._resting else None
        x = (below.x if below else (x0 + x1) / 2) + self._rng.normal(0, 12)
        y = (below.y if below else (y0 + y1) / 2) + self._rng.normal(0, 12)
        return CardPose(camel, value, float(np.clip(x, x0 + 20, x1 - 20)),
                        float(np.clip(y, y0 + 20, y1 - 20)), yaw, gain)

    def _render(self, shot: _Shot) -> RenderedFrame:
        light = self._dim_light if shot.dim else self.light
        # a card lies still for many frames: its painted table is kept (`dressed_table`)
        return render(dressed_table(self.table, shot.dice, light), (), light,
                      rng=self._noise, hands=shot.hands, noise=5.0 if shot.dim else 2.5, jpeg=85)


class BoardStage(FrameSource):
    """The board of a stage's table, filmed by a camera placed to take it all in (1280x720,
    25 to 55 degrees off vertical) under the stage's light: the camels stand where they were
    last put, and a hand moves them. Thread-safe, as `Stage` is.

    A board at rest is one frame, drawn once and given again until the camels move, and drawn
    at its size, not supersampled: the drawn table (5 MB at this size) is let go once it is
    drawn, and drawn again for the next move, so the demo holds a frame of the board, not its
    drawing."""

    def __init__(self, stage: Stage, *, seed: int = 0, fps: float = 4.0) -> None:
        self.game = stage.game
        self.camels = camel_set(stage.game)
        self.fps = fps
        self.light = stage.light
        self._rng = np.random.default_rng(seed)
        self._noise = np.random.default_rng(seed + 1)
        self.table = board_view(stage.table, self._rng)
        self._props = props(self._rng, self.table, [], tiles=False)
        self.stacks: dict[int, tuple[str, ...]] = {}
        """Where the camels stand now (space 1-16: camels bottom to top), once filmed."""
        self._poses: list[CamelPose] = []
        self._still: np.ndarray | None = None
        self._film: deque[tuple[list[CamelPose], tuple[Hand, ...]]] = deque()
        self._filmed = threading.Event()
        self._filmed.set()
        self._lock = threading.Lock()
        self._count = 0
        self._closed = False
        self._reader: BoardReader | None = None

    def reader(self, tries: int = 3) -> BoardReader:
        """The board reader, set up once as a table is: the markers found in a frame, then
        every camel laid alone on its own space; laid out again when the set-up is refused
        (`tries` in all), as a person would, and a CalibrationError after the last."""
        if self._reader is not None:
            return self._reader
        table = calibrate_table(self._frame([], ()).image, self.table.layout)
        for attempt in range(tries):
            laid = setup_camels(self._rng, self.table.track, self.camels)
            try:
                self._reader = set_up(self._frame(laid, ()).image, table, self.table.track,
                                      self.camels)
                return self._reader
            except CalibrationError:
                if attempt == tries - 1:
                    raise
            finally:
                self.table._lit = {}
        raise ValueError(f"tries must be 1 or more, not {tries}")

    def place(self, stacks: Mapping[int, Sequence[str]], *, hand: bool = True) -> None:
        """Film a hand moving the camels to where `stacks` (space: camels bottom to top) has
        them: over the board as they were, then as they are now, then still; without `hand`,
        they stand there from the next frame (a table set up before the camera looks)."""
        with self._lock:
            poses = placed_camels(self._rng, self.table.track, self.camels, stacks)
            if hand:
                over = hand_over_board(self._rng, self.table,
                                       next(iter(sorted(stacks)), TRACK_SPACES // 2))
                self._film.extend([(self._poses, (over,)), (poses, (over,))])
            self._poses, self._still = poses, None
            self.stacks = {space: tuple(pile) for space, pile in stacks.items() if pile}
            self._filmed.clear()

    def lay_out(self) -> None:
        """Film a hand standing every camel alone on its own space, as a person does when
        the Calibrate page asks to learn the camels."""
        laid = setup_camels(self._rng, self.table.track, self.camels)
        self.place({c.space: (c.colour,) for c in laid})

    def wait_filmed(self, timeout: float | None = None) -> bool:
        """Wait until every move cued so far has been filmed; whether it was in time."""
        return self._filmed.wait(timeout)

    def read(self) -> Frame | None:
        with self._lock:
            if self._closed:
                return None
            if self._film:
                image = self._frame(*self._film.popleft()).image
            else:
                if self._still is None:
                    self._still = self._frame(self._poses, ()).image
                    self.table._lit = {}
                image = self._still
                self._filmed.set()
            self._count += 1
            return Frame(image, (self._count - 1) / self.fps, self._count - 1)

    def close(self) -> None:
        with self._lock:
            self._closed = True

    def _frame(self, poses: Sequence[CamelPose], hands: Sequence[Hand]) -> RenderedFrame:
        return render(self.table, [], self.light, rng=self._noise, hands=hands, camels=poses,
                      props=self._props, noise=2.5, jpeg=85, supersample=_SUPERSAMPLE)


def stage_for(game: str, **options: Any) -> Stage:
    """The rendered table `game` is played on: its dice, its racing cards or its colour
    dice, each filmed for the game's own reader."""
    if game == CARDS_GAME:
        return CardStage(**options)
    if game == LAST_CAMEL.game:
        return ColourDiceStage(**options)
    return Stage(game, **options)
