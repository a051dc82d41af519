"""What every game says of its players: the action one takes, the money paid to one, and who
sits where and acts next."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import Field, dataclass, fields, replace
from typing import Any, ClassVar, TypeVar

from companion.errors import IllegalAction
from companion.rules import GameAction


@dataclass(frozen=True)
class Action:
    """A player's action; `to_json` gives its game-log line, without the fields not yet known.

    A field whose log key differs from its name says so in its metadata (`key`).
    """

    player: str
    action: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"player": self.player, "action": self.action}
        for f in fields(self)[1:]:
            value = getattr(self, f.name)
            if value is not None:
                line[f.metadata.get("key", f.name)] = value
        return line


@dataclass(frozen=True)
class Payout:
    """One line of money changing hands: who, how much (negative: paid), and why."""

    player: str
    amount: int
    reason: str


def payouts_json(payouts: Iterable[Payout]) -> list[dict[str, Any]]:
    return [{"player": p.player, "amount": p.amount, "reason": p.reason} for p in payouts]


def check_form(action: Any, game: str, parse: Callable[[Mapping[str, Any]], Any],
               kinds: tuple[type[GameAction], ...] = (Action,)) -> None:
    """An action built in code passes the same checks as one read from the log: it is one of
    the game's `kinds` of action, and its own log line reads back as it."""
    if not isinstance(action, kinds):
        raise IllegalAction(f"{action!r} is not a {game} action as the log writes it")
    if parse(action.to_json()) != action:
        raise IllegalAction(f"{action.to_json()} is not a {game} action as the log writes it")


class Seats:
    """For a state holding `players` (each with a `name`) in seating order and `turn`, the
    seat of the player to act (None once the game is over)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    """Each game's state is a dataclass: `set_player` and `pay` `replace` parts of it."""
    players: tuple[Any, ...]
    turn: int | None
    payouts: tuple[Payout, ...]

    @property
    def player_to_act(self) -> str | None:
        return None if self.turn is None else self.players[self.turn].name

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def player(self, name: str) -> Any:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)


StateT = TypeVar("StateT", bound=Seats)
"""A game's state: a frozen dataclass with its `players` in their seats and its `payouts`."""


def set_player(state: StateT, player: Any) -> StateT:
    """The state with `player` in the seat of the player of that name."""
    return replace(state, players=tuple(player if p.name == player.name else p
                                        for p in state.players))


def pay(state: StateT, payout: Payout) -> StateT:
    """Pay one amount now, as tile coins are paid the moment a unit lands, and note it among
    the state's `payouts`."""
    p = state.player(payout.player)
    return replace(set_player(state, replace(p, money=p.money + payout.amount)),
                   payouts=(*state.payouts, payout))
