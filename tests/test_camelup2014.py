"""Camel Up, first edition (2014): one test per rule of books 000 and 002 and the rulings.

Each test sets its table in a line or two with a part-way header, plays the action the rule is
about and checks what a person at the table would see: the track, the money, the ranking.
"""

from functools import partial

import pytest

from companion.errors import BadHeader, IllegalAction
from companion.game import Game
from companion.rules import camelup2014
from companion.rules.camelup import (
    DesertTile,
    LegBet,
    LegTicket,
    Partnership,
    RaceBet,
    Roll,
    SpectatorTile,
    state_json,
)
from tests.rulebook import bets, header, money, play, refuse, seats, table, track

game = partial(table, "camelup-2014")

SPREAD = {1: "blue", 2: "green", 3: "orange", 4: "white", 5: "yellow"}
LAST_DIE = {"dice_out": ["green", "orange", "white", "yellow"]}
"""Four dice out: the blue die is the last of the leg."""


def near_the_line(**part_way) -> Game:
    """Blue on 16 leads, orange on 2 trails; rolling blue (any value) ends the race."""
    return game({2: "orange", 9: "white", 12: "green", 14: "yellow", 16: "blue"}, **part_way)


# --- setting up -----------------------------------------------------------------------------


def test_the_header_stacks_the_camels_bottom_to_top_gives_3_coins_and_the_first_player_acts():
    g = game({1: "blue green", 2: "yellow", 3: "orange white"})

    s = state_json(g.state)
    assert track(g) == {1: "blue green", 2: "yellow", 3: "orange white"}
    assert money(g) == {"Ann": 3, "Bob": 3, "Cy": 3}
    assert (s["leg"], s["turn"], s["finished"]) == (1, "Ann", False)
    assert s["ranking"] == ["white", "orange", "yellow", "green", "blue"]
    assert s["leg_bets_left"] == {camel: [5, 3, 2] for camel in camelup2014.RACING_CAMELS}
    assert sorted(s["dice_in_pyramid"]) == sorted(camelup2014.RACING_CAMELS)
    assert (s["dice_out"], s["tiles"]) == ([], {})
    assert s["race_bets"] == {"winner": [], "loser": []}


@pytest.mark.parametrize("start", [
    {1: "blue green", 2: "yellow", 3: "orange"},
    {1: "blue green", 2: "yellow blue", 3: "orange white"},
    {1: "blue green", 2: "yellow pink", 3: "orange white"},
    {1: "blue green", 2: "yellow", 17: "orange white"},
], ids=["a camel left out", "a camel twice", "an unknown camel", "off the track"])
def test_the_header_must_stand_every_camel_on_the_track_once(start):
    with pytest.raises(BadHeader):
        game(start)


@pytest.mark.parametrize("count", range(2, 9))
def test_two_to_eight_players_may_play(count):
    assert game(SPREAD, players=seats(count)).state.player_to_act == "P1"


@pytest.mark.parametrize("names", ["Ann", seats(9), "Ann Bob Ann"])
def test_one_player_nine_players_or_a_name_twice_are_refused(names):
    with pytest.raises(BadHeader):
        game(SPREAD, players=names)


@pytest.mark.parametrize("part_way", [
    {"tiles": {"6": {"owner": "Ann", "side": "oasis"}, "7": {"owner": "Bob", "side": "oasis"}}},
    {"tiles": {"1": {"owner": "Ann", "side": "oasis"}}},
    {"leg_bets": bets("Ann blue", "Bob blue", "Cy blue", "Ann blue")},
    {"race_bets": {"winner": bets("Ann blue"), "loser": bets("Ann blue")}},
], ids=["tiles side by side", "a tile on space 1", "a fourth blue tile", "a colour twice"])
def test_a_part_way_header_is_held_to_the_rules_of_play(part_way):
    with pytest.raises(BadHeader):
        game(SPREAD, **part_way)


# --- moving camels --------------------------------------------------------------------------


