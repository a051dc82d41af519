"""The renderer: seeded and reproducible, with truth that matches what it drew."""

import cv2
import numpy as np
import pytest

from vision.dicesets import dice_set
from vision.synth import LIGHTS, other_dice, random_frame, roll_sequence


def test_the_same_seed_draws_the_same_frame_and_another_seed_another():
    a, b, c = random_frame(17), random_frame(17), random_frame(18)
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("light", LIGHTS)
def test_every_light_draws_dice_of_the_game_where_the_truth_says(light):
    frame = random_frame(3, "camelup-2018", light=light, dice_count=4, hands=False)
    assert frame.light == light and len(frame.dice) == 4
    colours = set(dice_set("camelup-2018").colours)
    for die in frame.dice:
        assert die.colour in colours and die.value in (1, 2, 3)
        assert (die.numeral is not None) == (die.colour == "grey")
        x0, y0, x1, y1 = die.box
        assert 15 < x1 - x0 < 70 and 15 < y1 - y0 < 70
        inside = frame.image[y0:y1, x0:x1].astype(float)
        # a die stands out from the mat it lies on
        around = frame.image[max(0, y0 - 12):y0 - 4, x0:x1].astype(float)
        assert np.abs(inside.mean((0, 1)) - around.mean((0, 1))).max() > 8 or light == "dim"


def test_a_sequence_says_when_each_die_lands_and_goes():
    frames, events = roll_sequence(4, dice=2)
    assert [e.kind for e in events] == ["landed", "landed", "gone", "gone"]
    assert [e.colour for e in events[:2]] == [e.colour for e in events[:1:-1]]
    assert all(0 < e.frame < len(frames) for e in events)


def _hue(bgr):
    return int(cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0])


def test_another_maker_s_dice_are_other_shades_that_keep_the_set_s_colours_in_order():
    """A maker's orange stays redder than its yellow: otherwise no reader could tell which
    is which, and a table drawn so would measure nothing."""
    nominal = dict((d.colour, d.body_bgr) for d in dice_set("camelup-2014").dice)
    for seed in range(100):
        look = other_dice(np.random.default_rng(seed), "camelup-2014")
        bodies = dict(look.bodies)
        assert bodies.keys() == nominal.keys()
        assert _hue(bodies["orange"]) < _hue(bodies["yellow"]) < _hue(bodies["green"])
        assert 0.22 <= look.pip_offset <= 0.30 and 0.065 <= look.pip_radius <= 0.115
