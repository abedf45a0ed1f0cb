"""The director's camera tools: calibrate the camera again between games (tap the board's four corners, or find
its printed markers) behind the PIN, and the fairness picture of the match's dice.

A camera bumped during the evening misplaces every die; the director marks the board again and the match goes
on, the new corners journaled like any other override.
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image as KivyImage
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.textinput import TextInput

from app.referee.rulings import Level
from app.ui.controller import Controller
from app.ui.labels import label
from app.ui.sizes import lines, sp
from app.ui.widgets import Banner, CornerPicker, button, target, texture_of
from vision import Calibration


class RecalibrateView(ModalView):
    """The camera's picture large: four taps mark the corners (or the markers are found), the PIN saves them."""

    def __init__(self, controller: Controller, done: Callable[[str], None], **kwargs: Any):
        super().__init__(size_hint=(0.96, 0.96), auto_dismiss=False, **kwargs)
        self.controller = controller
        self.done = done
        self.taps: list[tuple[float, float]] = []
        self.found: Calibration | None = None
        language = controller.language
        root = BoxLayout(orientation="vertical", spacing=dp(8), padding=dp(8))
        self.hint = Label(text=f"0/4 {label('corners', language)}", font_size=sp(22), size_hint_y=None, height=dp(40))
        root.add_widget(self.hint)
        picture = controller.camera_picture()
        self.picker: CornerPicker | None = None
        if picture is not None:
            self.picker = CornerPicker(self.corner, texture=texture_of(picture))
            root.add_widget(self.picker)
        else:
            root.add_widget(Label(text=label("no_camera_crop", language), font_size=sp(24)))
        self.result = Banner(size_hint_y=None, height=dp(64))
        self.result.set(label("recalibrate_hint", language), Level.INFO)
        root.add_widget(self.result)
        bar = BoxLayout(spacing=dp(8), size_hint_y=None, height=target())
        self.pin = TextInput(text="", hint_text="PIN", password=True, font_size=sp(26), multiline=False)
        bar.add_widget(button(label("find_markers", language), self.markers))
        bar.add_widget(self.pin)
        bar.add_widget(button(label("save_corners", language), self.save))
        bar.add_widget(button(label("cancel", language), lambda: self.dismiss(animation=False)))
        root.add_widget(bar)
        self.add_widget(root)

    def corner(self, x: float, y: float) -> None:
        """A corner tapped on the picture; a fifth tap starts again."""
        if len(self.taps) == 4:
            self.taps = []
        self.taps.append((x, y))
        self.found = None
        self.show_marks(self.taps)

    def show_marks(self, points: list[tuple[float, float]]) -> None:
        if self.picker is not None:
            self.picker.marks = list(points)
            self.picker.draw_marks()
        self.hint.text = f"{len(points)}/4 {label('corners', self.controller.language)}"

    def markers(self) -> None:
        """The board from its printed corner markers on the camera's picture now."""
        found = self.controller.find_markers()
        if isinstance(found, str):
            self.result.set(found, Level.WARNING)
            return
        self.found = found
        self.taps = []
        self.show_marks(list(found.corners))

    def save(self) -> None:
        """Journal the new corners behind the PIN; on success the camera reads on them and the view closes."""
        language = self.controller.language
        how = "markers" if self.found is not None else "taps"
        calibration: Calibration | str
        if self.found is not None:
            calibration = self.found
        elif len(self.taps) == 4:
            calibration = self.controller.corners_calibration(self.taps)
        else:
            calibration = label("recalibrate_hint", language)
        if isinstance(calibration, str):
            self.result.set(calibration, Level.WARNING)
            return
        pin, self.pin.text = self.pin.text, ""
        reaction = self.controller.recalibrate(pin, calibration, how)
        ruling = reaction.rulings[0] if reaction.rulings else None
        text = self.controller.text(ruling) if ruling is not None else ""
        if ruling is not None and ruling.code == "calibrated":
            self.dismiss(animation=False)
            self.done(text)
            return
        self.result.set(text, ruling.level if ruling is not None else Level.WARNING)


class FairnessView(BoxLayout):
    """The match's dice faces against the band a fair die stays in, drawn again when the screen is shown."""

    def __init__(self, controller: Controller, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=dp(4), **kwargs)
        self.controller = controller
        self.caption = Label(
            text=label("fairness", controller.language),
            font_size=sp(20),
            halign="center",
            size_hint_y=None,
            height=dp(32),
        )
        self.caption.bind(width=lambda widget, width: setattr(widget, "text_size", (width, None)))  # wraps, grows
        self.caption.bind(texture_size=lambda widget, size: setattr(widget, "height", max(dp(32), size[1])))
        self.add_widget(self.caption)
        self.counted = Label(text="", font_size=sp(18), size_hint_y=None, height=max(dp(26), lines(sp(18))))
        self.add_widget(self.counted)
        self.picture = KivyImage(fit_mode="contain")
        self.add_widget(self.picture)

    def refresh(self) -> None:
        picture = self.controller.fairness_picture()
        if picture is not None:
            self.picture.texture = texture_of(picture)
        language = self.controller.language
        self.counted.text = label("fairness_throws", language).format(throws=self.controller.fairness_throws())
