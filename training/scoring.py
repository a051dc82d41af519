"""Scoring readings against the truth: right, wrong, unknown, and false dice; and the same
for the camels on a board.

A reading answers for a true die when its centre lies in the die's box (grown a little) or the
die's centre lies in the reading's box; each is used once, nearest first. A die is read right
when its value (and, where asked, colour and pip colour) are right; wrong when any of them is
given and wrong; unknown when its value is None; missed when no reading answers for it. A
reading with a value that answers for no die is a false die.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vision.board import BoardReading
from vision.dice import DieReading

if TYPE_CHECKING:
    from vision.cards import CardReading
    from vision.synth_cards import CardFrame, CardTruth


@dataclass(frozen=True)
class TrueDie:
    """A die as it really lies: box (x0, y0, x1, y1), value, and colour and pip colour when
    they are known (None: not judged)."""

    box: tuple[float, float, float, float]
    value: int
    colour: str | None = None
    numeral: str | None = None


@dataclass
class Score:
    """Counts over many images; `misses` keeps what went wrong, for a person to look at."""

    dice: int = 0
    right: int = 0
    wrong: int = 0
    unknown: int = 0
    missed: int = 0
    false: int = 0
    misses: list[tuple[str, TrueDie | None, DieReading | None]] = field(default_factory=list)

    def add(self, other: Score) -> None:
        self.dice += other.dice
        self.right += other.right
        self.wrong += other.wrong
        self.unknown += other.unknown
        self.missed += other.missed
        self.false += other.false
        self.misses += other.misses

    def share(self, count: int) -> float:
        return count / self.dice if self.dice else 0.0

    def summary(self) -> str:
        return (f"{self.dice} dice: right {self.share(self.right):.2%}, wrong "
                f"{self.share(self.wrong):.2%}, unknown {self.share(self.unknown):.2%}, "
                f"missed {self.share(self.missed):.2%}, false dice {self.false}")


def score(truth: Sequence[TrueDie], readings: Sequence[DieReading], *,
          ignore: Iterable[tuple[float, float, float, float]] = (),
          grow: float = 0.15) -> Score:
    """How `readings` of one image fare against its `truth`. Readings over a box in `ignore`
    (a die the truth cannot judge: hidden, cut by the frame's edge) count neither way."""
    result = Score(dice=len(truth))
    pairs = []
    for i, t in enumerate(truth):
        for k, r in enumerate(readings):
            if _answers(t.box, r.box, grow):
                pairs.append((_gap(t.box, r.box), i, k))
    used_t, used_r = set(), set()
    for _, i, k in sorted(pairs):
        if i not in used_t and k not in used_r:
            used_t.add(i)
            used_r.add(k)
            _judge(result, truth[i], readings[k])
    for i, t in enumerate(truth):
        if i not in used_t:
            result.missed += 1
            result.misses.append(("not found", t, None))
    ignored = list(ignore)
    for k, r in enumerate(readings):
        if k in used_r or r.value is None:
            continue
        if any(_answers(box, r.box, grow) for box in ignored):
            continue
        result.false += 1
        result.misses.append(("false die", None, r))
    return result


def _judge(result: Score, t: TrueDie, r: DieReading) -> None:
    if r.value is None:
        result.unknown += 1
        result.misses.append(("unknown", t, r))
        return
    wrong = r.value != t.value
    wrong |= t.colour is not None and r.die is not None and r.die != t.colour
    wrong |= t.numeral is not None and r.numeral is not None and r.numeral != t.numeral
    if wrong:
        result.wrong += 1
        result.misses.append(("wrong", t, r))
    elif (t.colour is not None and r.die is None) or (t.numeral is not None
                                                      and r.numeral is None):
        result.unknown += 1
        result.misses.append(("colour unknown", t, r))
    else:
        result.right += 1


def _answers(box: Sequence[float], other: Sequence[float], grow: float) -> bool:
    x0, y0, x1, y1 = box
    gx, gy = (x1 - x0) * grow, (y1 - y0) * grow
    cx, cy = (other[0] + other[2]) / 2, (other[1] + other[3]) / 2
    if x0 - gx <= cx <= x1 + gx and y0 - gy <= cy <= y1 + gy:
        return True
    tx, ty = (x0 + x1) / 2, (y0 + y1) / 2
    return other[0] <= tx <= other[2] and other[1] <= ty <= other[3]


def _gap(box: Sequence[float], other: Sequence[float]) -> float:
    return (((box[0] + box[2]) - (other[0] + other[2])) ** 2
            + ((box[1] + box[3]) - (other[1] + other[3])) ** 2)


@dataclass
class BoardScore:
    """Counts over many board frames: camels right, wrong, unknown (None where a camel
    stands), missed (no camel read where one stands), false (read where none stands); whole
    boards right; frames with a hand over the board, those read as boards all the same, and
    camels read wrong on those; boards taken for a hand."""

    camels: int = 0
    right: int = 0
    wrong: int = 0
    unknown: int = 0
    missed: int = 0
    false: int = 0
    boards: int = 0
    whole: int = 0
    hands: int = 0
    hands_read: int = 0
    wrong_on_hands: int = 0
    taken_for_hands: int = 0

    def add(self, other: BoardScore) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)

    def share(self, count: int) -> float:
        return count / self.camels if self.camels else 0.0

    def summary(self) -> str:
        boards = self.whole / self.boards if self.boards else 0.0
        return (f"{self.camels} camels on {self.boards} boards: right {self.share(self.right):.2%}"
                f", wrong {self.share(self.wrong):.2%}, unknown {self.share(self.unknown):.2%}, "
                f"missed {self.share(self.missed):.2%}, false camels {self.false}; whole boards "
                f"right {boards:.1%}; hand frames {self.hands}: read as a board "
                f"{self.hands_read} (camels wrong on them: {self.wrong_on_hands}); boards "
                f"taken for a hand {self.taken_for_hands}")


