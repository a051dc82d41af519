"""`camel-companion` run for real, as a person runs it: the installed console script."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.gamelog import dump_line, game_text, read_game
from tests.play import HEADERS, random_game
from tests.test_gamelog import EXAMPLE_2014, HEADER_2014

SCRIPT = Path(sys.executable).with_name("camel-companion")

RACE_ENDS_ON_THE_LEGS_LAST_DIE = """\
{"game": "camelup-2014", "players": ["Ann", "Bob", "Cy"], "start": {"1": ["blue"], "2": ["green"], "3": ["orange"], "4": ["yellow"], "15": ["white"]}}
{"player": "Ann", "action": "roll", "die": "blue", "value": 1}
{"player": "Bob", "action": "roll", "die": "green", "value": 1}
{"player": "Cy", "action": "roll", "die": "orange", "value": 1}
{"player": "Ann", "action": "roll", "die": "yellow", "value": 1}
{"player": "Bob", "action": "roll", "die": "white", "value": 2}
"""  # noqa: E501
"""The fifth die of leg 1 carries white over the line: the race ends in leg 1."""


def companion(*args, cwd=None):
    return subprocess.run([str(SCRIPT), *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=60, check=False)


def refused(result):
    """The one line a refusal printed, after checking it was a clean refusal."""
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture
def log(tmp_path):
    """The issue's 2014 example as a file."""
    path = tmp_path / "game.jsonl"
    path.write_text(EXAMPLE_2014)
    return path


