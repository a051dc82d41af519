"""Every route fuzzed as an attacker on the table's network would: no answer is a 5xx, and a
refused call changes nothing, neither the table's state nor a byte of the store.

Hypothesis draws the method, the route (every rule of the app, its parts filled in at random),
the headers (the PIN right or wrong, a CSRF token, an Origin, text that is no text) and the
body (legal actions, near misses, JSON nested thousands deep, numbers of thousands of digits,
lone surrogates, bytes that are not UTF-8). Legal calls go through, so the fuzz walks through
many positions of a game. One more test sends raw bytes that no client library would to the
server itself, on loopback.
"""

import json
import socket
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import PIN
from web import create_app
from web.server import Server

METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
COLOURS = ["blue", "green", "orange", "yellow", "white", "red", "grey", "\ud800", ""]
PLAYERS = ["Ann", "Bob", "Cy", "Eve", "\udcff", None]
WEIRD_TEXT = st.sampled_from(["\ud800", "\udcff\udcfe", "x\x00y", "\u2028", "é" * 3, "∞", " "])


def actions() -> st.SearchStrategy:
    """Actions near the game log's form: many legal, most a field or a type away."""
    value = st.one_of(st.integers(-5, 20), st.sampled_from([10**12, True, None, 1.5, "3", [],
                                                            {}]))
    return st.fixed_dictionaries(
        {"player": st.sampled_from(PLAYERS),
         "action": st.sampled_from(["roll", "leg_bet", "desert_tile", "race_bet",
                                    "pyramid_ticket", "fly", "\ud800"])},
        optional={"die": st.sampled_from(COLOURS), "camel": st.sampled_from(COLOURS),
                  "value": value, "space": value, "side": st.sampled_from(["oasis", "mirage"]),
                  "bet": st.sampled_from(["winner", "loser"]), "id": value, "pin": st.one_of(
                      st.just(PIN), st.text(max_size=8), WEIRD_TEXT),
                  "players": st.lists(st.sampled_from(PLAYERS), max_size=4),
                  "game": st.sampled_from(["camelup-2014", "camelup-2018", "chess"])})


def bodies() -> st.SearchStrategy:
    """A request body as bytes."""
    deep = st.integers(30, 6000).map(lambda n: b"[" * n + b"]" * n)
    deep_object = st.integers(30, 3000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n)
    digits = st.integers(4000, 6000).map(lambda n: b'{"value": ' + b"7" * n + b"}")
    surrogate = st.sampled_from([b'{"player": "\\ud800", "action": "roll"}',
                                 b'{"pin": "\\udcff"}', b'{"\\ud800": 1}', b'["\\ud800"]',
                                 b'{"value": NaN}', b'{"value": -Infinity}'])
    not_utf8 = st.sampled_from([b'{"player": "\xed\xa0\x80"}', b"\xff\xfe{}", b"\x80"])
    legal = actions().map(lambda a: json.dumps(a, ensure_ascii=True).encode())
    return st.one_of(legal, legal, legal, deep, deep_object, digits, surrogate, not_utf8,
                     st.binary(max_size=64), st.just(b""), st.just(b"null"))


def headers() -> st.SearchStrategy:
    pin = st.sampled_from([PIN, PIN, "0000", "", "\ud800", " " + PIN, PIN + "\x00"])
    return st.fixed_dictionaries({}, optional={
        "X-Table-Pin": pin, "X-CSRF-Token": st.one_of(st.text(max_size=8), WEIRD_TEXT),
        "Origin": st.sampled_from(["http://localhost", "http://evil.example", "http://[",
                                   "\ud800", "null", ""]),
        "Content-Type": st.sampled_from(["application/json", "application/json; charset=latin1",
                                         "text/plain", "application/json\ud800"]),
        "Accept-Language": st.sampled_from(["fr", "*", "\ud800", "en;q=x", ";;;"]),
        "Cookie": st.sampled_from(["camel_companion=forged", "lang=\ud800", "lang=fr", "=;"]),
        "Last-Event-ID": WEIRD_TEXT})


def part() -> st.SearchStrategy:
    """What fills a rule's <part>: numbers in and out of range, and names."""
    return st.one_of(st.integers(0, 12).map(str), st.just(str(10**30)), st.just("-1"),
                     st.sampled_from(["markers", "exposure", "colours", "save", "points",
                                      "%ED%A0%80", "x" * 300]))


def legal(view):
    """The actions open now, a roll given its die and value as the pyramid would."""
    dice = view.get("dice_in_pyramid") or ["blue"]
    return [({**a, "die": d, "value": v} if a["action"] == "roll" else a)
            for a in view["legal"] for d in dice[:2] for v in (1, 3)]


CHANGE = st.tuples(
    st.sampled_from(["push", "push", "push", "undo", "replace", "insert", "delete", "game",
                     "accept", "reject"]),
    st.integers(0, 10**6), st.integers(0, 10**6),
    st.lists(st.sampled_from(["Ann", "Bob", "Cy", "Dee", "Eve"]), min_size=1, max_size=5,
             unique=True))
"""What a person with the PIN might do; drawn whatever the game, then fitted to it."""


