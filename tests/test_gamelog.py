"""The game log as people write it: the issue's lines as written, strict values, line numbers."""

import json
import tracemalloc

import pytest

from companion.errors import BadLogLine, UnreadableFile
from companion.gamelog import LONGEST_LINE, game_text, load_game, parse_line, read_game
from companion.rules.camelup import DesertTile, LegBet, Partnership, RaceBet, Roll, SpectatorTile
from tests.play import HEADERS, random_game

EXAMPLE_2014 = """\
{"game": "camelup-2014", "players": ["Ann", "Bob", "Cy"], "start": {"1": ["blue", "green"], "2": ["yellow"], "3": ["orange", "white"]}}
{"player": "Ann", "action": "leg_bet", "camel": "blue"}
{"player": "Bob", "action": "roll", "die": "green", "value": 3}
{"player": "Cy", "action": "desert_tile", "space": 6, "side": "oasis"}
{"player": "Ann", "action": "race_bet", "pile": "winner", "camel": "yellow"}
"""  # noqa: E501
"""The five lines of the issue, exactly as written there."""

HEADER_2018 = (
    '{"game": "camelup-2018", "players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], '
    '"start": {"1": ["green", "yellow"], "2": ["blue"], "3": ["red", "purple"], '
    '"14": ["white"], "16": ["black"]}}'
)
EXAMPLE_2018 = f"""\
{HEADER_2018}
{{"player": "Ann", "action": "partnership", "with": "Bob"}}
{{"player": "Bob", "action": "roll", "die": "grey", "value": 2, "numeral": "white"}}
{{"player": "Cy", "action": "spectator_tile", "space": 6, "side": "booing"}}
"""
"""The 2018 lines of the issue as written, in an order six players can play them."""

HEADER_2014 = EXAMPLE_2014.splitlines()[0]


def refusal(*lines):
    """The `BadLogLine` that reading `lines` raises."""
    with pytest.raises(BadLogLine) as refused:
        read_game(lines)
    return refused.value


def test_the_2014_example_is_read_as_written():
    game = read_game(EXAMPLE_2014.splitlines())
    assert game.actions == [LegBet("Ann", "blue"), Roll("Bob", "green", 3),
                            DesertTile("Cy", 6, "oasis"), RaceBet("Ann", "winner", "yellow")]
    view = game.rules.state_json(game.state)
    assert view["track"] == {"1": ["blue"], "2": ["yellow"], "3": ["orange", "white"],
                             "4": ["green"]}
    assert view["tiles"] == {"6": {"owner": "Cy", "side": "oasis"}}
    assert view["turn"] == "Bob"
    assert game_text(game) == EXAMPLE_2014


def test_the_2018_example_is_read_as_written():
    game = read_game(EXAMPLE_2018.splitlines())
    assert game.actions == [Partnership("Ann", "Bob"), Roll("Bob", "grey", 2, "white"),
                            SpectatorTile("Cy", 6, "booing")]
    state = game.state
    assert state.track.as_dict() == {1: ("green", "yellow"), 2: ("blue",),
                                     3: ("red", "purple"), 12: ("white",), 16: ("black",)}
    assert [(p.name, p.partner) for p in state.players[:3]] == [
        ("Ann", "Bob"), ("Bob", "Ann"), ("Cy", None)]
    assert state.dice_out == ("grey",) and state.player_to_act == "Dee"
    assert game_text(game) == EXAMPLE_2018


def test_a_header_can_bring_a_game_already_under_way():
    header = json.loads(HEADER_2014) | {"leg": 3, "money": {"Ann": 7}, "dice_out": ["blue"]}
    game = read_game([json.dumps(header)])
    assert game.state.leg == 3 and game.state.dice_out == ("blue",)
    assert [(p.name, p.money) for p in game.state.players] == [("Ann", 7), ("Bob", 3), ("Cy", 3)]
    roll_blue = '{"player": "Ann", "action": "roll", "die": "blue", "value": 1}'
    assert str(refusal(json.dumps(header), roll_blue)) == (
        "line 2: the blue die is already out of the pyramid this leg")


