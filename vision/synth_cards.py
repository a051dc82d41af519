"""A renderer of racing cards laid face up on the table, with the truth for every frame.

Cards are painted onto the table's own top (vision.synth's texture, in millimetres), so the
renderer's camera, light, glare, hands and their shadows, blur, noise and JPEG fall on them as
on the table. A card is the plain design vision.cards reads (its face in the camel's colour,
one or two dark camel marks), printed a little off its nominal colour, at any turn, alone or
on the pile of revealed cards.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.cards import CAMEL_COLOURS
from vision.colours import as_bgr
from vision.spec import CARD_MM, MARK_MM, MARK_SPOTS
from vision.synth import (
    Camera,
    Hand,
    Light,
    Table,
    _fill,
    _hand_mask,
    drawn,
    random_hand,
    random_light,
    random_table,
    render,
)
from vision.table import TableLayout

#: the camel marks' ink (BGR)
MARK_BGR = (32, 34, 40)
#: how high a card's face lies above the table, in millimetres
_CARD_THICKNESS = 0.4


@dataclass(frozen=True)
class CardPose:
    """A racing card lying face up: its camel, its value, its centre (mm), its turn about the
    vertical (radians) and how far its printing is off the nominal colour (gains B, G, R)."""

    camel: str
    value: int
    x: float
    y: float
    yaw: float
    print_gain: tuple[float, float, float] = (1.0, 1.0, 1.0)

    def corners(self) -> np.ndarray:
        """The card's four corners on the table (4 x 3, mm)."""
        return self.to_table(np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
                             * CARD_MM)

    def to_table(self, points: np.ndarray) -> np.ndarray:
        """Table points (N x 3, mm) of points on the card (N x 2, mm from its centre, across
        then along)."""
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        x = self.x + points[:, 0] * c - points[:, 1] * s
        y = self.y + points[:, 0] * s + points[:, 1] * c
        return np.column_stack([x, y, np.full(len(points), _CARD_THICKNESS)])


@dataclass(frozen=True)
class CardTruth:
    """What the frame really shows of one card: camel, value, box and whether it is in full
    view (not under a hand nor another card, not cut by the frame's edge)."""

    camel: str
    value: int
    box: tuple[int, int, int, int]
    visible: bool


@dataclass(frozen=True)
class CardFrame:
    """A rendered frame (BGR) with its cards' truth."""

    image: np.ndarray
    cards: tuple[CardTruth, ...]
    light: str
    camera: Camera
    layout: TableLayout
    hands: int = 0


def random_cards(rng: np.random.Generator, layout: TableLayout, count: int, *,
                 pile: float = 0.3) -> list[CardPose]:
    """`count` racing cards lying face up in the reveal zone (the roll zone), each turned any
    way; with chance `pile` a card lies on the one before, as on the revealed cards' pile."""
    x0, y0, x1, y1 = layout.roll_zone
    reach = CARD_MM[1] / 2
    cards: list[CardPose] = []
    for _ in range(count):
        camel = str(rng.choice(list(CAMEL_COLOURS.references)))
        value = 2 if rng.random() < 0.35 else 1
        gain = as_bgr(rng.uniform(0.92, 1.08, 3))
        for _ in range(200):
            if cards and rng.random() < pile:
                below = cards[-1]
                x = below.x + rng.normal(0, 12)
                y = below.y + rng.normal(0, 12)
            else:
                x = rng.uniform(x0 + 30, x1 - 30)
                y = rng.uniform(y0 + 30, y1 - 30)
            card = CardPose(camel, value, x, y, rng.uniform(0, 2 * math.pi), gain)
            apart = all(math.dist((x, y), (c.x, c.y)) > 2 * reach for c in cards)
            piled = bool(cards) and math.dist((x, y), (cards[-1].x, cards[-1].y)) < reach
            if x0 - 10 < x < x1 + 10 and y0 - 10 < y < y1 + 10 and (apart or piled):
                cards.append(card)
                break
    return cards


