"""Run the reference firmware on a PC against the fake hardware layer.

    python hardware/firmware/run_host.py clock|board

prints the pty path to open (with the app, ``python -m device monitor PATH``,
or a serial terminal), then takes commands on standard input: clock ``tap
0|1``; board ``lift POINT COLOUR``, ``place POINT COLOUR``, ``break CELL
SLOT`` (colours 0 white, 1 black); ``quit``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import fw_hal_host  # noqa: E402
from fw_board import BoardApp  # noqa: E402
from fw_clock import ClockApp  # noqa: E402
from fw_runtime import Runtime, wire  # noqa: E402  (wire: device/wire.py, the shared protocol)


def main(argv):
    kind = argv[1] if len(argv) > 1 else "clock"
    if kind == "clock":
        hal = fw_hal_host.FakeClockHardware(serial="HOSTCLOCK")
        app = ClockApp(hal)
        wire_kind = wire.KIND_CLOCK
    else:
        hal = fw_hal_host.FakeBoardHardware(serial="HOSTBOARD")
        hal.setup_standard()
        app = BoardApp(hal)
        wire_kind = wire.KIND_BOARD
    runner = fw_hal_host.FirmwareThread(Runtime(hal, app, wire_kind, "ref-1.0-host")).start()
    print("port: %s" % hal.port, flush=True)
    for line in sys.stdin:
        words = line.split()
        try:
            if not words:
                continue
            if words[0] == "quit":
                break
            if words[0] == "tap":
                hal.tap(int(words[1]))
            elif words[0] == "lift":
                hal.lift(int(words[1]), int(words[2]))
            elif words[0] == "place":
                hal.place(int(words[1]), int(words[2]))
            elif words[0] == "break":
                hal.break_sensor(int(words[1]), int(words[2]))
            else:
                print("error: unknown command %r" % words[0], flush=True)
                continue
            print("ok", flush=True)
        except (ValueError, IndexError, AttributeError) as error:
            print("error: %s" % error, flush=True)
    runner.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