def test_keys_the_engine_does_not_know_are_ignored():
    header = json.loads(HEADER_2014) | {"table": "kitchen", "edition_notes": [1, 2]}
    lines = [json.dumps(header),
             '{"player": "Ann", "action": "leg_bet", "camel": "blue", "note": "5 tile"}',
             '{"player": "Bob", "action": "roll", "die": "green", "value": 3, '
             '"seen_at": 12.5, "confidence": 0.93}']
    game = read_game(lines)
    assert game.actions == [LegBet("Ann", "blue"), Roll("Bob", "green", 3)]
    assert game.state == read_game(EXAMPLE_2014.splitlines()[:3]).state


@pytest.mark.parametrize(("line", "reason"), [
    ('{"player": "Ann", "action": "roll", "die": "blue", "value": "2"}',
     '"value" must be a whole number from 1 to 3, not \'2\''),
    ('{"player": "Ann", "action": "roll", "die": "blue", "value": true}',
     '"value" must be a whole number from 1 to 3, not True'),
    ('{"player": "Ann", "action": "roll", "die": "blue", "value": 2.0}',
     '"value" must be a whole number from 1 to 3, not 2.0'),
    ('{"player": "Ann", "action": "roll", "die": "blue", "value": 4}',
     '"value" must be from 1 to 3, not 4'),
    ('{"player": "Ann", "action": "roll", "die": "blue"}', '"value" is missing'),
    ('{"player": "Ann", "action": "roll", "die": "pink", "value": 1}', '"die" must be one of'),
    ('{"player": "Ann", "action": "roll", "die": "grey", "value": 1}', '"die" must be one of'),
    ('{"player": "Ann", "action": "leg_bet", "camel": "pink"}', '"camel" must be one of'),
    ('{"player": "Ann", "action": "leg_bet"}', '"camel" is missing'),
    ('{"player": "Ann", "action": "desert_tile", "space": "6", "side": "oasis"}',
     '"space" must be a whole number from 1 to 16'),
    ('{"player": "Ann", "action": "desert_tile", "space": 17, "side": "oasis"}',
     '"space" must be from 1 to 16, not 17'),
    ('{"player": "Ann", "action": "desert_tile", "space": 6, "side": "booing"}',
     '"side" must be one of oasis, mirage, not \'booing\''),
    ('{"player": "Ann", "action": "race_bet", "pile": "middle", "camel": "blue"}',
     '"pile" must be one of winner, loser, not \'middle\''),
    ('{"player": "Ann", "action": "spectator_tile", "space": 6, "side": "booing"}',
     "camelup-2014 has no action 'spectator_tile'"),
    ('{"player": "Ann", "action": "steal", "camel": "blue"}', "has no action 'steal'"),
    ('{"player": 7, "action": "leg_bet", "camel": "blue"}', '"player" must be a name'),
    ('{"player": "Zed", "action": "leg_bet", "camel": "blue"}', "unknown player 'Zed'"),
])
def test_a_known_key_with_a_bad_value_is_refused_on_its_line(line, reason):
    refused = refusal(HEADER_2014, line)
    assert refused.line_number == 2
    assert str(refused).startswith("line 2: ") and reason in refused.reason


@pytest.mark.parametrize(("line", "reason"), [
    ('{"player": "Ann", "action": "roll", "die": "grey", "value": 2}', '"numeral" is missing'),
    ('{"player": "Ann", "action": "roll", "die": "grey", "value": 2, "numeral": "grey"}',
     '"numeral" must be one of black, white'),
    ('{"player": "Ann", "action": "roll", "die": "red", "value": 2, "numeral": "white"}',
     '"numeral" belongs to the grey die only'),
    ('{"player": "Ann", "action": "leg_bet", "camel": "black"}', "crazy camel"),
    ('{"player": "Ann", "action": "spectator_tile", "space": 6, "side": "oasis"}',
     '"side" must be one of cheering, booing'),
    ('{"player": "Ann", "action": "partnership", "with": "Zed"}', "unknown player 'Zed'"),
])
def test_a_bad_2018_line_is_refused_on_its_line(line, reason):
    refused = refusal(HEADER_2018, line)
    assert refused.line_number == 2 and reason in refused.reason


