"""Clock and board drivers: one thread per device, one event queue for the app.

Each driver owns a :class:`~device.session.HostSession` for the life of the
driver (not of the port), opens its port through a ``PortFinder``, and loops:
read, decode, deliver, write, until :meth:`DeviceDriver.close`. Anything that
goes wrong with the port (cable pulled, device reset, USB stall detected as
silence) closes it, puts a :class:`LinkStatus` on the queue, and the driver
tries again every ``retry_s`` seconds. After every reconnect it
resynchronises: the clock driver asks the clock for its times (the clock is
the authority), or restores the last known times if the clock rebooted; the
board driver asks for a full snapshot.

Both drivers put onto the same ``queue.Queue`` (as picochess does): the
messages of ``device.messages`` (``ButtonPressed``, ``FlagFell``,
``TimeReport``, ``BoardSnapshot``, ``CheckerLifted``, ``CheckerPlaced``,
``SensorHealth``, ``DeviceError``), ``LinkStatus`` and ``LinkNoise`` (the
line turned noisy, or clean again). Commands are thread safe and never
block: they are queued and delivered once the link is up.
"""

from __future__ import annotations

import enum
import itertools
import os
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from device.messages import (
    BoardSnapshot,
    ButtonPressed,
    ClockState,
    Command,
    ConfigureBoard,
    DelayMode,
    DeviceKind,
    DisplayText,
    FlagFell,
    Hello,
    Message,
    PauseClocks,
    RequestSnapshot,
    RequestTimes,
    ResumeClocks,
    SetTime,
    Side,
    StartClock,
    StopClocks,
    TimeReport,
)
from device.quality import Quality
from device.session import HostSession, SessionChange, SessionState
from device.timecontrol import TimeControl
from device.transport import PortFinder, Transport, TransportError


class LinkState(enum.Enum):
    """What the app shows for a device."""

    SEARCHING = "searching"  # no port found or it would not open; retrying
    CONNECTING = "connecting"  # port open, waiting for the device's HELLO
    CONNECTED = "connected"  # handshake done; commands and events flow
    DISCONNECTED = "disconnected"  # lost (cable, reset, silence); reconnecting
    CLOSED = "closed"  # the driver was closed


@dataclass(frozen=True)
class LinkStatus:
    """A change of a device's link, with a sentence saying why."""

    kind: DeviceKind
    state: LinkState
    port: str
    detail: str
    hello: Hello | None = None
    restarted: bool = False


@dataclass(frozen=True)
class LinkNoise:
    """The line turned noisy (more than 1 % of frames damaged) or clean again (none for a while)."""

    kind: DeviceKind
    noisy: bool
    quality: Quality


@dataclass
class LinkStats:
    """Counters for diagnostics (read them from the app's status screen or a benchmark)."""

    connects: int = 0
    frames_sent: int = 0
    frames_received: int = 0
    bad_frames: int = 0
    repaired_frames: int = 0
    retransmits: int = 0
    duplicates: int = 0


Event = Message | LinkStatus | LinkNoise
"""What drivers put on the queue."""

_session_ids = itertools.count(int.from_bytes(os.urandom(2), "little"))


def _now_ms() -> int:
    return int(time.monotonic() * 1000)


