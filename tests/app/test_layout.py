"""Every screen fits the window at the displays the station is used with, in Turkish and English.

The driver (tests/app/layout_driver.py) opens the real app at one size on its own Xvfb display, visits the
assigned match, set-up, play, unsure-throw, director, history, learning and result screens and lists every widget
outside the window, every two buttons, labels or inputs drawn over each other, every text larger than its widget
(lines a label cuts off included) and every text smaller than a player can read (14 px:
``layout_driver.READABLE_PX``). Upright (720x1280) the set-up, play, unsure-throw and result screens stack their
parts rather than shrink.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.app.test_ui import drive, xvfb

SIZES = ["800x480", "1024x600", "1280x720", "1280x800", "720x1280"]
"""The Raspberry Pi's 7-inch display, a 7-inch tablet, a monitor, the 10-inch tablet, a tablet held upright."""


def run_driver(size: str, out: Path) -> dict[str, Any]:
    """The layout driver's findings at ``size``, on a display of that size."""
    server, display = xvfb(size, range(160, 200))
    try:
        result, _ = drive(display, out, size, driver="tests.app.layout_driver")
    finally:
        server.terminate()
        server.wait(timeout=10)
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


def test_an_upright_tablet_stacks_the_match_day_screens(findings: Callable[[str], dict[str, Any]]) -> None:
    """Held upright the screens are not the landscape layout shrunk: the buttons span the window, the board spans
    it above the clocks."""
    upright, flat = findings("720x1280")["arranged"], findings("1280x800")["arranged"]
    assert upright["start_width"] > 0.9 * 720 and flat["start_width"] < 0.3 * 1280
    left, bottom, right, top = upright["board"]
    assert right - left > 0.9 * 720 and bottom > upright["clock"][3]  # the whole width, above the clocks
    assert flat["board"][2] <= flat["clock"][0]  # landscape: beside them
    assert all(width > 0.9 * 720 for width in upright["confirm_widths"]) and len(upright["confirm_widths"]) == 2
