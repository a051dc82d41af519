"""What every game says of its players: the action one takes, the money paid to one, and who
sits where and acts next."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, ClassVar


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


class Seats:
    """For a state holding `players` (each with a `name`) in seating order and `turn`, the
    seat of the player to act (None once the game is over)."""

    players: tuple[Any, ...]
    turn: int | None

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
