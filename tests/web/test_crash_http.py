"""Kill `camel-companion serve` at random while phones and the camera change the game: every
change it acknowledged is there when it is started again, nothing is half there, and the game
it serves is the one that was being played (a new game started from a phone included).

The server is the real `serve` command; its table's camera is one that reads its readings,
one JSON line each, from stdin and acknowledges each on stdout once stored, as the camera's
readings are acknowledged at a real table. One driver sends actions, undos, corrections,
readings, OKs and NOs and new games, one at a time; now and then it sends one and SIGKILLs the
server a moment later, without waiting for the answer. Loopback only.
"""

import contextlib
import http.client
import json
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.web.conftest import HEADER

ROOT = Path(__file__).resolve().parents[2]
PIN = "246813"
DICE = ["blue", "green", "orange", "yellow", "white"]

HARNESS = """
import json, sys, threading
import companion.serve
from companion.cli import main
from companion.table import Table


class CameraOnStdin(Table):
    '''A table whose camera's readings come one JSON line each on stdin.'''

    def start(self):
        super().start()
        threading.Thread(target=self.watch, daemon=True).start()
        return self

    def watch(self):
        for line in sys.stdin:
            try:
                text = self.see(json.loads(line)).text_for(None)
            except Exception as e:
                print("refused", " ".join(str(e).split()), flush=True)
                continue
            print("ack", text, flush=True)


companion.serve.Table = CameraOnStdin
sys.exit(main(sys.argv[1:]))
"""


def fingerprint(state):
    """What must survive: the game, its actions, its corrections, its readings."""
    return (state["game"], [p["name"] for p in state["players"]],
            [h["action"] for h in state["history"]], len(state["corrections"]),
            [(r["id"], r["outcome"]) for r in state["readings"]])


class Served:
    """`serve` started in a folder, with its camera on stdin."""

    def __init__(self, folder):
        # on a port the operating system picks each time (--port 0): a port chosen beforehand,
        # or the last one kept for the next start, may be taken meanwhile by another test or
        # another pytest-xdist worker
        self.process = subprocess.Popen(
            [sys.executable, "-c", HARNESS, "serve", str(folder / "game.jsonl"), "--host",
             "127.0.0.1", "--port", "0", "--pin", PIN, "--no-odds"],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        lines = [self.process.stdout.readline() for _ in range(2)]
        assert "the table's PIN is" in lines[1], (lines, self.process.stderr.read())
        self.first_line = lines[0]
        self.url = lines[1].split("open ")[1].split(" ")[0].rstrip("/")

    def call(self, method, path, body=None):
        """The state the server answered, or None for a refusal."""
        request = urllib.request.Request(
            f"{self.url}{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as e:
            assert e.code < 500, (method, path, body, e.code, e.read())
            return None

    def see(self, reading):
        self.process.stdin.write(json.dumps(reading) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        return json.loads(line[4:]) if line.startswith("ack ") else None

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.communicate(timeout=30)


def a_change(state, rng):
    """One change a phone or the camera might make now: (kind, how to make it)."""
    history, legal = state["history"], state["legal"]
    pending = state["pending"]
    kinds = ["push"] * 5 + ["undo", "replace", "reading", "reading", "new game"]
    if pending:
        kinds += ["accept", "reject"] * 2
    kind = rng.choice(kinds)
    if kind == "push" or (kind in ("undo", "replace") and not history):
        action = rng.choice(legal) if legal else None
        if action is None:
            return "new game", ("POST", "/api/games",
                                {"game": "camelup-2014", "players": ["Ann", "Bob"]})
        if action["action"] == "roll":
            action = {**action, "die": rng.choice(state["dice_in_pyramid"]),
                      "value": rng.randint(1, 3)}
        return "push", ("POST", "/api/actions", action)
    if kind == "undo":
        return "undo", ("POST", "/api/undo", {})
    if kind == "replace":
        index = rng.randrange(len(history))
        return "replace", ("PUT", f"/api/actions/{index}", history[index]["action"])
    if kind == "reading":
        die = rng.choice(state["dice_in_pyramid"] or DICE)
        return "reading", {"die": die, "value": rng.randint(1, 3),
                           "confidence": rng.choice([0.97, 0.5])}
    if kind == "new game":
        players = rng.sample(["Ann", "Bob", "Cy", "Dee"], rng.randint(2, 4))
        return "new game", ("POST", "/api/games", {"game": "camelup-2014", "players": players})
    return kind, ("POST", f"/api/pending/{kind}", {})


def make(served, change):
    kind, how = change
    return served.see(how) if kind == "reading" else served.call(*how)


def send_unanswered(served, change):
    """Make `change` while the server is killed under it: no answer is expected."""
    with contextlib.suppress(OSError, ValueError, http.client.HTTPException):
        make(served, change)


def one_change_further(before, after, change):
    """Whether `after` is `before` with `change` made whole (the change in flight at the kill,
    which the store may have kept)."""
    kind, how = change
    game, players, actions, corrections, readings = before
    if kind == "push":
        return after == (game, players, [*actions, how[2]], corrections, readings)
    if kind == "undo":
        return after == (game, players, actions[:-1], corrections + 1, readings)
    if kind == "replace":
        return after == (game, players, actions, corrections + 1, readings)
    if kind == "new game":
        return after[2:] == ([], 0, []) and after[1] == how[2]["players"]
    if kind == "reading":
        new = after[4][-1] if len(after[4]) == len(readings) + 1 else None
        grew = len(after[2]) == len(actions) + (new is not None and new[1] == "accepted")
        return new is not None and after[4][:-1] == readings and grew \
            and after[2][:len(actions)] == actions
    if kind == "accept":
        return len(after[2]) == len(actions) + 1 and after[2][:-1] == actions
    return after[2] == actions and len(after[4]) == len(readings)


@pytest.mark.slow
def test_every_acknowledged_change_survives_random_kills_of_serve(tmp_path):
    (tmp_path / "game.jsonl").write_text(json.dumps(HEADER) + "\n")
    rng = random.Random(7)
    served = Served(tmp_path)
    acked_state = served.call("GET", "/api/state")
    kills, acknowledged, lost, in_flight_kept = 0, 0, 0, 0
    try:
        while kills < 15:
            change = a_change(acked_state, rng)
            if rng.random() < 0.12:
                sender = threading.Thread(target=send_unanswered, args=(served, change),
                                          daemon=True)
                sender.start()
                time.sleep(rng.uniform(0, 0.012))
                served.kill()
                sender.join(timeout=30)
                kills += 1
                served = Served(tmp_path)
                assert "carrying on" in served.first_line
                now = served.call("GET", "/api/state")
                before, after = fingerprint(acked_state), fingerprint(now)
                if after != before:
                    assert one_change_further(before, after, change), (change, before, after)
                    in_flight_kept += 1
                if len(after[2]) < len(before[2]) and change[0] not in ("undo", "new game"):
                    lost += 1
                acked_state = now
                continue
            answer = make(served, change)
            if answer is not None:
                acknowledged += 1
                acked_state = served.call("GET", "/api/state")
                assert fingerprint(acked_state) == fingerprint(answer), change
    finally:
        served.process.kill()
        served.process.communicate(timeout=30)
    print(f"\nkills survived: {kills}, changes acknowledged: {acknowledged}, lost: {lost}, "
          f"changes in flight at a kill that were kept whole: {in_flight_kept}")
    assert lost == 0
    assert acknowledged > 40
