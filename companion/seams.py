"""The seams between the table's parts, each named by what one side counts on of the other.

A frame source, a reader and a settler (vision), the table's camera, and the table as the
dashboard sees it: each is a Protocol, matched by shape, so what stands behind it (a Pi camera
or a video file, the real table or a test's stand-in) needs only the same methods, and imports
nothing of this module. What crosses a seam (a frame, a reading, a settled die, a snapshot) is
a frozen value of the side that makes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from companion.snapshot import Snapshot
    from vision.calibrate import TableCalibration
    from vision.settle import Reading, Settled
    from vision.sources import Frame


class FrameSource(Protocol):
    """Where a camera's frames come from (vision.sources): the next frame, None when there is
    none to give (closed, unplugged, at the end of a file); `close` may be called twice."""

    def read(self) -> Frame | None: ...
    def close(self) -> None: ...


class Reader(Protocol):
    """Frames in, readings out: dice by their pips (vision.dice), racing cards (vision.cards),
    The Last Camel's colour dice (vision.colour_dice)."""

    @property
    def table(self) -> TableCalibration | None:
        """The table's calibration it reads with (where the roll zone is), if it has one."""

    def read(self, frame: NDArray[np.uint8]) -> Sequence[Reading]: ...


class Settler(Protocol):
    """A reader watching frame after frame (vision.settle): each die, card or face read once,
    when it has come to rest, and said to be gone once it is taken away."""

    @property
    def reader(self) -> Reader: ...
    @property
    def dice(self) -> Sequence[Reading]:
        """What lies in the roll zone as last seen, reported or not."""

    def feed(self, frame: NDArray[np.uint8], time: float) -> Sequence[Settled]: ...


class Camera(Protocol):
    """A table's camera as the table and its pages see it (companion.camera.TableCamera)."""

    @property
    def is_on(self) -> bool: ...

    def wait_for_frame(self, after: int, timeout: float) -> tuple[int, bytes] | None:
        """The first frame numbered above `after`, as JPEG with what was read drawn on it;
        None if none comes within `timeout` seconds."""


class BoardCamera(Camera, Protocol):
    """A camera that reads the board as well: the frame it last read the board from (JPEG),
    and the game whose camels it looked for with the stacks it found (vision.board's JSON);
    each None before the first reading."""

    def board_picture(self) -> bytes | None: ...
    def board_stacks(self) -> tuple[str, list[dict[str, Any]]] | None: ...


class ServedTable(Protocol):
    """The table as the dashboard sees it (companion.table.Table, given to web.create_app):
    snapshots out, and commands in, each answered with the snapshot after it or raising the
    error that refused it."""

    @property
    def snapshot(self) -> Snapshot: ...
    @property
    def is_closed(self) -> bool: ...
    @property
    def camera(self) -> Camera | None: ...
    @property
    def board_camera(self) -> BoardCamera | None: ...

    def wait_for_snapshot(self, after: int, timeout: float | None = None) -> Snapshot | None: ...
    def push(self, line: Mapping[str, Any]) -> Snapshot: ...
    def undo(self) -> Snapshot: ...
    def replace(self, index: int, line: Mapping[str, Any]) -> Snapshot: ...
    def insert(self, index: int, line: Mapping[str, Any]) -> Snapshot: ...
    def delete(self, index: int) -> Snapshot: ...
    def new_game(self, header: Mapping[str, Any]) -> Snapshot: ...
    def accept_pending(self, reading: int | None = None,
                       correction: Mapping[str, Any] | None = None) -> Snapshot: ...
    def reject_pending(self, reading: int | None = None) -> Snapshot: ...
    def dismiss_board(self, alert: int | None = None) -> Snapshot: ...
