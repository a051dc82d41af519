"""Camel Up, second edition (2018): one test per rule of book 003 and the rulings.

What the first edition shares (stacks, tile placement, scoring of the piles) is proved in
test_camelup2014.py; here are the crazy camels, the grey die, spectator tiles, the 5-3-2-2
tickets, the 5-of-6 leg, the backward finish and partnerships.
"""

from functools import partial

import pytest

from companion.errors import BadHeader, IllegalAction
from companion.rules import camelup2018
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
from tests.rulebook import bets, money, play, refuse, seats, table, track

game = partial(table, "camelup-2018")

START = {1: "green yellow", 2: "blue", 3: "red purple", 14: "white", 16: "black"}
SIX = "Ann Bob Cy Dee Eve Fay"
LAST_DIE = {"dice_out": ["blue", "green", "yellow", "red"]}
"""Four dice out: the next one ends the leg."""
LEG_SCORING = {3: "blue", 5: "green", 7: "yellow", 9: "red purple", 14: "white", 16: "black"}
"""Purple leads red, then yellow; rolling purple 1 keeps that order."""


def grey(player: str, value: int, numeral: str) -> Roll:
    return Roll(player, "grey", value, numeral)


def partners(g) -> dict[str, str | None]:
    return {p["name"]: p["partner"] for p in state_json(g.state)["players"]}


# --- setting up -----------------------------------------------------------------------------


def test_the_header_stands_the_crazy_camels_on_the_track_and_tickets_are_5_3_2_2():
    g = game(START)

    s = state_json(g.state)
    assert track(g) == START
    assert s["ranking"] == ["purple", "red", "blue", "yellow", "green"]
    assert s["leg_bets_left"] == {camel: [5, 3, 2, 2] for camel in camelup2018.RACING_CAMELS}
    assert sorted(s["dice_in_pyramid"]) == sorted([*camelup2018.RACING_CAMELS, "grey"])
    assert money(g) == {"Ann": 3, "Bob": 3, "Cy": 3}


def test_the_header_must_stand_both_crazy_camels_on_the_track():
    with pytest.raises(BadHeader):
        game({1: "green yellow", 2: "blue", 3: "red purple", 14: "white"})


@pytest.mark.parametrize("count", range(3, 9))
def test_three_to_eight_players_may_play(count):
    assert game(START, players=seats(count)).state.player_to_act == "P1"


@pytest.mark.parametrize("names", ["Ann Bob", seats(9)])
def test_two_players_or_nine_are_refused(names):
    with pytest.raises(BadHeader):
        game(START, players=names)


# --- crazy camels and the grey die ----------------------------------------------------------


@pytest.mark.parametrize(("numeral", "after"), [
    ("white", {10: "white", 15: "black"}),
    ("black", {12: "white", 13: "black"}),
])
def test_the_grey_numeral_picks_the_crazy_camel_and_it_moves_counterclockwise(numeral, after):
    g = play(game({1: "blue green yellow red purple", 12: "white", 15: "black"}),
             grey("Ann", 2, numeral))

    assert track(g) == {1: "blue green yellow red purple", **after}
    s = state_json(g.state)
    assert (s["dice_out"], s["players"][0]["pyramid_tickets"]) == (["grey"], 1)


def test_racing_camels_on_a_crazy_camels_back_are_carried_backwards():
    g = play(game({1: "blue green yellow", 10: "white red purple", 15: "black"}),
             grey("Ann", 3, "white"))

    assert track(g) == {1: "blue green yellow", 7: "white red purple", 15: "black"}
    assert g.state.ranking == ["purple", "red", "yellow", "green", "blue"]


def test_a_racing_camel_landing_on_a_crazy_camel_rides_it_backwards():
    g = game({1: "blue green yellow purple", 8: "red", 10: "white", 15: "black"})

    play(g, Roll("Ann", "red", 2))
    assert track(g) == {1: "blue green yellow purple", 10: "white red", 15: "black"}
    play(g, grey("Bob", 3, "white"))
    assert track(g) == {1: "blue green yellow purple", 7: "white red", 15: "black"}


def test_a_racing_camel_riding_a_crazy_camel_moves_forward_alone():
    g = play(game({1: "blue green yellow purple", 10: "white red", 15: "black"}),
             Roll("Ann", "red", 2))

    assert track(g) == {1: "blue green yellow purple", 10: "white", 12: "red", 15: "black"}


