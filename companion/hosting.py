"""Serving a running table to every phone until the program is told to stop.

`serve`, `demo` and `run` differ in what feeds the table (phones only; a rendered camera and a
scripted panel; the Pi's camera and buttons) but serve it the same way: the dashboard on
waitress, the address and PIN printed once it listens, SIGTERM and Ctrl-C ending it cleanly
with every acknowledged action already in the store.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from companion.advisor import Advisor
from companion.backup import Backup
from companion.errors import CompanionError
from companion.table import Table

log = logging.getLogger("camel_companion")

DEFAULT_STREAMS = 100
"""Live pages open at once: a café table night of 50 phones, with room for each to reconnect."""


@dataclass(frozen=True)
class Listening:
    """Where the dashboard listens and what a phone needs to join it."""

    host: str = "0.0.0.0"
    port: int = 8000
    pin: str = ""
    secret_key: str = ""
    streams: int = DEFAULT_STREAMS


def add_listening_options(command: Any, *, port: int = 8000) -> None:
    """The options every serving command shares."""
    command.add_argument("--port", type=int, default=port, help=f"the port (default {port})")
    command.add_argument("--host", default="0.0.0.0",
                         help="the address to listen on (default: every address of this "
                              "machine)")
    command.add_argument("--streams", type=int, default=DEFAULT_STREAMS,
                         help=f"live pages open at once (default {DEFAULT_STREAMS})")


def start_logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("waitress").setLevel(logging.WARNING)


def advisor(table: Table, wanted: bool) -> Any:
    """The odds worker for `table`, or nothing when the table plays without odds."""
    return Advisor(table) if wanted else contextlib.nullcontext()


@contextlib.contextmanager
def dashboard(table: Table, listening: Listening, config: dict[str, Any] | None = None
              ) -> Iterator[Any]:
    """The dashboard's server for `table`, listening but not yet serving; closed after."""
    # The web server is imported only here, so every other command starts without Flask.
    from web import create_app
    from web.server import Server

    app = create_app(table, {"PIN": listening.pin, "SECRET_KEY": listening.secret_key,
                             "MAX_STREAMS": listening.streams,
                             "BACKUP": Backup(table.store_path), **(config or {})})
    try:
        server = Server(app, host=listening.host, port=listening.port,
                        streams=listening.streams)
    except OSError as e:
        raise CompanionError(f"cannot listen on {listening.host}:{listening.port}: "
                             f"{e.strerror}; give another --port") from None
    app.config["JOIN_URLS"] = phone_addresses(listening.host, server.port)
    try:
        yield server
    finally:
        server.close()


def serve_until_stopped(table: Table, server: Any, *,
                        on_stop: Callable[[], object] | None = None) -> None:
    """Serve until SIGTERM or Ctrl-C, or until the table closes; then close the table."""
    def stop(*_: object) -> None:
        if on_stop is not None:
            on_stop()
        table.close()
        raise KeyboardInterrupt

    def close_with_table() -> None:
        table.wait_for_snapshot(sys.maxsize)
        server.close()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    threading.Thread(target=close_with_table, name="close-with-table", daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        table.close()


def phone_addresses(host: str, port: int) -> list[str]:
    """The addresses a phone on the table's network opens, the surest first: this machine's
    address on its network and its name on mDNS (NAME.local, which Raspberry Pi OS's avahi
    answers) when it listens on every address, else the one address it listens on."""
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{host}:{port}/"]
    urls = [f"http://{socket.gethostname().split('.')[0]}.local:{port}/"]
    ip = lan_address()
    return urls if ip is None else [f"http://{ip}:{port}/", *urls]


def lan_address() -> str | None:
    """This machine's IPv4 address on the network its traffic leaves by (no packet is sent),
    or None with no network at all."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            ip = probe.getsockname()[0]
        except OSError:
            return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def address(host: str, port: int) -> str:
    """The address phones open: this machine's name when it listens on every address."""
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    return f"http://{host}:{port}/"
