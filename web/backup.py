"""Downloads for safe keeping, for a phone with the PIN: any game as its game log, and the
whole store as one file (docs/api.md). The table's `Backup` is handed in as `BACKUP`."""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, jsonify

from companion.errors import CompanionError
from web.auth import trusted

bp = Blueprint("backup", __name__, url_prefix="/api")


def _backup() -> Any:
    backup = current_app.config.get("BACKUP")
    if backup is None:
        abort(404, "this table keeps no store to download")
    return backup


@bp.get("/games")
@trusted
def games() -> Any:
    """Every game in the store, newest last."""
    return jsonify(games=_backup().games())


@bp.get("/games/<game_id>/log")
@trusted
def game_log(game_id: str) -> Any:
    """Game `game_id` (or `latest`) as its game log, to keep or to `import` elsewhere."""
    if game_id != "latest" and not (game_id.isascii() and game_id.isdigit()):
        abort(404, f"no game {game_id!r}: give its number, or latest")
    try:
        text = _backup().game_log(None if game_id == "latest" else int(game_id))
    except CompanionError as e:
        abort(404, str(e))
    response = current_app.response_class(text, mimetype="application/x-ndjson")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="camel-companion-game-{game_id}.jsonl"')
    return response


@bp.get("/store")
@trusted
def store() -> Any:
    """The whole store, every game and correction, as one SQLite file."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "copy.sqlite3"
        _backup().copy_store(copy)
        data = copy.read_bytes()
    response = current_app.response_class(data, mimetype="application/vnd.sqlite3")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="camel-companion-{date.today().isoformat()}.sqlite3"')
    return response