def test_a_crazy_camel_landing_on_racing_camels_goes_on_top_and_they_carry_it_forward():
    g = game({1: "blue green yellow", 10: "red purple", 12: "white", 15: "black"})

    play(g, grey("Ann", 2, "white"))
    assert track(g) == {1: "blue green yellow", 10: "red purple white", 15: "black"}
    play(g, Roll("Bob", "red", 1))
    assert track(g) == {1: "blue green yellow", 11: "red purple white", 15: "black"}


@pytest.mark.parametrize(("start", "numeral", "after"), [
    ({1: "blue green yellow", 12: "white red purple", 15: "black"}, "black",
     {1: "blue green yellow", 10: "white red purple", 15: "black"}),
    ({1: "blue green yellow purple", 15: "black red white"}, "white",
     {1: "blue green yellow purple", 13: "black red white"}),
], ids=["the other numeral", "the other crazy camel rides higher"])
def test_only_the_crazy_camel_carrying_racing_camels_moves_whatever_the_numeral(
        start, numeral, after):
    assert track(play(game(start), grey("Ann", 2, numeral))) == after


@pytest.mark.parametrize(("start", "numeral", "after"), [
    ({12: "white red", 15: "black purple"}, "black", {12: "white red", 13: "black purple"}),
    ({12: "white red", 15: "black purple"}, "white", {10: "white red", 15: "black purple"}),
    ({15: "black red white purple"}, "white", {13: "white purple", 15: "black red"}),
], ids=["black numeral", "white numeral", "one above the other"])
def test_when_both_crazy_camels_carry_racing_camels_the_numeral_decides(start, numeral, after):
    rest = {1: "blue green yellow"}
    g = play(game(rest | start), grey("Ann", 2, numeral))

    assert track(g) == rest | after


@pytest.mark.parametrize(("start", "after"), [
    ({1: "blue green yellow red purple", 15: "white black"},
     {1: "blue green yellow red purple", 13: "black", 15: "white"}),
    ({1: "blue green yellow purple", 15: "red white black"},
     {1: "blue green yellow purple", 13: "black", 15: "red white"}),
    ({1: "blue green yellow purple", 15: "white black red"},
     {1: "blue green yellow purple", 13: "black red", 15: "white"}),
], ids=["alone", "on racing camels", "carrying a racing camel"])
def test_a_crazy_camel_directly_on_the_other_moves_whatever_the_numeral(start, after):
    g = play(game(start), grey("Ann", 2, "white"))

    assert track(g) == after


@pytest.mark.parametrize(("roll", "rule"), [
    (Roll("Ann", "grey", 2), '"numeral" is missing'),
    (Roll("Ann", "grey", 2, "grey"), '"numeral" must be one of black, white'),
], ids=["no numeral", "a grey numeral"])
def test_a_grey_roll_needs_the_colour_of_its_numeral(roll, rule):
    g = game(START)

    refuse(g, roll, rule)
    with pytest.raises(IllegalAction):
        g.parse_action(roll.to_json())


def test_a_racing_die_has_no_numeral():
    with pytest.raises(IllegalAction):
        game(START).parse_action({"player": "Ann", "action": "roll", "die": "red", "value": 1,
                                  "numeral": "black"})


# --- spectator tiles ------------------------------------------------------------------------


def test_cheering_moves_a_racing_unit_one_space_on_and_onto_the_top_of_the_stack_there():
    g = game({1: "red purple", 3: "blue green", 7: "yellow", 14: "white", 16: "black"},
             tiles={"6": {"owner": "Bob", "side": "cheering"}})
    play(g, Roll("Ann", "blue", 3))

    assert track(g) == {1: "red purple", 7: "yellow blue green", 14: "white", 16: "black"}
    assert money(g) == {"Ann": 3, "Bob": 4, "Cy": 3}


def test_booing_moves_a_racing_unit_one_space_back_and_under_the_stack_there():
    g = game({1: "red purple", 3: "blue green", 5: "yellow", 14: "white", 16: "black"},
             tiles={"6": {"owner": "Bob", "side": "booing"}})
    play(g, Roll("Ann", "blue", 3))

    assert track(g) == {1: "red purple", 5: "blue green yellow", 14: "white", 16: "black"}
    assert money(g) == {"Ann": 3, "Bob": 4, "Cy": 3}


