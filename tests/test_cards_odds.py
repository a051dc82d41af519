"""Camel Up Cards odds: checked outcome by outcome against the rules engine, on a model of the
deck worked out here the long way (every deck it can be, weighed by Bayes' rule)."""

import itertools
import math
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from companion import cards_odds
from companion.cards_odds import (
    ALL_CARDS,
    CARD_TYPES,
    Rows,
    action_values,
    leg_odds,
    odds_json,
    race_odds,
    set_up_leg,
    simulate_race,
    start_of,
)
from companion.game import Game
from companion.gamelog import load_game
from companion.odds import ODDS
from companion.rules.cards import (
    CAMELS,
    FIGURES,
    FinalBet,
    LegBet,
    LegSetup,
    PlaceFigure,
    PlayHand,
    Reveal,
    State,
    apply,
)
from tests.play import random_cards_action, random_game

SETUP = {"dealt": 9, "discarded": 4, "kept": 5, "deck": 3, "left": 2, "intel": 1}
HEADER = {"game": "camelup-cards", "players": ["Ann", "Bob", "Cy"], "length": 16,
          "setup": SETUP, "start": {"0": ["white"], "1": ["orange"], "2": ["blue", "green"],
                                    "3": ["yellow"]}}
EXAMPLE = "examples/camelup-cards.jsonl"


def within_legs(seed: int, *, most_left: int):
    """Positions of random legal play within a leg, with at most `most_left` cards in the deck."""
    rng = random.Random(seed)
    while True:
        game = random_game(HEADER, rng.randrange(10**6), pick=random_cards_action)
        states = [game.state_after(n) for n in range(len(game) + 1)]
        fits = [s for s in states if not s.finished and not s.due and s.deck <= most_left]
        yield from rng.sample(fits, min(2, len(fits)))


def positions(seed: int, count: int, *, most_left: int) -> list[State]:
    return list(itertools.islice(within_legs(seed, most_left=most_left), count))


def race_ending(seed: int) -> State:
    """A position whose leg cannot end without a camel crossing the finish line."""
    return next(s for s in within_legs(seed, most_left=2) if leg_odds(s).race_over == 1)


def deck_chance(state: State, cards: tuple[tuple[str, int], ...], hands: tuple[str, ...]
                ) -> float:
    """How likely, up to a constant, the leg's revealed cards followed by `cards` are.

    Every value the hand cards played (and `hands`) can have, each as often as the cards not
    shown as intel allow; then the deck that the revealed and future cards make up, its secret
    part a random draw from the rest; then this order of that deck.
    """
    intel = Counter((c, v) for _, c, v in state.intel)
    deck = Counter(state.revealed) + Counter(cards)
    secret = state.deck_size - len(state.intel)
    held = [p.hand_played for p in state.players if p.hand_played] + list(hands)
    total = 0.0
    for values in itertools.product((1, 2), repeat=len(held)):
        pool = Counter({kind: int(n) for kind, n in zip(CARD_TYPES, ALL_CARDS, strict=True)})
        chance = 1.0
        for camel, value in zip(held, values, strict=True):
            left = {v: pool[camel, v] - intel[camel, v] for v in (1, 2)}
            chance *= max(left[value], 0) / max(sum(left.values()), 1)
            pool[camel, value] -= 1
        for kind in CARD_TYPES:
            extra, free = deck[kind] - intel[kind], pool[kind] - intel[kind]
            chance *= math.comb(free, extra) if extra >= 0 and free >= 0 else 0
            chance *= math.factorial(deck[kind])
        total += chance
    return total / math.comb(sum(ALL_CARDS) - len(state.intel) - len(held), secret)


def every_outcome(state: State, hands: tuple[str, ...] = ()):
    """Each way the rest of the deck can come out, with its chance, through the rules engine."""
    weighed = []
    for cards in itertools.product(CARD_TYPES, repeat=state.deck):
        chance = deck_chance(state, cards, hands)
        if chance:
            end = state
            for camel, value in cards:
                if end.finished:
                    break
                end = apply(end, Reveal(end.player_to_act, camel, value))
            weighed.append((end, chance))
    total = sum(chance for _, chance in weighed)
    return [(end, chance / total) for end, chance in weighed]


def brute_force(state: State, hands: tuple[str, ...] = ()):
    places, race = np.zeros((5, 5)), np.zeros((5, 5))
    figures = np.zeros(2)
    for end, chance in every_outcome(state, hands):
        for i, camel in enumerate(CAMELS):
            places[i, end.place(camel) - 1] += chance
            if end.finished:
                race[i, end.place(camel) - 1] += chance
        figures += chance * np.array([end.figure_space(f) is not None for f in FIGURES])
    return places, race, figures


