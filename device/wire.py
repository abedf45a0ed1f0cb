"""The tavla device protocol at the wire level: one source for host and firmware.

This module is the protocol definition that ``hardware/PROTOCOL.md`` describes
in prose. The reference firmware copies it verbatim onto the board as
``wire.py``, so it keeps to the MicroPython subset: only ``struct`` and
``binascii`` are imported, no dataclasses, enums or typing at run time (the
annotations are ignored by MicroPython), and integers carry every value.

Frame on the line: ``0x00 | S S S | RS(body + crc32_le(body)) with 0 -> S | 0x00 0x00``
where ``body = flags_version, seq, type, payload...``, RS appends Reed-Solomon
parity (so a cable that damages one byte in ten still gets long frames
through at the first try) and S is a byte value the codeword does not hold, which
stands in for its zero bytes. No zero occurs between the delimiters, so any
garbage is cut off at the next zero; every damaged byte stays one damaged
byte in its place, so the parity repairs it. The leading zero closes
whatever half frame a glitch left behind; the closing zero comes twice, so a
frame whose first closing zero was corrupted is still complete at once
instead of waiting for the next frame's opening zero.

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

PROTOCOL_MAJOR = 2
"""Changes only when an old device could no longer be driven."""
PROTOCOL_MINOR = 0
"""Grows when messages or trailing fields are added; older peers ignore them."""
FRAME_VERSION = 2
"""High nibble of the first body byte; another value is a frame this code cannot read."""
LEGACY_FRAME_VERSION = 1
"""COBS frames without parity: recognised only to say that the device needs new firmware."""

FLAG_RELIABLE = 0x01
"""The sender waits for an ACK of this frame's sequence number and retransmits."""

HEADER_SIZE = 3
CRC_SIZE = 4
MAX_BODY = 160
"""Header + payload; with CRC and parity the codeword stays within Reed-Solomon's 255 bytes."""
SUBSTITUTE_COPIES = 3
"""The zero substitute leads the frame three times: a majority survives a damaged copy."""
MAX_ENCODED = SUBSTITUTE_COPIES + 255 + 1
"""The longest block between zeros worth decoding: the longest codeword, its substitutes, one stray byte."""
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
ERR_DAMAGED = 1
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
    ERR_DAMAGED: "damaged beyond repair",
    ERR_SHORT: "no frame has this length",
    ERR_CRC: "CRC mismatch after repair",
    ERR_VERSION: "unknown frame version (a device of protocol 1 needs new firmware)",
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


def cobs_decode(data: bytes | bytearray) -> bytes | None:
    """A block of the version-1 framing (Consistent Overhead Byte Stuffing); None when broken."""
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


# --- Reed-Solomon parity -------------------------------------------------------
# Systematic code over GF(256), field polynomial 0x11D, generator roots
# alpha^0 .. alpha^(parity - 1): up to parity // 2 damaged bytes anywhere in
# the codeword are repaired (Berlekamp-Massey, a Chien search, Forney's
# formula). A hopeless block mostly fails to decode; the rare wrong repair is
# caught by the CRC-32 inside.

FIELD_POLY = 0x11D
MAX_CODEWORD = 255
"""Reed-Solomon over GF(256): message and parity together."""

_EXP = bytearray(512)
_LOG = bytearray(256)


def _build_tables() -> None:
    x = 1
    for i in range(255):
        _EXP[i] = x
        _LOG[x] = i
        x <<= 1
        if x & 0x100:
            x ^= FIELD_POLY
    for i in range(255, 512):
        _EXP[i] = _EXP[i - 255]


_build_tables()