def test_cheering_moves_a_crazy_camel_one_space_further_counterclockwise():
    g = game({1: "blue green yellow purple", 9: "red", 12: "black", 15: "white"},
             tiles={"10": {"owner": "Bob", "side": "cheering"}})
    play(g, grey("Ann", 2, "black"))

    assert track(g) == {1: "blue green yellow purple", 9: "red black", 15: "white"}
    assert money(g) == {"Ann": 3, "Bob": 4, "Cy": 3}


def test_booing_moves_a_crazy_camel_one_space_clockwise_and_under_the_unit_there():
    g = game({1: "blue green yellow purple", 11: "red", 12: "black", 15: "white"},
             tiles={"10": {"owner": "Bob", "side": "booing"}})
    play(g, grey("Ann", 2, "black"))

    assert track(g) == {1: "blue green yellow purple", 11: "black red", 15: "white"}
    assert money(g) == {"Ann": 3, "Bob": 4, "Cy": 3}


@pytest.mark.parametrize(("start", "roll", "after"), [
    ({5: "blue white", 15: "black"}, Roll("Ann", "blue", 1), {7: "blue white", 15: "black"}),
    ({8: "black blue", 15: "white"}, grey("Ann", 2, "black"), {5: "black blue", 15: "white"}),
], ids=["racing camel carrying a crazy one", "crazy camel carrying a racing one"])
def test_a_tile_moves_a_unit_the_way_the_rolled_camel_goes_whatever_it_carries(
        start, roll, after):
    rest = {1: "green yellow red purple"}
    g = game(rest | start, tiles={"6": {"owner": "Bob", "side": "cheering"}})
    play(g, roll)

    assert track(g) == rest | after


@pytest.mark.parametrize(("space", "rule"), [
    (1, "a spectator tile may never go on space 1"),
    (3, "space 3 has camels on it"),
    (9, "may not lie next to another one: Bob's is on 10"),
    (10, "space 10 already holds Bob's spectator tile"),
    (11, "may not lie next to another one: Bob's is on 10"),
], ids=["space 1", "camels there", "next to a tile", "on a tile", "next to it on the other side"])
def test_a_spectator_tile_goes_only_on_an_empty_space_not_1_nor_next_to_another(space, rule):
    refuse(game(START, tiles={"10": {"owner": "Bob", "side": "booing"}}),
           SpectatorTile("Ann", space, "cheering"), rule)


def test_a_spectator_tile_may_go_on_16_and_be_moved_by_its_owner_beside_where_it_lay():
    g = game({1: "green yellow", 2: "blue", 3: "red purple", 13: "white", 14: "black"})
    play(g, SpectatorTile("Ann", 16, "booing"), LegBet("Bob", "red"), LegBet("Cy", "red"))
    assert state_json(g.state)["tiles"] == {"16": {"owner": "Ann", "side": "booing"}}

    refuse(g, SpectatorTile("Ann", 16, "cheering"), "moving it to a different space")
    play(g, SpectatorTile("Ann", 15, "cheering"))
    assert state_json(g.state)["tiles"] == {"15": {"owner": "Ann", "side": "cheering"}}


def test_the_second_edition_has_spectator_tiles_not_desert_tiles():
    refuse(game(START), DesertTile("Ann", 8, "oasis"), "camelup-2018 has no action 'desert_tile'")


# --- betting tickets and legs ---------------------------------------------------------------


def test_betting_tickets_of_a_camel_are_taken_5_3_2_2_then_there_are_none():
    g = play(game(START), LegBet("Ann", "red"), LegBet("Bob", "red"), LegBet("Cy", "red"),
             LegBet("Ann", "red"))

    assert [p.leg_tickets for p in g.state.players] == [
        (LegTicket("red", 5), LegTicket("red", 2)), (LegTicket("red", 3),), (LegTicket("red", 2),)]
    refuse(g, LegBet("Bob", "red"), "no red betting ticket is left this leg")
    assert "red" not in {a.camel for a in g.legal_actions() if isinstance(a, LegBet)}