def test_a_die_moves_its_camel_forward_as_many_spaces_as_it_shows():
    g = play(game({1: "blue", 6: "green orange white yellow"}), Roll("Ann", "blue", 3))

    assert track(g) == {4: "blue", 6: "green orange white yellow"}


def test_a_moving_camel_carries_the_camels_above_it_and_leaves_those_below():
    g = play(game({2: "blue green yellow", 9: "orange white"}), Roll("Ann", "green", 2))

    assert track(g) == {2: "blue", 4: "green yellow", 9: "orange white"}
    assert g.state.ranking == ["white", "orange", "yellow", "green", "blue"]


def test_a_unit_ending_its_move_on_camels_goes_on_top_of_them():
    g = play(game({2: "blue green", 4: "orange yellow", 9: "white"}), Roll("Ann", "blue", 2))

    assert track(g) == {4: "orange yellow blue green", 9: "white"}


@pytest.mark.parametrize(("side", "after"), [
    ("oasis", {3: "blue", 7: "green", 9: "orange yellow white"}),
    ("mirage", {3: "blue", 5: "green", 9: "orange yellow white"}),
])
def test_a_desert_tile_moves_the_unit_one_space_on_or_back(side, after):
    g = game({3: "blue green", 9: "orange yellow white"},
             tiles={"6": {"owner": "Bob", "side": side}})

    assert track(play(g, Roll("Ann", "green", 3))) == after


def test_mirage_puts_the_unit_under_the_stack():
    g = game({3: "blue green", 5: "orange yellow", 9: "white"},
             tiles={"6": {"owner": "Bob", "side": "mirage"}})
    play(g, Roll("Ann", "green", 3))

    assert track(g) == {3: "blue", 5: "green orange yellow", 9: "white"}
    assert g.state.ranking == ["white", "yellow", "orange", "green", "blue"]


def test_oasis_puts_the_unit_on_top_of_the_stack():
    g = game({3: "blue green", 7: "orange yellow", 9: "white"},
             tiles={"6": {"owner": "Bob", "side": "oasis"}})
    play(g, Roll("Ann", "blue", 3))

    assert track(g) == {7: "orange yellow blue green", 9: "white"}


def test_a_mirage_sends_a_unit_back_under_the_camels_it_left_behind():
    g = game({5: "white blue green", 9: "orange yellow"},
             tiles={"6": {"owner": "Bob", "side": "mirage"}})
    play(g, Roll("Ann", "blue", 1))

    assert track(g) == {5: "blue green white", 9: "orange yellow"}


def test_the_tile_owner_is_paid_1_the_moment_a_unit_lands_on_it():
    g = game({2: "blue", 9: "green orange white yellow"},
             tiles={"4": {"owner": "Cy", "side": "oasis"}, "12": {"owner": "Ann", "side": "oasis"}})
    play(g, Roll("Ann", "blue", 2))

    assert money(g) == {"Ann": 3, "Bob": 3, "Cy": 4}
    assert [(p.player, p.amount) for p in g.state.payouts] == [("Cy", 1)]

    play(g, Roll("Bob", "white", 3))

    assert money(g) == {"Ann": 4, "Bob": 3, "Cy": 4}
    assert track(g) == {5: "blue", 9: "green orange", 13: "white yellow"}


def test_a_unit_passing_over_a_tile_is_neither_moved_nor_pays():
    g = game({1: "blue", 9: "green orange white yellow"},
             tiles={"3": {"owner": "Bob", "side": "mirage"}})
    play(g, Roll("Ann", "blue", 3))

    assert track(g) == {4: "blue", 9: "green orange white yellow"}
    assert money(g) == {"Ann": 3, "Bob": 3, "Cy": 3}


