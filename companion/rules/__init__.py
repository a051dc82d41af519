"""The rules of every game the companion scores, one module each, found by the game's name.

Every game offers the same small interface (`GameRules`), so the game log, the store, the CLI
and the dashboard serve any of them without knowing which. The rules import nothing outside
the standard library and know nothing of cameras, buttons, threads or files.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from companion.errors import BadHeader


class GameState(Protocol):
    """What every game's state tells whoever serves it without knowing the game; the rest of
    it is for the game's own rules (and its odds) to read."""

    @property
    def player_to_act(self) -> str | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def track(self) -> object:
        """Where the camels stand, in the game's own form: equal only to the same places."""


class GameAction(Protocol):
    """What every game's action offers: its kind and its game-log line."""

    @property
    def action(self) -> str: ...
    def to_json(self) -> dict[str, Any]: ...


class GameRules(Protocol):
    """What a game's rules offer: read its log, apply an action, list what is legal, and what
    a page needs to offer its actions.

    A game's rules are given back only the states and actions they made themselves: the
    game log, the store and the table never mix two games' states."""

    @property
    def game(self) -> str: ...
    @property
    def reads(self) -> str: ...
    @property
    def odds(self) -> str | None: ...

    def initial_state(self, header: Mapping[str, Any]) -> GameState: ...
    def parse_action(self, line: Mapping[str, Any]) -> GameAction: ...
    def apply(self, state: GameState, action: GameAction) -> GameState: ...
    def legal_actions(self, state: GameState) -> list[GameAction]: ...
    def state_json(self, state: GameState) -> dict[str, Any]: ...
    def state_from_json(self, view: Mapping[str, Any]) -> GameState: ...
    def leg_scoring_now(self, state: GameState) -> list[dict[str, Any]]: ...
    def pieces(self, state: GameState, header: Mapping[str, Any]) -> dict[str, Any]: ...
    def choices(self, state: GameState) -> dict[str, Any]: ...
    def new_header(self, players: Sequence[str], rng: random.Random) -> dict[str, Any]: ...
    def start_pieces(self) -> dict[str, Any] | None: ...


StateT = TypeVar("StateT", bound=GameState)
ActionT = TypeVar("ActionT", bound=GameAction)


def _no_choices(state: object) -> dict[str, Any]:
    return {}


def _not_placed_by_hand() -> dict[str, Any] | None:
    return None


@dataclass(frozen=True, eq=False)
class Rules(Generic[StateT, ActionT]):
    """A game's rules module behind `GameRules`: each method is one of the module's functions
    (for Camel Up, with its edition given), typed with the module's own state and actions."""

    game: str
    initial_state: Callable[[Mapping[str, Any]], StateT]
    parse_action: Callable[[Mapping[str, Any]], ActionT]
    apply: Callable[[StateT, ActionT], StateT]
    legal_actions: Callable[[StateT], list[ActionT]]
    state_json: Callable[[StateT], dict[str, Any]]
    state_from_json: Callable[[Mapping[str, Any]], StateT]
    leg_scoring_now: Callable[[StateT], list[dict[str, Any]]]
    pieces: Callable[[StateT, Mapping[str, Any]], dict[str, Any]]
    """The game's pieces and words (its camels, dice, cards...), so a page can offer every
    action without knowing the rules; from the state and the header the game began with."""
    new_header: Callable[[Sequence[str], random.Random], dict[str, Any]]
    """A new game's first line for players in seating order, set up as the rule book says,
    what it leaves to chance drawn from the generator: the start a table rolls, the one a
    fresh Pi's first game and the demo begin from."""
    choices: Callable[[StateT], dict[str, Any]] = _no_choices
    """What a page needs beside the legal actions to offer the game's choices (none in most)."""
    reads: str = "die"
    """What the camera reports in the game: "die" (a die and the value it shows), "card" (a
    racing card), "face" (one face of a pair of dice thrown together)."""
    odds: str | None = None
    """The module whose `odds_json` gives the game's odds, imported only when they are asked
    for (it may need NumPy, which the rules never import); None for a game without odds."""
    start_pieces: Callable[[], dict[str, Any] | None] = _not_placed_by_hand
    """What the New game page needs to take the start camel by camel as the players placed
    it on the board (the camels, crazy ones apart, the spaces, how many may play); None for a
    game whose start it does not take so."""


MODULES = {"camelup-2014": "camelup2014", "camelup-2018": "camelup2018",
           "camelup-cards": "cards", "last-camel": "last_camel"}
"""Each game's rules module under `companion.rules`, by the game's name."""


class _Games(Mapping[str, GameRules]):
    """Every game's rules by its name, each module imported the first time it is asked for, so
    that a command on one game does not wait for the others' rules to load."""

    def __getitem__(self, game: str) -> GameRules:
        """`RULES`, a module's `Rules` of its own state and actions, seen as `GameRules`."""
        rules: GameRules = importlib.import_module(f"companion.rules.{MODULES[game]}").RULES
        return rules

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)


GAMES: Mapping[str, GameRules] = _Games()


def rules_for(game: Any) -> GameRules:
    """The rules of the game a header names, or `BadHeader` listing the games known."""
    if not isinstance(game, str) or game not in GAMES:
        raise BadHeader(f'unknown game {game!r}: "game" must be one of {", ".join(GAMES)}')
    return GAMES[game]