def test_a_partnership_needs_six_players():
    header = json.loads(HEADER_2018) | {"players": ["Ann", "Bob", "Cy", "Dee", "Eve"]}
    line = '{"player": "Ann", "action": "partnership", "with": "Bob"}'
    assert str(refusal(json.dumps(header), line)) == (
        "line 2: betting partnerships are played only with 6 or more players")


@pytest.mark.parametrize(("change", "reason"), [
    ({"game": "camelup-2016"}, "unknown game 'camelup-2016'"),
    ({"game": None}, "unknown game None"),
    ({"players": "Ann"}, '"players" must be a list'),
    ({"players": ["Ann"]}, "played by 2 to 8 players, not 1"),
    ({"players": ["Ann", "Ann"]}, "names someone twice"),
    ({"start": {"17": ["blue", "green"], "2": ["yellow"], "3": ["orange", "white"]}},
     "space '17' must be a number from 1 to 16"),
    ({"start": {"1": ["blue", "green"], "2": ["yellow"], "3": ["orange"]}},
     "leaves out white"),
    ({"start": {"1": ["blue", "pink"], "2": ["yellow"], "3": ["orange", "white"]}},
     "must be one of"),
    ({"leg": "2"}, '"leg" must be a whole number'),
    ({"money": {"Ann": "7"}}, '"money \'Ann\'" must be a whole number'),
    ({"money": {"Zed": 7}}, "'Zed', who is not among the players"),
    ({"dice_out": ["pink"]}, '"dice_out" must be one of'),
])
def test_a_bad_header_is_refused_on_line_1(change, reason):
    header = json.loads(HEADER_2014) | change
    refused = refusal(json.dumps(header), EXAMPLE_2014.splitlines()[1])
    assert refused.line_number == 1 and reason in refused.reason


def test_line_numbers_count_every_line_of_the_file_blank_ones_included(tmp_path):
    lines = [HEADER_2014, "", '{"player": "Ann", "action": "leg_bet", "camel": "blue"}', "   ",
             '{"player": "Ann", "action": "leg_bet", "camel": "green"}']
    log = tmp_path / "game.jsonl"
    log.write_bytes("\r\n".join(lines).encode())
    with pytest.raises(BadLogLine) as refused:
        load_game(log)
    assert str(refused.value) == f"{log}:5: it is Bob's turn, not Ann's"
    assert refused.value.line_number == 5


def test_a_line_that_is_not_json_is_refused_with_its_number():
    cut_off = '{"player": "Bob", "action": "ro'
    refused = refusal(*EXAMPLE_2014.splitlines()[:2], cut_off)
    assert refused.line_number == 3
    assert str(refused).startswith("line 3: not JSON: ")
    assert " at at " not in str(refused)


def test_a_json_value_that_is_not_an_object_is_refused():
    assert str(refusal(HEADER_2014, '["Ann", "leg_bet", "blue"]')) == (
        "line 2: a game-log line must be a JSON object {...}")
    assert parse_line('{"player": "Ann"}', 7) == {"player": "Ann"}


@pytest.mark.parametrize("text", ["", "\n\n", "  \n"])
def test_an_empty_game_log_is_refused_on_line_1(tmp_path, text):
    log = tmp_path / "game.jsonl"
    log.write_text(text)
    with pytest.raises(BadLogLine) as refused:
        load_game(log)
    assert refused.value.line_number == 1 and "empty" in refused.value.reason


