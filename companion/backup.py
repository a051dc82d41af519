"""Copies of a table's games for safe keeping, made while the game goes on: one game as its
game log (JSON Lines, what `import` reads back), or the whole store as one SQLite file, copied
by SQLite's own online backup so a change being written is either in the copy whole or not
at all. The dashboard offers both to a phone with the PIN; an SD card that dies takes
nothing that was copied."""

from __future__ import annotations

import sqlite3
from dataclasses import asdict
from pathlib import Path
from typing import Any

from companion.store import Store


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
