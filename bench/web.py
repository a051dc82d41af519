"""The live stream under a full table and more: 50 pages open, a roll, every page told at once.

Starts `camel-companion serve` (no odds) on 127.0.0.1 in a temporary directory, opens 50
Server-Sent Events streams to it, then logs rolls with the PIN (each followed by an undo, so
the race never ends). For every roll it times, at each page, the arrival of the snapshot
that carries it, from the moment the roll was sent (so its store write is included), and
checks that every page got every snapshot published. Then it reads the server's resident
memory while it holds the streams. Loopback only, bounded in count and time; prints figures,
asserts nothing.
Run: .venv/bin/python bench/web.py [CLIENTS] [ROLLS]   (default: 50 clients, 60 rolls)
"""

from __future__ import annotations

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
            idle_mb = resident_mb(server.pid)[0]
            pages = [Page(port) for _ in range(clients)]
            deadline = time.perf_counter() + 30
            connected = sum(p.wait_for(1, deadline) for p in pages)
            latencies: list[float] = []
            posts: list[float] = []
            published: list[int] = []
            missing = 0
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
            held_mb, peak_mb = resident_mb(server.pid)
            got_all = sum(all(v in p.arrived for v in published) for p in pages)
            for page in pages:
                page.close()
        finally:
            server.terminate()
            server.communicate(timeout=30)
    ms = sorted(1000 * x for x in latencies)
    print(f"{connected}/{clients} pages connected; {rolls} rolls, each undone after "
          f"({len(published)} snapshots)")
    if ms:
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        print(f"roll sent -> its snapshot at each page: p50 {statistics.median(ms):.1f} ms, "
              f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} arrivals)")
    print(f"the POST's own round trip (store write included): p50 "
          f"{1000 * statistics.median(posts):.1f} ms")
    print(f"pages that got every snapshot: {got_all}/{clients}; arrivals missing: {missing}")
    print(f"server resident memory: {idle_mb:.0f} MB before the pages, {held_mb:.0f} MB holding "
          f"{clients} streams (peak {peak_mb:.0f} MB)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50,
         int(sys.argv[2]) if len(sys.argv) > 2 else 60)
