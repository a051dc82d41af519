"""The camera's board against the game's track, and `camel-companion check-board`."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import pytest

from companion.board_check import Disagreement, disagreements, explaining_rolls
from companion.check_board import _print
from companion.cli import main
from companion.game import Game
from companion.gamelog import load_game
from companion.rules.track import Track

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def opening(name: str, rolls: int) -> Game:
    """The example game up to and including its `rolls`-th roll."""
    whole = load_game(EXAMPLES / f"{name}.jsonl")
    game = Game(whole.header)
    for action in whole.actions:
        game.push(action)
        if action.action == "roll":
            rolls -= 1
            if rolls == 0:
                return game
    raise AssertionError(f"{name} has fewer rolls")


def test_a_space_agrees_when_each_camel_is_the_game_s_or_unseen():
    track = Track.from_stacks({4: ("blue", "green"), 7: ("white",)})
    assert disagreements(track, {4: ("blue", None), 7: ("white",)}) == []
    assert disagreements(track, {4: ("green", "blue"), 7: ("white",)}) == [
        Disagreement(4, ("blue", "green"), ("green", "blue"))]
    assert disagreements(track, {4: ("blue",), 7: ("white",), 9: ("orange",)}) == [
        Disagreement(4, ("blue", "green"), ("blue",)), Disagreement(9, (), ("orange",))]
    assert disagreements(track, {4: ("blue", "green")}) == [
        Disagreement(7, ("white",), ())]


@pytest.mark.parametrize("name", ["camelup-2014", "camelup-2018"])
def test_the_roll_that_explains_the_board_is_found(name):
    game = opening(name, 4)
    last = game.actions[-1]
    assert disagreements(game.state.track, game.state.track.as_dict()) == []
    others = []
    for die in game.state.edition.dice:
        for value in (1, 2, 3):
            numeral = game.state.edition.crazy_camels[0] if die == "grey" else None
            trial = game.copy()
            try:
                trial.replace(len(game) - 1, replace(last, die=die, value=value,
                                                     numeral=numeral))
            except ValueError:
                continue
            if trial.state.track != game.state.track:
                others.append((trial.actions[-1], trial.state.track))
    assert others
    for roll, track in others:
        assert roll in explaining_rolls(game, track.as_dict())
    assert explaining_rolls(Game(game.header), {}) == []


def test_check_board_compares_what_the_camera_reads_with_the_game(capsys, tmp_path):
    from vision.board import BoardReader, learn_camels
    from vision.calibrate import calibrate_table
    from vision.camels import camel_set
    from vision.synth_board import board_session

    game = opening("camelup-2014", 3)
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in game.lines()))
    session = board_session(3_500_000, game="camelup-2014")
    setup, shown, moved = tmp_path / "set-up.png", tmp_path / "as-game.png", tmp_path / "moved.png"
    cv2.imwrite(str(setup), session.setup.image)
    track = game.state.track.as_dict()
    cv2.imwrite(str(shown), session.frame(hand=False, stacks=track).image)
    swapped = dict(track)
    first = min(swapped)
    swapped[first + 1] = swapped.pop(first)    # a stack one space on from where the game has it
    cv2.imwrite(str(moved), session.frame(hand=False, stacks=swapped).image)
    table = calibrate_table(session.setup.image, session.table.layout)
    camels = camel_set("camelup-2014")
    reader = BoardReader(table, session.table.track,
                         learn_camels(session.setup.image, table, session.table.track, camels),
                         camels, session.setup.image)
    for frame in (shown, moved):
        status = main(["check-board", str(log), str(frame), "--calibration", str(setup),
                       "--json"])
        out, _ = capsys.readouterr()
        result = json.loads(out)
        board = {s.space: s.camels for s in reader.read(cv2.imread(str(frame))).stacks}
        expected = disagreements(game.state.track, board)
        assert result["disagreements"] == [d.to_json() for d in expected]
        assert status == (1 if expected else 0) and result["agrees"] == (not expected)
        assert result["explained_by"] == [r.to_json() for r in explaining_rolls(game, board)
                                          ] if expected else result["explained_by"] == []
    status = main(["check-board", str(log), str(moved), "--calibration", str(setup)])
    out, _ = capsys.readouterr()
    assert status in (0, 1) and out


def test_check_board_refuses_bad_input_in_one_line(capsys, tmp_path):
    game = opening("camelup-2014", 1)
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in game.lines()))
    status = main(["check-board", str(log), str(tmp_path / "x.png"), "--calibration",
                   str(tmp_path / "none.png")])
    _, err = capsys.readouterr()
    assert status == 2 and "cannot read the set-up image" in err and err.count("\n") == 1
    cards = EXAMPLES / "camelup-cards.jsonl"
    status = main(["check-board", str(cards), "x.png", "--calibration", "y.png"])
    _, err = capsys.readouterr()
    assert status == 2 and "no camels known for game 'camelup-cards'" in err


def test_a_board_that_agrees_after_one_action_says_action_once(capsys):
    _print([], [], 1)
    assert capsys.readouterr().out == "the board agrees with the game after 1 action\n"
