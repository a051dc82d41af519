"""The rules of every game the companion scores, one module each, found by the game's name.

Every game offers the same small interface (`GameRules`), so the game log, the store, the CLI
and the dashboard serve any of them without knowing which. The rules import nothing outside
the standard library and know nothing of cameras, buttons, threads or files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from companion.errors import BadHeader
from companion.rules import camelup2014, camelup2018, cards, last_camel


class GameRules(Protocol):
    """What a game's rules offer: read its log, apply an action, list what is legal."""

    game: str

    def initial_state(self, header: Mapping[str, Any]) -> Any: ...
    def parse_action(self, line: Mapping[str, Any]) -> Any: ...
    def apply(self, state: Any, action: Any) -> Any: ...
    def legal_actions(self, state: Any) -> list[Any]: ...
    def state_json(self, state: Any) -> dict[str, Any]: ...
    def state_from_json(self, view: Mapping[str, Any]) -> Any: ...
    def leg_scoring_now(self, state: Any) -> list[dict[str, Any]]: ...


GAMES: dict[str, GameRules] = {
    camelup2014.RULES.game: camelup2014.RULES,
    camelup2018.RULES.game: camelup2018.RULES,
    cards.RULES.game: cards.RULES,
    last_camel.RULES.game: last_camel.RULES,
}


def rules_for(game: Any) -> GameRules:
    """The rules of the game a header names, or `BadHeader` listing the games known."""
    if not isinstance(game, str) or game not in GAMES:
        raise BadHeader(f'unknown game {game!r}: "game" must be one of {", ".join(GAMES)}')
    return GAMES[game]
