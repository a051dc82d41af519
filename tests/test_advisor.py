"""The advisor keeps the table's odds fresh from a worker process."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.advisor import Advisor
from companion.game import Game
from companion.odds import odds_json
from companion.table import Table
from tests.play import stored_game
from tests.test_table import ROLL

RACES = 2_000


def odds_of(table: Table, game_version: int, wait: float = 30.0):
    """The odds published for `game_version`, waiting for the worker."""
    deadline = time.monotonic() + wait
    seen = 0
    while time.monotonic() < deadline:
        snapshot = table.wait_for_snapshot(seen, timeout=deadline - time.monotonic())
        if snapshot is None:
            break
        seen = snapshot.version
        if snapshot.game_version == game_version and snapshot.view["odds"] is not None:
            return snapshot
    pytest.fail(f"no odds for game version {game_version} within {wait} s")


@pytest.fixture
def table(tmp_path):
    with Table(stored_game(tmp_path / "game.sqlite3")) as table:
        yield table


def test_the_odds_of_each_new_position_arrive_after_it_without_holding_it_up(table):
    with Advisor(table, races=RACES):
        first = odds_of(table, table.snapshot.game_version)
        assert first.view["odds"] == odds_json(first.state, races=RACES)
        rolled = table.push(ROLL)
        assert rolled.view["odds"] is None
        second = odds_of(table, rolled.game_version)
        assert second.view["odds"] == odds_json(rolled.state, races=RACES)
        assert second.view["history"] == rolled.view["history"]


def test_a_burst_of_positions_ends_with_the_odds_of_the_newest(table):
    with Advisor(table, races=RACES):
        table.push(ROLL)
        table.push({"player": "Bob", "action": "leg_bet", "camel": "blue"})
        last = table.push({"player": "Cy", "action": "roll", "die": "green", "value": 1})
        assert odds_of(table, last.game_version).view["odds"] == odds_json(last.state,
                                                                           races=RACES)


def test_closing_the_advisor_twice_is_safe_and_leaves_the_table_running(table):
    advisor = Advisor(table, races=RACES)
    advisor.close()
    advisor.close()
    assert table.push(ROLL).view["odds"] is None


def test_the_worker_answers_each_position_in_turn_until_its_requests_end():
    import io

    from companion.advisor import _receive, _send, serve_odds
    from tests.play import HEADERS

    state = Game(HEADERS["camelup-2014"]).state
    requests = io.BytesIO()
    _send(requests, ("camelup-2014", state, RACES))
    _send(requests, ("last-camel", state, RACES))
    _send(requests, ("camelup-2014", "not a state", RACES))
    requests.seek(0)
    answers = io.BytesIO()
    serve_odds(requests, answers)
    answers.seek(0)
    assert _receive(answers) == ("odds", odds_json(state, races=RACES))
    assert _receive(answers) == ("odds", None)
    kind, text = _receive(answers)
    assert kind == "error" and "Traceback" in text
    with pytest.raises(EOFError):
        _receive(answers)


def test_the_worker_loads_the_odds_and_nothing_of_the_table():
    from tests.play import HEADERS

    code = ("import io, json, sys; from companion import advisor; from companion.game import Game;"
            "r = io.BytesIO(); advisor._send(r, ('camelup-2018', Game(json.loads(sys.argv[1]))"
            ".state, 200)); r.seek(0); advisor.serve_odds(r, io.BytesIO());"
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(HEADERS["camelup-2018"])],
                          capture_output=True, text=True, check=True, timeout=60)
    loaded = set(json.loads(done.stdout))
    assert "companion.odds" in loaded
    assert not loaded & {"companion.table", "companion.store", "sqlite3", "flask", "cv2"}


def test_a_worker_that_dies_is_started_again_for_the_next_position(table):
    with Advisor(table, races=RACES) as advisor:
        odds_of(table, table.snapshot.game_version)
        advisor._worker.kill()
        rolled = table.push(ROLL)
        assert odds_of(table, rolled.game_version).view["odds"] == odds_json(rolled.state,
                                                                            races=RACES)


def children_of(pid):
    """The live (not zombie) processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_serve_killed_outright_leaves_no_odds_worker_behind(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text((Path(__file__).parents[1] / "examples" / "camelup-2018.jsonl").read_text())
    serve = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", str(log),
                              "--port", "0", "--host", "127.0.0.1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (workers := children_of(serve.pid)):
            assert time.monotonic() < deadline and serve.poll() is None, "no odds worker"
            time.sleep(0.05)
        serve.send_signal(signal.SIGKILL)
        serve.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{w}").exists() and state_of(w) != "Z"
                  for w in workers):
            assert time.monotonic() < deadline, f"worker(s) {workers} outlived their parent"
            time.sleep(0.05)
    finally:
        serve.kill()
        serve.wait()


def state_of(pid):
    """A process's state letter (Z: ended, waiting to be reaped); Z once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
