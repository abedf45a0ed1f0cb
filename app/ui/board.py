"""The board as drawn on the tablet: White's view, points 13-24 on top, 12-1 below, home on the right.

Black's checkers are placed through the variant's geometry
(``Position.RULES.facing``), so uzun tavla and the other variants draw right.
The last play's points are outlined in yellow (red when it was accepted
although illegal).
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color as GColor
from kivy.graphics import Ellipse, Line, Rectangle, Triangle
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from app.referee.engine import LastPlay
from rules.position import BAR, OFF, Color, Position

_WOOD = (0.55, 0.38, 0.22)
_FELT = (0.12, 0.35, 0.22)
_DARK_POINT = (0.45, 0.12, 0.10)
_LIGHT_POINT = (0.90, 0.82, 0.62)
_WHITE = (0.96, 0.96, 0.92)
_BLACK = (0.12, 0.12, 0.14)


class BoardWidget(Widget):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.position_shown: Position | None = None
        self.last_play: LastPlay | None = None
        self.labels: list[Label] = []
        self._label_row = (0.0, 0.0)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, position: Position, last_play: LastPlay | None) -> None:
        self.position_shown = position
        self.last_play = last_play
        self.redraw()

    def redraw(self, *_: Any) -> None:
        for label in self.labels:
            self.remove_widget(label)
        self.labels = []
        self.canvas.clear()
        x0, y0 = self.pos
        width, height = self.size
        margin = 24  # the point numbers go above and below the board
        self._label_row = (y0 + height - margin / 2, y0 + margin / 2)
        y0 += margin
        height -= 2 * margin
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
                self._label(str(point), left + point_width / 2, label_y, 16)
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
                self._label(str(off), x0 + play_width + tray / 2, tray_y + height * 0.39, 18)

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
            self._label(str(count), cx, cy, 18, dark=colour == _WHITE)

    def _label(self, text: str, cx: float, cy: float, size: int, dark: bool = False) -> None:
        label = Label(
            text=text,
            font_size=size,
            color=(0, 0, 0, 1) if dark else (1, 1, 1, 1),
            size=(40, 24),
            pos=(cx - 20, cy - 12),
        )
        self.add_widget(label)
        self.labels.append(label)