def leg_pay(state: State, player: str, hands: tuple[str, ...] = ()) -> float:
    """The player's leg payout expected, from the engine's own payout lines."""
    return sum(chance * sum(p.amount for p in end.payouts if p.player == player
                            and not p.reason.startswith(("final", "money never")))
               for end, chance in every_outcome(state, hands))


def test_cards_odds_are_registered_for_the_cli_and_the_advisor():
    assert ODDS["camelup-cards"] is odds_json


@pytest.mark.parametrize("seed", range(3))
def test_leg_odds_match_every_outcome_of_the_rules_on_random_positions(seed):
    for state in positions(seed, 6, most_left=3):
        odds = leg_odds(state)
        places, race, figures = brute_force(state)
        assert odds.samples == 0
        np.testing.assert_allclose(odds.places, places, atol=1e-12)
        np.testing.assert_allclose(odds.race_places, race, atol=1e-12)
        np.testing.assert_allclose(odds.figures_on, figures, atol=1e-12)


def test_a_revealed_card_like_an_intel_card_may_have_been_a_secret_one():
    """Blue +1 shown as intel and revealed: the deck may still hold that intel card."""
    game = load_game(EXAMPLE)
    state = next(game.state_after(n) for n in range(len(game) + 1)
                 if game.state_after(n).deck == 3 and game.state_after(n).leg == 1)
    assert ("blue", 1) in state.revealed and ("blue", 1) in {(c, v) for _, c, v in state.intel}
    np.testing.assert_allclose(leg_odds(state).places, brute_force(state)[0], atol=1e-12)


@pytest.mark.parametrize("figures", [{"fennec": 1, "palm": 3}, {"palm": 5, "fennec": 6}])
def test_figures_chain_and_send_a_camel_back_to_the_start_card_as_the_rules_do(figures):
    game = Game({**HEADER, "start": {"0": ["white", "green"], "2": ["orange", "blue"],
                                     "4": ["yellow"]}})
    game.push(LegSetup(12, (("Ann", "white", 1), ("Bob", "blue", 1), ("Cy", "yellow", 1))))
    for figure, space in figures.items():
        game.push(PlaceFigure(game.state.player_to_act, figure, space))
    state = game.state
    for camel, steps in itertools.product(range(5), (1, 2)):
        moved = cards_odds.move(Rows.of(state), np.array([camel]), np.array([steps]))
        after = Rows.of(apply(state, Reveal(state.player_to_act, CAMELS[camel], steps)))
        for field in ("pos", "height", "figures"):
            np.testing.assert_array_equal(getattr(moved, field), getattr(after, field))


def test_the_setup_before_a_leg_matches_the_rules_sandstorms_and_extension():
    flipped = extended = 0
    for seed in range(6):
        game = random_game(HEADER, seed, pick=random_cards_action)
        for n in range(1, len(game)):
            before = game.state_after(n)
            if not before.due:
                continue
            after = Rows.of(game.state_after(n + 1))
            ours = set_up_leg(Rows.of(before))
            width = len(after.cards)
            assert ours.cards[width:].sum() == 0
            for field in ("pos", "height", "figures", "length"):
                np.testing.assert_array_equal(getattr(ours, field), getattr(after, field))
            np.testing.assert_array_equal(ours.cards[:width], after.cards)
            flipped += after.cards.min() == 1 and before.cards != game.state_after(n + 1).cards
            extended += int(after.length[0]) > before.length
    assert flipped and extended


def test_simulated_legs_agree_with_exact_ones_within_their_standard_error():
    state = next(s for s in positions(11, 40, most_left=8) if s.deck >= 6)
    start = start_of(state)
    exact = cards_odds.legs([start], samples=20_000, seed=3)[0]
    simulated = cards_odds._simulated_legs([start], 20_000, 3)[0]
    assert exact.samples == 0 and simulated.samples == 20_000
    assert np.abs(simulated.places - exact.places).max() <= 4.5 * simulated.stderr


def test_a_full_leg_is_simulated_and_says_so():
    game = load_game(EXAMPLE)
    odds = odds_json(game.state_after(1))
    assert "20,000 simulated legs" in odds["assumes"] and "exact" not in odds["assumes"]
    assert all(sum(chances) == pytest.approx(1) for chances in odds["leg"].values())