def a_change(view, drawn):
    """`drawn` (from CHANGE) as a call on the game `view` shows: most legal, some off."""
    kind, pick, at, players = drawn
    options = legal(view)
    action = options[pick % len(options)] if options else {"action": "roll"}
    index = at % (len(view["history"]) + 2)
    body = json.dumps(action).encode()
    if kind == "push":
        return "POST", "/api/actions", body
    if kind == "undo":
        return "POST", "/api/undo", b"{}"
    if kind in ("replace", "insert"):
        return ("PUT" if kind == "replace" else "POST"), f"/api/actions/{index}", body
    if kind == "delete":
        return "DELETE", f"/api/actions/{index}", b""
    if kind == "game":
        return "POST", "/api/games", json.dumps({"game": "camelup-2014",
                                                 "players": players}).encode()
    return "POST", f"/api/pending/{kind}", b"{}"


def rule_paths(app):
    paths = []
    for rule in app.url_map.iter_rules():
        parts = [name for name in rule.arguments]
        paths.append((rule.rule, parts))
    return sorted(paths)


def store_bytes(path):
    """Everything the store holds, as its rows: compared before and after a refusal."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return (db.execute("SELECT * FROM games").fetchall(),
                db.execute("SELECT * FROM records").fetchall())
    finally:
        db.close()


@pytest.mark.slow
def test_no_route_answers_5xx_and_a_refusal_changes_nothing(table, tmp_path):
    app = create_app(table, {"PIN": PIN, "SECRET_KEY": "fuzz", "PIN_TRIES": 10**9})
    client = app.test_client()
    routes = rule_paths(app)
    sent, server_errors, refused = [0], [], [0]

    @settings(max_examples=700, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(method=st.sampled_from(METHODS), route=st.sampled_from(routes),
           parts=st.lists(part(), min_size=2, max_size=2), query=st.sampled_from(
               ["", "?lang=fr", "?page=abc", "?page=" + "x" * 100, "?page=%ED%A0%80",
                "?lang=%ED%A0%80"]),
           head=headers(), body=bodies(), play=st.booleans(), change=CHANGE)
    def call(*, method, route, parts, query, head, body, play, change):
        rule, names = route
        path = rule
        for name, value in zip(names, parts, strict=False):
            path = path.replace(f"<int:{name}>", value).replace(f"<{name}>", value)
        if play:
            method, path, body = a_change(table.snapshot.view, change)
            head = {**head, "X-Table-Pin": PIN, "Content-Type": "application/json"}
            head.pop("Origin", None)
        version = table.snapshot.version
        rows = store_bytes(table.store_path)
        try:
            response = client.open(path + query, method=method, data=body, headers=head,
                                   buffered=False)
        except (UnicodeError, ValueError):
            return  # a request the client library itself will not build or send
        sent[0] += 1
        try:
            if response.mimetype not in ("text/event-stream", "multipart/x-mixed-replace"):
                response.get_data()
        finally:
            response.close()
        if response.status_code >= 500:
            server_errors.append((method, path + query, head, body[:80], response.status_code,
                                  response.get_data()[:200]))
        if response.status_code >= 400:
            refused[0] += 1
            assert table.snapshot.version == version, (method, path, body[:80])
            assert store_bytes(table.store_path) == rows, (method, path, body[:80])
            if method != "HEAD":
                error = json.loads(response.get_data())["error"]
                assert error and "\n" not in error

    call()
    print(f"\nfuzzed requests sent: {sent[0]}, refused: {refused[0]}, "
          f"5xx: {len(server_errors)}; snapshots published: {table.snapshot.version}")
    assert server_errors == []
    assert sent[0] >= 300
    assert table.snapshot.version > 20


RAW = [
    b"POST /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Table-Pin: \xed\xa0\x80\r\n"
    b"Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    b"POST /api/pin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Origin: http://[\xed\xa0\x80\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    b"GET /?lang=%ED%A0%80 HTTP/1.1\r\nHost: \xed\xa0\x80\r\nAccept-Language: \xff\xfe\r\n"
    b"Cookie: lang=\xed\xa0\x80; camel_companion=\xff\r\nConnection: close\r\n\r\n",
    b"GET /api/events?page=%ED%A0%80 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    b"POST /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Table-Pin: " + PIN.encode() +
    b"\r\nContent-Type: application/json\r\nContent-Length: 6000\r\nConnection: close\r\n\r\n"
    + b"[" * 3000 + b"]" * 3000,
    b"POST /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Table-Pin: " + PIN.encode() +
    b"\r\nContent-Type: application/json\r\nContent-Length: 17\r\nConnection: close\r\n\r\n"
    b'{"player": "\xed\xa0\x80"}',
]


def answer_status(port, request):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
            if request.startswith(b"GET /api/events") and b"\r\n\r\n" in received:
                break
    return int(received.split(b" ", 2)[1]), received


@pytest.mark.parametrize("request_bytes", RAW)
def test_bytes_no_client_would_send_are_answered_4xx_or_served_never_5xx(table, request_bytes):
    app = create_app(table, {"PIN": PIN})
    with Server(app, host="127.0.0.1", port=0, streams=2) as server:
        version = table.snapshot.version
        status, received = answer_status(server.port, request_bytes)
    assert status < 500, received[:300]
    if status >= 400:
        assert table.snapshot.version == version
