"""A fake hardware layer, so the reference firmware runs on a PC (tests, demos).

The serial line is the master side of a pty pair (the host opens ``port``
with pyserial, exactly as it would open the Pico's USB port); buttons and
Hall sensors are simulated: ``tap`` a clock button, ``lift``/``place``
magnetised checkers on the board's slots, ``break_sensor`` to pin a sensor at
its rail. Time comes from a replaceable source. Runs on CPython only.
"""

import os
import random
import select
import threading
import time
import tty

import fw_board


class HostHardware:
    """Serial line over a pty, time, identity."""

    def __init__(self, serial="HOST0001", time_source=time.monotonic, seed=1):
        self._time = time_source
        self._serial = serial
        self._rng = random.Random(seed)
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self._slave)

    def ticks_ms(self):
        return int(self._time() * 1000)

    def ticks_diff(self, a, b):
        return a - b

    def serial_number(self):
        return self._serial

    def random16(self):
        return self._rng.randrange(0x10000)

    def uart_read(self):
        try:
            ready, _, _ = select.select([self.master], [], [], 0)
            return os.read(self.master, 4096) if ready else b""
        except OSError:
            return b""  # EIO while the host has the port closed

    def uart_write(self, data):
        try:
            os.write(self.master, data)
        except OSError:
            pass  # buffer full with no reader: lost, as on USB without a host

    def idle(self):
        time.sleep(0.002)

    def close(self):
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class FakeClockHardware(HostHardware):
    """Two buttons, a display and a buzzer that record what the firmware does."""

    def __init__(self, **options):
        super().__init__(**options)
        self._down_until = [0, 0]
        self.display = ("", "")
        self.beeps = []

    def tap(self, side, hold_ms=60):
        """Press and release a player's button (held long enough to pass the debounce)."""
        self._down_until[side] = self.ticks_ms() + hold_ms

    def button(self, side):
        return self.ticks_ms() < self._down_until[side]

    def beep(self, ms):
        self.beeps.append(ms)

    def show(self, top, bottom):
        self.display = (top, bottom)


class FakeBoardHardware(HostHardware):
    """Hall sensors under every slot; checkers are magnets (+ white, - black) with a little noise."""

    def __init__(self, noise=8, **options):
        super().__init__(**options)
        self.noise = noise
        self.slots = [[[] for _ in range(fw_board.slots_of(cell))] for cell in range(fw_board.CELLS)]
        self.broken = set()
        self._lock = threading.Lock()

    @staticmethod
    def cell_of(point, colour):
        """The cell for a protocol point (1..24, 25 bar, 0 off) and colour."""
        if 1 <= point <= 24:
            return point - 1
        if point == 25:
            return fw_board.WHITE_BAR if colour == 0 else fw_board.BLACK_BAR
        if point == 0:
            return fw_board.WHITE_OFF if colour == 0 else fw_board.BLACK_OFF
        raise ValueError("no point %r" % (point,))

    def place(self, point, colour):
        with self._lock:
            slots = self.slots[self.cell_of(point, colour)]
            min(slots, key=len).append(colour)

    def lift(self, point, colour):
        with self._lock:
            slots = self.slots[self.cell_of(point, colour)]
            for slot in reversed(slots):
                if slot and slot[-1] == colour:
                    slot.pop()
                    return
        raise ValueError("no %s checker on top at point %d" % ("white" if colour == 0 else "black", point))

    def setup_standard(self):
        """The tavla start: White 2 on 24, 5 on 13, 3 on 8, 5 on 6; Black mirrored (25 - p)."""
        for own, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
            for _ in range(count):
                self.place(own, 0)
                self.place(25 - own, 1)

    def break_sensor(self, cell, slot, broken=True):
        with self._lock:
            if broken:
                self.broken.add((cell, slot))
            else:
                self.broken.discard((cell, slot))

    def read_slot(self, cell, slot):
        with self._lock:
            if (cell, slot) in self.broken:
                return 10000
            field = sum(
                fw_board.FIELD_PER_CHECKER if c == 0 else -fw_board.FIELD_PER_CHECKER for c in self.slots[cell][slot]
            )
        return field + self._rng.randint(-self.noise, self.noise)


class FirmwareThread:
    """Runs a Runtime's loop in a thread until stop()."""

    def __init__(self, runtime):
        self.runtime = runtime
        self._stop = threading.Event()
        self._thread = threading.Thread(target=runtime.run, args=(self._stop.is_set,), daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        self._thread.join(5.0)
        self.runtime.hal.close()
