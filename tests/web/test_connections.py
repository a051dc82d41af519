"""No one on the network stops the table by holding connections, and phones that come and go
never use up the live streams. Real sockets to the real server, on loopback only."""

import json
import socket
import time
import urllib.request

from tests.web.conftest import PIN, ROLL
from web import create_app
from web.server import Server


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def post_roll(url):
    request = urllib.request.Request(url + "api/actions", data=json.dumps(ROLL).encode(),
                                     headers={"Content-Type": "application/json",
                                              "X-Table-Pin": PIN})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, time.perf_counter() - started


def test_a_pin_action_is_answered_while_200_idle_and_slow_connections_are_open(table):
    with Server(create_app(table, {"PIN": PIN}), host="127.0.0.1", port=0, streams=4) as server:
        held = [connect(server.port) for _ in range(100)]
        for _ in range(100):
            slow = connect(server.port)
            slow.sendall(b"POST /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Table-")
            held.append(slow)
        try:
            status, took = post_roll(server.url)
        finally:
            for sock in held:
                sock.close()
    print(f"\nwith 100 idle and 100 slow connections open: the PIN action answered in "
          f"{1000 * took:.0f} ms")
    assert status == 200
    assert table.snapshot.view["history"][0]["action"] == ROLL


def test_more_connections_than_the_limit_never_keep_a_pin_action_out(table):
    app = create_app(table, {"PIN": PIN})
    with Server(app, host="127.0.0.1", port=0, streams=4, connections=40) as server:
        stream, status = first_event(server.port, "a-page")
        assert status == b"200"
        held = [connect(server.port) for _ in range(120)]
        try:
            status, took = post_roll(server.url)
            assert stream.recv(65536)  # the live stream is never what is closed for room
        finally:
            for sock in [*held, stream]:
                sock.close()
    print(f"\nwith 120 idle connections against a limit of 40: the PIN action answered in "
          f"{1000 * took:.0f} ms")
    assert status == 200


def first_event(port, page):
    """A live stream of `page` opened on a socket, read up to its first snapshot."""
    sock = connect(port)
    sock.sendall(f"GET /api/events?page={page} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    received = b""
    while b"\nid: " not in received and b" 429 " not in received[:20]:
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return sock, received.split(b" ", 2)[1]


def test_a_page_that_comes_back_takes_over_its_old_streams_place(table):
    app = create_app(table, {"PIN": PIN, "MAX_STREAMS": 2})
    with Server(app, host="127.0.0.1", port=0, streams=2) as server:
        dropped = [first_event(server.port, page)[0] for page in ("a", "b")]
        refused, status = first_event(server.port, "c")
        assert status == b"429"
        again = [first_event(server.port, page) for page in ("a", "b")]
        assert [status for _, status in again] == [b"200", b"200"]
        assert app.extensions["streams"].count == 2
        for sock in [*dropped, refused, *(s for s, _ in again)]:
            sock.close()


def test_a_page_closed_gives_its_place_back_at_once(table):
    app = create_app(table, {"PIN": PIN, "MAX_STREAMS": 1, "KEEPALIVE_TIME": 600.0})
    streams = app.extensions["streams"]
    with Server(app, host="127.0.0.1", port=0, streams=1) as server:
        sock, status = first_event(server.port, "gone")
        assert status == b"200" and streams.count == 1
        sock.close()
        for _ in range(100):
            if streams.count == 0:
                break
            time.sleep(0.05)
        assert streams.count == 0
        sock, status = first_event(server.port, "next")
        assert status == b"200"
        sock.close()
