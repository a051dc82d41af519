"""`camel-companion serve GAME.jsonl`: the live dashboard for one game, with phones alone.

The log is read once and never written: the game goes on in a store (by default a file
beside the log), so starting `serve` again with the same arguments after a crash carries on
the stored game exactly where it stopped. The PIN is given, or made up once per store and
kept beside it with the session key, so phones that entered it stay trusted across restarts.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import secrets
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.gamelog import load_game
from companion.hosting import (
    Listening,
    add_listening_options,
    address,
    advisor,
    dashboard,
    serve_until_stopped,
    start_logging,
)
from companion.rules.words import counted
from companion.store import Store
from companion.table import Table

log = logging.getLogger("camel_companion.serve")

SAFE_PIN = 6
"""Characters a PIN needs to hold against guessing at the rate wrong PINs are allowed."""


def add_command(commands: Any) -> None:
    """Add `serve` to the CLI's subcommands."""
    serve = commands.add_parser("serve", help="serve the live dashboard of a game to every "
                                              "phone at the table")
    serve.add_argument("log", type=Path, metavar="GAME.jsonl")
    add_listening_options(serve)
    serve.add_argument("--pin", help="the table's PIN (default: one made up and printed)")
    serve.add_argument("--store", type=Path, metavar="PATH",
                       help="the store the game goes on in (default: GAME.sqlite3 beside the log)")
    serve.add_argument("--no-odds", dest="odds", action="store_false",
                       help="play without odds and advice (no worker process is started)")
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    store_path = args.store or args.log.with_suffix(".sqlite3")
    game_id, resumed = open_or_import(args.log, store_path)
    secrets_ = table_secrets(store_path, args.pin)
    start_logging()
    if len(secrets_["pin"]) < SAFE_PIN:
        log.warning("the PIN has fewer than %d characters: guessers at several addresses could "
                    "find it in hours; leave --pin out for a six-digit one", SAFE_PIN)
    listening = Listening(args.host, args.port, secrets_["pin"], secrets_["secret_key"],
                          args.streams)
    with Table(store_path, game_id=game_id) as table, advisor(table, args.odds), \
            dashboard(table, listening) as server:
        moves = len(table.snapshot.view["history"])
        print(f"camel-companion: {'carrying on' if resumed else 'serving'} game {game_id} "
              f"of {store_path} ({counted(moves, 'action')})", flush=True)
        print(f"camel-companion: open {address(args.host, server.port)} on every phone; "
              f"the table's PIN is {secrets_['pin']}", flush=True)
        log.info("serving on port %d; PIN %s", server.port, secrets_["pin"])
        serve_until_stopped(table, server)
    print("camel-companion: stopped; every action is in the store", flush=True)
    return 0


def open_or_import(log_path: Path, store_path: Path) -> tuple[int, bool]:
    """The game being played at the table that began with this log (the latest such game,
    or the last one started after it from the New game page), or the log imported anew.

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
                playing = store.latest_after(stored.id)
                store.open_game(playing)
                return playing, True
        return store.import_game(game).id, False


def table_secrets(store_path: Path, pin: str | None) -> dict[str, str]:
    """The session key and the PIN, kept beside the store (readable by its owner only)."""
    if pin is not None and not (pin.isprintable() and pin.strip()):
        raise CompanionError("--pin must be printable characters, not empty")
    path = secrets_path(store_path)
    kept: dict[str, str] = {}
    if path.is_file():
        try:
            kept = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            raise CompanionError(f"cannot read {path}: {e}; remove it to make new ones") from None
    wanted = {"secret_key": kept.get("secret_key") or secrets.token_hex(32),
              "pin": pin or kept.get("pin") or f"{secrets.randbelow(10**6):06d}"}
    if wanted != kept:
        write_private(path, json.dumps(wanted).encode())
    return wanted


def secrets_path(store_path: Path) -> Path:
    """Where the PIN and session key of the store at `store_path` are kept."""
    return store_path.with_name(store_path.name + ".secrets.json")


def write_private(path: Path, data: bytes) -> None:
    """Write `path` readable by its owner only, whole or not at all: a new file beside it,
    written through to the disk, then put in its place (a pulled plug leaves the old one)."""
    partial = path.with_name(path.name + ".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, path)
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
