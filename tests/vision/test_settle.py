"""Settling on rendered sequences: a die rolls in and settles, hands pass, one is nudged, and
each is taken away; and on hand-made frames, what counts as motion."""

import numpy as np
import pytest

from vision.calibrate import calibrate_table
from vision.dice import DiceReader, DieReading
from vision.dicesets import dice_set
from vision.settle import GONE, LANDED, Settler
from vision.stage import Stage
from vision.synth import roll_sequence


@pytest.mark.parametrize(("seed", "game"), [(2, "camelup-2014"), (5, "camelup-2018")])
def test_each_die_is_read_once_when_it_lands_and_reported_once_when_taken(seed, game):
    frames, truth = roll_sequence(seed, game, dice=2)
    table = calibrate_table(frames[0].image, frames[0].layout)
    settler = Settler(DiceReader(dice_set(game), table=table), zone=table.zone)
    events = []
    for k, frame in enumerate(frames):
        events += [(k, e.kind, e.reading.die, e.reading.value)
                   for e in settler.feed(frame.image, k / 30)]
    assert [(kind, die, value) for _, kind, die, value in events] == \
        [(t.kind, t.colour, t.value) for t in truth]
    for (k, *_), t in zip(events, truth, strict=True):
        assert t.frame <= k <= t.frame + settler.stable_frames + 2


class Scripted:
    """A reader that sees whatever the test says it sees."""

    def __init__(self):
        self.sees: list[DieReading] = []
        self.reads = 0

    def read(self, frame):
        self.reads += 1
        return list(self.sees)


def frame_with(*squares):
    image = np.full((120, 160, 3), 90, np.uint8)
    for x, y, shade in squares:
        image[y:y + 20, x:x + 20] = shade
    return image


def test_a_still_view_is_read_once_and_a_hand_passing_does_not_read_the_die_again():
    reader = Scripted()
    settler = Settler(reader, stable_frames=3, small_width=40)
    die = DieReading("blue", 2, (40, 40, 60, 60), 0.9)
    reader.sees = [die]
    out = []
    for t in range(6):
        out += settler.feed(frame_with((40, 40, 200)), t)
    assert [(e.kind, e.reading.value) for e in out] == [(LANDED, 2)]
    assert out[0].to_json() == {"time": 3, "event": "landed", "die": "blue", "value": 2,
                                "box": [40, 40, 60, 60], "confidence": 0.9}
    reads = reader.reads
    for t in range(6, 9):   # a hand passes
        out += settler.feed(frame_with((40, 40, 200), (90 + 10 * t, 30, 20)), t)
    for t in range(9, 15):
        out += settler.feed(frame_with((40, 40, 200)), t)
    assert len(out) == 1 and reader.reads == reads + 1


def test_a_die_hidden_under_a_resting_hand_is_not_gone_until_the_table_is_bare_there():
    reader = Scripted()
    settler = Settler(reader, stable_frames=2, small_width=40)
    reader.sees = []
    for t in range(3):
        settler.feed(frame_with(), t)           # the bare table is learned
    reader.sees = [DieReading("red", 3, (40, 40, 60, 60), 0.9)]
    for t in range(3, 7):
        settler.feed(frame_with((40, 40, 200)), t)
    reader.sees = []
    events = []
    for t in range(7, 11):                       # a hand rests on it: not bare
        events += settler.feed(frame_with((30, 30, 20), (40, 40, 20)), t)
    assert events == []
    for t in range(11, 15):                      # the hand and the die are gone
        events += settler.feed(frame_with(), t)
    assert [(e.kind, e.reading.die) for e in events] == [(GONE, "red")]


def test_an_unsure_reading_is_read_again_then_reported_as_it_is():
    reader = Scripted()
    settler = Settler(reader, stable_frames=2, small_width=40, retries=2)
    reader.sees = [DieReading(None, None, (40, 40, 60, 60), 0.3)]
    events = []
    for t in range(8):
        events += settler.feed(frame_with((40, 40, 200)), t)
    assert [(e.kind, e.reading.value) for e in events] == [(LANDED, None)]
    assert reader.reads == 3


def test_dice_picked_up_one_by_one_are_each_gone_once_though_a_hand_covers_the_others():
    """The first die landed before the bare mat under it was ever seen; a hand taking up
    another lies over it for a moment, and that hides it without taking it away."""
    stage = Stage("camelup-2018", seed=9, hard_share=0.0)
    settler = stage.settler()
    thrown = ["yellow", "green", "grey", "purple", "red"]
    events = []

    def film() -> None:
        while not stage.wait_filmed(0):
            frame = stage.read()
            events.extend((e.kind, e.reading.die) for e in settler.feed(frame.image, frame.time))

    for colour in thrown:
        stage.throw(colour)
        film()
    stage.clear()
    film()
    for _ in range(10):
        frame = stage.read()
        events.extend((e.kind, e.reading.die) for e in settler.feed(frame.image, frame.time))
    assert [e for e in events if e[0] == "landed"] == [("landed", c) for c in thrown]
    assert sorted(c for kind, c in events if kind == "gone") == sorted(thrown)
