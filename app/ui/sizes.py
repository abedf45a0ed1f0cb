"""Text sizes with a floor: the screens' sp sizes scale with the window (:func:`app.ui.widgets.fit_to_window`),
and on a small display the smallest of them would be too small to read from a player's chair.

``sp`` here is Kivy's, never below :data:`READABLE_PX`; the screens import it in place of Kivy's own.
"""

from __future__ import annotations

from kivy.metrics import sp as scaled

READABLE_PX = 14.0
"""The smallest text on any display, in pixels: on the Raspberry Pi's 7-inch 800x480 panel (133 pixels an inch)
14 px is 2.7 mm, Android's smallest recommended text (12 sp, 1.9 mm at arm's length) scaled for a tablet read from
a player's chair beside the board, half as far again."""


def lines(font_px: float, count: int = 1) -> float:
    """The height ``count`` lines of text at ``font_px`` take (Kivy's line is about 1.2 times the font's size)."""
    return count * font_px * 1.25


def sp(size: float) -> float:
    """A text size of ``size`` sp as the window is fitted, at least :data:`READABLE_PX` pixels."""
    return max(float(scaled(size)), READABLE_PX)