def test_a_file_that_cannot_be_read_is_refused_naming_it(tmp_path):
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")
    for path in (tmp_path / "missing.jsonl", binary, tmp_path):
        with pytest.raises(UnreadableFile) as refused:
            load_game(path)
        assert str(refused.value).startswith(f"cannot read {path}: ")


def test_an_illegal_action_is_refused_naming_its_line_and_the_rule():
    lines = EXAMPLE_2014.splitlines()
    out_of_turn = '{"player": "Ann", "action": "roll", "die": "blue", "value": 1}'
    assert str(refusal(*lines, out_of_turn)) == "line 6: it is Bob's turn, not Ann's"
    tile_on_camels = '{"player": "Bob", "action": "desert_tile", "space": 4, "side": "mirage"}'
    assert str(refusal(*lines, tile_on_camels)) == (
        "line 6: space 4 has camels on it: a desert tile goes on an empty space")


def test_nothing_can_be_logged_after_the_race_has_ended():
    game = random_game(HEADERS["camelup-2014"], seed=0)
    assert game.state.finished
    lines = game_text(game).splitlines()
    late = '{"player": "Ann", "action": "leg_bet", "camel": "blue"}'
    refused = refusal(*lines, late)
    assert refused.line_number == len(lines) + 1 and "the race is over" in refused.reason


def test_game_text_round_trips_whole_random_games():
    for header in HEADERS.values():
        for seed in range(6):
            game = random_game(header, seed)
            text = game_text(game)
            again = read_game(text.splitlines())
            assert again.actions == game.actions
            assert again.state == game.state
            assert game_text(again) == text
            assert len(text.splitlines()) == len(game) + 1


def written_and_read_back(tmp_path, players, **notes):
    """A game with one leg bet for `players`, and what loading its log from a file gives."""
    header = json.loads(HEADER_2014) | {"players": players} | notes
    line = json.dumps({"player": players[0], "action": "leg_bet", "camel": "white"})
    game = read_game([json.dumps(header), line])
    log = tmp_path / "game.jsonl"
    log.write_text(game_text(game), encoding="utf-8")
    return game, load_game(log)


def test_a_game_log_written_to_a_file_reads_back_the_same(tmp_path):
    game, again = written_and_read_back(tmp_path, ["Zoë", "Bob", "Çağla"])
    assert again.state == game.state and game_text(again) == game_text(game)


def test_a_unicode_line_separator_inside_a_string_does_not_split_its_line(tmp_path):
    """JSON allows U+2028 raw in a string and game_text writes it so; it is not a new line."""
    game, again = written_and_read_back(tmp_path, ["Ann", "Bob", "Cy"],
                                        note="first game\u2028of the night")
    assert again.state == game.state and game_text(again) == game_text(game)


def test_a_name_that_would_break_a_line_is_refused():
    header = json.loads(HEADER_2014) | {"players": ["Ann\u2028Marie", "Bob", "Cy"]}
    with pytest.raises(BadLogLine, match="must be a name on one line"):
        read_game([json.dumps(header)])


def test_a_log_is_read_a_line_at_a_time_in_bounded_memory(tmp_path):
    log = tmp_path / "game.jsonl"
    with log.open("w") as out:
        out.write(EXAMPLE_2014)
        out.write("\n" * 1_000_000)
    tracemalloc.start()
    try:
        game = load_game(log)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(game) == len(EXAMPLE_2014.splitlines()) - 1
    assert peak < 500_000, f"reading a log of a million blank lines took {peak / 1e6:.1f} MB"


def test_a_line_longer_than_any_game_log_line_is_refused_without_holding_it(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text(HEADER_2014 + "\n" + " " * (LONGEST_LINE + 10) + "\n")
    with pytest.raises(BadLogLine) as refused:
        load_game(log)
    assert str(refused.value) == (f"{log}:2: longer than {LONGEST_LINE} characters: a game-log "
                                  "line is one header or one action")
