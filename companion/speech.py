"""The table speaks (optional, off by default): what the camera read and what happened, aloud,
in the table's language.

Players look at the board, not at a phone. With `[speech] enabled = true` an `Announcer`
follows the table's snapshots and says each die or card as it is taken ("Blue, two."), a
reading that waits for a person ("Check the roll: the camera is not sure."), a board the camera
sees that the game does not ("The board and the game disagree on space 4."), the end of a leg
("Leg over: Ann wins five.") and of the race. A `Speaker` says a line: `Espeak` through
espeak-ng (the Debian and Raspberry Pi OS package `espeak-ng`), one line after another on a
thread of its own, so the table never waits on it and a speaker that fails never stops a game;
`Recorder`, the stand-in, keeps what would have been said (tests, a machine with no audio).
"""

from __future__ import annotations

import logging
import queue
import subprocess
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

log = logging.getLogger(__name__)

#: the longest a line may take to say before espeak-ng is given up on for it
SAY_TIME = 20.0


class Speaker:
    """Says lines aloud, or as its stand-in keeps them."""

    def say(self, line: str) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Stop, after the line being said; lines not yet said are dropped."""


class Recorder(Speaker):
    """The stand-in: every line it was given to say, in order."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, line: str) -> None:
        self.said.append(line)


class Espeak(Speaker):
    """espeak-ng speaking `voice` (a language: en, fr, de), one line after another on its own
    thread: `say` returns at once. A line espeak-ng cannot say is logged, once, and dropped."""

    def __init__(self, voice: str, *, command: Sequence[str] = ("espeak-ng",)) -> None:
        self.voice = voice
        self.command = list(command)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._warned = False
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._thread.start()

    def say(self, line: str) -> None:
        self._lines.put(line)

    def close(self) -> None:
        while not self._lines.empty():
            self._lines.get_nowait()
        self._lines.put(None)
        self._thread.join(SAY_TIME)

    def _run(self) -> None:
        while (line := self._lines.get()) is not None:
            try:
                done = subprocess.run([*self.command, "-v", self.voice, line],
                                      capture_output=True, timeout=SAY_TIME, check=False)
                failed = done.returncode != 0 and done.stderr.decode(errors="replace").strip()
            except (OSError, subprocess.TimeoutExpired) as e:
                failed = str(e)
            if failed and not self._warned:
                log.warning("the table cannot speak: %s", failed)
                self._warned = True


def lines(before: Mapping[str, Any], after: Mapping[str, Any],
          words: Mapping[str, str]) -> list[str]:
    """What to say for the table going from snapshot view `before` to `after`, in `words`
    (one language's words of the dashboard: `speech.*`, and `colour.*` for the camels)."""
    said = []
    played = len(before["history"])
    if after["history"][:played] != before["history"]:
        return []          # an undo, a correction, a new game: nothing new happened at the table
    new = after["history"][played:]
    for entry in new:
        action = entry["action"]
        name = action.get("die") or (action.get("camel") if action["action"] == "reveal"
                                     else None)
        if name is not None and action.get("value") is not None:
            said.append(words["speech.roll"].format(
                die=words.get(f"colour.{name}", name).capitalize(), value=action["value"]))
    if after["leg"] != before["leg"] or (after["finished"] and not before["finished"]):
        won: Counter[str] = Counter()
        for entry in new:
            if entry["leg"] == before["leg"]:
                for payout in entry["payouts"]:
                    won[payout["player"]] += payout["amount"]
        if won and max(won.values()) > 0:
            player, amount = won.most_common(1)[0]
            said.append(words["speech.leg"].format(player=player, amount=amount))
        else:
            said.append(words["speech.leg_nobody"])
    if after["finished"] and not before["finished"]:
        said.append(words["speech.race"].format(winners=", ".join(after.get("winners") or [])))
    waiting = {r["id"] for r in before["pending"]}
    if any(r["id"] not in waiting for r in after["pending"]):
        said.append(words["speech.pending"])
    alert, shown = after.get("board"), before.get("board")
    if alert is not None and (shown is None or shown["id"] != alert["id"]):
        spaces = [str(d["space"]) for d in alert["disagreements"]]
        said.append(words["speech.board" if len(spaces) == 1 else "speech.board_spaces"]
                    .format(spaces=", ".join(spaces)))
    return said


class Announcer:
    """Follows `table`'s snapshots on a thread of its own and gives `speaker` what to say
    (`lines`) in `words`. A context manager; closing it closes the speaker."""

    def __init__(self, table: Any, speaker: Speaker, words: Mapping[str, str]) -> None:
        self.table = table
        self.speaker = speaker
        self.words = words
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="announcer", daemon=True)

    def __enter__(self) -> Announcer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._thread.join()
        self.speaker.close()

    def _run(self) -> None:
        last = self.table.snapshot
        while not self._stopping.is_set():
            now = self.table.wait_for_snapshot(last.version, timeout=0.5)
            if now is None:
                if self.table.is_closed:
                    return
                continue
            for line in lines(last.view, now.view, self.words):
                self.speaker.say(line)
            last = now
