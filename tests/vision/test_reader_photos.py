"""The reader on real photos of real dice, with no calibration (`--dice any`), measured only on
the photos kept out of its training and tuning (training/validation-photos.txt). The issue's
targets (97 % right, 1 % wrong on each set) are measured by bench/vision.py; these hold the
line below them, where the reader stands today."""

import cv2
import pytest

from tests.vision.conftest import photo_set
from training.labelled import SETS, split
from training.scoring import Score, score
from vision.dice import DiceReader

#: (least share right, most share wrong) on each set's validation photos: a little below what
#: the reader reads today (93.7 % and 1.6 % of 63 dice, where the one wrong is a wrong label;
#: 6 of 6; 93.7 % and 2.1 % of 379 dice), which is itself below the targets
FLOORS = {"matteop65-valid": (0.9, 0.02), "skovy": (0.83, 0.17),
          "nell-byler-train": (0.9, 0.035)}


@pytest.fixture(scope="module")
def results() -> dict[str, Score]:
    reader = DiceReader()
    out = {}
    for name in SETS:
        photo_set(name)
        total = Score()
        for path, truth in split(name, "validation"):
            total.add(score(truth, reader.read(cv2.imread(str(path)))))
        out[name] = total
    return out


@pytest.mark.parametrize("name", SETS)
def test_each_set_of_photos_never_trained_on_is_mostly_read_right_and_seldom_wrong(results,
                                                                                    name):
    least_right, most_wrong = FLOORS[name]
    result = results[name]
    assert result.share(result.right) >= least_right, result.summary()
    assert result.share(result.wrong) <= most_wrong, result.summary()


def test_the_photos_hold_few_false_dice(results):
    # 50 false dice over 448 today, a third of them wood grain on skovy's floor
    dice = sum(r.dice for r in results.values())
    assert sum(r.false for r in results.values()) <= 0.15 * dice
