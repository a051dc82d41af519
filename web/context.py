"""What every view may reach: the table this app serves, handed over by `create_app`."""

from __future__ import annotations

from flask import abort, current_app

from companion.seams import BoardCamera, ServedTable


def current_table() -> ServedTable:
    """The running table: commands in, snapshots out."""
    table: ServedTable = current_app.extensions["table"]
    return table


def current_board_camera() -> BoardCamera:
    """The camera that reads the running table's board, or a 404 saying there is none."""
    board_camera = current_table().board_camera
    if board_camera is None:
        abort(404, "no camera reads this table's board")
    return board_camera
