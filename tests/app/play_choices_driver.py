"""Drives the play screen of the real Kivy app while the camera asks a play: the candidates as buttons in Turkish
and English, "another play" opening the typed entry, and a tap on a candidate playing it.

Run by tests/app/test_play_choices.py under Xvfb: ``python -m tests.app.play_choices_driver OUTDIR``.
"""

# ruff: noqa: I001
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

# first: it sets the window up before Kivy starts
from tests.app.ui_driver import run, shot, tap

from kivy.uix.button import Button  # noqa: E402

from app.record.session import Session  # noqa: E402
from app.referee import events as ev  # noqa: E402
from app.referee.handlers.camera import seen_counts  # noqa: E402
from app.referee.setup import Devices  # noqa: E402
from app.sim.station import SimStation  # noqa: E402
from app.ui.controller import Controller  # noqa: E402
from app.ui.main import TavlaApp  # noqa: E402
from rules.play import Step, apply_steps  # noqa: E402
from rules.position import Color, Position  # noqa: E402
from tests.app.table import make_setup  # noqa: E402

W, B = Color.WHITE, Color.BLACK


def choice_buttons(app: TavlaApp) -> list[Button]:
    """The candidate buttons on the play screen now, in the order they are shown."""
    choices = app.screens["play"].choices  # type: ignore[attr-defined]
    return [widget for widget in choices.walk(restrict=True) if isinstance(widget, Button)]


def ask_a_play(controller: Controller, path: Path) -> Session:
    """A camera-only match in ``path`` where White's 3-1 (8/5 6/5 on the board) was read unsure: the play is
    asked, its ruling on the banner as the table's listener shows it."""
    devices = Devices(camera=True, board=False, clock=True)
    session = Session.create(path, make_setup(devices=devices, players=("Ayşe", "Mehmet")))
    controller.session = session
    controller.send(ev.DiceObserved((3, 1)))
    controller.send(ev.ClockPressed(B))
    played = apply_steps(Position.start(W), [Step(8, 5), Step(6, 5)]).with_turn(W)
    white, black = seen_counts(played)
    controller.send(ev.CheckersSeen(white, black, False, ("a checker hidden under others",)))
    controller.banner = controller.send(ev.ClockPressed(W)).rulings[0]
    return session


def script(app: TavlaApp, out: Path, result: dict[str, Any]) -> Iterator[None]:
    yield  # let the first frame be drawn
    controller = app.controller
    session = ask_a_play(controller, out / "match.sqlite")
    result["options"] = list(controller.asked_plays())
    app.show("play")
    yield
    yield
    for language in ("tr", "en"):
        if controller.language != language:
            app.toggle_language()
            yield
            yield
        result[f"buttons/{language}"] = [widget.text for widget in choice_buttons(app)]
        result[f"shot/{language}"] = shot(out, f"play_asked_{language}")
    app.toggle_language()
    yield
    yield
    play = app.screens["play"]
    tap(choice_buttons(app)[-1])  # "another play"
    yield
    result["other_focuses_entry"] = bool(play.entry.focus)  # type: ignore[attr-defined]
    play.entry.focus = False  # type: ignore[attr-defined]
    yield
    tap(next(widget for widget in choice_buttons(app) if widget.text == "8/5 6/5"))
    yield
    yield
    entry = list(session.journal.entries())[-1]
    event = entry.payload["event"]
    result["journaled"] = {"kind": event["kind"], "text": event.get("text")}
    result["after"] = {"stage": session.referee.stage.name, "buttons": [w.text for w in choice_buttons(app)]}
    result["shot/after"] = shot(out, "play_after")


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {}
    app = TavlaApp(Controller(out, SimStation(), language="tr", keep_photos=False))
    return run(app, script(app, out, result), out, result)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
