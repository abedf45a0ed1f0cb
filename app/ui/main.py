"""The Kivy tablet app: the set-up, play, director, history and result screens (one module each) in one window.

Every screen reads the referee through :class:`app.ui.controller.Controller` and turns taps into events;
nothing here decides anything. The app owns the main loop, so it pumps the table: a device's message goes to
the journal and the referee on the loop's own timer, whichever screen shows (or none)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.config import Config
from kivy.uix.screenmanager import NoTransition, ScreenManager

from app.record.library import MatchLibrary
from app.table.table import Table
from app.ui.assigned_match import AssignedMatchScreen
from app.ui.camera_choice import CameraChoice
from app.ui.controller import Controller
from app.ui.director_screen import DirectorScreen
from app.ui.history_screen import HistoryScreen
from app.ui.learn_screen import LearnScreen
from app.ui.play_screen import PlayScreen
from app.ui.result_screen import ResultScreen
from app.ui.setup_screen import SetupScreen
from app.ui.widgets import TavlaScreen, fit_to_window

PUMP_S = 0.05
"""How often the main loop hands the devices' messages to the match: a press is on the clock within this."""

REFRESH_S = 0.25
"""How often the screen shown is redrawn from the referee's state."""


def on_main_loop(task: Callable[[], None]) -> None:
    """Run ``task`` on Kivy's main loop (from any thread): how the camera's thread reaches the match."""
    Clock.schedule_once(lambda _: task())


class TavlaApp(App):
    title = "Tavla"

    def __init__(self, controller: Controller, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.screens: dict[str, TavlaScreen] = {}

    def build(self) -> ScreenManager:
        fit_to_window()  # before a screen is built: their sizes are in dp and sp
        self.manager = ScreenManager(transition=NoTransition())
        for screen in (
            SetupScreen(self),
            PlayScreen(self),
            DirectorScreen(self),
            HistoryScreen(self),
            ResultScreen(self),
            LearnScreen(self),
            AssignedMatchScreen(self),
        ):
            self.screens[screen.name] = screen
            self.manager.add_widget(screen)
        Clock.schedule_interval(lambda *_: self.controller.table.pump(), PUMP_S)
        Clock.schedule_interval(lambda *_: self.tick(), REFRESH_S)
        if self.controller.session is not None:
            self.manager.current = "play"
        return self.manager

    def tick(self) -> None:
        if self.manager.current == "setup" and self.controller.assignment() is not None:
            self.show("assigned")  # the director's match for this table, before the players at a free table
        if self.manager.current in ("play", "setup", "result", "learn", "assigned"):
            self.screens[self.manager.current].refresh()

    def show(self, name: str) -> None:
        self.manager.current = name
        self.refresh()

    def refresh(self) -> None:
        self.screens[self.manager.current].refresh()

    def toggle_language(self) -> None:
        self.controller.language = "en" if self.controller.language == "tr" else "tr"
        current = self.manager.current
        for screen in self.screens.values():
            if isinstance(screen, SetupScreen) and self.controller.session is not None:
                continue
            screen.build()
        self.manager.current = current
        self.refresh()

    def on_stop(self) -> None:
        self.controller.close()


WINDOW_ENV = "TAVLA_WINDOW"
"""The window's size, e.g. ``800x480`` (the Raspberry Pi's 7-inch display), or ``full`` for the whole display."""


def configure_window(size: str | None = None) -> None:
    """Open the window at ``size`` (``WIDTHxHEIGHT`` or ``full``; else ``$TAVLA_WINDOW``, else the tablet's
    1280x800) before Kivy creates it; the screens lay themselves out for whatever size the window has."""
    size = size or os.environ.get(WINDOW_ENV) or "1280x800"
    if size == "full":
        Config.set("graphics", "fullscreen", "auto")
    else:
        width, _, height = size.partition("x")
        if not (width.isdigit() and height.isdigit()):  # a mistyped size opens the tablet's window, said why
            print(f"app: window size {size!r}: WIDTHxHEIGHT (800x480) or full; 1280x800 used")
            width, height = "1280", "800"
        Config.set("graphics", "width", width)
        Config.set("graphics", "height", height)
    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    if "kivy.core.window" in sys.modules:  # the screens' widgets (a text input) opened the window on import
        from kivy.core.window import Window

        if size == "full":
            Window.fullscreen = "auto"
        else:
            Window.size = (int(width), int(height))


def run_app(
    table: Table,
    library: MatchLibrary,
    journal: str | None = None,
    language: str = "tr",
    keep_photos: bool = True,
    cameras: CameraChoice | None = None,
) -> int:
    """``python -m app``: the tablet app at ``table`` (live or simulated); the journal resumes a match if it
    exists, else the match gets a new folder in ``library``; ``cameras``: those found, for the set-up screen's
    chooser."""
    configure_window()
    library.tidy()  # the user's data folder: a closed window never loses a match
    folder = Path(journal).parent if journal else library.new_folder()
    controller = Controller(
        folder,
        table,
        language=language,
        journal=Path(journal) if journal else None,
        post=on_main_loop,
        library=library,
        keep_photos=keep_photos,
    )
    controller.cameras = cameras
    if journal and Path(journal).exists():
        problem = controller.resume(Path(journal))
        if problem:
            print(f"app: {problem}")
            controller.close()
            return 2
    TavlaApp(controller).run()
    return 0
