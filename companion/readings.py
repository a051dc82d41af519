"""Readings are not actions: when what the camera saw becomes an action, waits, or is refused.

The camera reports what it saw ("a blue die showing 2, 97% sure"; in Camel Up Cards "a green
racing card, +2"; in The Last Camel "a die showing red"); only the table decides what that
means for the game. A reading that is settled, confident and legal now becomes the action of
the player to act (a roll, a reveal). A doubtful one (unread, low confidence, a face a Camel Up
die does not have) waits for a person's OK or NO. One that cannot be legal (a die already out
this leg, a card that cannot be in the deck) is refused with a warning and never applied.
The Last Camel's two dice make one roll: a face read alone waits for the other die's, and the
pair is judged together. Every reading is kept, whatever its fate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from companion.errors import IllegalAction
from companion.game import Game
from companion.rules.fields import as_choice, as_int

if TYPE_CHECKING:
    from companion.rules import camelup, cards

CONFIDENT = 0.8
"""At or below this confidence a reading waits for a person, however plausible it looks (so
1 leaves every reading to a person: a reader may well be wholly sure). On the rendered
validation tables of the dice reader (1,000,000 to 1,000,101, `bench/vision.py`), 99.7 % of
Camel Up dice are read right above it and applied unasked, and 1 die of 2,002 is read wrong
above it; on tuning tables 500,400 to 500,799, 99.8 % and 1 of 7,752."""

OUTCOMES = ("accepted", "pending", "refused", "waiting")
"""`waiting`: a Last Camel die's face read alone, waiting for the other die's."""


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
        _object(line)
        die = _name(line, "die")
        value = line.get("value")
        if value is not None:
            as_int(value, "value", IllegalAction, low=1, high=6)
        confidence = _confidence(line)
        numeral = line.get("numeral")
        if numeral is not None:
            as_choice(numeral, "numeral", ("white", "black"), IllegalAction)
        return cls(die, value, confidence, numeral)

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"die": self.die, "value": self.value,
                                "confidence": self.confidence}
        if self.numeral is not None:
            line["numeral"] = self.numeral
        return line


@dataclass(frozen=True)
class CardReading:
    """One racing card laid face up in the reveal zone (Camel Up Cards), as the camera read it."""

    camel: str | None
    value: int | None
    confidence: float

    @classmethod
    def from_json(cls, line: Mapping[str, Any]) -> CardReading:
        """A card reading from its JSON form; a malformed one is refused in one line."""
        _object(line)
        value = line.get("value")
        if value is not None:
            as_int(value, "value", IllegalAction, low=1, high=6)
        return cls(_name(line, "camel"), value, _confidence(line))

    def to_json(self) -> dict[str, Any]:
        return {"camel": self.camel, "value": self.value, "confidence": self.confidence}


@dataclass(frozen=True)
class FaceReading:
    """One of The Last Camel's two dice come to rest: the face on top, as the camera read it."""

    face: str | None
    confidence: float

    @classmethod
    def from_json(cls, line: Mapping[str, Any]) -> FaceReading:
        """A face reading from its JSON form; a malformed one is refused in one line."""
        _object(line)
        return cls(_name(line, "face"), _confidence(line))

    def to_json(self) -> dict[str, Any]:
        return {"face": self.face, "confidence": self.confidence}


AnyReading = Reading | CardReading | FaceReading

_READINGS: dict[str, type[Reading] | type[CardReading] | type[FaceReading]] = {
    "die": Reading, "card": CardReading, "face": FaceReading}
"""Each kind of reading, by what a game's rules say the camera reports in it (`reads`)."""


def reading_for(game: Game, line: Mapping[str, Any]) -> AnyReading:
    """The camera's JSON read as what it sees in `game`: a die, a racing card or a face."""
    return _READINGS[game.rules.reads].from_json(line)


def _object(line: Any) -> None:
    if not isinstance(line, Mapping):
        raise IllegalAction(f"a reading is a JSON object, not {line!r}")


def _name(line: Mapping[str, Any], key: str) -> str | None:
    name = line.get(key)
    if name is not None and (not isinstance(name, str) or not name.isprintable()):
        raise IllegalAction(f'"{key}" must be a colour or null, not {name!r}')
    return name


def _confidence(line: Mapping[str, Any]) -> float:
    confidence = line.get("confidence")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) \
            or not 0 <= confidence <= 1:
        raise IllegalAction(f'"confidence" must be a number from 0 to 1, not {confidence!r}')
    return float(confidence)


@dataclass(frozen=True)
class Verdict:
    """What a reading means now: `accepted` with the roll it makes, `pending` or `refused`."""

    outcome: str
    reason: str
    roll: dict[str, Any] | None = None
    """The action the reading makes (a roll, or a racing card's reveal), once accepted."""


def judge(game: Game, reading: AnyReading, *, confident: float = CONFIDENT,
          partner: FaceReading | None = None) -> Verdict:
    """Decide a reading against the game as it stands; nothing is changed.

    `partner` is the other Last Camel die's face, read alone before this one, if any.
    """
    if isinstance(reading, CardReading):
        return _judge_card(game, reading, confident)
    if isinstance(reading, FaceReading):
        return _judge_face(game, reading, partner, confident)
    state = cast("camelup.State", game.state)
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
    if reading.confidence <= confident:
        return Verdict("pending", f"read with {reading.confidence:.0%} confidence: check it")
    return confirm(game, reading)


