"""Talking to systemd: ready, status and the watchdog, with no package beyond the standard
library (the sd_notify protocol is one datagram on a Unix socket).

The watchdog is fed from the table's heartbeat while the dashboard answers and the camera's
thread is alive, so systemd restarts the service when the thread that owns the game, the web
server or the camera's thread stops answering; a camera that is missing is not a reason.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Sequence

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
    """Feeds systemd's watchdog at half its interval, when called from the table's heartbeat
    (so only while the table's thread answers) and only while each of `checks` finds what it
    watches alive: a check returns None, or why not.

    `interval` is the watchdog's time in seconds: from $WATCHDOG_USEC when systemd set it for
    this process, else None and feeding does nothing.
    """

    def __init__(self, interval: float | None = None, *,
                 checks: Sequence[Callable[[], str | None]] = ()) -> None:
        self.interval = watchdog_interval() if interval is None else interval
        self.checks = list(checks)
        self._fed = 0.0
        self._starved_for: str | None = None

    def feed(self) -> None:
        if not self.interval:
            return
        now = time.monotonic()
        if now - self._fed < self.interval / 2:
            return
        why = next((why for check in self.checks if (why := check()) is not None), None)
        if why is not None:
            if why != self._starved_for:
                log.error("systemd's watchdog is not fed, so it restarts the service: %s", why)
            self._starved_for = why
            return
        self._starved_for = None
        notify("WATCHDOG=1")
        self._fed = now


def answers_http(host: str, port: int, timeout: float = 2.0) -> str | None:
    """None when the web server listening on `host`:`port` answers a request within `timeout`
    seconds, else why not: the watchdog's check of the dashboard."""
    host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(b"HEAD /api/state HTTP/1.0\r\n\r\n")
            answer = sock.recv(5)
    except OSError as e:
        return f"the dashboard does not answer ({e})"
    if answer != b"HTTP/":
        return "the dashboard's answer is not HTTP"
    return None


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
