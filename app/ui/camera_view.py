"""What the camera sees, on the play screen: the last settled throw always (small), a tap enlarges it, and the
live picture on demand; the board's outline, the thrower's half and every die boxed with its value are drawn
on it (:mod:`app.table.view`), the verdict written under it in the screen's language.

A player who doubts a call looks at the picture the call was made from, not at a number.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image as KivyImage
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.togglebutton import ToggleButton

from app.referee import events as ev
from app.referee.engine import Stage
from app.referee.i18n import word
from app.table.dice import Shot
from app.table.view import live_picture, throw_picture
from app.ui.controller import Controller
from app.ui.labels import label
from app.ui.sizes import sp
from app.ui.widgets import button, target, texture_of

LIVE_EVERY_S = 0.25
"""How often the live picture is drawn again while it is shown."""


def verdict_text(shot: Shot, language: str) -> str:
    """The call under the picture: the dice read, and sure, unsure (the players confirm) or void with why."""
    read = ", ".join("?" if d.value is None else f"{d.value}{'*' if d.cocked else ''}" for d in shot.dice) or "-"
    event = shot.event
    if event.values is not None:
        call = "-".join(map(str, event.values))
    else:
        call = word(event.void.value if event.void is not None else "unreadable", language)
    sure = label("call_unsure" if isinstance(event, ev.ThrowQuestioned) else "call_sure", language)
    return f"{label('camera', language)}: {read}  ->  {call} ({sure})"


class CameraView(KivyImage):
    """The small picture of the last settled throw (the live picture until there is one); a tap enlarges it."""

    def __init__(self, controller: Controller, **kwargs: Any) -> None:
        super().__init__(fit_mode="contain", **kwargs)
        self.controller = controller
        self.shown: Shot | None = None
        self.placeholder = False
        self.large: CameraPopup | None = None

    def refresh(self) -> None:
        """Draw the last settled throw once, when it is new."""
        shot = self.controller.last_shot
        if shot is not None and shot is not self.shown:
            self.shown = shot
            self.texture = texture_of(throw_picture(shot))
        elif shot is None and not self.placeholder:
            picture = self.controller.live_picture()
            if picture is not None:
                self.placeholder = True
                self.texture = texture_of(live_picture(picture, self.controller.board_calibration(), None))
        if self.large is not None:
            self.large.refresh()

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        self.enlarge()
        return True

    def enlarge(self) -> None:
        """The large view, over the whole screen, until closed."""
        self.large = CameraPopup(self.controller, on_close=self.closed)
        self.large.open()

    def closed(self) -> None:
        self.large = None


class CameraPopup(ModalView):
    """The camera's picture large: the last throw (with its call) or the live picture, and a close button."""

    def __init__(self, controller: Controller, on_close: Any = None, **kwargs: Any) -> None:
        super().__init__(size_hint=(0.96, 0.96), auto_dismiss=False, **kwargs)
        self.controller = controller
        self.on_close = on_close
        language = controller.language
        root = BoxLayout(orientation="vertical", spacing=dp(8), padding=dp(8))
        self.picture = KivyImage(fit_mode="contain")
        root.add_widget(self.picture)
        self.caption = Label(text="", font_size=sp(24), size_hint_y=None, height=dp(44))
        root.add_widget(self.caption)
        bar = BoxLayout(spacing=dp(8), size_hint_y=None, height=target())
        self.last = ToggleButton(text=label("camera_last", language), group="camera_source", state="down")
        self.live = ToggleButton(text=label("camera_live", language), group="camera_source")
        for toggle in (self.last, self.live):
            toggle.font_size = sp(24)
            toggle.allow_no_selection = False
            toggle.bind(state=lambda *_: self.show())
            bar.add_widget(toggle)
        bar.add_widget(button(label("close", language), self.close))
        root.add_widget(bar)
        self.add_widget(root)
        self.ticker = Clock.schedule_interval(lambda _: self.refresh(), LIVE_EVERY_S)
        self.shown: Shot | None = None
        self.show()

    @property
    def showing_live(self) -> bool:
        return bool(self.live.state == "down")

    def show(self) -> None:
        """Draw what the toggles ask for."""
        self.shown = None
        self.refresh()

    def refresh(self) -> None:
        controller = self.controller
        language = controller.language
        if self.showing_live:
            picture = controller.live_picture()
            session = controller.session
            opening = session is None or session.referee.stage is Stage.OPENING
            thrower = None if session is None or opening else session.referee.mover
            if picture is None:
                self.caption.text = label("no_camera_crop", language)
                return
            self.picture.texture = texture_of(live_picture(picture, controller.board_calibration(), thrower))
            self.caption.text = label("camera_live", language)
            return
        shot = controller.last_shot
        if shot is None:
            self.caption.text = label("no_throw_yet", language)
            return
        if shot is not self.shown:
            self.shown = shot
            self.picture.texture = texture_of(throw_picture(shot))
            self.caption.text = verdict_text(shot, language)

    def close(self) -> None:
        self.ticker.cancel()
        self.dismiss(animation=False)  # at once: a fade can stall behind the dice reader and swallow the next tap
        if self.on_close is not None:
            self.on_close()
