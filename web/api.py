"""The JSON API: the state, and every change a phone can make to the game (docs/api.md).

Each change is handed to the table as a command and answered with the state after it, as
this phone may see it; a refused change answers 4xx {"error": ...} and has changed nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import TimeoutError as AnswerTimeout
from typing import TYPE_CHECKING, Any

from flask import Blueprint, abort, current_app

from companion.errors import CompanionError, IllegalAction, NothingToUndo, NotStored
from web.auth import json_body, trusted, viewer
from web.context import current_table

if TYPE_CHECKING:
    from companion.seams import ServedTable
    from companion.snapshot import Snapshot

bp = Blueprint("api", __name__, url_prefix="/api")


def state_response(snapshot: Snapshot, status: int = 200) -> Any:
    """A snapshot as the asking phone may see it, as JSON text built once per viewer."""
    return current_app.response_class(snapshot.text_for(viewer().player), status=status,
                                      mimetype="application/json")


@bp.get("/state")
def state() -> Any:
    """The game now: the `replay --json` fields, the history, and what the page needs."""
    return state_response(current_table().snapshot)


@bp.post("/actions")
@trusted
def push() -> Any:
    """Play one action, in the game-log form."""
    line = json_body()
    return change(lambda table: table.push(line))


@bp.post("/undo")
@trusted
def undo() -> Any:
    """Take back the last action."""
    json_body(required=False)
    return change(lambda table: table.undo())


@bp.put("/actions/<int:index>")
@trusted
def replace(index: int) -> Any:
    """Put another action in place of action `index` (0-based, as in `history`)."""
    line = json_body()
    return change(lambda table: table.replace(index, line))


@bp.post("/actions/<int:index>")
@trusted
def insert(index: int) -> Any:
    """Put a forgotten action before action `index` (the number of actions: at the end)."""
    line = json_body()
    return change(lambda table: table.insert(index, line))


@bp.delete("/actions/<int:index>")
@trusted
def delete(index: int) -> Any:
    """Strike action `index` as if it had never been played; the rest is replayed."""
    return change(lambda table: table.delete(index))


CORRECTIONS = ("die", "value", "numeral", "camel", "dice", "moves")
"""What a tap may set on a waiting reading before it is accepted."""


@bp.post("/pending/accept")
@trusted
def accept_pending() -> Any:
    """OK: the waiting reading `id` (the oldest if none) becomes the action, as read or as
    corrected: a die's `die`, `value`, `numeral`; a racing card's `camel`, `value`; a Last
    Camel pair's `dice` and `moves`."""
    body = json_body(required=False)
    correction = {k: body[k] for k in CORRECTIONS if k in body}
    reading = _number(body, "a waiting reading")
    return change(lambda table: table.accept_pending(reading, correction or None))


@bp.post("/pending/reject")
@trusted
def reject_pending() -> Any:
    """NO: the waiting reading `id` (the oldest if none) is set aside, and kept."""
    reading = _number(json_body(required=False), "a waiting reading")
    return change(lambda table: table.reject_pending(reading))


@bp.post("/board/dismiss")
@trusted
def dismiss_board() -> Any:
    """The players will set the camels as the game has them: the board alert `id` (the one
    shown if none) goes, and the board is checked again once the camera sees it still."""
    alert = _number(json_body(required=False), "a board alert")
    return change(lambda table: table.dismiss_board(alert))


def _number(body: dict[str, Any], of: str) -> int | None:
    """The body's `id`, the number `of` something the page was shown, or None if it has none."""
    number = body.get("id")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        abort(400, f'"id" must be the number of {of}, not {number!r}')
    return number


def change(ask: Callable[[ServedTable], Snapshot]) -> Any:
    """Ask the table for a change: the state after it, or a 4xx error."""
    table = current_table()
    try:
        snapshot = ask(table)
    except NothingToUndo as e:
        abort(409, str(e))
    except IllegalAction as e:
        abort(422, str(e))
    except NotStored as e:
        abort(503, str(e))
    except CompanionError as e:
        abort(409, str(e))
    except AnswerTimeout:
        abort(503, "the table did not answer in time; look at the state before trying again")
    return state_response(snapshot)
