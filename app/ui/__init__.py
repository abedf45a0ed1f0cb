"""The Kivy tablet app (the only place Kivy is imported): screens that show the referee and send taps.

Kivy reads these settings when it is first imported, so they are made here, before any screen module
imports it: Python's logging, no command-line parsing by Kivy, a landscape 1280x800 tablet window.
"""

import os

os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
os.environ.setdefault("KCFG_GRAPHICS_WIDTH", "1280")  # landscape tablet, set before Kivy makes the window
os.environ.setdefault("KCFG_GRAPHICS_HEIGHT", "800")
