"""Random legal games, run to the end, keep the invariants of a real table."""

from collections import Counter
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import BadHeader, IllegalAction
from companion.game import Game
from companion.rules.camelup import PILES, Roll, State
from tests.play import HEADERS

GAMES = pytest.mark.parametrize("name", sorted(HEADERS))
PLAY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def draw_action(data: st.DataObject, game: Game):
    legal = game.legal_actions()
    action = data.draw(st.sampled_from(legal)) if data.draw(st.booleans()) else legal[0]
    if not isinstance(action, Roll):
        roll = next(a for a in legal if isinstance(a, Roll))
        action = action if data.draw(st.booleans()) else roll
    if isinstance(action, Roll):
        die = data.draw(st.sampled_from(game.state.dice_in_pyramid))
        numeral = data.draw(st.sampled_from(("black", "white"))) if die == "grey" else None
        action = replace(action, die=die, value=data.draw(st.integers(1, 3)), numeral=numeral)
    return action


def played(name: str, data: st.DataObject, most: int) -> Game:
    """A game of `name` after a random number (up to `most`) of random legal actions."""
    game = Game(HEADERS[name])
    length = data.draw(st.integers(1, most))
    while not game.state.finished and len(game) < length:
        game.push(draw_action(data, game))
    return game


def assert_table_is_sound(state: State) -> None:
    edition = state.edition
    assert Counter(state.track.camels) == Counter(edition.camels)
    assert all(stack for _, stack in state.track.stacks)
    off_track = [space for space, _ in state.track.stacks if not edition.on_track(space)]
    assert len(off_track) == (1 if state.finished else 0)
    assert len(set(state.dice_out)) == len(state.dice_out)
    assert set(state.dice_out) <= set(edition.dice)
    assert len(state.dice_out) < edition.dice_per_leg or state.finished
    assert sum(p.pyramid_tickets for p in state.players) == len(state.dice_out) or state.finished
    for camel in edition.racing_camels:
        held = [t.value for p in state.players for t in p.leg_tickets if t.camel == camel]
        assert Counter(held) + Counter(state.leg_tickets_left(camel)) == Counter(
            edition.leg_ticket_values) or state.finished
    assert all(p.money >= 0 for p in state.players)
    tile_spaces = [space for space, _ in state.tiles]
    assert 1 not in tile_spaces
    assert all(b - a > 1 for a, b in pairwise(tile_spaces))
    assert all(state.track.is_empty_at(space) for space in tile_spaces)
    assert len({t.owner for _, t in state.tiles}) == len(state.tiles)
    for name in state.names:
        cards = [c.camel for pile in PILES for c in state.pile(pile) if c.player == name]
        assert len(set(cards)) == len(cards)
    partners = {p.name: p.partner for p in state.players if p.partner}
    assert all(partners[partner] == name for name, partner in partners.items())


@GAMES
@PLAY
@given(data=st.data())
def test_random_legal_games_keep_every_invariant_to_the_end(name, data):
    game = Game(HEADERS[name])
    while not game.state.finished and len(game) < 300:
        game.push(draw_action(data, game))
        assert_table_is_sound(game.state)
    if game.state.finished:
        assert game.state.turn is None and game.state.winners
        assert game.legal_actions() == []


@GAMES
@PLAY
@given(data=st.data())
def test_undo_after_any_push_restores_the_state_exactly(name, data):
    game = played(name, data, 120)
    if game.state.finished:
        return
    before, lines = game.state, list(game.lines())
    action = draw_action(data, game)
    game.push(action)
    assert game.undo() == action
    assert game.state == before
    assert list(game.lines()) == lines


@GAMES
@PLAY
@given(data=st.data())
def test_replacing_an_action_with_itself_changes_nothing(name, data):
    game = played(name, data, 80)
    index = data.draw(st.integers(0, len(game) - 1))
    states = [game.state_after(n) for n in range(len(game) + 1)]
    game.replace(index, game.actions[index])
    assert [game.state_after(n) for n in range(len(game) + 1)] == states


@GAMES
@PLAY
@given(data=st.data())
def test_a_state_reads_back_from_its_replay_json(name, data):
    game = played(name, data, 150)
    if game.state.finished:
        return
    view = game.rules.state_json(game.state)
    assert game.rules.state_from_json(view) == replace(game.state, payouts=())


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.floats(allow_nan=False)
    | st.sampled_from(["", "Ann", "blue", "grey", "white", "oasis", "booing", "winner", "2"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=8,
)
KEYS = ["game", "players", "start", "leg", "money", "dice_out", "tiles", "leg_bets",
        "pyramid_tickets", "race_bets", "partnerships", "turn", "player", "action", "camel",
        "die", "value", "numeral", "space", "side", "pile", "with"]


@GAMES
@settings(max_examples=300, deadline=None)
@given(changes=st.dictionaries(st.sampled_from(KEYS), JSON, max_size=4))
def test_any_header_is_read_or_refused_in_one_clear_line(name, changes):
    try:
        Game({**HEADERS[name], **changes})
    except BadHeader as e:
        assert "\n" not in str(e)


@GAMES
@settings(max_examples=300, deadline=None)
@given(line=st.dictionaries(st.sampled_from(KEYS), JSON, max_size=5),
       base=st.sampled_from([{}, {"player": "Ann", "action": "roll"},
                             {"player": "Ann", "action": "race_bet"}]))
def test_any_action_line_is_played_or_refused_in_one_clear_line(name, line, base):
    game = Game(HEADERS[name])
    try:
        game.push(game.parse_action({**base, **line}))
    except IllegalAction as e:
        assert "\n" not in str(e)
        assert len(game) == 0
