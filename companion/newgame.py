"""A new game's first line for the board games, its camels set up as the rule book says.

At a real table the start is rolled: each racing camel goes on the space its die shows, the
later ones on top; in the second edition the grey die puts each crazy camel on space 16, 15
or 14 for a 1, 2 or 3. The demo rolls it, a fresh Pi's first game rolls it, and the New game
page rolls it for a table that would rather not enter it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.rules import GAMES


def new_header(game: str, players: Sequence[str], rng: random.Random) -> dict[str, Any]:
    """The header of a new `game` of Camel Up for `players`, its start rolled with `rng`."""
    edition = GAMES[game].edition
    start: dict[str, list[str]] = {}
    for camel in rng.sample(list(edition.racing_camels), len(edition.racing_camels)):
        start.setdefault(str(rng.randint(1, 3)), []).append(camel)
    for camel in rng.sample(list(edition.crazy_camels), len(edition.crazy_camels)):
        start.setdefault(str(edition.spaces + 1 - rng.randint(1, 3)), []).append(camel)
    return {"game": game, "players": list(players), "start": start}
