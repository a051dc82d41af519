"""A writer process killed mid-game, for the crash and power-cut tests: it pushes a game into a
store and prints `ready N` once open, `ack N` after each change it made, `done` at the end."""

import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start_writer(script, path, edition, seed, env=None):
    """The writer `script` started on the store at `path`, with its output piped."""
    return subprocess.Popen([sys.executable, "-c", script, str(path), edition, str(seed)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def kill_after(writer, acks, pause, *, timeout):
    """Let the writer acknowledge `acks` changes (fewer if it stops first), wait `pause`
    seconds (somewhere inside the next write) and SIGKILL it.

    Returns the number it acknowledged, counting acks still in the pipe at the kill.
    """
    try:
        ready = writer.stdout.readline()
        assert ready.startswith("ready"), writer.communicate()[1]
        printed = [ready]
        for _ in range(acks):
            line = writer.stdout.readline()
            if not line.startswith("ack"):
                break
            printed.append(line)
        if pause:
            time.sleep(pause)
        writer.send_signal(signal.SIGKILL)
        out, _ = writer.communicate(timeout=timeout)
    finally:
        writer.kill()
        writer.wait()
    assert writer.returncode in (-signal.SIGKILL, 0)
    return acknowledged(printed + out.splitlines(keepends=True))


def acknowledged(lines):
    """How many changes the writer said were stored, from everything it printed: whole lines
    only, since the kill may cut the last one short ("ack 1" of "ack 12", or "ack ")."""
    acks = [int(line.split()[1]) for line in lines
            if line.startswith("ack ") and line.endswith("\n")]
    return max(acks, default=0)
