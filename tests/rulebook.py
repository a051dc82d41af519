"""What the rule tests share: for every game, actions played, a refusal checked for the rule it
names, the track and the money read back; for both Camel Up editions, a table set in a line.

Positions are written as the rule books draw them, `{space: "bottom ... top"}`, and read back
the same way, so a test shows the board before and after in two short lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from companion.errors import IllegalAction
from companion.game import Game


def header(game: str, start: Mapping[int, str], players: str = "Ann Bob Cy",
           **part_way: Any) -> dict[str, Any]:
    """A game-log header: camels as `{space: "bottom ... top"}`, players in seating order."""
    return {"game": game, "players": players.split(),
            "start": {str(space): camels.split() for space, camels in start.items()},
            **part_way}


def table(game: str, start: Mapping[int, str], players: str = "Ann Bob Cy",
          **part_way: Any) -> Game:
    """A game set up, or brought in part-way, from the header `header` writes."""
    return Game(header(game, start, players, **part_way))


def bets(*bets: str) -> list[dict[str, str]]:
    """Bets for a header's `leg_bets` or `race_bets` piles, each "Ann blue", in the order made."""
    return [dict(zip(("player", "camel"), bet.split(), strict=True)) for bet in bets]


def play(game: Game, *actions: Any) -> Game:
    """Push `actions` in order, each an action or a game-log line, and hand the game back."""
    for action in actions:
        game.push(game.parse_action(action) if isinstance(action, Mapping) else action)
    return game


def track(game: Game) -> dict[int, str]:
    """The camels on the track as `table` takes them: `{space: "bottom ... top"}` (in The Last
    Camel, `"first ... last to arrive"`)."""
    return {int(space): " ".join(stack)
            for space, stack in game.rules.state_json(game.state)["track"].items()}


def seats(count: int) -> str:
    """`count` players, P1 first, for the player-count rules."""
    return " ".join(f"P{n}" for n in range(1, count + 1))


def money(game: Game) -> dict[str, int]:
    return {p.name: p.money for p in game.state.players}


def refuse(game: Game, action: Any, match: str) -> None:
    """`action` (or a game-log line, read as the game reads one) is refused with `IllegalAction`
    for the rule `match` names: a few words of its message, as `pytest.raises` matches them.
    The game is left exactly as it was."""
    before, state, actions = game.rules.state_json(game.state), game.state, list(game.actions)
    with pytest.raises(IllegalAction, match=match):
        game.push(game.parse_action(action) if isinstance(action, Mapping) else action)
    assert game.rules.state_json(game.state) == before
    assert game.state is state and game.actions == actions