def render_cards(table: Table, cards: Sequence[CardPose], light: Light, *,
                 rng: np.random.Generator, hands: Sequence[Hand] = (), blur: float = 0.0,
                 noise: float = 2.0, jpeg: int | None = 90) -> CardFrame:
    """One frame of `table` with `cards` lying on it (the later on top) under `light`."""
    dressed = dressed_table(table, cards, light)
    frame = render(dressed, (), light, rng=rng, hands=hands, blur=blur, noise=noise, jpeg=jpeg)
    covered = _hands_mask(table.camera, hands)
    truths = []
    for k, card in enumerate(cards):
        box, inside = _card_box(table.camera, card)
        hidden = _covered_share(table.camera, card, cards[k + 1:], covered)
        truths.append(CardTruth(card.camel, card.value, box, bool(inside and hidden < 0.02)))
    return CardFrame(frame.image, tuple(truths), light.name, table.camera, table.layout,
                     len(hands))


def dressed_table(table: Table, cards: Sequence[CardPose], light: Light) -> Table:
    """`table` with `cards` painted on its top under `light` (the later on top), kept only as
    drawn in that light (`drawn`): render it with no dice for a frame of the cards. Cards lie
    still for many frames, so the last table dressed is kept on `table` and given again for
    the same cards in the same light, not painted and lit again for each frame."""
    key = (tuple(cards), light)
    if key not in table._dressed:
        ox, oy, ppm = table._texture_origin
        texture = table.texture.astype(np.float32)
        for card in cards:
            _paint_card(texture, card, (ox, oy, ppm), light)
        table._dressed = {}  # the last cards' table let go before these are drawn
        table._dressed = {key: drawn(replace(table, _texture=texture, _lit={}, _dressed={}),
                                     light)}
    return table._dressed[key]


def card_frame(table: Table, light: Light, rng: np.random.Generator, *,
               count: int | None = None, hands: bool | None = None) -> CardFrame:
    """A frame of `table` under `light` with a few racing cards in the reveal zone; perhaps a
    hand over it (on a card or not), camera shake, noise and JPEG."""
    cards = random_cards(rng, table.layout, count or int(rng.integers(1, 4)))
    with_hand = rng.random() < 0.3 if hands is None else hands
    hand_list = []
    if with_hand:
        hand = random_hand(rng)
        if rng.random() < 0.5:  # over a card, covering part of it
            target = cards[int(rng.integers(0, len(cards)))]
            u, v = table.camera.project(np.array([[target.x, target.y, 0.0]]))[0]
            w, h = table.camera.size
            hand = replace(hand, x=float(u / w + rng.normal(0, 0.08)),
                           y=float(v / h + rng.normal(0, 0.08)))
        hand_list.append(hand)
    blur = rng.uniform(0, 2.0) if rng.random() < 0.3 else 0.0
    noise = rng.uniform(1.5, 4.0) * (1.8 if light.name == "dim" else 1.0)
    return render_cards(table, cards, light, rng=rng, hands=hand_list, blur=blur, noise=noise,
                        jpeg=int(rng.integers(55, 96)))


def random_card_frame(seed: int, *, size: tuple[int, int] = (640, 480),
                      light: str | None = None, count: int | None = None,
                      hands: bool | None = None) -> CardFrame:
    """A frame of a random table and light with a few racing cards in the reveal zone."""
    rng = np.random.default_rng(seed)
    table = random_table(int(rng.integers(0, 2 ** 31)), size=size)
    return card_frame(table, random_light(rng, light), rng, count=count, hands=hands)


