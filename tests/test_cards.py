"""Camel Up Cards: one test per rule of book 001, its rulings and the log format of issue 7.

Positions are written as the rule book draws them, `{space: "bottom ... top"}` (0 is the Start
card), and lines as the game log writes them, so a test shows the table before and after.
"""

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import BadHeader, IllegalAction
from companion.game import Game
from companion.gamelog import load_game
from companion.rules import cards
from companion.rules.cards import CAMELS, LegSetup, state_json
from tests.play import random_cards_action, random_game
from tests.rulebook import money, play, refuse, track

ROOT = Path(__file__).parent.parent
SETUP = {"dealt": 9, "discarded": 4, "kept": 5, "deck": 3, "left": 2, "intel": 1}
SETUP_2 = {"dealt": 12, "discarded": 6, "kept": 6, "deck": 5, "left": 1, "intel": 0}
INTEL = ("blue 1", "green 2", "white 1")
SPREAD = {0: "white", 1: "orange", 2: "blue green", 3: "yellow"}


def header(start: dict[int, str], players: str = "Ann Bob Cy", **more: Any) -> dict[str, Any]:
    return {"game": "camelup-cards", "players": players.split(), "length": 16,
            "setup": SETUP, "start": {str(s): c.split() for s, c in start.items()}, **more}


def setup_line(game: Game, intel: tuple[str, ...] = INTEL) -> dict[str, Any]:
    cards_shown = [card.split() for card in intel]
    return {"action": "leg_setup", "deck": game.state.deck_size,
            "intel": {name: {"camel": c, "value": int(v)}
                      for name, (c, v) in zip(game.state.names, cards_shown, strict=False)}}


def table(start: dict[int, str] = SPREAD, intel: tuple[str, ...] = INTEL, **more: Any) -> Game:
    """A game set up and its first leg_setup played."""
    game = Game(header(start, **more))
    return play(game, setup_line(game, intel))


def act(game: Game, action: str, **keys: Any) -> Game:
    """The player to act plays `action`."""
    return play(game, {"player": game.state.player_to_act, "action": action, **keys})


def reveal(game: Game, *cards_seen: str) -> Game:
    """Each card, "blue 1", revealed by whoever is to act."""
    for card in cards_seen:
        camel, value = card.split()
        act(game, "reveal", camel=camel, value=int(value))
    return game


def view(game: Game) -> dict[str, Any]:
    return state_json(game.state)


def line(player: str, action: str, **keys: Any) -> dict[str, Any]:
    return {"player": player, "action": action, **keys}


# --- the header ------------------------------------------------------------------------------


def test_the_issue_example_replays_as_written():
    game = table()
    play(game,
         line("Ann", "leg_bet", camel="yellow", kind="winner"),
         line("Ann", "reveal", camel="green", value=2),
         line("Bob", "place_figure", figure="palm", space=6),
         line("Bob", "final_bet", pile="loser", camel="white"),
         line("Cy", "play_hand", camel="yellow"))
    v = view(game)
    assert track(game) == {0: "white", 1: "orange", 2: "blue", 4: "green yellow"}
    assert v["ranking"] == ["yellow", "green", "blue", "orange", "white"]
    assert (v["leg"], v["turn"], v["deck"], v["finished"]) == (1, "Ann", 11, False)
    assert v["figures"] == {"fennec": None, "palm": 6}
    assert (v["length"], v["sandstorm"], v["winners"]) == (16, [], [])
    assert v["players"] == [{"name": n, "money": 3} for n in ("Ann", "Bob", "Cy")]


def test_a_fresh_header_waits_for_the_leg_setup_with_the_poorest_player_to_start():
    game = Game(header(SPREAD, money={"Ann": 5, "Cy": 2}))
    v = view(game)
    assert (v["leg"], v["turn"], v["deck"], v["leg_setup_due"]) == (1, "Cy", 0, True)
    assert track(game) == {0: "white", 1: "orange", 2: "blue green", 3: "yellow"}
    refuse(game, line("Cy", "reveal", camel="blue", value=1), "leg_setup is due")
    refuse(game, line("Cy", "leg_bet", camel="blue", kind="winner"), "leg_setup is due")


def test_a_tie_for_least_money_goes_to_the_earliest_in_seating_order():
    assert view(Game(header(SPREAD, money={"Ann": 5})))["turn"] == "Bob"


@pytest.mark.parametrize("setup", [
    {**SETUP, "kept": 4},
    {**SETUP, "left": 1},
    {**SETUP, "deck": 2, "left": 3},
    {**SETUP, "intel": 0},
    {"dealt": 11, "discarded": 4, "kept": 7, "deck": 5, "left": 2, "intel": 1},
    {k: v for k, v in SETUP.items() if k != "dealt"},
    {**SETUP, "dealt": "9"},
], ids=["kept", "left", "deck of 15", "intel", "33 cards dealt", "missing", "a string"])
def test_a_leg_setup_card_that_breaks_the_rule_book_is_refused(setup):
    with pytest.raises(BadHeader):
        Game(header(SPREAD, setup=setup))


