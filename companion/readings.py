"""Readings are not actions: when a die the camera saw becomes a roll, waits, or is refused.

The camera reports what it saw ("a blue die showing 2, 97% sure"); only the table decides
what that means for the game. A reading that is settled, confident and legal now becomes the
roll of the player to act. A doubtful one (unread, low confidence, a face a Camel Up die does
not have) waits for a person's OK or NO. One that cannot be legal (a die already out this
leg) is refused with a warning and never applied. Every reading is kept, whatever its fate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalAction
from companion.game import Game
from companion.rules.fields import as_choice, as_int

CONFIDENT = 0.9
"""Below this confidence a reading waits for a person, however plausible it looks."""

OUTCOMES = ("accepted", "pending", "refused")


@dataclass(frozen=True)
class Reading:
    """One die come to rest in the roll zone, as the camera read it."""

    die: str | None
    value: int | None
    confidence: float
    numeral: str | None = None

    @classmethod
    def from_json(cls, line: Mapping[str, Any]) -> Reading:
        """A reading from its JSON form; a malformed one is refused in one line."""
        if not isinstance(line, Mapping):
            raise IllegalAction(f"a reading is a JSON object, not {line!r}")
        die = line.get("die")
        if die is not None and (not isinstance(die, str) or not die.isprintable()):
            raise IllegalAction(f'"die" must be a colour or null, not {die!r}')
        value = line.get("value")
        if value is not None:
            as_int(value, "value", IllegalAction, low=1, high=6)
        confidence = line.get("confidence")
        if isinstance(confidence, bool) or not isinstance(confidence, int | float) \
                or not 0 <= confidence <= 1:
            raise IllegalAction(f'"confidence" must be a number from 0 to 1, not {confidence!r}')
        numeral = line.get("numeral")
        if numeral is not None:
            as_choice(numeral, "numeral", ("white", "black"), IllegalAction)
        return cls(die, value, float(confidence), numeral)

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"die": self.die, "value": self.value,
                                "confidence": self.confidence}
        if self.numeral is not None:
            line["numeral"] = self.numeral
        return line


@dataclass(frozen=True)
class Verdict:
    """What a reading means now: `accepted` with the roll it makes, `pending` or `refused`."""

    outcome: str
    reason: str
    roll: dict[str, Any] | None = None


def judge(game: Game, reading: Reading, *, confident: float = CONFIDENT) -> Verdict:
    """Decide a reading against the game as it stands; nothing is changed."""
    state = game.state
    if state.finished:
        return Verdict("refused", "the race is over: no die can be rolled")
    if reading.die is None or reading.value is None:
        return Verdict("pending", "the die could not be read: check it")
    if reading.die not in state.edition.dice:
        return Verdict("refused", f"{state.edition.game} has no {reading.die} die")
    if reading.die in state.dice_out:
        return Verdict("refused", f"the {reading.die} die is already out of the pyramid this "
                                  "leg: it was read again or not put on its tent")
    if not 1 <= reading.value <= 3:
        return Verdict("pending", f"a Camel Up die shows 1 to 3, not {reading.value}: check it")
    if state.edition.crazy_camels and reading.die == "grey" and reading.numeral is None:
        return Verdict("pending", "the grey die's numeral colour could not be read: check it")
    if reading.confidence < confident:
        return Verdict("pending", f"read with {reading.confidence:.0%} confidence: check it")
    return confirm(game, reading)


def confirm(game: Game, reading: Reading) -> Verdict:
    """The roll a reading makes once a person vouches for it, or `IllegalAction` if none."""
    if game.state.finished:
        raise IllegalAction("the race is over: no die can be rolled")
    line: dict[str, Any] = {"player": game.state.player_to_act, "action": "roll",
                            "die": reading.die, "value": reading.value}
    if reading.numeral is not None and reading.die == "grey":
        line["numeral"] = reading.numeral
    game.rules.apply(game.state, game.parse_action(line))
    return Verdict("accepted", f"{reading.die} {reading.value} rolled by {line['player']}", line)