@pytest.mark.parametrize(("dice_out", "roll"), [
    (["blue", "green", "yellow", "red"], Roll("Ann", "purple", 1)),
    (["blue", "green", "yellow", "red"], grey("Ann", 1, "black")),
    (["blue", "green", "grey", "red"], Roll("Ann", "yellow", 1)),
], ids=["grey stays in", "purple stays in", "yellow out last"])
def test_the_leg_ends_when_five_of_the_six_dice_are_out(dice_out, roll):
    g = play(game(START, dice_out=dice_out), roll)

    s = state_json(g.state)
    assert (s["leg"], s["dice_out"], s["turn"]) == (2, [], "Bob")
    assert sorted(s["dice_in_pyramid"]) == sorted([*camelup2018.RACING_CAMELS, "grey"])


def test_the_leg_goes_on_while_two_dice_are_in_the_pyramid():
    g = play(game(START, dice_out=["blue", "green", "yellow"]), grey("Ann", 1, "black"))

    assert (g.state.leg, sorted(g.state.dice_in_pyramid)) == (1, ["purple", "red"])


@pytest.mark.parametrize(("action", "rule"), [
    (LegBet("Ann", "black"), "black is a crazy camel: betting tickets go on racing camels"),
    (LegBet("Ann", "white"), "white is a crazy camel: betting tickets go on racing camels"),
    (RaceBet("Ann", "winner", "white"), "white is a crazy camel: finish cards go on racing"),
    (RaceBet("Ann", "loser", "black"), "black is a crazy camel: finish cards go on racing"),
])
def test_crazy_camels_cannot_be_bet_on(action, rule):
    g = game(START)

    refuse(g, action, rule)
    assert {a.camel for a in g.legal_actions() if isinstance(a, LegBet | RaceBet)} == set(
        camelup2018.RACING_CAMELS)


def test_crazy_camels_are_ignored_in_the_leg_ranking():
    g = game({3: "blue", 5: "green", 7: "yellow", 9: "red purple white", 12: "black"},
             **LAST_DIE, leg_bets=bets("Ann purple", "Bob red", "Cy yellow"))
    play(g, grey("Ann", 1, "black"))

    assert track(g) == {3: "blue", 5: "green", 7: "yellow", 9: "red purple white", 11: "black"}
    assert g.state.ranking == ["purple", "red", "yellow", "green", "blue"]
    assert money(g) == {"Ann": 3 + 5 + 1, "Bob": 3 + 1, "Cy": 3 - 1}


# --- the end of the race --------------------------------------------------------------------


def test_a_crazy_camel_crossing_the_line_backwards_ends_the_race():
    g = game({1: "black", 3: "blue green", 5: "yellow red purple", 10: "white"},
             race_bets={"winner": bets("Bob purple"), "loser": bets("Cy blue")})
    play(g, grey("Ann", 1, "black"))

    s = state_json(g.state)
    assert (s["finished"], s["crossed"]) == (True, ["black"])
    assert track(g) == {3: "blue green", 5: "yellow red purple", 10: "white"}
    assert s["ranking"] == ["purple", "red", "yellow", "green", "blue"]
    assert money(g) == {"Ann": 4, "Bob": 11, "Cy": 11}
    refuse(g, Roll("Bob", "red", 1), "the race is over")


def test_racing_camels_carried_backwards_across_the_line_rank_last_the_bottom_one_overall_loser():
    g = game({1: "black red blue", 4: "green", 6: "yellow purple", 10: "white"},
             race_bets={"winner": bets("Bob purple"),
                        "loser": bets("Bob blue", "Cy red", "Ann red")})
    play(g, grey("Ann", 2, "black"))

    s = state_json(g.state)
    assert (s["finished"], s["crossed"]) == (True, ["black", "red", "blue"])
    assert s["ranking"] == ["purple", "yellow", "green", "blue", "red"]
    assert money(g) == {"Ann": 3 + 1 + 5, "Bob": 3 + 8 - 1, "Cy": 3 + 8}
    assert s["winners"] == ["Cy"]


def test_crazy_camels_are_ignored_for_the_overall_winner_and_loser():
    g = game({1: "white", 2: "blue", 4: "green", 8: "yellow red", 16: "purple black"},
             race_bets={"winner": bets("Ann purple"), "loser": bets("Bob blue", "Cy red")})
    play(g, Roll("Ann", "purple", 1))

    s = state_json(g.state)
    assert (s["finished"], s["crossed"]) == (True, ["purple", "black"])
    assert s["ranking"] == ["purple", "red", "yellow", "green", "blue"]
    assert money(g) == {"Ann": 3 + 1 + 8, "Bob": 3 + 8, "Cy": 3 - 1}