def test_two_players_keep_one_card_and_show_no_intel():
    game = Game(header(SPREAD, players="Ann Bob", setup=SETUP_2))
    refuse(game, {"action": "leg_setup", "deck": 10,
                  "intel": {"Ann": {"camel": "blue", "value": 1}}}, "nobody shows")
    play(game, {"action": "leg_setup", "deck": 10, "intel": {}})
    assert view(game)["deck"] == 10


@pytest.mark.parametrize("start", [
    {0: "white", 1: "orange", 2: "blue", 3: "yellow"},
    {0: "white", 1: "orange white", 2: "blue green", 3: "yellow"},
    {0: "white orange blue green yellow"},
    {0: "white", 1: "orange", 2: "blue green", 7: "yellow"},
    {0: "white", 1: "orange", 2: "blue green", 3: "pink yellow"},
], ids=["a camel left out", "a camel twice", "all on the Start card", "space 7", "unknown"])
def test_the_start_must_hold_every_camel_once_with_one_off_the_start_card(start):
    with pytest.raises(BadHeader):
        Game(header(start))


@pytest.mark.parametrize("names", ["Ann", "A B C D E F G", "Ann Bob Ann"])
def test_one_player_seven_players_or_a_name_twice_are_refused(names):
    with pytest.raises(BadHeader):
        Game(header(SPREAD, players=names))


# --- the setup before each leg -----------------------------------------------------------------


def test_a_wrong_deck_size_or_a_missing_intel_card_is_refused():
    game = Game(header(SPREAD))
    refuse(game, {**setup_line(game), "deck": 10}, "12 cards")
    refuse(game, setup_line(game, INTEL[:2]), "Cy must show")
    refuse(game, {**setup_line(game), "intel": {**setup_line(game)["intel"],
                                                 "Dee": {"camel": "blue", "value": 1}}},
           "unknown player")
    refuse(game, setup_line(game, ("blue 2", "blue 2", "white 1")), "no 2nd blue \\+2")
    refuse(game, {**setup_line(game), "intel": {"Ann": {"camel": "blue", "value": 3}}},
           "value")


def test_a_leg_setup_when_none_is_due_is_refused():
    game = table()
    refuse(game, setup_line(game), "no leg_setup is due")


def test_empty_cards_between_the_last_camel_and_the_leader_turn_to_sandstorm():
    game = table({0: "white", 1: "orange", 2: "blue", 7: "green yellow"}, leg=2)
    assert track(game) == {0: "white", 1: "orange", 2: "blue", 5: "green yellow"}
    assert (view(game)["length"], view(game)["sandstorm"]) == (14, [3, 4])


def test_sandstorm_counts_from_the_last_camel_off_the_start_card_and_never_ahead_of_the_leader():
    game = table({1: "white orange", 5: "blue", 9: "green", 10: "yellow"}, leg=2)
    assert track(game) == {1: "white orange", 4: "blue", 7: "green", 8: "yellow"}
    assert (view(game)["length"], view(game)["sandstorm"]) == (14, [3, 6])


def test_a_sandstorm_card_is_never_flipped_back_and_the_numbers_stay():
    game = table({0: "white", 1: "orange", 2: "blue", 7: "green yellow"}, leg=2)
    reveal(game, "orange 1", "orange 1", "orange 1", "orange 1", "orange 1",
           "yellow 1", "yellow 1", "yellow 1", "yellow 1", "blue 1", "white 1", "green 2")
    assert track(game) == {1: "white", 3: "blue", 6: "orange", 7: "green", 9: "yellow"}
    assert (view(game)["leg_setup_due"], view(game)["sandstorm"]) == (True, [3, 4])
    play(game, setup_line(game))
    assert track(game) == {1: "white", 3: "blue", 6: "orange", 7: "green", 9: "yellow"}
    assert (view(game)["length"], view(game)["sandstorm"]) == (14, [3, 4])


ROW = {1: "white", 3: "orange", 5: "blue", 7: "green", 10: "yellow"}
"""A camel on every card up to the leader on 10: no sandstorm."""


@pytest.mark.parametrize(("length", "after", "spaces"), [
    (12, 13, 14), (13, 13, 14), (16, 16, 16), (11, 13, 14)])
def test_the_track_is_extended_to_exactly_three_spaces_ahead_of_the_leader(length, after, spaces):
    state = table(ROW, length=length, leg=2).state
    assert (state.length, sum(state.cards), state.sandstorm) == (after, spaces, [])


