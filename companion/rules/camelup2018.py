"""Camel Up, second edition (2018): crazy camels, the grey die, spectator tiles, partnerships.

Rule book 003 with the rulings in shared/rules/README.md.
"""

from companion.rules.camelup import Edition, Roll, SpectatorTile, edition_rules
from companion.rules.track import Track

RACING_CAMELS = ("blue", "green", "yellow", "red", "purple")
CRAZY_CAMELS = ("black", "white")


def camel_for_roll(track: Track, roll: Roll) -> str:
    """A racing die moves its camel; the grey die picks a crazy camel by its numeral colour.

    Two exceptions come first, as the rule book orders them: if only one crazy camel carries
    racing camels, that one moves; if one crazy camel sits directly on the other, the one on
    top moves.
    """
    assert roll.die is not None
    if roll.die != "grey":
        return roll.die
    carrying = [c for c in CRAZY_CAMELS if any(r in RACING_CAMELS for r in track.above(c))]
    if len(carrying) == 1:
        return carrying[0]
    for crazy in CRAZY_CAMELS:
        above = track.above(crazy)
        if above and above[0] in CRAZY_CAMELS:
            return above[0]
    assert roll.numeral is not None
    return roll.numeral


EDITION = Edition(
    game="camelup-2018",
    racing_camels=RACING_CAMELS,
    crazy_camels=CRAZY_CAMELS,
    dice=(*RACING_CAMELS, "grey"),
    dice_per_leg=5,
    leg_ticket_values=(5, 3, 2, 2),
    tile=SpectatorTile,
    tile_sides=("cheering", "booing"),
    player_counts=range(3, 9),
    partnerships_from=6,
    camel_for_roll=camel_for_roll,
    words={
        "leg_ticket": "betting ticket",
        "pyramid_ticket": "pyramid ticket",
        "tile": "spectator tile",
        "finish_card": "finish card",
    },
)

RULES = edition_rules(EDITION)
