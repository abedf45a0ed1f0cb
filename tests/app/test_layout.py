"""Every screen fits the window at the displays the station is used with, in Turkish and English.

The driver (tests/app/layout_driver.py) opens the real app at one size on its own Xvfb display, visits the
set-up, play, unsure-throw, director, history, learning and result screens and lists every widget outside the
window, every two buttons, labels or inputs drawn over each other and every text larger than its widget.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
SIZES = ["800x480", "1024x600", "1280x720", "1280x800", "720x1280"]
"""The Raspberry Pi's 7-inch display, a 7-inch tablet, a monitor, the 10-inch tablet, a tablet held upright."""


def xvfb_display(size: str) -> tuple[subprocess.Popen[bytes], str]:
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("no display server: Xvfb is not installed (.ci/setup --test installs it)")
    for number in range(160, 200):
        if Path(f"/tmp/.X{number}-lock").exists():
            continue
        server = subprocess.Popen(
            [xvfb, f":{number}", "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(50):
            if Path(f"/tmp/.X11-unix/X{number}").exists() or server.poll() is not None:
                break
            time.sleep(0.1)
        if server.poll() is None:
            return server, f":{number}"
    pytest.skip("no display server: Xvfb would not start on any display :160-:199")


def run_driver(size: str, out: Path) -> dict[str, Any]:
    """The layout driver's findings at ``size``, on a display of that size."""
    server, display = xvfb_display(size)
    try:
        env = dict(
            os.environ,
            DISPLAY=display,
            KIVY_WINDOW="sdl2",
            KIVY_LOG_MODE="PYTHON",
            KIVY_NO_ARGS="1",
            KIVY_HOME=str(out / "kivy-home"),
        )
        completed = subprocess.run(
            [sys.executable, "-m", "tests.app.layout_driver", str(out), size],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    result_file = out / "result.json"
    assert result_file.exists(), completed.stderr[-4000:]
    result: dict[str, Any] = json.loads(result_file.read_text(encoding="utf-8"))
    assert "error" not in result, result["error"] + "\n" + completed.stderr[-3000:]
    assert result.get("done"), completed.stderr[-3000:]
    return result


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], dict[str, Any]]:
    """The driver's findings by window size, each size driven once for all the tests here."""
    done: dict[str, dict[str, Any]] = {}

    def at(size: str) -> dict[str, Any]:
        if size not in done:
            done[size] = run_driver(size, tmp_path_factory.mktemp(f"layout-{size}"))
        return done[size]

    return at


@pytest.mark.parametrize("size", SIZES)
def test_every_screen_fits_the_window(size: str, findings: Callable[[str], dict[str, Any]]) -> None:
    result = findings(size)
    assert result["window"] == [int(n) for n in size.split("x")]  # the layout follows the window's size
    assert result["problems"] == [], "\n".join(result["problems"])


def test_the_unsure_throw_says_whose_it_is_and_the_doubt_in_words(findings: Callable[[str], dict[str, Any]]) -> None:
    """The question names the player whose throw it is and says what is doubtful about a die in words: a
    percentage under a die told people nothing (a die read at "100%" could still lie near the bar)."""
    result = findings("1280x800")
    players = ("Ayşe", "Mehmet")
    english = " ".join(result["texts"]["unsure throw/en"])
    turkish = " ".join(result["texts"]["unsure throw/tr"])
    assert any(f"{name}'s throw" in english for name in players), english
    assert any(f"Zarı atan: {name}" in turkish for name in players), turkish
    words = (
        "hard to read",
        "may be cocked",
        "near the bar",
        "near the frame",
        "picture's edge",
        "no die",
        "read surely",
    )
    assert any(word in english for word in words), english
    assert not re.search(r"\d%", english + turkish), english + turkish
