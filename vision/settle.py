"""Settling: read a die once, when it has come to rest, and say when it is taken away.

Motion is measured on a small grey copy of the roll zone (a few thousand pixels), so watching
costs next to nothing; the reader runs only when the view has been still for `stable_frames`
frames after something moved. Dice are then matched with the ones already lying there: a die
seen again where it lay (after a hand passed over, or a nudge) is the same die and is not read
again; a new one is reported once as "landed"; one that is no longer seen, where the table is
bare again, is reported as "gone". A die hidden under a resting hand is neither. Racing cards
laid in the reveal zone settle the same way, one card laid being one reading; a card taken off
the pile of revealed cards is gone as soon as the card below it is seen again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.cards import CardReader, CardReading
from vision.colour_dice import ColourDiceReader, FaceReading
from vision.colours import across_channels
from vision.dice import DiceReader, DieReading

LANDED = "landed"
GONE = "gone"
#: what any reader settled here reads: a die by its pips or its colour faces, a racing card
Reading = DieReading | FaceReading | CardReading
#: the reach for racing cards: a card is the one that lay there only if it has hardly moved
CARD_REACH = 0.12
#: how far a racing card's box may change in width or height (a share of its longer side)
#: and the card still be the one that lay there: a card lying still keeps its box, and a card
#: laid on it turned otherwise has a box of another shape, though it lies within reach
CARD_BOX = 0.08
#: small-image pixels round a die where the bare roll zone is looked for, and how many known
#: ones make its colour there known
RING = 3
RING_PIXELS = 12
#: how far from the bare zone round it a die's place may look and still be bare (in
#: motion levels: the mat's light is not even, so a little more than for the known spot)
BARE_AROUND = 1.5


@dataclass(frozen=True)
class Settled:
    """One event of the roll zone: a die came to rest and was read, or was taken away."""

    time: float
    kind: str
    reading: Reading

    def to_json(self) -> dict:
        return {"time": round(self.time, 3), "event": self.kind, **self.reading.to_json()}


@dataclass
class _Die:
    reading: Reading
    reported: bool
    tries: int = 0
    patch: np.ndarray | None = None


class Settler:
    """Turns frames into Settled events. Feed it every frame with its time in seconds.

    `motion_level` is the grey-level change that counts a small-image pixel as moving and
    `motion_share` the share of such pixels that makes a frame a moving one; `retries` is how
    many still frames a die read without confidence is read again before it is reported as it
    is (its value None). `reach` is how far, as a share of its size, a die may be nudged and
    still be the one that lay there; a card laid on the pile of revealed cards lies almost
    where the one below it did, so cards want a small reach (`CARD_REACH`).

    The same settling serves the racing cards (give it a CardReader) and The Last Camel's
    colour dice (a ColourDiceReader).
    """

    def __init__(self, reader: DiceReader | ColourDiceReader | CardReader, *,
                 zone: Sequence[Sequence[float]] | None = None,
                 stable_frames: int = 5, motion_level: float = 14.0,
                 motion_share: float = 0.002, small_width: int = 80, retries: int = 3,
                 reach: float = 0.75) -> None:
        self.reader = reader
        self.zone = (None if zone is None
                     else cv2.boundingRect(np.asarray(zone, np.float32).reshape(-1, 2)))
        self.stable_frames = stable_frames
        self.motion_level = motion_level
        self.motion_share = motion_share
        self.small_width = small_width
        self.retries = retries
        self.reach = reach
        self._previous: np.ndarray | None = None
        self._background = np.zeros((0, 0), np.float32)
        self._known = np.zeros((0, 0), bool)
        self._origin = (0, 0)
        self._scale = 1.0
        self._shape = (0, 0)
        self._still = 0
        self._moved = True
        self._dice: list[_Die] = []

    @property
    def dice(self) -> list[Reading]:
        """The dice lying in the roll zone as last seen (reported or not)."""
        return [d.reading for d in self._dice]

    @property
    def is_still(self) -> bool:
        return self._still >= self.stable_frames

    def small(self, frame: np.ndarray) -> np.ndarray:
        """The small image motion is measured on (the roll zone only, if one is set)."""
        x, y = 0, 0
        if self.zone is not None:
            x, y, w, h = self.zone
            x, y = max(0, x), max(0, y)
            frame = frame[y:y + h, x:x + w]
        height = max(1, round(frame.shape[0] * self.small_width / frame.shape[1]))
        small = cv2.resize(frame, (self.small_width, height), interpolation=cv2.INTER_AREA)
        self._origin, self._scale = (x, y), self.small_width / frame.shape[1]
        if small.shape[:2] != self._shape:
            self._shape = small.shape[:2]
            self._background = small.astype(np.float32)
            self._known = np.zeros(self._shape, bool)
        return small

    def moving(self, small: np.ndarray) -> bool:
        """Whether `small` differs from the previous small frame (and remember it)."""
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return True
        changed = _difference(small, previous) > self.motion_level
        return bool(np.count_nonzero(changed) > max(2, self.motion_share * changed.size))

    def feed(self, frame: np.ndarray, time: float) -> list[Settled]:
        """The events this frame brings (most frames bring none)."""
        small = self.small(frame)
        if self.moving(small):
            self._still = 0
            self._moved = True
            return []
        self._still += 1
        pending = any(not d.reported for d in self._dice)
        if self._still < self.stable_frames or not (self._moved or pending):
            return []
        self._moved = False
        return self._look(frame, small, time)

    def _look(self, frame: np.ndarray, small: np.ndarray, time: float) -> list[Settled]:
        readings = self.reader.read(frame)
        events = []
        unmatched = list(self._dice)
        for reading in readings:
            known = self._match(reading, unmatched)
            if known is None:
                die = _Die(reading, reported=False)
                self._dice.append(die)
            else:
                unmatched.remove(known)
                die = known
                die.tries += 1
                if not die.reported and _surer(reading, die.reading):
                    die.reading = reading
                else:
                    die.reading = replace(die.reading, box=reading.box)
            if not die.reported and (die.reading.value is not None
                                     or die.tries >= self.retries):
                die.reported = True
                events.append(Settled(time, LANDED, die.reading))
        for die in unmatched:
            if self._bare(small, die) or self._uncovered(die, unmatched):
                self._dice.remove(die)
                if die.reported:
                    events.append(Settled(time, GONE, die.reading))
        self._learn_background(small)
        return events

    def _match(self, reading: Reading, dice: list[_Die]) -> _Die | None:
        """The die already lying where `reading` is (and of its colour, when colours are
        known), if any."""
        best, best_gap = None, np.inf
        x, y = reading.centre
        for die in dice:
            if not _alike(reading, die.reading):
                continue
            bx, by = die.reading.centre
            reach = self.reach * max(die.reading.box[2] - die.reading.box[0],
                               die.reading.box[3] - die.reading.box[1], 8)
            gap = float(np.hypot(x - bx, y - by))
            if gap <= reach and gap < best_gap:
                best, best_gap = die, gap
        return best

    def _bare(self, small: np.ndarray, die: _Die) -> bool:
        """Whether the table where `die` lay looks bare: like the bare roll zone there, where
        that is known; else like the bare roll zone around it (a die that landed before the
        table was ever seen bare there); else, with nothing known around it either, no
        longer like the die did when it was read. A hand resting on the die looks like
        neither the bare table nor the die, and keeps it."""
        x0, y0, x1, y1 = self._small_box(die.reading)
        here = small[y0:y1 + 1, x0:x1 + 1].astype(np.float32)
        if here.size == 0:
            return True
        known = self._known[y0:y1 + 1, x0:x1 + 1]
        if known.mean() > 0.8:
            off = _difference(here, self._background[y0:y1 + 1, x0:x1 + 1])[known]
            return float(np.percentile(off, 90)) < self.motion_level
        around = self._bare_around(x0, y0, x1, y1)
        if around is not None:
            off = _difference(here, np.broadcast_to(around, here.shape))
            return float(np.percentile(off, 90)) < BARE_AROUND * self.motion_level
        if die.patch is None or die.patch.shape != here.shape:
            return True
        return float(np.mean(_difference(here, die.patch))) >= self.motion_level

    def _bare_around(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray | None:
        """The bare roll zone's colour in a ring round a box (small-image pixels), if enough
        of it is known."""
        h, w = self._shape
        ys = slice(max(0, y0 - RING), min(h, y1 + RING + 1))
        xs = slice(max(0, x0 - RING), min(w, x1 + RING + 1))
        ring = self._known[ys, xs].copy()
        ring[y0 - ys.start:y1 - ys.start + 1, x0 - xs.start:x1 - xs.start + 1] = False
        if np.count_nonzero(ring) < RING_PIXELS:
            return None
        return np.median(self._background[ys, xs][ring], axis=0).astype(np.float32)

    def _uncovered(self, die: _Die, unseen: list[_Die]) -> bool:
        """Whether one that lay there before `die` is seen again where `die` lay: a card
        taken off the pile of revealed cards shows the card below it. (One laid on top of an
        older one hides it without making it gone, so it is not read again when it shows.)"""
        x, y = die.reading.centre
        for older in self._dice[:self._dice.index(die)]:
            x0, y0, x1, y1 = older.reading.box
            if older not in unseen and x0 <= x <= x1 and y0 <= y <= y1:
                return True
        return False

    def _small_box(self, reading: Reading) -> tuple[int, int, int, int]:
        """`reading`'s box in the small image's pixels."""
        ox, oy = self._origin
        x0, y0, x1, y1 = reading.box
        h, w = self._shape
        s = self._scale
        return (max(0, int((x0 - ox) * s)), max(0, int((y0 - oy) * s)),
                min(w - 1, int((x1 - ox) * s + 1)), min(h - 1, int((y1 - oy) * s + 1)))

    def _learn_background(self, small: np.ndarray) -> None:
        """Keep a picture of the bare roll zone from still frames: where no die lies, and where
        the table was not seen yet or has changed but a little (light drifting, not a hand)."""
        bare = ~self._known | (_difference(small, self._background) < self.motion_level)
        for die in self._dice:
            x0, y0, x1, y1 = self._small_box(die.reading)
            bare[max(0, y0 - 1):y1 + 2, max(0, x0 - 1):x1 + 2] = False
            if die.patch is None:
                die.patch = small[y0:y1 + 1, x0:x1 + 1].astype(np.float32)
        self._background[bare] = small[bare]
        self._known |= bare


def _difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest change over the colour channels."""
    d = cv2.absdiff(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return across_channels(np.maximum, d) if d.ndim == 3 else d


def _alike(reading: Reading, known: Reading) -> bool:
    """Whether `known` may be what `reading` reads, nudged: of the same colour where both name
    one (a die's, a racing card's camel), and for a racing card, of the same value where both
    are read and with a box of the same shape (a card laid on the pile over a card of its
    camel is another card, though it lies within a card's reach of it: a +2 over a +1, or a
    +1 over a +1 turned otherwise)."""
    colour = _colour(reading)
    if colour is not None and _colour(known) not in (None, colour):
        return False
    if isinstance(reading, CardReading) and isinstance(known, CardReading):
        return ((None in (reading.value, known.value) or reading.value == known.value)
                and _same_shape(reading.box, known.box))
    return True


def _same_shape(box: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> bool:
    """Whether two boxes' widths and heights agree within CARD_BOX of the longer side."""
    sizes = (box[2] - box[0], box[3] - box[1], other[2] - other[0], other[3] - other[1])
    give = CARD_BOX * max(sizes)
    return abs(sizes[0] - sizes[2]) <= give and abs(sizes[1] - sizes[3]) <= give


def _colour(reading: Reading) -> str | None:
    """The colour a reading names: a die's, or a racing card's camel."""
    return reading.camel if isinstance(reading, CardReading) else reading.die


def _surer(new: Reading, old: Reading) -> bool:
    if (new.value is None) != (old.value is None):
        return new.value is not None
    return new.confidence > old.confidence
