"""How fast the odds are, on one core, cold, against an earlier commit in the same run.

Run: .venv/bin/python bench/odds.py [--against REF] [--rounds N]

Prints every figure of issue 23 (speed, and the race odds' largest error on a late position
against its exact odds) for this working tree and for the commit REF (by default the
one before HEAD), measured in turns (this tree, REF, this tree, ...) so that both see the
same load, and their ratio. A figure is the median of its runs within a round; the table
gives the best round's and, in brackets, the range over the rounds. Nothing is cached
between runs. The peers' figures are those issue 23 reports, measured on the machine it
was filed from, not here. Asserts nothing.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

from timing import timings

ROOT = Path(__file__).resolve().parent.parent

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SPREAD_2014 = {"1": ["blue"], "2": ["green", "orange"], "3": ["yellow", "white"]}
DESERT_TILES = {"4": {"owner": "Ann", "side": "oasis"}, "6": {"owner": "Bob", "side": "mirage"}}
START_2018 = {"1": ["green", "yellow"], "2": ["blue"], "3": ["red", "purple"],
              "14": ["white"], "16": ["black"]}
MID_2018 = {"6": ["green"], "7": ["black", "yellow"], "8": ["blue", "red"], "9": ["purple"],
            "11": ["white"]}
LATE_2018 = {"10": ["green"], "12": ["yellow", "black"], "13": ["blue"], "14": ["red"],
             "15": ["purple", "white"]}
CARRIED_2018 = {"6": ["green"], "9": ["yellow"], "12": ["blue"], "13": ["white", "red", "purple"],
                "15": ["black"]}


def header(game: str, start: dict, **part_way: object) -> dict:
    return {"game": game, "players": PLAYERS, "start": start, **part_way}


LEG_POSITIONS = {
    "full 2014 leg": header("camelup-2014", SPREAD_2014),
    "full 2014 leg, two desert tiles": header("camelup-2014", SPREAD_2014, tiles=DESERT_TILES),
    "mid-leg 2014, 3 rolls left": header("camelup-2014", SPREAD_2014,
                                         dice_out=["blue", "green"]),
    "full 2018 leg": header("camelup-2018", START_2018),
    "full 2018 leg, mid-board": header("camelup-2018", MID_2018),
    "mid-leg 2018, 4 rolls left": header("camelup-2018", MID_2018, dice_out=["blue"]),
    "mid-leg 2018 after the grey die": header("camelup-2018", MID_2018,
                                              dice_out=["blue", "grey"]),
    "2018 finish in reach, 4 rolls left": header("camelup-2018", LATE_2018, dice_out=["red"]),
    "2018 crazy camels carrying, full leg": header("camelup-2018", CARRIED_2018),
}
"""Positions of every kind issue 23 names, as game-log headers."""

PEERS = {
    "leg odds: full 2014 leg": "Rust oracle 15.3 ms, best Python peer 48 ms; ours then 4.8 ms",
    "leg odds: full 2018 leg": "Go solver 42 ms; ours then 24 ms",
    "leg odds: mid-leg 2018, 4 rolls left": "Go solver 0.10 ms; ours then 1.24 ms",
    "advice: full 2018 leg": "target 150 ms; ours then 354-408 ms",
    "advice: mid-leg 2018, 4 rolls left": "target 50 ms",
    "cli: odds --json, mid-leg 2018": "target 0.25 s; Go solver 2 ms; ours then 0.61 s",
    "cli: replay, mid-leg 2018": "target 0.25 s",
    "cli: actions, mid-leg 2018": "target 0.25 s",
    "race odds error, finish in reach: median of 20 seeds": "target 0.5 %; ours then 0.6 %",
    "race odds error, finish in reach: worst of 20 seeds": "target 0.5 %; ours then 1.2 %",
}
"""Issue 23's reference figures, measured on the machine it was filed from."""


def median_ms(work: Callable[[], object], runs: int) -> float:
    return statistics.median(timings(work, runs)) * 1e3


ACCURACY_POSITION = "2018 finish in reach, 4 rolls left"
"""The late position whose race odds are checked against the exact ones."""


def exact_race() -> list[float]:
    """The race odds of `ACCURACY_POSITION`, winner then loser: its next leg exact too (2 million
    rows at a roll), and the 2 % of the chance left after it from 80,000 races (standard error
    0.004 %)."""
    from companion.game import Game
    from companion.odds import leg_odds, race_odds

    state = Game(LEG_POSITIONS[ACCURACY_POSITION]).state
    race = race_odds(state, leg_odds(state), races=20_000, most_rows=4_000_000, seed=99)
    assert race.stderr < 1e-4
    return [*race.winner.tolist(), *race.loser.tolist()]


def race_errors(exact: list[float]) -> dict[str, float]:
    """The largest error of the ten race chances of `ACCURACY_POSITION` over 20 seeds, in %."""
    from companion.game import Game
    from companion.odds import leg_odds, race_odds

    state = Game(LEG_POSITIONS[ACCURACY_POSITION]).state
    leg = leg_odds(state)
    errors = []
    for seed in range(20):
        race = race_odds(state, leg, seed=seed)
        chances = [*race.winner.tolist(), *race.loser.tolist()]
        errors.append(100 * max(abs(a - b) for a, b in zip(chances, exact, strict=True)))
    return {"race odds error, finish in reach: median of 20 seeds": statistics.median(errors),
            "race odds error, finish in reach: worst of 20 seeds": max(errors)}


