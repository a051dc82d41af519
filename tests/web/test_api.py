"""The JSON API: every route, and every way a call can be refused without changing anything."""

import json

import pytest

from companion.gamelog import read_game
from companion.table import Change, Command
from tests.web.conftest import HEADER, PIN, ROLL, csrf
from web import create_app

WITH_PIN = {"X-Table-Pin": PIN}
BET = {"player": "Bob", "action": "leg_bet", "camel": "green"}


def version(client):
    return client.get("/api/state").json["version"]


def test_the_state_has_every_replay_field_and_what_the_page_needs(client, table):
    state = client.get("/api/state")
    assert state.status_code == 200
    assert state.mimetype == "application/json"
    game = read_game([json.dumps(HEADER)])
    replay = game.rules.state_json(game.state)
    assert {k: state.json[k] for k in replay} == replay
    assert {"version", "history", "corrections", "legal", "if_leg_ended", "pieces", "odds",
            "camera"} <= set(state.json)
    assert state.json["history"] == []
    assert state.json["camera"] == {"on": False}
    assert state.headers["Cache-Control"] == "no-store"


def test_an_action_with_the_pin_in_a_header_is_played_and_answered_with_the_new_state(client):
    answer = client.post("/api/actions", json=ROLL, headers=WITH_PIN)
    assert answer.status_code == 200
    assert answer.json["track"]["4"] == ["blue"]
    assert answer.json["history"][0]["action"] == ROLL
    assert client.get("/api/state").json == answer.json


def test_a_trusted_phone_plays_with_its_session_and_csrf_token(host):
    client, headers = host
    answer = client.post("/api/actions", json=ROLL, headers=headers)
    assert answer.status_code == 200, answer.json
    assert answer.json["turn"] == "Bob"


@pytest.mark.parametrize(("method", "path"), [
    ("post", "/api/actions"), ("post", "/api/undo"), ("put", "/api/actions/0"),
    ("post", "/api/actions/0"), ("delete", "/api/actions/0"), ("put", "/api/viewer")])
def test_a_watcher_cannot_change_anything(client, method, path):
    before = version(client)
    answer = getattr(client, method)(path, json=ROLL, headers={"X-CSRF-Token": csrf(client)})
    assert answer.status_code == 401
    assert "PIN" in answer.json["error"]
    assert version(client) == before


def test_a_session_call_without_its_csrf_token_is_refused(host):
    client, _ = host
    before = version(client)
    for token in (None, "forged"):
        headers = {} if token is None else {"X-CSRF-Token": token}
        answer = client.post("/api/actions", json=ROLL, headers=headers)
        assert answer.status_code == 403
        assert "X-CSRF-Token" in answer.json["error"]
    assert version(client) == before


def test_a_call_from_another_site_is_refused_even_with_the_pin(client):
    answer = client.post("/api/actions", json=ROLL,
                         headers={**WITH_PIN, "Origin": "http://evil.example"})
    assert answer.status_code == 403
    assert "another site" in answer.json["error"]
    same = client.post("/api/actions", json=ROLL, headers={**WITH_PIN, "Origin": "http://localhost"})
    assert same.status_code == 200


