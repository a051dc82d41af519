"""A game: its header and its stack of actions, with the state before and after each.

As python-chess keeps a board's move stack beside a snapshot per move, a `Game` keeps every
state it has passed through, so `undo` restores a snapshot and never computes an inverse,
and a correction is "go back to before action k, replay the rest". Every change either
succeeds whole or raises and leaves the game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.errors import IllegalAction, NoPlaceToInsert, NothingToUndo
from companion.rules import GameAction, GameRules, GameState, rules_for


class Game:
    """One game of any kind the companion scores; its state is derived from its actions."""

    def __init__(self, header: Mapping[str, Any]) -> None:
        self.header: dict[str, Any] = dict(header)
        self.rules: GameRules = rules_for(self.header.get("game"))
        self.actions: list[GameAction] = []
        self._states: list[GameState] = [self.rules.initial_state(self.header)]

    def copy(self) -> Game:
        """A game with the same header and actions; states are shared, being immutable."""
        twin = Game.__new__(Game)
        twin.header, twin.rules = dict(self.header), self.rules
        twin.actions, twin._states = list(self.actions), list(self._states)
        return twin

    def __len__(self) -> int:
        return len(self.actions)

    @property
    def state(self) -> GameState:
        """The table as it stands after the last action."""
        return self._states[-1]

    def state_after(self, count: int) -> GameState:
        """The table after the first `count` actions (0: as the header set it)."""
        if not 0 <= count <= len(self.actions):
            raise NothingToUndo(f"the game has {len(self.actions)} actions, so there is no "
                                f"state after {count}")
        return self._states[count]

    def parse_action(self, line: Mapping[str, Any]) -> GameAction:
        """An action from its game-log form, checked for form but not yet for legality."""
        return self.rules.parse_action(line)

    def legal_actions(self) -> list[GameAction]:
        """What the player to act may do now; the roll is listed once, its die unknown."""
        return self.rules.legal_actions(self.state)

    def push(self, action: GameAction) -> None:
        """Play `action` now, or raise `IllegalAction` and change nothing."""
        self._states.append(self.rules.apply(self.state, action))
        self.actions.append(action)

    def undo(self) -> GameAction:
        """Take back the last action and return it."""
        if not self.actions:
            raise NothingToUndo("there is nothing to undo: no action has been played")
        self._states.pop()
        return self.actions.pop()

    def replace(self, index: int, action: GameAction) -> None:
        """Put `action` in place of action `index` (0-based) and replay every action after it."""
        self._check_index(index)
        self._rewrite(index, [action], index + 1)

    def insert(self, index: int, action: GameAction) -> None:
        """Put a forgotten action before action `index` (0-based; the length: at the end)."""
        if not 0 <= index <= len(self.actions):
            raise NoPlaceToInsert(f"cannot insert before action {index + 1}: the game has "
                                  f"{len(self.actions)}")
        self._rewrite(index, [action], index)

    def delete(self, index: int) -> None:
        """Strike action `index` (0-based), as if it had never been played, and replay the rest."""
        self._check_index(index)
        self._rewrite(index, [], index + 1)

    def _check_index(self, index: int) -> None:
        if not 0 <= index < len(self.actions):
            raise NothingToUndo(f"there is no action {index + 1}: the game has "
                                f"{len(self.actions)}")

    def _rewrite(self, index: int, correction: list[GameAction], keep_from: int) -> None:
        """Put `correction` where actions `index` to `keep_from` stood and replay the rest.

        All or nothing. An illegal correction raises its own error; a later action that it
        makes illegal is named by the number it has now, as the table sees the game.
        """
        states = self._states[: index + 1]
        for action in correction:
            states.append(self.rules.apply(states[-1], action))
        for number, action in enumerate(self.actions[keep_from:], start=keep_from + 1):
            try:
                states.append(self.rules.apply(states[-1], action))
            except IllegalAction as e:
                raise IllegalAction(f"that would make action {number} illegal: {e}") from None
        self._states = states
        self.actions = self.actions[:index] + correction + self.actions[keep_from:]

    def lines(self) -> Iterable[dict[str, Any]]:
        """The game in its game-log form: the header, then one object per action."""
        yield self.header
        for action in self.actions:
            yield action.to_json()
