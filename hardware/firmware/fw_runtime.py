"""The firmware's main loop, common to the clock and the board (MicroPython).

It owns the protocol endpoint (``wire.DeviceEndpoint``, the very module the
host uses) and a monotonic millisecond counter built from the hardware's
wrapping tick counter, reads the serial line, hands commands to the device
application, lets it do its periodic work, and writes what the protocol
wants to send. The hardware is reached only through ``hal`` (see
``fw_hal_pico.py`` for the board, ``fw_hal_host.py`` for the fake one the tests use).
"""

try:
    import wire
except ImportError:  # on the host: the same file, from the device package
    from device import wire


class Runtime:
    def __init__(self, hal, app, kind, firmware, rto_ms=100, heartbeat_ms=1000, host_timeout_ms=3000):
        self.hal = hal
        self.app = app
        self._last_ticks = hal.ticks_ms()
        self.now = 0
        self.endpoint = wire.DeviceEndpoint(
            kind, firmware, hal.serial_number(), hal.random16(), rto_ms, heartbeat_ms, host_timeout_ms
        )
        self.endpoint.announce()
        app.attach(self)

    def clock(self):
        """Milliseconds since boot, never wrapping (the tick counter wraps on MicroPython)."""
        ticks = self.hal.ticks_ms()
        self.now += self.hal.ticks_diff(ticks, self._last_ticks)
        self._last_ticks = ticks
        return self.now

    def emit(self, msg_type, values):
        self.endpoint.send_event(msg_type, values)

    def refuse(self, msg_type, detail):
        self.endpoint.error(wire.ERR_REFUSED, msg_type, detail)

    def step(self):
        now = self.clock()
        data = self.hal.uart_read()
        if data:
            for msg_type, values in self.endpoint.receive(data, now):
                try:
                    self.app.handle(msg_type, values, now)
                except Exception as error:  # a bad command must not stop the clock
                    self.endpoint.error(wire.ERR_REFUSED, msg_type, "failed: %r" % (error,))
        self.app.tick(now)
        out = self.endpoint.poll(now, now)
        if out:
            self.hal.uart_write(out)

    def run(self, should_stop=None):
        """Loop forever (on the board) or until should_stop() (on the host)."""
        while should_stop is None or not should_stop():
            self.step()
            self.hal.idle()
