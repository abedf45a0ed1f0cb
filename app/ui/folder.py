"""The station's data folder: Kivy's ``App.user_data_dir``, what a Kivy app uses on Linux, Windows and Android.

It is asked before the app's window exists (the door needs it for the journal key and the matches), so it is
read from a window-less app of the same name; Kivy makes the folder on first use.
"""

from __future__ import annotations

import os
from pathlib import Path

from kivy.app import App
from kivy.utils import platform

APP_NAME = "tavla"
"""The app's name as Kivy derives it from :class:`app.ui.main.TavlaApp`: it names the folder."""


class _Named(App):
    """Only the app's name: Kivy places the data folder by it."""

    name = APP_NAME


def data_folder() -> Path:
    """The station's data folder (made when missing)."""
    if platform == "linux":  # Kivy makes only the last folder of $XDG_CONFIG_HOME/tavla
        Path(os.environ.get("XDG_CONFIG_HOME", "~/.config")).expanduser().mkdir(parents=True, exist_ok=True)
    running = App.get_running_app()
    try:
        return Path(_Named().user_data_dir)
    finally:
        App._running_app = running  # the window-less app is never the running one
