"""Faces read from clean drawn pips: every value, turned, dark pips and light, and patterns no
die shows refused."""

import math

import cv2
import numpy as np
import pytest

from vision.faces import read_faces
from vision.pips import find_pips
from vision.synth import PIP_CELLS


def draw_face(cells, *, turn=0.0, side=60, pip=11, body=230, ink=25, offset=0.27):
    """A square face on a mid-grey table, its pips at `cells` of the 3x3 grid, turned."""
    image = np.full((160, 160), 110, np.uint8)
    c, s = math.cos(turn), math.sin(turn)
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    rotate = np.array([[c, -s], [s, c]])
    cv2.fillPoly(image, [np.round(corners @ rotate.T + 80).astype(np.int32)], body,
                 cv2.LINE_AA)
    for i, j in cells:
        x, y = rotate @ (np.array([i, j]) * offset * side) + 80
        cv2.circle(image, (round(x * 16), round(y * 16)), pip * 8, ink, -1, cv2.LINE_AA,
                   shift=4)
    return cv2.GaussianBlur(image, (3, 3), 0).astype(np.float32)


def read(gray):
    return read_faces(find_pips(gray, 31), gray)


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("turn", [0.0, 0.4, 1.1])
def test_every_face_is_read_at_any_turn(value, turn):
    faces = read(draw_face(PIP_CELLS[value], turn=turn))
    assert [f.value for f in faces] == [value]
    assert faces[0].confidence > 0.8
    assert math.dist(faces[0].centre, (80, 80)) < 3


@pytest.mark.parametrize("value", [2, 5])
def test_light_pips_on_a_dark_face_read_as_well(value):
    faces = read(draw_face(PIP_CELLS[value], body=40, ink=235, turn=0.3))
    assert [(f.value, f.polarity) for f in faces] == [(value, 1)]


def test_three_corners_of_a_four_are_no_face():
    assert read(draw_face([(-1, -1), (1, -1), (1, 1)])) == []


def test_a_pip_off_the_grid_is_no_face():
    assert read(draw_face([(-1, -1), (1, 1), (0.5, -0.9)])) == []


def test_a_pip_missed_by_the_finder_is_still_counted_from_the_grid():
    # the middle pip of this five is faint: too faint to be found as a pip on its own, yet
    # dark enough on the grid that the face cannot pass for a four
    gray = draw_face(PIP_CELLS[4], turn=0.2)
    cv2.circle(gray, (80, 80), 5, 150, -1)
    assert [f.value for f in read(gray)] != [4]
