"""Camel Up, first edition (2014): five racing camels, five dice, desert tiles.

Rule books 000 (English) and 002 (French) with the rulings in shared/rules/README.md.
"""

from companion.rules.camelup import DesertTile, Edition, Roll, edition_rules
from companion.rules.track import Track

RACING_CAMELS = ("blue", "green", "orange", "yellow", "white")


def camel_for_roll(track: Track, roll: Roll) -> str:
    """Every die moves the camel of its own colour."""
    assert roll.die is not None
    return roll.die


EDITION = Edition(
    game="camelup-2014",
    racing_camels=RACING_CAMELS,
    crazy_camels=(),
    dice=RACING_CAMELS,
    dice_per_leg=5,
    leg_ticket_values=(5, 3, 2),
    tile=DesertTile,
    tile_sides=("oasis", "mirage"),
    player_counts=range(2, 9),
    partnerships_from=None,
    camel_for_roll=camel_for_roll,
    words={
        "leg_ticket": "leg betting tile",
        "pyramid_ticket": "pyramid tile",
        "tile": "desert tile",
        "finish_card": "race betting card",
    },
)

RULES = edition_rules(EDITION)
