"""A tournament clock simulator that speaks the real protocol over a pty.

It runs the same clock model as the firmware (``device.clockcore``), reports
its times every ``report_ms``, a press at once, a flag fall once. Script it
with :meth:`press`, :meth:`let_flag_fall`, and the base class's faults,
:meth:`unplug`, :meth:`replug` and :meth:`reboot`.
"""

from __future__ import annotations

from typing import Any

from device import clockcore
from device.messages import (
    ButtonPressed,
    ClockState,
    DeviceKind,
    DisplayText,
    FlagFell,
    Message,
    PauseClocks,
    RequestTimes,
    ResumeClocks,
    SetTime,
    Side,
    StartClock,
    StopClocks,
    TimeReport,
    side_or_none,
)
from device.sim.base import SimulatedDevice
from device.timecontrol import federation_default


class ClockSimulator(SimulatedDevice):
    KIND = DeviceKind.CLOCK
    FIRMWARE = "sim-clock-1.0"

    def __init__(self, serial: str = "SIMCLOCK1", report_ms: int = 1000, **options: Any) -> None:
        self.report_ms = report_ms
        self.text = ""
        self.core = clockcore.ClockCore(0)
        self._last_report = -1_000_000
        super().__init__(serial, **options)
        self.reset_state(self._ms())

    def reset_state(self, now_ms: int) -> None:
        """A clock out of the box: 1-point defaults (docs/rules.md section 5), stopped."""
        self.core = clockcore.ClockCore(now_ms)
        control = federation_default(1)
        for side in (0, 1):
            self.core.set_time(side, control.reserve_ms, control.delay_ms, int(control.mode), now_ms)
        self.text = ""
        self._last_report = -1_000_000

    def report(self, now_ms: int) -> TimeReport:
        core = self.core
        core.advance(now_ms)
        return TimeReport(
            ClockState(core.state), side_or_none(core.running), core.reserve[0], core.reserve[1], core.delay_left
        )

    # --- scripted actions -----------------------------------------------------------------

    def press(self, side: Side) -> bool:
        """A player presses their button; True when it changed the clock."""
        with self._lock:
            now = self._ms()
            self.tick(now)  # a flag that already fell is reported before the press
            accepted = self.core.press(int(side), now)
            self.emit(
                ButtonPressed(
                    side, accepted, side_or_none(self.core.running), self.core.reserve[0], self.core.reserve[1]
                )
            )
            self.log.append(f"press {side.name.lower()} -> {'accepted' if accepted else 'ignored'}")
            return accepted

    def let_flag_fall(self, side: Side) -> None:
        """Run side's reserve out now (its clock is started if it was not running)."""
        with self._lock:
            now = self._ms()
            core = self.core
            core.advance(now)
            if core.state == clockcore.FLAGGED:
                return
            if core.running != int(side):
                core.start(int(side), now)
            core.reserve[int(side)] = 0
            core.delay_left = 0
            core.used_this_turn = 0
            core.anchor = now - 1
            self.tick(now)

    def times(self) -> TimeReport:
        with self._lock:
            return self.report(self._ms())

    # --- protocol ------------------------------------------------------------------------------

    def handle(self, command: Message, now_ms: int) -> None:
        core = self.core
        ok = True
        if isinstance(command, SetTime):
            ok = core.set_time(int(command.side), command.reserve_ms, command.delay_ms, int(command.mode), now_ms)
        elif isinstance(command, StartClock):
            ok = core.start(int(command.side), now_ms)
        elif isinstance(command, StopClocks):
            core.stop(now_ms)
        elif isinstance(command, PauseClocks):
            core.pause(now_ms)
        elif isinstance(command, ResumeClocks):
            core.resume(now_ms)
        elif isinstance(command, RequestTimes):
            self._last_report = now_ms
            self.emit(self.report(now_ms))
        elif isinstance(command, DisplayText):
            self.text = command.text
        else:
            self.refuse(command.TYPE, "not a clock command")
            return
        if not ok:
            self.refuse(command.TYPE, "after a flag fall, set the times first")
        self.log.append(f"command {type(command).__name__}")

    def tick(self, now_ms: int) -> None:
        self.core.advance(now_ms)
        flagged = self.core.take_flag()
        if flagged != clockcore.NO_SIDE:
            self.emit(FlagFell(Side(flagged), self.core.reserve[0], self.core.reserve[1]))
            self.emit(self.report(now_ms))
            self.log.append(f"flag {Side(flagged).name.lower()}")
        if now_ms - self._last_report >= self.report_ms:
            self._last_report = now_ms
            self.emit(self.report(now_ms))
