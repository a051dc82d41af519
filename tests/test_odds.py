"""The odds are exact: checked by hand on small positions and against every outcome of the rules."""

import random
import re
from collections import defaultdict
from dataclasses import replace

import numpy as np
import pytest

from companion.game import Game
from companion.odds import leg_odds, odds_json, race_odds, simulate_race, tile_landings
from companion.rules.camelup import Roll, State, apply
from tests.play import HEADERS, random_action

ALL_2014 = ["blue", "green", "orange", "yellow", "white"]


def position(game: str, start: dict, **part_way) -> State:
    header = {"game": game, "players": ["Ann", "Bob", "Cy"],
              "start": {str(s): c.split() for s, c in start.items()}, **part_way}
    return Game(header).state


def places(state: State) -> dict[str, list[float]]:
    odds = leg_odds(state)
    return {camel: odds.places[i].round(12).tolist() for i, camel in enumerate(odds.camels)}


def every_outcome(state: State):
    """Each way the leg can end, with its chance, played through the rules engine."""
    endings = []

    def roll_on(s: State, chance: float, landings: dict, rolls: int) -> None:
        if s.finished or rolls == 0:
            endings.append((s, chance, landings))
            return
        dice = s.dice_in_pyramid
        for die in dice:
            faces = [(v, n) for v in (1, 2, 3) for n in (("black", "white") if die == "grey"
                                                         else (None,))]
            for value, numeral in faces:
                after = apply(s, Roll(s.player_to_act, die, value, numeral))
                landed = dict(landings)
                for payout in after.payouts:
                    found = re.search(r"landed on .* on (\d+)$", payout.reason)
                    if found:
                        landed[int(found[1])] = landed.get(int(found[1]), 0) + 1
                roll_on(after, chance / len(dice) / len(faces), landed, rolls - 1)

    roll_on(state, 1.0, {}, state.edition.dice_per_leg - len(state.dice_out))
    return endings


def brute_force(state: State):
    racing = state.edition.racing_camels
    place = {c: [0.0] * len(racing) for c in racing}
    pairs, landings, winner = defaultdict(float), defaultdict(float), defaultdict(float)
    for end, chance, landed in every_outcome(state):
        ranking = end.ranking
        for k, camel in enumerate(ranking):
            place[camel][k] += chance
        pairs[ranking[0], ranking[1]] += chance
        for space, count in landed.items():
            landings[space] += chance * count
        if end.finished:
            winner[ranking[0]] += chance
    return place, pairs, landings, winner


