"""Finding the station's camera: the video devices that actually give pictures, in order.

A station is set up by plugging things in, so the camera is looked for as the clock and the board are.
On Linux every ``/dev/videoN`` node is a candidate, but a single USB camera usually brings two nodes (one gives
pictures, the other only metadata) and a Raspberry Pi adds codec nodes that give none: a device counts only
once a frame has been read from it. Elsewhere (Windows, macOS) devices have no names, only indices.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import cv2

INDICES_WITHOUT_NAMES = range(4)
"""Where devices have no names, the indices tried: a station has one camera, rarely two."""


def candidates(dev: Path = Path("/dev")) -> list[str]:
    """The camera indices to try, in order: on Linux those of the ``/dev/videoN`` nodes (``10`` after ``2``)."""
    if sys.platform.startswith("linux"):
        numbers = [int(p.name[5:]) for p in dev.glob("video*") if re.fullmatch(r"video\d+", p.name)]
        return [str(number) for number in sorted(numbers)]
    return [str(index) for index in INDICES_WITHOUT_NAMES]


def gives_pictures(spec: str, tries: int = 10) -> bool:
    """Whether ``spec`` (an index, or a path) opens and hands over a picture within a few reads (a camera's
    first reads may be empty while it starts)."""
    capture = cv2.VideoCapture(int(spec) if spec.isdigit() else spec)
    try:
        if not capture.isOpened():
            return False
        for _ in range(tries):
            ok, image = capture.read()
            if ok and image is not None and image.size > 0:
                return True
        return False
    except cv2.error:
        return False
    finally:
        capture.release()


def find_cameras(specs: Iterable[str] | None = None, works: Callable[[str], bool] = gives_pictures) -> list[str]:
    """Every candidate that gives pictures, first found first; none is an empty list, never an error."""
    found = []
    for spec in candidates() if specs is None else specs:
        if works(spec):
            found.append(spec)
    return found
