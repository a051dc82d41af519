"""A long night at a full table: 50 pages open, 1,000 actions, every page told each one,
in flat memory; then PIN actions beside 200 idle connections and 200 pollers.

Starts `camel-companion serve` (no odds) on 127.0.0.1 in a temporary directory, opens 50
Server-Sent Events streams to it, then logs rolls with the PIN, each followed by an undo (so
the race never ends and the corrections, shown on every page, grow all night): 500 rolls and
500 undos by default. For every roll it times, at each page, the arrival of the snapshot that
carries it, from the moment the roll was sent (so its store write is included), and checks
that every page got every snapshot published. It reads the server's resident memory before
the pages open, once they are open, every 100 actions and at the end. Last, it opens 200
connections that send nothing, then 200 keep-alive pollers, and times PIN actions beside
each. Loopback only, bounded in count and time; prints figures, asserts nothing.
Run: .venv/bin/python bench/web.py [CLIENTS] [ROLLS]   (default: 50 clients, 500 rolls)
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

SCRIPT = Path(sys.executable).with_name("camel-companion")
PIN = "1357"
HEADER = {"game": "camelup-2014", "players": ["Ann", "Bob", "Cy", "Dee"],
          "start": {"1": ["blue"], "2": ["green"], "3": ["orange"], "4": ["yellow"],
                    "5": ["white"]}}
DICE = ["blue", "green", "orange", "yellow", "white"]
WAIT = 5.0
"""Seconds a roll's snapshot may take to reach every page before it counts as missing."""


