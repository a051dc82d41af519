"""The Last Camel: one test per rule of book 004, its rulings and the log format of issue 8.

Each test sets its board in a line with a part-way header (`{space: "first ... last to
arrive"}`, the others in `finish_order`), plays the roll the rule is about and checks what a
person at the table would see: the track, the finishers, the turn, the cards and the winners.
The board is 25 spaces with oases on 7, 13 and 19 unless a test says otherwise.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cli
from companion.errors import BadHeader, IllegalAction
from companion.game import Game
from companion.gamelog import load_game, read_game
from companion.rules import last_camel
from companion.rules.last_camel import (
    FACES,
    Move,
    RevealOwner,
    Roll,
    legal_rolls,
    roll_ways,
    state_json,
)
from tests.rulebook import play, refuse, track

FOUR = ("red-green", "red-blue", "yellow-green", "yellow-blue")
"""The camels of a race of 2 or 3 players, in the order they stand on the start."""


def header(start: dict[int, str] | None = None, players: str = "Ann Bob Cy",
           **settings: Any) -> dict[str, Any]:
    line: dict[str, Any] = {"game": "last-camel", "players": players.split(), "spaces": 25,
                            "oases": [7, 13, 19], **settings}
    if start is not None:
        line["start"] = {str(space): camels.split() for space, camels in start.items()}
    return line


def table(start: dict[int, str] | None = None, players: str = "Ann Bob Cy",
          **settings: Any) -> Game:
    """A race set up from `header`: a fresh start, or brought in part-way."""
    return Game(header(start, players, **settings))


def lone(camel: str, space: int, players: str = "Ann Bob Cy", **settings: Any) -> Game:
    """Only `camel` still races, on `space`; the others of the race have finished."""
    camels = last_camel.CAMELS if len(players.split()) > 3 else FOUR
    return table({space: camel}, players,
                 finish_order=[c for c in camels if c != camel], **settings)


def roll(player: str, dice: str, *moves: str) -> Roll:
    """`roll("Ann", "red green", "red red-blue", "green yellow-green")`."""
    faces = dice.split()
    return Roll(player, (faces[0], faces[1]), tuple(Move(*m.split()) for m in moves))


# --- setting up ---------------------------------------------------------------------------


def test_a_fresh_race_of_three_stands_four_camels_on_the_start_and_ann_rolls_first():
    view = state_json(table().state)

    assert view == {
        "game": "last-camel", "leg": 1, "finished": False, "turn": "Ann",
        "track": {"0": list(FOUR)}, "ranking": list(FOUR),
        "players": [{"name": n, "camel": None} for n in ("Ann", "Bob", "Cy")],
        "winners": [], "spaces": 25, "oases": [7, 13, 19], "black_star": "not from",
        "finish_order": [],
    }


@pytest.mark.parametrize(("players", "camels"), [
    ("Ann Bob", FOUR), ("Ann Bob Cy", FOUR),
    ("Ann Bob Cy Dee", last_camel.CAMELS), ("A B C D E", last_camel.CAMELS),
    ("A B C D E F", last_camel.CAMELS),
])
def test_two_or_three_players_leave_red_yellow_and_green_blue_out(players, camels):
    assert track(table(players=players)) == {0: " ".join(camels)}


@pytest.mark.parametrize("camel", ["red-yellow", "green-blue"])
def test_a_camel_left_out_can_be_neither_moved_placed_nor_shown(camel):
    refuse(table(), roll("Ann", "gold red", f"gold {camel}", "red red-blue"),
           "out of the race")
    with pytest.raises(BadHeader, match="out of the race"):
        table({0: f"{' '.join(FOUR)} {camel}"})
    over = table(finish_order=list(FOUR))
    refuse(over, RevealOwner("Ann", camel), "out of the race")


@pytest.mark.parametrize("changes", [
    {"players": ["Ann"]}, {"players": list("ABCDEFG")}, {"players": ["Ann", "Ann"]},
    {"spaces": None}, {"spaces": "25"}, {"spaces": 25.0}, {"spaces": True}, {"spaces": 2},
    {"oases": None}, {"oases": [7, 13]}, {"oases": [7, 13, 19, 22]}, {"oases": [13, 7, 19]},
    {"oases": [7, 7, 19]}, {"oases": [0, 13, 19]}, {"oases": [7, 13, 26]},
    {"oases": [7, "13", 19]}, {"black_star": "never"}, {"turn": "Dee"},
    {"start": {"0": ["red-green", "red-blue", "yellow-green"]}},
    {"start": {"0": list(FOUR), "3": ["red-blue"]}},
    {"start": {"0": ["red-green", "red-blue", "yellow-green"], "26": ["yellow-blue"]}},
    {"start": {"0": ["red-green", "red-blue", "yellow-green"], "-1": ["yellow-blue"]}},
    {"start": {"0": ["red-green", "red-blue", "yellow-green", "blue-yellow"]}},
    {"start": ["red-green"]},
    {"finish_order": ["red-green"], "start": {"0": list(FOUR)}},
    {"finish_order": ["red-green", "red-green"]}, {"finish_order": "red-green"},
], ids=repr)
def test_a_bad_header_is_refused_in_one_line(changes):
    line = {**header(), **changes}
    if line["spaces"] is None:
        del line["spaces"]
    if line["oases"] is None:
        del line["oases"]
    with pytest.raises(BadHeader) as refused:
        Game(line)
    assert "\n" not in str(refused.value)


def test_unknown_header_keys_are_ignored_and_an_oasis_may_be_the_last_space():
    g = table(spaces=10, oases=[3, 6, 10], note="played at the club")

    assert state_json(g.state)["oases"] == [3, 6, 10]


def test_a_race_under_way_stands_the_camels_not_finished_on_the_start_without_start():
    g = table(finish_order=["red-blue"], turn="Bob")

    view = state_json(g.state)
    assert (view["track"], view["finish_order"], view["turn"]) == (
        {"0": ["red-green", "yellow-green", "yellow-blue"]}, ["red-blue"], "Bob")
    assert view["ranking"] == ["red-blue", "red-green", "yellow-green", "yellow-blue"]


# --- the dice -------------------------------------------------------------------------------


def test_the_issue_example_opening_moves_jumps_and_sends_back_onto_the_start():
    g = play(table(),
             roll("Ann", "red green", "red red-blue", "green yellow-green"),
             roll("Bob", "gold black", "black yellow-green", "gold yellow-blue"),
             roll("Cy", "green green", "green red-green", "green red-green"))

    assert track(g) == {1: "red-blue yellow-green", 3: "yellow-blue", 4: "red-green"}
    assert g.state.player_to_act == "Ann"


def test_a_colour_moves_a_camel_carrying_it_one_space_forward():
    g = play(table({0: "red-green yellow-blue", 5: "red-blue", 9: "yellow-green"}),
             roll("Ann", "blue yellow", "blue red-blue", "yellow yellow-green"))

    assert track(g) == {0: "red-green yellow-blue", 6: "red-blue", 10: "yellow-green"}


def test_a_colour_on_a_camel_without_it_is_refused():
    g = table({0: "red-green yellow-blue", 5: "red-blue", 9: "yellow-green"})

    refuse(g, roll("Ann", "blue yellow", "blue yellow-green", "yellow yellow-blue"),
           "yellow-green has no blue on its saddle")


def test_gold_moves_any_camel_forward_and_black_any_camel_back():
    g = play(table({2: "red-green", 5: "red-blue", 9: "yellow-green", 11: "yellow-blue"}),
             roll("Ann", "gold black", "gold red-green", "black yellow-blue"))

    assert track(g) == {3: "red-green", 5: "red-blue", 9: "yellow-green", 10: "yellow-blue"}


def test_one_camel_may_take_both_colours_of_its_saddle():
    g = play(table({2: "red-green", 5: "red-blue", 9: "yellow-green", 11: "yellow-blue"}),
             roll("Ann", "red green", "red red-green", "green red-green"))

    assert track(g) == {4: "red-green", 5: "red-blue", 9: "yellow-green", 11: "yellow-blue"}


def test_a_double_moves_one_camel_twice_or_two_camels_once():
    start = {2: "red-green", 5: "red-blue", 9: "yellow-green", 11: "yellow-blue"}

    once_each = play(table(start), roll("Ann", "red red", "red red-green", "red red-blue"))
    twice = play(table(start), roll("Ann", "red red", "red red-blue", "red red-blue"))

    assert track(once_each) == {3: "red-green", 6: "red-blue", 9: "yellow-green",
                                11: "yellow-blue"}
    assert track(twice) == {2: "red-green", 7: "red-blue", 9: "yellow-green",
                            11: "yellow-blue"}


def test_the_black_star_never_moves_a_camel_back_from_the_start_or_an_oasis():
    g = table({0: "red-green", 7: "red-blue", 9: "yellow-green", 11: "yellow-blue"})

    refuse(g, roll("Ann", "black gold", "black red-green", "gold yellow-green"),
           "never moves a camel back from the start")
    refuse(g, roll("Ann", "black gold", "black red-blue", "gold yellow-green"),
           "never moves a camel back from an oasis")


def test_the_black_star_may_move_a_camel_back_onto_the_start_or_an_oasis():
    g = play(table({0: "red-green", 1: "red-blue", 8: "yellow-green", 11: "yellow-blue"}),
             roll("Ann", "black black", "black red-blue", "black yellow-green"))

    assert track(g) == {0: "red-green red-blue", 7: "yellow-green", 11: "yellow-blue"}


def test_the_not_onto_option_refuses_onto_an_oasis_or_the_start_and_allows_from_one():
    start = {0: "red-green", 1: "red-blue", 8: "yellow-green", 13: "yellow-blue"}
    g = table(start, black_star="not onto")

    refuse(g, roll("Ann", "black gold", "black red-blue", "gold red-green"),
           "onto the start")
    refuse(g, roll("Ann", "black gold", "black yellow-green", "gold red-green"),
           "onto the oasis on 7")
    play(g, roll("Ann", "black gold", "black yellow-blue", "gold red-green"))
    assert track(g) == {1: "red-blue", 2: "red-green", 8: "yellow-green", 12: "yellow-blue"}


@pytest.mark.parametrize(("action", "reason"), [
    (roll("Ann", "red green", "blue red-blue", "green yellow-green"), "blue was not rolled"),
    (roll("Ann", "red green", "red red-blue", "red red-green"), "red die is used twice"),
    (roll("Ann", "red red", "red red-blue", "red red-blue", "red red-green"),
     "3 moves, more than the two dice make"),
    (roll("Bob", "red green", "red red-blue", "green yellow-green"), "Ann's turn"),
    (roll("Dee", "red green", "red red-blue", "green yellow-green"), "unknown player"),
    (Roll("Ann"), "needs the two dice"),
])
def test_a_die_not_rolled_used_twice_a_third_move_or_a_roll_out_of_turn_is_refused(action,
                                                                                    reason):
    refuse(table(), action, reason)


def test_a_finished_camel_never_moves():
    g = table({3: "red-green", 5: "red-blue", 9: "yellow-green"}, finish_order=["yellow-blue"])

    refuse(g, roll("Ann", "gold red", "gold yellow-blue", "red red-green"),
           "yellow-blue has finished")


@pytest.mark.parametrize("line", [
    {"player": "Ann", "action": "roll", "dice": ["red", "Gold"], "moves": []},
    {"player": "Ann", "action": "roll", "dice": ["red"], "moves": []},
    {"player": "Ann", "action": "roll", "dice": ["red", "gold"]},
    {"player": "Ann", "action": "roll", "dice": ["red", "gold"],
     "moves": [{"die": "red", "camel": "blue-red"}]},
    {"player": "Ann", "action": "roll", "dice": ["red", "gold"], "moves": [{"die": "red"}]},
    {"player": "Ann", "action": "roll", "dice": ["red", "gold"], "moves": ["red"]},
    {"player": "Ann", "action": "reveal_owner", "camel": "yellow-red"},
    {"player": "Ann", "action": "leg_bet", "camel": "red-blue"},
], ids=repr)
def test_names_are_exact_and_a_badly_formed_line_is_refused(line):
    with pytest.raises(IllegalAction):
        last_camel.RULES.parse_action(line)


# --- moves are compulsory -------------------------------------------------------------------


def test_yellow_and_black_on_the_last_camel_on_the_last_space_must_go_back_then_forward():
    g = lone("yellow-green", 25)

    refuse(g, roll("Ann", "yellow black", "yellow yellow-green"), "fewer moves than can be")
    refuse(g, roll("Ann", "yellow black", "yellow yellow-green", "black yellow-green"),
           "yellow-green has finished")
    assert roll_ways(g.state, ("yellow", "black")) == [
        (Move("black", "yellow-green"), Move("yellow", "yellow-green"))]
    play(g, roll("Ann", "yellow black", "black yellow-green", "yellow yellow-green"))
    assert track(g) == {25: "yellow-green"} and not g.state.finished


def test_both_dice_must_be_used_when_some_choice_of_camels_uses_both():
    g = table({3: "red-green", 5: "red-blue", 9: "yellow-green", 11: "yellow-blue"})

    refuse(g, roll("Ann", "red green", "red red-blue"), "fewer moves than can be made")
    refuse(g, roll("Ann", "red green"), "fewer moves than can be made")


def test_a_player_must_move_their_own_camel_when_it_is_the_only_move():
    g = table({12: "red-blue"}, finish_order=["red-green", "yellow-green", "yellow-blue"])

    refuse(g, roll("Ann", "blue green"), "fewer moves")
    play(g, roll("Ann", "blue green", "blue red-blue"))
    assert track(g) == {13: "red-blue"}


def test_when_no_way_uses_both_dice_either_one_is_used_at_the_players_choice():
    six = "Ann Bob Cy Dee"
    by_red = play(lone("red-yellow", 25, six), roll("Ann", "red yellow", "red red-yellow"))
    by_yellow = play(lone("red-yellow", 25, six), roll("Ann", "red yellow",
                                                      "yellow red-yellow"))

    assert by_red.state.finished and by_yellow.state.finished
    assert roll_ways(lone("red-yellow", 25, six).state, ("red", "yellow")) == [
        (Move("red", "red-yellow"),), (Move("yellow", "red-yellow"),)]


def test_a_roll_whose_dice_can_move_no_camel_is_ignored():
    g = play(lone("red-yellow", 20, "Ann Bob Cy Dee"), roll("Ann", "blue blue"))

    assert track(g) == {20: "red-yellow"} and g.state.player_to_act == "Bob"
    refuse(g, roll("Bob", "blue blue", "blue red-yellow"), "no blue on its saddle")


def test_a_black_star_on_the_start_alone_is_ignored_but_gold_first_lets_it_be_used():
    g = lone("red-green", 0)

    refuse(g, roll("Ann", "black gold", "gold red-green"), "fewer moves")
    play(g, roll("Ann", "black gold", "gold red-green", "black red-green"))
    assert track(g) == {0: "red-green"}
    play(g, roll("Bob", "black blue"))
    assert track(g) == {0: "red-green"}


# --- the camel jump -------------------------------------------------------------------------


def test_landing_on_camels_jumps_on_as_many_spaces_as_stood_there():
    g = play(table({2: "red-green", 3: "red-blue yellow-green", 9: "yellow-blue"}),
             roll("Ann", "gold blue", "gold red-green", "blue yellow-blue"))

    assert track(g) == {3: "red-blue yellow-green", 5: "red-green", 10: "yellow-blue"}


def test_a_jump_makes_no_second_jump_and_arrives_last():
    g = play(table({2: "red-green", 3: "red-blue", 4: "yellow-green yellow-blue"}),
             roll("Ann", "gold black", "gold red-green", "black yellow-blue"))

    assert track(g) == {3: "red-blue yellow-blue", 4: "yellow-green red-green"}


def test_a_backward_move_never_jumps_and_arrives_last():
    g = play(table({2: "red-green", 3: "red-blue", 5: "yellow-green", 9: "yellow-blue"}),
             roll("Ann", "black gold", "black red-blue", "gold yellow-blue"))

    assert track(g) == {2: "red-green red-blue", 5: "yellow-green", 10: "yellow-blue"}


def test_each_die_move_sees_the_board_the_one_before_left():
    g = play(table({2: "red-green", 3: "red-blue", 9: "yellow-green", 11: "yellow-blue"}),
             roll("Ann", "gold gold", "gold red-green", "gold red-blue"))

    assert track(g) == {4: "red-green", 5: "red-blue", 9: "yellow-green", 11: "yellow-blue"}


def test_a_camel_finishes_by_a_step_past_the_last_space():
    g = play(table({20: "red-green", 21: "red-blue", 22: "yellow-green", 25: "yellow-blue"}),
             roll("Ann", "blue gold", "blue yellow-blue", "gold red-green"))

    assert track(g) == {21: "red-blue", 22: "yellow-green red-green"}
    assert state_json(g.state)["finish_order"] == ["yellow-blue"]


def test_a_camel_finishes_by_a_jump_past_the_last_space():
    g = play(table({20: "red-green", 23: "red-blue", 24: "yellow-green yellow-blue"}),
             roll("Ann", "blue gold", "blue red-blue", "gold red-green"))

    assert track(g) == {21: "red-green", 24: "yellow-green yellow-blue"}
    assert state_json(g.state)["finish_order"] == ["red-blue"]


# --- oases ----------------------------------------------------------------------------------


def test_no_camel_leaves_an_oasis_while_another_stands_on_or_behind_the_previous_one():
    g = table({7: "red-green", 10: "red-blue", 13: "yellow-green", 15: "yellow-blue"})

    refuse(g, roll("Ann", "yellow gold", "yellow yellow-green", "gold yellow-blue"),
           "may not leave the oasis on 13: it is locked while red-green stands on or behind "
           "the oasis on 7")


def test_an_oasis_opens_once_every_other_camel_has_passed_the_previous_one():
    g = play(table({8: "red-green", 10: "red-blue", 13: "yellow-green", 15: "yellow-blue"}),
             roll("Ann", "yellow gold", "yellow yellow-green", "gold yellow-blue"))

    assert track(g) == {8: "red-green", 10: "red-blue", 14: "yellow-green", 16: "yellow-blue"}


def test_the_first_oasis_is_locked_while_a_camel_stands_on_the_start():
    g = table({0: "red-green", 7: "red-blue", 9: "yellow-green", 11: "yellow-blue"})

    refuse(g, roll("Ann", "blue yellow", "blue red-blue", "yellow yellow-green"),
           "may not leave the oasis on 7: it is locked while red-green stands on or behind "
           "the start")


def test_landing_on_a_locked_oasis_is_always_allowed():
    g = play(table({0: "red-green", 6: "red-blue", 12: "yellow-green", 15: "yellow-blue"}),
             roll("Ann", "blue yellow", "blue red-blue", "yellow yellow-green"))

    assert track(g) == {0: "red-green", 7: "red-blue", 13: "yellow-green", 15: "yellow-blue"}


def test_a_jump_that_would_pass_a_locked_oasis_ends_on_it():
    g = play(table({0: "red-green", 5: "red-blue", 6: "yellow-green yellow-blue"}),
             roll("Ann", "blue black", "blue red-blue", "black yellow-green"))

    assert track(g) == {0: "red-green", 5: "yellow-green", 6: "yellow-blue", 7: "red-blue"}


def test_a_jump_from_a_locked_oasis_it_landed_on_ends_there_and_arrives_last():
    g = play(table({0: "red-green", 6: "red-blue", 7: "yellow-green", 11: "yellow-blue"}),
             roll("Ann", "blue gold", "blue red-blue", "gold yellow-blue"))

    assert track(g) == {0: "red-green", 7: "yellow-green red-blue", 12: "yellow-blue"}


def test_a_jump_past_an_open_oasis_goes_on():
    g = play(table({1: "red-green", 5: "red-blue", 6: "yellow-green yellow-blue"}),
             roll("Ann", "blue gold", "blue red-blue", "gold red-green"))

    assert track(g) == {2: "red-green", 6: "yellow-green yellow-blue", 8: "red-blue"}


def test_a_jump_past_a_locked_last_space_oasis_ends_on_it_instead_of_finishing():
    g = play(table({4: "red-green", 22: "red-blue", 23: "yellow-green yellow-blue"},
                   oases=[5, 10, 25]),
             roll("Ann", "blue gold", "blue red-blue", "gold red-green"))

    assert track(g) == {5: "red-green", 23: "yellow-green yellow-blue", 25: "red-blue"}


def test_the_jumping_camel_itself_does_not_lock_an_oasis_it_passes():
    g = play(table({0: "red-green", 1: "red-blue yellow-green yellow-blue"}, oases=[2, 13, 19]),
             roll("Ann", "red red", "red red-green", "red red-green"))

    assert track(g) == {1: "red-blue yellow-green yellow-blue", 5: "red-green"}


def test_a_camel_sent_back_locks_the_oasis_again_in_the_middle_of_the_turn():
    g = table({8: "red-green", 10: "red-blue", 13: "yellow-green", 15: "yellow-blue"})

    refuse(g, roll("Ann", "black gold", "black red-green", "gold yellow-green"),
           "may not leave the oasis on 13: it is locked while red-green")
    assert roll_ways(g.state, ("black", "gold")).count(
        (Move("gold", "yellow-green"), Move("black", "red-green"))) == 1
    play(g, roll("Ann", "black gold", "gold yellow-green", "black red-green"))
    assert track(g) == {7: "red-green", 10: "red-blue", 14: "yellow-green", 15: "yellow-blue"}


def test_a_camel_leaving_the_previous_oasis_opens_the_next_in_the_middle_of_the_turn():
    g = play(table({7: "red-green", 10: "red-blue", 13: "yellow-green", 15: "yellow-blue"}),
             roll("Ann", "gold yellow", "gold red-green", "yellow yellow-green"))

    assert track(g) == {8: "red-green", 10: "red-blue", 14: "yellow-green", 15: "yellow-blue"}


# --- arrival order and the ranking ----------------------------------------------------------


def test_the_ranking_puts_finishers_first_then_the_farthest_and_the_earliest_arrival():
    g = table({3: "red-green yellow-green", 9: "yellow-blue"}, finish_order=["red-blue"])

    assert state_json(g.state)["ranking"] == ["red-blue", "yellow-blue", "red-green",
                                              "yellow-green"]


def test_a_black_star_onto_camels_places_the_camel_last():
    g = play(table({3: "red-green yellow-green", 4: "yellow-blue", 9: "red-blue"}),
             roll("Ann", "black blue", "black yellow-blue", "blue red-blue"))

    assert track(g) == {3: "red-green yellow-green yellow-blue", 10: "red-blue"}
    assert state_json(g.state)["ranking"][1:] == ["red-green", "yellow-green", "yellow-blue"]


# --- the end, the cards and the winner ------------------------------------------------------


def test_the_race_ends_when_the_last_lone_camel_finishes_and_nobody_rolls_after():
    g = play(lone("red-blue", 25), roll("Ann", "blue green", "blue red-blue"))

    view = state_json(g.state)
    assert (view["finished"], view["turn"], view["track"], view["winners"]) == (
        True, None, {}, [])
    assert view["ranking"] == view["finish_order"] == [
        "red-green", "yellow-green", "yellow-blue", "red-blue"]
    refuse(g, roll("Bob", "blue green"), "the race is over")
    assert g.legal_actions()[:2] == [RevealOwner("Ann", "red-green"),
                                     RevealOwner("Ann", "red-blue")]


def test_a_card_cannot_be_shown_before_the_end():
    refuse(table(), RevealOwner("Bob", "red-blue"), "only once every camel has finished")


def test_cards_are_shown_in_any_order_and_the_owner_of_the_last_camel_wins():
    g = play(table(finish_order=list(FOUR)),
             RevealOwner("Cy", "yellow-blue"), RevealOwner("Ann", "red-blue"))

    assert state_json(g.state)["winners"] == []
    refuse(g, RevealOwner("Ann", "yellow-green"), "shown red-blue: each player has one owner card")
    refuse(g, RevealOwner("Bob", "red-blue"), "Ann has already shown red-blue: one card per camel")
    play(g, RevealOwner("Bob", "yellow-green"))
    view = state_json(g.state)
    assert view["players"] == [{"name": "Ann", "camel": "red-blue"},
                               {"name": "Bob", "camel": "yellow-green"},
                               {"name": "Cy", "camel": "yellow-blue"}]
    assert view["winners"] == ["Cy"]
    assert g.legal_actions() == []
    refuse(g, RevealOwner("Cy", "red-green"), "the game is over")
    refuse(g, roll("Ann", "red red"), "the game is over")


def test_when_nobody_owns_the_last_camel_nobody_wins():
    g = play(table(finish_order=list(last_camel.CAMELS), players="Ann Bob Cy Dee"),
             RevealOwner("Ann", "red-blue"), RevealOwner("Bob", "red-green"),
             RevealOwner("Cy", "yellow-blue"), RevealOwner("Dee", "red-yellow"))

    view = state_json(g.state)
    assert (view["finished"], view["winners"]) == (True, [])
    refuse(g, RevealOwner("Dee", "green-blue"), "the game is over")


def test_with_six_players_someone_always_wins():
    names = "A B C D E F"
    g = table(finish_order=list(reversed(last_camel.CAMELS)), players=names)
    for name, camel in zip(names.split(), last_camel.CAMELS, strict=True):
        play(g, RevealOwner(name, camel))

    assert state_json(g.state)["winners"] == ["A"]


# --- the interface the companion uses -------------------------------------------------------


def test_legal_actions_list_one_roll_and_legal_rolls_every_way_to_move_the_dice():
    g = table({3: "red-green", 5: "red-blue", 9: "yellow-green", 11: "yellow-blue"})

    assert g.legal_actions() == [Roll("Ann")]
    assert [r.moves for r in legal_rolls(g.state, ("red", "blue"))] == [
        (Move("red", "red-green"), Move("blue", "red-blue")),
        (Move("red", "red-green"), Move("blue", "yellow-blue")),
        (Move("red", "red-blue"), Move("blue", "red-blue")),
        (Move("red", "red-blue"), Move("blue", "yellow-blue")),
        (Move("blue", "red-blue"), Move("red", "red-green")),
        (Move("blue", "red-blue"), Move("red", "red-blue")),
        (Move("blue", "yellow-blue"), Move("red", "red-green")),
        (Move("blue", "yellow-blue"), Move("red", "red-blue")),
    ]
    assert last_camel.RULES.leg_scoring_now(g.state) == []


def test_a_roll_is_written_and_read_as_the_log_line():
    line = {"player": "Ann", "action": "roll", "dice": ["gold", "black"],
            "moves": [{"die": "black", "camel": "yellow-green"},
                      {"die": "gold", "camel": "yellow-blue"}]}

    action = last_camel.RULES.parse_action(line)
    assert action == roll("Ann", "gold black", "black yellow-green", "gold yellow-blue")
    assert action.to_json() == line


def test_a_part_way_race_reads_back_from_its_replay_json_and_so_do_shown_cards():
    g = play(table({2: "red-green", 7: "red-blue yellow-green"}, finish_order=["yellow-blue"],
                   black_star="not onto"),
             roll("Ann", "red green", "red red-green", "green red-green"))
    over = play(table(finish_order=list(FOUR)), RevealOwner("Bob", "red-blue"))

    for state in (g.state, over.state):
        assert last_camel.RULES.state_from_json(state_json(state)) == state


def test_replay_prints_the_fields_and_a_bad_line_is_file_line_reason(tmp_path, capsys):
    log = tmp_path / "race.jsonl"
    good = roll("Ann", "red green", "red red-blue", "green yellow-green")
    log.write_text(f"{json.dumps(header())}\n{json.dumps(good.to_json())}\n")

    assert cli.main(["replay", str(log), "--json", "--upto", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["track"] == {"0": list(FOUR)}
    assert cli.main(["replay", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["track"] == {
        "0": ["red-green", "yellow-blue"], "1": ["red-blue"], "2": ["yellow-green"]}
    with log.open("a") as f:
        f.write(json.dumps(roll("Bob", "red green", "red red-blue").to_json()) + "\n")
    assert cli.main(["replay", str(log), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{log}:3: fewer moves than can be made") and err.count("\n") == 1


def test_replay_without_json_shows_the_board_and_the_cards_shown(tmp_path, capsys):
    log = tmp_path / "race.jsonl"
    lines = [header(finish_order=["red-green", "red-blue", "yellow-blue", "yellow-green"]),
             RevealOwner("Cy", "yellow-green").to_json()]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))

    assert cli.main(["replay", str(log), "--upto", "0"]) == 0
    assert "the owner cards are still to be shown" in capsys.readouterr().out
    assert cli.main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Ann  card: not shown" in out and "Cy   card: yellow-green" in out


# --- the example game -------------------------------------------------------------------------


def test_the_example_race_ends_with_yellow_green_last_and_bob_its_owner_the_winner():
    game = load_game(Path(__file__).parent.parent / "examples" / "last-camel.jsonl")
    view = state_json(game.state)

    assert (view["finished"], view["turn"], view["track"], len(game)) == (True, None, {}, 59)
    assert view["ranking"] == view["finish_order"] == [
        "red-green", "red-blue", "yellow-blue", "yellow-green"]
    assert view["players"] == [{"name": "Ann", "camel": "red-blue"},
                               {"name": "Bob", "camel": "yellow-green"},
                               {"name": "Cy", "camel": "yellow-blue"}]
    assert view["winners"] == ["Bob"]


# --- random legal races -----------------------------------------------------------------------

PLAY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEADERS = [header(), header(players="Ann Bob Cy Dee Eve", spaces=12, oases=[2, 3, 12]),
           header(players="Ann Bob", spaces=8, oases=[1, 4, 8], black_star="not onto")]


def draw_roll(data: st.DataObject, game: Game) -> Roll:
    dice = (data.draw(st.sampled_from(FACES)), data.draw(st.sampled_from(FACES)))
    return data.draw(st.sampled_from(legal_rolls(game.state, dice)))


def assert_table_is_sound(game: Game) -> None:
    state = game.state
    placed = [c for _, camels in state.track for c in camels]
    assert Counter(placed + list(state.finish_order)) == Counter(state.camels)
    assert all(camels and 0 <= space <= state.board.spaces for space, camels in state.track)
    assert (state.turn is None) == state.finished
    ranking = state_json(state)["ranking"]
    assert sorted(ranking) == sorted(state.camels)
    assert ranking[:len(state.finish_order)] == list(state.finish_order)
    spaces = [state.space_of(c) for c in ranking[len(state.finish_order):]]
    assert spaces == sorted(spaces, reverse=True)


@PLAY
@given(data=st.data(), which=st.sampled_from(range(len(HEADERS))))
def test_random_legal_races_keep_their_invariants_and_undo_restores_exactly(data, which):
    game = Game(HEADERS[which])
    while not game.state.finished and len(game) < 400:
        before, lines = game.state, list(game.lines())
        action = draw_roll(data, game)
        assert action.moves is not None
        if action.moves:
            refuse(game, Roll(action.player, action.dice, action.moves[:-1]), "fewer moves")
        game.push(action)
        assert_table_is_sound(game)
        assert last_camel.RULES.parse_action(action.to_json()) == action
        if not game.state.finished:
            assert last_camel.RULES.state_from_json(state_json(game.state)) == game.state
        assert game.undo() == action and game.state == before
        assert list(game.lines()) == lines
        game.push(action)
    assert read_game([json.dumps(line) for line in game.lines()]).state == game.state
    if game.state.finished:
        cards = data.draw(st.permutations(game.state.camels))
        for name, camel in zip(game.state.players, cards, strict=False):
            assert state_json(game.state)["winners"] == []
            game.push(RevealOwner(name, camel))
        last = game.state.finish_order[-1]
        assert state_json(game.state)["winners"] == [
            name for name, camel in zip(game.state.players, cards, strict=False) if camel == last]
        assert game.legal_actions() == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False)
    | st.sampled_from(["", "Ann", "red", "gold", "black", "red-blue", "yellow-green", "0",
                       "not onto", "roll", "reveal_owner"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["0", "7", "26", "die", "camel", "x"]), inner, max_size=3),
    max_leaves=8,
)
KEYS = ["game", "players", "spaces", "oases", "black_star", "start", "finish_order", "turn",
        "player", "action", "dice", "moves", "camel"]


@settings(max_examples=300, deadline=None)
@given(changes=st.dictionaries(st.sampled_from(KEYS), JSON, max_size=4))
def test_any_header_is_read_or_refused_in_one_clear_line(changes):
    try:
        Game({**header(), **changes})
    except BadHeader as e:
        assert "\n" not in str(e)


@settings(max_examples=300, deadline=None)
@given(line=st.dictionaries(st.sampled_from(KEYS), JSON, max_size=5),
       base=st.sampled_from([{}, {"player": "Ann", "action": "roll", "dice": ["red", "gold"]},
                             {"player": "Ann", "action": "reveal_owner"}]))
def test_any_action_line_is_played_or_refused_in_one_clear_line(line, base):
    game = table({3: "red-green", 5: "red-blue", 9: "yellow-green", 11: "yellow-blue"})
    try:
        game.push(game.parse_action({**base, **line}))
    except IllegalAction as e:
        assert "\n" not in str(e)
        assert len(game) == 0