def test_a_roll_takes_a_pyramid_tile_puts_its_die_out_and_passes_the_turn():
    g = play(game(SPREAD), Roll("Ann", "white", 1))

    s = state_json(g.state)
    assert [p["pyramid_tickets"] for p in s["players"]] == [1, 0, 0]
    assert s["dice_out"] == ["white"]
    assert sorted(s["dice_in_pyramid"]) == ["blue", "green", "orange", "yellow"]
    assert (s["turn"], s["leg"]) == ("Bob", 1)


def test_a_die_already_out_of_the_pyramid_cannot_come_out_again_this_leg():
    g = play(game(SPREAD), Roll("Ann", "white", 1))

    refuse(g, Roll("Bob", "white", 2), "the white die is already out of the pyramid")


@pytest.mark.parametrize(("roll", "rule"), [
    (Roll("Ann"), "a roll needs the die that came out of the pyramid and its value"),
    (Roll("Ann", "blue", 0), '"value" must be from 1 to 3, not 0'),
    (Roll("Ann", "blue", 4), '"value" must be from 1 to 3, not 4'),
    (Roll("Ann", "blue", None), "a roll needs the die that came out of the pyramid and its value"),
], ids=["no die", "a 0", "a 4", "no value"])
def test_a_roll_needs_its_die_and_a_value_from_1_to_3(roll, rule):
    refuse(game(SPREAD), roll, rule)


@pytest.mark.parametrize("line", [
    {"player": "Ann", "action": "roll", "die": "blue", "value": 4},
    {"player": "Ann", "action": "roll", "die": "blue"},
    {"player": "Ann", "action": "roll", "die": "grey", "value": 2, "numeral": "black"},
])
def test_a_roll_line_with_no_value_a_value_past_3_or_an_unknown_die_is_refused(line):
    with pytest.raises(IllegalAction):
        game(SPREAD).parse_action(line)


# --- desert tiles ---------------------------------------------------------------------------


def test_a_desert_tile_is_placed_on_an_empty_space_with_the_side_chosen():
    g = play(game(SPREAD), DesertTile("Ann", 8, "mirage"))

    assert state_json(g.state)["tiles"] == {"8": {"owner": "Ann", "side": "mirage"}}
    assert g.state.player_to_act == "Bob"


def test_a_desert_tile_is_refused_on_a_space_with_camels_or_another_tile():
    g = game(SPREAD, tiles={"9": {"owner": "Bob", "side": "oasis"}})

    refuse(g, DesertTile("Ann", 3, "oasis"), "space 3 has camels on it")
    refuse(g, DesertTile("Ann", 9, "mirage"), "space 9 already holds Bob's desert tile")


def test_a_desert_tile_never_goes_on_space_1():
    refuse(game({6: "blue green orange white yellow"}), DesertTile("Ann", 1, "oasis"),
           "a desert tile may never go on space 1")


@pytest.mark.parametrize("space", [8, 10])
def test_a_desert_tile_never_goes_next_to_another(space):
    refuse(game(SPREAD, tiles={"9": {"owner": "Bob", "side": "oasis"}}),
           DesertTile("Ann", space, "oasis"), "may not lie next to another one: Bob's is on 9")


def test_a_desert_tile_may_go_on_space_16():
    g = play(game(SPREAD), DesertTile("Ann", 16, "oasis"))

    assert state_json(g.state)["tiles"] == {"16": {"owner": "Ann", "side": "oasis"}}


@pytest.mark.parametrize(("tile", "rule"), [
    (DesertTile("Ann", 0, "oasis"), '"space" must be from 1 to 16, not 0'),
    (DesertTile("Ann", 17, "oasis"), '"space" must be from 1 to 16, not 17'),
    (DesertTile("Ann", 8, "sideways"), '"side" must be one of oasis, mirage'),
], ids=["space 0", "space 17", "no such side"])
def test_a_desert_tile_goes_on_a_track_space_with_one_of_its_two_sides_up(tile, rule):
    refuse(game(SPREAD), tile, rule)


