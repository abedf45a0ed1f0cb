"""The tavla device protocol at the wire level: one source for host and firmware.

This module is the protocol definition that ``hardware/PROTOCOL.md`` describes
in prose. The reference firmware copies it verbatim onto the board as
``wire.py``, so it keeps to the MicroPython subset: only ``struct`` and
``binascii`` are imported, no dataclasses, enums or typing at run time (the
annotations are ignored by MicroPython), and integers carry every value.

Frame on the line: the codeword ``RS(body + crc32_le(body))``, where ``body =
flags_version, seq, type, payload...`` and RS appends Reed-Solomon parity
(three times the body, at least 64 bytes), cut into rows of four bytes, each
sent as a packet ``0x00 | S | tag_row, size, row bytes, check`` (``check`` the
low two bytes of the packet's CRC-32, S a value the packet does not hold, standing
in for its zeros), and one closing ``0x00``. A byte lost, added or damaged
spoils its packet only: the zeros around it resynchronise at once, the check
throws it away, and the parity restores the bytes of lost packets (erasures,
which cost one parity byte each, where an unknown damaged byte costs two).
A frame is decoded as soon as enough of its packets are in.

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

PROTOCOL_MAJOR = 3
"""Changes only when an old device could no longer be driven."""
PROTOCOL_MINOR = 0
"""Grows when messages or trailing fields are added; older peers ignore them."""
FRAME_VERSION = 3
"""High nibble of the first body byte; another value is a frame this code cannot read."""

FLAG_RELIABLE = 0x01
"""The sender waits for an ACK of this frame's sequence number and retransmits."""

HEADER_SIZE = 3
CRC_SIZE = 4
MAX_BODY = 160
"""Header + payload; with CRC and parity the codeword stays within Reed-Solomon's 255 bytes."""
MAX_ENCODED = 260
"""The longest block between zeros worth a look: a whole frame of protocol 2, told apart to name the device."""
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
    ERR_VERSION: "unknown frame version (a device of protocol 1 or 2 needs new firmware)",
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

LOG_ZERO = 512
"""The log table's entry for zero: it points past the antilog table's two periods into zeros,
so exp[log[a] + log[b]] is the product even when one factor is zero, with no test in the loops."""
_EXP = bytearray(1024)
_LOG = [LOG_ZERO] * 256


def _build_tables() -> None:
    x = 1
    for i in range(255):
        _EXP[i] = x
        _LOG[x] = i
        x <<= 1
        if x & 0x100:
            x ^= FIELD_POLY
    for i in range(255, 510):
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
    exp = _EXP
    log = _LOG
    glog = [log[g] for g in _generator(parity)[1:]]
    rem = [0] * parity
    for byte in message:  # long division by the generator, the remainder shifted one byte a step
        factor = byte ^ rem.pop(0)
        rem.append(0)
        if factor:
            lf = log[factor]
            rem = [r ^ exp[lf + lg] for r, lg in zip(rem, glog)]
    return bytes(message) + bytes(rem)


def _syndromes(word: bytes | bytearray, parity: int) -> list[int]:
    """The word's values at alpha^0 .. alpha^(parity - 1): all zero for a codeword."""
    exp = _EXP
    log = _LOG
    end = len(word)
    while end and not word[end - 1]:
        end -= 1
    synd = [0] * parity
    roots = list(range(parity))
    for k in range(end):  # Horner's rule at every root at once
        byte = word[k]
        synd = [exp[log[s] + i] ^ byte for s, i in zip(synd, roots)]
    shift = len(word) - end  # the trailing zeros (bytes of lost packets, mostly) only multiply by alpha^(i*shift)
    if shift:
        synd = [exp[log[s] + (i * shift) % 255] for s, i in zip(synd, roots)]
    return synd


