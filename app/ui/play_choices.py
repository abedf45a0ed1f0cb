"""The camera's candidate plays as buttons on the play screen, while a play is asked (``play_asked``).

When the camera's reading of the checkers fits several plays or none surely, the referee leaves the play to the
players with the nearest candidates. Each candidate is one button that sends the play exactly as typing it does
(:meth:`app.ui.controller.Controller.choose_play`); "another play" opens the typed-play entry for any other.
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from app.ui.controller import Controller
from app.ui.labels import label
from app.ui.sizes import sp
from app.ui.widgets import button, target

TITLE = dp(24)
COLUMNS = 3
GAP = dp(6)
SHARE = 10
"""The panel's share of the side panel's free height against the spacer's one: the buttons take nearly all of it."""


class PlayChoices(BoxLayout):
    """One button per candidate play and "another play", in the place of ``room`` (the side panel's camera crop
    and notes) and of the free height below while a play is asked; no height at all otherwise."""

    def __init__(
        self,
        controller: Controller,
        room: Widget,
        on_picked: Callable[[], None],
        on_other: Callable[[], None],
        upright: bool = False,
    ) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, height=0, opacity=0)
        self.controller = controller
        self.room = room
        self.room_height = room.height
        self.on_picked = on_picked
        self.on_other = on_other
        self.shown: tuple[tuple[str, ...], str] = ((), "")
        self.upright = upright
        """Upright the side panel is as tall as what it holds: the buttons get their own touch height."""

    def update(self) -> None:
        """Rebuilt only when the candidates or the language change: a tap never lands on a vanishing button."""
        options = self.controller.asked_plays()
        language = self.controller.language
        if (options, language) == self.shown:
            return
        if options and not self.shown[0]:
            self.room_height = self.room.height  # the room's own height (a chouette's strip makes it smaller)
        self.shown = (options, language)
        self.clear_widgets()
        if not options:
            self.size_hint_y, self.height, self.opacity = None, 0, 0
            self.room.height, self.room.opacity = self.room_height, 1
            return
        title = Label(text=label("pick_play", language), font_size=sp(16), size_hint_y=None, height=TITLE)
        title.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        title.halign, title.valign = "left", "middle"
        grid = GridLayout(cols=COLUMNS, spacing=GAP)  # the rows share the height the camera crop leaves
        buttons = [button(option, partial(self.pick, option), font_size=sp(20)) for option in options]
        buttons.append(button(label("another_play", language), self.on_other, font_size=sp(17)))
        for widget in buttons:
            widget.size_hint_y = 1
            grid.add_widget(widget)
        self.add_widget(title)
        self.add_widget(grid)
        if self.upright:
            rows = -(-len(buttons) // COLUMNS)
            self.size_hint_y, self.height = None, TITLE + rows * target() + (rows - 1) * GAP
        else:
            self.size_hint_y = SHARE
        self.opacity = 1
        self.room.height, self.room.opacity = 0, 0

    def pick(self, option: str) -> None:
        self.controller.choose_play(option)
        self.on_picked()