def card_calibration_frame(table: Table, light: Light, seed: int, *,
                           leaving_out: Iterable[str] = ()) -> CardFrame:
    """One card of each camel laid face up in the reveal zone, apart, for colour
    calibration; but for the cards of the camels `leaving_out`, as a person who forgot one
    lays them."""
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = table.layout.roll_zone
    # three across the far half of the zone and two across the near half
    places = [(x0 + (x1 - x0) * f, y1 - 0.5 * CARD_MM[1] + 10) for f in (0.18, 0.5, 0.82)]
    places += [(x0 + (x1 - x0) * f, y0 + 0.5 * CARD_MM[1] - 14) for f in (0.3, 0.7)]
    order = rng.permutation(len(places))
    cards = [CardPose(camel, int(rng.integers(1, 3)), places[k][0] + rng.uniform(-2, 2),
                      places[k][1] + rng.uniform(-2, 2), rng.uniform(-0.05, 0.05),
                      as_bgr(rng.uniform(0.92, 1.08, 3)))
             for camel, k in zip(CAMEL_COLOURS.references, order, strict=True)]
    gone = set(leaving_out)
    return render_cards(table, [c for c in cards if c.camel not in gone], light, rng=rng,
                        noise=2.0, jpeg=92)


@dataclass(frozen=True)
class CardEvent:
    """What happens at a frame of a rendered sequence: a card is laid ("landed") or taken
    away ("gone")."""

    frame: int
    kind: str
    camel: str
    value: int


def card_sequence(seed: int, *, size: tuple[int, int] = (640, 480), light: str | None = None,
                  cards: int = 3, laid: Sequence[CardPose] | None = None
                  ) -> tuple[list[CardFrame], list[CardEvent]]:
    """A short film of the reveal zone: cards are laid face up one after another (`laid`, else
    `cards` random ones), some on the pile of those before; a hand passes over them; then
    they are gathered up, top first. Returns the frames and what truly happened, frame by
    frame."""
    rng = np.random.default_rng(seed)
    table = random_table(int(rng.integers(0, 2 ** 31)), size=size)
    lit = random_light(rng, light)
    if laid is None:
        laid = random_cards(rng, table.layout, cards, pile=0.5)
    frames: list[CardFrame] = []
    events: list[CardEvent] = []
    lying: list[CardPose] = []

    def shoot(shown: Sequence[CardPose], hands: Sequence[Hand] = ()) -> None:
        frames.append(render_cards(table, shown, lit, rng=rng, hands=hands, noise=2.5, jpeg=85))

    def hand_at(card: CardPose) -> Hand:
        u, v = table.camera.project(np.array([[card.x, card.y, 20.0]]))[0]
        w, h = table.camera.size
        return replace(random_hand(rng), x=float(u / w), y=float(v / h))

    for _ in range(8):
        shoot(lying)
    for card in laid:
        hand = hand_at(card)
        for _ in range(3):
            shoot(lying, [hand])
        lying.append(card)
        for _ in range(3):
            shoot(lying, [hand])
        events.append(CardEvent(len(frames), "landed", card.camel, card.value))
        for _ in range(12):
            shoot(lying)
    passing = random_hand(rng)
    for k in range(14):
        shoot(lying, [replace(passing, x=-0.2 + 1.4 * k / 13, y=0.5, angle=math.pi / 2 + 0.4)])
    for _ in range(10):
        shoot(lying)
    while lying:
        card = lying[-1]
        hand = hand_at(card)
        for _ in range(3):
            shoot(lying, [hand])
        lying.pop()
        for _ in range(3):
            shoot(lying, [hand])
        events.append(CardEvent(len(frames), "gone", card.camel, card.value))
        for _ in range(10):
            shoot(lying)
    return frames, events


