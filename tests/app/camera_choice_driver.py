"""Opens the real app at a live table that found three cameras and chooses among them by taps on the set-up screen.

Run by tests/app/test_camera_choice.py under Xvfb: ``python -m tests.app.camera_choice_driver OUTDIR WIDTHxHEIGHT``.
The cameras are video files of one colour each (red, green, blue), found by the station's own finder
(:func:`vision.cameras.survey`) and read by the live camera as a device would be. OUTDIR/result.json says what
was shown, which camera the station read after each tap, what the settings file kept and what did not fit.
"""

# ruff: noqa: I001
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np

if __name__ == "__main__" and len(sys.argv) > 2:
    os.environ["TAVLA_WINDOW"] = sys.argv[2]  # the window opens at this size

# first: it sets the window up before Kivy starts
from tests.app.ui_driver import run, shot, tap

from kivy.core.window import Window  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

from app.table.live import LiveStation  # noqa: E402
from app.ui.camera_choice import SETTINGS_FILE, CameraChoice  # noqa: E402
from app.ui.camera_chooser import CameraChooser  # noqa: E402
from app.ui.controller import Controller  # noqa: E402
from app.ui.main import TavlaApp, on_main_loop  # noqa: E402
from tests.app.layout_driver import problems  # noqa: E402
from vision.cameras import survey  # noqa: E402

COLOURS = {"over-the-board.avi": (0, 0, 200), "tablet-front.avi": (0, 200, 0), "spare.avi": (200, 0, 0)}
"""Each camera's file and the colour (BGR) of every picture it gives."""


def camera_file(path: Path, colour: tuple[int, int, int], frames: int = 300) -> str:
    """A video of one colour: a camera as OpenCV's capture and the live camera see one."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30, (320, 240))
    for _ in range(frames):
        writer.write(np.full((240, 320, 3), colour, np.uint8))
    writer.release()
    return str(path)


def chooser(app: TavlaApp) -> CameraChooser | None:
    return next((w for w in app.screens["setup"].walk() if isinstance(w, CameraChooser)), None)


def tap_in_view(widget: Any, picture: Path | None = None) -> Iterator[None]:
    """Scroll the set-up screen's form until ``widget`` shows, then tap it (a touch lands where it shows); the
    screen in ``picture`` first, if named."""
    node = widget.parent
    while node is not None and not isinstance(node, ScrollView):
        node = node.parent
    if node is not None:
        node.scroll_to(widget, padding=10, animate=False)
        yield
    if picture is not None:
        shot(picture.parent, picture.name)
    tap(widget)


def seen(app: TavlaApp, station: LiveStation, data: Path) -> dict[str, Any]:
    """What the set-up screen and the station show now: the tiles, the one down, the corner picture's colour,
    the camera read and what the settings file keeps."""
    shown = chooser(app)
    picker = app.screens["setup"].picker
    colour = None
    if picker is not None and picker.texture is not None:
        pixels = np.frombuffer(picker.texture.pixels, np.uint8).reshape(-1, 4)
        colour = [int(v) for v in pixels[:, :3].mean(axis=0).round()]  # RGB
    settings = data / SETTINGS_FILE
    return {
        "tiles": [t.text for t in shown.toggles.values()] if shown else [],
        "down": [t.text for t in shown.toggles.values() if t.state == "down"] if shown else [],
        "picture_rgb": colour,
        "station_reads": None if station.live_camera is None else Path(str(station.live_camera.spec)).name,
        "kept": json.loads(settings.read_text(encoding="utf-8")) if settings.exists() else None,
        "calibration_text": app.screens["setup"].calibration.text,
    }


def script(app: TavlaApp, station: LiveStation, out: Path, result: dict[str, Any]) -> Iterator[None]:
    data = out / "data"
    yield
    yield
    size = "x".join(str(n) for n in Window.size)
    result["problems"] = []
    result["start"] = seen(app, station, data)
    for language in ("tr", "en"):
        if app.controller.language != language:
            app.toggle_language()
            yield
            yield
        shown = chooser(app)
        assert shown is not None, "no camera chooser on the set-up screen"
        result[f"title_{language}"] = shown.children[-1].text  # the first widget laid in: the chooser's title
        result[f"tiles_{language}"] = [t.text for t in shown.toggles.values()]
        result["problems"] += [f"set-up at {size} in {language}: {p}" for p in problems(app.screens["setup"])]
        result[f"shot_{language}"] = shot(out, f"camera-choice-{language}-{size}")
    app.toggle_language()  # back to Turkish
    yield
    shown = chooser(app)
    assert shown is not None
    tablet = shown.toggles[str(data.parent / "cameras" / "tablet-front.avi")]
    yield from tap_in_view(tablet, out / f"camera-choice-in-view-{size}")
    for _ in range(4):  # the camera switched, the screen built again around its first picture
        yield
    result["after_tap"] = seen(app, station, data)
    shown = chooser(app)
    assert shown is not None
    yield from tap_in_view(shown.toggles[None])
    for _ in range(3):
        yield
    result["after_none"] = seen(app, station, data)
    result["next_start_after_none"] = CameraChoice.at_start(shown.choice.found, data).chosen
    shown = chooser(app)
    assert shown is not None
    yield from tap_in_view(shown.toggles[str(data.parent / "cameras" / "tablet-front.avi")])
    for _ in range(4):
        yield
    result["after_back"] = seen(app, station, data)
    chosen = CameraChoice.at_start(shown.choice.found, data).chosen
    result["next_start"] = None if chosen is None else Path(chosen).name


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "cameras").mkdir(exist_ok=True)
    specs = [camera_file(out / "cameras" / name, colour) for name, colour in COLOURS.items()]
    choice = CameraChoice.at_start(survey(specs), out / "data")
    station = LiveStation(camera=choice.chosen, post=on_main_loop)
    controller = Controller(out, station, language="tr")
    controller.cameras = choice
    app = TavlaApp(controller)
    result: dict[str, Any] = {"found": [Path(camera.spec).name for camera in choice.found]}
    return run(app, script(app, station, out, result), out, result, interval=0.4)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
