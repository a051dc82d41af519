"""The bundled games and the examples in the docs replay as written."""

import re
from pathlib import Path

import pytest

from companion.gamelog import load_game, read_game

ROOT = Path(__file__).parent.parent


def standings(path: str) -> dict:
    game = load_game(ROOT / path)
    view = game.rules.state_json(game.state)
    return {
        "leg": view["leg"],
        "finished": view["finished"],
        "ranking": view["ranking"],
        "money": {p["name"]: p["money"] for p in view["players"]},
        "winners": view["winners"],
    }


def test_the_2014_example_ends_in_leg_5_with_cy_the_richest():
    assert standings("examples/camelup-2014.jsonl") == {
        "leg": 5,
        "finished": True,
        "ranking": ["white", "yellow", "green", "blue", "orange"],
        "money": {"Ann": 17, "Bob": 12, "Cy": 26, "Dan": 14},
        "winners": ["Cy"],
    }


def test_the_2018_example_ends_with_red_carried_over_the_line_on_yellow():
    assert standings("examples/camelup-2018.jsonl") == {
        "leg": 6,
        "finished": True,
        "ranking": ["red", "yellow", "purple", "blue", "green"],
        "money": {"Ann": 17, "Bob": 23, "Cy": 10, "Dee": 20, "Eve": 16, "Fay": 15},
        "winners": ["Bob"],
    }


def doc_games() -> list[str]:
    text = (ROOT / "docs" / "game-log.md").read_text()
    return [block for block in re.findall(r"```\n(.*?)```", text, re.S) if '"game"' in block]


@pytest.mark.parametrize("block", doc_games())
def test_every_game_log_in_the_docs_is_accepted_as_written(block):
    game = read_game(block.splitlines())
    assert len(game) == len(block.strip().splitlines()) - 1
