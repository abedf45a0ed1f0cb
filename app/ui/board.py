"""The board as drawn on the tablet: White's view, points 13-24 on top, 12-1 below, home on the right.

Black's checkers are placed through the variant's geometry
(``Position.RULES.facing``), so uzun tavla and the other variants draw right.
The last play's points are outlined in yellow (red when it was accepted
although illegal). The dice are drawn large in the right half in the thrower's
colour, and the doubling cube stands in the column on the left at its owner's
side (White's at the bottom, Black's at the top, centred while nobody owns it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kivy.graphics import Color as GColor
from kivy.graphics import Ellipse, Line, Rectangle, RoundedRectangle, Triangle
from kivy.metrics import dp
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from app.referee.engine import LastPlay
from app.ui.sizes import sp
from rules.position import BAR, OFF, Color, Position

_WOOD = (0.55, 0.38, 0.22)
_FELT = (0.12, 0.35, 0.22)
_DARK_POINT = (0.45, 0.12, 0.10)
_LIGHT_POINT = (0.90, 0.82, 0.62)
_WHITE = (0.96, 0.96, 0.92)
_BLACK = (0.12, 0.12, 0.14)
_CUBE = (0.97, 0.95, 0.88)
_OFFER = (1.0, 0.75, 0.1)

PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.75), (0.75, 0.25)),
    3: ((0.25, 0.75), (0.5, 0.5), (0.75, 0.25)),
    4: ((0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.25, 0.5), (0.25, 0.75), (0.75, 0.25), (0.75, 0.5), (0.75, 0.75)),
}
"""Where a die face's pips sit, as fractions of its side."""


@dataclass(frozen=True)
class CubeView:
    """The doubling cube as drawn: its value, its owner (None: centred) and whether it is being offered."""

    value: int
    owner: Color | None
    offered_by: Color | None = None


