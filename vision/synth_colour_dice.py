"""The renderer's dice without pips: The Last Camel's two dice on a rendered table.

Each die is a light wooden cube whose faces are painted red, yellow, green or blue, or left
bare with a gold or a black star in the middle (vision.dicesets.LAST_CAMEL). The table, the
camera, the lights, shadows, hands, blur, noise and JPEG are vision.synth's; this module only
paints the faces and says what each frame truly shows.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dicesets import LAST_CAMEL, ColourDiceSet, ColourFace, DieSpec
from vision.synth import (
    _SIDES,
    SUPERSAMPLE,
    Camera,
    Light,
    RenderedFrame,
    Table,
    _cube_faces,
    _fill,
    _hand_away_from,
    _shade,
    faded,
    filming,
    gathered,
    hand_passing,
    random_light,
    random_table,
    render,
    scattered,
    taken_away,
    throw_path,
)

#: a star's points reach this share of the face's side from its middle
STAR_RADIUS = 0.36
#: the star's inner corners, as a share of its points' reach (a regular five-pointed star)
_STAR_INNER = 0.382
#: The Last Camel's camels, named by their saddles, drawn in their first saddle colour
_CAMELS = tuple(DieSpec(f"{a}-{b}", LAST_CAMEL.face(a).bgr, ())
                for a, b in (("red", "yellow"), ("red", "green"), ("red", "blue"),
                             ("yellow", "green"), ("yellow", "blue"), ("green", "blue")))


@dataclass(frozen=True)
class FaceTruth:
    """What the frame really shows of one die: the face on top, a box round the whole die,
    and whether it is in full view."""

    face: str
    box: tuple[int, int, int, int]
    visible: bool


@dataclass(frozen=True)
class ColourDiePose:
    """A colour die on the table: its centre (mm), turn about the vertical (radians), the face
    on top (an index into the set's faces) and how that face is turned (0-3)."""

    dice: ColourDiceSet
    x: float
    y: float
    yaw: float
    top: int
    spin: int = 0

    @property
    def face(self) -> ColourFace:
        return self.dice.faces[self.top]

    def draw(self, image: np.ndarray, camera: Camera, light: Light, *, size: float, s: int,
             alpha: float = 1.0) -> None:
        eye = np.array(camera.position)
        shown = [self.top, *_SIDES[self.top]]
        faces = _cube_faces(self.x, self.y, self.yaw, (size, size, size))
        with faded(image, camera, faces, s=s, alpha=alpha) as target:
            for k, (corners, normal, u, v) in enumerate(faces):
                if np.dot(normal, eye - corners.mean(0)) <= 0:
                    continue
                face = self.dice.faces[shown[k]]
                paint = _shade(self.dice.body_bgr if face.star else face.bgr, normal, light)
                pts = camera.project(corners, s)
                _fill(target, pts, paint)
                cv2.polylines(target, [np.round(pts * 16).astype(np.int32)], True,
                              tuple(c * 0.75 for c in paint), max(1, s // 2), cv2.LINE_AA,
                              shift=4)
                if face.star:
                    turn = (self.spin if k == 0 else 0) * math.pi / 2
                    _fill(target, camera.project(_star(corners.mean(0), u, v, turn), s),
                          _shade(face.bgr, normal, light))

    def truth(self, box: tuple[int, int, int, int], visible: bool) -> FaceTruth:
        return FaceTruth(self.face.name, box, visible)


def _star(middle: np.ndarray, u: np.ndarray, v: np.ndarray, turn: float) -> np.ndarray:
    """The ten corners of a five-pointed star on the face with half-axes `u`, `v`."""
    angles = turn - math.pi / 2 + np.arange(10) * math.pi / 5
    reach = 2 * STAR_RADIUS * np.where(np.arange(10) % 2, _STAR_INNER, 1.0)
    return (middle[None] + np.outer(reach * np.cos(angles), u)
            + np.outer(reach * np.sin(angles), v))


def colour_dice_table(seed: int, *, size: tuple[int, int] = (640, 480),
                      jitter: bool = True) -> Table:
    """A Last Camel table: its six camels on the board, seen by a camera placed at random
    (`jitter`; without it, where vision.synth's camera stands)."""
    return random_table(seed, LAST_CAMEL.game, size=size, camels=_CAMELS, jitter=jitter)


def scatter(rng: np.random.Generator, table: Table, count: int = 2, *,
            touching: float = 0.15) -> list[ColourDiePose]:
    """`count` of the game's dice lying at random in the roll zone, any face up."""
    return scattered(rng, [LAST_CAMEL] * count, table.layout, ColourDiePose, touching=touching)


def roll_frame(table: Table, light: Light, rng: np.random.Generator, *,
               hands: bool | None = None) -> RenderedFrame:
    """A frame of `table` under `light` with the two dice lying where they were rolled, and
    perhaps a hand over the table, blur, noise and JPEG."""
    poses = scatter(rng, table, LAST_CAMEL.count)
    with_hands = rng.random() < 0.25 if hands is None else hands
    hand_list = [_hand_away_from(rng, table, poses)] if with_hands else []
    blur = rng.uniform(0, 2.5) if rng.random() < 0.3 else 0.0
    noise = rng.uniform(1.5, 4.0) * (1.8 if light.name == "dim" else 1.0)
    return render(table, poses, light, rng=rng, hands=hand_list, blur=blur, noise=noise,
                  jpeg=int(rng.integers(55, 96)))


def random_frame(seed: int, *, size: tuple[int, int] = (640, 480), light: str | None = None,
                 hands: bool | None = None) -> RenderedFrame:
    """A frame of a random Last Camel table, light and roll."""
    rng = np.random.default_rng(seed)
    table = colour_dice_table(int(rng.integers(0, 2 ** 31)), size=size)
    return roll_frame(table, random_light(rng, light), rng, hands=hands)


@dataclass(frozen=True)
class FaceEvent:
    """What happens at a frame of a rendered roll: a die comes to rest ("landed") or is taken
    away ("gone")."""

    frame: int
    kind: str
    face: str


def roll_sequence(seed: int, *, size: tuple[int, int] = (640, 480), light: str | None = None
                  ) -> tuple[list[RenderedFrame], list[FaceEvent]]:
    """A turn at the table (`throw_filmed`) whole: its frames, and what truly happened, frame
    by frame."""
    return gathered(throw_filmed(seed, size=size, light=light),
                    lambda frame, what: FaceEvent(frame, *what))


def throw_filmed(seed: int, *, size: tuple[int, int] = (640, 480), light: str | None = None
                 ) -> Iterator[RenderedFrame | tuple[str, str]]:
    """A turn at the table, frame by frame as the camera takes it: the two dice are thrown
    into the roll zone together, tumble and come to rest; a hand passes over them; then each
    is picked up. What truly happens (kind "landed" or "gone", the face) comes before the
    first frame it holds for."""
    rng = np.random.default_rng(seed)
    table = colour_dice_table(int(rng.integers(0, 2 ** 31)), size=size)
    lit = random_light(rng, light)
    finals = scatter(rng, table, LAST_CAMEL.count, touching=0.0)
    shot = filming(table, lit, rng)
    for _ in range(8):
        yield shot([])
    paths = [throw_path(rng, table.layout, final, steps=10) for final in finals]
    for step in zip(*paths, strict=True):
        yield shot([pose for pose, _ in step], moving=[motion for _, motion in step])
    resting = list(finals)
    for final in finals:
        yield "landed", final.face.name
    for _ in range(12):
        yield shot(resting)
    yield from hand_passing(shot, rng, resting)
    for shown in taken_away(shot, rng, table, resting):
        yield shown if isinstance(shown, RenderedFrame) else ("gone", shown.face.name)


def calibration_frame(table: Table, light: Light, seed: int, *,
                      supersample: int = SUPERSAMPLE) -> RenderedFrame:
    """The two dice laid in the roll zone, apart, any face up, for colour calibration."""
    rng = np.random.default_rng(seed)
    return render(table, scatter(rng, table, LAST_CAMEL.count, touching=0.0), light, rng=rng,
                  noise=2.0, jpeg=92, supersample=supersample)

