"""The director's screen: the PIN and the overrides it allows (resume, void or set the dice, undo a play,
policy, mode, calibrate the camera again), and the fairness picture of the match's dice."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput

from app.referee.rulings import Level
from app.ui.director_camera import FairnessView, RecalibrateView
from app.ui.sizes import sp
from app.ui.widgets import Banner, ScreensApp, TavlaScreen, button, inside, target


class DirectorScreen(TavlaScreen):
    def __init__(self, app: ScreensApp, **kwargs: Any) -> None:
        super().__init__(app, name="director", **kwargs)
        self.build()

    def build(self) -> None:
        self.clear_widgets()
        root = BoxLayout(orientation="vertical", padding=dp(24), spacing=dp(12))
        root.add_widget(Label(text=self.t("director"), font_size=sp(36), size_hint_y=None, height=dp(70)))
        self.pin = TextInput(
            text="",
            hint_text=self.t("locked"),
            password=True,
            font_size=sp(30),
            multiline=False,
            size_hint_y=None,
            height=target(),
        )  # digits or a passphrase
        root.add_widget(self.pin)
        grid = GridLayout(cols=3, spacing=dp(12), size_hint_y=None, height=target() * 2 + dp(12))
        for key, command, argument in (
            ("resume", "resume", ""),
            ("void_dice", "void_dice", ""),
            ("undo_play", "undo_play", ""),
            ("policy", "policy", "always_correct"),
            ("casual", "mode", "casual"),
            ("tournament", "mode", "tournament"),
        ):
            grid.add_widget(button(self.t(key), partial(self.override, command, argument)))
        root.add_widget(grid)
        # the camera again and the dice's fairness take whatever height the window has left
        camera = BoxLayout(spacing=dp(12))
        recalibrate = inside(button(self.t("recalibrate"), self.recalibrate, size_hint_x=0.4))
        recalibrate.size_hint_y = 1
        camera.add_widget(recalibrate)
        self.fairness = FairnessView(self.controller)
        camera.add_widget(self.fairness)
        root.add_widget(camera)
        self.result = Banner(size_hint_y=None, height=dp(100))
        root.add_widget(self.result)
        root.add_widget(button(self.t("back"), lambda: self.app.show("play")))
        self.add_widget(root)

    def refresh(self) -> None:
        self.fairness.refresh()

    def on_pre_enter(self, *args: Any) -> None:
        """A match whose PIN record a copy of its journal can test: the director reads so before typing the PIN."""
        session = self.controller.session
        notice = session.notice(self.controller.language) if session is not None else ""
        if notice:
            self.result.set(notice, Level.WARNING)

    def recalibrate(self) -> None:
        """Mark the board again on the camera's picture; the director's PIN saves it."""
        if self.controller.session is None:
            return
        RecalibrateView(self.controller, lambda text: self.result.set(text, Level.INFO)).open()

    def override(self, command: str, argument: str) -> None:
        if self.controller.session is None:
            return
        reaction = self.controller.director(self.pin.text, command, argument)
        self.pin.text = ""
        if reaction.rulings:
            ruling = reaction.rulings[0]
            self.result.set(self.controller.text(ruling), ruling.level)
        self.app.refresh()
