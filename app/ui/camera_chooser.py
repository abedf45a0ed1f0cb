"""The set-up screen's camera chooser: shown only when two cameras or more give pictures (a USB camera over the
board beside the tablet's own, say), each by its name with the picture it gave, and "no camera" beside them.

A tap makes the station read that camera from then on and remembers it for the next start
(:class:`app.ui.camera_choice.CameraChoice`); the set-up screen is then built again around the new camera's
picture, the corners tapped on the old one forgotten.
"""

from __future__ import annotations

from typing import Any, Callable

import cv2
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image as KivyImage
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton

from app.ui.camera_choice import CameraChoice
from app.ui.controller import Controller
from app.ui.labels import label
from app.ui.sizes import sp
from app.ui.widgets import inside, target, texture_of
from vision.cameras import FoundCamera

THUMB_WIDTH = 240
"""Pixels across a camera's picture is kept at for its tile: enough to tell the board from a face."""


def camera_caption(camera: FoundCamera) -> str:
    """A camera's name, and its index where it has one (two cameras of one make have one name)."""
    return f"{camera.name} ({camera.spec})" if camera.spec.isdigit() else camera.name


def thumbnail(camera: FoundCamera) -> Any:
    """The camera's picture scaled down to a tile's width."""
    height, width = camera.still.shape[:2]
    size = (THUMB_WIDTH, max(int(height * THUMB_WIDTH / max(width, 1)), 1))
    return cv2.resize(camera.still, size, interpolation=cv2.INTER_AREA)


class CameraChooser(BoxLayout):
    """One tile per camera found (its picture, its name) and one for no camera; the chosen one is down.
    ``on_chosen`` runs once the station reads the camera tapped."""

    def __init__(self, controller: Controller, choice: CameraChoice, on_chosen: Callable[[], None], **kwargs: Any):
        super().__init__(orientation="vertical", spacing=dp(6), size_hint_y=None, **kwargs)
        self.controller, self.choice, self.on_chosen = controller, choice, on_chosen
        language = controller.language
        title = inside(Label(text=label("camera_choose", language), font_size=sp(22), size_hint_y=None))
        title.height = dp(40)
        self.add_widget(title)
        tiles = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(120) + target())
        self.toggles: dict[str | None, ToggleButton] = {}
        for camera in choice.found:
            tile = BoxLayout(orientation="vertical", spacing=dp(4))
            tile.add_widget(KivyImage(texture=texture_of(thumbnail(camera)), fit_mode="contain"))
            tile.add_widget(self.toggle(camera.spec, camera_caption(camera)))
            tiles.add_widget(tile)
        tile = BoxLayout(orientation="vertical")
        tile.add_widget(self.toggle(None, label("camera_none", language), height=dp(120) + target()))
        tiles.add_widget(tile)
        self.add_widget(tiles)
        self.said = inside(Label(text="", font_size=sp(20), color=(1, 0.4, 0.4, 1), size_hint_y=None, height=0))
        self.add_widget(self.said)
        self.bind(minimum_height=self.setter("height"))
        if choice.unsaved:
            self.say(label("camera_not_saved", language))

    def toggle(self, spec: str | None, text: str, height: float | None = None) -> ToggleButton:
        widget = ToggleButton(
            text=text,
            group="station_camera",
            allow_no_selection=False,
            state="down" if spec == self.choice.chosen else "normal",
            font_size=sp(20),
            size_hint_y=None,
            height=height or target(),
        )
        inside(widget)
        widget.bind(on_release=lambda *_: self.pick(spec))
        self.toggles[spec] = widget
        return widget

    def pick(self, spec: str | None) -> None:
        """The camera tapped: read from now on and remembered; the screen rebuilt around it (after this touch)."""
        if spec == self.choice.chosen:
            return
        problem = self.controller.use_camera(spec)
        if problem is not None:
            self.say(problem)
            return
        self.choice.remember(spec)  # not remembered: said on the screen built again
        Clock.schedule_once(lambda _: self.on_chosen())

    def say(self, text: str) -> None:
        """A line under the tiles: why the tap did not do all it should."""
        self.said.text = text
        self.said.height = dp(48)