def score_board(truth: Mapping[int, Sequence[str]], hand: bool, reading: BoardReading
                ) -> BoardScore:
    """How `reading` of one frame fares against its truth: the camels on each space, bottom
    to top, and whether a hand is over the board."""
    if hand:
        result = BoardScore(hands=1)
        if not reading.hand:
            result.hands_read = 1
            result.wrong_on_hands = _board_counts(truth, reading).wrong
        return result
    if reading.hand:
        camels = sum(len(pile) for pile in truth.values())
        return BoardScore(camels=camels, missed=camels, boards=1, taken_for_hands=1)
    result = _board_counts(truth, reading)
    result.boards = 1
    result.whole = int(result.right == result.camels and result.false == 0)
    return result


def _board_counts(truth: Mapping[int, Sequence[str]], reading: BoardReading) -> BoardScore:
    read = {stack.space: stack.camels for stack in reading.stacks}
    result = BoardScore()
    for space, pile in truth.items():
        seen = read.get(space, ())
        for level, camel in enumerate(pile):
            result.camels += 1
            if level >= len(seen):
                result.missed += 1
            elif seen[level] is None:
                result.unknown += 1
            elif seen[level] == camel:
                result.right += 1
            else:
                result.wrong += 1
        result.false += max(0, len(seen) - len(pile))
    result.false += sum(len(seen) for space, seen in read.items() if space not in truth)
    return result


def score_cards(frame: CardFrame, readings: Sequence[CardReading]) -> tuple[Score, Score]:
    """How `readings` of `frame` fare against its truth, by the rules above (a card's
    camel judged as a die's colour): over the cards in full view (readings of the others
    count neither way), and over every card, to count wrong readings of cards partly hidden
    too (a card under a hand or another card may well go unread, never misread)."""
    def true(cards: Sequence[CardTruth]) -> list[TrueDie]:
        return [TrueDie(c.box, c.value, c.camel) for c in cards]

    as_dice = [DieReading(r.camel, r.value, r.box, r.confidence) for r in readings]
    in_view = score(true([c for c in frame.cards if c.visible]), as_dice,
                    ignore=[c.box for c in frame.cards if not c.visible])
    # cards in full view first: a reading as near one as a card under it answers for the top
    return in_view, score(true(sorted(frame.cards, key=lambda c: not c.visible)), as_dice)
