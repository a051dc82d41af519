"""The renderer's board: camels standing and stacked on the track, seen at an angle, with the
truth of every frame.

A board table is vision.synth's table seen by a camera placed to take in the whole board and
the four markers, 25 to 55 degrees off vertical (docs/camera.md says why), at 1280 x 720. On
the track stand the game's camels, stacked as the race leaves them; desert tiles lie on empty
spaces, coins and cards beside the board, and the pyramid stands in the board's middle. Lights,
shadows, hands, blur, noise and JPEG are vision.synth's; this module places the camera and the
things on the board, and says what each frame truly shows.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.camels import CamelSet, camel_set
from vision.synth import (
    LIGHTS,
    CamelPose,
    Camera,
    Canvas,
    Hand,
    Light,
    Prop,
    Table,
    _fill,
    _shade,
    fill_solid,
    other_shades,
    random_hand,
    random_light,
    random_table,
    render,
    stacked_camels,
)
from vision.table import TRACK_SPACES, BoardLayout

#: the board camera's image size, as the Pi's camera gives it for the board
BOARD_FRAME = (1280, 720)
#: the camera's angle off vertical, in degrees: the range docs/camera.md recommends
TILTS = (25.0, 55.0)
#: the board benchmark's tables are sessions from here on: no test and no tuning draws from
#: them (the board reader's hand-set choices were tried on sessions 600,000 to 600,099)
VALIDATION_SESSIONS = 1_600_000
#: and for tables whose camels are painted unlike the game's own (`board_session(unlike=True)`)
UNLIKE_VALIDATION_SESSIONS = 1_650_000
#: focal length in pixels for a 1280-pixel-wide image: the Pi Camera Module 3's 66 degrees
_FOCAL = 985.0


@dataclass(frozen=True)
class BoardFrame:
    """A rendered frame of the board (BGR) and its truth: the camels on each space (1-16),
    bottom to top, where each camel stands, and whether a hand is over the board."""

    image: np.ndarray
    stacks: dict[int, tuple[str, ...]]
    camels: tuple[CamelPose, ...]
    hand: bool
    light: str
    camera: Camera


_TURNS = np.linspace(0, 2 * math.pi, 24, endpoint=False)
#: a circle of unit radius as the renderer draws one (a round tile, a tile's mark)
_CIRCLE = np.stack([np.cos(_TURNS), np.sin(_TURNS)], 1)


@dataclass(frozen=True)
class Tile(Prop):
    """A flat square on the board or the table (a desert or spectator tile, a card, a coin's
    box): centre and side in mm, turn, colour, and a symbol's colour in its middle."""

    x: float
    y: float
    side: tuple[float, float]
    yaw: float
    bgr: tuple[int, int, int]
    mark: tuple[int, int, int] | None = None
    round: bool = False

    def depth(self, camera: Camera) -> tuple[float, float]:
        return (-math.inf, 0.0)   # flat: under everything that stands

    def draw(self, canvas: Canvas) -> None:
        up = np.array([0.0, 0.0, 1.0])
        camera, image, light, s = canvas.camera, canvas.image, canvas.light, canvas.s
        _fill(image, camera.project(self.corners(canvas.track), s),
              _shade(self.bgr, up, light))
        if self.mark is not None:
            inner = _CIRCLE * (min(self.side) * 0.3)
            _fill(image, camera.project(self._on_table(inner, 1.2), s),
                  _shade(self.mark, up, light))

    def corners(self, track: BoardLayout) -> np.ndarray:
        """The tile's outline on the table; its mark lies inside it."""
        if self.round:
            outline = _CIRCLE * (self.side[0] / 2)
        else:
            a, b = self.side[0] / 2, self.side[1] / 2
            outline = np.array([(-a, -b), (a, -b), (a, b), (-a, b)])
        return self._on_table(outline, 1.0)

    def _on_table(self, outline: np.ndarray, z: float) -> np.ndarray:
        c, n = math.cos(self.yaw), math.sin(self.yaw)
        x = self.x + outline[:, 0] * c - outline[:, 1] * n
        y = self.y + outline[:, 0] * n + outline[:, 1] * c
        return np.stack([x, y, np.full(len(x), z)], 1)


