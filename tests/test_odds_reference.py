"""The leg odds stay what they were: every figure agrees to 1e-12 with the odds as computed
before they were made faster (commit 6e09cfc, `companion/odds.py` as it was then), on 89
positions: full legs and mid-leg of both editions, after the grey die, with the finish in
reach, with crazy camels carrying racing camels, with tiles, and from random play.

`leg_odds_reference.json` holds each position as its game log with that code's figures.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from companion.game import Game
from companion.odds import leg_odds, tile_landings

REFERENCE = json.loads((Path(__file__).parent / "leg_odds_reference.json").read_text())


def game_of(log: list[dict]) -> Game:
    game = Game(log[0])
    for line in log[1:]:
        game.push(game.parse_action(line))
    return game


@pytest.mark.parametrize("case", REFERENCE, ids=range(len(REFERENCE)))
def test_the_leg_odds_and_tile_landings_are_those_computed_before(case):
    state = game_of(case["log"]).state
    odds = leg_odds(state)
    for name in ("places", "pairs", "winner", "loser"):
        assert np.allclose(getattr(odds, name), case[name], rtol=0, atol=1e-12), name
    assert odds.race_over == pytest.approx(case["race_over"], rel=0, abs=1e-12)
    assert odds.landings == pytest.approx({int(k): v for k, v in case["landings"].items()},
                                          rel=0, abs=1e-12)
    landings = tile_landings(state, state.player_to_act,
                             [(space, code) for space, code, _ in case["tiles"]])
    assert landings == pytest.approx({(s, c): v for s, c, v in case["tiles"]}, rel=0, abs=1e-12)


def test_the_reference_holds_every_kind_of_position():
    states = [game_of(case["log"]).state for case in REFERENCE]
    left = {(s.edition.game, s.edition.dice_per_leg - len(s.dice_out)) for s in states}
    assert left == {(game, n) for game in ("camelup-2014", "camelup-2018") for n in range(1, 6)}
    assert any("grey" in s.dice_out for s in states)
    assert any(case["race_over"] > 0 for case in REFERENCE)
    assert any(s.tiles for s in states)
