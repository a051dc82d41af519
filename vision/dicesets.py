"""The dice each game brings to the table: their colours, faces and pip colours.

This is vision's own data, keyed by the game names the rest of the project uses; vision knows
nothing else about the games. Body colours are nominal sRGB values under neutral light (stored
BGR, as OpenCV orders them); a table's own colours come from colour calibration.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from companion.errors import CompanionError

T = TypeVar("T")

BLACK = "black"
WHITE = "white"


class UnknownSet(CompanionError, ValueError):
    """A game vision knows no dice, colour dice or camels of: one line naming the games it
    knows them for."""


@dataclass(frozen=True)
class DieSpec:
    """One die: its colour name, nominal body colour and its six faces.

    `faces` lists (value, pip colour) in opposite pairs: faces[0] is opposite faces[1],
    faces[2] opposite faces[3], faces[4] opposite faces[5].
    """

    colour: str
    body_bgr: tuple[int, int, int]
    faces: tuple[tuple[int, str], ...]

    @property
    def values(self) -> frozenset[int]:
        return frozenset(value for value, _ in self.faces)

    @property
    def has_numerals(self) -> bool:
        """True for a die whose pip colour means something (the 2018 grey die)."""
        return len({pips for _, pips in self.faces}) > 1


@dataclass(frozen=True)
class DiceSet:
    """The dice of one game, in the order the rule book lists them."""

    game: str
    dice: tuple[DieSpec, ...]

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(d.colour for d in self.dice)

    @property
    def values(self) -> frozenset[int]:
        """Every value a die of this set can show; a reading outside it is suspect."""
        return frozenset().union(*(d.values for d in self.dice))

    def die(self, colour: str) -> DieSpec:
        for d in self.dice:
            if d.colour == colour:
                return d
        raise KeyError(colour)


def _racing(colour: str, body_bgr: tuple[int, int, int], pips: str) -> DieSpec:
    """A racing die: 1, 2 and 3 twice, each opposite its twin."""
    return DieSpec(colour, body_bgr, ((1, pips), (1, pips), (2, pips), (2, pips), (3, pips),
                                      (3, pips)))


STANDARD_D6 = DieSpec("white", (235, 235, 232), ((1, BLACK), (6, BLACK), (2, BLACK), (5, BLACK),
                                                 (3, BLACK), (4, BLACK)))

CAMELUP_2014 = DiceSet("camelup-2014", (
    _racing("blue", (190, 105, 30), WHITE),
    _racing("green", (70, 150, 50), WHITE),
    _racing("orange", (30, 125, 240), BLACK),
    _racing("yellow", (45, 215, 245), BLACK),
    _racing("white", (235, 235, 232), BLACK),
))

CAMELUP_2018 = DiceSet("camelup-2018", (
    _racing("blue", (190, 105, 30), WHITE),
    _racing("green", (70, 150, 50), WHITE),
    _racing("yellow", (45, 215, 245), BLACK),
    _racing("red", (45, 40, 200), WHITE),
    _racing("purple", (140, 50, 115), WHITE),
    DieSpec("grey", (140, 140, 138), ((1, WHITE), (1, BLACK), (2, WHITE), (2, BLACK), (3, WHITE),
                                      (3, BLACK))),
))

DICE_SETS = {s.game: s for s in (CAMELUP_2014, CAMELUP_2018)}
DEFAULT_GAME = "camelup-2014"


@dataclass(frozen=True)
class ColourFace:
    """One face of a die without pips, by its name: filled with its colour, or (`star`) the
    die's bare body with a star of its colour in the middle."""

    name: str
    bgr: tuple[int, int, int]
    star: bool = False


@dataclass(frozen=True)
class ColourDiceSet:
    """A game's dice whose faces are colours and stars: `count` dice alike, of a light body,
    their `faces` in opposite pairs as DieSpec's are."""

    game: str
    count: int
    body_bgr: tuple[int, int, int]
    faces: tuple[ColourFace, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.faces)

    def face(self, name: str) -> ColourFace:
        for f in self.faces:
            if f.name == name:
                return f
        raise KeyError(name)


#: The Last Camel's two dice (rule book 004): red, yellow, green and blue faces, a gold star
#: and a black star. The text does not describe the dice further; these are drawn and read as
#: light wooden dice with four faces painted and two bare faces carrying a star.
LAST_CAMEL = ColourDiceSet("last-camel", 2, (200, 225, 236), (
    ColourFace("red", (45, 40, 200)), ColourFace("green", (70, 150, 50)),
    ColourFace("yellow", (45, 215, 245)), ColourFace("blue", (190, 105, 30)),
    ColourFace("gold", (30, 160, 215), star=True), ColourFace("black", (35, 35, 35), star=True),
))

COLOUR_DICE_SETS = {LAST_CAMEL.game: LAST_CAMEL}
#: every game vision reads dice for
GAMES = (*DICE_SETS, *COLOUR_DICE_SETS)


def dice_set(game: str) -> DiceSet:
    """The dice of `game`, or a one-line error naming the games known."""
    return known(DICE_SETS, game, "dice")


def colour_dice_set(game: str) -> ColourDiceSet:
    """The colour dice of `game`, or a one-line error naming the games known."""
    return known(COLOUR_DICE_SETS, game, "colour dice")


def known(sets: Mapping[str, T], game: str, what: str) -> T:
    """`game`'s entry in `sets` (its dice, its camels), or a one-line error naming `what` and
    the games known."""
    try:
        return sets[game]
    except KeyError:
        raise UnknownSet(f"no {what} known for game {game!r}; known: {', '.join(sets)}") \
            from None