@dataclass(frozen=True)
class Pyramid(Prop):
    """The pyramid the dice come out of, standing in the board's middle."""

    x: float
    y: float
    base: float
    height: float
    bgr: tuple[int, int, int] = (120, 170, 205)

    def depth(self, camera: Camera) -> tuple[float, float]:
        return (0.0, 0.0)

    def corners(self, track: BoardLayout) -> np.ndarray:
        """The pyramid's base, then its apex."""
        h = self.base / 2
        return np.array([(self.x - h, self.y - h, 0), (self.x + h, self.y - h, 0),
                         (self.x + h, self.y + h, 0), (self.x - h, self.y + h, 0),
                         (self.x, self.y, self.height)], float)

    def draw(self, canvas: Canvas) -> None:
        *corners, apex = self.corners(canvas.track)
        eye = np.array(canvas.camera.position)
        for k in range(4):
            face = np.array([corners[k], corners[(k + 1) % 4], apex])
            normal = np.cross(face[1] - face[0], face[2] - face[0])
            normal /= np.linalg.norm(normal)
            if np.dot(normal, eye - face.mean(0)) > 0:
                fill_solid(canvas, face, _shade(self.bgr, normal, canvas.light))


def board_table(seed: int, game: str = "camelup-2014", *,
                size: tuple[int, int] = BOARD_FRAME) -> Table:
    """A table for `game` with a camera placed at random to see the whole board and the four
    markers, tilted 25 to 55 degrees off vertical, from the players' side of the table."""
    rng = np.random.default_rng(seed)
    table = random_table(int(rng.integers(1 << 30)), game, size=size, jitter=False)
    return board_view(table, rng, size=size)


def board_view(table: Table, rng: np.random.Generator, *,
               size: tuple[int, int] = BOARD_FRAME) -> Table:
    """`table` as a camera placed at random (`rng`) to see its whole board sees it, with no
    camel on it: each frame says where the camels stand."""
    return replace(table, camera=_board_camera(rng, table, size), camels=[], _lit={})


def _board_camera(rng: np.random.Generator, table: Table, size: tuple[int, int]) -> Camera:
    """A camera tilted at random within TILTS, turned a little about the vertical, as close
    as it can be while the board and the markers stay in view with a margin."""
    layout = table.layout
    bx0, by0, bx1, by1 = layout.board
    scene = np.array([*layout.board_corners, *layout.markers], float)
    scene = np.column_stack([scene, np.zeros(len(scene))])
    lo, hi = scene[:, :2].min(0), scene[:, :2].max(0)
    target = np.array([*(lo + hi) / 2 + rng.uniform(-20, 20, 2), 0.0])
    tilt = math.radians(rng.uniform(*TILTS))
    turn = rng.uniform(-0.25, 0.25)
    focal = _FOCAL * size[0] / BOARD_FRAME[0] * rng.uniform(0.95, 1.05)
    # the highest points of the board: stacks of camels and the pyramid
    tall = np.array([(bx0, by0, 110), (bx1, by0, 110), (bx0, by1, 110), (bx1, by1, 110)], float)
    away = np.array([math.sin(turn) * math.sin(tilt), -math.cos(turn) * math.sin(tilt),
                     math.cos(tilt)])
    distance = 300.0
    while True:
        camera = Camera(tuple(target + away * distance), tuple(target), focal, size)
        uv = camera.project(np.vstack([scene, tall]))
        margin = 0.04 * size[0]
        if (uv.min(0) > margin).all() and (uv.max(0) < np.array(size) - margin).all():
            break
        distance += 20.0
    return Camera(tuple(target + away * distance * rng.uniform(1.0, 1.08)), tuple(target),
                  focal, size)


def race_camels(rng: np.random.Generator, track: BoardLayout, camels: CamelSet, *,
                legs: bool = False) -> list[CamelPose]:
    """The game's camels where a race might leave them: in a few stacks on spaces a few
    apart, in any order, the crazy camels too; cut with `legs` or solid."""
    names = list(camels.names)
    order = [names[i] for i in rng.permutation(len(names))]
    stacks = int(rng.integers(1, len(names) + 1))
    first = int(rng.integers(0, TRACK_SPACES))
    spaces = sorted({(first + int(rng.integers(0, 10))) % TRACK_SPACES for _ in range(stacks)})
    where = [spaces[int(rng.integers(0, len(spaces)))] for _ in order]
    return stacked_camels(track, [(n, camels.bgr(n)) for n in order], where,
                          crazy=camels.crazy, rng=rng, legs=legs)