def rs_correct(word: bytes | bytearray, parity: int, erasures: list[int], upto: int = MAX_CODEWORD) -> bytes | None:
    """The codeword with its bytes at the positions ``erasures`` restored; None when that is impossible.

    Up to ``parity`` erased bytes are restored (an erasure is a byte known to be
    missing: a lost packet), those before ``upto`` only (a receiver wants the
    message, not the parity). A wrong byte among those kept gives a wrong word,
    which the CRC-32 inside the frame catches.
    """
    n = len(word)
    if n > MAX_CODEWORD or n <= parity or len(erasures) > parity:
        return None
    exp = _EXP
    log = _LOG
    fixed = bytearray(word)
    for i in erasures:
        fixed[i] = 0
    synd = _syndromes(fixed, parity)
    if not any(synd):
        return bytes(fixed)
    # The erasure locator lam(x) = prod (1 - X x), X = alpha^(n-1-i) for each erased byte i, lowest degree first.
    lam = [1]
    for i in erasures:
        power = n - 1 - i
        lam = [a ^ b for a, b in zip(lam + [0], [0] + [exp[log[c] + power] for c in lam])]
    # Forney: omega = synd * lam mod x^parity; magnitude = X * omega(X^-1) / lam'(X^-1).
    omega = [0] * parity
    lsynd = [log[s] for s in synd]
    for j in range(len(lam)):
        if lam[j] and j < parity:
            ll = log[lam[j]]
            omega = omega[:j] + [o ^ exp[ls + ll] for o, ls in zip(omega[j:], lsynd)]
    for i in erasures:
        if i >= upto:
            continue
        power = n - 1 - i
        inv = (255 - power) % 255
        num = 0
        for j in range(parity - 1, -1, -1):
            num = exp[log[num] + inv] ^ omega[j]
        den = 0
        for j in range(1, len(lam), 2):  # the formal derivative keeps the odd terms
            den ^= exp[log[lam[j]] + (inv * (j - 1)) % 255]
        if den == 0:
            return None
        fixed[i] ^= _mul(exp[power], _div(num, den))
    return bytes(fixed)


# --- Frames as packets --------------------------------------------------------
# A frame's codeword travels in packets of ROW bytes, each between zeros and
# checked on its own, so a lost or damaged byte costs its packet only: the
# packet is an erasure, and the parity restores up to that many bytes.

ROW = 4
"""Codeword bytes per packet: short packets, so that one in three survives a line losing one byte in ten."""
MIN_PARITY = 64
PARITY_FACTOR = 3
"""Parity bytes per message byte: a frame decodes from about a quarter of its packets."""
PACKET_MAX = 5 + ROW
"""A packet between zeros: zero substitute, tag and row, body size, ROW codeword bytes, two check bytes."""


def frame_parity(size: int) -> int:
    """Parity bytes for a body + CRC of size bytes: three times the size (at least 64), within 255 bytes."""
    return min(MAX_CODEWORD - size, max(MIN_PARITY, PARITY_FACTOR * size))


def _holds(data: bytes | bytearray, value: int) -> bool:
    for byte in data:  # MicroPython has no ``int in bytearray``
        if byte == value:
            return True
    return False


