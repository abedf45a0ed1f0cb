"""The pure codec: bytes in, messages out; messages in, bytes out. No I/O.

``Decoder.feed(data)`` returns, in order, every message of ``device.messages``
found in the bytes and a ``FrameError`` for every damaged, unknown or
malformed frame. Nothing else comes out of it and it never raises, whatever
the bytes (fuzzed with hypothesis in tests/device/test_codec_fuzz.py): that
is the whole contract, so a noisy cable can never crash the app.

``encode(message, seq, reliable)`` is the inverse for one message. The
reliable link (sequence numbers, ACK, retransmission) is ``wire.Link``;
``device.session`` puts typed messages on top of it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable

from device import wire
from device.messages import (
    Ack,
    BoardSnapshot,
    ButtonPressed,
    CheckerLifted,
    CheckerPlaced,
    ClockState,
    ConfigureBoard,
    DelayMode,
    DeviceError,
    DeviceKind,
    DisplayText,
    ErrorCode,
    FlagFell,
    Heartbeat,
    Hello,
    HelloRequest,
    Message,
    Nak,
    PauseClocks,
    RequestSnapshot,
    RequestTimes,
    ResumeClocks,
    SensorHealth,
    SetTime,
    Side,
    SideCounts,
    SnapshotReason,
    StartClock,
    StopClocks,
    TimeReport,
    side_or_none,
)


@dataclass(frozen=True)
class FrameError:
    """A frame that could not be used, and why; the stream goes on after it."""

    code: ErrorCode
    msg_type: int = 0

    @property
    def text(self) -> str:
        if self.code is ErrorCode.UNKNOWN_TYPE or self.code is ErrorCode.PAYLOAD:
            return f"{self.code.text} (type 0x{self.msg_type:02x})"
        return self.code.text


Values = tuple[object, ...]


def _side_counts(values: Values, start: int) -> SideCounts:
    counts = tuple(int(v) for v in values[start : start + 26])  # type: ignore[call-overload]
    return SideCounts(counts[:24], counts[24], counts[25])


def _int(value: object) -> int:
    if not isinstance(value, int):
        raise ValueError(f"expected an integer, got {value!r}")
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {value!r}")
    return value


def _point(value: object) -> int:
    point = _int(value)
    if not 0 <= point <= 25:
        raise ValueError(f"point {point} outside 0..25")
    return point


def _flatten(value: object) -> Values:
    """One dataclass field as wire values: enums and bools as ints, no side as 255."""
    if value is None:
        return (255,)
    if isinstance(value, (bool, int)):
        return (int(value),)
    if isinstance(value, str):
        return (value,)
    if isinstance(value, SideCounts):
        return (*value.points, value.bar, value.off)
    if isinstance(value, tuple):
        return (bytes(value),)
    raise ValueError(f"no wire form for {value!r}")


def to_values(message: Message) -> Values:
    """The message's fields in wire order (the schema in wire.SCHEMAS)."""
    return tuple(v for field in fields(message) for v in _flatten(getattr(message, field.name)))


def _bytes(value: object) -> bytes:
    if not isinstance(value, bytes):
        raise ValueError(f"expected bytes, got {value!r}")
    return value


def _bool(value: object) -> bool:
    flag = _int(value)
    if flag not in (0, 1):
        raise ValueError(f"expected 0 or 1, got {flag}")
    return bool(flag)