def test_a_player_may_move_their_own_tile_even_to_the_space_beside_it():
    g = play(game(SPREAD, tiles={"8": {"owner": "Ann", "side": "oasis"}}),
             DesertTile("Ann", 9, "mirage"))

    assert state_json(g.state)["tiles"] == {"9": {"owner": "Ann", "side": "mirage"}}


@pytest.mark.parametrize("side", ["oasis", "mirage"])
def test_moving_ones_tile_to_the_space_it_lies_on_is_refused_even_turned_over(side):
    refuse(game(SPREAD, tiles={"8": {"owner": "Ann", "side": "oasis"}}),
           DesertTile("Ann", 8, side), "moving it means moving it to a different space")


def test_legal_actions_offer_a_tile_on_exactly_the_spaces_the_rules_allow():
    g = game(SPREAD, players="Ann Bob", tiles={"10": {"owner": "Bob", "side": "oasis"}})

    def spaces() -> set[tuple[int, str]]:
        return {(a.space, a.side) for a in g.legal_actions() if isinstance(a, DesertTile)}

    sides = ("oasis", "mirage")
    assert spaces() == {(s, side) for s in (6, 7, 8, 12, 13, 14, 15, 16) for side in sides}
    play(g, LegBet("Ann", "blue"))
    assert spaces() == {(s, side) for s in range(6, 17) if s != 10 for side in sides}


def test_a_unit_pushed_past_16_by_an_oasis_finishes_the_race():
    g = game({1: "blue", 2: "green", 3: "orange", 13: "white", 14: "yellow"},
             tiles={"16": {"owner": "Bob", "side": "oasis"}},
             race_bets={"winner": bets("Cy yellow")})
    play(g, Roll("Ann", "yellow", 2))

    s = state_json(g.state)
    assert s["finished"]
    assert s["crossed"] == ["yellow"]
    assert s["ranking"] == ["yellow", "white", "orange", "green", "blue"]
    assert money(g) == {"Ann": 4, "Bob": 4, "Cy": 11}


# --- leg betting tiles and pyramid tiles ----------------------------------------------------


def test_leg_betting_tiles_of_a_camel_are_taken_5_then_3_then_2():
    g = play(game(SPREAD), LegBet("Ann", "blue"), LegBet("Bob", "blue"), LegBet("Cy", "blue"))

    assert [p.leg_tickets for p in g.state.players] == [
        (LegTicket("blue", 5),), (LegTicket("blue", 3),), (LegTicket("blue", 2),)]
    assert state_json(g.state)["leg_bets_left"] == {
        "blue": [], "green": [5, 3, 2], "orange": [5, 3, 2], "yellow": [5, 3, 2],
        "white": [5, 3, 2]}


def test_a_leg_bet_on_a_camel_whose_tiles_are_all_taken_is_refused():
    g = game(SPREAD, leg_bets=bets("Bob blue", "Cy blue", "Bob blue"))

    refuse(g, LegBet("Ann", "blue"), "no blue leg betting tile is left this leg")
    assert {a.camel for a in g.legal_actions() if isinstance(a, LegBet)} == {
        "green", "orange", "yellow", "white"}


def test_a_player_may_hold_several_tiles_of_one_camel():
    g = play(game(SPREAD, leg_bets=bets("Ann blue")), LegBet("Ann", "blue"))

    assert g.state.player("Ann").leg_tickets == (LegTicket("blue", 5), LegTicket("blue", 3))


# --- the end of a leg -----------------------------------------------------------------------


def test_the_leg_ends_after_the_fifth_die_and_not_before():
    g = game(SPREAD, dice_out=["green", "orange", "white"])

    play(g, Roll("Ann", "yellow", 1))
    assert (g.state.leg, len(g.state.dice_out)) == (1, 4)
    play(g, Roll("Bob", "blue", 1))
    assert (g.state.leg, len(g.state.dice_out)) == (2, 0)


