"""Frames from a camera, a video file, a folder or a list of images, all behind one interface.

Each source yields ``Frame``s with a timestamp in seconds: the camera's monotonic clock, the video's own
frame times, or frame number / ``fps`` for still images. A file that cannot be read gives a clear error
(``ImageReadError`` / ``SourceError``), never a crash.
"""

from __future__ import annotations

import os
import stat
import struct
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


MAX_PIXELS = 50_000_000
"""The largest image decoded (a 4K camera frame is 8.3 million): a file declaring more is refused unread."""
MAX_FILE_BYTES = 128 * 1024 * 1024


def load_image(path: str | Path) -> NDArray[np.uint8]:
    """Read a colour image; ImageReadError names the file and the problem (missing, empty, not a regular file,
    not an image, or more pixels than ``MAX_PIXELS`` by its header, checked before anything is decoded)."""
    p = Path(path)
    data = _read_regular_file(p)
    if not data:
        raise ImageReadError(f"{p}: empty file")
    size = image_size(data)
    if size is None:
        raise ImageReadError(
            f"{p}: not an image this reader takes (JPEG, PNG, BMP, WebP, TIFF, PNM) or its header is cut short"
        )
    width, height = size
    if width * height > MAX_PIXELS:
        raise ImageReadError(f"{p}: {width}x{height} pixels declared, more than the {MAX_PIXELS:,} this reader decodes")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as exc:
        raise ImageReadError(f"{p}: OpenCV cannot decode it ({str(exc).strip().splitlines()[-1][:200]})") from None
    if image is None or image.size == 0:
        raise ImageReadError(f"{p}: not an image OpenCV can decode (corrupt or unknown format)")
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise ImageReadError(f"{p}: image too small ({image.shape[1]}x{image.shape[0]})")
    return np.asarray(image, dtype=np.uint8)


def _read_regular_file(p: Path) -> bytes:
    """The bytes of a regular file; a FIFO, a device or a socket is refused at once (opened without blocking)."""
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ImageReadError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise ImageReadError(f"{p}: is a folder, not an image") from None
    except OSError as exc:
        raise ImageReadError(f"{p}: cannot read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ImageReadError(f"{p}: is a folder, not an image")
        if not stat.S_ISREG(info.st_mode):
            raise ImageReadError(f"{p}: not a regular file (a pipe, a device or a socket): refused")
        if info.st_size > MAX_FILE_BYTES:
            raise ImageReadError(f"{p}: {info.st_size:,} bytes, more than an image file this reader takes")
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read(MAX_FILE_BYTES + 1)[:MAX_FILE_BYTES]
    except OSError as exc:
        raise ImageReadError(f"{p}: cannot read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) an image file's header declares, without decoding it; None for a format not taken here
    or a header cut short."""
    try:
        if data[:8] == b"\x89PNG\r\n\x1a\n":
            return struct.unpack(">II", data[16:24]) if data[12:16] == b"IHDR" else None
        if data[:2] == b"\xff\xd8":
            return _jpeg_size(data)
        if data[:2] == b"BM":
            header = struct.unpack("<I", data[14:18])[0]
            if header == 12:
                return struct.unpack("<HH", data[18:22])
            width, height = struct.unpack("<ii", data[18:26])
            return abs(width), abs(height)
        if data[:1] == b"P" and data[1:2] in b"1234567":
            return _pnm_size(data)
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data[:4] in (b"II*\x00", b"MM\x00*"):
            return _tiff_size(data)
    except (struct.error, ValueError, IndexError):
        return None
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    return None


def _pnm_size(data: bytes) -> tuple[int, int] | None:
    head = data[:4096]
    if head[1:2] == b"7":  # PAM: WIDTH and HEIGHT lines
        fields = dict(line.split(None, 1) for line in head.split(b"\n")[1:] if len(line.split(None, 1)) == 2)
        return int(fields[b"WIDTH"]), int(fields[b"HEIGHT"])
    tokens: list[bytes] = []
    for line in head[2:].split(b"\n"):
        tokens += line.split(b"#", 1)[0].split()
        if len(tokens) >= 2:
            return int(tokens[0][:12]), int(tokens[1][:12])
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        bits = struct.unpack("<I", data[21:25])[0]
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8X":
        return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    offset = struct.unpack(order + "I", data[4:8])[0]
    count = struct.unpack(order + "H", data[offset : offset + 2])[0]
    found: dict[int, int] = {}
    for index in range(count):
        at = offset + 2 + 12 * index
        tag, kind = struct.unpack(order + "HH", data[at : at + 4])
        if tag in (256, 257):
            short = kind == 3
            found[tag] = struct.unpack(order + ("H" if short else "I"), data[at + 8 : at + (10 if short else 12)])[0]
    return (found[256], found[257]) if len(found) == 2 else None


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
