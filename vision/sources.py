"""Frames from a camera, a video file, a folder or a list of images, all behind one interface.

Each source yields ``Frame``s with a timestamp in seconds: the camera's monotonic clock, the video's own
frame times, or frame number / ``fps`` for still images. A file that cannot be read gives a clear error
(``ImageReadError`` / ``SourceError``), never a crash.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import ImageReadError, SourceError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mpg", ".mpeg"}


@dataclass(frozen=True)
class Frame:
    image: NDArray[np.uint8]
    timestamp: float  # seconds
    name: str  # file name, or source:index


class FrameSource(Protocol):
    def frames(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


def load_image(path: str | Path) -> NDArray[np.uint8]:
    """Read a colour image; ImageReadError names the file and the problem (missing, empty, not an image)."""
    p = Path(path)
    if not p.exists():
        raise ImageReadError(f"{p}: no such file")
    if p.is_dir():
        raise ImageReadError(f"{p}: is a folder, not an image")
    try:
        data = np.fromfile(str(p), dtype=np.uint8)
    except OSError as exc:
        raise ImageReadError(f"{p}: cannot read ({exc.strerror or exc})") from exc
    if data.size == 0:
        raise ImageReadError(f"{p}: empty file")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageReadError(f"{p}: not an image OpenCV can decode (corrupt or unknown format)")
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise ImageReadError(f"{p}: image too small ({image.shape[1]}x{image.shape[0]})")
    return np.asarray(image, dtype=np.uint8)


class ImageFiles:
    """A list of image files played as a video at ``fps``; unreadable files are skipped and reported."""

    def __init__(self, paths: Sequence[str | Path], fps: float = 30.0):
        self.paths = [Path(p) for p in paths]
        self.fps = fps
        self.errors: list[str] = []

    def frames(self) -> Iterator[Frame]:
        for i, path in enumerate(self.paths):
            try:
                image = load_image(path)
            except ImageReadError as exc:
                self.errors.append(str(exc))
                continue
            yield Frame(image, i / self.fps, str(path))

    def close(self) -> None:
        pass


class ImageFolder(ImageFiles):
    """Every image in a folder, in name order."""

    def __init__(self, folder: str | Path, fps: float = 30.0):
        folder = Path(folder)
        if not folder.is_dir():
            raise SourceError(f"{folder}: not a folder")
        paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not paths:
            raise SourceError(f"{folder}: holds no images")
        super().__init__(paths, fps)


class VideoFile:
    """A video file, frame by frame, with the file's own timestamps."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        self._cap = cv2.VideoCapture(str(self.path))
        if not self._cap.isOpened():
            raise SourceError(f"{self.path}: OpenCV cannot open this video")
        fps = self._cap.get(cv2.CAP_PROP_FPS)
        self.fps = fps if fps and fps > 0 else 30.0

    def frames(self) -> Iterator[Frame]:
        i = 0
        while True:
            ok, image = self._cap.read()
            if not ok or image is None:
                break
            yield Frame(np.asarray(image, np.uint8), i / self.fps, f"{self.path}:{i}")
            i += 1
        self.close()

    def close(self) -> None:
        self._cap.release()


class Camera:
    """A live camera by index (``0`` is the first), stamped with the monotonic clock."""

    def __init__(self, index: int, width: int = 1280, height: int = 720):
        self.index = index
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            raise SourceError(f"camera {index}: cannot open (is it connected and free?)")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def frames(self) -> Iterator[Frame]:
        i = 0
        failures = 0
        while failures < 30:
            ok, image = self._cap.read()
            if not ok or image is None:
                failures += 1  # a dropped frame; give up only when the camera stays silent
                time.sleep(0.01)
                continue
            failures = 0
            yield Frame(np.asarray(image, np.uint8), time.monotonic(), f"camera{self.index}:{i}")
            i += 1

    def close(self) -> None:
        self._cap.release()


def open_source(spec: str | int | Sequence[str], fps: float = 30.0) -> FrameSource:
    """A camera index (``0`` or ``"0"``), a video file, a folder of images, or image files (one or a list)."""
    if isinstance(spec, int):
        return Camera(spec)
    if not isinstance(spec, str):
        return ImageFiles(list(spec), fps)
    if spec.isdigit():
        return Camera(int(spec))
    if os.path.isdir(spec):
        return ImageFolder(spec, fps)
    suffix = Path(spec).suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return ImageFiles([spec], fps)
    if not os.path.exists(spec):
        raise SourceError(f"{spec}: no such camera, file or folder")
    return VideoFile(spec)
