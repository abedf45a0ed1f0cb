"""Entry point on the Pico: runs the clock or the board, as config.py says.

Copy onto the board (see ../README.md): wire.py and clockcore.py from
device/, then fw_runtime.py, fw_clock.py, fw_board.py, fw_hal_pico.py, this file
and a config.py holding ``DEVICE = "clock"`` or ``DEVICE = "board"``.
"""

import config
import fw_hal_pico
import micropython
import wire
from fw_runtime import Runtime

FIRMWARE = "ref-1.0"


def main():
    micropython.kbd_intr(-1)  # the line carries frames: Ctrl-C bytes must not stop the firmware
    if config.DEVICE == "clock":
        from fw_clock import ClockApp

        hal = fw_hal_pico.PicoClock()
        Runtime(hal, ClockApp(hal), wire.KIND_CLOCK, FIRMWARE).run()
    else:
        from fw_board import BoardApp

        hal = fw_hal_pico.PicoBoard()
        Runtime(hal, BoardApp(hal), wire.KIND_BOARD, FIRMWARE).run()


main()