def encode_frame(msg_type: int, payload: bytes | bytearray, seq: int = 0, flags: int = 0, tag: int = 0) -> bytes:
    """One complete frame, its packets and their zeros, ready to write to the port.

    ``tag`` (0..3) tells consecutive frames of one size apart; a repeated frame keeps its tag.
    """
    if len(payload) + HEADER_SIZE > MAX_BODY:
        raise ValueError("payload too long")
    body = bytearray(((FRAME_VERSION << 4) | (flags & 0x0F), seq & 0xFF, msg_type & 0xFF))
    body += payload
    crc = crc32(body)
    body += bytes((crc & 0xFF, (crc >> 8) & 0xFF, (crc >> 16) & 0xFF, (crc >> 24) & 0xFF))
    size = len(body)
    word = rs_encode(body, frame_parity(size))
    out = bytearray()
    for row in range((len(word) + ROW - 1) // ROW):
        packet = bytearray((((tag & 3) << 6) | row, size))
        packet += word[row * ROW : row * ROW + ROW]
        check = crc32(packet)
        packet.append(check & 0xFF)
        packet.append((check >> 8) & 0xFF)
        sub = 1
        while _holds(packet, sub):  # at most 8 bytes: a value is always free
            sub += 1
        out.append(0)
        out.append(sub)
        for byte in packet:
            out.append(byte if byte else sub)
    out.append(0)
    return bytes(out)


def _legacy_version(block: bytes | bytearray) -> bool:
    """Whether a block is a clean frame of protocol 1 (COBS) or 2 (one block with parity): a device to update."""
    legacy = cobs_decode(block)
    if legacy is not None and len(legacy) > HEADER_SIZE + CRC_SIZE and legacy[0] >> 4 == 1:
        crc = legacy[-4] | (legacy[-3] << 8) | (legacy[-2] << 16) | (legacy[-1] << 24)
        if crc32(legacy[:-CRC_SIZE]) == crc:
            return True
    sub = block[0]  # protocol 2: three copies of the zero substitute, the codeword, parity 8 + 2 * (size // 4)
    word = bytes(0 if byte == sub else byte for byte in block[3:])
    for size in range(HEADER_SIZE + CRC_SIZE, len(word)):
        if size + 8 + 2 * (size // 4) == len(word):
            body = word[:size]
            crc = body[-4] | (body[-3] << 8) | (body[-2] << 16) | (body[-1] << 24)
            return body[0] >> 4 == 2 and crc32(body[:-CRC_SIZE]) == crc
    return False


class _Partial:
    """The packets of one frame received so far."""

    def __init__(self, key: int, size: int) -> None:
        self.key = key
        self.size = size
        self.length = size + frame_parity(size)
        self.rows = (self.length + ROW - 1) // ROW
        self.word = bytearray(self.length)
        self.have = bytearray(self.rows)
        self.count = 0
        self.last_row = -1
        self.done = False
        self.reported = False


class Deframer:
    """Cuts a byte stream into packets at zero bytes and gathers them into frames.

    ``feed`` returns one (error, bytes repaired, flags, seq, type, payload) per
    frame decoded or lost, error 0 being good. A packet that is too short, too
    long or fails its check is dropped (counted in ``bad_packets``); its frame
    is decoded as soon as enough packets are in. Frames are gathered by tag and
    size, a few at once, so a stray packet does not end the frame it interrupts,
    and the packets of a repeated frame join those kept from its first sending;
    a frame decoded ends those gathered before it.
    """

    KEPT = 3

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.overflowing = False
        self.bad_packets = 0
        self.partials: list[_Partial] = []

    def feed(self, data: bytes | bytearray) -> list[tuple[int, int, int, int, int, bytes]]:
        results: list[tuple[int, int, int, int, int, bytes]] = []
        for byte in data:
            if byte == 0:
                if self.overflowing:
                    results.append((ERR_OVERFLOW, 0, 0, 0, 0, b""))
                elif len(self.buffer) > PACKET_MAX:
                    if _legacy_version(self.buffer):
                        results.append((ERR_VERSION, 0, 0, 0, 0, b""))
                    else:
                        self.bad_packets += 1
                elif self.buffer:
                    self._packet(self.buffer, results)
                self.buffer = bytearray()
                self.overflowing = False
            elif not self.overflowing:
                self.buffer.append(byte)
                if len(self.buffer) > MAX_ENCODED:
                    self.buffer = bytearray()
                    self.overflowing = True
        return results

    def _packet(self, block: bytearray, results: list[tuple[int, int, int, int, int, bytes]]) -> None:
        if len(block) < 6:
            self.bad_packets += 1
            return
        sub = block[0]
        packet = bytearray(block[1:])
        for i in range(len(packet)):
            if packet[i] == sub:
                packet[i] = 0
        size = packet[1]
        check = packet[-2] | (packet[-1] << 8)
        if crc32(packet[:-2]) & 0xFFFF != check or size < HEADER_SIZE + CRC_SIZE or size > MAX_BODY + CRC_SIZE:
            self.bad_packets += 1
            return
        key = ((packet[0] >> 6) << 8) | size
        row = packet[0] & 0x3F
        chunk = packet[2:-2]
        partial = None
        for kept in self.partials:
            if kept.key == key:
                partial = kept
        if partial is None:
            partial = _Partial(key, size)
        start = row * ROW
        if row >= partial.rows or len(chunk) != min(ROW, partial.length - start):
            self.bad_packets += 1
            return
        if partial.have[row] and (partial.done or partial.word[start : start + len(chunk)] != chunk):
            # The same row again, after the frame was decoded or with other bytes: a new frame (a repeat
            # whose acknowledgement was lost, or another frame of the same tag and size).
            self._retire(partial, results)
            partial = _Partial(key, size)
        if partial not in self.partials:
            self.partials.append(partial)
            if len(self.partials) > self.KEPT:
                self._retire(self.partials[0], results)
        partial.last_row = row
        if partial.done:
            return  # the rest of a frame already decoded
        if not partial.have[row]:
            partial.have[row] = 1
            partial.count += 1
            for i in range(len(chunk)):
                partial.word[start + i] = chunk[i]
        self._decode(partial, results)
        if not partial.done and row == partial.rows - 1 and not partial.reported:
            partial.reported = True  # kept: the packets of its repetition join these
            results.append((ERR_DAMAGED, 0, 0, 0, 0, b""))

    def _retire(self, partial: _Partial, results: list[tuple[int, int, int, int, int, bytes]]) -> None:
        if partial in self.partials:
            self.partials.remove(partial)
        if not partial.done and not partial.reported and partial.count > 1:
            results.append((ERR_DAMAGED, 0, 0, 0, 0, b""))

    def _decode(self, partial: _Partial, results: list[tuple[int, int, int, int, int, bytes]]) -> None:
        parity = partial.length - partial.size
        missing = [i for i in range(partial.length) if not partial.have[i // ROW]]
        restored = len([i for i in missing if i < partial.size])
        word: bytes | None = bytes(partial.word)
        if restored:  # message bytes are missing: the parity restores them once enough packets are in
            if len(missing) > parity:
                return
            word = rs_correct(partial.word, parity, missing, partial.size)
        if word is None:
            return
        body = word[: partial.size - CRC_SIZE]
        crc = word[partial.size - 4] | (word[partial.size - 3] << 8)
        crc |= (word[partial.size - 2] << 16) | (word[partial.size - 1] << 24)
        if crc32(body) != crc:
            return
        partial.done = True
        # Frames gathered before this one were sent before it: no packet of theirs is still to come,
        # and rows of a later frame that happen to match must never complete them.
        while self.partials[0] is not partial:
            self.partials.pop(0)
        if body[0] >> 4 != FRAME_VERSION:
            results.append((ERR_VERSION, 0, 0, 0, 0, b""))
            return
        results.append((ERR_NONE, restored, body[0] & 0x0F, body[1], body[2], bytes(body[HEADER_SIZE:])))


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
        self.tag = 0
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
        self.out += encode_frame(msg_type, payload, seq, flags, self._next_tag())
        self.frames_sent += 1

    def _next_tag(self) -> int:
        self.tag = (self.tag + 1) & 3
        return self.tag

    def receive(self, data: bytes | bytearray, now_ms: int) -> tuple[list[tuple[int, int, bytes]], list[int]]:
        """Feed received bytes: ((type, flags, payload) newly delivered, error codes seen)."""
        delivered: list[tuple[int, int, bytes]] = []
        errors: list[int] = []
        for err, repaired, flags, seq, msg_type, payload in self.deframer.feed(data):
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
                self.inflight = encode_frame(msg_type, payload, self.tx_seq, FLAG_RELIABLE, self._next_tag())
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
