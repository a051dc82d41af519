"""The reader on rendered Camel Up frames of both editions, calibrated as a table is at set-up,
under every light the renderer has."""

import math

import numpy as np
import pytest

from tests.vision.conftest import calibrated_scene
from vision.dice import DiceReader
from vision.dicesets import STANDARD_D6, dice_set
from vision.scoring import Score, TrueDie, score
from vision.synth import LIGHTS, DiePose, render, roll_frame

GAMES = ("camelup-2014", "camelup-2018")


def truth_of(frame):
    seen = [TrueDie(d.box, d.value, d.colour, d.numeral) for d in frame.dice if d.visible]
    hidden = [d.box for d in frame.dice if not d.visible]
    return seen, hidden


@pytest.fixture(scope="module")
def results() -> dict[str, Score]:
    out = {}
    for g, game in enumerate(GAMES):
        total = Score()
        for k, light in enumerate(LIGHTS):
            table, lit, found, colours = calibrated_scene(700 + 10 * g + k, game, light)
            reader = DiceReader(dice_set(game), colours, table=found)
            rng = np.random.default_rng(k)
            for _ in range(3):
                frame = roll_frame(table, lit, rng)
                seen, hidden = truth_of(frame)
                total.add(score(seen, reader.read(frame.image), ignore=hidden))
        out[game] = total
    return out


@pytest.mark.parametrize("game", GAMES)
def test_calibrated_dice_are_mostly_read_right_and_seldom_wrong(results, game):
    result = results[game]
    assert result.dice >= 40
    assert result.share(result.right) >= 0.93, result.summary()
    assert result.share(result.wrong) <= 0.02, result.summary()


@pytest.mark.parametrize("game", GAMES)
def test_nothing_in_the_roll_zone_but_dice_is_read_as_a_die(results, game):
    assert results[game].false <= 1, results[game].summary()


@pytest.mark.xfail(strict=True, reason="below target: see the bench's rendered figures")
def test_rendered_frames_meet_the_target_of_99_5_percent_right_and_0_1_percent_wrong(results):
    total = Score()
    for result in results.values():
        total.add(result)
    assert total.share(total.right) >= 0.995 and total.share(total.wrong) <= 0.001


def test_the_grey_die_says_whether_its_pips_are_white_or_black():
    table, lit, found, colours = calibrated_scene(5, "camelup-2018", "neutral")
    grey = dice_set("camelup-2018").die("grey")
    reader = DiceReader(dice_set("camelup-2018"), colours, table=found)
    seen = []
    for top in range(6):
        pose = DiePose(grey, 120.0, 90.0, 0.3, top)
        frame = render(table, [pose], lit, rng=np.random.default_rng(top), jpeg=None)
        readings = [r for r in reader.read(frame.image) if r.value is not None]
        seen.append([(r.die, r.value, r.numeral) for r in readings])
    assert seen == [[("grey", v, n)] for v, n in grey.faces]


def test_a_four_to_six_on_a_camel_up_die_lowers_confidence_but_another_die_still_reads():
    table, lit, found, colours = calibrated_scene(11, "camelup-2014", "neutral")
    pose = DiePose(STANDARD_D6, 100.0, 80.0, 0.5, 3)   # a white die showing five
    frame = render(table, [pose], lit, rng=np.random.default_rng(1), jpeg=None)
    any_die, = DiceReader(table=found).read(frame.image)
    camel_die, = DiceReader(dice_set("camelup-2014"), colours, table=found,
                            threshold=0.0).read(frame.image)
    assert (any_die.value, camel_die.value, camel_die.die) == (5, 5, "white")
    assert math.isclose(camel_die.confidence, 0.6 * any_die.confidence, rel_tol=0.05)
