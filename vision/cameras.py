"""Finding the station's camera: the video devices that actually give pictures, in order.

A station is set up by plugging things in, so the camera is looked for as the clock and the board are.
On Linux every ``/dev/videoN`` node is a candidate, but a single USB camera usually brings two nodes (one gives
pictures, the other only metadata) and a Raspberry Pi adds codec nodes that give none: a device counts only
once a frame has been read from it. Elsewhere (Windows, macOS) devices have no names, only indices.
Where several give pictures, :func:`survey` keeps each one's name and first picture, for a person to choose by.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

INDICES_WITHOUT_NAMES = range(4)
"""Where devices have no names, the indices tried: a station has one camera, rarely two."""


def candidates(dev: Path = Path("/dev")) -> list[str]:
    """The camera indices to try, in order: on Linux those of the ``/dev/videoN`` nodes (``10`` after ``2``)."""
    if sys.platform.startswith("linux"):
        numbers = [int(p.name[5:]) for p in dev.glob("video*") if re.fullmatch(r"video\d+", p.name)]
        return [str(number) for number in sorted(numbers)]
    return [str(index) for index in INDICES_WITHOUT_NAMES]


SYS_VIDEO = Path("/sys/class/video4linux")
"""Where Linux names each video device (``video2/name``: what the camera calls itself)."""


@dataclass(frozen=True)
class FoundCamera:
    """A camera that gave a picture: how to open it, what it calls itself, and the picture it gave."""

    spec: str
    name: str
    still: NDArray[np.uint8]


def first_picture(spec: str, tries: int = 10) -> NDArray[np.uint8] | None:
    """The first picture ``spec`` (an index, or a path) hands over within a few reads (a camera's first reads may
    be empty while it starts); None when it opens to nothing."""
    capture = cv2.VideoCapture(int(spec) if spec.isdigit() else spec)
    try:
        if not capture.isOpened():
            return None
        for _ in range(tries):
            ok, image = capture.read()
            if ok and image is not None and image.size > 0:
                return np.asarray(image, np.uint8)
        return None
    except cv2.error:
        return None
    finally:
        capture.release()


def gives_pictures(spec: str, tries: int = 10) -> bool:
    """Whether ``spec`` (an index, or a path) opens and hands over a picture within a few reads."""
    return first_picture(spec, tries) is not None


def device_name(spec: str, sys_video: Path = SYS_VIDEO) -> str:
    """What the camera calls itself (Linux's name of ``/dev/videoN``), else the file's name or the bare index."""
    if spec.isdigit():
        try:
            name = (sys_video / f"video{spec}" / "name").read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            name = ""
        return name or f"#{spec}"
    return Path(spec).name or spec


def find_cameras(specs: Iterable[str] | None = None, works: Callable[[str], bool] = gives_pictures) -> list[str]:
    """Every candidate that gives pictures, first found first; none is an empty list, never an error."""
    found = []
    for spec in candidates() if specs is None else specs:
        if works(spec):
            found.append(spec)
    return found


def survey(
    specs: Iterable[str] | None = None,
    look: Callable[[str], NDArray[np.uint8] | None] = first_picture,
    name: Callable[[str], str] = device_name,
) -> list[FoundCamera]:
    """Every candidate that gives a picture, with its name and that picture, first found first (none: an empty
    list, never an error)."""
    found = []
    for spec in candidates() if specs is None else specs:
        still = look(spec)
        if still is not None:
            found.append(FoundCamera(spec, name(spec), still))
    return found