class Page:
    """One phone's live stream, read on its own thread: when each snapshot version arrived."""

    def __init__(self, port: int) -> None:
        self.arrived: dict[int, float] = {}
        self.lock = threading.Condition()
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(b"GET /api/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self) -> None:
        stream = self.sock.makefile("rb")
        try:
            for line in stream:
                if line.startswith(b"id: "):
                    now = time.perf_counter()
                    with self.lock:
                        self.arrived[int(line[4:])] = now
                        self.lock.notify_all()
        except OSError:
            return

    def wait_for(self, version: int, deadline: float) -> bool:
        with self.lock:
            return self.lock.wait_for(lambda: version in self.arrived,
                                      max(0.0, deadline - time.perf_counter()))

    def close(self) -> None:
        self.sock.close()


def post(port: int, path: str, body: dict | None) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method="POST", data=json.dumps(body or {}).encode(),
        headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def resident_mb(pid: int) -> tuple[float, float]:
    """The process's resident memory now and at its peak, in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text()
                  .splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def main(clients: int, rolls: int) -> None:
    rng = random.Random(5)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "bench.jsonl"
        log.write_text(json.dumps(HEADER) + "\n")
        server = subprocess.Popen(
            [str(SCRIPT), "serve", str(log), "--host", "127.0.0.1", "--port", str(port),
             "--pin", PIN, "--no-odds", "--streams", str(clients + 4)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            for _ in range(2):
                server.stdout.readline()
            start_mb = resident_mb(server.pid)[0]
            pages = [Page(port) for _ in range(clients)]
            deadline = time.perf_counter() + 30
            connected = sum(p.wait_for(1, deadline) for p in pages)
            open_mb = resident_mb(server.pid)[0]
            latencies: list[float] = []
            posts: list[float] = []
            published: list[int] = []
            along: list[tuple[int, float]] = []
            missing = 0
            started = time.perf_counter()
            for _ in range(rolls):
                for path, line in (("/api/actions", "roll"), ("/api/undo", None)):
                    body = None
                    if line:
                        body = {"player": "Ann", "action": "roll", "die": rng.choice(DICE),
                                "value": rng.randint(1, 3)}
                    sent = time.perf_counter()
                    state = post(port, path, body)
                    posts.append(time.perf_counter() - sent)
                    version = state["version"]
                    published.append(version)
                    deadline = time.perf_counter() + WAIT
                    for page in pages:
                        if not page.wait_for(version, deadline):
                            missing += 1
                            continue
                        if line:
                            latencies.append(page.arrived[version] - sent)
                    if len(published) % 100 == 0:
                        along.append((len(published), resident_mb(server.pid)[0]))
            night = time.perf_counter() - started
            end_mb, peak_mb = resident_mb(server.pid)
            got_all = sum(all(v in p.arrived for v in published) for p in pages)
            snapshot_kb = len(json.dumps(state)) / 1024
            for page in pages:
                page.close()
            beside_idle = pin_actions_beside_idle_connections(port, rng)
            beside_pollers = pin_actions_beside_pollers(port, rng)
        finally:
            server.terminate()
            server.communicate(timeout=30)
    ms = sorted(1000 * x for x in latencies)
    print(f"{connected}/{clients} pages connected; {rolls} rolls, each undone after: "
          f"{len(published)} actions in {night:.0f} s, the last snapshot {snapshot_kb:.0f} kB")
    if ms:
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        print(f"roll sent -> its snapshot at each page: p50 {statistics.median(ms):.1f} ms, "
              f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} arrivals)")
    print(f"the POST's own round trip (store write included): p50 "
          f"{1000 * statistics.median(posts):.1f} ms")
    print(f"pages that got every snapshot: {got_all}/{clients}; arrivals missing: {missing}")
    print(f"server resident memory: {start_mb:.0f} MB at the start, {open_mb:.0f} MB with "
          f"{clients} pages open, {end_mb:.0f} MB at the end (peak {peak_mb:.0f} MB); along the "
          f"night: " + ", ".join(f"{n}: {mb:.0f}" for n, mb in along))
    print(f"beside 200 connections that send nothing: a PIN action answered in p50 "
          f"{beside_idle[0]:.1f} ms, max {beside_idle[1]:.1f} ms (20 actions)")
    print(f"beside 200 keep-alive pollers of /api/state ({beside_pollers[2]} polls answered): "
          f"a PIN action answered in p50 {beside_pollers[0]:.1f} ms, max "
          f"{beside_pollers[1]:.1f} ms (20 actions)")


def pin_actions_beside_idle_connections(port: int, rng: random.Random) -> tuple[float, float]:
    """Hold 200 connections that send nothing, time 20 PIN actions: median and max, in ms."""
    idle = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(200)]
    try:
        took = timed_pin_actions(port, rng)
    finally:
        for sock in idle:
            sock.close()
    return statistics.median(took), max(took)


def timed_pin_actions(port: int, rng: random.Random, count: int = 20) -> list[float]:
    """`count` PIN actions, rolls and undos in turn: how long each took to answer, in ms."""
    took = []
    for n in range(count):
        body = {"player": "Ann", "action": "roll", "die": rng.choice(DICE),
                "value": rng.randint(1, 3)} if n % 2 == 0 else None
        sent = time.perf_counter()
        post(port, "/api/actions" if body else "/api/undo", body)
        took.append(1000 * (time.perf_counter() - sent))
    return took


def pin_actions_beside_pollers(port: int, rng: random.Random) -> tuple[float, float, int]:
    """200 threads polling the state on keep-alive connections as fast as they are answered;
    20 PIN actions timed beside them: median and max in ms, and the polls answered."""
    stop = threading.Event()
    polls = [0]

    def poll() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            while not stop.is_set():
                connection.request("GET", "/api/state")
                connection.getresponse().read()
                polls[0] += 1
        except OSError:
            return
        finally:
            connection.close()

    pollers = [threading.Thread(target=poll, daemon=True) for _ in range(200)]
    for poller in pollers:
        poller.start()
    time.sleep(1.0)
    try:
        took = timed_pin_actions(port, rng)
    finally:
        stop.set()
        for poller in pollers:
            poller.join(timeout=30)
    return statistics.median(took), max(took), polls[0]


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50,
         int(sys.argv[2]) if len(sys.argv) > 2 else 500)
