"""Scoring readings against the truth."""

from training.scoring import TrueDie, score
from vision.dice import DieReading


def test_each_die_is_right_wrong_unknown_or_missed_and_spare_readings_are_false_dice():
    truth = [TrueDie((0, 0, 10, 10), 2, "blue"), TrueDie((50, 0, 60, 10), 3, "red"),
             TrueDie((100, 0, 110, 10), 1, "green"), TrueDie((150, 0, 160, 10), 1)]
    readings = [DieReading("blue", 2, (1, 1, 11, 11), 0.9),
                DieReading("red", 1, (49, 0, 61, 9), 0.9),
                DieReading("green", None, (100, 1, 110, 11), 0.3),
                DieReading(None, 5, (300, 300, 310, 310), 0.8)]
    result = score(truth, readings)
    assert (result.dice, result.right, result.wrong, result.unknown, result.missed,
            result.false) == (4, 1, 1, 1, 1, 1)


def test_a_reading_over_a_die_the_truth_cannot_judge_counts_neither_way():
    result = score([], [DieReading(None, 4, (0, 0, 10, 10), 0.9)], ignore=[(0, 0, 10, 10)])
    assert (result.dice, result.false) == (0, 0)
