"""Reference firmware of the tournament clock (MicroPython).

Two player buttons (debounced), a two-line display, a buzzer. The clock model
is ``clockcore`` — the same file the host's software clock runs — so the
device and the app agree on every delay, handover and flag fall. The clock
is the authority on time: it runs on its own battery and keeps running when
the USB cable is pulled; the host reads its times back on reconnect.
"""

try:
    import clockcore
    import wire
except ImportError:  # on the host
    from device import clockcore, wire

DEBOUNCE_MS = 30
REPORT_MS = 1000
DISPLAY_MS = 100
FLAG_BEEP_MS = 1500
DEFAULT_RESERVE_MS = 2 * 60 * 1000  # docs/rules.md section 5, a 1-point match
DEFAULT_DELAY_MS = 12 * 1000


def format_ms(ms):
    """Time as the display shows it: m:ss, and tenths under 20 seconds."""
    if ms < 20000:
        return "%d.%d" % (ms // 1000, (ms % 1000) // 100)
    seconds = (ms + 999) // 1000
    return "%d:%02d" % (seconds // 60, seconds % 60)


class ClockApp:
    def __init__(self, hal):
        self.hal = hal
        self.core = None
        self.runtime = None
        self.text = ""
        self._stable = [False, False]
        self._raw = [False, False]
        self._raw_since = [0, 0]
        self._last_report = -REPORT_MS
        self._last_display = -DISPLAY_MS

    def attach(self, runtime):
        self.runtime = runtime
        now = runtime.clock()
        self.core = clockcore.ClockCore(now)
        for side in (0, 1):
            self.core.set_time(side, DEFAULT_RESERVE_MS, DEFAULT_DELAY_MS, clockcore.SIMPLE_DELAY, now)

    def _report_values(self, now):
        core = self.core
        core.advance(now)
        return (core.state, core.running, core.reserve[0], core.reserve[1], core.delay_left)

    def handle(self, msg_type, values, now):
        core = self.core
        ok = True
        if msg_type == wire.SET_TIME:
            ok = core.set_time(values[0], values[1], values[2], values[3], now)
        elif msg_type == wire.START:
            ok = core.start(values[0], now)
        elif msg_type == wire.STOP:
            core.stop(now)
        elif msg_type == wire.PAUSE:
            core.pause(now)
        elif msg_type == wire.RESUME:
            core.resume(now)
        elif msg_type == wire.REQUEST_TIMES:
            self._last_report = now
            self.runtime.emit(wire.TIMES, self._report_values(now))
        elif msg_type == wire.DISPLAY_TEXT:
            self.text = values[0]
        else:
            self.runtime.refuse(msg_type, "not a clock command")
            return
        if not ok:
            self.runtime.refuse(msg_type, "refused: flag fell or bad value")

    def _buttons(self, now):
        for side in (0, 1):
            raw = self.hal.button(side)
            if raw != self._raw[side]:
                self._raw[side] = raw
                self._raw_since[side] = now
            elif raw != self._stable[side] and now - self._raw_since[side] >= DEBOUNCE_MS:
                self._stable[side] = raw
                if raw:
                    self._pressed(side, now)

    def _pressed(self, side, now):
        self._flag(now)  # a flag that fell before the press is reported first
        core = self.core
        accepted = core.press(side, now)
        self.runtime.emit(wire.BUTTON, (side, 1 if accepted else 0, core.running, core.reserve[0], core.reserve[1]))
        if accepted:
            self.hal.beep(20)

    def _flag(self, now):
        self.core.advance(now)
        side = self.core.take_flag()
        if side != clockcore.NO_SIDE:
            self.runtime.emit(wire.FLAG, (side, self.core.reserve[0], self.core.reserve[1]))
            self.hal.beep(FLAG_BEEP_MS)

    def tick(self, now):
        self._buttons(now)
        self._flag(now)
        if now - self._last_report >= REPORT_MS:
            self._last_report = now
            self.runtime.emit(wire.TIMES, self._report_values(now))
        if now - self._last_display >= DISPLAY_MS:
            self._last_display = now
            core = self.core
            marks = ["  ", "  "]
            if core.running != clockcore.NO_SIDE:
                marks[core.running] = "> "
            if core.flagged != clockcore.NO_SIDE:
                marks[core.flagged] = "F "
            top = "%s%s  %s%s" % (marks[0], format_ms(core.reserve[0]), marks[1], format_ms(core.reserve[1]))
            self.hal.show(top, self.text)
