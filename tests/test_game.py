"""The game's action stack: undo, corrections and the legal actions, as a table uses them."""

import random
from dataclasses import replace

import pytest

from companion.errors import IllegalAction, NoPlaceToInsert, NothingToUndo
from companion.game import Game
from companion.rules.camelup import DesertTile, LegBet, Partnership, RaceBet, Roll
from tests.play import HEADERS, random_action, random_game

HEADER_2014 = HEADERS["camelup-2014"]


def played(header, actions):
    """A game with `actions` pushed one by one."""
    game = Game(header)
    for action in actions:
        game.push(action)
    return game


def snapshot(game):
    """Everything a change must leave as it was when it is refused."""
    return list(game.actions), [game.state_after(n) for n in range(len(game) + 1)]


FOUR_LEG_BETS = [LegBet("Ann", "green"), LegBet("Bob", "blue"), LegBet("Cy", "blue"),
                 LegBet("Ann", "blue")]
"""Bob and Cy take blue's 5 and 3, Ann its last tile, the 2."""


def test_undo_restores_the_state_before_the_last_push_exactly():
    for name, header in HEADERS.items():
        for seed in range(5):
            rng, game = random.Random(seed), Game(header)
            while not game.state.finished and len(game) < 400:
                before, count = game.state, len(game)
                action = random_action(game, rng)
                game.push(action)
                assert game.undo() == action, (name, seed, count)
                assert game.state is before and game.state == before
                assert len(game) == count
                game.push(action)


def test_undo_of_a_whole_game_comes_back_to_the_start():
    game = random_game(HEADERS["camelup-2018"], seed=3)
    start, actions = game.state_after(0), list(game.actions)
    taken_back = [game.undo() for _ in range(len(actions))]
    assert taken_back == actions[::-1]
    assert game.actions == [] and game.state == start == Game(HEADERS["camelup-2018"]).state


def test_undo_on_a_game_with_no_action_is_refused():
    game = Game(HEADER_2014)
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        game.undo()
    assert game.actions == [] and game.state == Game(HEADER_2014).state
    assert issubclass(NothingToUndo, IndexError)


def test_replace_corrects_a_misread_die_and_replays_the_rest():
    actions = [LegBet("Ann", "blue"), Roll("Bob", "green", 3), DesertTile("Cy", 6, "oasis"),
               RaceBet("Ann", "winner", "yellow")]
    game = played(HEADER_2014, actions)
    game.replace(1, Roll("Bob", "green", 1))
    corrected = [actions[0], Roll("Bob", "green", 1), *actions[2:]]
    assert game.actions == corrected
    assert game.state == played(HEADER_2014, corrected).state
    assert game.state.track.as_dict() == {1: ("blue",), 2: ("yellow", "green"),
                                          3: ("orange", "white")}


def test_replace_that_makes_a_later_action_illegal_is_refused_and_names_it():
    game = played(HEADER_2014, FOUR_LEG_BETS)
    before = snapshot(game)
    with pytest.raises(IllegalAction) as refused:
        game.replace(0, LegBet("Ann", "blue"))
    assert str(refused.value) == ("that would make action 4 illegal: "
                                  "no blue leg betting tile is left this leg")
    assert snapshot(game) == before


def test_replace_with_an_action_illegal_in_its_place_is_refused():
    game = played(HEADER_2014, FOUR_LEG_BETS)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=r"it is Bob's turn, not Cy's"):
        game.replace(1, LegBet("Cy", "blue"))
    assert snapshot(game) == before


def test_replace_or_delete_of_an_action_the_game_does_not_have_is_refused():
    game = played(HEADER_2014, FOUR_LEG_BETS)
    before = snapshot(game)
    for index in (4, -1):
        with pytest.raises(NothingToUndo, match="there is no action"):
            game.replace(index, LegBet("Ann", "blue"))
        with pytest.raises(NothingToUndo, match="there is no action"):
            game.delete(index)
    assert snapshot(game) == before


