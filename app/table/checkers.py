"""The camera's reading of the checkers as the referee hears it: a settled picture at the clock press becomes
a :class:`app.referee.events.CheckersSeen` in each side's own numbering.

The checker reader (:func:`vision.checkers.read_position`) counts in the picture's reading order, the bottom
player's checkers positive; the station knows the rest: White sits at the image's bottom (as the dice reader
has it), which colour White plays, and on which side of the image White's home lies. The same layout turns a
position back into the reading order, for the simulated camera that draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.referee import events as ev
from app.table.dice import Image
from rules.position import BAR, OFF, SLOTS, Color, Position
from vision import Calibration, Reader
from vision.checkers import BAR_PLACE, OFF_PLACE, Box, CheckerReading, Colour, read_position


@dataclass(frozen=True)
class BoardLayout:
    """How the board lies under the camera: White's colour, and whether White's home is on the image's right."""

    white_colour: Colour = "light"
    home_right: bool = True

    def index(self, point: int) -> int:
        """The reading-order index (top row left to right, then the bottom row) of White's ``point`` (1-24)."""
        if self.home_right:
            return 24 - point if point <= 12 else point - 13
        return 11 + point if point <= 12 else 24 - point


def seen_event(reading: CheckerReading, layout: BoardLayout, facing: tuple[int, ...]) -> ev.CheckersSeen:
    """The reading in each side's own numbering (``facing``: the variant's map from White's point numbers to
    Black's), with what the picture shows for certain where the reader gives it. A reading the event cannot carry
    (a count over 15) goes as an unsure one, clamped."""
    white, black = [0] * SLOTS, [0] * SLOTS
    for point in range(1, 25):
        count = reading.points[layout.index(point)]
        if count > 0:
            white[point] = count
        elif count < 0:
            black[facing[point]] = -count
    white[OFF], white[BAR] = reading.off[0], reading.bar[0]
    black[OFF], black[BAR] = reading.off[1], reading.bar[1]
    doubts = reading.doubts
    if any(not 0 <= n <= 15 for n in white + black):
        white, black = [min(max(n, 0), 15) for n in white], [min(max(n, 0), 15) for n in black]
        doubts += ("a count the board cannot hold",)
    sure = reading.sure and not doubts
    if reading.ranges is None:
        return ev.CheckersSeen(tuple(white), tuple(black), sure, doubts[:20])
    white_low, black_low = owned(reading.ranges.low, layout, facing)
    white_high, black_high = owned(reading.ranges.high, layout, facing)
    return ev.CheckersSeen(tuple(white), tuple(black), sure, doubts[:20], white_low, white_high, black_low, black_high)


def owned(
    counts: tuple[tuple[int, ...], tuple[int, ...]], layout: BoardLayout, facing: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A count a place of each side (``vision.checkers.PLACES``: [bottom, top]) in each side's own numbering."""
    white, black = [0] * SLOTS, [0] * SLOTS
    for point in range(1, 25):
        white[point] = counts[0][layout.index(point)]
        black[facing[point]] = counts[1][layout.index(point)]
    white[BAR], white[OFF] = counts[0][BAR_PLACE], counts[0][OFF_PLACE]
    black[BAR], black[OFF] = counts[1][BAR_PLACE], counts[1][OFF_PLACE]
    return tuple(white), tuple(black)


def reading_order(
    position: Position, layout: BoardLayout
) -> tuple[tuple[int, ...], tuple[int, int], tuple[int, int], tuple[int, ...]]:
    """``position`` as the reader counts it: 24 signed counts (+ White's, at the bottom), bar and off as [White,
    Black], and the indices where a pinned checker lies under the other side's (counted with neither). Checkers
    still to enter lie with those off."""
    facing = position.RULES.facing
    points = [0] * 24
    pins: list[int] = []
    for point in range(1, 25):
        white, black = position.white[point], position.black[facing[point]]
        index = layout.index(point)
        if point in position.pinned(Color.WHITE):
            points[index], white = -black, 0
            pins.append(index)
        elif facing[point] in position.pinned(Color.BLACK):
            points[index], black = white, 0
            pins.append(index)
        else:
            points[index] = white - black
    off = tuple(position.side(c)[OFF] + position.waiting(c) for c in Color)
    bar = tuple(position.side(c)[BAR] for c in Color)
    return tuple(points), (bar[0], bar[1]), (off[0], off[1]), tuple(sorted(pins))


@dataclass(frozen=True)
class ThrowSeen:
    """The settled picture of the throw a play answers and where the dice lay in it: what the look for the dice
    at the clock press starts from."""

    image: Image
    boxes: tuple[Box, ...]


def dice_at_press(
    reader: Reader, image: Image, calibration: Calibration, throw: ThrowSeen | None
) -> Callable[[], list[Box]]:
    """Where the dice lie in ``image`` (the board at the press), looked for when the checker reader asks. Since
    ``throw`` (its picture), a die either stayed, and lies where the throw's reading put it, or was moved, and then
    its square changed: the reader looks only where the board changed since the throw. A box the throw left that
    no longer holds a die costs no more than an unsure top there; without the throw the whole board is read."""
    if throw is None:
        return lambda: [d.box for d in reader.dice(image, calibration)]
    return lambda: [*throw.boxes, *(d.box for d in reader.dice(image, calibration, reference=throw.image))]


def read_checkers(
    image: Image,
    calibration: Calibration,
    layout: BoardLayout,
    facing: tuple[int, ...],
    dice: Callable[[], Iterable[Box]] | None = None,
    pins: bool = False,
) -> tuple[ev.CheckersSeen, CheckerReading]:
    """Read a settled picture of the board: the event for the referee and the reader's own reading. ``pins``: the
    variant pins a lone checker under the lander (plakoto), so a point may show both colours."""
    reading = read_position(image, calibration, layout.white_colour, dice, pins=pins)
    return seen_event(reading, layout, facing), reading
