"""The network's second look at a die it was unsure of: the same answer whichever way the die
is turned, and the same probabilities as a run over a whole image."""

import threading

import cv2
import numpy as np

from tests.vision.conftest import photo_set
from training.labelled import split
from vision.dicenet import (
    _IDLE,
    MODEL,
    WINDOW,
    Spot,
    _batch,
    merge,
    probabilities,
    search_scales,
    second_look,
    spots_at,
)


def _photo() -> np.ndarray:
    photo_set("nell-byler-train")
    path, _ = next(iter(split("nell-byler-train", "train")))
    return cv2.imread(str(path))


def test_a_batch_of_windows_is_answered_as_the_whole_image_run_would_answer_each():
    rng = np.random.default_rng(5)
    windows = rng.normal(0, 1, (6, 3, WINDOW, WINDOW)).astype(np.float32)
    alone = np.stack([probabilities(w)[:, 0, 0] for w in windows])
    assert np.allclose(_batch(windows), alone, atol=1e-6)


def test_the_second_look_answers_alike_for_a_photo_turned_a_quarter():
    image = _photo()
    found = merge(spots_at(image, search_scales(image.shape)))
    unsure = [Spot(s.x, s.y, s.side, (0.5, *[0.5 / 6] * 6)) for s in found[:5]]
    assert unsure, "the network found no die in the photo"
    height = image.shape[0]
    # a quarter turn clockwise takes pixel (x, y) to (height - 1 - y, x)
    turned = [Spot(height - 1 - s.y, s.x, s.side, s.probs) for s in unsure]
    first = second_look(image, unsure)
    again = second_look(np.ascontiguousarray(np.rot90(image, -1)), turned)
    for one, other in zip(first, again, strict=True):
        assert one.value == other.value
        # the same views but for resampling: a crop's corner is rounded to a whole pixel
        assert np.allclose(one.probs, other.probs, atol=0.06)


def test_a_die_the_network_is_sure_of_is_not_looked_at_again():
    sure = Spot(10.0, 10.0, 20.0, (0.02, 0.0, 0.0, 0.98, 0.0, 0.0, 0.0))
    assert second_look(np.zeros((40, 40, 3), np.uint8), [sure]) == [sure]


def test_the_second_look_reads_an_unsure_die_of_a_photo_as_its_first_look_read_it():
    image = _photo()
    found = [s for s in merge(spots_at(image, search_scales(image.shape)))
             if s.die > 0.9 and max(s.probs[1:]) > 0.8]
    assert found, "the network found no die it was sure of in the photo"
    doubted = [Spot(s.x, s.y, s.side, (s.probs[0], *[s.die / 6] * 6)) for s in found]
    assert [s.value for s in second_look(image, doubted)] == [s.value for s in found]


def test_threads_reading_one_after_another_share_one_network():
    """A network is lent to one reader at a time and given back: threads that read in turn
    (a calibration step on a web server's thread, then the camera's) load it once, not once
    each."""
    windows = np.zeros((2, 3, WINDOW, WINDOW), np.float32)
    _batch(windows)
    before = len(_IDLE[str(MODEL)])
    for _ in range(4):
        reader = threading.Thread(target=_batch, args=(windows,))
        reader.start()
        reader.join()
    assert len(_IDLE[str(MODEL)]) == before


def test_two_threads_reading_at_once_each_have_a_network_of_their_own():
    windows = np.random.default_rng(3).normal(0, 1, (4, 3, WINDOW, WINDOW)).astype(np.float32)
    alone = _batch(windows)
    answers: list[np.ndarray] = []
    start = threading.Barrier(2)

    def read() -> None:
        start.wait()
        answers.extend(_batch(windows) for _ in range(20))

    readers = [threading.Thread(target=read) for _ in range(2)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    assert len(answers) == 40
    assert all(np.allclose(answer, alone, atol=1e-6) for answer in answers)
