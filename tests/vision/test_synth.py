"""The renderer: seeded and reproducible, with truth that matches what it drew."""

import numpy as np
import pytest

from vision.dicesets import dice_set
from vision.synth import LIGHTS, random_frame, roll_sequence


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
