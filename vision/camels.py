"""The camels each game races on its board: their colours, and which run against the race.

Vision's own data, keyed by the game names the rest of the project uses, as vision.dicesets is
for dice. A racing camel has its die's colour (nominal sRGB under neutral light, stored BGR);
the second edition adds two crazy camels, black and white, that face the other way. A
table's own colours come from the set-up frame (vision.board.learn_camels).
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.dicesets import DICE_SETS, known


@dataclass(frozen=True)
class CamelSet:
    """One game's camels: (colour, nominal BGR) each, racing camels first in the rule
    book's order, then the crazy camels, whose colours `crazy` names."""

    game: str
    camels: tuple[tuple[str, tuple[int, int, int]], ...]
    crazy: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.camels)

    def bgr(self, name: str) -> tuple[int, int, int]:
        return dict(self.camels)[name]


def _racing(game: str) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    """A game's racing camels: one for each die with pips that moves one camel (the grey
    die moves the crazy camels)."""
    return tuple((d.colour, d.body_bgr) for d in DICE_SETS[game].dice if d.colour != "grey")


CAMEL_SETS = {
    "camelup-2014": CamelSet("camelup-2014", _racing("camelup-2014")),
    "camelup-2018": CamelSet("camelup-2018", (*_racing("camelup-2018"),
                                              ("black", (40, 40, 40)),
                                              ("white", (235, 235, 232))),
                             crazy=("black", "white")),
}


def camel_set(game: str) -> CamelSet:
    """The camels of `game`, or a one-line error naming the games whose boards are read."""
    return known(CAMEL_SETS, game, "camels")