class DeviceDriver:
    """Common machinery of both drivers; see the module docstring."""

    KIND: DeviceKind = DeviceKind.CLOCK

    def __init__(
        self,
        finder: PortFinder,
        events: queue.Queue[object],
        *,
        serial: str | None = None,
        rto_ms: int = 100,
        heartbeat_ms: int = 1000,
        silence_ms: int = 3000,
        hello_retry_ms: int = 250,
        retry_s: float = 0.5,
        now_ms: Callable[[], int] = _now_ms,
    ) -> None:
        self.finder = finder
        self.events = events
        self.retry_s = retry_s
        self._now_ms = now_ms
        self.session = HostSession(
            self.KIND,
            next(_session_ids),
            serial,
            rto_ms=rto_ms,
            heartbeat_ms=heartbeat_ms,
            silence_ms=silence_ms,
            hello_retry_ms=hello_retry_ms,
        )
        self._commands: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._transport: Transport | None = None
        self._refused: dict[str, float] = {}
        self._status: LinkStatus = LinkStatus(self.KIND, LinkState.SEARCHING, "", "not started")
        self._status_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=f"{self.KIND.name.lower()}-driver", daemon=True)
        self.connects = 0
        self.noisy = False

    # --- public ----------------------------------------------------------------

    def start(self) -> DeviceDriver:
        self._thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread and release the port; a CLOSED status is the last event."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def __enter__(self) -> DeviceDriver:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def status(self) -> LinkStatus:
        with self._status_lock:
            return self._status

    def send(self, command: Command) -> None:
        """Queue a command; it reaches the device once, in order, when the link is up."""
        self._commands.put(command)

    def pending(self) -> int:
        """Commands not yet acknowledged by the device."""
        return self.session.pending() + self._commands.qsize()

    def stats(self) -> LinkStats:
        link = self.session.link
        return LinkStats(
            self.connects,
            link.frames_sent,
            link.frames_received,
            self.session.frame_errors,
            link.repaired_frames,
            link.retransmits,
            link.duplicates,
        )

    # --- hooks for the two devices ----------------------------------------------

    def _on_connected(self, change: SessionChange) -> None:
        """Resynchronise after (re)connecting."""

    def _on_message(self, message: Message) -> None:
        """Track state from a message before it goes to the app."""

    # --- the loop ------------------------------------------------------------------

    def _set_status(
        self, state: LinkState, port: str, detail: str, hello: Hello | None = None, restarted: bool = False
    ) -> None:
        status = LinkStatus(self.KIND, state, port, detail, hello, restarted)
        with self._status_lock:
            previous = self._status
            self._status = status
        if (previous.state, previous.port, previous.detail) != (state, port, detail) or restarted:
            self.events.put(status)

    def _open(self) -> bool:
        now = time.monotonic()
        problems = []
        try:
            names = self.finder.candidates()
        except Exception as error:  # a broken USB enumeration must not kill the driver
            names = []
            problems.append(f"cannot list ports: {error}")
        for name in names:
            if self._refused.get(name, 0.0) > now:
                continue
            try:
                self._transport = self.finder.open(name)
            except TransportError as error:
                problems.append(str(error))
                continue
            self.session.opened(self._now_ms())
            self._set_status(LinkState.CONNECTING, name, "port open, waiting for the device to introduce itself")
            return True
        detail = "; ".join(problems) if problems else "no matching port"
        if self._status.state is not LinkState.DISCONNECTED:
            self._set_status(LinkState.SEARCHING, "", detail)
        return False

    def _drop(self, detail: str, refuse: bool = False) -> None:
        port = self._transport.name if self._transport else ""
        if self._transport is not None:
            self._transport.close()
            self._transport = None
        if refuse:
            self._refused[port] = time.monotonic() + 10.0
        self.session.closed()
        self._set_status(LinkState.DISCONNECTED, port, detail)

    def _watch_noise(self, now: int) -> None:
        """Say when the line turns noisy, and when it is clean again (a whole window without damage)."""
        quality = self.session.quality(now)
        noisy = quality.noisy if not self.noisy else quality.repaired + quality.lost > 0
        if noisy != self.noisy and self.session.state is SessionState.CONNECTED:
            self.noisy = noisy
            self.events.put(LinkNoise(self.KIND, noisy, quality))

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                if self._transport is None and not self._open():
                    self._stop.wait(self.retry_s)
                    continue
                try:
                    self._step()
                except Exception as error:  # a bug here must not silence the device for the rest of the match
                    self._drop(f"internal error, reconnecting: {error!r}")
                    self._stop.wait(self.retry_s)
        finally:
            if self._transport is not None:
                self._transport.close()
                self._transport = None
            self.session.closed()
            self._set_status(LinkState.CLOSED, "", "driver closed")

    def _step(self) -> None:
        transport = self._transport
        assert transport is not None
        while True:
            try:
                self.session.send(self._commands.get_nowait())
            except queue.Empty:
                break
        try:
            data = transport.read(4096)
        except TransportError as error:
            self._drop(f"port failed: {error}")
            return
        now = self._now_ms()
        for item in self.session.receive(data, now):
            if isinstance(item, SessionChange):
                if item.state is SessionState.REFUSED:
                    self._drop(f"refused: {item.detail}", refuse=True)
                    return
                self.connects += 1
                self._set_status(LinkState.CONNECTED, transport.name, item.detail, item.hello, item.restarted)
                self._on_connected(item)
                continue
            self._on_message(item)
            self.events.put(item)
        out, change = self.session.poll(now)
        if change is not None:
            self._drop(change.detail)
            return
        self._watch_noise(now)
        if out:
            try:
                transport.write(out)
            except TransportError as error:
                self._drop(f"port failed: {error}")


