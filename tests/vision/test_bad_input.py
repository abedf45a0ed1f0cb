"""Bad input gets a clear error and never a crash: missing, empty, garbage and corrupt files, odd frames."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import DiceReader
from vision.errors import ImageReadError, SourceError, VisionError
from vision.sources import ImageFiles, load_image, open_source

ROOT = Path(__file__).resolve().parents[2]


def bad_files(tmp: Path) -> dict[str, Path]:
    good = np.full((120, 160, 3), 200, np.uint8)
    ok, jpg = cv2.imencode(".jpg", good)
    assert ok
    files = {
        "empty": tmp / "empty.jpg",
        "garbage": tmp / "garbage.jpg",
        "text": tmp / "notes.png",
        "truncated_header": tmp / "cut.jpg",
        "tiny": tmp / "tiny.png",
    }
    files["empty"].write_bytes(b"")
    files["garbage"].write_bytes(np.random.default_rng(0).integers(0, 256, 5000, dtype=np.uint8).tobytes())
    files["text"].write_text("this is not a picture\n")
    files["truncated_header"].write_bytes(jpg.tobytes()[:40])
    cv2.imwrite(str(files["tiny"]), np.zeros((4, 4, 3), np.uint8))
    return files


def test_each_bad_file_gets_a_clear_error(tmp_path: Path) -> None:
    for name, path in bad_files(tmp_path).items():
        with pytest.raises(ImageReadError) as info:
            load_image(path)
        assert str(path) in str(info.value), name
    with pytest.raises(ImageReadError, match="no such file"):
        load_image(tmp_path / "missing.jpg")
    with pytest.raises(ImageReadError, match="folder"):
        load_image(tmp_path)


def test_reader_refuses_frames_that_are_not_colour_images(reader: DiceReader) -> None:
    for frame in (
        np.zeros((100, 100), np.uint8),
        np.zeros((100, 100, 3), np.float32),
        np.zeros((4, 4, 3), np.uint8),
        "frame.jpg",
    ):
        with pytest.raises(VisionError):
            reader.read(frame)  # type: ignore[arg-type]


def test_a_blank_frame_has_no_dice(reader: DiceReader) -> None:
    obs = reader.read(np.full((480, 640, 3), 120, np.uint8))
    assert obs.dice == () and obs.reason == "dice_count"


def test_cli_reports_bad_files_per_line_and_goes_on(tmp_path: Path) -> None:
    files = [str(p) for p in bad_files(tmp_path).values()]
    good = tmp_path / "board.png"
    cv2.imwrite(str(good), np.full((240, 320, 3), 100, np.uint8))
    done = subprocess.run(
        [sys.executable, "-m", "vision", "read", "--json", *files, str(good)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["image"] for line in lines] == files + [str(good)]
    assert all("error" in line for line in lines[:-1])
    assert lines[-1]["verdict"] == "void" and lines[-1]["reason"] == "dice_count"
    assert "Traceback" not in done.stderr


def test_sources_refuse_what_they_cannot_open(tmp_path: Path) -> None:
    with pytest.raises(SourceError):
        open_source(str(tmp_path / "nothing_here"))
    with pytest.raises(SourceError, match="no images"):
        open_source(str(tmp_path))
    (tmp_path / "clip.mp4").write_bytes(b"not a video")
    with pytest.raises(SourceError):
        open_source(str(tmp_path / "clip.mp4"))


def test_an_image_list_skips_unreadable_files_and_says_so(tmp_path: Path) -> None:
    files = bad_files(tmp_path)
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.full((64, 64, 3), 50, np.uint8))
    source = ImageFiles([files["garbage"], good, files["empty"]])
    frames = list(source.frames())
    assert [f.name for f in frames] == [str(good)]
    assert len(source.errors) == 2


def huge_images(tmp: Path) -> dict[str, Path]:
    """Small files whose headers declare enormous images: a PPM 2,000,000 wide, a 1 MB 32000x32000 PNG."""
    ppm = tmp / "wide.ppm"
    ppm.write_bytes(b"P6\n2000000 2000\n255\n" + bytes(3000))
    png = tmp / "bomb.png"
    raw = zlib.compress(b"\x00" * (32000 * 3 + 1) * 400, 9)  # rows enough for a 1 MB file; the header says more

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    png.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 32000, 32000, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", raw)
        + chunk(b"IEND", b"")
    )
    return {"ppm": ppm, "png": png}


def test_an_image_declaring_too_many_pixels_is_refused_before_decoding(tmp_path: Path) -> None:
    files = huge_images(tmp_path)
    with pytest.raises(ImageReadError, match="2000000x2000 pixels declared"):
        load_image(files["ppm"])
    with pytest.raises(ImageReadError, match="32000x32000 pixels declared"):
        load_image(files["png"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "throw.png"
    os.mkfifo(fifo)
    with pytest.raises(ImageReadError, match="not a regular file"):
        load_image(fifo)


def test_cli_goes_on_after_huge_images_and_a_fifo(tmp_path: Path) -> None:
    files = [str(p) for p in huge_images(tmp_path).values()]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.jpg")
        files.append(str(tmp_path / "pipe.jpg"))
    good = tmp_path / "board.png"
    cv2.imwrite(str(good), np.full((240, 320, 3), 100, np.uint8))
    done = subprocess.run(
        [sys.executable, "-m", "vision", "read", "--json", *files, str(good)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["image"] for line in lines] == files + [str(good)], done.stderr
    assert all("error" in line for line in lines[:-1]) and lines[-1]["verdict"] == "void"
    assert done.returncode == 1 and "Traceback" not in done.stderr
