"""Drives the learning step of the real Kivy app by taps, with the dice reader and the simulated camera: the
set-up screen's button, a dice set named, throws shown with their dice large, one die struck out as not a die,
confirmations, then the match started with the set, and its first unsure throw rethrown with a die marked
cocked; screenshots in Turkish and English.

Run by tests/app/test_learn_ui.py under Xvfb: ``python -m tests.app.learn_ui_driver OUTDIR``.
"""

# ruff: noqa: I001
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

# first: it sets the window up before Kivy starts
from tests.app.ui_driver import PIN, find_button, run, shot, tap, until_question

from kivy.uix.image import Image as KivyImage  # noqa: E402
from kivy.uix.togglebutton import ToggleButton  # noqa: E402

from app.record.library import DiceSets  # noqa: E402
from app.ui.controller import Controller  # noqa: E402
from app.ui.main import TavlaApp  # noqa: E402
from app.sim.station import SimStation  # noqa: E402
from app.table.learning import MatchDice  # noqa: E402

NAME = "kulüp kırmızı"


def shown(app: TavlaApp) -> dict[str, Any]:
    """What the learning screen shows now: the dice pictures' heights, the rows of choices, the status."""
    screen = app.screens["learn"]
    pictures = [w for w in screen.panel.walk() if isinstance(w, KivyImage)]
    rows = {w.group for w in screen.panel.walk() if isinstance(w, ToggleButton)}
    return {
        "pictures": len(pictures),
        "picture_heights": [round(w.height) for w in pictures],
        "rows": len(rows),
        "status": screen.status.text,
        "picked": list(screen.picked),
    }


def strike_out(app: TavlaApp, row: int, text: str) -> None:
    """Tap "not a die" in one die's row."""
    screen = app.screens["learn"]
    for widget in screen.panel.walk():
        if isinstance(widget, ToggleButton) and widget.group == f"learn_die_{row}" and widget.text == text:
            tap(widget)
            return
    raise LookupError(f"no {text!r} in row {row}")


def thrown(app: TavlaApp, out: Path, result: dict[str, Any], name: str, picture: str) -> Iterator[None]:
    """The simulated referee throws the match dice; what the screen shows is kept, and its screenshot."""
    tap(find_button(app.root, "Sim: at" if app.controller.language == "tr" else "Sim: throw"))
    yield
    yield
    result[name] = shown(app)
    result["screens"][picture] = shot(out, picture)


def script(app: TavlaApp, out: Path, result: dict[str, Any]) -> Iterator[None]:
    result["screens"] = {}
    yield
    result["screens"]["l1-setup-tr"] = shot(out, "l1-setup-tr")
    tap(find_button(app.root, "Maç zarlarını tanıt"))
    yield
    result["current"] = app.manager.current
    screen = app.screens["learn"]
    tap(find_button(app.root, "Sim: at"))  # no dice set named yet: the screen asks for one
    yield
    result["unnamed"] = screen.error.text
    screen.set_name.text = NAME
    tap(find_button(app.root, "Bu takımı kullan"))
    yield
    result["waiting"] = [w.text for w in screen.panel.children]
    result["screens"]["l2-learn-tr"] = shot(out, "l2-learn-tr")
    yield from thrown(app, out, result, "first_tr", "l3-throw-tr")
    tap(find_button(app.root, "Onayla ve öğren"))
    yield
    result["after_first"] = app.controller.match_dice.confirmed
    tap(find_button(app.root, "Sim: at"))
    yield
    yield
    strike_out(app, len(app.controller.practice.dice) - 1 if app.controller.practice else 0, "Zar değil")
    yield
    result["struck_tr"] = shown(app)
    result["screens"]["l4-struck-tr"] = shot(out, "l4-struck-tr")
    tap(find_button(app.root, "Onayla ve öğren"))
    yield
    tap(find_button(app.root, "English"))
    yield
    yield
    yield from thrown(app, out, result, "first_en", "l5-throw-en")
    tap(find_button(app.root, "Confirm and learn"))
    yield
    profile = app.controller.match_dice.profile
    result["learned"] = {
        "throws": app.controller.practiced,
        "dice": app.controller.match_dice.confirmed,
        "examples": profile.examples if profile is not None else 0,
    }
    result["status_en"] = app.screens["learn"].status.text
    tap(find_button(app.root, "Done"))
    yield
    yield
    setup = app.screens["setup"]
    result["dice_set_shown"] = setup.dice_set.text if setup.dice_set is not None else None
    result["screens"]["l6-setup-en"] = shot(out, "l6-setup-en")
    setup.pin.text = PIN
    tap(find_button(app.root, "Start match"))
    yield
    session = app.controller.session
    result["match_dice_set"] = session.referee.setup.dice_profile if session is not None else None
    result["keeps_learning"] = app.controller.keep_learning is not None
    assert session is not None
    yield from rethrown_cocked(app, out, result)


def mark(app: TavlaApp, place: int, text: str) -> None:
    """Tap a mark under one die's picture in the unsure throw's question."""
    for widget in app.root.walk():
        if isinstance(widget, ToggleButton) and widget.group == f"question_mark_{place}" and widget.text == text:
            tap(widget)
            return
    raise LookupError(f"no {text!r} under picture {place}")


def rethrown_cocked(app: TavlaApp, out: Path, result: dict[str, Any]) -> Iterator[None]:
    """Play on until the camera is unsure of a throw; each player asked marks the first die cocked and calls a
    rethrow: the dice set learns that die as cocked."""
    session = app.controller.session
    assert session is not None
    yield from until_question(app)
    question = session.referee.question
    result["asked"] = question is not None
    if question is None:
        return
    before = app.controller.match_dice.confirmed
    result["question_marks"] = sorted(
        {w.text for w in app.root.walk() if isinstance(w, ToggleButton) and w.group.startswith("question_mark_")}
    )
    while question is not None and not question.disputed:
        mark(app, 0, "cocked")
        yield
        result["screens"].setdefault("l7-question-marked-en", shot(out, "l7-question-marked-en"))
        tap(find_button(app.root, "Rethrow"))
        yield
        question = session.referee.question
    result["rethrows"] = [data for _, _, data, _ in session.history() if data["kind"] == "rethrow_called"]
    result["learned_cocked"] = app.controller.match_dice.confirmed - before


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {}
    controller = Controller(out, SimStation(match_dice=MatchDice(DiceSets(out))), language="tr")
    app = TavlaApp(controller)
    return run(app, script(app, out, result), out, result)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