def _mul(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return _EXP[_LOG[a] + _LOG[b]]


def _div(a: int, b: int) -> int:
    if a == 0:
        return 0
    return _EXP[(_LOG[a] + 255 - _LOG[b]) % 255]


_GENERATORS: dict[int, bytearray] = {}


def _generator(parity: int) -> bytearray:
    """prod (x - alpha^i) for i < parity, highest degree first (cached per size)."""
    poly = _GENERATORS.get(parity)
    if poly is None:
        poly = bytearray((1,))
        for i in range(parity):
            root = _EXP[i]
            nxt = bytearray(len(poly) + 1)
            for j in range(len(poly)):
                nxt[j] ^= poly[j]
                nxt[j + 1] ^= _mul(poly[j], root)
            poly = nxt
        _GENERATORS[parity] = poly
    return poly


def rs_encode(message: bytes | bytearray, parity: int) -> bytes:
    """message followed by ``parity`` check bytes; the whole is at most 255 bytes."""
    if len(message) + parity > MAX_CODEWORD:
        raise ValueError("codeword longer than 255 bytes")
    gen = _generator(parity)
    rem = bytearray(parity)
    exp = _EXP
    log = _LOG
    for byte in message:
        factor = byte ^ rem[0]
        for j in range(parity - 1):
            rem[j] = rem[j + 1]
        rem[parity - 1] = 0
        if factor:
            lf = log[factor]
            for j in range(parity):
                g = gen[j + 1]
                if g:
                    rem[j] ^= exp[lf + log[g]]
    return bytes(message) + bytes(rem)


def _syndromes(word: bytes | bytearray, parity: int) -> list[int]:
    exp = _EXP
    log = _LOG
    out = []
    for i in range(parity):
        s = 0
        for byte in word:  # Horner's rule at alpha^i
            s = (exp[log[s] + i] if s else 0) ^ byte
        out.append(s)
    return out


def rs_decode(word: bytes | bytearray, parity: int) -> tuple[bytes, int] | None:
    """(the message, bytes repaired), or None when more than parity // 2 bytes are damaged."""
    n = len(word)
    if n > MAX_CODEWORD or n <= parity:
        return None
    synd = _syndromes(word, parity)
    if not any(synd):
        return bytes(word[: n - parity]), 0
    # Berlekamp-Massey: the shortest error locator lam (lowest degree first) explaining synd.
    lam = [1]
    prev = [1]
    size = 0
    shift = 1
    last = 1
    for k in range(parity):
        d = synd[k]
        for i in range(1, size + 1):
            if i < len(lam):
                d ^= _mul(lam[i], synd[k - i])
        if d == 0:
            shift += 1
            continue
        coef = _div(d, last)
        new = lam + [0] * max(0, len(prev) + shift - len(lam))
        for i in range(len(prev)):
            new[i + shift] ^= _mul(coef, prev[i])
        if 2 * size <= k:
            prev = lam
            size = k + 1 - size
            last = d
            shift = 1
        else:
            shift += 1
        lam = new
    while len(lam) > 1 and lam[-1] == 0:
        lam.pop()
    errors = len(lam) - 1
    if errors == 0 or 2 * errors > parity:
        return None
    # Chien search: byte i is damaged when lam vanishes at the inverse of its locator alpha^(n-1-i).
    where = []
    for i in range(n):
        inv = (255 - (n - 1 - i)) % 255
        value = 0
        for j in range(len(lam) - 1, -1, -1):
            value = (_EXP[_LOG[value] + inv] if value else 0) ^ lam[j]
        if value == 0:
            where.append(i)
    if len(where) != errors:
        return None
    # Forney: omega = synd * lam mod x^parity; magnitude = X * omega(X^-1) / lam'(X^-1).
    omega = [0] * parity
    for i in range(parity):
        acc = 0
        for j in range(min(i, errors) + 1):
            acc ^= _mul(synd[i - j], lam[j])
        omega[i] = acc
    fixed = bytearray(word)
    for i in where:
        power = n - 1 - i
        inv = (255 - power) % 255
        num = 0
        for j in range(parity - 1, -1, -1):
            num = (_EXP[_LOG[num] + inv] if num else 0) ^ omega[j]
        den = 0
        for j in range(1, len(lam), 2):  # the formal derivative keeps the odd terms
            if lam[j]:
                den ^= _EXP[(_LOG[lam[j]] + inv * (j - 1)) % 255]
        if den == 0:
            return None
        fixed[i] ^= _mul(_EXP[power], _div(num, den))
    if any(_syndromes(fixed, parity)):
        return None
    return bytes(fixed[: n - parity]), errors


def parity_for(size: int) -> int:
    """Parity bytes for a body + CRC of size bytes: repairs 4 damaged bytes plus one in eight."""
    return 8 + 2 * (size // 4)


def _size_for(codeword: int) -> int:
    """The body + CRC size whose codeword is this long, or -1 when none is."""
    guess = (codeword - 8) * 2 // 3
    for size in range(max(HEADER_SIZE + CRC_SIZE, guess - 2), guess + 3):
        if size + parity_for(size) == codeword:
            return size
    return -1


def encode_frame(msg_type: int, payload: bytes | bytearray, seq: int = 0, flags: int = 0) -> bytes:
    """One complete frame, delimiters included, ready to write to the port."""
    if len(payload) + HEADER_SIZE > MAX_BODY:
        raise ValueError("payload too long")
    body = bytearray(((FRAME_VERSION << 4) | (flags & 0x0F), seq & 0xFF, msg_type & 0xFF))
    body += payload
    crc = crc32(body)
    body += bytes((crc & 0xFF, (crc >> 8) & 0xFF, (crc >> 16) & 0xFF, (crc >> 24) & 0xFF))
    word = rs_encode(body, parity_for(len(body)))
    present = bytearray(256)
    for byte in word:
        present[byte] = 1
    sub = 1
    while present[sub]:  # a codeword of at most 254 bytes always leaves a value out
        sub += 1
    out = bytearray(SUBSTITUTE_COPIES + len(word) + 3)  # the closing zero twice: see the module docstring
    for i in range(SUBSTITUTE_COPIES):
        out[1 + i] = sub
    at = 1 + SUBSTITUTE_COPIES
    for byte in word:
        out[at] = byte if byte else sub
        at += 1
    return bytes(out)


def _substitutes(head: bytes | bytearray) -> list[int]:
    """The candidates for the zero substitute from its three copies, the majority first."""
    first, second, third = head[0], head[1], head[2]
    if first == second:
        return [first] if third == first else [first, third]
    if first == third:
        return [first, second]
    if second == third:
        return [second, first]
    return [first, second, third]


def _repair(block: bytes | bytearray) -> tuple[int, int, bytes]:
    """(error, bytes repaired, body) of one alignment of a block."""
    size = _size_for(len(block) - SUBSTITUTE_COPIES)
    if size < 0:
        return (ERR_SHORT, 0, b"")
    parity = len(block) - SUBSTITUTE_COPIES - size
    error = ERR_DAMAGED
    for sub in _substitutes(block):
        word = bytearray(block[SUBSTITUTE_COPIES:])
        for i in range(len(word)):
            if word[i] == sub:
                word[i] = 0
        result = rs_decode(word, parity)
        if result is None:
            continue
        body, repaired = result
        crc = body[-4] | (body[-3] << 8) | (body[-2] << 16) | (body[-1] << 24)
        if crc32(body[:-CRC_SIZE]) != crc:
            error = ERR_CRC
            continue
        return (ERR_NONE, repaired, body[:-CRC_SIZE])
    return (error, 0, b"")


def decode_block(block: bytes | bytearray) -> tuple[int, int, int, int, int, bytes]:
    """One block between zero bytes to (error, bytes repaired, flags, seq, type, payload); error 0 is good.

    A corrupted delimiter merges one stray byte into the block's start or end,
    so those alignments are tried too. A frame of the old version-1 format is
    recognised and reported as ERR_VERSION, so the host can say what is wrong.
    """
    if len(block) < SUBSTITUTE_COPIES + 1:
        return (ERR_SHORT, 0, 0, 0, 0, b"")
    error, repaired, body = _repair(block)
    if error != ERR_NONE:
        for trimmed in (block[1:], block[:-1]):
            retry = _repair(trimmed)
            if retry[0] == ERR_NONE:
                error, repaired, body = retry
                break
    if error != ERR_NONE:
        legacy = cobs_decode(block)
        if legacy is not None and len(legacy) > HEADER_SIZE + CRC_SIZE and legacy[0] >> 4 == LEGACY_FRAME_VERSION:
            crc = legacy[-4] | (legacy[-3] << 8) | (legacy[-2] << 16) | (legacy[-1] << 24)
            if crc32(legacy[:-CRC_SIZE]) == crc:
                return (ERR_VERSION, 0, 0, 0, 0, b"")
        return (error, 0, 0, 0, 0, b"")
    if body[0] >> 4 != FRAME_VERSION:
        return (ERR_VERSION, 0, 0, 0, 0, b"")
    return (ERR_NONE, repaired, body[0] & 0x0F, body[1], body[2], bytes(body[HEADER_SIZE:]))


def decode_frame(block: bytes | bytearray) -> tuple[int, int, int, int, bytes]:
    """One block between zero bytes to (error, flags, seq, type, payload); error 0 means good."""
    error, _repaired, flags, seq, msg_type, payload = decode_block(block)
    return (error, flags, seq, msg_type, payload)


class Deframer:
    """Cuts a byte stream at zero bytes into blocks; drops runaway garbage and stray bytes."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.overflowing = False
        self.stray_bytes = 0

    def feed(self, data: bytes | bytearray) -> list[bytes | None]:
        """The complete blocks in data; None stands for a block dropped as too long.

        A block too short to hold even the zero substitute's copies is a
        damaged delimiter between frames, not a frame: it is counted in
        ``stray_bytes`` and dropped.
        """
        blocks: list[bytes | None] = []
        for byte in data:
            if byte == 0:
                if self.overflowing:
                    blocks.append(None)
                elif len(self.buffer) >= SUBSTITUTE_COPIES:
                    blocks.append(bytes(self.buffer))
                else:
                    self.stray_bytes += len(self.buffer)
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
    that saw a frame damaged beyond repair). A frame with the sequence number last accepted
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
        self.first_sent_at = 0
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
        self.repaired_frames = 0
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
                err, repaired, flags, seq, msg_type, payload = ERR_OVERFLOW, 0, 0, 0, 0, b""
            else:
                err, repaired, flags, seq, msg_type, payload = decode_block(block)
            if err != ERR_NONE:
                self.bad_frames += 1
                errors.append(err)
                if now_ms - self.last_nak_ms >= self.rto_ms // 4:
                    self.last_nak_ms = now_ms
                    self._emit(NAK, b"", 0, 0)
                continue
            self.frames_received += 1
            if repaired:
                self.repaired_frames += 1
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
        if self.hold:
            self.first_sent_at = now_ms  # time on hold (no peer) is not time unacknowledged
        else:
            if self.inflight is None and self.queue:
                msg_type, payload = self.queue.pop(0)
                self.tx_seq = self.tx_seq % 255 + 1
                self.inflight_seq = self.tx_seq
                self.inflight = encode_frame(msg_type, payload, self.tx_seq, FLAG_RELIABLE)
                self.out += self.inflight
                self.frames_sent += 1
                self.sent_at = now_ms
                self.first_sent_at = now_ms
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