def test_an_odd_length_half_covered_card_is_uncovered_first():
    state = table({**ROW, 9: "yellow", 10: ""}, length=11, leg=2).state
    assert (state.length, sum(state.cards), len(state.cards)) == (12, 12, 6)


def test_the_leg_setup_brings_the_figures_and_cards_back():
    game = table({0: "white", 1: "orange", 2: "blue", 3: "green", 4: "yellow"},
                 leg=2, figures={"palm": 9})
    assert view(game)["figures"] == {"fennec": None, "palm": None}
    assert view(game)["winner_cards_left"] == {c: [5, 3, 2, 2] for c in CAMELS}


# --- movement --------------------------------------------------------------------------------


def test_a_camel_carries_those_above_it_and_lands_on_top():
    game = reveal(table(), "blue 2")
    assert track(game) == {0: "white", 1: "orange", 3: "yellow", 4: "blue green"}
    reveal(game, "orange 2")
    assert track(game) == {0: "white", 3: "yellow orange", 4: "blue green"}


def test_camels_on_the_start_card_are_never_stacked_and_leave_it_one_by_one():
    game = reveal(table({0: "white green blue", 2: "orange", 3: "yellow"}), "green 2")
    assert track(game) == {0: "blue white", 2: "orange green", 3: "yellow"}
    assert view(game)["ranking"] == ["yellow", "green", "orange", "blue", "white"]


def test_the_palm_moves_a_unit_one_more_on_top_and_goes_back_with_its_card():
    game = act(table(), "place_figure", figure="palm", space=5)
    assert game.state.holder("palm") == "Ann"
    reveal(game, "yellow 2")
    assert track(game)[6] == "yellow"
    assert (view(game)["figures"]["palm"], view(game)["figure_cards"]["palm"]) == (None, None)


def test_the_fennec_moves_a_unit_one_back_underneath():
    game = act(table(), "place_figure", figure="fennec", space=4)
    reveal(game, "blue 2")
    assert track(game) == {0: "white", 1: "orange", 3: "blue green yellow"}
    assert view(game)["figures"]["fennec"] is None


def test_a_camel_sent_back_by_the_fennec_on_space_1_rejoins_the_start_card():
    game = table({0: "white green", 2: "orange blue", 3: "yellow"})
    act(game, "place_figure", figure="fennec", space=1)
    reveal(game, "white 1")
    assert track(game) == {0: "green white", 2: "orange blue", 3: "yellow"}


def test_adjacent_figures_chain_and_both_go_back():
    game = table({0: "white", 1: "orange", 2: "blue", 3: "green yellow"})
    act(game, "place_figure", figure="palm", space=4)
    act(game, "place_figure", figure="fennec", space=5)
    reveal(game, "yellow 1")
    assert track(game) == {0: "white", 1: "orange", 2: "blue", 3: "green", 4: "yellow"}
    assert view(game)["figures"] == {"fennec": None, "palm": None}


def test_a_figure_every_camel_has_passed_goes_back_with_its_card():
    game = table({1: "white", 3: "orange", 4: "blue", 5: "green", 6: "yellow"}, leg=2)
    act(game, "place_figure", figure="fennec", space=2)
    reveal(game, "orange 1")
    assert view(game)["figures"]["fennec"] == 2
    reveal(game, "white 2")
    assert track(game)[3] == "white"
    assert view(game)["figures"]["fennec"] is None
    assert view(game)["figure_cards"]["fennec"] is None


@pytest.mark.parametrize(("space", "match"), [
    (1, "camels on it"), (2, "camels on it"), (17, "past the last space"),
    (5, "holds the palm")])
def test_a_figure_goes_on_an_empty_space_on_the_track(space, match):
    game = act(table(), "place_figure", figure="palm", space=5)
    refuse(game, line("Bob", "place_figure", figure="fennec", space=space), match)


def test_a_figure_never_goes_behind_the_last_camel_nor_twice_on_the_track():
    game = table({1: "white", 3: "orange", 4: "blue", 5: "green", 6: "yellow"}, leg=2)
    refuse(game, line("Ann", "place_figure", figure="palm", space=0), '"space" must be from 1')
    act(game, "place_figure", figure="palm", space=2)
    refuse(game, line("Bob", "place_figure", figure="palm", space=7), "on the track already")
    game = table({2: "white", 3: "orange", 4: "blue", 5: "green", 6: "yellow"}, leg=2)
    refuse(game, line("Ann", "place_figure", figure="palm", space=1), "behind the last camel")


# --- the hand card and the 30 racing cards ---------------------------------------------------


