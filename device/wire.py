"""The tavla device protocol at the wire level: one source for host and firmware.

This module is the protocol definition that ``hardware/PROTOCOL.md`` describes
in prose. The reference firmware copies it verbatim onto the board as
``wire.py``, so it keeps to the MicroPython subset: only ``struct`` and
``binascii`` are imported, no dataclasses, enums or typing at run time (the
annotations are ignored by MicroPython), and integers carry every value.

Frame on the line: ``0x00 | COBS(body + crc32_le(body)) | 0x00`` where
``body = flags_version, seq, type, payload...``. A zero byte never occurs
inside a COBS block, so any garbage is cut off at the next zero and the frame
after it decodes cleanly (self-resynchronising). The leading zero closes
whatever half frame a glitch left behind.

:class:`Link` is the reliable link both ends run: stop-and-wait with sequence
numbers, acknowledgements, retransmission on timeout or NAK, duplicate
suppression, and heartbeats. Time is passed in as milliseconds, so the link is
pure and testable without a clock.
"""

import struct

try:
    from binascii import crc32 as _crc32_native

    _HAVE_NATIVE_CRC = True
except ImportError:  # pragma: no cover - MicroPython ports built without it
    _HAVE_NATIVE_CRC = False

PROTOCOL_MAJOR = 1
"""Changes only when an old device could no longer be driven."""
PROTOCOL_MINOR = 0
"""Grows when messages or trailing fields are added; older peers ignore them."""
FRAME_VERSION = 1
"""High nibble of the first body byte; another value is a frame this code cannot read."""

FLAG_RELIABLE = 0x01
"""The sender waits for an ACK of this frame's sequence number and retransmits."""

HEADER_SIZE = 3
CRC_SIZE = 4
MAX_BODY = 250
"""Header + payload; COBS with one code byte per 254 stays within 256 bytes."""
MAX_ENCODED = MAX_BODY + CRC_SIZE + 2
MAX_TEXT = 64
"""Longest string field in bytes (UTF-8)."""

KIND_CLOCK = 1
KIND_BOARD = 2

NO_SESSION = 0xFFFF
"""HELLO's session echo when it answers no HELLO_REQUEST (sent at boot); hosts pick 0..0xFFFE."""
ANNOUNCE_MS = 500
"""How often a device that hears a host but has no session from it says HELLO again."""

# Link messages (both directions).
HELLO_REQUEST = 0x01
HELLO = 0x02
ACK = 0x03
NAK = 0x04
HEARTBEAT = 0x05
ERROR = 0x06
# Clock commands (host to clock).
SET_TIME = 0x20
START = 0x21
STOP = 0x22
PAUSE = 0x23
RESUME = 0x24
REQUEST_TIMES = 0x25
DISPLAY_TEXT = 0x26
# Clock events (clock to host).
BUTTON = 0x30
FLAG = 0x31
TIMES = 0x32
# Board commands (host to board).
REQUEST_SNAPSHOT = 0x40
CONFIGURE_BOARD = 0x41
# Board events (board to host).
SNAPSHOT = 0x50
LIFTED = 0x51
PLACED = 0x52
SENSORS = 0x53

# Schemas: one character per field. B u8, H u16 le, I u32 le,
# S string (u8 byte length + UTF-8), Y bytes (u8 length + raw bytes).
# Trailing payload bytes beyond the schema are ignored (newer minor versions
# append fields); missing bytes are an error.
SCHEMAS = {
    HELLO_REQUEST: ("HELLO_REQUEST", "HBB", False),
    HELLO: ("HELLO", "BBBSSHH", False),
    ACK: ("ACK", "B", False),
    NAK: ("NAK", "", False),
    HEARTBEAT: ("HEARTBEAT", "I", False),
    ERROR: ("ERROR", "BBS", True),
    SET_TIME: ("SET_TIME", "BIIB", True),
    START: ("START", "B", True),
    STOP: ("STOP", "", True),
    PAUSE: ("PAUSE", "", True),
    RESUME: ("RESUME", "", True),
    REQUEST_TIMES: ("REQUEST_TIMES", "", True),
    DISPLAY_TEXT: ("DISPLAY_TEXT", "S", True),
    BUTTON: ("BUTTON", "BBBII", True),
    FLAG: ("FLAG", "BII", True),
    TIMES: ("TIMES", "BBIII", False),
    REQUEST_SNAPSHOT: ("REQUEST_SNAPSHOT", "", True),
    CONFIGURE_BOARD: ("CONFIGURE_BOARD", "H", True),
    SNAPSHOT: ("SNAPSHOT", "HB" + "B" * 52, True),
    LIFTED: ("LIFTED", "BB", True),
    PLACED: ("PLACED", "BB", True),
    SENSORS: ("SENSORS", "BY", True),
}