def camel_mark() -> list[np.ndarray]:
    """A camel's silhouette as polygons (mm, centred, facing across the card, its back
    towards the card's far end), MARK_MM across and along."""
    parts = [cv2.ellipse2Poly((0, 0), (100, 50), 0, 0, 360, 10),            # body
             cv2.ellipse2Poly((-20, 45), (55, 42), 0, 0, 180, 10),        # hump
             np.array([[55, 10], [100, 85], [130, 80], [95, -15]]),         # neck
             cv2.ellipse2Poly((135, 88), (32, 20), 0, 0, 360, 15),          # head
             np.array([[-115, 0], [-135, -60], [-122, -62], [-100, -10]])]  # tail
    parts += [np.array([[x - 12, -20], [x + 12, -20], [x + 12, -125], [x - 12, -125]])
              for x in (-80, -45, 45, 80)]                                   # legs
    points = np.vstack(parts).astype(np.float64)
    lo, hi = points.min(axis=0), points.max(axis=0)
    scale = np.array(MARK_MM) / (hi - lo)
    return [(p - (lo + hi) / 2) * scale for p in parts]


def _paint_card(texture: np.ndarray, card: CardPose, origin: tuple[float, float, float],
                light: Light) -> None:
    """Paint `card` onto the table's texture (seen from above, `origin` = (x0, y1, px/mm)),
    with the faint shadow its edge casts away from the light."""
    ox, oy, ppm = origin

    def to_px(points: np.ndarray) -> np.ndarray:
        table = card.to_table(points)
        return np.column_stack([(table[:, 0] - ox) * ppm, (oy - table[:, 1]) * ppm])

    lx, ly, lz = light.direction
    away = np.array([-lx, ly]) / max(lz, 0.2) * 0.8 * ppm
    outline = to_px(_rounded_rectangle(CARD_MM, 3.0))
    shadow = np.zeros(texture.shape[:2], np.float32)
    _fill(shadow, outline + away, (1.0,))
    shadow = cv2.GaussianBlur(shadow, (0, 0), 1.2)
    texture *= (1.0 - 0.35 * shadow)[..., None]
    face = np.array(CAMEL_COLOURS.references[card.camel]) * np.array(card.print_gain)
    _fill(texture, outline, tuple(np.clip(face, 0, 255)))
    for spot in MARK_SPOTS[card.value]:
        for part in camel_mark():
            _fill(texture, to_px(part + np.array([0.0, spot])), MARK_BGR)


def _rounded_rectangle(size: tuple[float, float], radius: float) -> np.ndarray:
    """A rectangle's outline with rounded corners, centred (N x 2)."""
    w, h = size[0] / 2 - radius, size[1] / 2 - radius
    points = []
    for cx, cy, start in ((w, h, 0), (-w, h, 90), (-w, -h, 180), (w, -h, 270)):
        for a in np.radians(np.linspace(start, start + 90, 5)):
            points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return np.array(points)


def _hands_mask(camera: Camera, hands: Sequence[Hand]) -> np.ndarray:
    """The pixels the hands cover, at the camera's size."""
    w, h = camera.size
    covered = np.zeros((h, w), bool)
    for hand in hands:
        covered |= _hand_mask(hand, w, h) > 0
    return covered


def _card_box(camera: Camera, card: CardPose) -> tuple[tuple[int, int, int, int], bool]:
    """The card's box in the image, and whether the card lies wholly inside the frame."""
    uv = camera.project(card.corners())
    w, h = camera.size
    x0, y0 = np.floor(uv.min(axis=0)).astype(int)
    x1, y1 = np.ceil(uv.max(axis=0)).astype(int)
    inside = x0 > 0 and y0 > 0 and x1 < w - 1 and y1 < h - 1
    return (int(max(0, x0)), int(max(0, y0)), int(min(w - 1, x1)), int(min(h - 1, y1))), inside


def _covered_share(camera: Camera, card: CardPose, above: Sequence[CardPose],
                   hands: np.ndarray) -> float:
    """The share of `card` hidden by the hands or by the cards lying on it."""
    h, w = hands.shape
    mine = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mine, np.round(camera.project(card.corners())).astype(np.int32), 1)
    over = hands.copy()
    for other in above:
        top = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(top, np.round(camera.project(other.corners())).astype(np.int32), 1)
        over |= top > 0
    area = int(mine.sum())
    return float((over & (mine > 0)).sum()) / area if area else 1.0
