"""Opens the real app at one window size, visits every screen in Turkish and English and writes what does not fit.

Run by tests/app/test_layout.py under Xvfb: ``python -m tests.app.layout_driver OUTDIR WIDTHxHEIGHT``. A widget
shown partly outside the window, two buttons, labels or inputs drawn over each other, a text wider or taller
than its widget or smaller than :data:`READABLE_PX` is a problem: OUTDIR/result.json lists them by screen, size
and language.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("KIVY_WINDOW", "sdl2")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_ARGS", "1")

if __name__ == "__main__" and len(sys.argv) > 2:
    os.environ["TAVLA_WINDOW"] = sys.argv[2]  # the drivers' window opens at this size

from app.ui.main import configure_window  # noqa: E402

configure_window()

from kivy.core.window import Window  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from kivy.uix.textinput import TextInput  # noqa: E402

from app.net.station import Assignment  # noqa: E402
from app.referee import events as ev  # noqa: E402
from app.referee.engine import Stage  # noqa: E402
from app.referee.setup import ClockSettings, MatchSetup  # noqa: E402
from app.sim.station import SimStation  # noqa: E402
from app.ui.controller import Controller  # noqa: E402
from app.ui.main import TavlaApp  # noqa: E402
from tests.app.play_choices_driver import ask_a_play  # noqa: E402
from tests.app.ui_driver import PIN, plain, run  # noqa: E402

SLACK = 1.0
"""Pixels a box may cross another's or the window's edge by (rounding of the layouts)."""


MARGIN = 4.0
"""Pixels between a button's text and its left and right edges, at least."""

READABLE_PX = 14.0
"""The smallest text a player can read from a chair beside the board, in pixels: 2.7 mm on the Raspberry Pi's
7-inch 800x480 panel (133 pixels an inch), Android's smallest recommended text (12 sp, 1.9 mm, held at arm's
length) scaled for a tablet read from half as far again."""


def describe(widget: Any) -> str:
    text = plain(str(getattr(widget, "text", "") or getattr(widget, "hint_text", ""))).replace("\n", " ")
    return f"{type(widget).__name__}({text[:30]!r})"


def shown(widget: Any) -> bool:
    """Drawn on the screen: in the window, with a size, and neither it nor a parent hidden."""
    node = widget
    while node is not None:
        if getattr(node, "opacity", 1) == 0:
            return False
        if node.parent is node:
            break
        node = node.parent
    return widget.get_root_window() is not None and widget.width > 1 and widget.height > 1


def scroller(widget: Any) -> Any:
    """The scroll view the widget scrolls in, if any: it is drawn only inside that view."""
    node = widget.parent
    while node is not None and node.parent is not node:
        if isinstance(node, ScrollView):
            return node
        node = node.parent
    return None


def box(widget: Any) -> tuple[float, float, float, float]:
    left, bottom = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    return left, bottom, right, top


def leaf(widget: Any) -> bool:
    """What a person reads or taps: a button, an input, a label with text."""
    if isinstance(widget, (Button, TextInput)):
        return True
    return isinstance(widget, Label) and bool(widget.text.strip())


def needed_height(widget: Label) -> float:
    """The height the label's text needs at its width: a label whose text box is its own size cuts off the lines
    that do not fit without a word, so its text is laid out again with no height limit and measured."""
    width, height = widget.text_size
    if width is None or height is None:
        return float(widget.texture_size[1])
    core = type(widget._label)(
        text=widget.text,
        font_size=widget.font_size,
        font_name=widget.font_name,
        bold=widget.bold,
        italic=widget.italic,
        halign=widget.halign,
        text_size=(width, None),
    )
    core.refresh()
    return float(core.texture.size[1]) if core.texture is not None else 0.0


def problems(root: Any) -> list[str]:
    width, height = Window.size
    found: list[str] = []
    leaves = []
    for widget in root.walk():
        if not shown(widget):
            continue
        left, bottom, right, top = box(widget)
        view = scroller(widget)
        if view is not None:  # only what shows through the scroll view is on the screen
            v_left, v_bottom, v_right, v_top = box(view)
            left, bottom, right, top = max(left, v_left), max(bottom, v_bottom), min(right, v_right), min(top, v_top)
            if right - left <= SLACK or top - bottom <= SLACK:
                continue
        if left < -SLACK or bottom < -SLACK or right > width + SLACK or top > height + SLACK:
            if leaf(widget) or widget.children:
                found.append(f"outside the window: {describe(widget)} at {left:.0f},{bottom:.0f}-{right:.0f},{top:.0f}")
        if not leaf(widget):
            continue
        leaves.append((widget, (left, bottom, right, top)))
        if isinstance(widget, (Label, TextInput)) and (widget.text.strip() or getattr(widget, "hint_text", "")):
            sizes = [float(widget.font_size)] + [float(n) for n in re.findall(r"\[size=(\d+)", widget.text)]
            if min(sizes) < READABLE_PX - 0.01:
                found.append(f"text too small to read: {describe(widget)} at {min(sizes):.1f} px")
        if isinstance(widget, Label) and widget.text.strip():
            text_w, text_h = widget.texture_size[0], needed_height(widget)
            margin = 2 * MARGIN if isinstance(widget, Button) else 0  # a button's text never touches its edges
            if text_w + margin > widget.width + SLACK or text_h > widget.height + SLACK:
                found.append(
                    f"text larger than its widget: {describe(widget)} {text_w:.0f}x{text_h:.0f}"
                    f" in {widget.width:.0f}x{widget.height:.0f}"
                )
    for index, (first, a) in enumerate(leaves):
        for second, b in leaves[index + 1 :]:
            across = min(a[2], b[2]) - max(a[0], b[0])
            up = min(a[3], b[3]) - max(a[1], b[1])
            if across > SLACK and up > SLACK:
                found.append(f"overlap: {describe(first)} and {describe(second)}")
    return found