def test_the_hand_card_moves_its_camel_one_once_per_leg():
    game = act(table(), "play_hand", camel="blue")
    assert track(game)[3] == "yellow blue green"
    reveal(game, "white 1", "white 1")
    refuse(game, line("Ann", "play_hand", camel="orange"), "already played their hand card")


def test_a_second_plus_2_of_a_colour_is_refused_but_the_intel_card_itself_may_come():
    game = reveal(table(), "green 2")
    refuse(game, line("Bob", "reveal", camel="green", value=2), "no 2nd green \\+2")
    game = reveal(table(), "orange 2")
    refuse(game, line("Bob", "reveal", camel="orange", value=2), "no 2nd orange \\+2")


def test_a_seventh_card_of_a_colour_is_refused():
    game = table({0: "white", 1: "orange", 2: "blue", 3: "green", 4: "yellow"}, length=24)
    reveal(game, "blue 1", "blue 1", "blue 1", "blue 1", "blue 2")
    act(game, "play_hand", camel="blue")
    refuse(game, line("Ann", "reveal", camel="blue", value=1), "no seventh blue")
    refuse(game, line("Ann", "play_hand", camel="blue"), "no seventh blue")


def test_a_sixth_plus_1_of_a_colour_is_refused():
    game = table({0: "white", 1: "orange", 2: "blue", 3: "green", 4: "yellow"}, length=24)
    reveal(game, "blue 1", "blue 1", "blue 1", "blue 1", "blue 1")
    refuse(game, line("Cy", "reveal", camel="blue", value=1), "no 6th blue \\+1")


def test_once_only_the_intel_cards_can_be_left_in_the_deck_no_other_card_comes():
    game = table({0: "white", 1: "orange", 2: "blue", 3: "green", 4: "yellow"}, length=24)
    reveal(game, "orange 1", "yellow 1", "orange 1", "yellow 1", "orange 1", "yellow 1",
           "orange 1", "yellow 1", "yellow 1")
    assert view(game)["deck"] == 3
    refuse(game, line("Ann", "reveal", camel="orange", value=1), "only the unrevealed intel")
    refuse(game, line("Ann", "reveal", camel="white", value=2), "only the unrevealed intel")
    reveal(game, "green 2")
    assert view(game)["deck"] == 2


@pytest.mark.parametrize("value", ["2", 2.0, True, 3, 0, None])
def test_a_value_that_is_not_the_json_integer_1_or_2_is_refused(value):
    refuse(table(), line("Ann", "reveal", camel="blue", value=value), '"value" must be')


@pytest.mark.parametrize(("bad", "rule"), [
    (line("Dee", "reveal", camel="blue", value=1), "unknown player 'Dee'"),
    (line("Ann", "reveal", camel="pink", value=1), '"camel" must be one of .*, not \'pink\''),
    (line("Ann", "place_figure", figure="cactus", space=5), '"figure" must be one of fennec, palm'),
    (line("Ann", "leg_bet", camel="blue", kind="loser"), '"kind" must be one of winner, midfield'),
    (line("Ann", "final_bet", pile="midfield", camel="blue"), '"pile" must be one of winner'),
    (line("Ann", "roll", die="blue", value=1), "camelup-cards has no action 'roll'"),
], ids=["player", "camel", "figure", "kind", "pile", "action"])
def test_an_unknown_player_camel_figure_kind_pile_or_action_is_refused(bad, rule):
    refuse(table(), bad, rule)


# --- turns -----------------------------------------------------------------------------------


def test_the_betting_action_may_come_before_or_after_the_race_track_action():
    game = table()
    play(game, line("Ann", "leg_bet", camel="blue", kind="winner"),
         line("Ann", "reveal", camel="blue", value=1),
         line("Bob", "reveal", camel="orange", value=1),
         line("Bob", "leg_bet", camel="blue", kind="winner"))
    assert view(game)["leg_bets"] == {
        "Ann": [{"camel": "blue", "kind": "winner", "value": 5}],
        "Bob": [{"camel": "blue", "kind": "winner", "value": 3}], "Cy": []}
    assert view(game)["turn"] == "Cy"


def test_two_betting_actions_in_a_turn_are_refused():
    game = table()
    play(game, line("Ann", "leg_bet", camel="blue", kind="winner"))
    refuse(game, line("Ann", "final_bet", pile="winner", camel="blue"), "already made a betting")
    play(game, line("Ann", "reveal", camel="blue", value=1))
    refuse(game, line("Ann", "final_bet", pile="winner", camel="blue"), "already made a betting")
    play(game, line("Bob", "reveal", camel="blue", value=1),
         line("Bob", "leg_bet", camel="yellow", kind="midfield"))
    refuse(game, line("Bob", "leg_bet", camel="green", kind="midfield"), "already made a betting")


