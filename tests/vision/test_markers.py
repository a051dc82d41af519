"""The marker sheet: four markers a camera finds, at their true size on A4, as PNG or PDF;
markers drawn and found with whichever ArUco API the OpenCV at hand has (4.6 or 4.7+)."""

import re
import zlib

import cv2
import numpy as np

from vision.aruco import detect_markers, marker_image
from vision.calibrate import find_markers
from vision.markers import marker_sheet, write_sheet


def test_the_sheet_shows_the_four_markers_at_their_printed_size():
    page = marker_sheet(40.0)
    assert page.shape == (3508, 2480)                      # A4 at 300 dpi
    found = find_markers(cv2.cvtColor(page, cv2.COLOR_GRAY2BGR))
    assert sorted(found) == [0, 1, 2, 3]
    dark = np.count_nonzero(page[:1754, :1240] < 128)      # marker 0 and its number
    assert dark > (40 / 25.4 * 300) ** 2 * 0.3


def test_the_pdf_is_one_a4_page_holding_the_sheet(tmp_path):
    path = tmp_path / "markers.pdf"
    write_sheet(path, 30.0)
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    xref = int(re.search(rb"startxref\n(\d+)", data).group(1))
    assert data[xref:xref + 4] == b"xref"
    for number, offset in enumerate(re.findall(rb"(\d{10}) 00000 n", data), 1):
        assert data[int(offset):].startswith(f"{number} 0 obj".encode())
    assert b"/MediaBox [0 0 595.28 841.89]" in data
    stream = re.search(rb"/Length (\d+) >>\nstream\n", data)
    pixels = zlib.decompress(data[stream.end():stream.end() + int(stream.group(1))])
    page = np.frombuffer(pixels, np.uint8).reshape(3508, 2480)
    assert sorted(find_markers(cv2.cvtColor(page, cv2.COLOR_GRAY2BGR))) == [0, 1, 2, 3]


def test_the_png_reads_back_as_the_sheet(tmp_path):
    path = tmp_path / "markers.png"
    write_sheet(path, 30.0)
    assert np.array_equal(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE), marker_sheet(30.0))


def test_a_marker_drawn_is_found_with_its_id_at_its_corners():
    page = np.full((300, 300), 255, np.uint8)
    page[90:210, 60:180] = marker_image(2, 120)
    corners, ids = detect_markers(page)
    assert ids.ravel().tolist() == [2]
    quad = corners[0].reshape(4, 2)
    assert np.abs(quad - [[60, 90], [180, 90], [180, 210], [60, 210]]).max() <= 1.5


def test_a_page_without_markers_finds_none():
    corners, ids = detect_markers(np.full((200, 200), 255, np.uint8))
    assert corners == [] and ids is None
