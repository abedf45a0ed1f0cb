"""The commands every clock takes: the serial clock driver and the software clock alike.

The app programs against :class:`ClockControl` and does not care whether a
clock device is plugged in; both put ``ButtonPressed``, ``FlagFell`` and
``TimeReport`` on the event queue.
"""

from __future__ import annotations

from typing import Protocol

from device.messages import DelayMode, Side
from device.timecontrol import TimeControl


class ClockControl(Protocol):
    def set_time(self, side: Side, reserve_ms: int, delay_ms: int, mode: DelayMode = DelayMode.SIMPLE) -> None:
        """Set one side's reserve and delay (allowed at any time; a director's correction)."""
        ...

    def set_time_control(self, control: TimeControl) -> None:
        """Both sides to one time control."""
        ...

    def start_side(self, side: Side) -> None:
        """Start side's clock (its delay first)."""
        ...

    def stop(self) -> None:
        """Stop both clocks: end of game, pass, break."""
        ...

    def pause(self) -> None:
        """Freeze the running clock (dispute, director called)."""
        ...

    def resume(self) -> None:
        """Continue a paused clock exactly where it stood."""
        ...

    def request_times(self) -> None:
        """Put a TimeReport on the queue now."""
        ...

    def display(self, text: str) -> None:
        """Show a short text on the clock."""
        ...