def test_the_next_players_line_closes_the_turn_and_acting_out_of_turn_is_refused():
    game = table()
    refuse(game, line("Bob", "reveal", camel="blue", value=1), "Ann's turn")
    refuse(game, line("Bob", "leg_bet", camel="blue", kind="winner"), "Ann's turn")
    play(game, line("Ann", "reveal", camel="blue", value=1),
         line("Bob", "leg_bet", camel="blue", kind="winner"))
    refuse(game, line("Ann", "leg_bet", camel="green", kind="winner"), "Bob's turn")


# --- betting cards ---------------------------------------------------------------------------


def test_winner_cards_are_taken_5_3_2_2_and_an_empty_stack_is_refused():
    game = table()
    for _ in range(4):
        play(game, line(game.state.player_to_act, "leg_bet", camel="blue", kind="winner"))
        reveal(game, "white 1")
    assert [b["value"] for bets in view(game)["leg_bets"].values() for b in bets] == [5, 2, 3, 2]
    refuse(game, line("Bob", "leg_bet", camel="blue", kind="winner"), "no blue Winner card")


def test_a_taken_midfield_card_is_refused():
    game = act(table(), "leg_bet", camel="blue", kind="midfield")
    reveal(game, "white 1")
    refuse(game, line("Bob", "leg_bet", camel="blue", kind="midfield"), "Midfield card is taken")


def test_a_final_card_nobody_holds_replaces_ones_own_of_that_pile():
    game = table()
    play(game, line("Ann", "final_bet", pile="winner", camel="blue"))
    reveal(game, "white 1")
    refuse(game, line("Bob", "final_bet", pile="winner", camel="blue"), "Ann holds the blue")
    play(game, line("Bob", "final_bet", pile="loser", camel="blue"))
    reveal(game, "white 1")
    play(game, line("Cy", "reveal", camel="orange", value=1),
         line("Ann", "final_bet", pile="winner", camel="green"))
    assert view(game)["final_bets"] == {"winner": {"Ann": "green"}, "loser": {"Bob": "blue"}}


# --- the end of a leg ------------------------------------------------------------------------


LEG = ("orange 1", "yellow 1", "orange 1", "yellow 1", "orange 1", "yellow 1",
       "orange 1", "yellow 1", "yellow 1", "green 2", "blue 1", "white 1")
"""Twelve cards from a camel a space: yellow ends on 9, green second on 5 atop orange."""


def test_the_decks_last_card_ends_the_leg_pays_and_makes_a_leg_setup_due():
    game = table({0: "white", 1: "orange", 2: "blue", 3: "green", 4: "yellow"}, length=24)
    play(game, line("Ann", "leg_bet", camel="yellow", kind="winner"))
    reveal(game, *LEG[:-1])
    play(game, line("Cy", "leg_bet", camel="orange", kind="midfield"))
    reveal(game, LEG[-1])
    v = view(game)
    assert track(game) == {1: "white", 3: "blue", 5: "orange green", 9: "yellow"}
    assert v["ranking"] == ["yellow", "green", "orange", "blue", "white"]
    assert (v["leg"], v["deck"], v["leg_setup_due"], v["turn"]) == (2, 0, True, "Bob")
    assert money(game) == {"Ann": 8, "Bob": 3, "Cy": 5}
    assert v["payouts"] == [
        {"player": "Ann", "amount": 5, "reason": "Winner card yellow 5: 1st"},
        {"player": "Cy", "amount": 2, "reason": "Midfield card orange: 3rd"}]
    refuse(game, line("Bob", "leg_bet", camel="blue", kind="winner"), "last racing card")
    refuse(game, line("Bob", "reveal", camel="blue", value=1), "leg_setup is due")
    play(game, setup_line(game))
    assert (view(game)["leg"], view(game)["deck"], view(game)["leg_bets"]["Ann"]) == (2, 12, [])
    assert view(game)["turn"] == "Bob"


def test_the_leg_payout_nets_cards_and_figure_cards_and_floors_money_at_1():
    game = table({0: "white", 1: "orange", 2: "blue", 3: "green", 4: "yellow"},
                 length=24, money={"Ann": 1, "Bob": 2, "Cy": 3})
    play(game, line("Ann", "leg_bet", camel="white", kind="winner"),
         line("Ann", "place_figure", figure="fennec", space=20),
         line("Bob", "leg_bet", camel="blue", kind="winner"),
         line("Bob", "place_figure", figure="palm", space=21),
         line("Cy", "leg_bet", camel="white", kind="midfield"))
    reveal(game, *LEG)
    assert money(game) == {"Ann": 1, "Bob": 1, "Cy": 2}
    assert [(p["player"], p["amount"]) for p in view(game)["payouts"]] == [
        ("Ann", -1), ("Ann", -1), ("Ann", 2), ("Bob", -1), ("Bob", -1), ("Bob", 1), ("Cy", -1)]
    assert view(game)["payouts"][2]["reason"] == "money never drops below 1"


