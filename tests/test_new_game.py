"""A new game of every game set up as its rule book says (`GameRules.new_header`): a first line
its own rules accept for every number of players it is played by, and one they refuse in one
line for any other; the New game page takes a start camel by camel only where the players
place the camels on a board (`GameRules.start_pieces`)."""

import random
from collections import Counter

import pytest

from companion.errors import BadHeader
from companion.game import Game
from companion.rules import GAMES
from companion.rules.cards import CAMELS, CARDS_PER_COLOUR, SET_UP_CARDS

PLAYED_BY = {"camelup-2014": range(2, 9), "camelup-2018": range(3, 9),
             "camelup-cards": range(2, 7), "last-camel": range(2, 7)}
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ida"]


def test_every_game_is_named_here():
    assert set(PLAYED_BY) == set(GAMES)


@pytest.mark.parametrize("game", list(PLAYED_BY))
def test_a_new_game_is_one_its_rules_accept_for_every_number_of_players(game):
    for players in PLAYED_BY[game]:
        for seed in range(20):
            header = GAMES[game].new_header(NAMES[:players], random.Random(seed))
            assert (header["game"], header["players"]) == (game, NAMES[:players])
            state = Game(header).state
            assert not state.finished
    for players in (PLAYED_BY[game].start - 1, PLAYED_BY[game].stop):
        with pytest.raises(BadHeader, match=f"played by .*not {players}"):
            Game(GAMES[game].new_header(NAMES[:players], random.Random(1)))


@pytest.mark.parametrize("game", ["camelup-2014", "camelup-2018"])
def test_a_board_game_s_start_is_rolled_as_the_rule_book_says(game):
    for seed in range(50):
        header = GAMES[game].new_header(["Ann", "Bob", "Cy"], random.Random(seed))
        for space, camels in header["start"].items():
            crazy = {"white", "black"} & set(camels) if game == "camelup-2018" else set()
            assert int(space) in ({14, 15, 16} if crazy else {1, 2, 3}), header


def test_camel_up_cards_starts_where_five_racing_cards_moved_the_camels():
    starts = Counter()
    for seed in range(300):
        start = GAMES["camelup-cards"].new_header(NAMES[:4], random.Random(seed))["start"]
        assert sorted(c for camels in start.values() for c in camels) == sorted(CAMELS)
        assert start.get("0", []) == sorted(start.get("0", []))   # side by side on the Start
        assert 1 <= max(map(int, start)) <= SET_UP_CARDS * max(CARDS_PER_COLOUR)
        starts[len(start.get("0", []))] += 1
    # five cards of five colours drawn from thirty: now and then one camel is moved twice
    # (another stays on the Start card), now and then each camel once
    assert starts[0] > 0 and starts[1] > 0


def test_only_the_board_games_have_their_start_placed_on_the_new_game_page():
    placed = {game: GAMES[game].start_pieces() for game in GAMES}
    assert {game for game, pieces in placed.items() if pieces} == {"camelup-2014",
                                                                  "camelup-2018"}
    assert placed["camelup-2018"] == {"camels": ["blue", "green", "yellow", "red", "purple"],
                                      "crazy_camels": ["black", "white"], "spaces": 16,
                                      "players": [3, 8]}
    assert placed["camelup-2014"]["crazy_camels"] == []
