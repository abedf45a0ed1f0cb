"""A checker-sensing board simulator that speaks the real protocol over a pty.

It keeps 15 checkers a side (standard tavla start unless given another
layout), reports each lift and placement at once, and a full snapshot once
the checkers have stood still for ``settle_ms``, or when asked. Script it
with :meth:`lift`, :meth:`place`, :meth:`move`, :meth:`set_position` and
:meth:`fail_sensor`, and with the base class's faults and cable pulls.
"""

from __future__ import annotations

from typing import Any

from device.messages import (
    BAR_POINT,
    OFF_POINT,
    BoardSnapshot,
    CheckerLifted,
    CheckerPlaced,
    ConfigureBoard,
    DeviceKind,
    Message,
    RequestSnapshot,
    SensorHealth,
    Side,
    SideCounts,
    SnapshotReason,
)
from device.sim.base import SimulatedDevice


def standard_start() -> tuple[SideCounts, SideCounts]:
    """The tavla start in board numbering (White's numbering)."""
    white = [0] * 24
    black = [0] * 24
    for own_point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        white[own_point - 1] = count
        black[25 - own_point - 1] = count
    return SideCounts(tuple(white), 0, 0), SideCounts(tuple(black), 0, 0)


class BoardSimulator(SimulatedDevice):
    KIND = DeviceKind.BOARD
    FIRMWARE = "sim-board-1.0"

    def __init__(self, serial: str = "SIMBOARD1", settle_ms: int = 300, **options: Any) -> None:
        self.settle_ms = settle_ms
        self._counts: dict[Side, list[int]] = {}
        self.in_hand: dict[Side, int] = {Side.WHITE: 0, Side.BLACK: 0}
        self.faulty: set[int] = set()
        self._snapshot_id = 0
        self._changed_at: int | None = None
        super().__init__(serial, **options)
        self.reset_state(self._ms())
        self.emit(self.snapshot(SnapshotReason.BOOT))

    def reset_state(self, now_ms: int) -> None:
        """Power cycle: sensors read the checkers where they stand (the checkers do not move)."""
        booted_before = bool(self._counts)
        if not booted_before:
            self.set_position(*standard_start(), announce=False)
        self._snapshot_id = 0
        self._changed_at = None
        if booted_before:
            self.emit(self.snapshot(SnapshotReason.BOOT))

    # --- state ---------------------------------------------------------------------------

    @staticmethod
    def _slot(point: int) -> int:
        if point == OFF_POINT:
            return 25
        if point == BAR_POINT:
            return 24
        if 1 <= point <= 24:
            return point - 1
        raise ValueError(f"no point {point}: 1..24, 25 for the bar, 0 for off")

    def side_counts(self, colour: Side) -> SideCounts:
        counts = self._counts[colour]
        return SideCounts(tuple(counts[:24]), counts[24], counts[25])

    def snapshot(self, reason: SnapshotReason) -> BoardSnapshot:
        with self._lock:
            self._snapshot_id = (self._snapshot_id + 1) & 0xFFFF
            return BoardSnapshot(self._snapshot_id, reason, self.side_counts(Side.WHITE), self.side_counts(Side.BLACK))

    def set_position(self, white: SideCounts, black: SideCounts, announce: bool = True) -> None:
        """Put the checkers in a layout (as if set up by hand); settles like any change."""
        with self._lock:
            for colour, side in ((Side.WHITE, white), (Side.BLACK, black)):
                self._counts[colour] = [*side.points, side.bar, side.off]
            if announce:
                self._changed_at = self._ms()

    # --- scripted actions --------------------------------------------------------------------

    def lift(self, point: int, colour: Side) -> None:
        """Take a checker off point (and keep it in the hand until placed)."""
        with self._lock:
            slot = self._slot(point)
            if self._counts[colour][slot] == 0:
                raise ValueError(f"no {colour.name.lower()} checker on point {point}")
            self._counts[colour][slot] -= 1
            self.in_hand[colour] += 1
            self._changed_at = self._ms()
            self.emit(CheckerLifted(point, colour))
            self.log.append(f"lift {point} {colour.name.lower()}")

    def place(self, point: int, colour: Side) -> None:
        """Set a checker down on point (one from the hand, or a new one if the hand is empty)."""
        with self._lock:
            slot = self._slot(point)
            if self.in_hand[colour] > 0:
                self.in_hand[colour] -= 1
            self._counts[colour][slot] += 1
            self._changed_at = self._ms()
            self.emit(CheckerPlaced(point, colour))
            self.log.append(f"place {point} {colour.name.lower()}")

    def move(self, source: int, target: int, colour: Side) -> None:
        self.lift(source, colour)
        self.place(target, colour)

    def fail_sensor(self, point: int, failed: bool = True) -> None:
        """A sensor under point breaks (or is repaired); reported as SensorHealth."""
        with self._lock:
            self._slot(point)
            if failed:
                self.faulty.add(point)
            else:
                self.faulty.discard(point)
            self.emit(SensorHealth(not self.faulty, tuple(sorted(self.faulty))))

    # --- protocol ----------------------------------------------------------------------------------

    def handle(self, command: Message, now_ms: int) -> None:
        if isinstance(command, RequestSnapshot):
            self.emit(self.snapshot(SnapshotReason.REQUESTED))
        elif isinstance(command, ConfigureBoard):
            self.settle_ms = command.settle_ms
        else:
            self.refuse(command.TYPE, "not a board command")

    def tick(self, now_ms: int) -> None:
        if self._changed_at is not None and now_ms - self._changed_at >= self.settle_ms:
            self._changed_at = None
            self.emit(self.snapshot(SnapshotReason.SETTLED))