def test_race_odds_are_exact_when_the_race_must_end_this_leg_and_the_simulation_agrees():
    state = race_ending(5)
    leg = leg_odds(state)
    exact = race_odds(state, leg)
    simulated = simulate_race(state, races=20_000, seed=2)
    assert (exact.races, exact.stderr) == (0, 0.0)
    np.testing.assert_allclose(exact.places, leg.race_places)
    assert np.abs(simulated.places - exact.places).max() <= 4.5 * simulated.stderr


def test_race_odds_between_legs_play_out_later_legs_and_repeat_with_the_seed():
    state = Game(HEADER).state
    race = race_odds(state, leg_odds(state))
    assert race.races == 10_000 and 0 < race.stderr <= 0.005
    assert race.winner.sum() == pytest.approx(1)
    assert race.places.sum(axis=1) == pytest.approx(np.ones(5))
    assert odds_json(state) == odds_json(state)
    assert odds_json(state, seed=5)["race"] != odds_json(state)["race"]


@pytest.mark.parametrize("seed", range(3))
def test_every_action_is_worth_what_the_engine_pays_for_it(seed):
    """A bet and a race-track action each change its player's leg payout, engine-counted."""
    for state in positions(seed + 20, 3, most_left=2):
        leg = leg_odds(state)
        values = dict(action_values(state, leg, race_odds(state, leg)))
        for action, value in values.items():
            if isinstance(action, (LegBet, PlaceFigure, PlayHand)):
                after = apply(state, action)
                hands = (action.camel,) if isinstance(action, PlayHand) else ()
                change = leg_pay(after, action.player) - leg_pay(state, action.player, hands)
                assert value == pytest.approx(change, abs=1e-9), action
            elif isinstance(action, Reveal):
                assert value == 0


def test_advice_that_would_pass_the_cap_is_simulated_at_once_with_the_figures_trying_gives(
        monkeypatch):
    """Where the actions' exact odds would need more rows than the cap, the advice goes
    straight to simulating them: the very figures it gave when it first tried, and failed."""
    tried = cards_odds.legs
    failed = []
    exact_legs = cards_odds._exact_legs

    def trying(starts, **options):
        return tried(starts, **{**options, "exact": True})

    def recording(starts):
        worked = exact_legs(starts)
        failed.append(worked is None)
        return worked

    game = load_game(EXAMPLE)
    for state in (game.state_after(10), game.state_after(12), *positions(3, 4, most_left=8)):
        leg = leg_odds(state)
        race = race_odds(state, leg)
        quick = action_values(state, leg, race)
        with monkeypatch.context() as patched:
            patched.setattr(cards_odds, "legs", trying)
            patched.setattr(cards_odds, "_exact_legs", recording)
            assert action_values(state, leg, race) == quick
    assert any(failed)


def test_a_final_card_is_worth_its_pay_less_the_players_own_card_it_sends_back():
    state = race_ending(7)
    me = state.player_to_act
    state = replace(state, final_bets=(("loser", me, "white"),))
    leg = leg_odds(state)
    race = race_odds(state, leg)
    pay = {"white": 0.0, "blue": 0.0}
    for end, chance in every_outcome(state):
        for camel in pay:
            place = end.place(camel)
            pay[camel] += chance * {5: 7, 4: 3}.get(place, -1)
    values = dict(action_values(state, leg, race))
    assert values[FinalBet(me, "loser", "blue")] == pytest.approx(pay["blue"] - pay["white"])


def test_the_json_has_the_board_games_shape_and_an_assumption_to_show():
    odds: dict[str, Any] = odds_json(load_game(EXAMPLE).state_after(20))
    assert set(odds) == {"leg", "race", "actions", "assumes", "leg_samples", "leg_stderr"}
    assert list(odds["leg"]) == list(CAMELS)
    assert set(odds["race"]) == {"winner", "loser", "races", "stderr"}
    assert odds["actions"][0]["ev"] >= odds["actions"][-1]["ev"]
    assert {a["action"]["action"] for a in odds["actions"]} >= {"reveal", "leg_bet",
                                                                "final_bet"}
    assert "leg odds exact" in odds["assumes"]
    assert odds["leg_samples"] == odds["leg_stderr"] == 0


def test_between_legs_and_after_the_race_nothing_is_advised():
    game = load_game(EXAMPLE)
    assert odds_json(game.state_after(0))["actions"] == []
    final = odds_json(game.state)
    assert final["actions"] == []
    winner = max(final["race"]["winner"], key=final["race"]["winner"].get)
    assert final["race"]["winner"][winner] == 1 and winner == game.state.ranking[0]