def random_positions(name: str, seed: int, count: int, *, rolls_left: int):
    """Positions from random legal play with at most `rolls_left` rolls left in the leg."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = Game(HEADERS[name])
        while not game.state.finished and len(game) < rng.randint(5, 120):
            game.push(random_action(game, rng))
        state = game.state
        left = state.edition.dice_per_leg - len(state.dice_out)
        if not state.finished and left <= rolls_left:
            found.append(state)
    return found


def test_one_die_left_blue_passes_green_when_it_lands_on_or_beyond_it():
    state = position("camelup-2014", {5: "blue", 7: "green", 1: "orange", 2: "yellow",
                                      3: "white"}, dice_out=["green", "orange", "yellow", "white"])
    assert places(state) == {
        "blue": [pytest.approx(2 / 3), pytest.approx(1 / 3), 0, 0, 0],
        "green": [pytest.approx(1 / 3), pytest.approx(2 / 3), 0, 0, 0],
        "orange": [0, 0, 0, 0, 1],
        "yellow": [0, 0, 0, 1, 0],
        "white": [0, 0, 1, 0, 0],
    }


def test_two_dice_left_blue_leads_only_by_riding_green_or_landing_on_it():
    """Blue first: blue 2 then any green (rides it), or green 1 then blue 3 (lands on top)."""
    state = position("camelup-2014", {5: "blue", 7: "green", 1: "orange", 2: "yellow",
                                      3: "white"}, dice_out=["orange", "yellow", "white"])
    odds = leg_odds(state)
    assert odds.places[0, 0] == pytest.approx((3 / 9 + 1 / 9) / 2)
    assert odds.places[1, 0] == pytest.approx(1 - 2 / 9)
    assert odds.pairs[0, 1] + odds.pairs[1, 0] == pytest.approx(1)


def test_the_grey_die_moves_the_crazy_camel_carrying_a_racer_whatever_its_numeral():
    """White carries red back 1-3 from 10: red stays ahead of blue (8) unless it falls to 7."""
    state = position("camelup-2018", {1: "green", 3: "yellow", 4: "purple", 8: "blue",
                                      10: "white red", 14: "black"},
                     dice_out=["blue", "yellow", "red", "purple"])
    odds = leg_odds(state)
    red, blue = odds.camels.index("red"), odds.camels.index("blue")
    assert odds.places[red, 0] == pytest.approx(1 / 2 + 1 / 2 * 2 / 3)
    assert odds.places[blue, 0] == pytest.approx(1 / 2 * 1 / 3)


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_leg_odds_match_every_outcome_of_the_rules_on_random_positions(name):
    for state in random_positions(name, seed=7, count=12, rolls_left=3):
        place, pairs, landings, winner = brute_force(state)
        odds = leg_odds(state)
        for i, camel in enumerate(odds.camels):
            assert odds.places[i] == pytest.approx(place[camel], abs=1e-12)
            assert odds.winner[i] == pytest.approx(winner[camel], abs=1e-12)
            for j, other in enumerate(odds.camels):
                assert odds.pairs[i, j] == pytest.approx(pairs[camel, other], abs=1e-12)
        assert odds.landings == pytest.approx(dict(landings), abs=1e-12)


def test_a_full_2014_leg_with_desert_tiles_matches_every_outcome():
    state = position("camelup-2014", {1: "blue green", 2: "yellow", 3: "orange white"},
                     tiles={"5": {"owner": "Ann", "side": "mirage"},
                            "7": {"owner": "Bob", "side": "oasis"}})
    place, _, landings, _ = brute_force(state)
    odds = leg_odds(state)
    assert {c: odds.places[i].tolist() for i, c in enumerate(odds.camels)} == {
        c: pytest.approx(place[c], abs=1e-12) for c in ALL_2014}
    assert odds.landings == pytest.approx(dict(landings), abs=1e-12)


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_every_camel_has_one_place_and_every_place_one_camel(name):
    for state in random_positions(name, seed=3, count=5, rolls_left=5):
        odds = leg_odds(state)
        assert odds.places.sum(axis=0) == pytest.approx(np.ones(5))
        assert odds.places.sum(axis=1) == pytest.approx(np.ones(5))
        assert odds.pairs.sum() == pytest.approx(1)


def test_race_odds_are_exact_when_the_race_must_end_this_leg_and_the_simulation_agrees():
    state = position("camelup-2014", {15: "orange yellow white", 16: "blue green"},
                     dice_out=["orange", "yellow", "white"])
    leg = leg_odds(state)
    exact = race_odds(state, leg)
    simulated = simulate_race(state, races=40_000, seed=1)
    assert (exact.races, exact.stderr) == (0, 0.0)
    assert exact.winner == pytest.approx(leg.places[:, 0])
    assert exact.loser == pytest.approx(leg.places[:, -1])
    assert simulated.winner == pytest.approx(exact.winner, abs=4 * simulated.stderr)
    assert simulated.loser == pytest.approx(exact.loser, abs=4 * simulated.stderr)


def test_race_odds_from_the_start_report_their_races_and_standard_error():
    state = Game(HEADERS["camelup-2018"]).state
    race = race_odds(state, leg_odds(state))
    assert race.races == 10_000 and 0 < race.stderr <= 0.005
    assert race.winner.sum() == pytest.approx(1) and race.loser.sum() == pytest.approx(1)


def test_the_same_position_gives_the_same_figures_unless_the_seed_changes():
    state = Game(HEADERS["camelup-2014"]).state
    assert odds_json(state) == odds_json(state)
    assert odds_json(state, seed=5)["race"] != odds_json(state)["race"]


def test_a_leg_bet_is_worth_its_ticket_on_the_leg_odds():
    state = position("camelup-2014", {5: "blue", 7: "green", 1: "orange", 2: "yellow",
                                      3: "white"}, dice_out=["green", "orange", "yellow", "white"])
    advice = {tuple(a["action"].items()): a["ev"] for a in odds_json(state)["actions"]}
    leg_bet = (("player", "Ann"), ("action", "leg_bet"))
    assert advice[(*leg_bet, ("camel", "blue"))] == pytest.approx(5 * 2 / 3 + 1 / 3, abs=1e-4)
    assert advice[(*leg_bet, ("camel", "green"))] == pytest.approx(5 * 1 / 3 + 2 / 3, abs=1e-4)
    assert advice[(*leg_bet, ("camel", "white"))] == -1
    assert advice[(("player", "Ann"), ("action", "roll"))] == 1


def test_a_tile_is_worth_the_landings_expected_on_it():
    state = position("camelup-2014", {5: "blue", 7: "green", 1: "orange", 2: "yellow",
                                      3: "white"}, dice_out=["green", "orange", "yellow", "white"])
    advice = {tuple(a["action"].items()): a["ev"] for a in odds_json(state)["actions"]}
    tile = (("player", "Ann"), ("action", "desert_tile"))
    assert advice[(*tile, ("space", 6), ("side", "oasis"))] == pytest.approx(1 / 3, abs=1e-4)
    assert advice[(*tile, ("space", 12), ("side", "oasis"))] == 0


def test_a_finish_card_counts_the_cards_before_it_but_not_their_hidden_colours():
    state = position("camelup-2014", {15: "orange yellow white", 16: "blue green"},
                     dice_out=["orange", "yellow", "white"],
                     race_bets={"winner": [{"player": "Bob", "camel": "blue"}]})
    twin = position("camelup-2014", {15: "orange yellow white", 16: "blue green"},
                    dice_out=["orange", "yellow", "white"],
                    race_bets={"winner": [{"player": "Bob", "camel": "green"}]})
    for s in (state, twin):
        odds = odds_json(s)
        chance = odds["race"]["winner"]["blue"]
        advice = {tuple(a["action"].items()): a["ev"] for a in odds["actions"]}
        card = (("player", "Ann"), ("action", "race_bet"), ("pile", "winner"), ("camel", "blue"))
        expected = chance * (chance * 5 + (1 - chance) * 8) - (1 - chance)
        assert advice[card] == pytest.approx(expected, abs=1e-4)


def test_advice_lists_every_legal_action_best_first():
    game = Game(HEADERS["camelup-2018"])
    odds = odds_json(game.state)
    evs = [a["ev"] for a in odds["actions"]]
    assert evs == sorted(evs, reverse=True)
    assert len(odds["actions"]) == len(game.legal_actions())


def test_a_finished_race_has_certain_odds_and_no_advice():
    rng = random.Random(1)
    game = Game(HEADERS["camelup-2014"])
    while not game.state.finished:
        game.push(random_action(game, rng))
    odds = odds_json(game.state)
    ranking = game.state.ranking
    assert odds["actions"] == []
    assert [odds["leg"][c].index(1.0) for c in ranking] == [0, 1, 2, 3, 4]
    assert odds["race"]["winner"][ranking[0]] == 1 and odds["race"]["races"] == 0


def test_odds_leave_the_state_untouched():
    state = Game(HEADERS["camelup-2018"]).state
    before = replace(state)
    odds_json(state)
    assert state == before


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_all_tile_placements_at_once_match_each_placement_on_its_own(name):
    for state in random_positions(name, seed=11, count=4, rolls_left=5):
        me = state.player_to_act
        others = {s: (1 if t.side == state.edition.tile_sides[0] else -1)
                  for s, t in state.tiles if t.owner != me}
        placements = [(space, code) for space in range(2, 17) for code in (1, -1)
                      if state.track.is_empty_at(space) and not {space - 1, space, space + 1}
                      & set(others)]
        together = tile_landings(state, me, placements)
        for space, code in placements:
            alone = leg_odds(state, {**others, space: code}).landings.get(space, 0.0)
            assert together[space, code] == pytest.approx(alone, abs=1e-12)


def test_race_odds_are_exact_when_the_race_must_end_within_two_legs():
    """White on 15 moves at least once a leg, so the race ends in leg 1 or 2 whatever comes."""
    state = position("camelup-2014", {9: "blue", 12: "green orange", 13: "yellow",
                                      15: "white"})
    leg = leg_odds(state)
    exact = race_odds(state, leg)
    simulated = simulate_race(state, races=40_000, seed=3)
    assert 0 < leg.race_over < 1 and (exact.races, exact.stderr) == (0, 0.0)
    assert exact.winner.sum() == pytest.approx(1) and exact.loser.sum() == pytest.approx(1)
    assert simulated.winner == pytest.approx(exact.winner, abs=4 * simulated.stderr)
    assert simulated.loser == pytest.approx(exact.loser, abs=4 * simulated.stderr)


def test_race_odds_simulated_from_the_legs_exact_ends_agree_with_whole_races_simulated():
    state = position("camelup-2018", {6: "green", 7: "black yellow", 8: "blue red",
                                      9: "purple", 11: "white"}, dice_out=["blue"])
    race = race_odds(state, leg_odds(state))
    whole = simulate_race(state, races=40_000, seed=3)
    assert race.races == 10_000 and 0 < race.stderr <= 0.005
    tolerance = 4 * np.hypot(race.stderr, whole.stderr)
    assert race.winner == pytest.approx(whole.winner, abs=tolerance)
    assert race.loser == pytest.approx(whole.loser, abs=tolerance)


def test_race_odds_left_with_part_of_their_chance_simulate_more_races_and_err_less():
    """Finish in reach: about half the chance is left after the exact leg, so twice the races."""
    state = position("camelup-2018", {10: "green", 12: "yellow black", 13: "blue", 14: "red",
                                      15: "purple white"}, dice_out=["red"])
    leg = leg_odds(state)
    race = race_odds(state, leg)
    assert race.races == int(10_000 / (1 - leg.race_over))
    assert race.stderr < 0.005 * (1 - leg.race_over) * 0.75
    assert race.winner.sum() == pytest.approx(1) and race.loser.sum() == pytest.approx(1)
