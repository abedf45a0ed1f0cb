"""A clock in software, for play without a clock device.

Same commands as the serial ClockDriver (``device.clockapi.ClockControl``)
and the same events on the same queue, computed by the same model
(``device.clockcore``) as the firmware, on a monotonic time source that tests
replace. The screen's two halves call :meth:`SoftwareClock.press`.

Call :meth:`poll` regularly (the background thread started by :meth:`start`
does so), or read :meth:`times` whenever the screen redraws: flag falls are
detected at their exact moment however late the poll comes, and reported
once.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Callable

from device import clockcore
from device.messages import ButtonPressed, ClockState, DelayMode, FlagFell, Side, TimeReport, side_or_none
from device.timecontrol import TimeControl


class SoftwareClock:
    def __init__(
        self,
        events: queue.Queue[object],
        time_source: Callable[[], float] = time.monotonic,
        report_every_s: float = 1.0,
    ) -> None:
        self.events = events
        self._time = time_source
        self._lock = threading.Lock()
        self._core = clockcore.ClockCore(self._ms())
        self.report_every_ms = int(report_every_s * 1000)
        self._last_report_ms = -1_000_000
        self.text = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _ms(self) -> int:
        return int(self._time() * 1000)

    # --- ClockControl ------------------------------------------------------------

    def set_time(self, side: Side, reserve_ms: int, delay_ms: int, mode: DelayMode = DelayMode.SIMPLE) -> None:
        with self._lock:
            if not self._core.set_time(int(side), reserve_ms, delay_ms, int(mode), self._ms()):
                raise ValueError(f"cannot set {reserve_ms} ms reserve, {delay_ms} ms delay")

    def set_time_control(self, control: TimeControl) -> None:
        for side in Side:
            self.set_time(side, control.reserve_ms, control.delay_ms, control.mode)

    def start_side(self, side: Side) -> None:
        with self._lock:
            self._core.start(int(side), self._ms())
        self.poll()

    def stop(self) -> None:
        with self._lock:
            self._core.stop(self._ms())
        self.poll()

    def pause(self) -> None:
        with self._lock:
            self._core.pause(self._ms())
        self.poll()

    def resume(self) -> None:
        with self._lock:
            self._core.resume(self._ms())
        self.poll()

    def request_times(self) -> None:
        self.events.put(self.times())

    def display(self, text: str) -> None:
        self.text = text

    # --- the players' buttons -------------------------------------------------------

    def press(self, side: Side) -> ButtonPressed:
        """A player ends the turn; the event also goes to the queue."""
        self.poll()  # a flag that fell before the press is reported first
        with self._lock:
            accepted = self._core.press(int(side), self._ms())
            event = ButtonPressed(
                side, accepted, side_or_none(self._core.running), self._core.reserve[0], self._core.reserve[1]
            )
        self.events.put(event)
        return event

    # --- time ---------------------------------------------------------------------------

    def times(self) -> TimeReport:
        with self._lock:
            core = self._core
            core.advance(self._ms())
            return TimeReport(
                ClockState(core.state), side_or_none(core.running), core.reserve[0], core.reserve[1], core.delay_left
            )

    def poll(self) -> None:
        """Report a flag fall (once) and the times every report interval."""
        with self._lock:
            now = self._ms()
            self._core.advance(now)
            flagged = self._core.take_flag()
            flag = None
            if flagged != clockcore.NO_SIDE:
                flag = FlagFell(Side(flagged), self._core.reserve[0], self._core.reserve[1])
            due = now - self._last_report_ms >= self.report_every_ms
            if due:
                self._last_report_ms = now
        if flag is not None:
            self.events.put(flag)
        if due:
            self.events.put(self.times())

    def start(self, interval_s: float = 0.05) -> SoftwareClock:
        """Poll in a background thread until close()."""

        def loop() -> None:
            while not self._stop.wait(interval_s):
                self.poll()

        self._thread = threading.Thread(target=loop, name="software-clock", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
