"""The rendered tables the dice reader's figures are measured on (bench/vision.py), one by one.

Table `session` is drawn from its own seed, the editions take turns and the lights come round
two tables each, so any die the benchmark misreads can be looked at again, in a test or by
hand, without running the tables before it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.calibrate import CalibrationError, calibrate_table, learn_colours
from vision.dice import DiceReader
from vision.dicesets import dice_set
from vision.synth import (
    GAME_DICE,
    LIGHTS,
    Light,
    RenderedFrame,
    Table,
    calibration_frame,
    other_dice,
    random_light,
    random_table,
    roll_frame,
)

#: the two editions whose dice have pips, taking turns table by table
EDITIONS = ("camelup-2014", "camelup-2018")
#: how many shots of the dice a person lays out before colour calibration is given up
SHOTS = 3
#: the benchmark's tables are sessions from here on: no test and no tuning draws from them
#: (the reader's few hand-set choices were tuned on sessions 500,000 to 500,011)
VALIDATION_SESSIONS = 1_000_000
#: the same for the racing cards' tables (tuned on 700,000 to 700,399) and The Last Camel's
#: (tuned on 800,000 to 800,059)
CARD_VALIDATION_SESSIONS = 1_700_000
LAST_CAMEL_VALIDATION_SESSIONS = 1_800_000
#: and for tables whose dice are unlike the game's own (`rendered_table(unlike=True)`): only
#: ever measured, nothing tuned on them (tables from 1,900,000 were looked at while
#: `other_dice` was made; from 1,950,000 read once before calibration allowed a deeper shade)
UNLIKE_VALIDATION_SESSIONS = 1_960_000


@dataclass
class RenderedTable:
    """One table of the set: its game, its light's name, the reader calibrated for it as at
    set-up (markers, then one shot of all the dice; None when every shot failed), and how many
    shots calibration asked for again. Its frames (`roll()`) follow one after another."""

    game: str
    light_name: str
    reader: DiceReader | None
    retries: int
    table: Table
    light: Light
    rng: np.random.Generator

    def roll(self) -> RenderedFrame:
        """The next frame of dice thrown on this table."""
        return roll_frame(self.table, self.light, self.rng)


def rendered_table(session: int, *, unlike: bool = False) -> RenderedTable:
    """Table `session` of the set, calibrated; with `unlike`, its dice made unlike the game's
    own (`vision.synth.other_dice`), as another maker or another renderer makes them."""
    game = EDITIONS[session % len(EDITIONS)]
    light_name = LIGHTS[(session // 2) % len(LIGHTS)]
    rng = np.random.default_rng(10_000 + session)
    look = other_dice(np.random.default_rng(20_000 + session), game) if unlike else GAME_DICE
    table = random_table(int(rng.integers(1 << 30)), game, dice_look=look)
    light = random_light(rng, light_name)
    reader, retries = None, 0
    for _ in range(SHOTS):   # a person lays the dice out again when calibration asks
        shot = calibration_frame(table, light, int(rng.integers(1 << 30)))
        try:
            found = calibrate_table(shot.image, table.layout)
            colours = learn_colours(shot.image, dice_set(game), table=found)
        except CalibrationError:
            retries += 1
            continue
        reader = DiceReader(dice_set(game), colours, table=found)
        break
    return RenderedTable(game, light_name, reader, retries, table, light, rng)