def test_every_camel_on_the_start_card_shares_fifth_place():
    game = table({0: "white blue", 1: "orange", 3: "green", 4: "yellow"}, length=24)
    play(game, line("Ann", "leg_bet", camel="blue", kind="midfield"),
         line("Ann", "reveal", camel="orange", value=1),
         line("Bob", "leg_bet", camel="white", kind="midfield"))
    assert [(p["player"], p["amount"]) for p in cards.leg_scoring_now(game.state)] == [
        ("Ann", -1), ("Bob", -1)]
    assert game.state.place("blue") == game.state.place("white") == 5


def test_leg_scoring_now_changes_nothing():
    game = act(table(), "leg_bet", camel="yellow", kind="winner")
    before = view(game)
    assert cards.leg_scoring_now(game.state) == [
        {"player": "Ann", "amount": 5, "reason": "Winner card yellow 5: 1st"}]
    assert view(game) == before


# --- the end of the race ---------------------------------------------------------------------


def near_the_finish(**more: Any) -> Game:
    """Yellow leads on 7, three spaces from the Finish; white is last on the Start card."""
    return table({0: "white", 1: "orange", 3: "blue", 5: "green", 7: "yellow"}, leg=3,
                 **{"length": 10, **more})


def test_a_camel_reaching_the_finish_ends_the_race_with_leg_and_final_payouts():
    game = near_the_finish()
    play(game, line("Ann", "final_bet", pile="winner", camel="yellow"),
         line("Ann", "reveal", camel="yellow", value=2),
         line("Bob", "final_bet", pile="loser", camel="white"),
         line("Bob", "reveal", camel="orange", value=1),
         line("Cy", "final_bet", pile="winner", camel="green"),
         line("Cy", "reveal", camel="green", value=1),
         line("Ann", "leg_bet", camel="green", kind="winner"),
         line("Ann", "reveal", camel="yellow", value=1))
    assert view(game)["finished"] is False
    play(game, line("Bob", "reveal", camel="yellow", value=1))
    v = view(game)
    assert (v["finished"], v["turn"], v["leg"], v["winners"]) == (True, None, 3, ["Ann"])
    assert v["crossed"] == ["yellow"]
    assert track(game) == {0: "white", 2: "orange", 3: "blue", 6: "green"}
    assert v["ranking"] == ["yellow", "green", "blue", "orange", "white"]
    assert money(game) == {"Ann": 11, "Bob": 10, "Cy": 6}
    assert v["payouts"] == [
        {"player": "Ann", "amount": 1, "reason": "Winner card green 5: 2nd"},
        {"player": "Ann", "amount": 7, "reason": "final winner card yellow: 1st"},
        {"player": "Bob", "amount": 7, "reason": "final loser card white: 5th"},
        {"player": "Cy", "amount": 3, "reason": "final winner card green: 2nd"}]
    refuse(game, line("Cy", "leg_bet", camel="blue", kind="winner"), "race is over")
    refuse(game, line("Bob", "leg_bet", camel="blue", kind="winner"), "race is over")
    refuse(game, setup_line(game), "race is over")


def test_final_cards_net_after_the_leg_payout_floor_at_1_twice_and_ties_share():
    game = near_the_finish(money={"Ann": 1, "Bob": 1, "Cy": 4})
    play(game, line("Ann", "leg_bet", camel="orange", kind="winner"),
         line("Ann", "reveal", camel="yellow", value=2),
         line("Bob", "final_bet", pile="winner", camel="blue"),
         line("Bob", "reveal", camel="yellow", value=1),
         line("Cy", "reveal", camel="orange", value=1),
         line("Ann", "final_bet", pile="loser", camel="orange"),
         line("Ann", "reveal", camel="blue", value=1),
         line("Bob", "final_bet", pile="loser", camel="green"),
         line("Bob", "reveal", camel="yellow", value=1))
    assert view(game)["ranking"] == ["yellow", "green", "blue", "orange", "white"]
    assert money(game) == {"Ann": 4, "Bob": 1, "Cy": 4}
    assert [(p["player"], p["amount"], p["reason"]) for p in view(game)["payouts"]] == [
        ("Ann", -1, "Winner card orange 5: 4th"),
        ("Ann", 1, "money never drops below 1"),
        ("Ann", 3, "final loser card orange: 4th"),
        ("Bob", -1, "final winner card blue: 3rd"),
        ("Bob", -1, "final loser card green: 2nd"),
        ("Bob", 2, "money never drops below 1")]
    assert view(game)["winners"] == ["Ann", "Cy"]


