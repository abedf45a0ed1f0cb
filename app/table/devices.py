"""The referee's side of the devices: device messages in as events, clock commands out.

``device`` delivers its drivers' and the software clock's messages
on one queue (``ButtonPressed``, ``FlagFell``, ``TimeReport``,
``BoardSnapshot``, ``CheckerLifted``/``Placed``, ``LinkStatus``, ``LinkNoise``) and takes
clock commands through ``device.clockapi.ClockControl``. This module turns
those messages into :mod:`app.referee.events` and the referee's
:class:`app.referee.rulings.ClockCommand` into clock calls. Board counts come in the
board's numbering (White's); each side is turned into its own numbering with
the variant's geometry, so uzun tavla's boards read right too.

The camera's throws become events in :mod:`app.table.dice`, not here.
"""

from __future__ import annotations

import queue
from typing import Any, Callable

from app.referee import events as ev
from app.referee.rulings import ClockCommand
from device import messages as dm
from device.clockapi import ClockControl
from device.driver import LinkNoise, LinkState, LinkStatus
from rules.position import BAR, OFF, Color, Position

_SIDE = {Color.WHITE: dm.Side.WHITE, Color.BLACK: dm.Side.BLACK}
_COLOR = {dm.Side.WHITE: Color.WHITE, dm.Side.BLACK: Color.BLACK}
_DEVICE = {dm.DeviceKind.CLOCK: "clock", dm.DeviceKind.BOARD: "board"}


def own_counts(board: dm.BoardSnapshot, color: Color, position: Position) -> tuple[int, ...]:
    """One side's 26 counts in its own numbering, from the board's (White's) numbering."""
    side = board.side(_SIDE[color])
    if color is Color.WHITE:
        points = list(side.points)
    else:
        facing = position.RULES.facing  # Black's own point q stands on White's point facing[q]
        points = [side.points[facing[q] - 1] for q in range(1, 25)]
    return (side.off, *points, side.bar)


def board_point(point: int, color: Color, position: Position) -> int:
    """A board point (White's numbering, 25 bar, 0 off) in ``color``'s own numbering."""
    if color is Color.WHITE or point in (OFF, BAR):
        return point
    facing = position.RULES.facing
    return next(q for q in range(1, 25) if facing[q] == point)


READING_NUMBERS = 0x10000
"""The sensing board numbers its readings modulo this (two bytes on the wire, hardware/PROTOCOL.md)."""


class BoardReadings:
    """The sensing board's reading numbers seen on this station: a reading not numbered after the last one taken
    is late or a duplicate (a repeated or delayed frame), the board's fault and never a move. The numbers start
    again when the board boots; a number up to half the range ahead (wrapping) is a newer reading."""

    def __init__(self) -> None:
        self.last: int | None = None
        self.boot: tuple[str, int] | None = None
        """The board's serial and boot number at its last connection."""

    def connected(self, status: LinkStatus) -> None:
        """A board (re)connected: one that booted again, or another board, numbers its readings afresh; the same
        boot reconnecting goes on (a frame it repeats then is still a repeat)."""
        hello = status.hello
        boot = (hello.serial, hello.boot_id) if hello is not None else None
        if status.restarted or boot is None or boot != self.boot:
            self.last = None
        self.boot = boot

    def late(self, snapshot: dm.BoardSnapshot) -> bool:
        """True when ``snapshot`` is older than, or the same as, the last reading taken; else it is taken."""
        number = snapshot.snapshot_id
        if self.last is not None and snapshot.reason is not dm.SnapshotReason.BOOT:
            ahead = (number - self.last) % READING_NUMBERS
            if not 0 < ahead < READING_NUMBERS // 2:
                return True
        self.last = number
        return False


def device_event(message: object, position: Position, readings: BoardReadings | None = None) -> ev.Event | None:
    """The referee event for one device message, or None for messages the referee does not need; ``readings``
    marks a late or repeated board reading (the board's fault)."""
    if isinstance(message, dm.ButtonPressed):
        if not message.accepted:
            return None
        return ev.ClockPressed(_COLOR[message.side], message.white_ms, message.black_ms)
    if isinstance(message, dm.FlagFell):
        return ev.ClockFlag(_COLOR[message.side])
    if isinstance(message, dm.BoardSnapshot):
        late = readings is not None and readings.late(message)
        white, black = own_counts(message, Color.WHITE, position), own_counts(message, Color.BLACK, position)
        return ev.BoardSeen(white, black, late=late)
    if isinstance(message, (dm.CheckerLifted, dm.CheckerPlaced)):
        color = _COLOR[message.colour]
        point = board_point(_slot(message.point), color, position)
        kind = ev.LiftSeen if isinstance(message, dm.CheckerLifted) else ev.PlaceSeen
        return kind(color, point)
    if isinstance(message, LinkStatus):
        if readings is not None and message.kind is dm.DeviceKind.BOARD and message.state is LinkState.CONNECTED:
            readings.connected(message)
        device = _DEVICE.get(message.kind)
        if device is None or message.state not in (LinkState.CONNECTED, LinkState.DISCONNECTED):
            return None
        return ev.LinkChanged(device, message.state is LinkState.CONNECTED, message.detail)
    if isinstance(message, LinkNoise):
        quality = message.quality
        return ev.LinkNoisy(
            _DEVICE[message.kind],
            message.noisy,
            round(100 * quality.damaged_fraction, 1),
            round(100 * quality.lost_fraction, 1),
        )
    return None


def to_board_point(point: int, color: Color, position: Position) -> int:
    """A point in ``color``'s own numbering (25 bar, 0 off) as the board numbers it (White's numbering)."""
    if color is Color.WHITE or point in (OFF, BAR):
        return point
    return position.RULES.facing[point]


def layout_counts(
    white: tuple[int, ...], black: tuple[int, ...], position: Position
) -> tuple[dm.SideCounts, dm.SideCounts]:
    """Both sides' 26 own-numbering counts (off, points 1-24, bar) as the board's layout (White's numbering)."""
    facing = position.RULES.facing
    board_black = [0] * 24
    for q in range(1, 25):
        board_black[facing[q] - 1] = black[q]
    return (
        dm.SideCounts(tuple(white[1:25]), white[BAR], white[OFF]),
        dm.SideCounts(tuple(board_black), black[BAR], black[OFF]),
    )


def _slot(point: int) -> int:
    """The device's point codes to 0 (off), 1..24, 25 (bar)."""
    if point == dm.BAR_POINT:
        return BAR
    if point == dm.OFF_POINT:
        return OFF
    return point


class ClockLink:
    """Carries out the referee's clock commands on a clock (device or software)."""

    def __init__(self, clock: ClockControl) -> None:
        self.clock = clock

    def apply(self, command: ClockCommand) -> None:
        if command.run is None:
            self.clock.stop()
        else:
            self.clock.start_side(_SIDE[command.run])


def drain(
    events: "queue.Queue[object]",
    position: Callable[[], Position],
    submit: Callable[[ev.Event], Any],
    refused: Callable[[str, str, str], None],
    readings: BoardReadings | None = None,
) -> int:
    """Hand every queued device message to the referee; a message that cannot become an event is noted, a late
    board reading goes as the board's fault (``readings``: the board's reading numbers seen so far)."""
    handled = 0
    while True:
        try:
            message = events.get_nowait()
        except queue.Empty:
            return handled
        try:
            event = device_event(message, position(), readings)
        except (ValueError, KeyError, IndexError, StopIteration) as error:
            refused("device", repr(message), str(error))
            continue
        if event is not None:
            submit(event)
            handled += 1
