"""The live stream: Server-Sent Events, each message one whole snapshot as this viewer sees it.

A page that connects, or reconnects, gets the current snapshot at once, then every newer one;
being whole, a snapshot needs nothing before it. An idle stream sends a comment line now and
then so a phone that went away is noticed and its thread freed.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterator
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app

from web.auth import viewer
from web.context import current_table

bp = Blueprint("events", __name__, url_prefix="/api")

RETRY_MS = 2000
"""How soon a browser reconnects after the stream drops."""


class Streams:
    """How many long-lived responses are open: each holds one of the server's threads."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self._lock = threading.Lock()

    def open(self) -> None:
        with self._lock:
            if self.count >= self.limit:
                abort(429, f"too many pages are open ({self.count}): close one and reload")
            self.count += 1

    def close(self) -> None:
        with self._lock:
            self.count -= 1


def init_app(app: Flask) -> None:
    app.extensions["streams"] = Streams(app.config["MAX_STREAMS"])


class Held:
    """A long-lived response body counted as open until the server closes it.

    WSGI servers call `close()` on the body whether or not they ever iterated it, so the
    count is given back even when a phone goes away before its first byte.
    """

    def __init__(self, body: Generator[bytes, None, None], streams: Streams) -> None:
        self.body, self.streams = body, streams
        self._is_closed = False

    def __iter__(self) -> Iterator[bytes]:
        return self.body

    def close(self) -> None:
        if not self._is_closed:
            self._is_closed = True
            self.body.close()
            self.streams.close()


@bp.get("/events")
def events() -> Any:
    """Every snapshot from now on, as `text/event-stream`; the first is the current one."""
    table, player = current_table(), viewer().player
    keepalive = current_app.config["KEEPALIVE_TIME"]
    streams: Streams = current_app.extensions["streams"]
    streams.open()

    def snapshots() -> Iterator[bytes]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        last = -1
        while not table.is_closed:
            snapshot = table.wait_for_snapshot(last, keepalive)
            if snapshot is None:
                yield b": still here\n\n"
                continue
            last = snapshot.version
            yield f"id: {last}\ndata: {snapshot.text_for(player)}\n\n".encode()

    return Response(Held(snapshots(), streams), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
