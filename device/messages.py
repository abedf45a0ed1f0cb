"""Every message of the device protocol as a frozen dataclass.

These are what the app receives from the device queue and what it sends as
commands. They are plain values (hashable, comparable, no behaviour beyond
small helpers), so the referee engine can journal and replay them.

Common to both devices:
    ``Hello`` (device kind, protocol version, firmware version, serial
    number, boot id, the host's session it answers), ``DeviceError`` (an ERROR frame: code, the message
    type it concerns, a text). ``HelloRequest``, ``Heartbeat``, ``Ack`` and
    ``Nak`` are link housekeeping that drivers consume themselves.

Clock, host to device (commands):
    ``SetTime(side, reserve_ms, delay_ms, mode)``, ``StartClock(side)``,
    ``StopClocks()``, ``PauseClocks()``, ``ResumeClocks()``,
    ``RequestTimes()``, ``DisplayText(text)``.
Clock, device to host (events):
    ``ButtonPressed(side, accepted, running, white_ms, black_ms)``,
    ``FlagFell(side, white_ms, black_ms)``,
    ``TimeReport(state, running, white_ms, black_ms, delay_left_ms)``.

Board, host to device: ``RequestSnapshot()``, ``ConfigureBoard(settle_ms)``.
Board, device to host: ``BoardSnapshot(snapshot_id, reason, white, black)``
(each side a ``SideCounts``: 24 points, bar, off), ``CheckerLifted(point,
colour)``, ``CheckerPlaced(point, colour)``, ``SensorHealth(ok, faulty)``.

Board numbering (one for both colours): points 1..24 are numbered as White
counts them in standard tavla (White's home board 1..6, Black's home board
19..24). ``point`` in lift/place events is 1..24, ``BAR_POINT`` (25) for the
bar and ``OFF_POINT`` (0) for the bear-off tray, with the colour telling
which side's area. ``BoardSnapshot.own_counts`` turns a side into the rules
core's layout (its own numbering; tavla geometry).

Sides are ``Side.WHITE`` (0) and ``Side.BLACK`` (1), the same values as the
rules core's ``Color``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Union

from device import wire

POINTS = 24
OFF_POINT = 0
BAR_POINT = 25


class Side(enum.IntEnum):
    """A player's side; values equal rules.Color."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


class DeviceKind(enum.IntEnum):
    CLOCK = wire.KIND_CLOCK
    BOARD = wire.KIND_BOARD


class DelayMode(enum.IntEnum):
    """How the per-move time is given (simple delay is the federation default)."""

    SIMPLE = 0
    BRONSTEIN = 1
    INCREMENT = 2


class ClockState(enum.IntEnum):
    STOPPED = 0
    RUNNING = 1
    PAUSED = 2
    FLAGGED = 3


class SnapshotReason(enum.IntEnum):
    """Why the board sent a snapshot."""

    REQUESTED = 0
    SETTLED = 1
    BOOT = 2
    RESYNC = 3


class ErrorCode(enum.IntEnum):
    """Codes of ERROR frames (and of local decoding errors, see codec.FrameError)."""

    DAMAGED = wire.ERR_DAMAGED
    SHORT = wire.ERR_SHORT
    CRC = wire.ERR_CRC
    VERSION = wire.ERR_VERSION
    OVERFLOW = wire.ERR_OVERFLOW
    UNKNOWN_TYPE = wire.ERR_UNKNOWN_TYPE
    PAYLOAD = wire.ERR_PAYLOAD
    REFUSED = wire.ERR_REFUSED
    HARDWARE = wire.ERR_HARDWARE
    QUEUE_FULL = wire.ERR_QUEUE_FULL
    INCOMPATIBLE = wire.ERR_INCOMPATIBLE

    @property
    def text(self) -> str:
        return wire.ERROR_NAMES[self.value]


def side_or_none(value: int) -> Side | None:
    """A side byte from the wire: 255 means no side."""
    return None if value == 255 else Side(value)


# --- link -----------------------------------------------------------------


@dataclass(frozen=True)
class HelloRequest:
    """Host asks the device to introduce itself; carries the host's session id."""

    TYPE: ClassVar[int] = wire.HELLO_REQUEST
    session: int
    major: int = wire.PROTOCOL_MAJOR
    minor: int = wire.PROTOCOL_MINOR


@dataclass(frozen=True)
class Hello:
    """Who the device is; sent at boot and in answer to HelloRequest."""

    TYPE: ClassVar[int] = wire.HELLO
    kind: DeviceKind
    major: int
    minor: int
    firmware: str
    serial: str
    boot_id: int
    session: int = wire.NO_SESSION
    """The host's session this HELLO answers; NO_SESSION when sent unprompted (at boot)."""


@dataclass(frozen=True)
class Ack:
    TYPE: ClassVar[int] = wire.ACK
    seq: int


@dataclass(frozen=True)
class Nak:
    TYPE: ClassVar[int] = wire.NAK


@dataclass(frozen=True)
class Heartbeat:
    TYPE: ClassVar[int] = wire.HEARTBEAT
    uptime_ms: int


@dataclass(frozen=True)
class DeviceError:
    """The device reports a problem: refused command, hardware fault, overflow."""

    TYPE: ClassVar[int] = wire.ERROR
    code: ErrorCode
    ref_type: int
    detail: str


# --- clock commands -----------------------------------------------------------


