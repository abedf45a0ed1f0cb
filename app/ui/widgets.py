"""The pieces every screen is built of: buttons sized for a finger, the ruling banner, cards, the camera
picture for corner taps, and the screen base class (drawn for a landscape 1280x800 window, and for an upright
800x1280 one where the match-day screens stack their parts).

Touch targets are at least 64 px high and the ruling banner is large and coloured by level (green
accepted, blue information, amber warning, red a broken rule)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

import cv2
import numpy as np
from kivy.clock import Clock
from kivy.graphics import Color as GColor
from kivy.graphics import Ellipse, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.metrics import Metrics, dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image as KivyImage
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from app.referee.rulings import Level
from app.table.dice import Image
from app.ui.controller import Controller
from app.ui.labels import label
from app.ui.sizes import sp


class ScreensApp(Protocol):
    """What a screen asks of the app that shows it (the app's window, :class:`app.ui.main.TavlaApp`)."""

    controller: Controller

    def show(self, name: str) -> None:
        """Bring the screen called ``name`` to the front."""

    def refresh(self) -> None:
        """Redraw the screen in front."""

    def toggle_language(self) -> None:
        """Switch the screens between Turkish and English."""


DESIGNED_FOR = (1280, 800)
"""The window the screens' dp and sp sizes are drawn for: in another window they scale by :func:`fit_to_window`."""
DESIGNED_UPRIGHT = (800, 1280)
"""The upright window the same sizes are drawn for, the screens stacked (:func:`portrait`)."""
_DENSITY: list[float] = []
"""The display's own density (``KIVY_METRICS_DENSITY`` or the platform's), before any fitting."""


def fit_to_window() -> float:
    """Scale every dp and sp size so that the screens drawn for 1280x800 fit the window as it is (the Raspberry
    Pi's 800x480, a 1280x720 monitor, a tablet held upright); returns the scale. Called before the screens are
    built, as their sizes are fixed when built."""
    from kivy.core.window import Window  # imported late: the window opens at the size configured before

    if not _DENSITY:
        _DENSITY.append(float(Metrics.density))
    width, height = Window.size
    design = DESIGNED_UPRIGHT if portrait() else DESIGNED_FOR
    scale = min(width / design[0], height / design[1])
    Metrics.density = _DENSITY[0] * scale
    return float(scale)


def portrait() -> bool:
    """Whether the window stands upright (a tablet held in portrait): the match-day screens stack their parts
    one above the other, their buttons the window's width."""
    from kivy.core.window import Window

    width, height = Window.size
    return bool(height > width)


def target() -> float:
    """Height of a touch target in pixels (about 11 mm on a 10-inch 1280x800 tablet, 7 mm on the Pi's 7-inch
    800x480 display)."""
    return float(dp(72))


LEVEL_COLOURS = {
    Level.OK: (0.10, 0.55, 0.20),
    Level.INFO: (0.12, 0.35, 0.65),
    Level.WARNING: (0.85, 0.55, 0.05),
    Level.ERROR: (0.75, 0.10, 0.10),
}


class TapButton(Button):
    """A button that ignores a touch that began before it was on the screen: the second tap of a double tap
    meant for the button that stood here a moment ago does nothing."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shown_at = time.time()
        self.bind(parent=lambda *_: setattr(self, "shown_at", time.time()))

    def on_touch_down(self, touch: Any) -> bool:
        if getattr(touch, "time_start", self.shown_at) < self.shown_at:
            return False
        return bool(super().on_touch_down(touch))


class ConfirmButton(TapButton):
    """A consequential action (take, drop, resign, accept a resignation): the first tap asks, a second tap
    within a few seconds does it."""

    ARMED_S = 4.0

    def __init__(self, text: str, confirm: str, on_press: Callable[[], Any], **kwargs: Any) -> None:
        super().__init__(text=text, **kwargs)
        self.plain, self.asking, self.on_press_action = text, f"{confirm}\n{text}", on_press
        self.armed_until = 0.0

    def on_release(self) -> None:
        now = time.time()
        if now <= self.armed_until:
            self.armed_until = 0.0
            self.text = self.plain
            self.on_press_action()
            return
        self.armed_until = now + self.ARMED_S
        self.text = self.asking
        Clock.schedule_once(lambda _: self.disarm(), self.ARMED_S)

    def disarm(self) -> None:
        if time.time() >= self.armed_until:
            self.armed_until = 0.0
            self.text = self.plain


def inside(widget: Label) -> Label:
    """Keep a label's or button's text off its edges: it wraps within the width less a margin each side."""
    widget.halign, widget.valign = "center", "middle"
    widget.bind(size=lambda label, *_: setattr(label, "text_size", (max(label.width - max(dp(12), 10), 1), None)))
    return widget


def button(text: str, on_press: Callable[[], Any], **kwargs: Any) -> Button:
    """A finger-sized button whose text wraps within it where the window is narrow."""
    widget = TapButton(
        text=text,
        font_size=kwargs.pop("font_size", sp(24)),
        size_hint_y=None,
        height=kwargs.pop("height", target()),
        **kwargs,
    )
    widget.bind(on_release=lambda *_: on_press())
    return inside(widget)


def confirm_button(text: str, confirm: str, on_press: Callable[[], Any], **kwargs: Any) -> Button:
    """A button for a consequential action: tap once to ask, again to act."""
    return ConfirmButton(
        text,
        confirm,
        on_press,
        font_size=kwargs.pop("font_size", sp(24)),
        size_hint_y=None,
        height=kwargs.pop("height", target()),
        halign="center",
        **kwargs,
    )


class Banner(Label):
    """The ruling banner: large text on the level's colour."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(font_size=sp(30), bold=True, halign="center", valign="middle", **kwargs)
        self.level = Level.INFO
        self.bind(size=self._update, pos=self._update)

    def set(self, text: str, level: Level) -> None:
        self.text = text
        self.level = level
        self._update()

    def _update(self, *_: Any) -> None:
        self.text_size = (self.width - 30, None)
        self.canvas.before.clear()
        with self.canvas.before:
            GColor(*LEVEL_COLOURS[self.level])
            Rectangle(pos=self.pos, size=self.size)


class Card(BoxLayout):
    """One person of a chouette: who, the cube, the ledger, and the buttons for that member's cube."""

    def __init__(
        self,
        text: str,
        colour: tuple[float, float, float],
        buttons: Sequence[tuple[str, Callable[[], None]]],
        narrow: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(orientation="vertical", spacing=dp(4), padding=dp(4), **kwargs)
        self.colour = colour
        info = Label(text=text, font_size=sp(16) if narrow else sp(18), halign="center", valign="middle")
        info.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        self.add_widget(info)
        if narrow and len(buttons) > 2:  # six or more players: three answers go two by two, still finger-sized
            row: BoxLayout | GridLayout = GridLayout(cols=2, spacing=dp(4), size_hint_y=None, height=dp(2 * 44 + 4))
            for caption, handler in buttons:
                row.add_widget(button(caption, handler, font_size=sp(17), height=dp(44)))
        else:
            row = BoxLayout(spacing=dp(4), size_hint_y=None, height=target())
            for caption, handler in buttons:
                row.add_widget(button(caption, handler, font_size=sp(20)))
        self.add_widget(row)
        self.bind(pos=self._paint, size=self._paint)

    def _paint(self, *_: Any) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            GColor(*self.colour)
            Rectangle(pos=self.pos, size=self.size)


def texture_of(image: Any) -> Texture:
    """A Kivy texture of a BGR numpy picture (Kivy's rows run bottom-up)."""
    height, width = image.shape[:2]
    texture = Texture.create(size=(width, height), colorfmt="bgr")
    texture.blit_buffer(image[::-1].copy().tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


def square(image: Image, side: int) -> Image:
    """A crop scaled into a ``side`` x ``side`` tile (for the screen), with a thin border between tiles."""
    tile = np.zeros((side, side, 3), np.uint8)
    height, width = image.shape[:2]
    scale = (side - 4) / max(height, width, 1)
    size = (max(int(width * scale), 1), max(int(height * scale), 1))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    top, left = (side - size[1]) // 2, (side - size[0]) // 2
    tile[top : top + size[1], left : left + size[0]] = small
    return tile


class CornerPicker(KivyImage):
    """The camera's picture of the board; each tap marks a corner (in the picture's own pixels)."""

    def __init__(self, on_corner: Callable[[float, float], None], **kwargs: Any) -> None:
        super().__init__(fit_mode="contain", **kwargs)
        self.on_corner = on_corner
        self.marks: list[tuple[float, float]] = []
        # the marks follow the picture wherever it is laid out (drawn once the layout has settled this frame)
        self._redraw = Clock.create_trigger(lambda *_: self.draw_marks())
        self.bind(size=self._redraw, pos=self._redraw, norm_image_size=self._redraw)

    def picture_rect(self) -> tuple[float, float, float, float]:
        """Where the picture is drawn inside the widget: x, y, width, height."""
        width, height = self.norm_image_size
        return self.center_x - width / 2, self.center_y - height / 2, width, height

    def to_picture(self, x: float, y: float) -> tuple[float, float] | None:
        left, bottom, width, height = self.picture_rect()
        if self.texture is None or not (left <= x <= left + width and bottom <= y <= bottom + height):
            return None
        tex_w, tex_h = self.texture.size
        return (x - left) / width * tex_w, (1 - (y - bottom) / height) * tex_h

    def to_widget(self, px: float, py: float) -> tuple[float, float]:
        left, bottom, width, height = self.picture_rect()
        tex_w, tex_h = self.texture.size if self.texture is not None else (1, 1)
        return left + px / tex_w * width, bottom + (1 - py / tex_h) * height

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        point = self.to_picture(*touch.pos)
        if point is not None:
            self.on_corner(*point)
        return True

    def draw_marks(self) -> None:
        self.canvas.after.clear()
        with self.canvas.after:
            GColor(1, 0.2, 0.2, 1)
            points = [self.to_widget(px, py) for px, py in self.marks]
            for x, y in points:
                Ellipse(pos=(x - 7, y - 7), size=(14, 14))
            if len(points) == 4:
                Line(points=[c for p in points + points[:1] for c in p], width=dp(2))


class TavlaScreen(Screen):
    """A screen of the app: it reads the referee through the controller and redraws on ``refresh``."""

    def __init__(self, app: ScreensApp, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app = app

    @property
    def controller(self) -> Controller:
        return self.app.controller

    def t(self, key: str) -> str:
        return label(key, self.controller.language)

    def refresh(self) -> None:
        """Redraw from the referee's state."""

    def export_bar(self, on_export: Callable[[], Any], upright: bool = False) -> BoxLayout:
        """The bottom row of the history and result screens: export, and back to the play screen (``upright``:
        one above the other)."""
        bar = BoxLayout(spacing=dp(12), size_hint_y=None, height=target())
        if upright:
            bar.orientation, bar.height = "vertical", 2 * target() + bar.spacing
        bar.add_widget(button(self.t("export"), on_export))
        bar.add_widget(button(self.t("back"), lambda: self.app.show("play")))
        return bar

    def export_text(self) -> str:
        """Write the exports; what was saved (and why a format was left out) for the status line."""
        written = self.controller.export()
        names = ", ".join(Path(path).name for path in written.values())
        note = f"  ({self.controller.message})" if self.controller.message else ""
        return f"{self.t('saved')}: {names}{note}"[:200]


def Widget_spacer() -> Label:
    return Label(text="")


# a spinner's list (the variant, the match length, the dice set) reads and taps like the rest of the screen,
# sized when it opens, after the window was fitted
Builder.load_string(
    """
#:import sizes app.ui.sizes
<SpinnerOption>:
    font_size: sizes.sp(22)
    height: dp(72)  # target(): a finger's height
"""
)