_FROM_VALUES: dict[int, Callable[[Values], Message]] = {
    wire.HELLO_REQUEST: lambda v: HelloRequest(_int(v[0]), _int(v[1]), _int(v[2])),
    wire.HELLO: lambda v: Hello(
        DeviceKind(_int(v[0])), _int(v[1]), _int(v[2]), _str(v[3]), _str(v[4]), _int(v[5]), _int(v[6])
    ),
    wire.ACK: lambda v: Ack(_int(v[0])),
    wire.NAK: lambda v: Nak(),
    wire.HEARTBEAT: lambda v: Heartbeat(_int(v[0])),
    wire.ERROR: lambda v: DeviceError(ErrorCode(_int(v[0])), _int(v[1]), _str(v[2])),
    wire.SET_TIME: lambda v: SetTime(Side(_int(v[0])), _int(v[1]), _int(v[2]), DelayMode(_int(v[3]))),
    wire.START: lambda v: StartClock(Side(_int(v[0]))),
    wire.STOP: lambda v: StopClocks(),
    wire.PAUSE: lambda v: PauseClocks(),
    wire.RESUME: lambda v: ResumeClocks(),
    wire.REQUEST_TIMES: lambda v: RequestTimes(),
    wire.DISPLAY_TEXT: lambda v: DisplayText(_str(v[0])),
    wire.BUTTON: lambda v: ButtonPressed(
        Side(_int(v[0])), _bool(v[1]), side_or_none(_int(v[2])), _int(v[3]), _int(v[4])
    ),
    wire.FLAG: lambda v: FlagFell(Side(_int(v[0])), _int(v[1]), _int(v[2])),
    wire.TIMES: lambda v: TimeReport(
        ClockState(_int(v[0])), side_or_none(_int(v[1])), _int(v[2]), _int(v[3]), _int(v[4])
    ),
    wire.REQUEST_SNAPSHOT: lambda v: RequestSnapshot(),
    wire.CONFIGURE_BOARD: lambda v: ConfigureBoard(_int(v[0])),
    wire.SNAPSHOT: lambda v: BoardSnapshot(
        _int(v[0]), SnapshotReason(_int(v[1])), _side_counts(v, 2), _side_counts(v, 28)
    ),
    wire.LIFTED: lambda v: CheckerLifted(_point(v[0]), Side(_int(v[1]))),
    wire.PLACED: lambda v: CheckerPlaced(_point(v[0]), Side(_int(v[1]))),
    wire.SENSORS: lambda v: SensorHealth(_bool(v[0]), tuple(_bytes(v[1]))),
}


def is_reliable(message: Message) -> bool:
    """Whether the protocol sends this kind of message with ACK and retransmission."""
    return bool(wire.SCHEMAS[message.TYPE][2])


def encode_payload(message: Message) -> bytes:
    """The payload bytes of a message; ValueError if a field does not fit its wire type."""
    schema = wire.SCHEMAS[message.TYPE][1]
    try:
        return wire.pack_payload(schema, to_values(message))
    except Exception as error:  # struct.error, UnicodeError, OverflowError
        raise ValueError(f"{type(message).__name__} does not fit the protocol: {error}") from error


def encode(message: Message, seq: int = 0, reliable: bool | None = None) -> bytes:
    """One framed message, ready for the line (the link normally chooses seq)."""
    if reliable is None:
        reliable = is_reliable(message)
    flags = wire.FLAG_RELIABLE if reliable else 0
    return wire.encode_frame(message.TYPE, encode_payload(message), seq, flags)


def decode_payload(msg_type: int, payload: bytes) -> Message | FrameError:
    """A message from a type and payload that passed the frame checks."""
    entry = wire.SCHEMAS.get(msg_type)
    if entry is None:
        return FrameError(ErrorCode.UNKNOWN_TYPE, msg_type)
    values = wire.unpack_payload(entry[1], payload)
    if values is None:
        return FrameError(ErrorCode.PAYLOAD, msg_type)
    return from_values(msg_type, values)


def from_values(msg_type: int, values: Values) -> Message | FrameError:
    """A message from wire values (as wire.unpack_payload gives them)."""
    build = _FROM_VALUES.get(msg_type)
    if build is None:
        return FrameError(ErrorCode.UNKNOWN_TYPE, msg_type)
    try:
        return build(values)
    except (ValueError, IndexError):  # an enum value or range this version does not know
        return FrameError(ErrorCode.PAYLOAD, msg_type)


@dataclass(frozen=True)
class Frame:
    """A good frame with its link header, for the monitor and the link layer."""

    seq: int
    reliable: bool
    message: Message


class Decoder:
    """Stateful stream decoder: keeps a partial frame between feeds."""

    def __init__(self) -> None:
        self._deframer = wire.Deframer()

    def feed_frames(self, data: bytes) -> list[Frame | FrameError]:
        """Frames (with seq and reliability) and errors, in stream order."""
        results: list[Frame | FrameError] = []
        for err, _repaired, flags, seq, msg_type, payload in self._deframer.feed(data):
            if err != wire.ERR_NONE:
                results.append(FrameError(ErrorCode(err)))
                continue
            decoded = decode_payload(msg_type, payload)
            if isinstance(decoded, FrameError):
                results.append(decoded)
            else:
                results.append(Frame(seq, bool(flags & wire.FLAG_RELIABLE), decoded))
        return results

    def feed(self, data: bytes) -> list[Message | FrameError]:
        """Messages and errors in stream order."""
        return [r.message if isinstance(r, Frame) else r for r in self.feed_frames(data)]


def decode_all(data: bytes) -> list[Message | FrameError]:
    """Decode a complete byte string at once (a fresh decoder)."""
    return Decoder().feed(data)
