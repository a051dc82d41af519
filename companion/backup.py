"""Copies of a table's games for safe keeping, made while the game goes on: one game as its
game log (JSON Lines, what `import` reads back), or the whole store as one SQLite file, copied
by SQLite's own online backup so a change being written is either in the copy whole or not
at all. The dashboard offers both to a phone with the PIN; `camel-companion backup` (the Pi's
timer runs it every few minutes) copies the store once a day to a configured folder and each
finished game to a USB stick while one is mounted at its configured folder. An SD card that
dies takes nothing that was copied.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tomllib
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any

from companion.errors import BadConfig, CompanionError
from companion.store import Store

KEEP = 7
"""Daily copies kept in the backup folder; older ones are removed."""
USB_FOLDER = "camel-companion"
"""The folder on a USB stick that finished games are copied into."""


class Backup:
    """The store at `store_path`, read beside the table that writes it."""

    def __init__(self, store_path: Path) -> None:
        self.store_path = Path(store_path)

    def games(self) -> list[dict[str, Any]]:
        """Every game in the store: id, game, players, when it started, its records."""
        with Store(self.store_path, read_only=True) as store:
            return [asdict(summary) for summary in store.games()]

    def game_log(self, game_id: int | None = None) -> str:
        """Game `game_id` (else the latest) as its game log, as its actions now stand."""
        with Store(self.store_path, read_only=True) as store:
            return store.open_game(game_id).export()

    def copy_store(self, to: Path) -> None:
        """The whole store, every game and record, copied into the new SQLite file `to`."""
        source = sqlite3.connect(f"{self.store_path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            copy = sqlite3.connect(to)
            try:
                source.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()

    def copy_finished_games(self, folder: Path) -> list[Path]:
        """Each finished game not yet in `folder`, written there whole as its game log: the
        copies written."""
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        with Store(self.store_path, read_only=True) as store:
            for summary in store.games():
                target = folder / f"camel-companion-game-{summary.id}.jsonl"
                if target.exists():
                    continue
                stored = store.open_game(summary.id)
                if stored.game.state.finished:
                    _write_whole(target, stored.export().encode())
                    written.append(target)
        return written

    def copy_daily(self, folder: Path, day: date, keep: int = KEEP) -> Path | None:
        """The whole store copied into `folder` once for `day` (None when that day's copy is
        there already), keeping the newest `keep` daily copies."""
        target = folder / f"camel-companion-{day.isoformat()}.sqlite3"
        if target.exists():
            return None
        folder.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        self.copy_store(partial)
        _sync(partial)
        os.replace(partial, target)
        _sync(folder)
        for old in sorted(folder.glob("camel-companion-????-??-??.sqlite3"))[:-keep]:
            old.unlink()
        return target


def _write_whole(path: Path, data: bytes) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    _sync(partial)
    os.replace(partial, path)
    _sync(path.parent)


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def add_command(commands: Any) -> None:
    """Add `backup` to the CLI's subcommands."""
    from companion.run import config_command

    config_command(commands, "backup", "copy the store to the configured folder once a day, "
                   "and finished games to a USB stick", backup)


def backup(args: argparse.Namespace) -> int:
    """What `[backup]` asks for: `folder` (a daily copy of the store, the newest `keep`
    kept) and `usb` (where a USB stick is mounted: each finished game, while one is)."""
    from companion.run import STORE_NAME, TableConfig

    settings = TableConfig.from_file(args.config)
    with open(args.config, "rb") as f:
        wanted = tomllib.load(f).get("backup", {})
    unknown = set(wanted) - {"folder", "usb", "keep"}
    if unknown:
        raise BadConfig(f"{args.config}: [backup] has unknown key(s): "
                        f"{', '.join(sorted(unknown))}")
    store = Backup(settings.state_directory() / STORE_NAME)
    if not store.store_path.is_file():
        print(f"camel-companion: no store at {store.store_path} yet: nothing to copy")
        return 0
    here = args.config.parent
    try:
        if wanted.get("folder"):
            copy = store.copy_daily(here / wanted["folder"], date.today(),
                                    int(wanted.get("keep", KEEP)))
            if copy is not None:
                print(f"camel-companion: copied the store to {copy}")
        usb = here / wanted["usb"] if wanted.get("usb") else None
        if usb is not None and os.path.ismount(usb):
            for copy in store.copy_finished_games(usb / USB_FOLDER):
                print(f"camel-companion: copied a finished game to {copy}")
    except (OSError, sqlite3.Error) as e:
        raise CompanionError(f"cannot copy: {e}") from None
    return 0