def placed_camels(rng: np.random.Generator, track: BoardLayout, camels: CamelSet,
                  stacks: Mapping[int, Sequence[str]], *, legs: bool = False
                  ) -> list[CamelPose]:
    """The camels where `stacks` (space 1-16: camels bottom to top) has them, set down as
    hands set them; cut with `legs` or solid."""
    order = [(camel, space - 1) for space, pile in sorted(stacks.items()) for camel in pile]
    return stacked_camels(track, [(c, camels.bgr(c)) for c, _ in order],
                          [space for _, space in order], crazy=camels.crazy, rng=rng,
                          legs=legs)


def setup_camels(rng: np.random.Generator, track: BoardLayout, camels: CamelSet, *,
                 legs: bool = False) -> list[CamelPose]:
    """Every camel of the game standing alone on its own space, cut with `legs` or solid:
    the frame the camels' colours are learned from."""
    names = list(camels.names)
    spaces = rng.permutation(TRACK_SPACES)[:len(names)]
    return stacked_camels(track, [(n, camels.bgr(n)) for n in names],
                          [int(k) for k in spaces], crazy=camels.crazy, rng=rng, legs=legs)


def props(rng: np.random.Generator, table: Table, camels: Sequence[CamelPose], *,
          tiles: bool = True) -> list[Prop]:
    """The board's pyramid, desert tiles on a few empty spaces (with `tiles`), and coins and
    cards on the table in front of the board."""
    track = table.track
    bx0, by0, bx1, by1 = table.layout.board
    things: list[Prop] = [Pyramid((bx0 + bx1) / 2, (by0 + by1) / 2, 0.3 * (bx1 - bx0),
                                  rng.uniform(60, 110))]
    taken = {c.space for c in camels}
    free = [k for k in range(1, TRACK_SPACES + 1) if k not in taken]
    for k in rng.permutation(free)[:int(rng.integers(0, 4)) if tiles else 0]:
        x, y = track.spaces[int(k) - 1]
        oasis = rng.random() < 0.5
        things.append(Tile(x + rng.uniform(-5, 5), y + rng.uniform(-5, 5),
                           (0.6 * track.space_size,) * 2, rng.uniform(-0.2, 0.2),
                           (90, 160, 110) if oasis else (150, 200, 225),
                           (60, 120, 60) if oasis else (60, 110, 160)))
    for _ in range(int(rng.integers(0, 6))):
        coin = rng.random() < 0.6
        x = rng.uniform(bx0 - 60, bx1 - 30)
        y = by0 - rng.uniform(15, 70) - (0 if coin else 45)   # a card all off the board
        if coin:
            things.append(Tile(x, y, (22.0, 22.0), 0.0, (60, 170, 215), round=True))
        else:
            yaw = rng.uniform(0, math.pi)
            b, g, r = (int(c) for c in rng.integers(40, 230, 3))
            things.append(Tile(x, y, (57.0, 88.0), yaw, (b, g, r), (235, 235, 235)))
    return things


def board_frame(table: Table, camels: Sequence[CamelPose], light: Light,
                rng: np.random.Generator, *, hand: bool | None = None,
                tiles: bool = True) -> BoardFrame:
    """A frame of `table`'s board with `camels` on it under `light`, the pyramid, coins and
    cards, and with `tiles` desert tiles; perhaps a hand over the board (`hand`), blur, noise
    and JPEG."""
    over = rng.random() < 0.2 if hand is None else hand
    hands = [hand_over_board(rng, table)] if over else []
    blur = rng.uniform(0, 2.0) if rng.random() < 0.2 else 0.0
    noise = rng.uniform(1.5, 4.0) * (1.8 if light.name == "dim" else 1.0)
    frame = render(table, [], light, rng=rng, hands=hands, blur=blur, noise=noise,
                   jpeg=int(rng.integers(60, 96)), camels=camels,
                   props=props(rng, table, camels, tiles=tiles))
    return BoardFrame(frame.image, stacks_of(camels), tuple(camels), over, light.name,
                      table.camera)


