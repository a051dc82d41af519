"""Talking to systemd: ready, status and the watchdog, with no package beyond the standard
library (the sd_notify protocol is one datagram on a Unix socket).

The watchdog is fed from the table's heartbeat, so systemd restarts the service only when the
one thread that owns the game stops answering; a camera that is missing or stuck is the
camera's business (companion.camera), never a reason to restart.
"""

from __future__ import annotations

import logging
import os
import socket
import time

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    """Send `message` ("READY=1", "STATUS=...", "WATCHDOG=1") to systemd, if it listens.

    Returns whether it was sent: outside a `Type=notify` service there is no $NOTIFY_SOCKET
    and nothing is done.
    """
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as e:
        log.warning("could not tell systemd %r: %s", message, e)
        return False
    return True


class Watchdog:
    """Feeds systemd's watchdog at half its interval, when called from the table's heartbeat.

    `interval` is the watchdog's time in seconds: from $WATCHDOG_USEC when systemd set it for
    this process, else None and feeding does nothing.
    """

    def __init__(self, interval: float | None = None) -> None:
        self.interval = watchdog_interval() if interval is None else interval
        self._fed = 0.0

    def feed(self) -> None:
        if not self.interval:
            return
        now = time.monotonic()
        if now - self._fed >= self.interval / 2:
            notify("WATCHDOG=1")
            self._fed = now


def watchdog_interval() -> float | None:
    """systemd's watchdog time for this process in seconds, or None when there is none."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 1_000_000
    except ValueError:
        return None