def test_a_wrong_pin_is_refused_and_too_many_make_every_try_wait(client):
    for _ in range(5):
        answer = client.post("/api/actions", json=ROLL, headers={"X-Table-Pin": "0000"})
        assert answer.status_code == 403
        assert answer.json["error"].startswith("wrong PIN")
        assert answer.json["key"] == "request.wrong_pin"
    locked = client.post("/api/actions", json=ROLL, headers=WITH_PIN)
    assert locked.status_code == 429
    assert "wait 6" in locked.json["error"] or "wait 61" in locked.json["error"]
    assert locked.json["key"] == "request.pin_wait"
    assert locked.json["params"]["seconds"] in (60, 61)
    other = client.post("/api/actions", json=ROLL, headers=WITH_PIN,
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200
    assert client.get("/api/state").json["version"] == 2


def test_the_wrong_pin_limit_lifts_after_its_window(table):
    now = [0.0]
    app = create_app(table, {"PIN": PIN, "PIN_TRIES": 2, "PIN_WINDOW": 10.0,
                             "CLOCK": lambda: now[0]})
    client = app.test_client()
    for _ in range(2):
        client.post("/api/undo", headers={"X-Table-Pin": "1"})
    assert client.post("/api/undo", headers=WITH_PIN).status_code == 429
    now[0] = 10.5
    assert client.post("/api/actions", json=ROLL, headers=WITH_PIN).status_code == 200


def test_guessers_at_many_addresses_never_lock_out_the_right_pin_elsewhere(table):
    app = create_app(table, {"PIN": PIN, "PIN_TRIES": 2})
    client = app.test_client()
    for n in range(200):
        client.post("/api/undo", headers={"X-Table-Pin": f"{n:06d}"},
                    environ_base={"REMOTE_ADDR": f"10.0.0.{n % 4}"})
    answer = client.post("/api/actions", json=ROLL, headers=WITH_PIN,
                         environ_base={"REMOTE_ADDR": "10.0.1.1"})
    assert answer.status_code == 200, answer.json
    guesser = client.post("/api/undo", headers=WITH_PIN, environ_base={"REMOTE_ADDR": "10.0.0.0"})
    assert guesser.status_code == 429


def test_a_guesser_waits_twice_as_long_after_each_wrong_pin_past_the_limit(table):
    now = [0.0]
    app = create_app(table, {"PIN": PIN, "PIN_TRIES": 2, "PIN_WINDOW": 10.0,
                             "CLOCK": lambda: now[0]})
    client = app.test_client()
    waits = []
    for _ in range(4):
        assert client.post("/api/undo", headers={"X-Table-Pin": "1"}).status_code == 403
        waits.append(app.extensions["pin_guard"].wait_time("127.0.0.1"))
        now[0] += waits[-1]
    assert waits == [0.0, 10.0, 20.0, 40.0]
    assert client.post("/api/actions", json=ROLL, headers=WITH_PIN).status_code == 200
    assert app.extensions["pin_guard"].wait_time("127.0.0.1") == 0.0


def test_an_ipv6_guesser_is_one_address_however_many_of_its_64_it_uses(table):
    app = create_app(table, {"PIN": PIN, "PIN_TRIES": 2})
    client = app.test_client()
    for n in range(2):
        client.post("/api/undo", headers={"X-Table-Pin": "1"},
                    environ_base={"REMOTE_ADDR": f"2001:db8::{n + 1}"})
    same_64 = client.post("/api/undo", headers=WITH_PIN,
                          environ_base={"REMOTE_ADDR": "2001:db8::ffff:1"})
    assert same_64.status_code == 429
    other_64 = client.post("/api/actions", json=ROLL, headers=WITH_PIN,
                           environ_base={"REMOTE_ADDR": "2001:db8:0:1::1"})
    assert other_64.status_code == 200


@pytest.mark.parametrize(("body", "kind", "status", "refused"), [
    ('{"player": "Ann", "action": "roll", "die": "blue", "value": 4}', "application/json", 422,
     ('"value" must be from 1 to 3, not 4', {})),
    ('{"player": "Bob", "action": "leg_bet", "camel": "blue"}', "application/json", 422,
     ("it is Ann's turn, not Bob's",
      {"key": "refusal.turn", "params": {"turn": "Ann", "player": "Bob"}})),
    ('{"player": "Ann", "action": "fly"}', "application/json", 422,
     ("has no action 'fly'", {})),
    ("{not json", "application/json", 400, ("not valid JSON", {})),
    ('["roll"]', "application/json", 400, ("must be a JSON object", {})),
    ('{"player": "Ann"}', "text/plain", 415, ("Content-Type: application/json", {})),
    ("", "application/json", 400, ("not valid JSON", {})),
])
def test_a_bad_action_is_refused_in_one_line_and_changes_nothing(client, body, kind, status,
                                                                   refused):
    """A refusal a page can meet also names its sentence in every language; what only a
    script can send is answered in English alone."""
    error, words = refused
    before = client.get("/api/state").json
    answer = client.post("/api/actions", data=body, content_type=kind, headers=WITH_PIN)
    assert answer.status_code == status
    said = answer.json
    assert error in said.pop("error")
    assert said == words
    assert client.get("/api/state").json == before


def test_a_body_too_large_is_refused(client):
    answer = client.post("/api/actions", data="{" + " " * 70000 + "}",
                         content_type="application/json", headers=WITH_PIN)
    assert answer.status_code == 413
    assert "error" in answer.json


@pytest.mark.parametrize("lines", [[ROLL, BET]])
def test_undo_takes_back_the_last_action(client):
    answer = client.post("/api/undo", headers=WITH_PIN)
    assert answer.status_code == 200
    assert [h["action"] for h in answer.json["history"]] == [ROLL]
    assert answer.json["corrections"][0]["kind"] == "undo"
    assert answer.json["corrections"][0]["was"] == BET


def test_undo_with_nothing_played_is_refused(client):
    answer = client.post("/api/undo", headers=WITH_PIN)
    assert answer.status_code == 409
    assert answer.json == {"error": "there is nothing to undo: no action has been played",
                           "key": "refusal.nothing_to_undo", "params": {}}


@pytest.mark.parametrize("lines", [[ROLL, BET]])
def test_a_past_roll_is_corrected_and_shown_as_corrected(client):
    answer = client.put("/api/actions/0", json={**ROLL, "value": 1}, headers=WITH_PIN)
    assert answer.status_code == 200
    assert answer.json["track"]["2"] == ["green", "blue"]
    entry = answer.json["history"][0]
    assert entry["action"]["value"] == 1
    assert entry["correction"]["kind"] == "replace"
    assert entry["correction"]["was"] == ROLL
    assert answer.json["history"][1]["correction"] is None


@pytest.mark.parametrize("lines", [[ROLL, {"player": "Bob", "action": "roll", "die": "green",
                                           "value": 1}]])
def test_a_correction_that_breaks_a_later_action_is_refused_naming_it(client):
    before = client.get("/api/state").json
    answer = client.put("/api/actions/0", json={**ROLL, "die": "green"}, headers=WITH_PIN)
    assert answer.status_code == 422
    assert answer.json == {
        "error": "that would make action 2 illegal: the green die is already out of the "
                 "pyramid this leg",
        "key": "refusal.breaks_later",
        "params": {"number": 2, "reason": {"key": "refusal.die_out",
                                           "params": {"die": "green"}}}}
    assert client.get("/api/state").json == before


@pytest.mark.parametrize("lines", [[ROLL, BET]])
def test_a_past_action_is_deleted_and_the_rest_replayed(client):
    answer = client.delete("/api/actions/1", headers=WITH_PIN)
    assert answer.status_code == 200
    assert [h["action"] for h in answer.json["history"]] == [ROLL]
    assert answer.json["corrections"][-1] == {**answer.json["corrections"][-1],
                                              "kind": "delete", "index": 1, "was": BET}


@pytest.mark.parametrize("lines", [[ROLL]])
def test_a_forgotten_action_is_inserted(client):
    answer = client.post("/api/actions/0", json={"player": "Ann", "action": "leg_bet",
                                                 "camel": "blue"}, headers=WITH_PIN)
    assert answer.status_code == 422
    assert "it is Bob's turn" in answer.json["error"]
    answer = client.post("/api/actions/1", json=BET, headers=WITH_PIN)
    assert answer.status_code == 200
    assert answer.json["history"][1]["correction"]["kind"] == "insert"


@pytest.mark.parametrize(("method", "path"), [
    ("put", "/api/actions/5"), ("delete", "/api/actions/5"), ("post", "/api/actions/5")])
def test_an_action_that_is_not_there_is_refused(client, method, path):
    answer = getattr(client, method)(path, json=ROLL, headers=WITH_PIN)
    assert answer.status_code == 409
    assert "the game has 0" in answer.json["error"]


def test_unknown_routes_and_methods_answer_json(client):
    assert client.get("/api/nothing").status_code == 404
    assert "error" in client.get("/api/nothing").json
    assert client.delete("/api/actions/-1", headers=WITH_PIN).status_code == 404
    wrong = client.get("/api/actions")
    assert wrong.status_code == 405
    assert "error" in wrong.json
    assert "POST" in wrong.headers["Allow"]


@pytest.mark.parametrize("lines", [[ROLL, BET, {"player": "Cy", "action": "race_bet",
                                                "pile": "loser", "camel": "orange"}]])
def test_overall_bets_are_masked_for_every_viewer_but_their_own_player(client):
    anyone = client.get("/api/state").json
    assert anyone["race_bets"]["loser"] == [{"player": "Cy", "camel": None}]
    assert anyone["history"][2]["action"]["camel"] is None
    assert client.get("/api/state", headers=WITH_PIN).json == anyone
    csrf_headers = {"X-CSRF-Token": csrf(client)}
    assert client.post("/api/pin", json={"pin": PIN, "player": "Cy"},
                       headers=csrf_headers).status_code == 200
    own = client.get("/api/state").json
    assert own["race_bets"]["loser"] == [{"player": "Cy", "camel": "orange"}]
    assert client.put("/api/viewer", json={"player": "Bob"},
                      headers=csrf_headers).json["player"] == "Bob"
    assert client.get("/api/state").json["race_bets"]["loser"][0]["camel"] is None


def test_ok_turns_the_oldest_waiting_reading_into_the_roll(table, client):
    table.see({"die": "blue", "value": 2, "confidence": 0.4})
    answer = client.post("/api/pending/accept", json={}, headers=WITH_PIN)
    assert answer.status_code == 200
    assert answer.json["pending"] == []
    assert answer.json["history"][-1]["action"]["die"] == "blue"


def test_ok_with_a_correction_rolls_what_the_person_tapped(table, client):
    waiting = table.see({"die": "blue", "value": 5, "confidence": 0.95}).view["pending"][0]
    answer = client.post("/api/pending/accept", headers=WITH_PIN,
                         json={"id": waiting["id"], "die": "green", "value": 1})
    assert answer.json["history"][-1]["action"] == {"player": "Ann", "action": "roll",
                                                    "die": "green", "value": 1}


def test_no_sets_the_reading_aside(table, client):
    table.see({"die": None, "value": None, "confidence": 0.1})
    answer = client.post("/api/pending/reject", headers=WITH_PIN)
    assert answer.json["pending"] == [] and answer.json["readings"][0]["outcome"] == "rejected"


@pytest.mark.parametrize(("path", "body", "status", "error"), [
    ("/api/pending/accept", {}, 422, "no reading is waiting for OK or NO"),
    ("/api/pending/reject", {}, 422, "no reading is waiting for OK or NO"),
    ("/api/pending/accept", {"id": "3"}, 400, '"id" must be the number of a waiting reading'),
    ("/api/pending/reject", {"id": 99}, 422, "no reading is waiting for OK or NO"),
])
def test_ok_and_no_refuse_what_is_not_waiting(client, path, body, status, error):
    answer = client.post(path, json=body, headers=WITH_PIN)
    assert answer.status_code == status and answer.json["error"].startswith(error)


def test_ok_for_a_reading_that_is_not_the_waiting_one_is_refused(table, client):
    table.see({"die": "blue", "value": 2, "confidence": 0.4})
    answer = client.post("/api/pending/accept", json={"id": 99}, headers=WITH_PIN)
    assert answer.status_code == 422
    assert answer.json["error"] == "reading 99 is not waiting: it was settled already"
    assert len(table.snapshot.view["pending"]) == 1


def test_watchers_cannot_answer_a_waiting_reading(table, client):
    table.see({"die": "blue", "value": 2, "confidence": 0.4})
    assert client.post("/api/pending/accept", json={}).status_code in (401, 403)
    assert len(table.snapshot.view["pending"]) == 1


class FillTheDisk(Command):
    """What a full SD card does to the store: no page more can be written."""

    def __init__(self, full: bool) -> None:
        self.full = full

    def run(self, table):
        db = table.stored.store.db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count={pages if self.full else 10**6}")
        return Change.NOTHING


def test_a_full_disk_answers_503_in_one_line_and_changes_nothing(client, table):
    table.ask(FillTheDisk(True))
    answers = []
    for _ in range(60):
        answer = client.post("/api/actions", json=ROLL, headers=WITH_PIN)
        answers.append(answer)
        if answer.status_code != 200:
            break
        client.post("/api/undo", headers=WITH_PIN)
    refused = answers[-1]
    assert refused.status_code == 503
    assert refused.json["error"].startswith("the store could not keep this (database or disk "
                                            "is full): nothing changed")
    before = client.get("/api/state").json
    assert client.post("/api/undo", headers=WITH_PIN).status_code in (409, 503)
    assert client.get("/api/state").json == before
    table.ask(FillTheDisk(False))
    assert client.post("/api/actions", json=ROLL, headers=WITH_PIN).status_code == 200