def measure(exact: list[float]) -> dict[str, float]:
    """Every figure of the code on sys.path, in ms; a figure that code cannot give is left out."""
    from companion import cards_odds
    from companion.game import Game
    from companion.gamelog import load_game
    from companion.odds import leg_odds, odds_json, race_odds

    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    states = {name: Game(h).state for name, h in LEG_POSITIONS.items()}
    figures: dict[str, float] = {}

    def figure(name: str, work: Callable[[], object], runs: int) -> None:
        try:
            work()
            figures[name] = median_ms(work, runs)
        except Exception as e:  # an earlier commit may lack what a figure needs
            print(f"{name}: {e!r}", file=sys.stderr)

    for name, state in states.items():
        runs = 15 if name.startswith(("full", "2018 crazy")) else 101
        figure(f"leg odds: {name}", lambda s=state: leg_odds(s), runs)
    for name in ("full 2018 leg, mid-board", "2018 finish in reach, 4 rolls left"):
        state = states[name]
        leg = leg_odds(state)
        figure(f"race odds: {name}", lambda s=state, leg=leg: race_odds(s, leg), 5)
    for name in ("full 2014 leg", "full 2018 leg", "full 2018 leg, mid-board",
                 "mid-leg 2018, 4 rolls left", "mid-leg 2018 after the grey die"):
        figure(f"advice: {name}", lambda s=states[name]: odds_json(s), 5)
    figures.update(race_errors(exact))
    game = load_game(ROOT / "examples" / "camelup-cards.jsonl")
    for name, after in (("Cards leg start, 12 cards", 1), ("Cards mid-leg, 8 cards", 10),
                        ("Cards mid-leg, 5 cards", 14)):
        state = game.state_after(after)
        figure(f"leg odds: {name}", lambda s=state: cards_odds.leg_odds(s), 5)
        figure(f"advice: {name}", lambda s=state: cards_odds.odds_json(s), 3)
    return figures


def command_seconds(tree: Path, log: Path) -> dict[str, float]:
    """How long `camel-companion` takes from start to finish, in ms, for three commands. The
    tree's modules are compiled first, as an installed package's are (pip compiles them, and
    a first run writes them), so a figure never counts compiling them; the environment may
    say not to write them (PYTHONDONTWRITEBYTECODE), which no installed companion does."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "companion")],
                   check=True, stdout=subprocess.DEVNULL,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    figures = {}
    for name, args in (("cli: odds --json, mid-leg 2018", ["odds", str(log), "--json"]),
                       ("cli: replay, mid-leg 2018", ["replay", str(log)]),
                       ("cli: actions, mid-leg 2018", ["actions", str(log)])):
        figures[name] = median_ms(lambda args=args: subprocess.run(
            [sys.executable, "-m", "companion.cli", *args], cwd=log.parent,
            env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
            stdout=subprocess.DEVNULL), 5)
    return figures


def run_here(tree: Path, cwd: Path, *args: str) -> object:
    """This script run with `args` on the code in `tree`, in a process of its own; its JSON."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), *args], cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout)


def figures_of(tree: Path, log: Path, exact: list[float]) -> dict[str, float]:
    """Every figure of the code in `tree`."""
    measured = run_here(tree, log.parent, "--measure", json.dumps(exact))
    assert isinstance(measured, dict)
    return {**measured, **command_seconds(tree, log)}


def checkout(ref: str, into: Path) -> str:
    """The packages of commit `ref` written under `into`; returns the commit's short name."""
    name = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", ref, "companion", "vision", "web"], cwd=ROOT,
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return name


def mid_leg_log(into: Path) -> Path:
    """A 2018 game log whose last position is mid-leg, 4 rolls left, for the command's figure."""
    log = into / "mid-leg-2018.jsonl"
    lines = [header("camelup-2018", MID_2018),
             {"player": "Ann", "action": "roll", "die": "blue", "value": 2}]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD~1", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--measure", metavar="EXACT", help=argparse.SUPPRESS)
    parser.add_argument("--exact-race", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(json.loads(args.measure))))
        return
    if args.exact_race:
        print(json.dumps(exact_race()))
        return
    with tempfile.TemporaryDirectory() as temp:
        earlier = Path(temp) / "earlier"
        earlier.mkdir()
        name = checkout(args.against, earlier)
        log = mid_leg_log(Path(temp))
        exact = run_here(ROOT, Path(temp), "--exact-race")
        assert isinstance(exact, list)
        rounds: dict[str, list[dict[str, float]]] = {"now": [], name: []}
        for _ in range(args.rounds):
            rounds["now"].append(figures_of(ROOT, log, exact))
            rounds[name].append(figures_of(earlier, log, exact))
    report(rounds["now"], rounds[name], name)


def report(now: list[dict[str, float]], then: list[dict[str, float]], name: str) -> None:
    def cell(runs: list[dict[str, float]], key: str) -> tuple[float | None, str]:
        seen = [r[key] for r in runs if key in r]
        if not seen:
            return None, "-"
        unit, scale = ("s", 1e-3) if key.startswith("cli") else (
            "%", 1.0) if key.startswith("race odds error") else ("ms", 1.0)
        low, high = min(seen) * scale, max(seen) * scale
        digits = 2 if unit == "s" or low < 10 else 1
        return min(seen), f"{low:.{digits}f} {unit} ({low:.{digits}f}-{high:.{digits}f})"

    print(f"one core, cold; this tree against {name}, {len(now)} rounds each, taken in turn; "
          "best round (range)")
    print(f"{'figure':<58} {'this tree':>26} {name:>26} {'ratio':>6}  issue 23")
    for key in dict.fromkeys([*now[0], *then[0]]):
        best_now, shown_now = cell(now, key)
        best_then, shown_then = cell(then, key)
        ratio = f"{best_now / best_then:6.2f}" if best_now and best_then else "     -"
        print(f"{key:<58} {shown_now:>26} {shown_then:>26} {ratio}  {PEERS.get(key, '')}")


if __name__ == "__main__":
    main()