@dataclass(frozen=True)
class SetTime:
    TYPE: ClassVar[int] = wire.SET_TIME
    side: Side
    reserve_ms: int
    delay_ms: int
    mode: DelayMode = DelayMode.SIMPLE


@dataclass(frozen=True)
class StartClock:
    TYPE: ClassVar[int] = wire.START
    side: Side


@dataclass(frozen=True)
class StopClocks:
    TYPE: ClassVar[int] = wire.STOP


@dataclass(frozen=True)
class PauseClocks:
    TYPE: ClassVar[int] = wire.PAUSE


@dataclass(frozen=True)
class ResumeClocks:
    TYPE: ClassVar[int] = wire.RESUME


@dataclass(frozen=True)
class RequestTimes:
    TYPE: ClassVar[int] = wire.REQUEST_TIMES


@dataclass(frozen=True)
class DisplayText:
    TYPE: ClassVar[int] = wire.DISPLAY_TEXT
    text: str


# --- clock events -------------------------------------------------------------


@dataclass(frozen=True)
class ButtonPressed:
    """A player pressed; ``accepted`` says whether it changed the clock, ``running`` what runs now."""

    TYPE: ClassVar[int] = wire.BUTTON
    side: Side
    accepted: bool
    running: Side | None
    white_ms: int
    black_ms: int


@dataclass(frozen=True)
class FlagFell:
    """side's reserve reached zero; both clocks stopped. Sent exactly once per fall."""

    TYPE: ClassVar[int] = wire.FLAG
    side: Side
    white_ms: int
    black_ms: int


@dataclass(frozen=True)
class TimeReport:
    """The clock's times (every second, and on RequestTimes); the authority on time."""

    TYPE: ClassVar[int] = wire.TIMES
    state: ClockState
    running: Side | None
    white_ms: int
    black_ms: int
    delay_left_ms: int

    def remaining_ms(self, side: Side) -> int:
        return self.white_ms if side is Side.WHITE else self.black_ms


# --- board --------------------------------------------------------------------


@dataclass(frozen=True)
class RequestSnapshot:
    TYPE: ClassVar[int] = wire.REQUEST_SNAPSHOT


@dataclass(frozen=True)
class ConfigureBoard:
    """How long the sensors must read the same before a change counts as settled."""

    TYPE: ClassVar[int] = wire.CONFIGURE_BOARD
    settle_ms: int


@dataclass(frozen=True)
class SideCounts:
    """One colour's checkers: points[0] is point 1 (board numbering), then bar and off."""

    points: tuple[int, ...]
    bar: int
    off: int

    def __post_init__(self) -> None:
        if len(self.points) != POINTS:
            raise ValueError(f"a side needs {POINTS} point counts, got {len(self.points)}")

    @property
    def total(self) -> int:
        return sum(self.points) + self.bar + self.off

    def at(self, point: int) -> int:
        """Count at a board point 1..24, BAR_POINT or OFF_POINT."""
        if point == OFF_POINT:
            return self.off
        if point == BAR_POINT:
            return self.bar
        return self.points[point - 1]

    @classmethod
    def empty(cls) -> SideCounts:
        return cls((0,) * POINTS, 0, 0)


@dataclass(frozen=True)
class BoardSnapshot:
    """Every checker on the board, per colour, in board numbering."""

    TYPE: ClassVar[int] = wire.SNAPSHOT
    snapshot_id: int
    reason: SnapshotReason
    white: SideCounts
    black: SideCounts

    def side(self, colour: Side) -> SideCounts:
        return self.white if colour is Side.WHITE else self.black

    def own_counts(self, colour: Side) -> tuple[int, ...]:
        """26 counts in colour's own tavla numbering: [0] off, [1..24] points, [25] bar.

        White's own numbering is the board numbering; Black's point q is board
        point 25 - q. This is the layout of rules.position.Position.
        """
        counts = self.side(colour)
        if colour is Side.WHITE:
            points = counts.points
        else:
            points = tuple(reversed(counts.points))
        return (counts.off, *points, counts.bar)


@dataclass(frozen=True)
class CheckerLifted:
    TYPE: ClassVar[int] = wire.LIFTED
    point: int
    colour: Side


@dataclass(frozen=True)
class CheckerPlaced:
    TYPE: ClassVar[int] = wire.PLACED
    point: int
    colour: Side


@dataclass(frozen=True)
class SensorHealth:
    """Sensor self-test: ok, or the points (board numbering, 0 off, 25 bar) whose sensors fail."""

    TYPE: ClassVar[int] = wire.SENSORS
    ok: bool
    faulty: tuple[int, ...]


Command = Union[
    SetTime,
    StartClock,
    StopClocks,
    PauseClocks,
    ResumeClocks,
    RequestTimes,
    DisplayText,
    RequestSnapshot,
    ConfigureBoard,
]
"""What the host sends to a device (reliably)."""

ClockEvent = Union[ButtonPressed, FlagFell, TimeReport]
BoardEvent = Union[BoardSnapshot, CheckerLifted, CheckerPlaced, SensorHealth]

Message = Union[
    HelloRequest,
    Hello,
    Ack,
    Nak,
    Heartbeat,
    DeviceError,
    SetTime,
    StartClock,
    StopClocks,
    PauseClocks,
    ResumeClocks,
    RequestTimes,
    DisplayText,
    ButtonPressed,
    FlagFell,
    TimeReport,
    RequestSnapshot,
    ConfigureBoard,
    BoardSnapshot,
    CheckerLifted,
    CheckerPlaced,
    SensorHealth,
]
"""Any message of the protocol."""
