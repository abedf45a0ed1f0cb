"""A fake hardware layer for MicroPython's Unix port: the firmware, in real MicroPython, on a PC.

The serial line is the process's standard input and output (raw bytes, polled
without blocking, as on the Pico's USB port). The outside world is a folder:
a file ``button0`` or ``button1`` that exists means that button is held
down; ``slots`` holds one signed sensor reading per line, in the sensor
order of ../board/README.md (read once per scan). Used by
tests/device/test_micropython.py through run_unix.py.
"""

import os
import select
import sys
import time

import fw_board


class UnixHardware:
    def __init__(self, folder, serial):
        self.folder = folder
        self._serial = serial
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self.beeps = 0
        self.display = ("", "")

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def serial_number(self):
        return self._serial

    def random16(self):
        return int.from_bytes(os.urandom(2), "little")

    def uart_read(self):
        data = bytearray()
        while len(data) < 512 and self._poll.poll(0):
            byte = self._in.read(1)
            if not byte:
                sys.exit(0)  # the host closed the line
            data += byte
        return bytes(data)

    def uart_write(self, data):
        self._out.write(data)
        if hasattr(self._out, "flush"):
            self._out.flush()

    def idle(self):
        time.sleep_ms(1)

    def _exists(self, name):
        try:
            os.stat(self.folder + "/" + name)
            return True
        except OSError:
            return False

    # --- clock ---

    def button(self, side):
        return self._exists("button%d" % side)

    def beep(self, ms):
        self.beeps += 1

    def show(self, top, bottom):
        self.display = (top, bottom)

    # --- board ---

    def read_slot(self, cell, slot):
        return self._readings()[_sensor_index(cell, slot)]

    def _readings(self):
        # The board scans all 160 sensors in one go: read the file at most once per scan.
        now = time.ticks_ms()
        if getattr(self, "_cache", None) is None or time.ticks_diff(now, self._read_at) >= 10:
            self._read_at = now
            try:
                with open(self.folder + "/slots") as f:
                    values = [int(word) for word in f.read().split()]
            except (OSError, ValueError):
                values = []
            if len(values) == 160:  # the test replaces the file atomically; anything else waits
                self._cache = values
        return self._cache


def _sensor_index(cell, slot):
    if cell < 24:
        return cell * fw_board.POINT_SLOTS + slot
    if cell < 26:
        return 144 + (cell - 24) * fw_board.BAR_SLOTS + slot
    return 150 + (cell - 26) * fw_board.OFF_SLOTS + slot
