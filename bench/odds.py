"""How fast the odds are, on one core, cold: prints figures and asserts nothing.

Run: .venv/bin/python bench/odds.py
Each figure is the median of several runs over a fresh state; nothing is cached between runs.
"""

from __future__ import annotations

import os
import statistics
import time

from companion import cards_odds
from companion.game import Game
from companion.gamelog import load_game
from companion.odds import action_values, leg_odds, race_odds

SPREAD_2014 = {"1": ["blue"], "2": ["green", "orange"], "3": ["yellow", "white"]}
DESERT_TILES = {"4": {"owner": "Ann", "side": "oasis"}, "6": {"owner": "Bob", "side": "mirage"}}
START_2018 = {"1": ["green", "yellow"], "2": ["blue"], "3": ["red", "purple"],
              "14": ["white"], "16": ["black"]}
MID_2018 = {"6": ["green"], "7": ["black", "yellow"], "8": ["blue", "red"], "9": ["purple"],
            "11": ["white"]}
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def state(game: str, start: dict, **part_way) -> object:
    return Game({"game": game, "players": PLAYERS, "start": start, **part_way}).state


def median_ms(work, runs: int = 15) -> float:
    times = []
    for _ in range(runs):
        begin = time.perf_counter()
        work()
        times.append(time.perf_counter() - begin)
    return statistics.median(times) * 1e3


def main() -> None:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    positions = {
        "full 2014 leg, spread start": state("camelup-2014", SPREAD_2014),
        "full 2014 leg, two desert tiles": state("camelup-2014", SPREAD_2014,
                                                  tiles=DESERT_TILES),
        "full 2018 leg, start positions": state("camelup-2018", START_2018),
        "full 2018 leg, mid-board": state("camelup-2018", MID_2018),
    }
    print("one core, median of 15 cold runs")
    for name, position in positions.items():
        print(f"  {name:<36} {median_ms(lambda p=position: leg_odds(p)):8.1f} ms")
    spread, mid = positions["full 2014 leg, spread start"], positions["full 2018 leg, mid-board"]
    for name, position in (("2014 race odds from the start", spread),
                           ("2018 race odds, mid-board", mid)):
        leg = leg_odds(position)
        race = race_odds(position, leg)
        took = median_ms(lambda p=position, leg=leg: race_odds(p, leg), runs=5)
        print(f"  {name:<36} {took:8.1f} ms  ({race.races:,} races, "
              f"standard error {race.stderr:.2%})")
    for name, position in (("2014 whole advice", spread), ("2018 whole advice, mid-board", mid)):
        def advise(p=position) -> int:
            leg = leg_odds(p)
            return len(action_values(p, leg, race_odds(p, leg)))

        print(f"  {name:<36} {median_ms(advise, runs=5):8.1f} ms  ({advise()} actions, "
              "leg and race odds included)")
    cards()


def cards() -> None:
    """Camel Up Cards, on the bundled example: a leg's start (12 cards, simulated) and mid-leg."""
    game = load_game("examples/camelup-cards.jsonl")
    for name, position in (("Cards, leg start (12 cards left)", game.state_after(1)),
                           ("Cards, mid-leg (8 cards left)", game.state_after(10)),
                           ("Cards, mid-leg (5 cards left)", game.state_after(14))):
        leg = cards_odds.leg_odds(position)
        how = f"{leg.samples:,} legs simulated" if leg.samples else "exact"
        took = median_ms(lambda p=position: cards_odds.leg_odds(p), runs=5)
        print(f"  {name + ', leg odds':<52} {took:8.1f} ms  ({how})")
        race = cards_odds.race_odds(position, leg)
        took = median_ms(lambda p=position, leg=leg: cards_odds.race_odds(p, leg), runs=3)
        print(f"  {name + ', race odds':<52} {took:8.1f} ms  ({race.races:,} races)")
        took = median_ms(lambda p=position: cards_odds.odds_json(p), runs=3)
        print(f"  {name + ', whole advice':<52} {took:8.1f} ms  "
              f"({len(cards_odds.odds_json(position)['actions'])} actions)")


if __name__ == "__main__":
    main()