def test_leg_scoring_pays_the_leader_its_value_the_second_1_any_other_minus_1_a_pyramid_tile_1():
    g = game({3: "orange", 5: "white green", 8: "yellow blue"}, **LAST_DIE,
             pyramid_tickets={"Ann": 1, "Bob": 2, "Cy": 1},
             leg_bets=bets("Ann blue", "Bob blue", "Ann yellow", "Bob green", "Cy white"))
    play(g, Roll("Ann", "blue", 1))

    assert g.state.ranking == ["blue", "yellow", "green", "white", "orange"]
    assert money(g) == {"Ann": 3 + 5 + 1 + 2, "Bob": 3 + 3 - 1 + 2, "Cy": 3 - 1 + 1}


def test_the_leader_is_the_top_camel_of_the_leading_stack():
    g = game({3: "orange white", 7: "blue", 9: "green yellow"}, **LAST_DIE,
             leg_bets=bets("Bob blue", "Cy yellow", "Ann green"))
    play(g, Roll("Ann", "blue", 2))

    assert track(g) == {3: "orange white", 9: "green yellow blue"}
    assert money(g) == {"Ann": 3 - 1 + 1, "Bob": 3 + 5, "Cy": 3 + 1}


def test_leg_scoring_pays_each_player_the_net_of_their_tiles_once():
    g = game({3: "orange white", 9: "green yellow blue"}, **LAST_DIE, money={"Ann": 0},
             leg_bets=bets("Ann orange", "Ann blue"))
    play(g, Roll("Ann", "blue", 1))

    assert money(g)["Ann"] == -1 + 5 + 1


def test_leg_scoring_never_leaves_a_player_below_0():
    g = game({3: "orange white", 9: "green yellow blue"}, **LAST_DIE, money={"Bob": 1},
             leg_bets=bets("Bob orange", "Bob white", "Bob green"))
    play(g, Roll("Ann", "blue", 1))

    assert money(g) == {"Ann": 4, "Bob": 0, "Cy": 3}


def test_after_the_leg_tiles_tickets_and_dice_go_back_but_race_bets_stay():
    g = game(SPREAD, **LAST_DIE, tiles={"12": {"owner": "Cy", "side": "oasis"}},
             leg_bets=bets("Bob green"), pyramid_tickets={"Bob": 2},
             race_bets={"winner": bets("Cy yellow")})
    play(g, Roll("Ann", "blue", 1))

    s = state_json(g.state)
    assert s["leg"] == 2
    assert (s["dice_out"], sorted(s["dice_in_pyramid"])) == ([], sorted(camelup2014.RACING_CAMELS))
    assert s["leg_bets_left"] == {camel: [5, 3, 2] for camel in camelup2014.RACING_CAMELS}
    assert s["tiles"] == {}
    assert [(p["leg_bets"], p["pyramid_tickets"]) for p in s["players"]] == [([], 0)] * 3
    assert s["race_bets"] == {"winner": [{"player": "Cy", "camel": "yellow"}], "loser": []}
    assert track(g) == {2: "green blue", 3: "orange", 4: "white", 5: "yellow"}


def test_play_continues_with_the_player_after_the_last_roller():
    g = game(SPREAD, players="Ann Bob Cy Dee", **LAST_DIE)
    play(g, LegBet("Ann", "white"), Roll("Bob", "blue", 2))

    assert (g.state.leg, g.state.player_to_act) == (2, "Cy")


# --- the overall winner and loser -----------------------------------------------------------


def test_race_bets_lie_on_their_piles_in_the_order_laid():
    g = play(game(SPREAD), RaceBet("Ann", "winner", "blue"), RaceBet("Bob", "loser", "green"),
             RaceBet("Cy", "winner", "orange"))

    assert state_json(g.state)["race_bets"] == {
        "winner": [{"player": "Ann", "camel": "blue"}, {"player": "Cy", "camel": "orange"}],
        "loser": [{"player": "Bob", "camel": "green"}]}


