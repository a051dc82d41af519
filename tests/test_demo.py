"""The demo: a whole table playing itself through the real camera pipeline, buttons and
dashboard, ending with the game the dice and presses truly made; the camera reads most dice on
its own, and the scripted players fix what it could not."""

import json
import random
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from companion.demo import DemoTable
from companion.game import Game
from companion.newgame import new_header
from companion.table import Table


@pytest.mark.parametrize("game", ["camelup-2014", "camelup-2018"])
def test_a_new_game_is_set_up_as_the_rule_book_says(game):
    for seed in range(50):
        header = new_header(game, ["Ann", "Bob", "Cy"], random.Random(seed))
        state = Game(header).state
        assert header["players"] == ["Ann", "Bob", "Cy"]
        for space, camels in header["start"].items():
            crazy = {"white", "black"} & set(camels) if game == "camelup-2018" else set()
            assert int(space) in ({14, 15, 16} if crazy else {1, 2, 3}), header
        assert state.leg == 1


def test_the_camera_reads_most_dice_on_its_own_and_a_person_fixes_few(tmp_path):
    header = new_header("camelup-2018", ["Ann", "Bob", "Cy"], random.Random(3))
    with Table(tmp_path / "demo.sqlite3", first_game=header) as table, \
            DemoTable(table, seed=3, speed=25.0) as players:
        players.start()
        deadline = time.monotonic() + 150
        while len(players.stage.thrown) < 7 and time.monotonic() < deadline:
            time.sleep(0.2)
        players.stop()
    view = table.snapshot.view
    rolls = [h["action"] for h in view["history"] if h["action"]["action"] == "roll"]
    thrown = [(t.colour, t.value) for t in players.stage.thrown]
    assert [(r["die"], r["value"]) for r in rolls] == thrown[:len(rolls)]
    assert len(rolls) >= 6
    came = players.outcomes
    fixed = came["corrected"] + came["logged"] + came["replaced"]
    counted = came["read"] + came["confirmed"] + fixed
    assert counted <= len(rolls) <= counted + 1  # the demo may stop as a die is read
    assert came["read"] >= 2 * len(rolls) // 3, came
    assert fixed <= len(rolls) // 3, came
    kinds = {h["action"]["action"] for h in view["history"]}
    assert "leg_bet" in kinds


def test_the_demo_command_serves_the_game_it_plays_and_stops_on_sigterm():
    demo = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "demo", "--port", "0", "--speed", "20",
         "--seed", "7", "--no-odds", "--host", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = demo.stdout.readline()
        second = demo.stdout.readline()
        assert "a demo game of camelup-2018 for 4 players (seed 7)" in first
        assert "the table's PIN is 123456" in second
        url = second.split("open ")[1].split(" ")[0]
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            with urllib.request.urlopen(url + "api/state", timeout=10) as answer:
                state = json.load(answer)
            if state["history"]:
                break
            time.sleep(0.5)
        assert state["history"] and state["camera"] == {"on": True}
    finally:
        demo.send_signal(signal.SIGTERM)
        out, err = demo.communicate(timeout=60)
    assert demo.returncode == 0, err
    assert "the demo stopped" in out
