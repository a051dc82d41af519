"""ArUco markers through whichever API the OpenCV at hand has.

OpenCV 4.7 moved marker detection into `cv2.aruco.ArucoDetector` and renamed `drawMarker` to
`generateImageMarker`; Raspberry Pi OS Bookworm ships OpenCV 4.6, which has only the older
functions. Everything that finds or draws a marker goes through here, so both work.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import cv2
import numpy as np

MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50


@functools.cache
def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)


@functools.cache
def _detect() -> Callable[[np.ndarray], tuple]:
    if hasattr(cv2.aruco, "ArucoDetector"):
        return cv2.aruco.ArucoDetector(_dictionary(),
                                       cv2.aruco.DetectorParameters()).detectMarkers
    parameters = cv2.aruco.DetectorParameters_create()
    return functools.partial(cv2.aruco.detectMarkers, dictionary=_dictionary(),
                             parameters=parameters)


def detect_markers(gray: np.ndarray) -> tuple[list[np.ndarray], np.ndarray | None]:
    """The markers of the dictionary seen in the grey image `gray`: each one's four corners
    (1 x 4 x 2, pixels) and their ids (N x 1), or None for the ids when there are none."""
    corners, ids, _ = _detect()(gray)
    return list(corners), ids


def marker_image(marker_id: int, side: int) -> np.ndarray:
    """Marker `marker_id` of the dictionary drawn `side` pixels square (grey, 8 bits)."""
    if hasattr(cv2.aruco, "generateImageMarker"):
        return cv2.aruco.generateImageMarker(_dictionary(), marker_id, side)
    return cv2.aruco.drawMarker(_dictionary(), marker_id, side)
