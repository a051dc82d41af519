"""The companion's own web server: waitress, in the companion's process, never Flask's dev server.

Each open page holds one of waitress's threads for its live stream, so the server gets a
thread for every stream the app allows plus a few for ordinary requests.
"""

from __future__ import annotations

import threading
from typing import Any

from waitress import create_server
from waitress.wasyncore import close_all

REQUEST_THREADS = 8
"""Threads kept free for ordinary requests beside the live streams."""


class Server:
    """`app` served on `host:port` (port 0: any free port); a context manager.

    `start()` serves on a thread of its own; `serve_forever()` on the caller's thread until
    `close()` (from elsewhere) or Ctrl-C. `close()` is idempotent.
    """

    def __init__(self, app: Any, *, host: str = "0.0.0.0", port: int = 8000,
                 streams: int | None = None) -> None:
        streams = app.config["MAX_STREAMS"] if streams is None else streams
        self.threads = streams + REQUEST_THREADS
        self._server = create_server(app, host=host, port=port, threads=self.threads,
                                     connection_limit=max(100, 2 * self.threads),
                                     ident="camel-companion", clear_untrusted_proxy_headers=True)
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
        self._server.run()

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
            # asked, so end its connections from here; the loop ends with them. Closing the
            # pipe stops at its stolen end: its last descriptor is closed here too.
            close_all(self._server._map, ignore_all=True)
            self._server.trigger.socket.close()
        if self._thread is not None:
            self._thread.join(timeout=5)
