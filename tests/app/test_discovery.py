"""The tablet app finds physical devices and uses them, falling back to the on-screen clock and manual entry.

A clock simulator stands in for a clock plugged in (the real protocol over a pty pair, opened by the real
driver); no board is plugged in (the USB search for a Raspberry Pi Pico finds nothing here).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from app.referee import events as ev
from app.referee.setup import Mode
from app.table.live import LiveStation
from app.ui.controller import Controller
from device.messages import Side
from device.sim import ClockSimulator
from rules.position import Color


def wait(condition: Callable[[], bool], what: str, controller: Controller | None = None) -> None:
    deadline = time.monotonic() + 30  # generous: a loaded CI machine starts threads and ptys slowly
    while time.monotonic() < deadline:
        if controller is not None:
            controller.pump()
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_clock_that_answers_is_used_and_plays_fall_back_to_manual_entry(tmp_path: Path) -> None:
    with ClockSimulator() as clock:
        controller = Controller(tmp_path, LiveStation(clock_port=clock.port), language="en")
        try:
            wait(lambda: controller.devices_found()["clock"].startswith("found"), "the clock to answer")
            found = controller.devices_found()
            assert "SIMCLOCK1" in found["clock"] and found["board"] == "none" and found["camera"] == "none"
            assert controller.start(("Ayşe", "Mehmet"), "backgammon", 3, Mode.TOURNAMENT, 6, 12, "2468") is None
            session = controller.session
            assert session is not None
            assert session.setup.devices.clock and not session.setup.devices.board
            wait(lambda: clock.times().white_ms == 6 * 60_000, "the set-up's times on the clock")
            controller.send(ev.ManualDice((3, 1)))  # no camera: the dice are typed in
            clock.press(Side.BLACK)  # the physical clock's button starts White's clock
            wait(lambda: session.referee.clock is Color.WHITE, "the press on the physical clock", controller)
            controller.send(ev.ManualPlay("8/5 6/5"))  # no board: the play is entered on the tablet
            assert [r.code for r in controller.log].count("play_ok") == 1
            wait(lambda: clock.times().running is Side.BLACK, "the referee's command on the physical clock")
        finally:
            controller.close()


def test_without_devices_the_on_screen_clock_runs_the_match(tmp_path: Path) -> None:
    controller = Controller(tmp_path, LiveStation(clock_port="/dev/tavla-no-such-port"), language="en")
    try:
        assert controller.devices_found() == {"camera": "none", "board": "none", "clock": "software"}
        assert controller.start(("Ayşe", "Mehmet"), "backgammon", 3, Mode.TOURNAMENT, 6, 12, "2468") is None
        session = controller.session
        assert session is not None and not session.setup.devices.clock
        controller.send(ev.ManualDice((3, 1)))
        controller.press_clock(int(Color.BLACK))  # a tap on the on-screen clock
        assert session.referee.clock is Color.WHITE
        assert controller.times_ms() == (6 * 60_000, 6 * 60_000)
    finally:
        controller.close()
