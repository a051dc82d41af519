"""Random legal play, for property tests, crash tests and benchmarks that need whole games."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.errors import IllegalAction
from companion.game import Game
from companion.rules.camelup import Roll
from companion.rules.cards import CAMELS, LegSetup, Reveal
from companion.store import Store

HEADERS = {
    "camelup-2014": {
        "game": "camelup-2014",
        "players": ["Ann", "Bob", "Cy"],
        "start": {"1": ["blue", "green"], "2": ["yellow"], "3": ["orange", "white"]},
    },
    "camelup-2018": {
        "game": "camelup-2018",
        "players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
        "start": {"1": ["green", "yellow"], "2": ["blue"], "3": ["red", "purple"],
                  "14": ["white"], "16": ["black"]},
    },
}


def random_action(game: Game, rng: random.Random) -> Any:
    """One legal action for the player to act; half of all turns are rolls, as at a real table.

    A roll's die and value are drawn as the pyramid would draw them.
    """
    legal = game.legal_actions()
    rolls = [a for a in legal if isinstance(a, Roll)]
    action = rolls[0] if rolls and rng.random() < 0.5 else rng.choice(legal)
    if isinstance(action, Roll):
        die = rng.choice(game.state.dice_in_pyramid)
        numeral = rng.choice(("black", "white")) if die == "grey" else None
        action = replace(action, die=die, value=rng.randint(1, 3), numeral=numeral)
    return action


def random_game(header: dict[str, Any], seed: int, max_actions: int = 400, *,
                pick: Callable[[Game, random.Random], Any] = random_action) -> Game:
    """A game played by random legal actions until the race ends or `max_actions` are played.

    `pick` chooses each action: `random_action` for the board games, `random_cards_action`
    for Camel Up Cards.
    """
    rng = random.Random(seed)
    game = Game(header)
    while not game.state.finished and len(game) < max_actions:
        game.push(pick(game, rng))
    return game


SPREAD_2014 = {**HEADERS["camelup-2014"],
               "start": {"1": ["blue"], "2": ["green"], "3": ["orange"], "5": ["yellow"],
                         "7": ["white"]}}
"""Camels one to a space, so a test can tell every move apart."""


def stored_game(path: Path, header: dict[str, Any] = SPREAD_2014, lines: Any = ()) -> Path:
    """A store file at `path` holding one game with `lines` played: what a table opens."""
    with Store(path) as store:
        stored = store.new_game(header)
        for line in lines:
            stored.push(stored.game.parse_action(line))
    return path


def random_cards_action(game: Game, rng: random.Random) -> Any:
    """One legal line of a Camel Up Cards game: a due leg_setup with intel cards drawn at
    random, else half of all turns reveal a card drawn from those the 30 still allow."""
    cards = [(camel, value) for camel in CAMELS for value in (1, 1, 1, 1, 1, 2)]
    legal = game.legal_actions()
    if isinstance(legal[0], LegSetup):
        while True:
            shown = tuple((name, *rng.choice(cards)) for name in game.state.names)
            action = replace(legal[0], intel=shown if game.state.settings.intel else ())
            if _accepted(game, action):
                return action
    reveals = [a for a in legal if isinstance(a, Reveal)]
    action = reveals[0] if rng.random() < 0.5 else rng.choice(legal)
    if isinstance(action, Reveal):
        options = [replace(action, camel=c, value=v) for c, v in sorted(set(cards))]
        action = rng.choice([a for a in options if _accepted(game, a)])
    return action


def _accepted(game: Game, action: Any) -> bool:
    try:
        game.rules.apply(game.state, action)
    except IllegalAction:
        return False
    return True