# Error codes of ERROR frames and of local decoding.
ERR_NONE = 0
ERR_COBS = 1
ERR_SHORT = 2
ERR_CRC = 3
ERR_VERSION = 4
ERR_OVERFLOW = 5
ERR_UNKNOWN_TYPE = 6
ERR_PAYLOAD = 7
ERR_REFUSED = 8
ERR_HARDWARE = 9
ERR_QUEUE_FULL = 10
ERR_INCOMPATIBLE = 11

ERROR_NAMES = {
    ERR_COBS: "bad COBS block",
    ERR_SHORT: "frame too short",
    ERR_CRC: "CRC mismatch",
    ERR_VERSION: "unknown frame version",
    ERR_OVERFLOW: "frame too long",
    ERR_UNKNOWN_TYPE: "unknown message type",
    ERR_PAYLOAD: "malformed payload",
    ERR_REFUSED: "command refused in this state",
    ERR_HARDWARE: "hardware fault",
    ERR_QUEUE_FULL: "event queue full, events dropped",
    ERR_INCOMPATIBLE: "incompatible protocol version",
}


def _make_crc_table() -> list[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _make_crc_table()


def crc32_portable(data: bytes | bytearray | memoryview) -> int:
    """CRC-32 (IEEE 802.3, as zlib): the fallback for ports without binascii.crc32."""
    crc = 0xFFFFFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data: bytes | bytearray | memoryview) -> int:
    """CRC-32 (IEEE 802.3): the checksum at the end of every frame body."""
    if _HAVE_NATIVE_CRC:
        return _crc32_native(data) & 0xFFFFFFFF
    return crc32_portable(data)  # pragma: no cover


