"""The companion's own web server: waitress, in the companion's process, never Flask's dev server.

Each open page holds one of waitress's threads for its live stream, so the server gets a
thread for every stream the app allows plus a few for ordinary requests. Nobody on the
network may stop the table by holding connections: a connection costs no thread until it has
sent a whole request, a thousand may be open at once, one that sends nothing is closed after
`IDLE_TIME`, and past the limit each new one closes the idlest. What a live stream has sent
is let go of as it goes, so pages left open all night keep the server's memory flat.
"""

from __future__ import annotations

import errno
import logging
import resource
import threading
from typing import Any

from waitress import create_server
from waitress.server import BaseWSGIServer
from waitress.wasyncore import close_all

from web.events import HANG_UP

log = logging.getLogger(__name__)

REQUEST_THREADS = 8
"""Threads kept free for ordinary requests beside the live streams."""
CONNECTIONS = 1000
"""Connections open at once (idle, slow or busy), as far as the process's file limit allows."""
IDLE_TIME = 10
"""Seconds a connection may sit without sending a whole request before it is closed."""
SHED = 64
"""Connections accepted past `CONNECTIONS` while the idlest are being closed to make room."""
SENT_BUFFER = 256 * 1024
"""Bytes a connection's output buffer holds before a fresh one is started and the sent one
freed; a live stream writing more than this waits for its phone to read."""


class Server:
    """`app` served on `host:port` (port 0: any free port); a context manager.

    `start()` serves on a thread of its own; `serve_forever()` on the caller's thread until
    `close()` (from elsewhere) or Ctrl-C. `close()` is idempotent.
    """

    def __init__(self, app: Any, *, host: str = "0.0.0.0", port: int = 8000,
                 streams: int | None = None, connections: int = CONNECTIONS) -> None:
        streams = app.config["MAX_STREAMS"] if streams is None else streams
        self.threads = streams + REQUEST_THREADS
        most = connection_limit(self.threads, connections)
        self._server = create_server(
            _with_hang_up(app), host=host, port=port, threads=self.threads,
            connection_limit=most + SHED, channel_timeout=IDLE_TIME, cleanup_interval=1,
            channel_request_lookahead=1,
            outbuf_high_watermark=SENT_BUFFER, ident="camel-companion",
            clear_untrusted_proxy_headers=True)
        for listener in list((getattr(self._server, "map", None) or self._server._map).values()):
            if isinstance(listener, BaseWSGIServer):
                _close_the_idlest_past(listener, most)
        self._thread: threading.Thread | None = None
        self._is_closed = False

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    @property
    def host(self) -> str:
        return str(self._server.effective_host)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> Server:
        self._thread = threading.Thread(target=self.serve_forever, name="waitress",
                                        daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Run the server's loop until it is closed. A loop whose wake-up pipe was closed
        under it (a stray close elsewhere in the process) ends with one line in the log, not
        a traceback: close() ends its connections, and the Pi's watchdog, which asks the
        dashboard for a page, restarts a service whose dashboard no longer answers."""
        try:
            self._server.run()
        except OSError as e:
            if e.errno != errno.EBADF:
                raise
            if not self._is_closed:
                log.error("the dashboard's server lost the pipe that wakes it and stops: %s", e)

    def close(self) -> None:
        """Stop answering, end the open connections, and stop the server's threads.

        Close the table first: its live streams then end by themselves.
        """
        if self._is_closed:
            return
        self._is_closed = True
        self._server.task_dispatcher.shutdown(timeout=2)
        try:
            self._server.trigger.pull_trigger(lambda: close_all(self._server._map))
        except OSError:
            # the pipe that wakes the server's loop was closed under it (a stray second close
            # of a reused descriptor elsewhere in the process does that): the loop cannot be
            # asked, so end its connections from here; the loop ends with them.
            trigger = self._server.trigger
            # its write end's number may belong to another file by now: never close it again
            trigger._fds = [fd for fd in trigger._fds if fd != trigger.trigger]
            close_all(self._server._map, ignore_all=True)
            if trigger.socket is not None:
                trigger.socket.close()
        if self._thread is not None:
            self._thread.join(timeout=5)


def connection_limit(threads: int, connections: int = CONNECTIONS) -> int:
    """`connections`, the process's open-file limit raised as far as it may go to hold them
    (and `SHED` more), less what the threads' own files (the store, its log, the pipes) may
    need."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + SHED + 2 * threads + 64
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return max(16, min(connections, soft - SHED - 2 * threads - 64))


def _with_hang_up(app: Any) -> Any:
    """`app`, each request's environ given what ends its connection (`HANG_UP`): the
    connection is closed by the server's loop, which wakes a thread waiting to write to it."""
    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
        if channel is not None:
            environ[HANG_UP] = lambda: _close_soon(channel)
        return app(environ, start_response)

    return wsgi


def _close_soon(channel: Any) -> None:
    channel.will_close = True
    channel.server.pull_trigger()


def _close_the_idlest_past(listener: BaseWSGIServer, most: int) -> None:
    """Past `most` connections, each one accepted closes the one that has gone longest without
    a whole request (idle, or sending one a byte at a time; never one being answered, a live
    stream included), so the server never stops accepting and nobody holding connections
    keeps a phone out. Runs in the server's loop, as waitress's accept does."""
    accept = listener.handle_accept

    def handle_accept() -> None:
        accept()
        over = len(listener._map) - most
        if over <= 0:
            return
        idlest = sorted((c for c in listener.active_channels.values()
                         if not c.requests and not c.will_close),
                        key=lambda c: c.last_activity)
        for channel in idlest[:over]:
            channel.will_close = True

    listener.handle_accept = handle_accept
