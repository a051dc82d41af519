"""The board watched frame by frame: read once each time it has come to rest, never while a
hand is over it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import drawn_seed
from tests.vision.test_board import calibrated
from vision.board_watch import BoardWatch
from vision.synth_board import board_session

#: a table drawn afresh each run, from a range no tuning or benchmark draws from
SEED = drawn_seed(3_000_000, 4_000_000)
STEP = 0.1
"""Seconds between two frames fed."""


@pytest.fixture(scope="module")
def table():
    session = board_session(SEED)
    return session, calibrated(session)


def film(watch: BoardWatch, image: np.ndarray, start: float, seconds: float,
         rng: np.random.Generator) -> list[tuple[float, object]]:
    """Feed `image` for `seconds` from `start`, each frame with its own sensor noise: the
    readings that came out, with when."""
    out = []
    for k in range(round(seconds / STEP)):
        noisy = np.clip(image + rng.normal(0, 2.0, image.shape), 0, 255).astype(np.uint8)
        reading = watch.feed(noisy, start + k * STEP)
        if reading is not None:
            out.append((start + k * STEP, reading))
    return out


def read_as_a_board(session, reader, stacks=None):
    """A frame of the board with no hand over it that the reader reads as a board. Now and
    then clutter at the board's edge (a desert tile on an edge space beside coins or a card
    in front of the board) is taken for a hand and its arm (bench/board.py counts such boards;
    tables 3,155,131, 3,699,864 and 3,899,321): the clutter is set down again, as after
    another turn. The watch, not the hand check, is what these tests try."""
    frame = session.frame(hand=False, stacks=stacks)
    for _ in range(3):
        if not reader.read(frame.image).hand:
            break
        frame = session.frame(hand=False, stacks=stacks)
    return frame


def test_the_board_is_read_once_each_time_it_comes_to_rest(table):
    session, reader = table
    rng = np.random.default_rng(SEED)
    watch = BoardWatch(reader, still_time=1.0, recheck_time=60.0)
    first = read_as_a_board(session, reader)
    read = film(watch, first.image, 0.0, 3.0, rng)
    assert [at for at, _ in read] == [pytest.approx(1.0)], f"table {SEED}"
    # a hand moves the camels: nothing is read until the board is still again, once
    moved = read_as_a_board(session, reader)
    hand = session.frame(hand=True, stacks=first.stacks)
    read = film(watch, hand.image, 3.0, 0.3, rng) + film(watch, moved.image, 3.3, 3.0, rng)
    assert [at for at, _ in read] == [pytest.approx(4.3)], f"table {SEED}"
    assert heights(read[0][1]) == heights(reader.read(moved.image)), f"table {SEED}"


def test_a_board_still_all_along_is_read_again_now_and_then(table):
    session, reader = table
    watch = BoardWatch(reader, still_time=1.0, recheck_time=2.0)
    frame = read_as_a_board(session, reader)
    read = film(watch, frame.image, 0.0, 5.0, np.random.default_rng(SEED + 2))
    assert [at for at, _ in read] == [pytest.approx(1.0), pytest.approx(3.0)], f"table {SEED}"


def heights(reading) -> dict[int, int]:
    return {stack.space: len(stack.camels) for stack in reading.stacks}


def test_a_hand_resting_over_the_board_is_not_a_reading(table):
    session, reader = table
    rng = np.random.default_rng(SEED + 1)
    watch = BoardWatch(reader, still_time=0.5, recheck_time=60.0)
    hand = session.frame(hand=True)
    assert film(watch, hand.image, 0.0, 2.0, rng) == [], f"table {SEED}"
    # the hand gone, the camels as they were
    bare = read_as_a_board(session, reader, hand.stacks)
    assert len(film(watch, bare.image, 2.0, 1.0, rng)) == 1, f"table {SEED}"