def write(tmp_path, text, name="game.jsonl"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_console_script_is_installed_and_runs():
    assert SCRIPT.is_file() and os.access(SCRIPT, os.X_OK), SCRIPT
    result = companion("--help")
    assert result.returncode == 0
    for command in ("replay", "actions", "import", "export", "games"):
        assert command in result.stdout


def test_replay_prints_the_standings_for_a_person(log):
    result = companion("replay", log)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "camelup-2014: leg 1, Bob to act"
    assert "Ranking: green, white, orange, yellow, blue" in lines
    assert [line.split()[:3] for line in lines if "coins" in line] == [
        ["Ann", "3", "coins"], ["Bob", "3", "coins"], ["Cy", "3", "coins"]]
    assert "   6    [Cy's oasis]" in lines


def test_python_dash_m_runs_the_same_command(log):
    by_module = subprocess.run([sys.executable, "-m", "companion.cli", "replay", log],
                               capture_output=True, text=True, timeout=60, check=False)
    assert by_module.returncode == 0
    assert by_module.stdout == companion("replay", log).stdout


def test_replay_json_gives_the_state_under_the_documented_keys(log):
    view = json.loads(companion("replay", "--json", log).stdout)
    assert {k: view[k] for k in ("game", "leg", "finished", "turn", "track", "ranking",
                                 "winners")} == {
        "game": "camelup-2014", "leg": 1, "finished": False, "turn": "Bob",
        "track": {"1": ["blue"], "2": ["yellow"], "3": ["orange", "white"], "4": ["green"]},
        "ranking": ["green", "white", "orange", "yellow", "blue"],
        "winners": [],
    }
    assert [{"name": p["name"], "money": p["money"]} for p in view["players"]] == [
        {"name": "Ann", "money": 3}, {"name": "Bob", "money": 3}, {"name": "Cy", "money": 3}]


def test_replay_json_of_a_race_ended_on_the_legs_last_die_stays_in_that_leg(tmp_path):
    result = companion("replay", "--json", write(tmp_path, RACE_ENDS_ON_THE_LEGS_LAST_DIE))
    view = json.loads(result.stdout)
    assert {k: view[k] for k in ("game", "leg", "finished", "turn", "track", "ranking",
                                 "winners")} == {
        "game": "camelup-2014", "leg": 1, "finished": True, "turn": None,
        "track": {"5": ["yellow", "orange", "green", "blue"]},
        "ranking": ["white", "blue", "green", "orange", "yellow"],
        "winners": ["Ann", "Bob"],
    }
    assert [(p["name"], p["money"]) for p in view["players"]] == [
        ("Ann", 5), ("Bob", 5), ("Cy", 4)]


def test_replay_json_of_whole_random_games_keeps_the_track_on_spaces_1_to_16(tmp_path):
    spaces = {str(s) for s in range(1, 17)}
    for name, header in HEADERS.items():
        for seed in range(3):
            game = random_game(header, seed)
            path = write(tmp_path, game_text(game))
            view = json.loads(companion("replay", "--json", path).stdout)
            assert view == json.loads(json.dumps(game.rules.state_json(game.state)))
            assert set(view["track"]) <= spaces, (name, seed, view["track"])
            assert view["finished"] is True and view["turn"] is None
            assert view["leg"] == game.state.leg and view["winners"]
            assert [p["name"] for p in view["players"]] == header["players"]
            assert sorted(view["ranking"]) == sorted(game.state.edition.racing_camels)


def test_replay_upto_shows_the_state_after_the_first_n_actions(tmp_path, log):
    lines = EXAMPLE_2014.splitlines(keepends=True)
    for n in range(len(lines)):
        shorter = write(tmp_path, "".join(lines[: n + 1]), name=f"first-{n}.jsonl")
        upto = companion("replay", "--json", "--upto", n, log)
        assert upto.returncode == 0
        assert upto.stdout == companion("replay", "--json", shorter).stdout
    start = json.loads(companion("replay", "--json", "--upto", 0, log).stdout)
    assert start["turn"] == "Ann" and start["track"] == {
        "1": ["blue", "green"], "2": ["yellow"], "3": ["orange", "white"]}


@pytest.mark.parametrize("upto", [5, 40, -1])
def test_replay_upto_beyond_the_actions_there_are_is_refused(log, upto):
    line = refused(companion("replay", "--upto", upto, log))
    assert f"the game has 4 actions, so there is no state after {upto}" in line


@pytest.mark.parametrize(("text", "line_number", "reason"), [
    (HEADER_2014 + '\n{"player": "Ann", "action": "leg_b', 2, "not JSON"),
    (HEADER_2014 + '\n\n{"player": "Ann", "action": "roll", "die": "blue", "value": "2"}\n', 3,
     '"value" must be a whole number'),
    (EXAMPLE_2014 + '{"player": "Ann", "action": "leg_bet", "camel": "white"}\n', 6,
     "it is Bob's turn, not Ann's"),
    (EXAMPLE_2014.replace("camelup-2014", "camelup-1999"), 1, "unknown game 'camelup-1999'"),
    (HEADER_2014 + '\n{"player": "Ann", "action": "leg_bet", "camel": "pink"}\n', 2,
     '"camel" must be one of'),
    ("", 1, "empty"),
    (HEADER_2014 + '\n{"player": "Ann", "action": "roll", "die": "blue", "value": ' + "7" * 5000
     + "}\n", 2, "a number of more than 4300 digits"),
    (HEADER_2014 + "\n" + "[" * 100_000 + "]" * 100_000 + "\n", 2, "nested more than 32 deep"),
    (HEADER_2014.replace('"Ann"', '"\\ud800"') + "\n", 1, "lone surrogate ('\\ud800')"),
    (HEADER_2014 + '\n{"player": "Ann", "action": "roll", "die": "blue", "value": NaN}\n', 2,
     "NaN is not a JSON number"),
])
def test_a_bad_game_log_exits_2_with_one_line_naming_the_line(tmp_path, text, line_number,
                                                              reason):
    path = write(tmp_path, text)
    for command in (["replay"], ["replay", "--json"], ["actions"]):
        line = refused(companion(*command, path))
        assert line.startswith(f"{path}:{line_number}: "), line
        assert reason in line


def test_a_file_that_is_missing_or_unreadable_exits_2_with_one_line(tmp_path):
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")
    for path in (tmp_path / "missing.jsonl", binary, tmp_path):
        line = refused(companion("replay", path))
        assert f"cannot read {path}" in line


def test_actions_lists_what_the_player_to_act_may_do(log):
    result = companion("actions", log)
    assert result.returncode == 0
    game = read_game(EXAMPLE_2014.splitlines())
    lines = result.stdout.splitlines()
    assert lines == [dump_line(a.to_json()) for a in game.legal_actions()]
    assert lines.count('{"player": "Bob", "action": "roll"}') == 1
    for line in lines:
        if '"roll"' not in line:
            assert len(read_game([*EXAMPLE_2014.splitlines(), line])) == 5


@pytest.mark.parametrize("example", sorted(Path("examples").glob("*.jsonl")))
def test_actions_on_a_finished_game_says_in_one_line_that_it_is_over(example):
    game = read_game(example.read_text().splitlines())
    winners = " and ".join(game.rules.state_json(game.state)["winners"])
    result = companion("actions", example)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (f"the game is over after {len(game)} actions, won by {winners}: "
                             "nothing more can be played\n")


def test_actions_upto_lists_what_was_open_after_the_first_n_actions(tmp_path, log):
    lines = EXAMPLE_2014.splitlines(keepends=True)
    for n in range(len(lines)):
        shorter = write(tmp_path, "".join(lines[: n + 1]), name=f"first-{n}.jsonl")
        upto = companion("actions", "--upto", n, log)
        assert upto.returncode == 0 and upto.stdout
        assert upto.stdout == companion("actions", shorter).stdout
    line = refused(companion("actions", "--upto", 5, log))
    assert "the game has 4 actions, so there is no state after 5" in line


def test_import_export_and_games_round_trip_through_a_store(tmp_path, log):
    db = tmp_path / "table.sqlite"
    other = write(tmp_path, game_text(random_game(HEADERS["camelup-2018"], 4)), "other.jsonl")
    assert companion("import", log, "--db", db).stdout == f"stored as game 1 in {db}\n"
    assert companion("import", other, "--db", db).stdout == f"stored as game 2 in {db}\n"
    listed = companion("games", "--db", db)
    assert listed.returncode == 0
    rows = [re.split(r"\s{2,}", line.strip()) for line in listed.stdout.splitlines()]
    assert [(r[0], r[1], r[2], r[-1]) for r in rows] == [
        ("game", "rules", "players", "records"),
        ("1", "camelup-2014", "Ann, Bob, Cy", "4"),
        ("2", "camelup-2018", ", ".join(HEADERS["camelup-2018"]["players"]),
         str(len(other.read_text().splitlines()) - 1)),
    ]
    assert companion("export", "--db", db).stdout == other.read_text()
    assert companion("export", "--db", db, "--game", 1).stdout == EXAMPLE_2014
    exported = write(tmp_path, companion("export", "--db", db, "--game", 1).stdout, "back.jsonl")
    assert companion("replay", exported).stdout == companion("replay", log).stdout


def test_store_commands_refuse_a_missing_or_wrong_store_with_one_line(tmp_path, log):
    db = tmp_path / "table.sqlite"
    assert "no store at" in refused(companion("export", "--db", db))
    assert "no store at" in refused(companion("games", "--db", db))
    assert not db.exists()
    assert "is not a camel-companion store" in refused(companion("games", "--db", log))
    assert "is not a camel-companion store" in refused(companion("import", log, "--db", log))
    assert log.read_text() == EXAMPLE_2014
    companion("import", log, "--db", db)
    assert "holds no game number 3" in refused(companion("export", "--db", db, "--game", 3))


def test_importing_a_bad_game_log_stores_nothing(tmp_path):
    db = tmp_path / "table.sqlite"
    bad = write(tmp_path, EXAMPLE_2014 + '{"player": "Ann", "action": "roll"}\n')
    assert refused(companion("import", bad, "--db", db)).startswith(f"{bad}:6: ")
    assert not db.exists()


def test_odds_of_a_camel_up_cards_game_read_as_a_person_says_them():
    done = companion("odds", "examples/camelup-cards.jsonl", "--upto", "3",
                     cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    assert "palm on 4" in done.stdout and "hand card on white" in done.stdout
    assert "reveal the top racing card" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("These odds assume: Cards not seen")


LOADED_BY_COMMAND = """\
import json, sys
from companion import cli
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def modules_loaded_running(*args):
    """Every module the command imports when run with `args`."""
    done = subprocess.run([sys.executable, "-c", LOADED_BY_COMMAND, *map(str, args)],
                          capture_output=True, text=True, timeout=60, check=True)
    return set(json.loads(done.stderr.splitlines()[-1]))


HEAVY = {"companion.demo", "companion.serve", "companion.run", "companion.store",
         "companion.table", "vision.commands", "gpiozero", "flask", "waitress", "cv2"}


@pytest.mark.parametrize("args", [("replay", "examples/camelup-2018.jsonl", "--upto", "30"),
                                  ("actions", "examples/camelup-2018.jsonl")])
def test_replay_and_actions_import_neither_numpy_nor_the_server_demo_or_camera(args):
    assert not modules_loaded_running(*args) & (HEAVY | {"numpy"})


def test_odds_imports_numpy_but_not_the_server_demo_or_camera():
    loaded = modules_loaded_running("odds", "examples/camelup-2018.jsonl", "--upto", "30")
    assert "numpy" in loaded and not loaded & HEAVY


def test_every_command_is_listed_and_one_named_brings_only_the_module_that_adds_it():
    from companion.cli import ELSEWHERE, _parser

    def commands_of(parser):
        return set(parser._subparsers._group_actions[0].choices)

    every = commands_of(_parser())
    core = every - set(ELSEWHERE)
    assert set(ELSEWHERE) <= every
    for name, (module, _) in ELSEWHERE.items():
        same_module = {n for n, (m, _) in ELSEWHERE.items() if m == module}
        assert commands_of(_parser(name)) == core | same_module


def test_the_odds_of_one_game_load_no_other_games_rules_or_odds():
    loaded = modules_loaded_running("odds", "examples/camelup-2018.jsonl", "--upto", "30")
    assert "companion.rules.camelup2018" in loaded
    assert not loaded & {"companion.rules.cards", "companion.rules.last_camel",
                         "companion.cards_odds"}