ELEVEN = ("white 1", "white 1", "white 1", "white 1", "blue 1", "orange 1", "orange 1",
          "orange 1", "yellow 1", "yellow 1", "green 2")
"""Eleven cards that leave yellow alone on 9 and no intel card in the deck."""


@pytest.mark.parametrize(("length", "finished", "leg"), [(10, True, 3), (24, False, 4)])
def test_the_decks_last_card_may_end_the_race_with_one_leg_payout(length, finished, leg):
    game = near_the_finish(length=length)
    play(game, line("Ann", "leg_bet", camel="yellow", kind="winner"))
    reveal(game, *ELEVEN)
    assert track(game)[9] == "yellow"
    reveal(game, "yellow 2")
    v = view(game)
    assert (v["finished"], v["leg"], v["deck"], money(game)["Ann"]) == (finished, leg, 0, 8)
    assert v["payouts"] == [{"player": "Ann", "amount": 5, "reason": "Winner card yellow 5: 1st"}]


def test_figures_every_camel_passed_go_back_after_the_race_ending_move_before_payout():
    game = table({1: "white orange blue green yellow"}, length=4)
    reveal(game, "white 1")
    act(game, "place_figure", figure="palm", space=4)
    act(game, "place_figure", figure="fennec", space=3)
    reveal(game, "white 2")
    v = view(game)
    assert (v["finished"], v["crossed"], v["track"]) == (
        True, ["white", "orange", "blue", "green", "yellow"], {})
    assert (v["figures"], v["figure_cards"]) == ({"fennec": None, "palm": None},
                                                 {"fennec": None, "palm": None})
    assert money(game) == {"Ann": 3, "Bob": 3, "Cy": 3}


# --- carrying a game on ----------------------------------------------------------------------


def test_a_position_between_legs_round_trips_through_its_view():
    game = table({0: "white", 1: "orange", 2: "blue", 3: "green", 4: "yellow"}, length=24)
    play(game, line("Ann", "final_bet", pile="winner", camel="yellow"),
         line("Ann", "place_figure", figure="palm", space=20))
    reveal(game, *LEG[:-1], LEG[-1])
    brought = cards.RULES.state_from_json(view(game))
    assert {k: v for k, v in state_json(brought).items() if k != "payouts"} == {
        k: v for k, v in view(game).items() if k != "payouts"}
    twin = Game(cards.header_for(view(game)))
    play(twin, setup_line(twin))
    play(game, setup_line(game))
    assert state_json(twin.state) == view(game)


def test_a_view_within_a_leg_cannot_be_a_header():
    with pytest.raises(BadHeader, match="between legs"):
        cards.RULES.state_from_json(view(table()))


# --- random games ----------------------------------------------------------------------------


RANDOM = header(SPREAD)
PLAY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_table_is_sound(state: cards.State) -> None:
    assert sorted(state.track.camels + state.start) == sorted(CAMELS)
    assert list(state.start) == sorted(state.start)
    beyond = [s for s, _ in state.track.stacks if s > state.length]
    assert len(beyond) == (1 if state.finished else 0)
    assert 0 <= sum(state.cards) - state.length <= 1
    assert all(p.money >= 1 for p in state.players)
    assert 0 <= state.deck <= state.deck_size
    assert state.deck == 0 or not state.due
    if not state.due and not state.finished:
        assert state.deck == state.deck_size - len(state.revealed)
    for space in dict(state.figures).values():
        if space is not None:
            assert state.track.is_empty_at(space) and 1 <= space <= state.length
    held = [c for p in state.players for c in p.leg_bets]
    for camel in CAMELS:
        values = sorted([b.value for b in held if b.camel == camel and b.kind == "winner"]
                        + list(dict(state.winner_stacks)[camel]))
        assert values == sorted((5, 3, 2, 2)) or state.due or state.finished
    for pile in cards.PILES:
        holders = [who for p, who, _ in state.final_bets if p == pile]
        assert len(holders) == len(set(holders))


