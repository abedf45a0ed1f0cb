"""Simulated clock and board speaking the real protocol over pty pairs.

``python -m device.sim clock`` / ``python -m device.sim board`` on the command
line; in-process::

    from device.sim import ClockSimulator
    with ClockSimulator() as clock:      # clock.port is the path to open
        clock.press(Side.WHITE)
"""

from device.sim.board import BoardSimulator, standard_start
from device.sim.clock import ClockSimulator
from device.sim.faults import Faults

__all__ = ["BoardSimulator", "ClockSimulator", "Faults", "standard_start"]