def cobs_encode(data: bytes | bytearray) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no zero byte."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes | bytearray) -> bytes | None:
    """The inverse of :func:`cobs_encode`; None when the block structure is broken."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        out += data[i + 1 : end]
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def pack_payload(schema: str, values: tuple[object, ...] | list[object]) -> bytes:
    """Values in schema order to payload bytes; raises ValueError when one does not fit."""
    if len(values) != len(schema):
        raise ValueError("expected %d fields, got %d" % (len(schema), len(values)))
    out = bytearray()
    for code, value in zip(schema, values):
        if code == "S" or code == "Y":
            raw = value.encode("utf-8") if isinstance(value, str) else bytes(value)  # type: ignore[call-overload]
            if len(raw) > MAX_TEXT:
                raise ValueError("field longer than %d bytes" % MAX_TEXT)
            out.append(len(raw))
            out += raw
        else:
            if not isinstance(value, int):
                raise ValueError("field %r is not an integer" % (value,))
            out += struct.pack("<" + code, value)
    return bytes(out)


_SIZES = {"B": 1, "H": 2, "I": 4}


def unpack_payload(schema: str, payload: bytes | bytearray) -> tuple[object, ...] | None:
    """Payload bytes to values in schema order; None when the payload is malformed."""
    values: list[object] = []
    i = 0
    n = len(payload)
    for code in schema:
        if code == "S" or code == "Y":
            if i >= n:
                return None
            length = payload[i]
            if i + 1 + length > n or length > MAX_TEXT:
                return None
            raw = bytes(payload[i + 1 : i + 1 + length])
            i += 1 + length
            if code == "S":
                try:
                    values.append(raw.decode("utf-8"))
                except UnicodeError:
                    return None
            else:
                values.append(raw)
        else:
            size = _SIZES[code]
            if i + size > n:
                return None
            values.append(struct.unpack_from("<" + code, payload, i)[0])
            i += size
    return tuple(values)


def encode_frame(msg_type: int, payload: bytes | bytearray, seq: int = 0, flags: int = 0) -> bytes:
    """One complete frame, delimiters included, ready to write to the port."""
    if len(payload) + HEADER_SIZE > MAX_BODY:
        raise ValueError("payload too long")
    body = bytearray(((FRAME_VERSION << 4) | (flags & 0x0F), seq & 0xFF, msg_type & 0xFF))
    body += payload
    crc = crc32(body)
    body += bytes((crc & 0xFF, (crc >> 8) & 0xFF, (crc >> 16) & 0xFF, (crc >> 24) & 0xFF))
    return b"\x00" + cobs_encode(body) + b"\x00"


def decode_frame(block: bytes | bytearray) -> tuple[int, int, int, int, bytes]:
    """One block between zero bytes to (error, flags, seq, type, payload); error 0 means good."""
    body = cobs_decode(block)
    if body is None:
        return (ERR_COBS, 0, 0, 0, b"")
    if len(body) < HEADER_SIZE + CRC_SIZE:
        return (ERR_SHORT, 0, 0, 0, b"")
    crc = body[-4] | (body[-3] << 8) | (body[-2] << 16) | (body[-1] << 24)
    content = body[:-CRC_SIZE]
    if crc32(content) != crc:
        return (ERR_CRC, 0, 0, 0, b"")
    if content[0] >> 4 != FRAME_VERSION:
        return (ERR_VERSION, 0, 0, 0, b"")
    return (ERR_NONE, content[0] & 0x0F, content[1], content[2], bytes(content[HEADER_SIZE:]))


class Deframer:
    """Cuts a byte stream at zero bytes into blocks; drops runaway garbage."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.overflowing = False

    def feed(self, data: bytes | bytearray) -> list[bytes | None]:
        """The complete blocks in data; None stands for a block dropped as too long."""
        blocks: list[bytes | None] = []
        for byte in data:
            if byte == 0:
                if self.overflowing:
                    blocks.append(None)
                elif self.buffer:
                    blocks.append(bytes(self.buffer))
                self.buffer = bytearray()
                self.overflowing = False
            elif not self.overflowing:
                self.buffer.append(byte)
                if len(self.buffer) > MAX_ENCODED:
                    self.buffer = bytearray()
                    self.overflowing = True
        return blocks


