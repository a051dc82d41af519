"""The camera view: what the table's camera sees, with what its reader drew on it.

The table may have no camera (`table.camera` is None), or one that gives no picture now
(`camera.is_on` false): the page then says the camera is off. A camera is a
`companion.seams.Camera`: `wait_for_frame(after, timeout)` gives the first frame numbered
above `after` as JPEG, already annotated by the reader (board, roll zone, each die found with
its reading and confidence).

Beside a board alert the page shows the frame the board was last read from: the table's
`board_camera` is None, or a `companion.seams.BoardCamera` whose `board_picture()` gives that
frame as JPEG bytes (None before the first reading). A table that films its board with a
camera of its own shows that camera's view too, where asked for with `?camera=board` (the
Calibrate page's camels step).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, TypeGuard

from flask import Blueprint, Response, abort, jsonify, request

from companion.seams import Camera
from web.context import current_board_camera, current_table
from web.events import Held, open_place

bp = Blueprint("camera", __name__)

BOUNDARY = "frame"
FRAME_WAIT = 5.0
"""Seconds to wait for a frame; a stream with none for that long ends (the page retries)."""


def _camera() -> Camera:
    """The camera asked for: the board's (`?camera=board`), else the one the pages show."""
    if request.args.get("camera") == "board":
        board_camera = current_table().board_camera
        if not _is_on(board_camera):
            abort(404, "the board camera is off: check it is plugged in")
        return board_camera
    camera = current_table().camera
    if not _is_on(camera):
        abort(404, "the camera is off: log rolls by hand on the page")
    return camera


def _is_on(camera: Camera | None) -> TypeGuard[Camera]:
    return camera is not None and bool(camera.is_on)


@bp.get("/api/camera")
def status() -> Any:
    """Whether the table's camera gives pictures now."""
    return jsonify(on=_is_on(current_table().camera))


@bp.get("/camera.jpg")
def still() -> Any:
    """The camera's latest frame."""
    found = _camera().wait_for_frame(-1, FRAME_WAIT)
    if found is None:
        abort(404, "the camera has no picture yet")
    return Response(found[1], mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera/board.jpg")
def board() -> Any:
    """The frame the board was last read from, for the players to compare with the game."""
    picture = current_board_camera().board_picture()
    if picture is None:
        abort(404, "the camera has not read the board yet")
    return Response(picture, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera.mjpg")
def motion() -> Any:
    """Every new frame as it comes, as MJPEG (multipart/x-mixed-replace)."""
    camera, table = _camera(), current_table()
    place, is_over = open_place()

    def frames() -> Generator[bytes, None, None]:
        last = -1
        while not (table.is_closed or is_over()):
            found = camera.wait_for_frame(last, FRAME_WAIT)
            if found is None:
                return
            last, jpeg = found
            yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                   f"Content-Length: {len(jpeg)}\r\n\r\n").encode() + jpeg + b"\r\n"

    return Response(Held(frames(), place),
                    mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                    headers={"Cache-Control": "no-store"})
