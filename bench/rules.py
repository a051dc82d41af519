"""How fast the rules replay a game and list the legal actions: prints figures, asserts nothing.

Run: .venv/bin/python bench/rules.py
"""

from __future__ import annotations

from pathlib import Path

from timing import best_of

from companion.gamelog import load_game, read_game

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.jsonl"))


def main() -> None:
    for path in EXAMPLES:
        lines = path.read_text().splitlines()
        game = load_game(path)
        replay = best_of(20, lambda lines=lines: read_game(lines))
        states = [game.state_after(n) for n in range(len(game))]

        def list_legal(game=game, states=states) -> None:
            for state in states:
                game.rules.legal_actions(state)

        legal = best_of(5, list_legal) / len(states)
        print(f"{path.name}: {len(game)} actions replayed in {replay * 1e3:.2f} ms "
              f"({len(game) / replay:,.0f} actions/s); legal actions listed in "
              f"{legal * 1e3:.3f} ms per position")


if __name__ == "__main__":
    main()
