"""`camel-companion serve GAME.jsonl`: the live dashboard for one game, with phones alone.

The log is read once and never written: the game goes on in a store (by default a file
beside the log), so starting `serve` again with the same arguments after a crash carries on
the stored game exactly where it stopped. The PIN is given, or made up once per store and
kept beside it with the session key, so phones that entered it stay trusted across restarts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import secrets
import signal
import socket
from pathlib import Path
from typing import Any

from companion.advisor import Advisor
from companion.errors import CompanionError
from companion.gamelog import load_game
from companion.store import Store
from companion.table import Table

log = logging.getLogger("camel_companion.serve")

DEFAULT_STREAMS = 40
"""Live pages open at once: a table of 8 players with a phone and a tablet each, twice over."""


def add_command(commands: Any) -> None:
    """Add `serve` to the CLI's subcommands."""
    serve = commands.add_parser("serve", help="serve the live dashboard of a game to every "
                                              "phone at the table")
    serve.add_argument("log", type=Path, metavar="GAME.jsonl")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument("--host", default="0.0.0.0",
                       help="the address to listen on (default: every address of this machine)")
    serve.add_argument("--pin", help="the table's PIN (default: one made up and printed)")
    serve.add_argument("--store", type=Path, metavar="PATH",
                       help="the store the game goes on in (default: GAME.sqlite3 beside the log)")
    serve.add_argument("--no-odds", dest="odds", action="store_false",
                       help="play without odds and advice (no worker process is started)")
    serve.add_argument("--streams", type=int, default=DEFAULT_STREAMS,
                       help=f"live pages open at once (default {DEFAULT_STREAMS})")
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    store_path = args.store or args.log.with_suffix(".sqlite3")
    game_id, resumed = open_or_import(args.log, store_path)
    secrets_ = table_secrets(store_path, args.pin)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("waitress").setLevel(logging.WARNING)

    # The web server is imported only here, so every other command starts without Flask.
    from web import create_app
    from web.server import Server

    with Table(store_path, game_id=game_id) as table, _advisor(table, args.odds):
        app = create_app(table, {"PIN": secrets_["pin"], "SECRET_KEY": secrets_["secret_key"],
                                 "MAX_STREAMS": args.streams})
        try:
            server = Server(app, host=args.host, port=args.port, streams=args.streams)
        except OSError as e:
            raise CompanionError(f"cannot listen on {args.host}:{args.port}: {e.strerror}; "
                                 "give another --port") from None
        moves = len(table.snapshot.view["history"])
        print(f"camel-companion: {'carrying on' if resumed else 'serving'} game {game_id} "
              f"of {store_path} ({moves} actions)", flush=True)
        print(f"camel-companion: open {_address(args.host, server.port)} on every phone; "
              f"the table's PIN is {secrets_['pin']}", flush=True)
        log.info("serving on port %d; PIN %s", server.port, secrets_["pin"])

        def stop(*_: object) -> None:
            table.close()
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            table.close()
            server.close()
    print("camel-companion: stopped; every action is in the store", flush=True)
    return 0


def _advisor(table: Table, wanted: bool) -> Any:
    """The odds worker for `table`, or nothing when the table plays without odds."""
    return Advisor(table) if wanted else contextlib.nullcontext()


def open_or_import(log_path: Path, store_path: Path) -> tuple[int, bool]:
    """The stored game that began as this log (the latest such), or the log imported anew.

    Returns the game's number in the store and whether it was already there.
    """
    if store_path.resolve() == log_path.resolve():
        raise CompanionError(f"the store cannot be the log itself: give --store another file "
                             f"than {log_path}")
    game = load_game(log_path)
    with Store(store_path) as store:
        for summary in reversed(store.games()):
            stored = store.open_game(summary.id)
            if stored.game.header == game.header:
                return stored.id, True
        return store.import_game(game).id, False


def table_secrets(store_path: Path, pin: str | None) -> dict[str, str]:
    """The session key and the PIN, kept beside the store (readable by its owner only)."""
    if pin is not None and not (pin.isprintable() and pin.strip()):
        raise CompanionError("--pin must be printable characters, not empty")
    path = store_path.with_name(store_path.name + ".secrets.json")
    kept: dict[str, str] = {}
    if path.is_file():
        try:
            kept = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            raise CompanionError(f"cannot read {path}: {e}; remove it to make new ones") from None
    wanted = {"secret_key": kept.get("secret_key") or secrets.token_hex(32),
              "pin": pin or kept.get("pin") or f"{secrets.randbelow(10**6):06d}"}
    if wanted != kept:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(wanted, out)
    return wanted


def _address(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    return f"http://{host}:{port}/"
