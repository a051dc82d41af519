"""The PIN: entering it trusts a phone, which may say which player it is; a new PIN ends it."""

from tests.web.conftest import PIN, ROLL, csrf, unlock
from web import create_app


def test_a_new_phone_is_a_watcher_with_a_csrf_token(client):
    who = client.get("/api/viewer").json
    assert who["trusted"] is False and who["player"] is None
    assert len(who["csrf"]) > 20
    assert client.get("/api/viewer").json["csrf"] == who["csrf"]


def test_the_right_pin_trusts_the_phone_as_the_player_it_names(client):
    headers = {"X-CSRF-Token": csrf(client)}
    answer = client.post("/api/pin", json={"pin": PIN, "player": "Bob"}, headers=headers)
    assert answer.status_code == 200
    assert answer.json["trusted"] is True and answer.json["player"] == "Bob"
    assert client.get("/api/viewer").json["player"] == "Bob"
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_a_wrong_pin_leaves_the_phone_a_watcher(client):
    answer = client.post("/api/pin", json={"pin": "1111"},
                         headers={"X-CSRF-Token": csrf(client)})
    assert answer.status_code == 403
    assert client.get("/api/viewer").json["trusted"] is False


def test_the_pin_form_refuses_what_it_cannot_read(client):
    headers = {"X-CSRF-Token": csrf(client)}
    assert client.post("/api/pin", json={"pin": 2468}, headers=headers).status_code == 400
    answer = client.post("/api/pin", json={"pin": PIN, "player": "Zed"}, headers=headers)
    assert answer.status_code == 400
    assert "Ann, Bob, Cy" in answer.json["error"]
    assert (answer.json["key"], answer.json["params"]) == (
        "request.not_playing", {"players": "Ann, Bob, Cy", "player": "'Zed'"})
    assert client.get("/api/viewer").json["trusted"] is False
    assert client.post("/api/pin", json={"pin": PIN}).status_code == 403


def test_a_phone_can_change_the_player_it_is_and_lock_itself_again(client):
    headers = unlock(client, "Ann")
    assert client.put("/api/viewer", json={"player": None}, headers=headers).json["player"] is None
    assert client.put("/api/viewer", json={"player": "Zed"}, headers=headers).status_code == 400
    locked = client.delete("/api/pin", headers=headers)
    assert locked.json["trusted"] is False
    assert client.post("/api/actions", json=ROLL, headers=headers).status_code == 401


def test_trust_ends_when_the_table_gets_a_new_pin(client, table):
    unlock(client)
    cookie = client.get_cookie("camel_companion")
    other = create_app(table, {"PIN": "9999", "SECRET_KEY": "test key"}).test_client()
    other.set_cookie("camel_companion", cookie.value)
    assert other.get("/api/viewer").json["trusted"] is False
    same = create_app(table, {"PIN": PIN, "SECRET_KEY": "test key"}).test_client()
    same.set_cookie("camel_companion", cookie.value)
    assert same.get("/api/viewer").json["trusted"] is True


def test_an_app_without_a_pin_makes_one_up(table, caplog):
    app = create_app(table)
    pin = app.config["PIN"]
    assert len(pin) == 6 and pin.isdigit()
    assert pin in caplog.text