@PLAY
@given(st.integers(0, 10**6), st.integers(1, 5))
def test_random_legal_games_keep_the_invariants_and_undo_restores_exactly(seed, players):
    names = " ".join(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][: players + 1])
    setup = SETUP_2 if players == 1 else {
        **SETUP, "deck": 12 // (players + 1) - 1, "kept": 12 // (players + 1) + 1,
        "dealt": 5, "discarded": 5 - 12 // (players + 1) - 1}
    game = random_game(header(SPREAD, players=names, setup=setup), seed, 600,
                       pick=random_cards_action)
    assert game.state.finished
    for count in range(len(game) + 1):
        assert_table_is_sound(game.state_after(count))
    views = [state_json(game.state_after(n)) for n in range(len(game) + 1)]
    while len(game):
        game.undo()
        assert state_json(game.state) == views[len(game)]


def test_legal_actions_are_all_accepted_and_list_a_due_leg_setup_once():
    game = table()
    for action in game.legal_actions():
        if not isinstance(action, cards.Reveal):
            game.rules.apply(game.state, action)
    assert Game(header(SPREAD)).legal_actions() == [LegSetup(12)]
    with pytest.raises(IllegalAction, match="intel"):
        Game(header(SPREAD)).push(LegSetup(12))
    assert replace(LegSetup(12), intel=()).to_json() == {"action": "leg_setup", "deck": 12,
                                                        "intel": {}}


def test_a_correction_replays_the_rest_or_changes_nothing():
    game = load_game(ROOT / "examples" / "camelup-cards.jsonl")
    assert game.actions[54].to_json() == line("Ann", "leg_bet", camel="blue", kind="midfield")
    game.delete(54)
    assert money(game) == {"Ann": 2, "Bob": 2, "Cy": 5}
    before = view(game)
    with pytest.raises(IllegalAction, match="action 19 illegal: Bob holds the green final"):
        game.replace(2, game.parse_action(line("Bob", "final_bet", pile="winner",
                                               camel="green")))
    with pytest.raises(IllegalAction, match="Ann's turn"):
        game.replace(1, game.parse_action(line("Bob", "reveal", camel="blue", value=1)))
    assert view(game) == before


# --- the example -----------------------------------------------------------------------------


def test_the_example_ends_in_leg_3_with_orange_over_the_line_and_cy_the_richest():
    game = load_game(ROOT / "examples" / "camelup-cards.jsonl")
    v = view(game)
    assert {"leg": v["leg"], "finished": v["finished"], "ranking": v["ranking"],
            "money": money(game), "winners": v["winners"], "length": v["length"],
            "sandstorm": v["sandstorm"]} == {
        "leg": 3,
        "finished": True,
        "ranking": ["orange", "white", "green", "yellow", "blue"],
        "money": {"Ann": 1, "Bob": 2, "Cy": 5},
        "winners": ["Cy"],
        "length": 18,
        "sandstorm": [13],
    }


# --- the command line ------------------------------------------------------------------------


SCRIPT = Path(sys.executable).with_name("camel-companion")
EXAMPLE = ROOT / "examples" / "camelup-cards.jsonl"
FIELDS = ("game", "leg", "finished", "turn", "track", "ranking", "players", "winners",
          "length", "sandstorm", "figures", "deck")


def replay(*args: Any) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT), "replay", *map(str, args)], capture_output=True,
                          text=True, timeout=60, check=False)


def test_replay_json_shows_the_payout_position_until_the_leg_setup_then_the_new_leg():
    after_leg_1 = json.loads(replay(EXAMPLE, "--json", "--upto", 24).stdout)
    assert {k: after_leg_1[k] for k in FIELDS} == {
        "game": "camelup-cards", "leg": 2, "finished": False, "turn": "Ann",
        "track": {"6": ["blue"], "7": ["yellow", "white"], "9": ["green", "orange"]},
        "ranking": ["orange", "green", "white", "yellow", "blue"],
        "players": [{"name": "Ann", "money": 2}, {"name": "Bob", "money": 4},
                    {"name": "Cy", "money": 2}],
        "winners": [], "length": 16, "sandstorm": [], "figures": {"fennec": None, "palm": 11},
        "deck": 0}
    leg_3 = json.loads(replay(EXAMPLE, "--json", "--upto", 41).stdout)
    assert {k: leg_3[k] for k in ("leg", "turn", "track", "length", "sandstorm", "figures",
                                  "deck")} == {
        "leg": 3, "turn": "Ann",
        "track": {"10": ["yellow", "blue"], "12": ["green"], "14": ["orange"], "15": ["white"]},
        "length": 18, "sandstorm": [13], "figures": {"fennec": None, "palm": None}, "deck": 12}


def test_replay_json_of_the_end_has_no_turn_and_the_crossed_camel_off_the_track():
    end = json.loads(replay(EXAMPLE, "--json").stdout)
    assert {k: end[k] for k in ("leg", "finished", "turn", "track", "winners", "deck")} == {
        "leg": 3, "finished": True, "turn": None,
        "track": {"13": ["blue", "yellow"], "14": ["green"], "18": ["white"]},
        "winners": ["Cy"], "deck": 2}


def test_a_refused_line_reads_file_line_reason_and_exits_2(tmp_path):
    path = tmp_path / "game.jsonl"
    head = EXAMPLE.read_text().splitlines()[:3]
    path.write_text("\n".join([*head, json.dumps(line("Ann", "reveal", camel="blue",
                                                        value=1))]) + "\n")
    result = replay(path, "--json")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"{path}:4: it is Bob's turn, not Ann's\n"
