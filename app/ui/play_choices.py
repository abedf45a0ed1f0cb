"""The camera's candidate plays as buttons on the play screen, while a play is asked (``play_asked``).

When the camera's reading of the checkers fits several plays or none surely, the referee leaves the play to the
players with the nearest candidates. Each candidate is one button that sends the play exactly as typing it does
(:meth:`app.ui.controller.Controller.choose_play`); "another play" opens the typed-play entry for any other.
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from app.ui.controller import Controller
from app.ui.labels import label
from app.ui.widgets import button

TITLE = dp(30)
ROW = dp(60)  # a candidate's button: a touch target with the side panel's other rows in mind


class PlayChoices(BoxLayout):
    """One button per candidate play and "another play"; no height at all while no play is asked."""

    def __init__(self, controller: Controller, on_picked: Callable[[], None], on_other: Callable[[], None]) -> None:
        super().__init__(orientation="vertical", spacing=dp(4), size_hint_y=None, height=0, opacity=0)
        self.controller = controller
        self.on_picked = on_picked
        self.on_other = on_other
        self.shown: tuple[tuple[str, ...], str] = ((), "")

    def update(self) -> None:
        """Rebuilt only when the candidates or the language change: a tap never lands on a vanishing button."""
        options = self.controller.asked_plays()
        language = self.controller.language
        if (options, language) == self.shown:
            return
        self.shown = (options, language)
        self.clear_widgets()
        if not options:
            self.height, self.opacity = 0, 0
            return
        title = Label(text=label("pick_play", language), font_size=sp(18), size_hint_y=None, height=TITLE)
        title.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        title.halign, title.valign = "left", "middle"
        grid = GridLayout(cols=2, spacing=dp(6), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for option in options:
            grid.add_widget(button(option, partial(self.pick, option), font_size=sp(22), height=ROW))
        grid.add_widget(button(label("another_play", language), self.on_other, font_size=sp(20), height=ROW))
        rows = (len(options) + 2) // 2
        grid.height = rows * ROW + (rows - 1) * dp(6)
        self.add_widget(title)
        self.add_widget(grid)
        self.height, self.opacity = TITLE + dp(4) + grid.height, 1

    def pick(self, option: str) -> None:
        self.controller.choose_play(option)
        self.on_picked()
