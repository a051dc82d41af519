"""The table loop: one thread owns the game, stores every change first, publishes snapshots."""

import threading

import pytest

from companion.errors import BadHeader, IllegalAction, NothingToUndo
from companion.snapshot import Snapshot
from companion.store import Store
from companion.table import Change, Command, Table, TableClosed
from tests.play import SPREAD_2014, stored_game

HEADER_2014 = SPREAD_2014
ROLL = {"player": "Ann", "action": "roll", "die": "blue", "value": 3}
BET = {"player": "Bob", "action": "leg_bet", "camel": "blue"}
CARD = {"player": "Cy", "action": "race_bet", "pile": "winner", "camel": "green"}


@pytest.fixture
def table(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3")) as table:
        yield table


def test_a_push_is_stored_before_its_snapshot_is_published(table, tmp_path):
    seen = []
    table.when_published.append(
        lambda s: seen.append(len(Store(tmp_path / "game.sqlite3").open_game().game)))
    after = table.push(ROLL)
    assert after.version == 2 and after.game_version == 2
    assert after.view["track"]["4"] == ["blue"]
    assert after.view["history"] == [{"index": 0, "leg": 1, "action": ROLL, "payouts": [],
                                      "correction": None}]
    assert seen == [1]
    assert table.snapshot is after


def test_an_illegal_action_is_refused_in_one_line_and_changes_nothing(table):
    before = table.snapshot
    with pytest.raises(IllegalAction, match="it is Ann's turn, not Bob's"):
        table.push(BET)
    with pytest.raises(IllegalAction, match="a JSON object"):
        table.push(["roll"])
    with pytest.raises(NothingToUndo):
        table.undo()
    with pytest.raises(NothingToUndo):
        table.delete(4)
    assert table.snapshot is before


def test_corrections_are_shown_as_such_from_the_store_records(table):
    table.push(ROLL)
    table.push(BET)
    table.replace(0, {**ROLL, "value": 1})
    table.insert(2, {"player": "Cy", "action": "leg_bet", "camel": "green"})
    table.push({"player": "Ann", "action": "leg_bet", "camel": "green"})
    view = table.undo().view
    assert [e["correction"] and e["correction"]["kind"] for e in view["history"]] == [
        "replace", None, "insert"]
    assert view["history"][0]["correction"]["was"] == ROLL
    assert [(c["kind"], c["index"]) for c in view["corrections"]] == [
        ("replace", 0), ("insert", 2), ("undo", 3)]
    assert view["corrections"][2]["was"] == {"player": "Ann", "action": "leg_bet",
                                             "camel": "green"}
    assert view["track"]["2"] == ["green", "blue"]


def test_a_correction_that_breaks_a_later_action_names_it_and_changes_nothing(table):
    table.push(ROLL)
    table.push({"player": "Bob", "action": "roll", "die": "green", "value": 1})
    before = table.snapshot
    with pytest.raises(IllegalAction, match="action 2"):
        table.replace(0, {"player": "Ann", "action": "roll", "die": "green", "value": 2})
    assert table.snapshot is before


def test_each_history_line_says_what_it_paid(tmp_path):
    lines = [{"player": "Ann", "action": "desert_tile", "space": 6, "side": "oasis"},
             {"player": "Bob", "action": "roll", "die": "yellow", "value": 1}]
    with Table(stored_game(tmp_path / "g.sqlite3", lines=lines)) as table:
        history = table.snapshot.view["history"]
    assert history[1]["payouts"] == [{"player": "Ann", "amount": 1,
                                      "reason": "yellow landed on Ann's desert tile on 6"}]


def test_the_standings_say_what_each_would_win_if_the_leg_ended_now(table):
    table.push({"player": "Ann", "action": "leg_bet", "camel": "yellow"})
    view = table.push({"player": "Bob", "action": "roll", "die": "blue", "value": 3}).view
    assert view["ranking"][:2] == ["white", "yellow"]
    assert view["if_leg_ended"] == [
        {"player": "Ann", "amount": 1, "reason": "leg betting tile yellow 5: came second"},
        {"player": "Bob", "amount": 1, "reason": "pyramid tiles x1"}]


def test_overall_bets_stay_face_down_but_for_their_own_player(tmp_path):
    lines = [ROLL, BET, CARD]
    with Table(stored_game(tmp_path / "g.sqlite3", lines=lines)) as table:
        snap = table.snapshot
    for viewer in (None, "Ann"):
        seen = snap.json_for(viewer)
        assert seen["race_bets"]["winner"] == [{"player": "Cy", "camel": None}]
        assert seen["history"][2]["action"]["camel"] is None
        assert "green" not in snap.text_for(viewer).split('"race_bets"')[1].split("]")[0]
    own = snap.json_for("Cy")
    assert own["race_bets"]["winner"] == [{"player": "Cy", "camel": "green"}]
    assert own["history"][2]["action"] == CARD
    assert snap.view["race_bets"]["winner"] == [{"player": "Cy", "camel": "green"}]


def test_a_viewer_cannot_change_what_another_sees(tmp_path):
    with Table(stored_game(tmp_path / "g.sqlite3", lines=[ROLL, BET, CARD])) as table:
        snap = table.snapshot
    anns = snap.text_for("Ann")
    mine = snap.json_for("Cy")
    mine["turn"] = "Cy"  # a viewer's own copy, to change as it likes
    for change in (lambda: mine["players"][0].update(money=99),
                   lambda: mine["history"][0]["action"].__setitem__("value", 1),
                   lambda: mine["race_bets"]["winner"][0].__setitem__("camel", "blue"),
                   lambda: mine["track"]["4"].append("green"),
                   lambda: snap.view["track"]["4"].append("green"),
                   snap.view["history"].clear,
                   lambda: snap.view.pop("players")):
        with pytest.raises(TypeError, match="a published snapshot cannot be changed"):
            change()
    again = Snapshot(snap.version, snap.game_version, snap.state, snap.view)
    assert again.text_for("Ann") == anns
    assert snap.view["turn"] == "Ann" and snap.view["history"][0]["action"] == ROLL


def test_the_actions_open_do_not_tell_which_cards_a_player_has_laid(tmp_path):
    lines = [{"player": "Ann", "action": "race_bet", "pile": "winner", "camel": "blue"}, BET,
             {"player": "Cy", "action": "leg_bet", "camel": "blue"}]
    with Table(stored_game(tmp_path / "g.sqlite3", lines=lines)) as table:
        snap = table.snapshot
    bets = [a for a in snap.json_for(None)["legal"] if a["action"] == "race_bet"]
    assert bets == [{"player": "Ann", "action": "race_bet", "pile": "winner", "camel": None},
                    {"player": "Ann", "action": "race_bet", "pile": "loser", "camel": None}]
    own = [a["camel"] for a in snap.json_for("Ann")["legal"]
           if a["action"] == "race_bet" and a["pile"] == "winner"]
    assert own == ["green", "orange", "yellow", "white"]


def test_every_card_is_turned_face_up_when_the_race_ends(tmp_path):
    header = {**HEADER_2014, "start": {"1": ["blue"], "2": ["green"], "3": ["orange"],
                                       "4": ["yellow"], "15": ["white"]}}
    lines = [{"player": "Ann", "action": "race_bet", "pile": "winner", "camel": "white"},
             {"player": "Bob", "action": "roll", "die": "white", "value": 2}]
    with Table(stored_game(tmp_path / "g.sqlite3", header, lines)) as table:
        seen = table.snapshot.json_for(None)
    assert seen["finished"]
    assert seen["race_bets"]["winner"] == [{"player": "Ann", "camel": "white"}]
    assert seen["history"][0]["action"]["camel"] == "white"


def test_odds_are_published_for_the_version_they_were_computed_from(table):
    first = table.push(ROLL)
    table.publish_odds(first.version, {"leg": {"blue": [1.0]}})
    odds = table.wait_for_snapshot(after=first.version, timeout=5)
    assert odds.view["odds"] == {"leg": {"blue": [1.0]}}
    assert (odds.version, odds.game_version) == (first.version + 1, first.version)
    after = table.push({"player": "Bob", "action": "leg_bet", "camel": "green"})
    assert after.view["odds"] is None
    table.publish_odds(first.version, {"leg": {}})
    table.publish_odds(after.version, {"leg": {"green": [0.5]}})
    assert table.wait_for_snapshot(after.version, timeout=5).view["odds"] == {
        "leg": {"green": [0.5]}}


def test_a_waiting_reader_wakes_with_the_next_snapshot(table):
    woken = []
    reader = threading.Thread(target=lambda: woken.append(table.wait_for_snapshot(1, 5)))
    reader.start()
    table.push(ROLL)
    reader.join()
    assert woken[0].version == 2
    assert table.wait_for_snapshot(2, timeout=0.01) is None


def test_a_new_kind_of_command_runs_on_the_table_thread(table):
    class Where(Command):
        def run(self, table):
            self.thread = threading.current_thread().name
            assert len(table.stored.game) == 0
            return Change.NOTHING

    where = Where()
    assert table.ask(where) is table.snapshot
    assert where.thread == "table"
    with pytest.raises(RuntimeError, match="only the table's thread"):
        table.stored  # noqa: B018


def test_a_closed_table_refuses_commands_and_wakes_its_readers(tmp_path):
    table = Table(stored_game(tmp_path / "g.sqlite3")).start()
    table.close()
    table.close()
    assert table.is_closed
    assert table.wait_for_snapshot(1, timeout=5) is None
    with pytest.raises(TableClosed):
        table.push(ROLL)


def test_a_table_without_a_game_fails_to_start(tmp_path):
    Store(tmp_path / "empty.sqlite3").close()
    with pytest.raises(Exception, match="holds no game"):
        Table(tmp_path / "empty.sqlite3").start()


def test_a_restarted_table_carries_on_where_it_stopped(tmp_path):
    path = stored_game(tmp_path / "g.sqlite3")
    with Table(path) as table:
        table.push(ROLL)
        table.replace(0, {**ROLL, "value": 2})
    with Table(path) as table:
        view = table.snapshot.view
    assert view["track"]["3"] == ["orange", "blue"]
    assert view["history"][0]["correction"]["kind"] == "replace"


def test_the_advice_does_not_tell_which_cards_the_player_to_act_has_laid(table):
    first = table.push(ROLL)
    advice = {"leg": {}, "actions": [
        {"action": {"player": "Bob", "action": "race_bet", "pile": "winner", "camel": "blue"},
         "ev": 1.5},
        {"action": {"player": "Bob", "action": "leg_bet", "camel": "blue"}, "ev": 1.0}]}
    table.publish_odds(first.version, advice)
    snap = table.wait_for_snapshot(first.version, timeout=5)
    assert [a["action"]["action"] for a in snap.json_for(None)["odds"]["actions"]] == ["leg_bet"]
    assert snap.json_for("Bob")["odds"] == advice


def test_act_plays_for_whoever_is_to_act_when_it_runs(table):
    table.push(ROLL)
    after = table.act({"action": "leg_bet", "camel": "green"})
    assert after.view["history"][-1]["action"] == {"player": "Bob", "action": "leg_bet",
                                                   "camel": "green"}


def test_act_after_the_race_is_over_is_refused(tmp_path):
    header = {**HEADER_2014, "start": {"16": ["blue"], "1": ["green"], "2": ["orange"],
                                       "3": ["yellow"], "4": ["white"]}}
    with (Table(stored_game(tmp_path / "over.sqlite3", header, [ROLL])) as table,
          pytest.raises(IllegalAction, match="the race is over")):
        table.act({"action": "leg_bet", "camel": "green"})


def test_a_notice_reaches_every_page_without_touching_the_game(table):
    before = table.snapshot
    table.announce("NO button: no reading is waiting for OK or NO")
    shown = table.wait_for_snapshot(before.version, timeout=5)
    assert shown.game_version == before.game_version
    assert shown.view["notice"]["text"] == "NO button: no reading is waiting for OK or NO"
    assert shown.view["notice"]["id"] == 1


def test_a_new_game_is_stored_and_played_from_then_on(table, tmp_path):
    table.push(ROLL)
    header = {**HEADER_2014, "players": ["Zoe", "Yan"]}
    after = table.new_game(header)
    assert after.view["history"] == [] and after.view["turn"] == "Zoe"
    with Store(tmp_path / "game.sqlite3") as store:
        assert [len(store.open_game(g.id).game) for g in store.games()] == [1, 0]


def test_a_bad_new_game_is_refused_and_the_game_goes_on(table):
    table.push(ROLL)
    before = table.snapshot
    with pytest.raises(BadHeader, match="players"):
        table.new_game({**HEADER_2014, "players": ["Zoe"]})
    assert table.snapshot is before


def test_an_empty_store_starts_the_first_game_it_is_given(tmp_path):
    with Table(tmp_path / "new.sqlite3", first_game=HEADER_2014) as table:
        assert table.snapshot.view["players"][0]["name"] == "Ann"
    with Table(tmp_path / "new.sqlite3", first_game={**HEADER_2014, "players": ["X", "Y"]}) \
            as table:
        assert table.snapshot.view["players"][0]["name"] == "Ann"


def test_the_heartbeat_runs_on_the_table_thread_while_idle(tmp_path):
    beats = []
    with Table(stored_game(tmp_path / "game.sqlite3"), beat_time=0.02) as table:
        table.heartbeat.append(lambda: beats.append(threading.current_thread().name))
        deadline = threading.Event()
        deadline.wait(0.3)
    assert len(beats) >= 3 and set(beats) == {"table"}