# --- partnerships (6 or more players) -------------------------------------------------------


def test_partnerships_are_played_only_with_six_or_more_players():
    g = game(START, players="Ann Bob Cy Dee Eve")

    refuse(g, Partnership("Ann", "Bob"), "partnerships are played only with 6 or more players")
    assert not [a for a in g.legal_actions() if isinstance(a, Partnership)]
    with pytest.raises(BadHeader):
        game(START, players="Ann Bob Cy Dee Eve", partnerships=[["Ann", "Bob"]])


def test_a_partnership_makes_both_players_partners_for_the_leg():
    g = play(game(START, players=SIX), Partnership("Ann", "Cy"))

    assert partners(g) == {"Ann": "Cy", "Bob": None, "Cy": "Ann", "Dee": None, "Eve": None,
                           "Fay": None}
    assert g.state.player_to_act == "Bob"


def test_both_partners_must_be_available():
    g = game(START, players=SIX, partnerships=[["Bob", "Cy"]])

    refuse(g, Partnership("Ann", "Bob"), "Bob's partnership card is not available")
    refuse(g, Partnership("Ann", "Cy"), "Cy's partnership card is not available")
    assert {a.partner for a in g.legal_actions() if isinstance(a, Partnership)} == {
        "Dee", "Eve", "Fay"}
    play(g, LegBet("Ann", "red"))
    refuse(g, Partnership("Bob", "Dee"), "Bob's partnership card is not available")


@pytest.mark.parametrize(("partner", "rule"), [("Ann", "Ann cannot be their own betting partner"),
                                               ("Zed", "unknown player 'Zed'")])
def test_a_player_cannot_partner_themselves_or_a_stranger(partner, rule):
    refuse(game(START, players=SIX), Partnership("Ann", partner), rule)


def test_each_partner_adds_the_best_one_of_the_others_tickets():
    g = game(LEG_SCORING, players=SIX, **LAST_DIE, pyramid_tickets={"Bob": 1},
             leg_bets=bets("Ann purple", "Bob purple", "Ann yellow", "Bob red"),
             partnerships=[["Ann", "Bob"]])
    play(g, Roll("Ann", "purple", 1))

    assert g.state.ranking == ["purple", "red", "yellow", "green", "blue"]
    assert money(g) == {"Ann": 3 + (5 - 1 + 1) + 3, "Bob": 3 + (3 + 1 + 1) + 5,
                        "Cy": 3, "Dee": 3, "Eve": 3, "Fay": 3}


def test_a_partner_adds_nothing_when_every_ticket_of_the_other_would_lose():
    g = game(LEG_SCORING, players=SIX, **LAST_DIE,
             leg_bets=bets("Ann purple", "Bob blue", "Bob green", "Eve yellow"),
             partnerships=[["Ann", "Bob"], ["Dee", "Eve"]])
    play(g, Roll("Ann", "purple", 1))

    assert money(g) == {"Ann": 3 + 5 + 1, "Bob": 3 - 2 + 5, "Cy": 3, "Dee": 3, "Eve": 3 - 1,
                        "Fay": 3}


def test_partnerships_end_with_the_leg():
    g = game(LEG_SCORING, players=SIX, **LAST_DIE, partnerships=[["Ann", "Bob"], ["Cy", "Dee"]])
    play(g, Roll("Ann", "purple", 1))

    assert g.state.leg == 2
    assert set(partners(g).values()) == {None}
    play(g, Partnership("Bob", "Ann"))
    assert (partners(g)["Ann"], partners(g)["Bob"]) == ("Bob", "Ann")


def test_partners_share_in_the_last_leg_scoring_too():
    g = game({3: "blue", 5: "green", 7: "yellow", 9: "red", 14: "white", 15: "black",
              16: "purple"}, players=SIX, leg_bets=bets("Bob purple"),
             partnerships=[["Ann", "Bob"]])
    play(g, Roll("Ann", "purple", 1))

    assert g.state.finished
    assert money(g) == {"Ann": 3 + 1 + 5, "Bob": 3 + 5 + 1, "Cy": 3, "Dee": 3, "Eve": 3,
                        "Fay": 3}
