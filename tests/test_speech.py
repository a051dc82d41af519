"""The table speaks: what is said for each change at the table, in each language; the
announcer on a real table with the stand-in speaker; espeak-ng called as it should be; and
`[speech]` in the configuration."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.errors import BadConfig
from companion.game import Game
from companion.gamelog import load_game
from companion.run import TableConfig
from companion.snapshot import build_view
from companion.speech import Announcer, Espeak, Recorder, lines
from companion.table import Table
from tests.play import stored_game
from web import LANGUAGES
from web.translations import load

WORDS = load(LANGUAGES)
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "camelup-2014.jsonl"


def views(count: int) -> list[dict]:
    """The example game's view after each of its first `count` actions (0 to `count`)."""
    whole = load_game(EXAMPLE)
    game = Game(whole.header)
    out = [build_view(game, [], version=0, extra={})]
    for n, action in enumerate(whole.actions[:count], start=1):
        game.push(action)
        out.append(build_view(game, [], version=n, extra={}))
    return out


def test_a_roll_is_said_as_its_colour_and_value_in_the_table_s_language():
    before, after = views(4)[3:5]          # the fourth action is Dan's blue 3
    assert lines(before, after, WORDS["en"]) == ["Blue, 3."]
    assert lines(before, after, WORDS["fr"]) == ["Bleu, 3."]
    assert lines(before, after, WORDS["de"]) == [WORDS["de"]["colour.blue"].capitalize()
                                                 + ", 3."]
    # a bet is not said; an undo (the history shorter) says nothing
    assert lines(*views(5)[4:6], WORDS["en"]) == []
    assert lines(after, before, WORDS["en"]) == []


def test_the_end_of_a_leg_says_who_won_most_in_it():
    all_views = views(len(load_game(EXAMPLE).actions))
    ends = [k for k in range(1, len(all_views)) if all_views[k]["leg"] != all_views[k - 1]["leg"]]
    before, after = all_views[ends[0] - 1], all_views[ends[0]]
    said = lines(before, after, WORDS["en"])
    assert said[-1].startswith("Leg over: ") and said[-1].endswith(".")
    won = {}
    for entry in after["history"][len(before["history"]):]:
        for payout in entry["payouts"]:
            won[payout["player"]] = won.get(payout["player"], 0) + payout["amount"]
    best = max(won, key=won.get)
    assert said[-1] == f"Leg over: {best} wins {won[best]}."
    last = lines(all_views[-2], all_views[-1], WORDS["en"])
    assert last[-1] == f"The race is over. Winner: {', '.join(all_views[-1]['winners'])}."


def test_a_reading_that_waits_asks_to_check_the_roll():
    before = views(0)[0]
    after = {**before, "pending": [{"id": 7}]}
    assert lines(before, after, WORDS["en"]) == ["Check the roll: the camera is not sure."]
    assert lines(after, after, WORDS["en"]) == []


def test_a_new_board_alert_says_where_the_board_and_the_game_disagree():
    before = views(0)[0]
    space_4 = {"id": 3, "disagreements": [{"space": 4, "game": [], "camera": ["blue"]}]}
    after = {**before, "board": space_4}
    assert lines(before, after, WORDS["en"]) == [
        "The board and the game disagree on space 4."]
    assert lines(after, after, WORDS["en"]) == []         # said once, not on every snapshot
    two = {"id": 4, "disagreements": [{"space": 2, "game": ["green", "blue"], "camera": ["green"]},
                                      *space_4["disagreements"]]}
    assert lines(after, {**before, "board": two}, WORDS["fr"]) == [
        "Le plateau et la partie ne concordent pas sur les cases 2, 4."]
    assert lines(after, before, WORDS["en"]) == []        # an alert that goes says nothing


def test_the_announcer_says_what_happens_at_a_real_table(tmp_path):
    speaker = Recorder()
    with Table(stored_game(tmp_path / "g.sqlite3")) as table, \
            Announcer(table, speaker, WORDS["en"]):
        table.push({"player": "Ann", "action": "roll", "die": "blue", "value": 3})
        table.push({"player": "Bob", "action": "leg_bet", "camel": "blue"})
        table.see({"die": "green", "value": 2, "box": [1, 1, 9, 9], "confidence": 0.5})
        deadline = time.monotonic() + 5
        while len(speaker.said) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert speaker.said == ["Blue, 3.", "Check the roll: the camera is not sure."]


def test_espeak_is_called_with_the_voice_and_the_line_and_never_stops_the_table(tmp_path):
    said = tmp_path / "said.txt"
    fake = tmp_path / "espeak-ng"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {said}\n')
    fake.chmod(0o755)
    speaker = Espeak("fr", command=[str(fake)])
    speaker.say("Bleu, 3.")
    speaker.say("Fin de la manche.")
    deadline = time.monotonic() + 5
    while (not said.exists() or said.read_text().count("\n") < 2) and time.monotonic() < deadline:
        time.sleep(0.02)
    speaker.close()
    assert said.read_text().splitlines() == ["-v fr Bleu, 3.", "-v fr Fin de la manche."]
    broken = Espeak("en", command=[str(tmp_path / "no-such-program")])
    broken.say("Blue, 3.")
    broken.close()        # a speaker that cannot speak logs it and goes on


def test_speech_is_off_unless_the_configuration_turns_it_on(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text("[table]\nport = 8000\n")
    assert TableConfig.from_file(path).speech is None
    path.write_text('[speech]\nenabled = true\nlanguage = "de"\n')
    assert TableConfig.from_file(path).speech == "de"
    path.write_text("[speech]\nenabled = true\n")
    assert TableConfig.from_file(path).speech == "en"
    for text, words in (('language = "it"', "language must be one of en, fr, de"),
                        ("enabled = 1", "enabled must be"), ("voice = 3", "unknown key")):
        path.write_text(f"[speech]\n{text}\n")
        with pytest.raises(BadConfig, match=words):
            TableConfig.from_file(path)