def confirm(game: Game, reading: Reading | CardReading) -> Verdict:
    """The roll (a racing card: the reveal) a reading makes once a person vouches for it, or
    `IllegalAction` if none."""
    if isinstance(reading, CardReading):
        return _confirm_card(game, reading)
    if game.state.finished:
        raise IllegalAction("the race is over: no die can be rolled")
    line: dict[str, Any] = {"player": game.state.player_to_act, "action": "roll",
                            "die": reading.die, "value": reading.value}
    if reading.numeral is not None and reading.die == "grey":
        line["numeral"] = reading.numeral
    game.rules.apply(game.state, game.parse_action(line))
    return Verdict("accepted", f"{reading.die} {reading.value} rolled by {line['player']}", line)


def _judge_card(game: Game, reading: CardReading, confident: float) -> Verdict:
    state = cast("cards.State", game.state)
    if state.finished:
        return Verdict("refused", "the race is over: no racing card is revealed")
    if state.due:
        return Verdict("refused", "the leg is over: no racing card is left to reveal until "
                                  "the next leg is set up")
    if reading.camel is None or reading.value is None:
        return Verdict("pending", "the racing card could not be read: check it")
    pieces = game.rules.pieces(state, game.header)
    if reading.camel not in pieces["camels"]:
        return Verdict("refused", f"Camel Up Cards has no {reading.camel} camel")
    if reading.value not in pieces["values"]:
        return Verdict("pending", f"a racing card shows +1 or +2, not +{reading.value}: check it")
    try:
        verdict = confirm(game, reading)
    except IllegalAction as e:
        return Verdict("refused", str(e))
    if reading.confidence <= confident:
        return Verdict("pending", f"read with {reading.confidence:.0%} confidence: check it")
    return verdict


def _judge_face(game: Game, reading: FaceReading, partner: FaceReading | None,
                confident: float) -> Verdict:
    if game.state.finished:
        return Verdict("refused", "the race is over: no die is rolled")
    if reading.face is not None and reading.face not in _faces(game):
        return Verdict("refused", f"The Last Camel's dice have no {reading.face} face")
    if partner is None:
        return Verdict("waiting", "waiting for the other die")
    first, second = partner.face, reading.face
    if first is None or second is None:
        return Verdict("pending", "a die could not be read: tap its face")
    faces = (first, second)
    least = min(partner.confidence, reading.confidence)
    if least <= confident:
        return Verdict("pending", f"read with {least:.0%} confidence: check the dice")
    ways = _roll_ways(game, faces)
    if len(ways) > 1:
        return Verdict("pending", f"{' and '.join(faces)} can be used {len(ways)} ways: "
                                  "choose the camels")
    return confirm_roll(game, list(faces))


def confirm_roll(game: Game, dice: Any, moves: Any = None) -> Verdict:
    """The Last Camel roll two faces make once a person vouches for them, with the camels
    they chose (`moves`; None: the one legal way, if there is only one), or `IllegalAction`."""
    state = game.state
    if state.finished:
        raise IllegalAction("the race is over: no die is rolled")
    faces = _faces(game)
    if not (isinstance(dice, list | tuple) and len(dice) == 2
            and all(face in faces for face in dice)):
        raise IllegalAction(f'"dice" must be the two faces rolled, each one of '
                            f'{", ".join(faces)}, not {dice!r}: tap each die\'s face')
    if moves is None:
        ways = _roll_ways(game, (dice[0], dice[1]))
        if len(ways) > 1:
            raise IllegalAction(f"{' and '.join(dice)} can be used {len(ways)} ways: choose "
                                "the camels on a phone")
        moves = ways[0]
    line = {"player": state.player_to_act, "action": "roll", "dice": list(dice),
            "moves": moves}
    game.rules.apply(state, game.parse_action(line))
    return Verdict("accepted", f"{' and '.join(dice)} rolled by {line['player']}", line)


def _faces(game: Game) -> list[str]:
    """The faces the game's dice show."""
    faces: list[str] = game.rules.pieces(game.state, game.header)["faces"]
    return faces


def _roll_ways(game: Game, faces: tuple[str, str]) -> list[list[dict[str, Any]]]:
    """Every legal way (a list of moves) to use two faces the dice show, as the game's rules
    offer them for the pair (`choices`' `rolls`, keyed in the order of the faces)."""
    order = _faces(game)
    first, second = sorted(faces, key=order.index)
    ways: list[list[dict[str, Any]]] = game.rules.choices(game.state)["rolls"][f"{first} {second}"]
    return ways


def _confirm_card(game: Game, reading: CardReading) -> Verdict:
    state = game.state
    if state.finished:
        raise IllegalAction("the race is over: no racing card is revealed")
    line = {"player": state.player_to_act, "action": "reveal", "camel": reading.camel,
            "value": reading.value}
    game.rules.apply(state, game.parse_action(line))
    return Verdict("accepted", f"{reading.camel} +{reading.value} revealed by {line['player']}",
                   line)
