"""Frame sources: a video file, a folder and a list of images behind one interface."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import ImageFiles, ImageFolder, VideoFile, open_source


def write_video(path: Path, frames: int, fps: float = 25.0) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (160, 120))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write a test video")
    for i in range(frames):
        writer.write(np.full((120, 160, 3), i * 10 % 255, np.uint8))
    writer.release()


def test_video_file_frames_carry_the_video_time(tmp_path: Path) -> None:
    path = tmp_path / "throw.avi"
    write_video(path, 10)
    source = open_source(str(path))
    assert isinstance(source, VideoFile)
    frames = list(source.frames())
    assert len(frames) == 10
    assert [round(f.timestamp, 3) for f in frames[:3]] == [0.0, 0.04, 0.08]
    assert frames[0].image.shape == (120, 160, 3)


def test_folder_plays_images_in_name_order(tmp_path: Path) -> None:
    for name, level in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), np.full((40, 40, 3), level, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    source = open_source(str(tmp_path), fps=10)
    assert isinstance(source, ImageFolder)
    frames = list(source.frames())
    assert [Path(f.name).name for f in frames] == ["a.png", "b.png", "c.jpg"]
    assert [f.timestamp for f in frames] == [0.0, 0.1, 0.2]


def test_list_of_images(tmp_path: Path) -> None:
    paths = []
    for i in range(3):
        paths.append(str(tmp_path / f"{i}.png"))
        cv2.imwrite(paths[-1], np.full((40, 40, 3), i, np.uint8))
    source = open_source(paths)
    assert isinstance(source, ImageFiles)
    assert len(list(source.frames())) == 3
