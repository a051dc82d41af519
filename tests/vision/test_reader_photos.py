"""The reader on real photos of real dice, with no calibration (`--dice any`): the figures the
issue asks of real light, real blur and real pips."""

import cv2
import pytest

from tests.vision.conftest import photo_set
from training.labelled import photos, resized
from vision.dice import DiceReader
from vision.scoring import Score, score


@pytest.fixture(scope="module")
def results() -> dict[str, Score]:
    reader = DiceReader()
    out = {}
    for name in ("matteop65-valid", "skovy"):
        total = Score()
        for path, truth in photos(photo_set(name)):
            total.add(score(truth, reader.read(cv2.imread(str(path)))))
        out[name] = total
    return out


def test_white_dice_on_a_light_table_are_found_and_read(results):
    matteo = results["matteop65-valid"]
    assert matteo.dice == 255
    # one label there is wrong (valid_56.txt calls the die showing one a four), so one
    # honest reading counts as wrong
    assert matteo.share(matteo.right) >= 0.99
    assert matteo.wrong <= 1


def test_small_coloured_dice_with_coloured_pips_are_read_or_left_unknown(results):
    skovy = results["skovy"]
    assert skovy.dice == 30
    assert skovy.share(skovy.right) >= 0.85
    assert skovy.wrong == 0


def test_real_photos_meet_the_target_of_97_percent_right_and_at_most_1_percent_wrong(results):
    total = Score()
    for result in results.values():
        total.add(result)
    assert total.share(total.right) >= 0.97, total.summary()
    assert total.share(total.wrong) <= 0.01, total.summary()


def test_the_photos_hold_next_to_no_false_dice(results):
    # matteop65's valid_23 shows a real die cut by the frame's edge that has no label
    assert sum(r.false for r in results.values()) <= 1


GRAINY = {"WIN_20221210_14_47_18_Pro", "WIN_20221210_14_48_10_Pro", "WIN_20221210_14_48_40_Pro"}


def test_a_wooden_table_seen_closer_makes_next_to_no_dice_of_its_grain():
    # seen 1.4 times closer, the grain of skovy's table makes round dots of a pip's size with
    # plain wood round them; they are far smaller than the dice read surely beside them. These
    # three photos made 6 false dice before the reader held a frame's dice to one size
    reader = DiceReader()
    total = Score()
    for path, truth in photos(photo_set("skovy")):
        if path.stem in GRAINY:
            image, moved = resized(cv2.imread(str(path)), truth, 1.4)
            total.add(score(moved, reader.read(image)))
    assert total.dice == 6
    assert total.false == 0, total.summary()
    assert total.wrong == 0, total.summary()