class Link:
    """One end of the reliable link: stop-and-wait ARQ over frames.

    Reliable frames are sent one at a time with sequence numbers 1..255; the
    peer acknowledges each with ACK(seq), and the sender repeats the frame
    after ``rto_ms`` without an ACK, or at once on a NAK (sent by a receiver
    that saw a damaged frame). A frame with the sequence number last accepted
    is a repeat whose ACK was lost: acknowledged again, delivered once only.
    ``hold`` keeps reliable frames queued while no peer is listening;
    ``accept`` False leaves the peer's reliable frames unacknowledged (to be
    repeated) until a session is established.
    """

    def __init__(self, rto_ms: int = 100, heartbeat_ms: int = 1000, max_queue: int = 256) -> None:
        self.rto_ms = rto_ms
        self.heartbeat_ms = heartbeat_ms
        self.max_queue = max_queue
        self.hold = False
        self.accept = True
        self.refused = 0
        self.queue: list[tuple[int, bytes]] = []
        self.inflight: bytes | None = None
        self.inflight_seq = 0
        self.sent_at = 0
        self.tx_seq = 0
        self.rx_last = -1
        self.deframer = Deframer()
        self.out = bytearray()
        self.last_tx_ms = -1_000_000
        self.last_rx_ms = -1_000_000
        self.last_nak_ms = -1_000_000
        self.dropped = 0
        # Counters for diagnostics and the fault-injection benchmark (recovered: reliable
        # frames acknowledged only after a retransmission).
        self.frames_sent = 0
        self.frames_received = 0
        self.bad_frames = 0
        self.retransmits = 0
        self.duplicates = 0
        self.reliable_delivered = 0
        self.reliable_acked = 0
        self.recovered = 0
        self.inflight_tries = 0

    def send(self, msg_type: int, payload: bytes, reliable: bool) -> bool:
        """Queue a message; False when the reliable queue is full and it was dropped."""
        if not reliable:
            self._emit(msg_type, payload, 0, 0)
            return True
        if len(self.queue) >= self.max_queue:
            self.dropped += 1
            return False
        self.queue.append((msg_type, payload))
        return True

    def pending(self) -> int:
        """Reliable frames not yet acknowledged, the one in flight included."""
        return len(self.queue) + (1 if self.inflight is not None else 0)

    def reset_peer(self) -> None:
        """The peer restarted (new boot or session): accept its next sequence number whatever it is."""
        self.rx_last = -1

    def _emit(self, msg_type: int, payload: bytes, seq: int, flags: int) -> None:
        self.out += encode_frame(msg_type, payload, seq, flags)
        self.frames_sent += 1

    def receive(self, data: bytes | bytearray, now_ms: int) -> tuple[list[tuple[int, int, bytes]], list[int]]:
        """Feed received bytes: ((type, flags, payload) newly delivered, error codes seen)."""
        delivered: list[tuple[int, int, bytes]] = []
        errors: list[int] = []
        for block in self.deframer.feed(data):
            if block is None:
                err, flags, seq, msg_type, payload = ERR_OVERFLOW, 0, 0, 0, b""
            else:
                err, flags, seq, msg_type, payload = decode_frame(block)
            if err != ERR_NONE:
                self.bad_frames += 1
                errors.append(err)
                if now_ms - self.last_nak_ms >= self.rto_ms // 4:
                    self.last_nak_ms = now_ms
                    self._emit(NAK, b"", 0, 0)
                continue
            self.frames_received += 1
            self.last_rx_ms = now_ms
            if msg_type == ACK:
                if self.inflight is not None and payload[:1] == bytes((self.inflight_seq,)):
                    self.inflight = None
                    self.reliable_acked += 1
                    if self.inflight_tries > 1:
                        self.recovered += 1
                continue
            if msg_type == NAK:
                if self.inflight is not None:
                    self.sent_at = now_ms - self.rto_ms
                continue
            if flags & FLAG_RELIABLE:
                if not self.accept:
                    # Not ready for it (no session yet): no ACK, so the sender repeats it later.
                    self.refused += 1
                    continue
                self._emit(ACK, bytes((seq,)), 0, 0)
                if seq == self.rx_last:
                    self.duplicates += 1
                    continue
                self.rx_last = seq
                self.reliable_delivered += 1
            delivered.append((msg_type, flags, payload))
        return delivered, errors

    def poll(self, now_ms: int, uptime_ms: int = 0) -> bytes:
        """The bytes to write now: new or repeated reliable frames, ACKs, heartbeats."""
        if not self.hold:
            if self.inflight is None and self.queue:
                msg_type, payload = self.queue.pop(0)
                self.tx_seq = self.tx_seq % 255 + 1
                self.inflight_seq = self.tx_seq
                self.inflight = encode_frame(msg_type, payload, self.tx_seq, FLAG_RELIABLE)
                self.out += self.inflight
                self.frames_sent += 1
                self.sent_at = now_ms
                self.inflight_tries = 1
            elif self.inflight is not None and now_ms - self.sent_at >= self.rto_ms:
                self.out += self.inflight
                self.frames_sent += 1
                self.retransmits += 1
                self.inflight_tries += 1
                self.sent_at = now_ms
        if self.out:
            self.last_tx_ms = now_ms
        elif self.heartbeat_ms and now_ms - self.last_tx_ms >= self.heartbeat_ms:
            self._emit(HEARTBEAT, struct.pack("<I", uptime_ms & 0xFFFFFFFF), 0, 0)
            self.last_tx_ms = now_ms
        out = bytes(self.out)
        self.out = bytearray()
        return out