def test_a_player_backs_each_colour_at_most_once_across_both_piles():
    g = game(SPREAD, race_bets={"winner": bets("Ann blue")})

    refuse(g, RaceBet("Ann", "loser", "blue"), "Ann has already played their one blue race")
    refuse(g, RaceBet("Ann", "winner", "blue"), "Ann has already played their one blue race")
    assert {(a.pile, a.camel) for a in g.legal_actions() if isinstance(a, RaceBet)} == {
        (pile, camel) for pile in ("winner", "loser")
        for camel in ("green", "orange", "yellow", "white")}
    play(g, RaceBet("Ann", "loser", "green"))


def test_a_race_bet_goes_on_the_winner_or_the_loser_pile_only():
    refuse(game(SPREAD), RaceBet("Ann", "middle", "blue"), '"pile" must be one of winner, loser')


def test_the_overall_winner_pile_pays_8_5_3_2_1_1_in_the_order_laid():
    g = near_the_line(players="Ann Bob Cy Dee Eve Fay", race_bets={"winner": bets(
        "Bob blue", "Cy blue", "Dee blue", "Eve blue", "Fay blue", "Ann blue")})
    play(g, Roll("Ann", "blue", 1))

    assert money(g) == {"Ann": 3 + 1 + 1, "Bob": 3 + 8, "Cy": 3 + 5, "Dee": 3 + 3,
                        "Eve": 3 + 2, "Fay": 3 + 1}


def test_the_overall_loser_is_the_bottom_camel_of_the_last_stack():
    g = game({2: "orange white", 9: "green", 14: "yellow", 16: "blue"},
             race_bets={"loser": bets("Bob white", "Cy orange")})
    play(g, Roll("Ann", "blue", 1))

    assert g.state.ranking == ["blue", "yellow", "green", "white", "orange"]
    assert money(g) == {"Ann": 4, "Bob": 2, "Cy": 11}


def test_a_wrong_card_costs_1_on_either_pile():
    g = near_the_line(race_bets={"winner": bets("Bob white", "Cy blue"),
                                 "loser": bets("Bob green", "Cy orange", "Bob orange")})
    play(g, Roll("Ann", "blue", 2))

    assert money(g) == {"Ann": 4, "Bob": 3 - 1 - 1 + 5, "Cy": 3 + 8 + 8}


@pytest.mark.parametrize(("race_bets", "ann"), [
    ({"winner": bets("Ann green", "Ann yellow")}, 8),
    ({"winner": bets("Ann yellow", "Ann green")}, 7),
    ({"winner": bets("Ann yellow"), "loser": bets("Ann white")}, 7),
    ({"winner": bets("Ann green"), "loser": bets("Ann orange")}, 8),
], ids=["spared then wins", "wins then pays", "winner pile first", "keeps a later win"])
def test_cards_are_paid_one_by_one_winner_pile_first_and_a_player_at_0_is_spared(race_bets, ann):
    g = game({2: "orange", 10: "white", 15: "blue", 16: "green yellow"}, players="Bob Ann",
             money={"Ann": 0}, race_bets=race_bets)
    play(g, Roll("Bob", "yellow", 1))

    assert money(g) == {"Bob": 4, "Ann": ann}


def test_the_race_ends_the_moment_a_unit_passes_16_the_last_leg_scored_then_the_piles():
    g = game({3: "orange", 8: "white", 12: "yellow", 15: "blue green"}, money={"Cy": 0},
             leg_bets=bets("Bob green", "Cy yellow"),
             race_bets={"winner": bets("Cy green"), "loser": bets("Bob orange")})
    play(g, Roll("Ann", "blue", 2))

    s = state_json(g.state)
    assert (s["finished"], s["turn"], s["leg"]) == (True, None, 1)
    assert (s["track"], s["crossed"]) == ({"3": ["orange"], "8": ["white"], "12": ["yellow"]},
                                          ["blue", "green"])
    assert s["ranking"] == ["green", "blue", "yellow", "white", "orange"]
    assert money(g) == {"Ann": 3 + 1, "Bob": 3 + 5 + 8, "Cy": 0 + 8}
    assert s["winners"] == ["Bob"]