def test_insert_before_an_action_past_the_end_is_refused():
    game = played(HEADER_2014, FOUR_LEG_BETS)
    before = snapshot(game)
    for index in (5, -1):
        with pytest.raises(NoPlaceToInsert, match="cannot insert before action"):
            game.insert(index, LegBet("Ann", "blue"))
    assert snapshot(game) == before
    assert issubclass(NoPlaceToInsert, IndexError) and not issubclass(NoPlaceToInsert,
                                                                      NothingToUndo)


def test_delete_of_the_last_action_is_an_undo():
    game = played(HEADER_2014, FOUR_LEG_BETS)
    game.delete(3)
    assert game.actions == FOUR_LEG_BETS[:3]
    assert game.state == played(HEADER_2014, FOUR_LEG_BETS[:3]).state


def test_delete_that_makes_a_later_action_illegal_is_refused_and_names_it():
    game = played(HEADER_2014, FOUR_LEG_BETS)
    before = snapshot(game)
    with pytest.raises(IllegalAction) as refused:
        game.delete(0)
    # Bob's leg bet, action 2 as the table shows it, would come when it is Ann's turn.
    assert str(refused.value) == ("that would make action 2 illegal: "
                                  "it is Ann's turn, not Bob's")
    assert snapshot(game) == before


def test_state_after_n_is_the_state_of_the_first_n_actions():
    game = random_game(HEADERS["camelup-2014"], seed=5)
    for n in range(len(game) + 1):
        assert game.state_after(n) == played(HEADER_2014, game.actions[:n]).state
    assert game.state_after(len(game)) is game.state
    for n in (len(game) + 1, -1):
        with pytest.raises(NothingToUndo, match=f"no state after {n}"):
            game.state_after(n)


def test_a_copy_changes_apart_from_its_original():
    game = played(HEADER_2014, FOUR_LEG_BETS[:2])
    twin = game.copy()
    twin.push(FOUR_LEG_BETS[2])
    twin.replace(0, LegBet("Ann", "white"))
    assert game.actions == FOUR_LEG_BETS[:2]
    assert game.state == played(HEADER_2014, FOUR_LEG_BETS[:2]).state


def test_legal_actions_hold_one_roll_whose_die_is_not_yet_known():
    for header in HEADERS.values():
        game = Game(header)
        rolls = [a for a in game.legal_actions() if isinstance(a, Roll)]
        assert rolls == [Roll(header["players"][0])]
        assert rolls[0].die is None and rolls[0].value is None


def seen(action, state):
    """The action as played: a listed roll gets a die still in the pyramid and its value."""
    if not isinstance(action, Roll):
        return action
    die = state.dice_in_pyramid[0]
    return replace(action, die=die, value=2, numeral="white" if die == "grey" else None)


def test_every_listed_action_can_be_pushed_throughout_random_games():
    for name, header in HEADERS.items():
        for seed in range(4):
            game = random_game(header, seed)
            for n in range(len(game)):
                position = played(header, game.actions[:n])
                for action in position.legal_actions():
                    position.copy().push(seen(action, position.state))  # raises if wrongly listed
                assert position.legal_actions(), (name, seed, n)
            assert game.legal_actions() == []


def test_an_action_that_is_not_listed_is_refused():
    """The listing is complete: whatever a player to act could try that is not listed fails."""
    for header in HEADERS.values():
        game = random_game(header, seed=2, max_actions=30)
        state, me = game.state, game.state.player_to_act
        camels, sides = state.edition.camels, state.edition.tile_sides
        tried = [LegBet(me, c) for c in camels]
        tried += [state.edition.tile(me, s, side) for s in range(1, 17) for side in sides]
        tried += [RaceBet(me, pile, c) for pile in ("winner", "loser") for c in camels]
        tried += [Partnership(me, other) for other in state.names]
        listed = game.legal_actions()
        for action in (a for a in tried if a not in listed):
            with pytest.raises(IllegalAction):
                game.copy().push(action)
