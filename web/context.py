"""What every view may reach: the table this app serves, handed over by `create_app`."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app


def current_table() -> Any:
    """The running table: commands in, snapshots out."""
    return current_app.extensions["table"]


def current_board_camera() -> Any:
    """The camera that reads the running table's board, or a 404 saying there is none."""
    board_camera = getattr(current_table(), "board_camera", None)
    if board_camera is None:
        abort(404, "no camera reads this table's board")
    return board_camera
