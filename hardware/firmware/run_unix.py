"""Run the reference firmware in MicroPython's Unix port (see fw_hal_unix.py).

    micropython run_unix.py clock|board FOLDER [SERIAL]

Standard input and output are the serial line. The repository's device/
folder is put on the path for wire.py and clockcore.py, as mpremote would
copy them onto a Pico.
"""

import sys

HERE = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
sys.path.insert(0, HERE)
sys.path.insert(0, HERE + "/../../device")

import fw_hal_unix  # noqa: E402
import wire  # noqa: E402
from fw_runtime import Runtime  # noqa: E402


def main():
    kind = sys.argv[1]
    hal = fw_hal_unix.UnixHardware(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "MPUNIX")
    fast = {"rto_ms": 20, "heartbeat_ms": 100, "host_timeout_ms": 1000}
    if kind == "clock":
        from fw_clock import ClockApp

        Runtime(hal, ClockApp(hal), wire.KIND_CLOCK, "ref-1.0-unix", **fast).run()
    else:
        from fw_board import BoardApp

        Runtime(hal, BoardApp(hal), wire.KIND_BOARD, "ref-1.0-unix", **fast).run()


main()
