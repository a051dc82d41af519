"""The live stream: Server-Sent Events, each message one whole snapshot as this viewer sees it.

A page that connects, or reconnects, gets the current snapshot at once, then every newer one;
being whole, a snapshot needs nothing before it. A page that closes gives its place back at
once; a phone whose Wi-Fi dropped comes back with the same `?page=` and takes over its own
stream's place instead of waiting for the dead one to be noticed; an idle stream sends a
comment line now and then so a phone that went away without a word is noticed too.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, request

from web.auth import viewer
from web.context import current_table

bp = Blueprint("events", __name__, url_prefix="/api")

RETRY_MS = 2000
"""How soon a browser reconnects after the stream drops."""
LOOK_TIME = 1.0
"""Seconds between a stream's looks at whether its page went away or came back elsewhere."""
PAGE_ID = 64
"""Characters a page's `?page=` may have."""
HANG_UP = "camel_companion.hang_up"
"""Where the server puts, in each request's environ, what ends that request's connection
(from any thread): a taken-over stream stuck writing to a dead phone is freed by it."""


class Place:
    """One open long-lived response's place; `is_taken_over` once its page opened another."""

    def __init__(self, streams: Streams, page: str | None,
                 hang_up: Callable[[], None] | None = None) -> None:
        self.streams, self.page, self.hang_up = streams, page, hang_up
        self.is_taken_over = False
        self.is_given_back = False


class Streams:
    """How many long-lived responses are open: each holds one of the server's threads.

    A page names itself (`?page=`, random per tab): its new stream takes the place of its old
    one, which ends at its next look, so a room of phones reconnecting after the Wi-Fi dropped
    is never refused for the streams their dead connections still hold.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self._pages: dict[str, Place] = {}
        self._lock = threading.Lock()

    def open(self, page: str | None = None,
             hang_up: Callable[[], None] | None = None) -> Place:
        with self._lock:
            old = self._pages.pop(page, None) if page else None
            if old is not None:
                old.is_taken_over = True
                self._give_back(old)
                if old.hang_up is not None:
                    old.hang_up()
            if self.count >= self.limit:
                abort(429, f"too many pages are open ({self.count}): close one and reload")
            self.count += 1
            place = Place(self, page, hang_up)
            if page:
                self._pages[page] = place
            return place

    def close(self, place: Place) -> None:
        with self._lock:
            if self._pages.get(place.page or "") is place:
                del self._pages[place.page or ""]
            self._give_back(place)

    def _give_back(self, place: Place) -> None:
        if not place.is_given_back:
            place.is_given_back = True
            self.count -= 1


def init_app(app: Flask) -> None:
    app.extensions["streams"] = Streams(app.config["MAX_STREAMS"])


class Held:
    """A long-lived response body counted as open until the server closes it.

    WSGI servers call `close()` on the body whether or not they ever iterated it, so the
    count is given back even when a phone goes away before its first byte.
    """

    def __init__(self, body: Generator[bytes, None, None], place: Place) -> None:
        self.body, self.place = body, place
        self._is_closed = False

    def __iter__(self) -> Iterator[bytes]:
        return self.body

    def close(self) -> None:
        if not self._is_closed:
            self._is_closed = True
            self.body.close()
            self.place.streams.close(self.place)


def open_place() -> tuple[Place, Callable[[], bool]]:
    """A place for this request's stream, and what says the stream should end: its page
    took another place, or its phone closed the connection."""
    page = request.args.get("page")
    if page is not None and not (0 < len(page) <= PAGE_ID and page.isascii()
                                 and page.isprintable()):
        abort(400, f'"page" must be up to {PAGE_ID} printable ASCII characters')
    streams: Streams = current_app.extensions["streams"]
    place = streams.open(page, request.environ.get(HANG_UP))
    went_away = request.environ.get("waitress.client_disconnected", lambda: False)
    return place, lambda: place.is_taken_over or bool(went_away())


@bp.get("/events")
def events() -> Any:
    """Every snapshot from now on, as `text/event-stream`; the first is the current one."""
    table, player = current_table(), viewer().player
    keepalive = current_app.config["KEEPALIVE_TIME"]
    place, is_over = open_place()

    def snapshots() -> Generator[bytes, None, None]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        last, quiet = -1, 0.0
        while not (table.is_closed or is_over()):
            look = min(LOOK_TIME, keepalive)
            snapshot = table.wait_for_snapshot(last, look)
            if snapshot is None:
                quiet += look
                if quiet >= keepalive:
                    quiet = 0.0
                    yield b": still here\n\n"
                continue
            last, quiet = snapshot.version, 0.0
            yield f"id: {last}\ndata: {snapshot.text_for(player)}\n\n".encode()

    return Response(Held(snapshots(), place), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
