"""Shared paths and rendered scenes for the vision tests."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from training.labelled import photo_folder
from vision.calibrate import (
    CalibrationError,
    TableCalibration,
    calibrate_table,
    learn_colours,
)
from vision.colours import DiceColours
from vision.dicesets import dice_set
from vision.synth import LIGHTS, Light, Table, calibration_frame, random_light, random_table

SEED_VARIABLE = "CAMEL_TEST_SEED"
"""Set it to the seed a failed run named, to draw the same tables again."""


def drawn_seed(low: int, high: int, step: int = 1) -> int:
    """A seed drawn afresh each run from [low, high), a multiple of `step`, so the tests see
    tables no tuning saw; `CAMEL_TEST_SEED` in the environment draws a named one again."""
    named = os.environ.get(SEED_VARIABLE)
    if named is not None:
        return int(named)
    return step * random.SystemRandom().randrange(-(-low // step), high // step)


def darker_and_warmer(light: Light) -> Light:
    """`light` 40 % weaker and 15 % warmer (red up, blue down): a cloud, a lamp switched
    off, after the colours were learned. A lamp's glare is light added, not a gain, and
    stays as it was: where it falls the change has an edge, which the readers do not allow
    for."""
    blue, green, red = light.colour
    return replace(light, strength=0.6 * light.strength, colour=(blue / 1.15, green, red * 1.15))


#: the lights whose change a reader allows for: a lamp's glare, light added where it falls,
#: does not change as a gain does (brought back to the shot's light, an orange card under
#: an unchanged glare turns yellow)
SMOOTH_LIGHTS = tuple(name for name in LIGHTS if name != "glare")


def photo_set(name: str) -> Path:
    """One set of the labelled photos; a test that needs them fails, never skips, when
    ../shared is not beside the checkout."""
    try:
        return photo_folder(name)
    except FileNotFoundError as missing:
        pytest.fail(str(missing))


def calibrated_scene(seed: int, game: str, light: str
                     ) -> tuple[Table, Light, TableCalibration, DiceColours]:
    """A rendered table under one light, calibrated as at set-up: markers, then colours. When
    colour calibration asks for it, the dice are laid out again and it is tried again, as a
    person would (three tries)."""
    rng = np.random.default_rng(seed)
    table = random_table(int(rng.integers(1 << 30)), game)
    lit = random_light(rng, light)
    for attempt in range(3):
        shot = calibration_frame(table, lit, int(rng.integers(1 << 30)))
        found = calibrate_table(shot.image, table.layout)
        try:
            return table, lit, found, learn_colours(shot.image, dice_set(game), table=found)
        except CalibrationError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