class ClockDriver(DeviceDriver):
    """A tournament clock on a serial port; the same commands as SoftwareClock."""

    KIND = DeviceKind.CLOCK

    def __init__(self, finder: PortFinder, events: queue.Queue[object], **options: Any) -> None:
        super().__init__(finder, events, **options)
        self.last_report: TimeReport | None = None
        self._config: dict[Side, SetTime] = {}
        self._lock = threading.Lock()

    def set_time(self, side: Side, reserve_ms: int, delay_ms: int, mode: DelayMode = DelayMode.SIMPLE) -> None:
        command = SetTime(side, reserve_ms, delay_ms, mode)
        with self._lock:
            self._config[side] = command
        self.send(command)

    def set_time_control(self, control: TimeControl) -> None:
        """Both sides to one time control (see device.timecontrol for the federation defaults)."""
        for side in Side:
            self.set_time(side, control.reserve_ms, control.delay_ms, control.mode)

    def start_side(self, side: Side) -> None:
        self.send(StartClock(side))

    def stop(self) -> None:
        self.send(StopClocks())

    def pause(self) -> None:
        self.send(PauseClocks())

    def resume(self) -> None:
        self.send(ResumeClocks())

    def request_times(self) -> None:
        self.send(RequestTimes())

    def display(self, text: str) -> None:
        self.send(DisplayText(text))

    def _on_message(self, message: Message) -> None:
        with self._lock:
            if isinstance(message, TimeReport):
                self.last_report = message
            elif isinstance(message, (ButtonPressed, FlagFell)):
                previous = self.last_report
                state = previous.state if previous else ClockState.STOPPED
                running = previous.running if previous else None
                if isinstance(message, FlagFell):
                    state, running = ClockState.FLAGGED, None
                elif message.accepted:
                    state, running = ClockState.RUNNING, message.running
                delay = previous.delay_left_ms if previous else 0
                self.last_report = TimeReport(state, running, message.white_ms, message.black_ms, delay)

    def _on_connected(self, change: SessionChange) -> None:
        with self._lock:
            report = self.last_report
            config = dict(self._config)
        if change.restarted and report is not None:
            # The clock lost its times in a reboot: give back the last ones it reported.
            for side in Side:
                base = config.get(side)
                delay, mode = (base.delay_ms, base.mode) if base else (0, DelayMode.SIMPLE)
                self.session.send(SetTime(side, report.remaining_ms(side), delay, mode))
        self.session.send(RequestTimes())


class BoardDriver(DeviceDriver):
    """A checker-sensing board on a serial port."""

    KIND = DeviceKind.BOARD

    def __init__(self, finder: PortFinder, events: queue.Queue[object], **options: Any) -> None:
        super().__init__(finder, events, **options)
        self.last_snapshot: BoardSnapshot | None = None

    def request_snapshot(self) -> None:
        self.send(RequestSnapshot())

    def configure(self, settle_ms: int) -> None:
        self.send(ConfigureBoard(settle_ms))

    def _on_message(self, message: Message) -> None:
        if isinstance(message, BoardSnapshot):
            self.last_snapshot = message

    def _on_connected(self, change: SessionChange) -> None:
        self.session.send(RequestSnapshot())