def check(app: TavlaApp, result: dict[str, Any], name: str) -> Iterator[None]:
    """The screen in front in both languages; the language switched back to Turkish after."""
    for language in ("tr", "en"):
        if app.controller.language != language:
            app.toggle_language()
            yield
            yield
        size = "x".join(str(n) for n in Window.size)
        screen = app.manager.current_screen
        result["texts"][f"{name}/{language}"] = [
            plain(w.text) for w in screen.walk() if isinstance(w, Label) and w.text.strip() and shown(w)
        ]
        for problem in problems(screen):
            result["problems"].append(f"{name} at {size} in {language}: {problem}")
    app.toggle_language()
    yield
    yield


def assigned() -> Assignment:
    """A match from the director with long names and every fact filled in: the panel's longest lines."""
    setup = MatchSetup(
        players=("Ayşe Nur Karaosmanoğlu", "Mehmet Ali Büyükçekmeceli"),
        length=17,
        clock=ClockSettings.for_match(17),
        event="Kadıköy Tavla Kulübü Kış Kupası",
        round="C3",
        table="12",
    )
    return Assignment("consolation-3-2", setup, "m1")


def script(app: TavlaApp, out: Path, result: dict[str, Any]) -> Iterator[None]:
    result["problems"] = []
    result["texts"] = {}
    yield
    yield
    result["window"] = list(Window.size)

    setup = app.screens["setup"]
    setup.pin.text = PIN
    setup.length.text = "1"  # a resignation ends it: the result sheet is reached fast
    app.controller.assignment_came(assigned())  # the director's match for this table, on its panel
    app.show("assigned")
    yield
    yield from check(app, result, "assigned match")
    app.controller.offered = None  # the players set up their own match instead
    app.show("setup")
    yield
    yield from check(app, result, "set-up")
    result["arranged"] = {"start_width": setup.start_button.width}
    app.screens["setup"].start()
    yield
    session = app.controller.session
    assert session is not None, app.screens["setup"].error.text
    for _ in range(6):
        app.controller.sim_step()
    app.refresh()
    yield
    yield from check(app, result, "play")
    play = app.screens["play"]
    result["arranged"]["board"] = list(box(play.board))
    result["arranged"]["clock"] = list(box(play.clock_buttons[0]))
    for _ in range(300):
        if session.referee.stage is Stage.QUESTION:
            break
        app.controller.sim_step()
    assert session.referee.stage is Stage.QUESTION, "the simulated match never asked about a throw"
    app.refresh()
    yield
    yield from check(app, result, "unsure throw")
    for name in ("director", "history", "learn"):
        app.show(name)
        yield
        yield from check(app, result, name)
    app.show("play")
    for _ in range(300):  # the player on roll resigns and the other accepts: the match is over
        referee = session.referee
        if referee.match.over:
            break
        if referee.stage is Stage.ROLL and referee.to_act is not None:
            app.controller.send(ev.ResignationOffered(referee.to_act, 1))
        elif referee.stage is Stage.RESIGNATION and referee.to_act is not None:
            app.controller.send(ev.ResignationAccepted(referee.to_act))
        elif referee.stage is Stage.QUESTION and referee.to_act is not None:
            app.controller.send(ev.ThrowConfirmed(referee.to_act))
        else:
            app.controller.sim_step()
    assert session.referee.match.over, f"the match did not end ({session.referee.stage})"
    app.show("result")
    yield
    yield from check(app, result, "result sheet")
    result["arranged"]["confirm_widths"] = [w.width for w in app.screens["result"].confirms.children]
    ask_a_play(app.controller, out / "asked.sqlite")  # the camera's candidate plays on the play screen
    app.show("play")
    yield
    yield from check(app, result, "asked play")


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {}
    app = TavlaApp(Controller(out, SimStation(seed=2), language="tr"))
    return run(app, script(app, out, result), out, result, interval=0.3)  # a loaded machine lays out slowly


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
