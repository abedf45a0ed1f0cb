"""What both simulators share: a pty pair, the device end of the protocol, a thread.

The simulator holds the master side of a pseudo-terminal; the host opens the
slave side with pyserial like any serial port. ``port`` is a symlink that
always points at the current slave, as ``/dev/serial/by-id/...`` does for a
USB device: :meth:`SimulatedDevice.unplug` closes the pty (the host's reads
fail as on a pulled cable) and :meth:`replug` opens a new one behind the same
link. :meth:`reboot` loses the device's state and announces a new boot id.

Every scripted action (press, move, fault) is a method, safe to call from
any thread; the simulator's thread does all I/O.
"""

from __future__ import annotations

import errno
import os
import select
import tempfile
import threading
import time
import tty
from typing import Callable

from device import codec, wire
from device.codec import FrameError
from device.messages import DeviceKind, ErrorCode, Message
from device.sim.faults import Faults


class SimulatedDevice:
    """Base of the clock and board simulators."""

    KIND = DeviceKind.CLOCK
    FIRMWARE = "sim-1.0"

    def __init__(
        self,
        serial: str = "SIM0001",
        link_path: str | None = None,
        faults: Faults | None = None,
        inbound_faults: Faults | None = None,
        rto_ms: int = 100,
        heartbeat_ms: int = 1000,
        host_timeout_ms: int = 3000,
        time_source: Callable[[], float] = time.monotonic,
    ) -> None:
        self.serial = serial
        self.faults = faults or Faults()
        self.inbound_faults = inbound_faults or Faults()
        self._time = time_source
        self._rto_ms = rto_ms
        self._heartbeat_ms = heartbeat_ms
        self._host_timeout_ms = host_timeout_ms
        self._boots = 0
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master = -1
        self._slave = -1
        self._tmpdir: str | None = None
        self.port = link_path or ""
        """The path to open: a link that always points at the current pty (set by start())."""
        self.pty_path = ""
        self.plugged = False
        self.log: list[str] = []
        self._boot_ms = self._ms()
        self.endpoint = self._new_endpoint()

    # --- time and protocol ----------------------------------------------------------

    def _ms(self) -> int:
        return int(self._time() * 1000)

    def _new_endpoint(self) -> wire.DeviceEndpoint:
        self._boots += 1
        boot_id = (int.from_bytes(os.urandom(2), "little") + self._boots) & 0xFFFF
        endpoint = wire.DeviceEndpoint(
            int(self.KIND),
            self.FIRMWARE,
            self.serial,
            boot_id,
            self._rto_ms,
            self._heartbeat_ms,
            self._host_timeout_ms,
        )
        endpoint.announce()
        return endpoint

    def emit(self, message: Message) -> None:
        """Send an event to the host (queued until a host listens, if reliable)."""
        with self._lock:
            self.endpoint.send_event(message.TYPE, codec.to_values(message))

    def refuse(self, msg_type: int, detail: str) -> None:
        with self._lock:
            self.endpoint.error(wire.ERR_REFUSED, msg_type, detail)

    # --- subclass hooks ---------------------------------------------------------------------

    def handle(self, command: Message, now_ms: int) -> None:
        """Carry out one command from the host."""

    def tick(self, now_ms: int) -> None:
        """Periodic work (flag detection, settling, time reports)."""

    def reset_state(self, now_ms: int) -> None:
        """Forget everything a power cycle forgets."""

    # --- lifecycle --------------------------------------------------------------------------

    def start(self) -> SimulatedDevice:
        """Open the pty, start the thread; returns self, ``port`` is ready to open."""
        if not self.port:
            self._tmpdir = tempfile.mkdtemp(prefix="tavla-sim-")
            self.port = os.path.join(self._tmpdir, self.KIND.name.lower())
        self._open_pty()
        self._thread = threading.Thread(target=self._run, name=f"sim-{self.KIND.name.lower()}", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
        with self._lock:
            self._close_pty()
        if self._tmpdir is not None:
            try:
                os.unlink(self.port)
            except OSError:
                pass
            try:
                os.rmdir(self._tmpdir)
            except OSError:
                pass

    def __enter__(self) -> SimulatedDevice:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def unplug(self) -> None:
        """Pull the cable: the pty closes; the device keeps running (on its battery)."""
        with self._lock:
            self._close_pty()
            self.log.append("unplugged")

    def replug(self) -> None:
        """Plug the cable back in: a new pty behind the same ``port`` link."""
        with self._lock:
            if not self.plugged:
                self._open_pty()
                self.log.append("plugged in")

    def reboot(self) -> None:
        """Power cycle: state lost, new boot id, HELLO announced."""
        with self._lock:
            now = self._ms()
            self._boot_ms = now
            self.endpoint = self._new_endpoint()
            self.reset_state(now)
            self.log.append("rebooted")

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.pty_path = os.ttyname(slave)
        tmp_link = self.port + ".new"
        try:
            os.unlink(tmp_link)
        except FileNotFoundError:
            pass
        os.symlink(self.pty_path, tmp_link)
        os.replace(tmp_link, self.port)
        self.plugged = True

    def _close_pty(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = -1
        self.plugged = False

    # --- the loop -----------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        for piece in self.faults.apply(data):
            try:
                os.write(self._master, piece)
            except BlockingIOError:
                pass  # nobody reads the port: bytes are lost, as on a USB CDC line without a host
            except OSError as error:
                if error.errno not in (errno.EIO, errno.EAGAIN):
                    raise

    def _read(self) -> bytes:
        try:
            ready, _, _ = select.select([self._master], [], [], 0.005)
        except (OSError, ValueError):
            return b""
        if not ready:
            return b""
        try:
            data = os.read(self._master, 4096)
        except (BlockingIOError, OSError):
            return b""  # EIO while the host has the port closed
        if self.inbound_faults.active:
            data = b"".join(self.inbound_faults.apply(data))
        return data

    def step(self) -> None:
        """One turn of the loop: read, carry out commands, tick, write."""
        if not self.plugged:
            time.sleep(0.005)
            with self._lock:
                now = self._ms()
                self.tick(now)
                self.endpoint.poll(now, now - self._boot_ms)  # bytes meant for a missing cable are lost
            return
        data = self._read()
        with self._lock:
            if not self.plugged:
                return
            now = self._ms()
            for msg_type, values in self.endpoint.receive(data, now):
                command = codec.from_values(msg_type, values)
                if isinstance(command, FrameError):
                    self.endpoint.error(int(ErrorCode.PAYLOAD), msg_type, "")
                    continue
                self.handle(command, now)
            self.tick(now)
            out = self.endpoint.poll(now, now - self._boot_ms)
            if out:
                self._write(out)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except Exception as error:  # keep simulating; a test sees the log
                self.log.append(f"internal error: {error!r}")
                time.sleep(0.01)