def slipped(rng: random.Random, stacks: Mapping[int, Sequence[str]]
            ) -> dict[int, tuple[str, ...]]:
    """`stacks` (space: camels bottom to top) with a camel set down wrong, as hands do: the
    top camel of a stack set a space on, or two neighbours in a stack swapped."""
    wrong = {space: list(pile) for space, pile in stacks.items() if pile}
    space = rng.choice(sorted(wrong))
    pile = wrong[space]
    if len(pile) >= 2 and rng.random() < 0.5:
        k = rng.randrange(len(pile) - 1)
        pile[k], pile[k + 1] = pile[k + 1], pile[k]
    else:
        wrong.setdefault(space % TRACK_SPACES + 1, []).append(pile.pop())
    return {k: tuple(pile) for k, pile in sorted(wrong.items()) if pile}


def stacks_of(camels: Sequence[CamelPose]) -> dict[int, tuple[str, ...]]:
    """The camels on each space, bottom to top."""
    stacks: dict[int, list[CamelPose]] = {}
    for camel in camels:
        stacks.setdefault(camel.space, []).append(camel)
    return {space: tuple(c.colour for c in sorted(pile, key=lambda c: c.level))
            for space, pile in sorted(stacks.items())}


def hand_over_board(rng: np.random.Generator, table: Table, space: int | None = None) -> Hand:
    """A hand reaching over the board, its palm above `space` (1-16; default: any)."""
    track = table.track
    space = int(rng.integers(1, TRACK_SPACES + 1)) if space is None else space
    x, y = track.spaces[space - 1]
    u, v = table.camera.project(np.array([[x, y, 40.0]]))[0]
    w, h = table.camera.size
    hand = random_hand(rng)
    return replace(hand, x=float(u / w), y=float(v / h), size=hand.size * 0.8)


@dataclass
class BoardSession:
    """One table of board frames: its game, light, table, the set-up frame the camels'
    colours are learned from, and a generator for the frames that follow."""

    game: str
    light: Light
    table: Table
    setup: BoardFrame
    rng: np.random.Generator
    #: the camels as this table's are painted (the game's own, or `other_camels`)
    camels: CamelSet
    #: whether this table's camels are cut with legs or are solid blocks
    legs: bool = False

    def set_up_again(self) -> BoardFrame:
        """A new set-up frame, each camel alone on another space, as a person lays them out
        again when the set-up is refused."""
        camels = setup_camels(self.rng, self.table.track, self.camels, legs=self.legs)
        self.setup = board_frame(self.table, camels, self.light, self.rng, hand=False,
                                 tiles=False)
        return self.setup

    def frame(self, *, hand: bool | None = None,
              stacks: Mapping[int, Sequence[str]] | None = None) -> BoardFrame:
        """The next frame: the camels somewhere else on the track, or where `stacks` (space:
        camels bottom to top) puts them."""
        track = self.table.track
        camels = (race_camels(self.rng, track, self.camels, legs=self.legs) if stacks is None
                  else placed_camels(self.rng, track, self.camels, stacks, legs=self.legs))
        return board_frame(self.table, camels, self.light, self.rng, hand=hand)


def other_camels(rng: np.random.Generator, game: str) -> CamelSet:
    """The camels of `game` as another maker paints them, at random (`other_shades`)."""
    camels = camel_set(game)
    return replace(camels, camels=other_shades(rng, camels.camels))


def board_session(seed: int, game: str | None = None, light: str | None = None, *,
                  unlike: bool = False, legs: bool = False) -> BoardSession:
    """Board table `seed`: unless given, the editions take turns table by table and the six
    lights come round two tables each, so any run of tables covers them all alike. With
    `unlike`, its camels are painted unlike the game's own (`other_camels`); with `legs`,
    they are cut with legs rather than solid, and the same seed draws the same table
    otherwise (a change of shape alone, measured on the same tables)."""
    rng = np.random.default_rng(seed)
    game = game or ("camelup-2014", "camelup-2018")[seed % 2]
    camels = other_camels(np.random.default_rng(30_000 + seed), game) if unlike \
        else camel_set(game)
    table = board_table(int(rng.integers(1 << 30)), game)
    chosen = random_light(rng, light or LIGHTS[(seed // 2) % len(LIGHTS)])
    setup = board_frame(table, setup_camels(rng, table.track, camels, legs=legs), chosen, rng,
                        hand=False, tiles=False)
    return BoardSession(game, chosen, table, setup, rng, camels, legs)


