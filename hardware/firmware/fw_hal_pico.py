"""The hardware layer on a Raspberry Pi Pico (RP2040) running MicroPython.

Pins follow the wiring tables in ../clock/README.md and ../board/README.md. The serial line is the
Pico's USB CDC port (the REPL is disabled in main.py while the firmware runs),
read without blocking through select.poll. Not importable on a PC: the tests
run the same applications against fw_hal_host.py instead.
"""

import os
import select
import sys
import time

import machine


class PicoBase:
    def __init__(self):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._led = machine.Pin("LED", machine.Pin.OUT)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def serial_number(self):
        return "".join("%02X" % b for b in machine.unique_id())

    def random16(self):
        return int.from_bytes(os.urandom(2), "little")

    def uart_read(self):
        data = bytearray()
        while self._poll.poll(0) and len(data) < 256:
            data += self._in.read(1)
        return bytes(data)

    def uart_write(self, data):
        self._out.write(data)

    def idle(self):
        machine.idle()


class PicoClock(PicoBase):
    """Buttons on GP14/GP15 (to ground, internal pull-ups), buzzer on GP16, SSD1306 on I2C0."""

    def __init__(self):
        super().__init__()
        self._buttons = [
            machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP),
            machine.Pin(15, machine.Pin.IN, machine.Pin.PULL_UP),
        ]
        self._buzzer = machine.PWM(machine.Pin(16))
        self._buzzer.duty_u16(0)
        self._beep_until = 0
        try:
            import ssd1306

            i2c = machine.I2C(0, sda=machine.Pin(4), scl=machine.Pin(5), freq=400000)
            self._oled = ssd1306.SSD1306_I2C(128, 32, i2c)
        except Exception:
            self._oled = None
        self._shown = None

    def button(self, side):
        return self._buttons[side].value() == 0

    def beep(self, ms):
        self._buzzer.freq(2000)
        self._buzzer.duty_u16(20000)
        self._beep_until = time.ticks_add(time.ticks_ms(), ms)

    def show(self, top, bottom):
        if time.ticks_diff(time.ticks_ms(), self._beep_until) > 0:
            self._buzzer.duty_u16(0)
        if self._oled is None or (top, bottom) == self._shown:
            return
        self._shown = (top, bottom)
        self._oled.fill(0)
        self._oled.text(top, 0, 4)
        self._oled.text(bottom[:16], 0, 20)
        self._oled.show()


class PicoBoard(PicoBase):
    """Two-level analog multiplexing: 11 CD74HC4067, select GP6..GP9 and GP10..GP13, ADC0 on GP26."""

    def __init__(self):
        super().__init__()
        self._low = [machine.Pin(p, machine.Pin.OUT) for p in (6, 7, 8, 9)]
        self._high = [machine.Pin(p, machine.Pin.OUT) for p in (10, 11, 12, 13)]
        self._adc = machine.ADC(26)
        self._zero = 32768  # mid-supply output of a DRV5053-style sensor with no field

    def _select(self, pins, channel):
        for bit, pin in enumerate(pins):
            pin.value((channel >> bit) & 1)

    def read_slot(self, cell, slot):
        index = _sensor_index(cell, slot)
        self._select(self._high, index // 16)
        self._select(self._low, index % 16)
        time.sleep_us(20)
        raw = self._adc.read_u16()
        if raw <= 300 or raw >= 65235:
            return 10000  # at a rail: broken or disconnected
        return (raw - self._zero) // 16


def _sensor_index(cell, slot):
    if cell < 24:
        return cell * 6 + slot
    if cell < 26:
        return 144 + (cell - 24) * 3 + slot
    return 150 + (cell - 26) * 5 + slot
