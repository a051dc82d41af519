"""Waiting in a test for what another thread does: the table's next snapshot that shows it, or
any condition; the test fails, saying what it waited for, once the time is up."""

import time

WAIT = 60.0
"""Seconds a test waits before it gives up: far past what a loaded machine takes."""


def wait_until(table, done, timeout=WAIT):
    """The first snapshot for which `done` holds; fails the test after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    snapshot = table.snapshot
    while not done(snapshot):
        left = deadline - time.monotonic()
        assert left > 0, (f"gave up waiting; the table shows {snapshot.view['notice']}, "
                          f"the readings {snapshot.view['readings']}")
        snapshot = table.wait_for_snapshot(snapshot.version, left) or table.snapshot
    return snapshot


def eventually(condition, timeout=WAIT):
    """Wait until `condition()` holds, something that happens without a new snapshot."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.02)
