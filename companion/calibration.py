"""Calibrating a table's camera from the dashboard, one step at a time, while the game goes on.

A person at the table opens the calibration page and, looking at what the camera sees:
1. finds the board's four markers (or taps the four marker places, or the roll zone's four
   corners, where there are no markers);
2. locks the focus, exposure and white balance the camera settled on under this light (a Pi
   camera), on the running camera at once;
3. lays all the game's dice in the roll zone and has their colours learned;
4. stands every camel of a Camel Up game alone on its own space of the track and has the
   camels learned: the board reader is set up from that frame;
5. saves. The camera reads with the new calibration from the next frame on.

A table may film its board with a camera of its own (`[vision.board.source]`), further back
than the dice camera. Step 4 then works on that camera's latest frame and finds the four
markers in it too: one tap calibrates the board camera and learns the camels, and the board
is read with that camera's calibration, kept apart from the dice camera's.

What is learned is written to a file of its own in the state directory (`calibrated`), whose
`[vision.*]` tables stand in for the configuration's: the service cannot write /etc, and the
configuration a person wrote is never rewritten. The camels' set-up frame is kept beside it as
a picture, one per game (`board-camelup-2018.png`): the board reader needs the bare board round
each camel as well as their colours, and sets itself up from that frame at every start. So is
the shot The Last Camel's dice or the racing cards were learned from (`colours-last-camel.png`):
how the light has changed since that shot is taken out of every frame (vision.light); a shot
taken before the markers were found again no longer lines up with the camera, and is let go
when they are saved. Each
step works on the camera's latest frame, and a step that cannot be done says why in one line
and changes nothing. When the colours cannot be learned because a die (a racing card) is not
found, the frame tried is kept as a picture of where the reader looked (`refused_picture`):
each place it found boxed, with the colour it took it for, beside the roll zone; the page
shows it under the refusal until the next step is taken.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import seams
from companion.camera import Mark, annotated_jpeg
from companion.errors import CalibrationError
from companion.rules import GAMES

if TYPE_CHECKING:
    from companion.camera import TableCamera
    from vision.board_watch import BoardWatch

log = logging.getLogger("camel_companion.calibration")


HOLD_TIME = 90.0
"""Seconds the cameras keep what they see from the table after the calibration page last
asked for anything (it asks every 20 s while open): the dice and camels laid out for it are
not a roll."""


class Calibrator:
    """The calibration of one table's camera: what the configuration holds, what a person
    has found since, and the settler that reads with it."""

    def __init__(self, config: Path | None, calibrated: Path) -> None:
        self.config = config
        self.calibrated = calibrated
        self.camera: TableCamera | None = None
        """The table's camera, once it has one."""
        self.board_camera: TableCamera | None = None
        """The board's own camera, on a table configured with one (`[vision.board.source]`)."""
        self._lock = threading.Lock()
        self._vision = self._load()
        self._found: dict[str, Any] = {}
        self._refused: tuple[int, str, bytes] | None = None
        """The colours step last refused for dice not found: its number (each refusal is
        numbered anew), its one line, and the frame tried, drawn (`refused_picture`)."""
        self._refusals = 0

    def vision(self) -> Any:
        """The vision configuration in force: the configuration with the saved calibration."""
        return self._vision

    def settler(self, game: str) -> seams.Settler | None:
        """A settler reading what the camera sees of `game` as calibrated: the dice of the
        board games, Camel Up Cards' racing cards, The Last Camel's colour dice; or None when
        vision reads nothing of that game (the camera then only shows what it sees). Colours
        learned for `game` are used; without them the reader's own."""
        from vision.cards import CardReader
        from vision.colour_dice import ColourDiceReader
        from vision.dice import DiceReader
        from vision.dicesets import COLOUR_DICE_SETS, DICE_SETS, colour_dice_set, dice_set
        from vision.settle import CARD_REACH, Settler

        vision = self._vision
        table = vision.calibration
        colours = vision.colours_for(game)
        reach = {}
        reads = _reads(game)
        if reads == "die" and game in DICE_SETS:
            reader: DiceReader | ColourDiceReader | CardReader = DiceReader(
                dice_set(game), colours, table=table, threshold=vision.threshold)
        elif reads == "face" and game in COLOUR_DICE_SETS:
            reader = ColourDiceReader(colour_dice_set(game), colours, table=table,
                                      threshold=vision.threshold,
                                      light=self._colours_light(game, colours))
        elif reads == "card":
            reader = CardReader(colours, table=table, threshold=vision.threshold,
                                light=self._colours_light(game, colours))
            reach = {"reach": CARD_REACH}
        else:
            return None
        return Settler(reader, zone=None if table is None else table.zone,
                       **{**vision.settle, **reach})

    def open_source(self) -> seams.FrameSource:
        """The camera's frame source as configured, exposure locked if it was measured."""
        from vision.sources import open_source

        vision = self._vision
        return open_source(vision.source, game=vision.game, camera=vision.camera)

    def open_board_source(self) -> seams.FrameSource:
        """The board camera's frame source, on a table configured with one
        (`[vision.board.source]`); its exposure is automatic, as when the camels were learned."""
        from vision.sources import open_source

        vision = self._vision
        return open_source(vision.board_source, game=vision.game)

    def hold(self, seconds: float = HOLD_TIME) -> None:
        """Keep the cameras' readings from the table for `seconds` from now (0: let them go):
        a person is calibrating, and what they lay out is not played."""
        for camera in (self.camera, self.board_camera):
            if camera is not None:
                camera.hold(seconds)

    def status(self) -> dict[str, Any]:
        """What the page shows, the page asking holding the cameras' readings (`hold`)."""
        self.hold()
        return self._status()

    def _status(self) -> dict[str, Any]:
        """What is calibrated now and what was found since, unsaved."""
        vision = self._vision
        found = self._found
        table = found.get("table", vision.calibration)
        return {
            "camera": self.camera is not None and bool(self.camera.is_on),
            "table": None if table is None else {
                "zone": _points(table.zone), "board": _points(table.board),
                "size": list(table.image_size), "markers": bool(table.markers)},
            "colours": (found["colours"][0] if "colours" in found
                        else vision.colours_game if vision.colours is not None else None),
            "exposure": (found["exposure"] if "exposure" in found else
                         None if vision.camera is None else vision.camera.to_config()),
            "camels": self._camels_learned(),
            "board_camera": vision.board_source is not None,
            "unsaved": sorted(found),
            "refused": None if self._refused is None else {
                "step": "colours", "error": self._refused[1], "picture": self._refused[0]},
        }

    def refused_picture(self) -> bytes | None:
        """The frame the colours step was last refused on for a die not found, as JPEG: the
        roll zone, each place a die was found boxed with the colour it was taken for (amber:
        not for sure); None when the last step was taken, or none was refused."""
        refused = self._refused
        return None if refused is None else refused[2]

    def find_markers(self) -> dict[str, Any]:
        """Step 1: the table from the four markers in the latest frame."""
        from vision.calibrate import calibrate_table

        self._found["table"] = calibrate_table(self._frame(), self._vision.layout)
        return self._taken()

    def mark(self, points: Any, kind: str) -> dict[str, Any]:
        """Step 1 by hand: four points tapped on the camera view, in pixels of its frames,
        far left first and clockwise: the markers' places, or the roll zone's corners."""
        from vision.calibrate import TableCalibration

        if kind not in ("markers", "zone"):
            raise CalibrationError(f'"kind" must be "markers" or "zone", not {kind!r}')
        if not (isinstance(points, list) and len(points) == 4 and all(
                isinstance(p, list) and len(p) == 2 and all(
                    isinstance(c, int | float) and not isinstance(c, bool) for c in p)
                for p in points)):
            raise CalibrationError('"points" must be four [x, y] pairs, far left first, '
                                   "clockwise")
        image = self._frame()
        size = (image.shape[1], image.shape[0])
        if not all(0 <= x <= size[0] and 0 <= y <= size[1] for x, y in points):
            raise CalibrationError(f"every point must lie in the {size[0]}x{size[1]} frame")
        make = TableCalibration.from_points if kind == "markers" else TableCalibration.from_zone
        self._found["table"] = make(points, size, self._vision.layout)
        return self._taken()

    def learn_colours(self, game: str) -> dict[str, Any]:
        """Step 3: the colours of what the camera reads of `game` under this light, from
        all of them laid in the roll zone, apart: every die of a board game or of The Last
        Camel, one racing card of each camel for Camel Up Cards."""
        from vision.calibrate import DiceNotFound, learn_colours
        from vision.cards import learn_card_colours
        from vision.colour_dice import learn_face_colours
        from vision.dicesets import COLOUR_DICE_SETS, DICE_SETS, colour_dice_set, dice_set

        self._refused = None
        table = self._found.get("table", self._vision.calibration)
        frame = self._frame()
        reads = _reads(game)
        try:
            if reads == "die" and game in DICE_SETS:
                colours = learn_colours(frame, dice_set(game), table=table)
            elif reads == "face" and game in COLOUR_DICE_SETS:
                colours = learn_face_colours(frame, colour_dice_set(game), table=table)
            elif reads == "card":
                colours = learn_card_colours(frame, table=table)
            else:
                raise CalibrationError(f"the camera reads nothing of {game}: no colours to "
                                       "learn")
        except DiceNotFound as refusal:
            marks = [Mark(p.box, [p.colour], sure=p.sure) for p in refusal.places]
            self._refusals += 1
            self._refused = (self._refusals, str(refusal),
                             annotated_jpeg(frame, marks, None if table is None else table.zone))
            raise
        # the readers of colour dice and cards allow for the light's change since this shot
        self._found["colours"] = (game, colours, frame if reads in ("face", "card") else None)
        return self._taken()

    def learn_camels(self, game: str) -> dict[str, Any]:
        """Step 4: the board reader of `game` set up from the latest frame, every camel
        standing alone on its own space of the track; the frame is kept to set it up again
        at every start once saved. With a board camera, its frame, and its calibration found
        from the markers in that same frame."""
        from vision.board import set_up
        from vision.calibrate import MarkersNotSeen, calibrate_table
        from vision.camels import CAMEL_SETS

        if game not in CAMEL_SETS:
            raise CalibrationError(f"the camera reads no camels of {game}: no camels to "
                                   "learn")
        vision = self._vision
        if vision.board_source is None:
            table = self._found.get("table", vision.calibration)
            if table is None:
                raise CalibrationError("the board is not calibrated: find the markers first")
            frame = self._frame()
        else:
            frame = self._frame(board=True)
            try:
                table = calibrate_table(frame, vision.layout)
            except MarkersNotSeen as e:  # no tapping them on the board camera's picture
                raise CalibrationError(
                    f"the board camera does not see marker(s) {', '.join(map(str, e.missing))}: "
                    "make sure all four are in its picture and lit, and try again") from None
            except CalibrationError as e:
                raise CalibrationError(f"the board camera: {e}") from None
        set_up(frame, table, vision.board, CAMEL_SETS[game], threshold=vision.threshold)
        self._found["camels"] = (game, frame, table)
        return self._taken()

    def board_watch(self, game: str) -> BoardWatch | None:
        """The watch over `game`'s board (vision.board_watch.BoardWatch), set up from the
        camels' saved frame with the calibration in force; None when the camera reads no
        board of that game, or its camels were never learned, or not with this calibration
        (the camera moved since: a warning says so)."""
        import cv2

        from vision.board import set_up
        from vision.board_watch import BoardWatch
        from vision.camels import CAMEL_SETS

        vision = self._vision
        table = vision.calibration if vision.board_source is None else vision.board_calibration
        path = self._camels_frame(game)
        if game not in CAMEL_SETS or table is None or not path.is_file():
            return None
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            log.warning("the board is not read: cannot read %s; learn the camels again", path)
            return None
        try:
            reader = set_up(frame, table, vision.board, CAMEL_SETS[game],
                            threshold=vision.threshold)
        except CalibrationError as e:
            log.warning("the board is not read: the camels learned in %s are not found with "
                        "this calibration (%s); learn the camels again", path, e)
            return None
        return BoardWatch(reader)

    def lock_exposure(self) -> dict[str, Any]:
        """Step 2: a camera that focuses (Camera Module 3) focuses once on the table; then
        the exposure and gains its automatic control settles on under this light, with that
        lens position, locked on the running camera at once and at every start once saved."""
        source: Any = None if self.camera is None else self.camera.source
        measure = getattr(source, "measure", None)
        if measure is None:
            raise CalibrationError("only a Pi camera's exposure can be locked; this camera "
                                   "keeps its own")
        try:
            source.focus()
            self._found["exposure"] = measure().to_config()
        except Exception as e:
            raise CalibrationError(f"the camera could not be measured: {e}") from None
        return self._taken()

    def save(self) -> dict[str, Any]:
        """Step 5: write what was found and read with it from the next frame, on the dice
        camera and the board camera alike."""
        import cv2

        from vision.config import calibration_toml
        from vision.sources import CameraSettings

        if not self._found:
            raise CalibrationError("nothing new to save: find the markers, learn the "
                                   "colours or the camels first")
        vision = self._vision
        game, colours, shot = self._found.get("colours",
                                              (vision.colours_game, vision.colours, None))
        exposure = self._found.get("exposure")
        camels = self._found.get("camels")
        board_calibration = (vision.board_calibration
                             if camels is None or vision.board_source is None else camels[2])
        text = calibration_toml(
            calibration=self._found.get("table", vision.calibration), colours=colours,
            game=game, camera=(vision.camera if exposure is None
                               else CameraSettings.from_config(exposure)),
            board_calibration=board_calibration)
        with self._lock:
            if camels is not None:
                camels_game, frame, _ = camels
                _write_whole(self._camels_frame(camels_game),
                             cv2.imencode(".png", frame)[1].tobytes())
            if shot is not None:
                _write_whole(self._colours_shot(game), cv2.imencode(".png", shot)[1].tobytes())
            elif "table" in self._found:   # the camera moved: the old shot no longer lines up
                for old in self.calibrated.parent.glob(self._colours_shot("*").name):
                    old.unlink()
            _write_whole(self.calibrated, text.encode())
            self._vision = self._load()
            self._found = {}
            self._refused = None
        two_cameras = self._vision.board_source is not None
        if self.camera is not None:
            self.camera.recalibrate(self.settler, None if two_cameras else self.board_watch)
            lock = getattr(self.camera.source, "lock", None)
            if lock is not None and self._vision.camera is not None:
                lock(self._vision.camera)
        if self.board_camera is not None:
            self.board_camera.recalibrate(self.board_camera.make_settler, self.board_watch)
        self.hold(0)
        return self._status()

    def _taken(self) -> dict[str, Any]:
        """What the page shows once a step was taken: a refusal's picture is past."""
        self._refused = None
        return self.status()

    def _camels_frame(self, game: str) -> Path:
        """Where the frame `game`'s camels were learned from is kept: beside the calibration."""
        return self.calibrated.with_name(f"board-{game}.png")

    def _colours_shot(self, game: str) -> Path:
        """Where the shot `game`'s colours were learned from is kept: beside the
        calibration."""
        return self.calibrated.with_name(f"colours-{game}.png")

    def _colours_light(self, game: str, colours: Any) -> Any:
        """The light of the shot `game`'s saved colours were learned from (a
        vision.light.LightChange), or None: no colours learned for `game`, or no shot kept
        with them (learned before shots were kept), or one that cannot be read."""
        import cv2

        from vision.light import LightChange

        path = self._colours_shot(game)
        if colours is None or not path.is_file():
            return None
        shot = cv2.imread(str(path))
        if shot is None:
            log.warning("the colours' shot %s cannot be read: the light's change since it "
                        "is not taken out", path)
            return None
        return LightChange.of_shot(shot)

    def _camels_learned(self) -> dict[str, str | None]:
        """Each game whose board the camera reads: "unsaved" when its camels were learned
        since the last save, "saved" when their frame is kept, else None."""
        from vision.camels import CAMEL_SETS

        found = self._found["camels"][0] if "camels" in self._found else None
        return {game: "unsaved" if game == found else
                "saved" if self._camels_frame(game).is_file() else None
                for game in CAMEL_SETS}

    def _frame(self, *, board: bool = False) -> Any:
        """The latest frame of the dice camera, or of the board camera."""
        camera, name = ((self.board_camera, "the board camera") if board
                        else (self.camera, "the camera"))
        latest = None if camera is None else camera.latest()
        if latest is None:
            raise CalibrationError(f"{name} has no picture: check it is plugged in and try "
                                   "again")
        return latest[1]

    def _load(self) -> Any:
        from vision.config import load_config

        return load_config(self.config, calibrated=self.calibrated)


def _write_whole(path: Path, data: bytes) -> None:
    """Write `path` whole or not at all: a plug pulled mid-write leaves the file before."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_bytes(data)
        partial.replace(path)
    except OSError as e:
        raise CalibrationError(f"cannot write {path}: {e.strerror or e}") from None


def _points(points: Any) -> list[list[float]] | None:
    return None if points is None else [[round(float(x), 1), round(float(y), 1)]
                                        for x, y in points]


def _reads(game: str) -> str | None:
    """What the camera reports in `game`, as its rules say (a die, a racing card, a face of
    a pair of dice), or None for a game the companion does not know."""
    return GAMES[game].reads if game in GAMES else None