def test_a_race_ending_on_the_last_die_of_a_leg_scores_that_leg_once():
    g = near_the_line(**LAST_DIE, leg_bets=bets("Bob blue"), pyramid_tickets={"Cy": 4})
    play(g, Roll("Ann", "blue", 1))

    assert g.state.finished
    assert money(g) == {"Ann": 3 + 1, "Bob": 3 + 5, "Cy": 3 + 4}


def test_a_correction_that_would_make_a_later_action_illegal_is_refused_whole():
    g = play(game(SPREAD), LegBet("Ann", "white"), Roll("Bob", "blue", 1))
    before = state_json(g.state)

    with pytest.raises(IllegalAction):
        g.replace(0, Roll("Ann", "blue", 2))
    assert (state_json(g.state), g.actions) == (before, [LegBet("Ann", "white"),
                                                         Roll("Bob", "blue", 1)])


def test_the_richest_players_win_and_a_tie_is_shared():
    g = near_the_line(money={"Bob": 4})

    assert g.state.winners == ()
    play(g, Roll("Ann", "blue", 1))
    assert g.state.winners == ("Ann", "Bob")


def test_nothing_can_be_played_after_the_race_has_ended():
    g = play(near_the_line(), Roll("Ann", "blue", 1))

    assert g.legal_actions() == []
    for action in (Roll("Bob", "green", 1), LegBet("Bob", "green"), DesertTile("Bob", 6, "oasis"),
                   RaceBet("Bob", "winner", "green")):
        refuse(g, action, "the race is over")


# --- who may act, and on what ---------------------------------------------------------------


def test_acting_out_of_turn_is_refused():
    g = game(SPREAD)

    for action in (LegBet("Bob", "blue"), Roll("Bob", "blue", 1), DesertTile("Bob", 8, "oasis"),
                   RaceBet("Bob", "winner", "blue")):
        refuse(g, action, "it is Ann's turn, not Bob's")
    play(g, LegBet("Ann", "blue"))
    refuse(g, LegBet("Ann", "green"), "it is Bob's turn, not Ann's")


def test_an_unknown_player_is_refused():
    g = game(SPREAD)

    refuse(g, LegBet("Zed", "blue"), "unknown player 'Zed'")
    with pytest.raises(BadHeader):
        game(SPREAD, money={"Zed": 5})


@pytest.mark.parametrize(("action", "rule"), [
    (LegBet("Ann", "pink"), '"camel" must be one of blue, green, orange, yellow, white'),
    (RaceBet("Ann", "winner", "pink"), '"camel" must be one of blue, green, orange, yellow'),
    (RaceBet("Ann", "loser", "pink"), '"camel" must be one of blue, green, orange, yellow'),
    (Roll("Ann", "pink", 2), '"die" must be one of blue, green, orange, yellow, white'),
], ids=["leg bet", "winner card", "loser card", "die"])
def test_an_unknown_camel_is_refused(action, rule):
    g = game(SPREAD)

    refuse(g, action, rule)
    with pytest.raises(IllegalAction):
        g.parse_action(action.to_json())


def test_the_first_edition_has_no_partnerships_and_no_spectator_tiles():
    g = game(SPREAD, players="Ann Bob Cy Dee Eve Fay")

    refuse(g, Partnership("Ann", "Bob"), "camelup-2014 has no action 'partnership'")
    refuse(g, SpectatorTile("Ann", 8, "cheering"), "camelup-2014 has no action 'spectator_tile'")
    with pytest.raises(IllegalAction):
        g.parse_action({"player": "Ann", "action": "partnership", "with": "Bob"})
    with pytest.raises(BadHeader):
        Game(header("camelup-2014", SPREAD, partnerships=[["Ann", "Bob"]]))