class DeviceEndpoint:
    """The device's side of a session: introduces itself, tracks the host, filters commands.

    A session starts when a HELLO_REQUEST arrives: the device answers HELLO
    echoing the host's session id, and from then on takes the host's reliable
    commands and sends its own reliable events, while the host keeps talking.
    A host silent for ``host_timeout_ms`` is gone: events queue up for its
    return. A new session id means a new host program, whose sequence numbers
    start afresh. A device that hears a host without having a session (it
    has just rebooted) says HELLO every ANNOUNCE_MS so the host notices and
    asks again. Commands come out of :meth:`receive` as (type, values).
    """

    def __init__(
        self,
        kind: int,
        firmware: str,
        serial: str,
        boot_id: int,
        rto_ms: int = 100,
        heartbeat_ms: int = 1000,
        host_timeout_ms: int = 3000,
    ) -> None:
        self.kind = kind
        self.firmware = firmware
        self.serial = serial
        self.boot_id = boot_id & 0xFFFF
        self.host_timeout_ms = host_timeout_ms
        self.link = Link(rto_ms, heartbeat_ms)
        self.link.hold = True
        self.link.accept = False
        self.host_session = -1
        self.host_seen = False
        self.events_dropped = 0
        self.last_announce_ms = -1_000_000

    def announce(self, session: int = NO_SESSION) -> None:
        """Send HELLO (unprompted at boot, or answering a HELLO_REQUEST of session)."""
        fields = (self.kind, PROTOCOL_MAJOR, PROTOCOL_MINOR, self.firmware, self.serial, self.boot_id, session)
        self.link.send(HELLO, pack_payload(SCHEMAS[HELLO][1], fields), False)

    def send_event(self, msg_type: int, values: tuple[object, ...]) -> None:
        """Queue an event; a full queue is reported with an ERROR once space returns."""
        entry = SCHEMAS[msg_type]
        if not entry[2] and self.host_session < 0:
            return  # a report nobody in a session would read (after a reboot it could mislead the host)
        if not self.link.send(msg_type, pack_payload(entry[1], values), entry[2]):
            self.events_dropped += 1

    def error(self, code: int, ref_type: int, detail: str) -> None:
        self.send_event(ERROR, (code, ref_type, detail.encode("utf-8")[:MAX_TEXT].decode("utf-8", "ignore")))

    def receive(self, data: bytes | bytearray, now_ms: int) -> list[tuple[int, tuple[object, ...]]]:
        """Feed bytes from the host; the commands to carry out, in order."""
        commands: list[tuple[int, tuple[object, ...]]] = []
        received = self.link.frames_received
        delivered, _errors = self.link.receive(data, now_ms)
        if self.link.frames_received != received:
            self.host_seen = True
        for msg_type, _flags, payload in delivered:
            entry = SCHEMAS.get(msg_type)
            if entry is None:
                self.error(ERR_UNKNOWN_TYPE, msg_type, "")
                continue
            values = unpack_payload(entry[1], payload)
            if values is None:
                self.error(ERR_PAYLOAD, msg_type, "")
                continue
            if msg_type == HELLO_REQUEST:
                session = values[0]
                if values[1] != PROTOCOL_MAJOR:
                    self.error(ERR_INCOMPATIBLE, msg_type, "device speaks %d.%d" % (PROTOCOL_MAJOR, PROTOCOL_MINOR))
                if session != self.host_session:
                    self.host_session = session  # type: ignore[assignment]
                    self.link.reset_peer()
                self.link.accept = True
                self.announce(self.host_session)
                continue
            if msg_type in (HEARTBEAT, HELLO, ERROR):
                continue
            commands.append((msg_type, values))
        return commands

    def host_present(self, now_ms: int) -> bool:
        return self.host_seen and now_ms - self.link.last_rx_ms < self.host_timeout_ms

    def poll(self, now_ms: int, uptime_ms: int) -> bytes:
        """Bytes to write now; reliable events flow only in a session with a present host."""
        present = self.host_present(now_ms)
        if present and self.host_session < 0 and now_ms - self.last_announce_ms >= ANNOUNCE_MS:
            self.last_announce_ms = now_ms
            self.announce()
        if self.events_dropped and present and self.link.pending() < self.link.max_queue:
            dropped = self.events_dropped
            self.events_dropped = 0
            self.error(ERR_QUEUE_FULL, 0, "%d events dropped" % dropped)
        self.link.hold = not (present and self.host_session >= 0)
        return self.link.poll(now_ms, uptime_ms)
