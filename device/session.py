"""The host's side of one device session, without I/O: handshake, commands, events.

A driver opens a port, calls :meth:`HostSession.opened`, then feeds what it
reads to :meth:`receive` and writes what :meth:`poll` returns. The session
asks HELLO_REQUEST until the device introduces itself, checks it is the
expected kind and a compatible protocol version, releases queued commands,
and declares the link lost when nothing gets through: ``silence_ms`` without
a good frame, or with a command sent again and again but never acknowledged.
It also counts clean, repaired and lost frames (``device.quality``). State
changes come out as :class:`SessionChange` values among the messages, so the
driver can turn them into link status events and resynchronise.

Commands queued while the link is down stay queued and go out, once each
and in order, when it is back; reliable events are delivered exactly once
(the link suppresses repeats). Damaged frames are counted, not delivered.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from device import wire
from device.codec import FrameError, decode_payload, encode_payload, is_reliable
from device.messages import (
    Command,
    DeviceError,
    DeviceKind,
    ErrorCode,
    Heartbeat,
    Hello,
    HelloRequest,
    Message,
)
from device.quality import Quality, QualityWindow


class SessionState(enum.Enum):
    CLOSED = "closed"
    HANDSHAKE = "handshake"
    CONNECTED = "connected"
    LOST = "lost"
    REFUSED = "refused"


@dataclass(frozen=True)
class SessionChange:
    """The session moved to ``state``; ``restarted`` when the device rebooted (new boot id)."""

    state: SessionState
    detail: str
    hello: Hello | None = None
    restarted: bool = False


class HostSession:
    """Protocol state for one device, kept across reconnects so nothing is lost or repeated."""

    def __init__(
        self,
        kind: DeviceKind | None,
        session_id: int,
        serial: str | None = None,
        rto_ms: int = 100,
        heartbeat_ms: int = 1000,
        silence_ms: int = 3000,
        hello_retry_ms: int = 250,
    ) -> None:
        self.kind = kind
        self.session_id = session_id % wire.NO_SESSION  # 0..0xFFFE
        self.serial = serial
        self.silence_ms = silence_ms
        self.hello_retry_ms = hello_retry_ms
        # The host has memory to spare: commands wait for an absent device without a limit in practice.
        self.link = wire.Link(rto_ms, heartbeat_ms, max_queue=1_000_000)
        self.link.hold = True
        self.link.accept = False
        self._restarted = False
        self.state = SessionState.CLOSED
        self.hello: Hello | None = None
        self._opened_ms = 0
        self._hello_asked_ms = -1_000_000
        self.frame_errors = 0
        self.older_frames = False  # frames of the version-1 format seen: a device with old firmware
        self.window = QualityWindow()

    # --- port events ----------------------------------------------------------

    def opened(self, now_ms: int) -> None:
        """A port is open: start the handshake (the link holds commands until it succeeds)."""
        self._handshake()
        self.link.deframer = wire.Deframer()
        self.link.last_rx_ms = now_ms
        self._opened_ms = now_ms

    def closed(self) -> None:
        """The port is gone; keep the queue and the sequence state for the next port."""
        self.link.hold = True
        self.link.accept = False
        self.state = SessionState.CLOSED

    # --- traffic --------------------------------------------------------------

    def send(self, command: Command) -> None:
        """Queue a command; it is sent reliably as soon as the device is connected."""
        self.link.send(command.TYPE, encode_payload(command), is_reliable(command))

    def pending(self) -> int:
        return self.link.pending()

    def quality(self, now_ms: int) -> Quality:
        """Clean, repaired and lost frames over the last seconds."""
        return self.window.quality(now_ms)

    def receive(self, data: bytes, now_ms: int) -> list[Message | SessionChange]:
        """Messages from the device in order, and any change of session state."""
        out: list[Message | SessionChange] = []
        good, repaired = self.link.frames_received, self.link.repaired_frames
        delivered, errors = self.link.receive(data, now_ms)
        repaired = self.link.repaired_frames - repaired
        self.window.record(now_ms, self.link.frames_received - good - repaired, repaired, len(errors))
        self.frame_errors += len(errors)
        self.older_frames = self.older_frames or wire.ERR_VERSION in errors
        for msg_type, _flags, payload in delivered:
            message = decode_payload(msg_type, payload)
            if isinstance(message, FrameError):
                self.frame_errors += 1
                continue
            if isinstance(message, Hello):
                change = self._on_hello(message)
                if change is not None:
                    out.append(change)
                continue
            if self.state is not SessionState.CONNECTED:
                continue  # only reports (unreliable) get here outside a session; they will come again
            if isinstance(message, (Heartbeat, HelloRequest)):
                continue
            out.append(message)
        return out

    def _on_hello(self, hello: Hello) -> SessionChange | None:
        problem = ""
        if self.kind is not None and hello.kind is not self.kind:
            problem = f"this port has a {hello.kind.name.lower()}, not a {self.kind.name.lower()}"
        elif hello.major != wire.PROTOCOL_MAJOR:
            problem = (
                f"device speaks protocol {hello.major}.{hello.minor}, "
                f"this program {wire.PROTOCOL_MAJOR}.{wire.PROTOCOL_MINOR}"
            )
        elif self.serial is not None and hello.serial != self.serial:
            problem = f"serial number {hello.serial!r}, expected {self.serial!r}"
        if problem:
            self.state = SessionState.REFUSED
            self.link.hold = True
            self.link.accept = False
            return SessionChange(SessionState.REFUSED, problem, hello)
        restarted = self.hello is not None and (
            hello.boot_id != self.hello.boot_id or hello.serial != self.hello.serial
        )
        if self.hello is None or restarted:
            self.link.reset_peer()
            self._restarted = self._restarted or restarted
        self.hello = hello
        if hello.session != self.session_id:
            # Said at boot (or to another host): the device has no session with us yet.
            if self.state is SessionState.CONNECTED and restarted:
                self._handshake()
            return None
        if self.state is not SessionState.HANDSHAKE:
            return None  # an answer to a repeated request
        self.state = SessionState.CONNECTED
        self.link.hold = False
        self.link.accept = True
        restarted, self._restarted = self._restarted, False
        detail = (
            f"{hello.kind.name.lower()} {hello.serial}, firmware {hello.firmware}, protocol {hello.major}.{hello.minor}"
        )
        return SessionChange(SessionState.CONNECTED, detail, hello, restarted)

    def _handshake(self) -> None:
        """Ask the device to introduce itself; nothing reliable flows until it answers us."""
        self.state = SessionState.HANDSHAKE
        self.link.hold = True
        self.link.accept = False
        self._hello_asked_ms = -1_000_000

    def poll(self, now_ms: int) -> tuple[bytes, SessionChange | None]:
        """Bytes to write now, and a change when the link has just been declared lost."""
        change = None
        if self.state is SessionState.HANDSHAKE and now_ms - self._hello_asked_ms >= self.hello_retry_ms:
            self._hello_asked_ms = now_ms
            self.link.send(HelloRequest.TYPE, encode_payload(HelloRequest(self.session_id)), False)
        if self.state in (SessionState.CONNECTED, SessionState.HANDSHAKE):
            problem = ""
            if now_ms - self.link.last_rx_ms >= self.silence_ms:
                what = "no answer to HELLO" if self.state is SessionState.HANDSHAKE else "device silent"
                problem = f"{what} for {self.silence_ms} ms"
            elif (
                self.state is SessionState.CONNECTED
                and self.link.inflight is not None
                and now_ms - self.link.first_sent_at >= self.silence_ms
            ):
                problem = f"nothing gets through: a command unacknowledged for {self.silence_ms} ms"
            if problem:
                self.state = SessionState.LOST
                self.link.hold = True
                self.link.accept = False
                if self.older_frames:
                    problem += "; the device speaks an older protocol: update its firmware"
                change = SessionChange(SessionState.LOST, f"{problem} ({self.quality(now_ms).describe()})")
        data = self.link.poll(now_ms, now_ms - self._opened_ms) if self.state is not SessionState.CLOSED else b""
        return data, change


def error_text(error: DeviceError) -> str:
    """A line a referee can read for an ERROR frame."""
    name = wire.SCHEMAS.get(error.ref_type, ("message 0x%02x" % error.ref_type,))[0]
    base = error.code.text if isinstance(error.code, ErrorCode) else str(error.code)
    extra = f": {error.detail}" if error.detail else ""
    return f"device error, {base} ({name}){extra}"
