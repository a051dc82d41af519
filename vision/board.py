"""The board reader: which camels stand on each track space, bottom to top, from one frame.

On a calibrated table the reader knows where every space is and where the camera stands, and
`[vision.board]` gives a camel's size, so it can draw any board it imagines as the camera
would see it: each camel a box on its space, stacks hiding what stands behind them, and the
board round them as the set-up frame showed it. It reads a frame by looking for the board,
among those it can imagine, that the frame's colours fit best: each pixel costs how far its
colour lies from the colour of what the imagined board puts there (a camel's, learned from the
set-up frame where each camel stands alone; or the bare board's, that frame itself). It starts
from an empty board and moves one camel at a time to wherever the fit improves most (off the
board included), then swaps camels pairwise, until no move improves it. Each camel is on the
board once, so a tile or card of a camel's colour cannot take a camel away from where it is
plainly seen.

A camel the drawn board leaves almost wholly hidden (behind a nearer stack, under the camels
above it) is reported as None at its height, as is one whose pixels another camel's colour
would fit nearly as well: the reader says it cannot tell rather than guess.

A hand over the board is told by what the frame shows that the set-up frame did not, away from
every camel, over more of the board than a tile or a card covers; such a frame is not read.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from vision import light
from vision.calibrate import CalibrationError, TableCalibration, cheapest_assignment
from vision.camels import CamelSet
from vision.colours import across_channels, colour_distance, colour_feature
from vision.table import TRACK_SPACES, BoardLayout
from vision.track_view import SHIFT, TrackView

#: the frame is read at this share of its size: a camel is still tens of pixels
_SCALE = 1.0
#: one pixel costs at most this (colour_distance units): a glint or a speck weighs no more
_CLIP = 4.0
#: how much more a camel's brightness varies than one face's: its faces turn to the light
#: differently from space to space
_SHADING = 1.5
#: the core of a camel's outline, this many mm in from its sides, is surely the camel; the
#: rest of its outline may be the board (a camel set down askew) and costs whichever is less
_CORE = 4.0
#: what leaving a camel off the board costs: a camel is placed where the frame shows it at
#: least this much better than the bare board
_ABSENT = 100.0
#: a space is looked at for camels where one alone would fit the frame better than the bare
#: board by this much
_EVIDENCE = 30.0
#: a pixel this far from the bare board's colour there (colour_distance units) shows
#: something else
_OTHER = 2.0
#: a space whose square shows something else over this share of where no camel would
#: stand holds a tile (or a card, a hand), and no camel
_TILE = 0.2
#: a camel standing alone on a space at set-up differs at least this much (colour_distance
#: units) from the board round it, on its side or its back
_STANDS_OUT = 1.2
#: how far (mm) a camel may stand off its space's middle, as hands set camels down, and how
#: much of its height its head may rise above its back
_ASKEW = 5.0
_HEAD = 0.4
#: a camel is 63 % sure when the frame fits this much worse (in colour_distance units summed
#: over pixels) with it swapped for any other camel, moved anywhere else, or taken off
_SURE = 200.0
#: the share of a space's side printed in the space's own colour (inside its edge), and
#: the share of that a camel standing on it must leave in view for the board under the
#: camel to be taken to be of that colour
_PRINTED = 0.9
_SHOWN = 0.1
#: the hand check looks at the frame at the size the light is measured at
_HAND_SCALE = light.SCALE
#: a pixel whose colour differs from the set-up frame's by this share of the light there, in
#: a channel, shows something new (skin is near the colour of a sandy board)
_HAND_CHANGE = 0.15
#: a hand covers at least this many spaces' worth of the board, and its arm as much again
#: beyond the board
_HAND_SPACES = (0.5, 0.5)
#: an arm that does not show against the table (skin over wood) still crosses the board's
#: edge: a hand is then more of the board, from its edge, than this many spaces (a tile or a
#: card lying at the edge covers one)
_HAND_FROM_EDGE = 2.0
#: the eight steps to a pixel's neighbours
_NEIGHBOURS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
#: the fit stops after this many rounds of moves even if one still improves it
_ROUNDS = 4
#: stacks of up to this many camels are tried in every order, taller ones each camel moved
_REORDER = 4
#: of a stack's options, at most this many (the likeliest) are each shifted to fit
_REALIGNED = 4
#: of a stack's merges with the stack beside it, this many (the likeliest) are tried again
#: with each of their camels moved to every height
_RESTACKED = 2
#: at most this many rounds of shifting the stacks found to fit, then searching again
_SETTLE = 3


@dataclass(frozen=True)
class Stack:
    """The camels on one space (1-16), bottom to top; None for a camel the reader knows is
    there but cannot see (hidden behind a nearer stack) or cannot tell; and how sure it is."""

    space: int
    camels: tuple[str | None, ...]
    confidence: float

    def to_json(self) -> dict:
        return {"space": self.space, "camels": list(self.camels),
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class BoardReading:
    """What one frame shows of the board: its stacks by space (empty spaces left out), or
    only that a hand is over it."""

    stacks: tuple[Stack, ...]
    hand: bool = False
    contradicts: float | None = None
    """How sure the frame shows a board other than the one it was read against (0 to 1),
    when it was read against one."""

    def to_json(self) -> dict:
        if self.hand:
            return {"hand": True}
        out = {"stacks": [s.to_json() for s in self.stacks], "hand": False}
        if self.contradicts is not None:
            out["contradicts"] = round(self.contradicts, 3)
        return out


@dataclass(frozen=True)
class CamelColours:
    """What the camera sees of a table's camels under its light: each camel's colours (BGR:
    its side facing the camera, its back), and the space each stood on in the set-up frame
    (where that frame does not show the bare board)."""

    camels: Mapping[str, tuple[tuple[float, float, float], ...]]
    spaces: Mapping[str, int]


def learn_camels(image: np.ndarray, table: TableCalibration, track: BoardLayout,
                 camels: CamelSet) -> CamelColours:
    """The colours of each of the game's camels, from a set-up frame with every camel
    standing alone on its own space: the spaces whose camel's side or back stand out most
    from the board round them hold the camels, matched to the game's colours each once,
    nearest the nominal ones."""
    view = TrackView(table, track, len(camels.names))
    smooth = cv2.GaussianBlur(image, (3, 3), 0)
    found: list[_Standing] = []
    for space in range(1, TRACK_SPACES + 1):
        seen = view.standing(smooth, space)
        if seen is None:
            continue
        standing = _Standing(space, seen[1], seen[0])
        if standing.stands_out > _STANDS_OUT:
            found.append(standing)
    found.sort(key=lambda f: -f.stands_out)
    names = camels.names
    likeliest = found[:len(names) + 2]
    # a thing that looks more like the board round it than like the camel it is paired with
    # is not that camel (the pyramid's edge in dim light, say, while a camel is missing)
    pairs = [(k, c) for k, c, apart in _pairs(_faces(likeliest), camels)
             if apart < likeliest[k].stands_out]
    if len(pairs) < len(names):
        named = {c for _, c in pairs}
        missing = [n for c, n in enumerate(names) if c not in named]
        raise CalibrationError(f"found {len(pairs)} camels on the board, the game has "
                               f"{len(names)}: could not find the {', '.join(missing)} "
                               f"camel{'s' if len(missing) > 1 else ''}; stand every camel "
                               "alone on its own space, in view, and try again")
    return CamelColours({names[c]: likeliest[k].own_faces() for k, c in pairs},
                        {names[c]: likeliest[k].space for k, c in pairs})


def set_up(setup: np.ndarray, table: TableCalibration, track: BoardLayout, camels: CamelSet,
           *, threshold: float = 0.5) -> BoardReader:
    """The reader of a table whose camels stand each alone on its own space in the set-up
    frame `setup`: their colours learned from it, and the bare board round them; a
    CalibrationError names a camel it cannot find."""
    colours = learn_camels(setup, table, track, camels)
    return BoardReader(table, track, colours, camels, setup, threshold=threshold)


class _Standing(NamedTuple):
    """A camel found standing alone at set-up: its space, its faces' colours (BGR: its side
    facing the camera, its back) and how far each stands out from the board round it."""

    space: int
    faces: tuple[tuple[float, float, float], ...]
    apart: tuple[float, ...]

    @property
    def stands_out(self) -> float:
        """How far the camel stands out from the board round it: as far as its farther
        face."""
        return max(self.apart)

    def own_faces(self) -> tuple[tuple[float, float, float], ...]:
        """The colours of the faces that stand out from the board round the camel: a face
        that does not shows the board (a camel seen end on shows a strip of side and much
        board), and a camel with the board's colour fits an empty space as well as the
        board does, so camels would be read on an empty board."""
        return tuple(face for face, apart in zip(self.faces, self.apart, strict=True)
                     if apart > _STANDS_OUT)


def _faces(found: Sequence[_Standing]) -> np.ndarray:
    """The colours (BGR) of the faces of the camels found: one row a camel, its side then
    its back."""
    return np.array([one.faces for one in found], np.float64)


def _pairs(seen: np.ndarray, camels: CamelSet) -> list[tuple[int, int, float]]:
    """Which of the camels `seen` (their faces' colours, BGR) is which of the game's camels,
    and how far apart their colours lie (seen, camel, distance): as many pairs as the fewer
    of the two, each used once, nearest the nominal colours overall once the light's cast
    is taken out (the gains that bring the colours paired so far to their nominal ones). A
    camel is as near a colour as the nearer of its faces: a face may show the board instead
    (a camel seen end on shows little side, a back in shadow little colour)."""
    if len(seen) == 0:
        return []
    nominal = np.array([camels.bgr(n) for n in camels.names], np.float64)
    gains = np.ones(3)
    for _ in range(3):
        by_face = colour_distance(colour_feature(seen * gains)[:, :, None],
                                  colour_feature(nominal)[None, None])
        face = by_face.argmin(axis=1)
        cost = by_face.min(axis=1)
        if len(seen) <= len(nominal):
            pairs = list(enumerate(cheapest_assignment(cost)))
        else:
            pairs = [(k, c) for c, k in enumerate(cheapest_assignment(cost.T))]
        found, named = (list(side) for side in zip(*pairs, strict=True))
        nearest = seen[found, face[found, named]]
        gains = np.median((nominal[named] + 10.0) / (nearest + 10.0), axis=0)
    return [(k, c, float(cost[k, c])) for k, c in pairs]


class BoardReader:
    """Reads the stacks on a calibrated table's board, from what the set-up frame showed:
    the camels' colours (`colours`, learned from it) and the bare board (`setup`, the frame
    itself, with the board under its camels filled in from round them). A camel read with
    a confidence below `threshold` is None."""

    def __init__(self, table: TableCalibration, track: BoardLayout, colours: CamelColours,
                 camels: CamelSet, setup: np.ndarray, *, threshold: float = 0.5) -> None:
        self.view = TrackView(table, track, len(camels.names))
        self.colours = colours
        self.names = list(colours.camels)
        self.threshold = threshold
        self._camel_costs = _camel_costs([colours.camels[name] for name in self.names])
        under = np.zeros(setup.shape[:2], np.uint8)
        for space in colours.spaces.values():
            cv2.fillConvexPoly(under, self.view.camel_outline(space, 0, grow=_ASKEW,
                                                              head=_HEAD), 1, shift=SHIFT)
        # and the camels' blurred edges and shadows, so the board filled in comes from the
        # bare board round them alone
        under = cv2.dilate(under, np.ones((9, 9), np.uint8))
        # the bare board itself is not kept, only what a read compares with (a frame less held)
        board = self._bare_board(cv2.GaussianBlur(setup, (3, 3), 0), under,
                                 colours.spaces.values())
        self._drawing = _Drawing(self.view, len(self.names))
        # in half floats: 2 MB rather than 4 for a 1280x720 frame's board, held as long as
        # the table is; a pixel's cost moves by a hundredth of ordinary variation at most
        self._bare_colours = colour_feature(self._drawing.crop(board)).astype(np.float16)
        # where the hand check looks, at the size the light is measured at: not where the
        # set-up camels stood, and on the board; the light is measured where both hold
        size = light.small(board).shape[:2]
        self._hand_under = cv2.resize(under, (size[1], size[0]),
                                      interpolation=cv2.INTER_NEAREST) == 0
        self._hand_board = np.zeros(size, np.uint8)
        cv2.fillConvexPoly(self._hand_board, self.view.board_outline(scale=_HAND_SCALE), 1,
                           shift=SHIFT)
        self._light = light.LightChange(board, (self._hand_board > 0) & self._hand_under)
        self._hand_edge = self._hand_board - cv2.erode(self._hand_board,
                                                       np.ones((5, 5), np.uint8))

    def _bare_board(self, smooth: np.ndarray, under: np.ndarray, spaces: Iterable[int]
                    ) -> np.ndarray:
        """The set-up frame with the board under its camels (`under`) filled in: on a
        camel's own space, the colour of that space where it shows round the camel (a space
        is printed in one colour, and the spaces round it often in another); beyond it (a
        camel standing up hides what lies behind it), the board round it, inpainted."""
        bare = smooth.copy()
        hidden = under.copy()
        for space in spaces:
            square = np.zeros(under.shape, np.uint8)
            cv2.fillConvexPoly(square, self.view.space_outline(space, _PRINTED), 1,
                               shift=SHIFT)
            shown = (square > 0) & (under == 0)
            if shown.sum() >= _SHOWN * square.sum():
                covered = (square > 0) & (under > 0)
                bare[covered] = np.median(smooth[shown], axis=0)
                hidden[covered] = 0
        return cv2.inpaint(bare, hidden, 5, cv2.INPAINT_TELEA)

    @property
    def pixels_per_mm(self) -> float:
        """About how many pixels of a frame a millimetre of the board is, on average."""
        return self._drawing.pixels_per_mm / _SCALE

    def space_outlines(self) -> dict[int, list[list[int]]]:
        """Each track space's square in a frame (its corners in pixels): where a page marks
        a space."""
        return {space: (self.view.space_outline(space) >> SHIFT).reshape(-1, 2).tolist()
                for space in range(1, TRACK_SPACES + 1)}

    def read(self, frame: np.ndarray, against: Mapping[int, Sequence[str]] | None = None
             ) -> BoardReading:
        """The stacks the frame shows, or that a hand is over the board; read `against` a
        board (space: camels bottom to top), also how sure it is that the frame shows
        another."""
        costs, small, change = self._seen(frame)
        found = self._fit(costs)
        if self._hand(small, change, found):
            reading = BoardReading((), hand=True)
        else:
            contradicts = None if against is None else self._contradicts(costs, found,
                                                                         against)
            reading = BoardReading(self._stacks(found, costs), contradicts=contradicts)
        self._drawing.new_frame()   # the stacks it drew are let go until the next frame
        return reading

    def _contradicts(self, costs: np.ndarray, found: dict[int, list[int]],
                     against: Mapping[int, Sequence[str]]) -> float | None:
        """How sure the frame shows a board other than `against`: none when that board,
        each stack shifted to fit, fits the frame as well as the one found, surer the worse
        it fits (the scale of a camel's confidence); None when it names a camel this table
        has not."""
        index = {name: k for k, name in enumerate(self.names)}
        if any(c not in index for pile in against.values() for c in pile):
            return None
        other = {space: [index[c] for c in pile] for space, pile in against.items() if pile}
        drawing = self._drawing
        kept = dict(drawing.shifts)
        before = drawing.cost(costs, found) - _ABSENT * sum(map(len, found.values()))
        for space in other:
            drawing.align(costs, other, space)
        after = drawing.cost(costs, other) - _ABSENT * sum(map(len, other.values()))
        drawing.shifts.clear()
        drawing.shifts.update(kept)
        drawing.forget()
        return 1.0 - float(np.exp(-max(0.0, after - before) / _SURE))

    def _seen(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What a read looks at in `frame`: what each pixel costs as each thing a board may
        show (`_costs`), under the set-up's light; the frame at the hand check's size; and
        how the light has changed since set-up (`vision.light`)."""
        smooth = cv2.GaussianBlur(frame, (3, 3), 0)
        small = light.small(smooth)
        change = self._light.since(small)
        crop = self._light.relit(self._drawing.crop(smooth), change, self._drawing.box, _SCALE)
        return self._costs(crop), small, change

    def _costs(self, crop: np.ndarray) -> np.ndarray:
        """What each pixel looked at costs as each thing the drawing may put there: camel k
        (k < n), the rim of camel k's outline (n + k: its own colour or the board's,
        whichever is less), the bare board (2n); each row in the order of the drawing's
        `pixels`."""
        n = len(self.names)
        drawing = self._drawing
        costs = np.empty((2 * n + 1, drawing.plane), np.float32)
        # a pixel no stack can cover (the board's middle, the table beyond it) is the bare
        # board in every board drawn: it costs nothing, and its colour is not looked at
        costs[:, drawing.plane - 1] = 0.0
        # a piece of a band of rows at a time: the colours' features are doubles, and a
        # whole crop's with the steps to its costs held more than twice the costs themselves
        for (rows, columns), (start, stop) in zip(drawing.looked_at, drawing.places_of,
                                                  strict=True):
            part = crop[rows, columns]
            bins = _bins(part).ravel()
            for camel, table in enumerate(self._camel_costs):
                costs[camel, start:stop] = table.take(bins)
            board = costs[2 * n, start:stop]
            board[...] = np.minimum(colour_distance(
                colour_feature(part), self._bare_colours[rows, columns]), _CLIP).ravel()
            np.minimum(costs[:n, start:stop], board, out=costs[n:2 * n, start:stop])
        return costs

    def _fit(self, costs: np.ndarray) -> dict[int, list[int]]:
        """The stacks (space: camels bottom to top, by index) the frame's colours fit best:
        from an empty board, each camel in turn moved to where the fit improves most (off
        the board included), then camels swapped pairwise, round after round; then each
        stack shifted to fit, the search run again, and each stack remade (`_reordered`),
        while remaking changes anything."""
        drawing = self._drawing
        candidates = drawing.candidates(costs) - drawing.covered(costs)

        change = functools.partial(self._worse, costs)
        drawing.new_frame()
        stacks: dict[int, list[int]] = {}
        stacks = self._improve(stacks, change, candidates)
        for _ in range(_SETTLE):
            for space in stacks:
                drawing.align(costs, stacks, space)
            improved = self._improve(stacks, change, candidates)
            stacks = self._reordered(costs, improved)
            if stacks == improved:
                break
        return stacks

    def _worse(self, costs: np.ndarray, stacks: dict[int, list[int]],
               option: dict[int, list[int]]) -> float:
        """How much more the frame's pixels cost as `option` would show them than as
        `stacks` would, less _ABSENT for each camel more it puts on the board."""
        return self._drawing.change(costs, stacks, option) - _ABSENT * _placed(stacks, option)

    def _reordered(self, costs: np.ndarray, stacks: dict[int, list[int]]
                   ) -> dict[int, list[int]]:
        """`stacks` with each stack remade as fits the frame best (`_remakes`), each way at
        the shift that fits it best: a stack's shift found for a wrong order, or for a camel
        too few, holds it in place against every single move tried at that shift."""
        drawing = self._drawing
        for space in sorted(stacks):
            if space not in stacks:
                continue   # its camels were taken onto another stack
            options, worths = self._remakes(costs, stacks, space)
            # shifting every option to fit costs a hundred drawings: only the likeliest at
            # the shifts there are now are
            likeliest = sorted(range(len(options)), key=worths.__getitem__)[:_REALIGNED]
            best: tuple[float, dict[int, list[int]], dict[int, tuple[int, int]]] = (
                -1e-6, stacks, {})
            for k in likeliest:
                value, shifts = drawing.realigned(costs, stacks, options[k])
                value -= _ABSENT * _placed(stacks, options[k])
                if value < best[0]:
                    best = (value, options[k], shifts)
            drawing.shifts.update(best[2])
            stacks = best[1]
        drawing.forget()
        return stacks

    def _remakes(self, costs: np.ndarray, stacks: dict[int, list[int]], space: int
                 ) -> tuple[list[dict[int, list[int]]], list[float]]:
        """The ways to remake the stack on `space` (`_remade`, `_merged`), and how much
        worse the frame fits each (`_worse`). A tall stack read as two is often read out of
        order too, so that no merge alone fits better than the two: the likeliest merges
        (_RESTACKED) are tried again with each of their camels moved to every height."""
        n = len(self.names)
        options = _remade(stacks, space, n)
        merged = _merged(stacks, space, n)
        worth_merged = [self._worse(costs, stacks, option) for option in merged]
        for k in sorted(range(len(merged)), key=worth_merged.__getitem__)[:_RESTACKED]:
            pile = merged[k][space]
            options += [{**merged[k], space: list(order)} for order in _one_moved(pile)
                        if list(order) != pile]
        return options + merged, ([self._worse(costs, stacks, option) for option in options]
                                  + worth_merged)

    def _improve(self, stacks: dict[int, list[int]], change, candidates: set[int]
                 ) -> dict[int, list[int]]:
        """`stacks` improved by moving one camel at a time and swapping pairs, round after
        round, until no move improves the fit."""
        n = len(self.names)
        for _ in range(_ROUNDS):
            improved = False
            for camel in range(n):
                base = _without(stacks, camel)
                options = [base, *_placings(base, camel, candidates)]
                gains = [change(stacks, option) for option in options]
                best = int(np.argmin(gains))
                if gains[best] < -1e-6:
                    stacks, improved = options[best], True
            for a in range(n):
                for b in range(a + 1, n):
                    option = _swapped(stacks, a, b)
                    if option != stacks and change(stacks, option) < -1e-6:
                        stacks, improved = option, True
            if not improved:
                break
        return stacks

    def _stacks(self, found: dict[int, list[int]], costs: np.ndarray) -> tuple[Stack, ...]:
        """The stacks found, each camel named when the frame shows it surely, else None: how
        much worse the frame fits with that camel swapped for any other, or moved anywhere
        else, or taken off."""
        drawing, n = self._drawing, len(self.names)
        candidates = set(found)
        out = []
        for space in sorted(found):
            camels: list[str | None] = []
            sure = []
            for camel in found[space]:
                others = [_swapped(found, camel, b) for b in range(n) if b != camel]
                base = _without(found, camel)
                moved = [o for o in _placings(base, camel, candidates) if o != found]
                worse = min([drawing.change(costs, found, o) for o in others + moved]
                            + [drawing.change(costs, found, base) + _ABSENT])
                confidence = 1.0 - float(np.exp(-max(0.0, worse) / _SURE))
                sure.append(confidence)
                camels.append(self.names[camel] if confidence >= self.threshold else None)
            out.append(Stack(space, tuple(camels), float(min(sure))))
        return tuple(out)

    def _hand(self, now: np.ndarray, change: np.ndarray, found: dict[int, list[int]]
              ) -> bool:
        """Whether a hand reaches over the board: something that was not there at set-up,
        away from every camel found now or standing there at set-up, over part of the board
        and reaching beyond it, as an arm does, or over much of it from its edge (a tile, a
        shadow, a card lies on the board or beside it; the pyramid stands in its middle).
        `now` is the frame at the check's size, and `change` the light's change since
        set-up: the two are compared under one light, each channel by its share of the light
        there (skin is near the colour of a sandy board)."""
        small = _HAND_SCALE
        bare = self._light.shot
        before = bare * self._light.gain(change, (0, 0, bare.shape[1], bare.shape[0]), small)
        changed = across_channels(np.logical_or, np.abs(now - before) > _HAND_CHANGE * (
            before + 30.0)).astype(np.uint8)
        for space, pile in found.items():
            cv2.fillConvexPoly(changed, self.view.camel_outline(
                space, 0, grow=_ASKEW, levels=len(pile), head=_HEAD, scale=small), 0,
                shift=SHIFT)
        changed &= self._hand_under
        # specks away, then a hand's pieces joined (skin on a sandy board shows in parts)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
        board = self._hand_board
        count, parts = cv2.connectedComponents(changed)
        if count < 2:
            return False
        inside = np.bincount(parts[board > 0], minlength=count)[1:]
        outside = np.bincount(parts[board == 0], minlength=count)[1:]
        on_edge = np.bincount(parts[self._hand_edge > 0], minlength=count)[1:]
        a_space = (self.view.track.space_size * small * self.pixels_per_mm) ** 2
        arm = (inside > _HAND_SPACES[0] * a_space) & (outside > _HAND_SPACES[1] * a_space)
        unseen_arm = (on_edge > 0) & (inside > _HAND_FROM_EDGE * a_space)
        return bool((arm | unseen_arm).any())


#: colours are looked up in steps of this many levels (of 256) a channel
_BIN = 4
#: rows of a frame's crop whose costs are worked out at once
_BAND = 64
#: at most this many things worked out for a frame are kept of each kind (`_kept`): the
#: stacks drawn, 15 kB each (a frame draws 80-160), what the moves tried start from
_KEPT = 256


def _kept(kept: dict, key, work):
    """What `work()` gives, kept in `kept` under `key` for the next time it is asked for; at
    most _KEPT things are kept (then all are let go)."""
    if key not in kept:
        if len(kept) >= _KEPT:
            kept.clear()
        kept[key] = work()
    return kept[key]


def _bins(image: np.ndarray) -> np.ndarray:
    """Each pixel's colour's place in a table of colours in steps of _BIN."""
    b, g, r = (image // _BIN).astype(np.intp).transpose(2, 0, 1)
    side = 256 // _BIN
    return (b * side + g) * side + r


def _camel_costs(camels: list[tuple[tuple[float, float, float], ...]]) -> np.ndarray:
    """For each camel and every colour (in steps of _BIN), what a pixel of that colour
    costs as the camel: its distance to the nearest of the camel's colours, shading allowed
    for, at most _CLIP. A table made once, so a frame costs one look-up a pixel a camel
    (a camel's row at a time: a row is half a megabyte, and its look-ups land near one
    another); in half floats, 3.7 MB for seven
    camels rather than 7.3 (the reader lives beside the Pi's browser: the readings of tuning
    tables 600,000-600,059 and validation tables 1,600,000-1,600,059 are the same to the
    camel). The costs a frame's pixels are read into stay whole floats: summing half floats
    made a read half as slow again."""
    levels = np.arange(256 // _BIN) * _BIN + _BIN / 2
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    colours = colour_feature(np.stack([b, g, r], axis=-1).reshape(-1, 3)).astype(np.float32)
    table = np.empty((len(camels), len(colours)), np.float16)
    for k, refs in enumerate(camels):
        features = colour_feature(np.array(refs, np.float64)).astype(np.float32)
        near = colour_distance(colours[:, None], features[None], shading=_SHADING).min(axis=1)
        table[k] = np.minimum(near, _CLIP)
    return table


def _placed(stacks: dict[int, list[int]], option: dict[int, list[int]]) -> int:
    """How many more camels `option` has on the board than `stacks`."""
    return sum(map(len, option.values())) - sum(map(len, stacks.values()))


def _without(stacks: dict[int, list[int]], camel: int) -> dict[int, list[int]]:
    """`stacks` with `camel` taken off the board, the camels above it come down a step."""
    left = {space: [c for c in pile if c != camel] for space, pile in stacks.items()}
    return {space: pile for space, pile in left.items() if pile}


def _swapped(stacks: dict[int, list[int]], a: int, b: int) -> dict[int, list[int]]:
    """`stacks` with camels `a` and `b` in each other's places."""
    return {space: [b if c == a else a if c == b else c for c in pile]
            for space, pile in stacks.items()}


def _union(boxes: Sequence[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    """The smallest box (x0, y0, x1, y1) holding every one of `boxes`."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _apart(boxes: Sequence[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) that hold every one of `boxes` and share no pixel: those that
    overlap joined into one. Two stacks changed at opposite ends of the board are drawn
    each in its own small box, not in one box across the board (ten times the pixels)."""
    joined = list(boxes)
    merged = True
    while merged:
        merged = False
        for i, j in itertools.combinations(range(len(joined)), 2):
            a, b = joined[i], joined[j]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                joined[i] = _union([a, b])
                del joined[j]
                merged = True
                break
    return joined


def _remade(stacks: dict[int, list[int]], space: int, n: int) -> list[dict[int, list[int]]]:
    """`stacks` with the stack on `space` remade every way one step from it: its camels in
    every other order (in a stack taller than _REORDER, each camel moved to every other
    height in it), and each of the `n` camels not in it put in at every height, taken off
    its own stack or from off the board. (Merged with a stack beside it: `_merged`.)"""
    pile = stacks[space]
    orders = set(itertools.permutations(pile)) if len(pile) <= _REORDER else _one_moved(pile)
    options = [{**stacks, space: list(order)} for order in orders if list(order) != pile]
    return options + _one_more(stacks, space, pile, n)


def _one_moved(pile: list[int]) -> set[tuple[int, ...]]:
    """`pile` with each of its camels moved to every height in it (its own included)."""
    return {(*rest[:k], camel, *rest[k:]) for camel in pile
            for rest in [[c for c in pile if c != camel]] for k in range(len(pile))}


def _one_more(stacks: dict[int, list[int]], space: int, pile: list[int], n: int
              ) -> list[dict[int, list[int]]]:
    """`stacks` with `pile` on `space` and each of the `n` camels not in it put in at every
    height there, taken off its own stack or from off the board."""
    options = []
    for camel in set(range(n)) - set(pile):
        rest = _without(stacks, camel)
        options += [{**rest, space: [*pile[:k], camel, *pile[k:]]}
                    for k in range(len(pile) + 1)]
    return options


def _merged(stacks: dict[int, list[int]], space: int, n: int) -> list[dict[int, list[int]]]:
    """`stacks` with the stack on a space next to `space` put on top of the stack there,
    alone or with one more camel put in at any height. Seen at an angle, a tall stack's top
    camels stand where a shorter stack on the space beyond would: taken for that, the tall
    stack is read a camel or two short, and no one camel moved or put in makes it whole."""
    pile = stacks[space]
    options = []
    for beside in (space - 1, space + 1):
        if beside not in stacks:
            continue
        merged = pile + stacks[beside]
        base = {s: p for s, p in stacks.items() if s != beside}
        options += [{**base, space: merged}, *_one_more(base, space, merged, n)]
    return options


def _placings(stacks: dict[int, list[int]], camel: int, spaces: set[int]
              ) -> list[dict[int, list[int]]]:
    """`stacks` with `camel` put in every place on the `spaces` and the stacks there."""
    options = []
    for space in sorted(set(stacks) | spaces):
        pile = stacks.get(space, [])
        for k in range(len(pile) + 1):
            option = dict(stacks)
            option[space] = [*pile[:k], camel, *pile[k:]]
            options.append(option)
    return options


class _Drawing:
    """Boards imagined as the camera would see them, at _SCALE, over the part of the frame
    the track and its tallest stacks can cover: which camel (or the board) each pixel
    shows."""

    def __init__(self, view: TrackView, n: int) -> None:
        self.view = view
        self.n = n
        x, y, w, h = cv2.boundingRect(view.board_outline(
            scale=_SCALE, height=(n - 1) * view.track.stack_step + view.track.camel[2]
        ).reshape(-1, 2) >> SHIFT)
        fw, fh = view.table.image_size
        self.box = (max(0, x), max(0, y), min(int(fw * _SCALE), x + w + 1),
                    min(int(fh * _SCALE), y + h + 1))
        # (int32, as OpenCV draws them: other integers are converted at every drawing)
        offset = np.array(self.box[:2], np.int32) << SHIFT
        self.outlines = {
            (space, level): (view.camel_outline(space, level, scale=_SCALE) - offset,
                             view.camel_outline(space, level, grow=-_CORE, scale=_SCALE)
                             - offset)
            for space in range(1, TRACK_SPACES + 1) for level in range(n)}
        self.far_first = sorted(range(1, TRACK_SPACES + 1), key=lambda s: -view.distance(s))
        self.aprons = {space: self._apron(space, offset) for space in range(1, TRACK_SPACES + 1)}
        #: how far each stack is shifted in the image from its space's middle (whole pixels)
        self.shifts: dict[int, tuple[int, int]] = {}
        #: what the stacks moves are tried from cost in a region, while they are tried (each
        #: kept with its stacks, so the id in its key stands for them alone)
        self._before: dict[tuple[int, tuple[int, int, int, int]], tuple[Mapping, float]] = {}
        #: and what each place there costs with each camel in it (`_place_costs`)
        self._places: dict[tuple[int, tuple[int, int, int, int]],
                           tuple[Mapping, dict[tuple[int, int], int], np.ndarray]] = {}
        boxes_of = {}
        for key, (whole, _) in self.outlines.items():
            x, y, w, h = cv2.boundingRect(whole.reshape(-1, 2) >> SHIFT)
            boxes_of[key] = (max(0, x), max(0, y), x + w + 2, y + h + 2)
        self.extents = {}
        for space in range(1, TRACK_SPACES + 1):
            for count in range(1, n + 1):
                self.extents[space, count] = _union([boxes_of[space, level]
                                                     for level in range(count)])
        #: the drawing's size (rows, columns)
        self.shape = (self.box[3] - self.box[1], self.box[2] - self.box[0])
        # every camel's core, at every height on every space, the pixels of one after
        # another (those out of view left out): a frame's evidence for each is one look-up
        cores, spaces = [], []
        for (space, _), (_, core) in self.outlines.items():
            mask = np.zeros(self.shape, np.uint8)
            cv2.fillConvexPoly(mask, core, 1, shift=SHIFT)
            if mask.any():
                cores.append(np.flatnonzero(mask))
                spaces.append(space)
        self._core_starts = np.cumsum([0] + [len(core) for core in cores[:-1]])
        self._core_spaces = np.array(spaces)
        x0, y0, x1, y1 = view.extent()
        self.pixels_per_mm = float(np.sqrt(cv2.contourArea(
            view.board_outline().astype(np.float32)) / (1 << 2 * SHIFT)
            / ((x1 - x0) * (y1 - y0)))) * _SCALE
        #: how far (pixels) a stack may be shifted off its space's middle (_ASKEW)
        self.reach = int(np.ceil(_ASKEW * self.pixels_per_mm))
        #: what `draw` draws on: the drawing with room round it for a stack shifted as far as
        #: it may be (one canvas for every drawing: a region's part is filled afresh each time)
        self._margin = self.reach + 1
        self.looked_at = self._looked_at()
        #: each pixel's place in a frame's costs: the pixels looked at, piece after piece
        #: (`places_of`: where each piece's places begin and end), then one place for all
        #: the others (they cost nothing); a frame's costs hold 60 % of the drawing's pixels
        self.pixels = np.full(self.shape, -1, np.int32)
        self.places_of: list[tuple[int, int]] = []
        for rows, columns in self.looked_at:
            piece = self.pixels[rows, columns]
            start = self.places_of[-1][1] if self.places_of else 0
            self.places_of.append((start, start + piece.size))
            piece[...] = np.arange(start, start + piece.size).reshape(piece.shape)
        self.pixels[self.pixels < 0] = self.places_of[-1][1]
        #: how many places a frame's costs hold for each thing
        self.plane = self.places_of[-1][1] + 1
        self._cores = self.pixels.ravel()[np.concatenate(cores)]
        self._apron_places = {space: self.pixels.ravel()[apron]
                              for space, apron in self.aprons.items()}
        self._canvas = np.empty((self.shape[0] + 2 * self._margin,
                                 self.shape[1] + 2 * self._margin), np.int32)
        #: the stacks drawn this frame, each unshifted (`_stack`)
        self._stacks: dict[tuple[int, tuple[int, ...], int, int],
                           tuple[np.ndarray, np.ndarray]] = {}

    def _looked_at(self) -> list[tuple[slice, slice]]:
        """The pixels of the drawing a read looks at, as pieces of bands of rows: where a
        stack as tall as there can be may stand on any space, shifted as far as it may be,
        and each space's apron: about 40 % of the drawing, in pieces of bands of rows about
        60 % (the board's middle and the table round the board need no cost)."""
        used = np.zeros(self.shape, bool)
        for space in range(1, TRACK_SPACES + 1):
            x0, y0, x1, y1 = self._within_reach(space, self.n)
            used[y0:y1, x0:x1] = True
            used.ravel()[self.aprons[space]] = True
        pieces = []
        for top in range(0, used.shape[0], _BAND):
            rows = slice(top, top + _BAND)
            # where the band's columns start and stop being looked at
            edges = np.flatnonzero(np.diff(used[rows].any(axis=0), prepend=False,
                                           append=False))
            pieces += [(rows, slice(int(a), int(b))) for a, b in zip(edges[::2], edges[1::2],
                                                                        strict=True)]
        return pieces

    def _apron(self, space: int, offset: np.ndarray) -> np.ndarray:
        """The part of `space`'s square that no camel standing there covers in the image
        (camels askew, heads and all, as tall a stack as there can be): the drawing's pixels
        there, row by row."""
        x0, y0, x1, y1 = self.box
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, self.view.space_outline(space, 0.8, scale=_SCALE) - offset, 1,
                           shift=SHIFT)
        cv2.fillConvexPoly(mask, self.view.camel_outline(space, 0, grow=_ASKEW, levels=self.n,
                                                         head=_HEAD, scale=_SCALE) - offset,
                           0, shift=SHIFT)
        return np.flatnonzero(mask)

    def covered(self, costs: np.ndarray) -> set[int]:
        """The spaces whose square shows, round where camels would stand, something that is
        neither the bare board nor of a camel's colour (a stack set down askew shows a camel
        there): a desert tile (no camel ends its move on one), a card, a hand."""
        other = (costs[2 * self.n] > _OTHER) & (costs[:self.n].min(axis=0) > _OTHER)
        return {space for space, apron in self._apron_places.items()
                if apron.size and other[apron].mean() > _TILE}

    def crop(self, image: np.ndarray) -> np.ndarray:
        """The part of `image` (a full frame) the drawing covers, at its scale."""
        x0, y0, x1, y1 = self.box
        if _SCALE == 1.0:
            return image[y0:y1, x0:x1]
        small = cv2.resize(image, None, fx=_SCALE, fy=_SCALE, interpolation=cv2.INTER_AREA)
        return small[y0:y1, x0:x1]

    def draw(self, stacks: Mapping[int, list[int]],
             region: tuple[int, int, int, int]) -> np.ndarray:
        """Which camel each pixel of `region` (x0, y0, x1, y1) shows (k), the rim of its
        outline (n + k), or the board (2n), times `plane`: where in a frame's costs (thing
        by thing, then place by place) the costs of its things begin."""
        return self._labels(stacks, region, self.n, self.plane)

    def _labels(self, stacks: Mapping[int, list[int]], region: tuple[int, int, int, int],
                kinds: int, step: int) -> np.ndarray:
        """What each pixel of `region` shows, `stacks` naming each camel by a number below
        `kinds`: k times `step` where camel k's core shows, kinds + k times `step` where the
        rim of its outline does, and 2 kinds times `step` where the board does (a view of
        the canvas: the next drawing overwrites it). Far stacks first, each from the bottom
        up, so nearer and higher camels hide what is behind them."""
        x0, y0, x1, y1 = region
        margin = self._margin
        label = self._canvas[margin + y0:margin + y1, margin + x0:margin + x1]
        label.fill(2 * kinds * step)
        for space in self.far_first:
            pile = stacks.get(space, ())
            if not pile:
                continue
            bx0, by0, bx1, by1 = self._extent(space, len(pile))
            if bx0 >= x1 or bx1 <= x0 or by0 >= y1 or by1 <= y0:
                continue
            # a stack's shift is whole pixels: the stack as drawn unshifted is laid down that
            # far off, over what was drawn before it
            dx, dy = self.shifts.get(space, (0, 0))
            ex0, ey0, ex1, ey1 = self.extents[space, len(pile)]
            drawn, shows = self._stack(space, pile, kinds, step)
            under = self._canvas[margin + dy + ey0:margin + dy + ey1,
                                 margin + dx + ex0:margin + dx + ex1]
            height, width = min(under.shape[0], drawn.shape[0]), min(under.shape[1],
                                                                     drawn.shape[1])
            np.copyto(under[:height, :width], drawn[:height, :width],
                      where=shows[:height, :width])
        return label

    def _stack(self, space: int, pile: Sequence[int], kinds: int, step: int
               ) -> tuple[np.ndarray, np.ndarray]:
        """The stack `pile` on `space` drawn unshifted, as `_labels` labels it, over its
        extent, and where it shows: kept, since a stack is drawn again at every shift tried
        and in every move tried beside it (laying it down costs a sixth of drawing its
        camels' outlines again)."""
        def draw() -> tuple[np.ndarray, np.ndarray]:
            x0, y0, x1, y1 = self.extents[space, len(pile)]
            drawn = np.full((y1 - y0, x1 - x0), -1, np.int32)
            corner = np.array([x0, y0], np.int32) << SHIFT
            for level, camel in enumerate(pile):
                whole, core = self.outlines[space, level]
                cv2.fillConvexPoly(drawn, whole - corner, (kinds + camel) * step, shift=SHIFT)
                cv2.fillConvexPoly(drawn, core - corner, camel * step, shift=SHIFT)
            return drawn, drawn >= 0

        return _kept(self._stacks, (space, tuple(pile), kinds, step), draw)

    def change(self, costs: np.ndarray, stacks: Mapping[int, list[int]],
               option: Mapping[int, list[int]]) -> float:
        """How much more the frame's pixels cost as `option` would show them than as
        `stacks` would: drawn only where the stacks that differ stand, with whatever stands
        in front of or behind them there; where no stack changes its height (camels swapped
        or reordered), read from what each place costs with each camel there."""
        changed = [s for s in set(stacks) | set(option) if stacks.get(s) != option.get(s)]
        boxes = [self._extent(s, len(pile)) for s in changed
                 for pile in (stacks.get(s), option.get(s)) if pile]
        relabelled = all(len(stacks.get(s, ())) == len(option.get(s, ())) for s in changed)
        total = 0.0
        for region in _apart(boxes):
            # the stacks a move starts from are the same for every move tried from them
            key = (id(stacks), region)
            if relabelled:
                _, places, table = _kept(self._places, key, lambda region=region: (
                    stacks, *self._place_costs(costs, stacks, region)))
                for space in changed:
                    for level, (was, now) in enumerate(zip(stacks[space], option[space],
                                                           strict=True)):
                        if was != now and (space, level) in places:
                            place = places[space, level]
                            total += float(table[now, place] - table[was, place])
                continue
            _, before = _kept(self._before, key, lambda region=region: (
                stacks, self._cost(costs, stacks, region)))
            total += self._cost(costs, option, region) - before
        return total

    def _place_costs(self, costs: np.ndarray, stacks: Mapping[int, list[int]],
                     region: tuple[int, int, int, int]
                     ) -> tuple[dict[tuple[int, int], int], np.ndarray]:
        """Each place in `stacks` (space, height) that may show in `region`, numbered, and
        what its pixels there cost with each camel standing in it (camels x places): every
        camel has the same shape, so which pixels a place shows does not depend on which
        camel stands where, only on the stacks' heights and shifts."""
        x0, y0, x1, y1 = region
        numbered: dict[int, list[int]] = {}
        places: dict[tuple[int, int], int] = {}
        for space, pile in stacks.items():
            bx0, by0, bx1, by1 = self._extent(space, len(pile))
            if bx0 < x1 and x0 < bx1 and by0 < y1 and y0 < by1:
                numbered[space] = list(range(len(places), len(places) + len(pile)))
                places.update({(space, level): k for level, k in enumerate(numbered[space])})
        count, n = len(places), self.n
        label = self._labels(numbered, region, count, 1)
        shown = label < 2 * count
        place = label[shown]
        rim = place >= count
        place -= count * rim
        # every camel's cost at every pixel a place shows: its core's or its rim's
        things = np.arange(n)[:, None] + n * rim[None]
        where = things * self.plane + self.pixels[y0:y1, x0:x1][shown][None]
        table = np.bincount((place[None] + count * np.arange(n)[:, None]).ravel(),
                            costs.ravel().take(where).ravel(), n * count)
        return places, table.reshape(n, count)

    def cost(self, costs: np.ndarray, stacks: Mapping[int, list[int]]) -> float:
        """What the frame's pixels cost as `stacks` would show them, over the whole drawing."""
        return self._cost(costs, stacks, (0, 0, self.box[2] - self.box[0],
                                          self.box[3] - self.box[1]))

    def _cost(self, costs: np.ndarray, stacks: Mapping[int, list[int]],
              region: tuple[int, int, int, int]) -> float:
        x0, y0, x1, y1 = region
        where = self.draw(stacks, region)
        where += self.pixels[y0:y1, x0:x1]
        return float(costs.ravel().take(where).sum())

    def _extent(self, space: int, count: int) -> tuple[int, int, int, int]:
        """The pixels a stack of `count` camels on `space` may cover (x0, y0, x1, y1), as
        it is shifted now."""
        x0, y0, x1, y1 = self.extents[space, count]
        shift = self.shifts.get(space)
        if shift is None:
            return x0, y0, x1, y1
        dx, dy = shift
        return max(0, x0 + dx - 1), max(0, y0 + dy - 1), x1 + dx + 1, y1 + dy + 1

    def forget(self) -> None:
        """Drop what was worked out for the last shifts."""
        self._before.clear()
        self._places.clear()

    def new_frame(self) -> None:
        """Drop what was worked out for the last frame, the stacks drawn and their shifts
        with it (a frame draws about 80 stacks, 1.5 MB, hardly any of them the next
        frame's)."""
        self.shifts.clear()
        self.forget()
        self._stacks.clear()

    def realigned(self, costs: np.ndarray, stacks: Mapping[int, list[int]],
                  option: Mapping[int, list[int]]) -> tuple[float, dict[int, tuple[int, int]]]:
        """How much more the frame's pixels cost as `option` would show them, each stack it
        changes shifted to fit, than as `stacks` would, at the shifts they have (kept): over
        every pixel either may draw; and those shifts."""
        changed = {s: max(len(stacks.get(s, ())), len(option.get(s, ())))
                   for s in set(stacks) | set(option) if stacks.get(s) != option.get(s)}
        kept = {s: self.shifts[s] for s in changed if s in self.shifts}
        for space in sorted(changed):
            if option.get(space):
                self.align(costs, option, space, changed[space])
        moved = {s: self.shifts[s] for s in changed if option.get(s)}
        regions = _apart([self._within_reach(s, height) for s, height in changed.items()])
        after = sum(self._cost(costs, option, region) for region in regions)
        for space in changed:
            self.shifts.pop(space, None)
        self.shifts.update(kept)
        return after - sum(self._cost(costs, stacks, region) for region in regions), moved

    def _within_reach(self, space: int, count: int) -> tuple[int, int, int, int]:
        """The pixels a stack of `count` camels on `space` may cover at any shift (_ASKEW)."""
        x0, y0, x1, y1 = self.extents[space, count]
        height, width = self.shape
        return (max(0, x0 - self.reach), max(0, y0 - self.reach), min(width, x1 + self.reach),
                min(height, y1 + self.reach))

    def align(self, costs: np.ndarray, stacks: Mapping[int, list[int]], space: int,
              height: int = 0) -> None:
        """Shift the stack on `space` in the image to where the frame fits it best: a stack
        stands a little off its space's middle, as hands set it down (_ASKEW); judged over
        the pixels a stack of its height, or of `height` camels where that is more, may
        cover."""
        reach = self.reach
        region = self._within_reach(space, max(height, len(stacks[space])))

        tried: dict[tuple[int, int], float] = {}

        def cost_at(shift: tuple[int, int]) -> float:
            if shift not in tried:   # each step downhill looks again at most of the last's
                self.shifts[space] = shift
                tried[shift] = self._cost(costs, stacks, region)
            return tried[shift]

        start = self.shifts.get(space, (0, 0))
        best = (cost_at(start), start)
        # downhill, a coarse step at a time then a pixel at a time: the fit's cost falls
        # smoothly towards where the stack stands
        for step in (max(1, reach // 2), 1):
            moved = True
            while moved:
                moved = False
                cx, cy = best[1]
                for dx, dy in _NEIGHBOURS:
                    shift = (cx + dx * step, cy + dy * step)
                    if max(abs(shift[0]), abs(shift[1])) > reach:
                        continue
                    value = cost_at(shift)
                    if value < best[0]:
                        best, moved = (value, shift), True
        self.shifts[space] = best[1]
        self.forget()

    def candidates(self, costs: np.ndarray) -> set[int]:
        """The spaces where some camel, at some height, would fit the frame better than the
        bare board, by _EVIDENCE at least."""
        better = costs[:self.n].take(self._cores, axis=1)
        better -= costs[2 * self.n].take(self._cores)
        evidence = np.add.reduceat(better, self._core_starts, axis=1)
        return {int(space) for space in
                self._core_spaces[(evidence < -_EVIDENCE).any(axis=0)]}