class BoardWidget(Widget):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.position_shown: Position | None = None
        self.last_play: LastPlay | None = None
        self.dice: tuple[int, ...] = ()
        self.dice_of: Color = Color.WHITE
        self.cube: CubeView | None = None
        self.labels: list[Label] = []
        self._label_row = (0.0, 0.0)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(
        self,
        position: Position,
        last_play: LastPlay | None,
        dice: tuple[int, ...] = (),
        cube: CubeView | None = None,
    ) -> None:
        """Draw ``position`` with the last play marked, the dice in play (the side on turn's) and the cube."""
        shown = (position, last_play, dice, position.turn, cube)
        if shown == (self.position_shown, self.last_play, self.dice, self.dice_of, self.cube):
            return  # the screen refreshes four times a second: redraw only what changed
        self.position_shown, self.last_play, self.dice, self.dice_of, self.cube = shown
        self.redraw()

    def redraw(self, *_: Any) -> None:
        for label in self.labels:
            self.remove_widget(label)
        self.labels = []
        self.canvas.clear()
        x0, y0 = self.pos
        width, height = self.size
        margin = dp(22)  # the point numbers go above and below the board
        self._label_row = (y0 + height - margin / 2, y0 + margin / 2)
        y0 += margin
        height -= 2 * margin
        cube_column = width * 0.08  # the cube's column on the left
        x0 += cube_column
        width -= cube_column
        tray = width * 0.07
        bar = width * 0.06
        play_width = width - tray
        point_width = (play_width - bar) / 12
        point_height = height * 0.42
        radius = min(point_width * 0.46, point_height / 10.5)
        with self.canvas:
            GColor(*_WOOD)
            Rectangle(pos=(x0, y0), size=(width, height))
            GColor(*_FELT)
            Rectangle(pos=(x0 + 4, y0 + 4), size=(play_width - 8, height - 8))
            GColor(*_WOOD)
            Rectangle(pos=(x0 + 6 * point_width, y0), size=(bar, height))
        centers: dict[int, tuple[float, float, int]] = {}
        for index in range(12):
            left = x0 + index * point_width + (bar if index >= 6 else 0)
            top_point = 13 + index
            bottom_point = 12 - index
            for point, base_y, tip_y, direction in (
                (top_point, y0 + height, y0 + height - point_height, -1),
                (bottom_point, y0, y0 + point_height, 1),
            ):
                shade = _DARK_POINT if (point % 2) else _LIGHT_POINT
                with self.canvas:
                    GColor(*shade)
                    Triangle(points=[left, base_y, left + point_width, base_y, left + point_width / 2, tip_y])
                centers[point] = (left + point_width / 2, base_y, direction)
                label_y = self._label_row[0] if direction < 0 else self._label_row[1]
                self._label(str(point), left + point_width / 2, label_y, sp(15), width=point_width)
        with self.canvas:
            GColor(*_WOOD)
            Rectangle(pos=(x0 - cube_column, y0), size=(cube_column - dp(4), height))
        if self.cube is not None:  # a chouette's cubes are on the people's cards instead
            self._cube(self.cube, x0 - cube_column, y0, cube_column, height)
        position = self.position_shown
        if position is None:
            return
        marked = self._marked_points(position)
        for point in marked:
            cx, base_y, direction = centers[point]
            with self.canvas:
                GColor(1.0, 0.2, 0.2) if self.last_play is not None and not self.last_play.legal else GColor(
                    1.0, 0.85, 0.1
                )
                Line(
                    rectangle=(
                        cx - point_width / 2 + 2,
                        min(base_y, base_y + direction * point_height),
                        point_width - 4,
                        point_height,
                    ),
                    width=2.5,
                )
        facing = position.RULES.facing
        for point in range(1, 25):
            white = position.white[point]
            black = position.black[facing[point]]
            cx, base_y, direction = centers[point]
            for count, colour in ((white, _WHITE), (black, _BLACK)):
                if not count:
                    continue
                self._stack(cx, base_y, direction, count, colour, radius)
                base_y += direction * radius * 2 * min(count, 5)
        bar_x = x0 + 6 * point_width + bar / 2
        for color, y, colour in ((Color.WHITE, y0 + height * 0.35, _WHITE), (Color.BLACK, y0 + height * 0.65, _BLACK)):
            count = position.side(color)[BAR]
            if count:
                self._stack(bar_x, y, 1, count, colour, radius * 0.9)
            off = position.side(color)[OFF] + position.waiting(color)
            tray_y = y0 + (height * 0.08 if color is Color.WHITE else height * 0.55)
            with self.canvas:
                GColor(*colour)
                for n in range(off):
                    Rectangle(
                        pos=(x0 + play_width + 6, tray_y + n * (height * 0.36 / 15)),
                        size=(tray - 12, height * 0.36 / 15 - 2),
                    )
            if off:
                self._label(str(off), x0 + play_width + tray / 2, tray_y + height * 0.39, sp(17))
        if self.dice:  # in the right half, between the points' tips, as a real throw lands
            side = min(point_width * 1.5, height * 0.17)
            gap = side * 0.3
            total = len(self.dice) * side + (len(self.dice) - 1) * gap
            right_half = x0 + 6 * point_width + bar
            left = right_half + (6 * point_width - total) / 2
            for index, value in enumerate(self.dice):
                self._die(value, left + index * (side + gap), y0 + height / 2 - side / 2, side, self.dice_of)

    def _die(self, value: int, x: float, y: float, side: float, color: Color) -> None:
        """One die face in the thrower's colour, with its pips."""
        face, pip = (_WHITE, _BLACK) if color is Color.WHITE else (_BLACK, _WHITE)
        with self.canvas:
            GColor(0.05, 0.05, 0.05)
            RoundedRectangle(pos=(x - 2, y - 2), size=(side + 4, side + 4), radius=[side * 0.16])
            GColor(*face)
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.14])
            GColor(*pip)
            r = side * 0.09
            for fx, fy in PIPS.get(value, ()):
                Ellipse(pos=(x + fx * side - r, y + fy * side - r), size=(2 * r, 2 * r))

    def _cube(self, cube: CubeView, left: float, y0: float, column: float, height: float) -> None:
        """The cube at its owner's side (White at the bottom, Black at the top), centred while nobody owns it;
        an offered cube shows the value it would go to, outlined in amber, on the doubler's side."""
        side = min(column * 0.8, height * 0.14)
        x = left + (column - side) / 2
        where = cube.owner if cube.offered_by is None else cube.offered_by
        if where is None:
            y = y0 + height / 2 - side / 2
        elif where is Color.WHITE:
            y = y0 + dp(6)
        else:
            y = y0 + height - side - dp(6)
        value = cube.value * 2 if cube.offered_by is not None else cube.value
        with self.canvas:
            if cube.offered_by is not None:
                GColor(*_OFFER)
                RoundedRectangle(pos=(x - 5, y - 5), size=(side + 10, side + 10), radius=[side * 0.2])
            GColor(0.05, 0.05, 0.05)
            RoundedRectangle(pos=(x - 2, y - 2), size=(side + 4, side + 4), radius=[side * 0.16])
            GColor(*_CUBE)
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.14])
        self._label(str(value), x + side / 2, y + side / 2, side * (0.55 if value < 10 else 0.42), dark=True, bold=True)

    def _marked_points(self, position: Position) -> set[int]:
        last = self.last_play
        if last is None:
            return set()
        facing = position.RULES.facing
        changed: set[int] = set()
        for point in range(1, 25):
            before = last.before.side(last.color)
            after = last.after.side(last.color)
            own = point if last.color is Color.WHITE else facing[point]
            if before[own] != after[own]:
                changed.add(point)
        return changed

    def _stack(
        self, cx: float, base_y: float, direction: int, count: int, colour: tuple[float, float, float], radius: float
    ) -> None:
        shown = min(count, 5)
        with self.canvas:
            for n in range(shown):
                cy = base_y + direction * (radius + n * 2 * radius)
                GColor(0.3, 0.3, 0.3)
                Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
                GColor(*colour)
                Ellipse(pos=(cx - radius + 2, cy - radius + 2), size=(2 * radius - 4, 2 * radius - 4))
        if count > 5:
            cy = base_y + direction * (radius + 4 * 2 * radius)
            self._label(str(count), cx, cy, sp(17), dark=colour == _WHITE)

    def _label(
        self, text: str, cx: float, cy: float, size: float, dark: bool = False, bold: bool = False, width: float = 0
    ) -> None:
        """A number centred on ``cx, cy``, in a box ``width`` across (its neighbours' numbers stay clear of it)."""
        width = min(width, size * 2.4) if width else size * 2.4
        label = Label(
            text=text,
            font_size=size,
            bold=bold,
            color=(0, 0, 0, 1) if dark else (1, 1, 1, 1),
            size=(width, size * 1.4),
            pos=(cx - width / 2, cy - size * 0.7),
        )
        self.add_widget(label)
        self.labels.append(label)
