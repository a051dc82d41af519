"""The four ArUco markers that fix the table's plane, and the sheet to print them on.

Markers 0 to 3 go at the corners of the area the camera watches, clockwise from the far left
(as the camera sees it). The sheet is written as PNG, or as a one-page PDF that prints them at
their true size; the PDF is written by hand (one image, Flate-compressed), needing no library.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError
from vision.aruco import marker_image

MARKER_IDS = (0, 1, 2, 3)
_DPI = 300
_A4_MM = (210.0, 297.0)


class UnwritableImage(CompanionError, OSError):
    """The marker sheet's image could not be written where it was asked for."""


def marker_sheet(marker_mm: float = 30.0) -> np.ndarray:
    """An A4 page (grey, 300 dpi) with the four markers, each `marker_mm` wide, a cutting
    margin round each and its number beneath."""
    px_per_mm = _DPI / 25.4
    width, height = (round(d * px_per_mm) for d in _A4_MM)
    page = np.full((height, width), 255, np.uint8)
    side = round(marker_mm * px_per_mm)
    cell_w, cell_h = width // 2, height // 2
    for k, marker_id in enumerate(MARKER_IDS):
        cx = cell_w // 2 + (k % 2) * cell_w
        cy = cell_h // 2 + (k // 2) * cell_h
        x0, y0 = cx - side // 2, cy - side // 2
        page[y0:y0 + side, x0:x0 + side] = marker_image(marker_id, side)
        margin = int(6 * px_per_mm)
        cv2.rectangle(page, (x0 - margin, y0 - margin), (x0 + side + margin, y0 + side + margin),
                      180, 2)
        cv2.putText(page, f"{marker_id}", (cx - 20, y0 + side + margin + 60),
                    cv2.FONT_HERSHEY_SIMPLEX, 2.0, 0, 4)
    cv2.putText(page, f"camel-companion markers, {marker_mm:g} mm: 0 far left, 1 far right, "
                f"2 near right, 3 near left", (60, height - 60), cv2.FONT_HERSHEY_SIMPLEX, 1.1,
                0, 2)
    return page


def write_sheet(path: Path, marker_mm: float = 30.0) -> None:
    """Write the marker sheet to `path`: PDF if it ends in .pdf, otherwise an image (PNG)."""
    page = marker_sheet(marker_mm)
    if path.suffix.lower() == ".pdf":
        path.write_bytes(_pdf(page))
    elif not cv2.imwrite(str(path), page):
        raise UnwritableImage(f"cannot write an image to {path}")


def _pdf(page: np.ndarray) -> bytes:
    """A one-page A4 PDF showing `page` (grey, 8 bits) across the whole page."""
    height, width = page.shape
    pts_w, pts_h = (round(d / 25.4 * 72, 2) for d in _A4_MM)
    data = zlib.compress(page.tobytes(), 9)
    content = f"q {pts_w} 0 0 {pts_h} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pts_w} {pts_h}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} "
         f"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode "
         f"/Length {len(data)} >>\nstream\n").encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n"
            f"%%EOF\n").encode()
    return bytes(out)
