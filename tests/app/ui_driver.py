"""Drives the real Kivy app in a real window by taps, saving a screenshot of every screen.

Run by tests/app/test_ui.py under Xvfb: ``python -m tests.app.ui_driver OUTDIR``. Taps are real touch
events at the buttons' window coordinates (Kivy's UnitTestTouch); what the app showed is written to
OUTDIR/result.json for the test to check, and the screenshots to OUTDIR/*.png.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

os.environ.setdefault("KIVY_WINDOW", "sdl2")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_ARGS", "1")

from app.ui.main import configure_window  # noqa: E402

configure_window()

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.button import Button  # noqa: E402

from app.record.library import MatchLibrary  # noqa: E402
from app.referee.engine import Stage  # noqa: E402
from app.sim.camera import SimulatedCamera  # noqa: E402
from app.sim.station import SimStation  # noqa: E402
from app.ui.controller import Controller  # noqa: E402
from app.ui.main import TavlaApp  # noqa: E402

PIN = "2468"


def tap(widget: Any) -> None:
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def find_button(root: Any, text: str) -> Button:
    for widget in root.walk():
        if isinstance(widget, Button) and widget.text.startswith(text) and widget.get_root_window() is not None:
            return widget
    raise LookupError(
        f"no button {text!r} on screen; buttons: {[w.text for w in root.walk() if isinstance(w, Button)]}"
    )


def plain(text: str) -> str:
    """A label's text without its Kivy markup (sizes, bold)."""
    return re.sub(r"\[/?(?:b|i|size|color)(?:=[^\]]*)?\]", "", text)


def shot(out: Path, name: str) -> str:
    saved = Path(Window.screenshot(name=str(out / f"{name}.png")))
    final = out / f"{name}.png"
    saved.rename(final)
    return str(final)


def script(app: TavlaApp, out: Path, result: dict[str, Any]) -> Iterator[None]:
    play = app.screens["play"]
    setup = app.screens["setup"]
    result["screens"] = {}
    yield  # let the first frame be drawn
    picker = setup.picker  # type: ignore[attr-defined]
    camera = sim_camera(app.controller)
    assert picker is not None and camera is not None
    for x, y in camera.corners:  # the referee taps the board's four corners on the camera picture
        wx, wy = picker.to_widget(x, y)
        touch = UnitTestTouch(*picker.to_window(wx, wy))
        touch.touch_down()
        touch.touch_up()
        yield
    calibration = app.controller.calibration
    result["calibration"] = [list(c) for c in calibration.corners] if calibration is not None else None
    result["true_corners"] = [list(c) for c in camera.corners]
    result["calibration_text"] = setup.calibration.text  # type: ignore[attr-defined]
    result["screens"]["setup"] = shot(out, "1-setup")
    setup.pin.text = PIN  # type: ignore[attr-defined]
    setup.white.text = "Ayşe Nur"  # type: ignore[attr-defined]
    tap(find_button(app.root, "English"))  # switching the language keeps the form, then back
    yield
    yield  # the rebuilt screen is laid out
    setup = app.screens["setup"]
    result["after_language_switch"] = {
        "white": setup.white.text,
        "pin_kept": setup.pin.text == PIN,  # type: ignore[attr-defined]
        "variant": setup.variant.text,
        "calibration": setup.calibration.text,  # type: ignore[attr-defined]
        "marks": len(setup.picker.marks),
    }  # type: ignore[attr-defined]
    result["screens"]["setup_en"] = shot(out, "1-setup-en")
    tap(find_button(app.root, "Türkçe"))
    yield
    tap(find_button(app.root, "Maçı başlat"))
    yield
    result["current_after_start"] = app.manager.current
    banners = []
    for _ in range(14):
        tap(find_button(app.root, "Sim >"))
        yield
        banners.append(play.banner.text)  # type: ignore[attr-defined]
    result["banners"] = banners
    yield from double_tap_check(app, result)
    result["dice_text"] = play.dice_text.text  # type: ignore[attr-defined]
    result["shots"] = camera.shots
    result["screens"]["play"] = shot(out, "2-play")
    session = app.controller.session
    assert session is not None
    yield from until_question(app)  # the players answer it on the screen
    result["question_banner"] = play.banner.text  # type: ignore[attr-defined]
    result["screens"]["question"] = shot(out, "2-question")
    question = session.referee.question
    while question is not None and not question.disputed:
        tap(find_button(app.root, "Zarı onayla"))  # each player asked confirms with one tap
        yield
        question = session.referee.question
    result["confirmed"] = sum(1 for r in app.controller.log if r.code == "throw_confirmed")
    tap(find_button(app.root, "Hakem çağır"))
    yield
    result["halted_banner"] = play.banner.text  # type: ignore[attr-defined]
    tap(find_button(app.root, "Hakem"))
    yield
    director = app.screens["director"]
    director.pin.text = "1111"  # type: ignore[attr-defined]
    tap(find_button(app.root, "Sürdür"))
    yield
    result["wrong_pin"] = director.result.text  # type: ignore[attr-defined]
    director.pin.text = PIN  # type: ignore[attr-defined]
    tap(find_button(app.root, "Sürdür"))
    yield
    result["right_pin"] = director.result.text  # type: ignore[attr-defined]
    result["screens"]["director"] = shot(out, "3-director")
    tap(find_button(app.root, "Geri"))
    yield
    tap(find_button(app.root, "Geçmiş"))
    yield
    tap(find_button(app.root, "Dışa aktar"))
    yield
    result["export_status"] = app.screens["history"].status.text  # type: ignore[attr-defined]
    result["screens"]["history"] = shot(out, "4-history")
    tap(find_button(app.root, "Geri"))
    yield
    tap(find_button(app.root, "English"))
    yield
    for _ in range(12):  # until a play is ruled on (throws, void throws and cube actions come between)
        tap(find_button(app.root, "Sim >"))
        yield
        if " played " in play.banner.text:  # type: ignore[attr-defined]
            break
    result["english_banner"] = play.banner.text  # type: ignore[attr-defined]
    result["screens"]["play_en"] = shot(out, "5-play-en")
    session = app.controller.session
    assert session is not None
    result["journal_entries"] = len(session.journal)
    result["plays"] = sum(1 for r in app.controller.log if r.code == "play_ok")
    result["stage"] = session.referee.stage.value


def card_button(app: TavlaApp, person: str, text: str) -> Button:
    """A button on the chouette card of ``person``."""
    strip = app.screens["play"].strip  # type: ignore[attr-defined]
    for card in strip.children:
        heading = card.children[-1].text  # the card's label comes first
        if person in heading.split("\n")[0]:
            return find_button(card, text)
    raise LookupError(f"no card of {person} on screen")


def chouette_script(app: TavlaApp, out: Path, result: dict[str, Any]) -> Iterator[None]:
    """Set up a chouette of three by taps, let the simulated box double, answer on the members' cards."""
    play = app.screens["play"]
    setup = app.screens["setup"]
    result["screens"] = {}
    yield
    tap(find_button(app.root, "Şuet"))
    setup.line.text = "Ayşe, Mehmet, Deniz"  # type: ignore[attr-defined]
    setup.pin.text = PIN  # type: ignore[attr-defined]
    yield
    result["screens"]["setup_chouette"] = shot(out, "6-setup-chouette")
    tap(find_button(app.root, "Maçı başlat"))
    yield
    session = app.controller.session
    assert session is not None and session.referee.chouette is not None
    for _ in range(40):  # until the simulated box doubles a member
        tap(find_button(app.root, "Sim >"))
        yield
        if session.referee.stage.value == "double":
            break
    result["box_doubled"] = play.banner.text  # type: ignore[attr-defined]
    tap(card_button(app, "Deniz", "Kutu çevirir"))  # the box doubles Deniz too, by a tap on Deniz's card
    yield
    result["tapped_double"] = play.banner.text  # type: ignore[attr-defined]
    result["screens"]["play_chouette"] = shot(out, "7-play-chouette")
    tap(card_button(app, "Mehmet", "Red"))  # the captain drops: Deniz moves the checkers now
    yield
    tap(card_button(app, "Deniz", "Kabul"))
    yield
    texts = [app.controller.text(r) for r in app.controller.log]
    result["rulings"] = texts
    result["captain"] = session.referee.chouette.game.acting_captain
    result["score_text"] = play.score.text  # type: ignore[attr-defined]
    result["clock_names"] = [plain(b.text).split("\n")[0] for b in play.clock_buttons]  # type: ignore[attr-defined]
    for step in range(12):  # play on until the clock runs: an unsure first throw is answered first
        tap(find_button(app.root, "Sim >"))
        yield
        if step >= 2 and session.referee.clock is not None:
            break
    result["screens"]["play_chouette_after"] = shot(out, "8-play-chouette-after")
    result["clock_running"] = session.referee.clock is not None
    result["clock_texts"] = [[b.text for b in play.clock_buttons]]  # type: ignore[attr-defined]
    for _ in range(4):  # 1.6 s of real time, the app redrawing on its own
        yield
    result["clock_texts"].append([b.text for b in play.clock_buttons])  # type: ignore[attr-defined]
    result["plays"] = sum(1 for r in app.controller.log if r.code == "play_ok")


def double_tap_check(app: TavlaApp, result: dict[str, Any]) -> Iterator[None]:
    """A double tap on "Küp çevir" must not take the double: the second touch began before "Kabul" existed,
    and "Kabul" asks for a deliberate second tap anyway."""
    session = app.controller.session
    assert session is not None
    for _ in range(60):  # let the simulated players go on until the player on roll may double
        referee = session.referee
        if referee.stage is Stage.ROLL and referee.to_act is not None and referee.match.game.may_double(referee.to_act):
            break
        tap(find_button(app.root, "Sim >"))
        yield
    double = find_button(app.root, "Küp çevir")
    x, y = double.to_window(*double.center)
    first = UnitTestTouch(x, y)
    second = UnitTestTouch(x, y)  # the second tap of a double tap, begun at once
    first.touch_down()
    first.touch_up()
    app.refresh()  # the stage changes: the buttons are rebuilt under the finger
    second.touch_down()
    second.touch_up()
    yield
    result["after_double_tap"] = session.referee.stage.name
    take = find_button(app.root, "Kabul")
    result["take_slot_was_free"] = not take.collide_point(*take.to_widget(x, y))
    tap(take)
    yield
    result["after_one_tap_on_take"] = (session.referee.stage.name, take.text)
    tap(take)
    yield
    result["after_second_tap_on_take"] = session.referee.stage.name


def resume_script(app: TavlaApp, out: Path, result: dict[str, Any]) -> Iterator[None]:
    """The window was closed mid-match: the set-up screen offers the last match, one tap goes on with it."""
    result["screens"] = {}
    yield
    result["screens"]["setup_resume"] = shot(out, "7-setup-resume")
    tap(find_button(app.root, "Son maçı sürdür"))
    yield
    session = app.controller.session
    result["current_after_resume"] = app.manager.current
    result["resumed_events"] = session.resumed.events if session is not None and session.resumed else None
    result["players"] = list(session.setup.players) if session is not None else None
    result["screens"]["play_resumed"] = shot(out, "8-play-resumed")


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {}
    if "--resume" in argv[1:]:  # argv: OUT --resume LIBRARY_ROOT
        library = MatchLibrary(Path(argv[argv.index("--resume") + 1]))
        controller = Controller(library.new_folder(), SimStation(), language="tr", library=library)
        app = TavlaApp(controller)
        steps = resume_script(app, out, result)
    else:
        controller = Controller(out, SimStation(), language="tr")
        app = TavlaApp(controller)
        steps = chouette_script(app, out, result) if "--chouette" in argv[1:] else script(app, out, result)

    return run(app, steps, out, result)


def sim_camera(controller: Controller) -> SimulatedCamera:
    """The simulated table's camera (its board corners and throws), as a script at the table knows them."""
    table = controller.table
    assert isinstance(table, SimStation)
    return table.camera


def until_question(app: TavlaApp, tries: int = 200) -> Iterator[None]:
    """Play on ("Sim >") until the camera is unsure of a throw, at most ``tries`` taps (generous: how soon the
    simulated match raises a question depends on the reader and its sureness settings, not on the screens)."""
    session = app.controller.session
    assert session is not None
    for _ in range(tries):
        if session.referee.stage is Stage.QUESTION:
            return
        tap(find_button(app.root, "Sim >"))
        yield


def run(app: TavlaApp, steps: Iterator[None], out: Path, result: dict[str, Any], interval: float = 0.4) -> int:
    """Run the app, taking one step of the script every ``interval`` seconds; the result file says how it went."""

    def advance(_: float) -> None:
        try:
            next(steps)
        except StopIteration:
            result["done"] = True
            app.stop()
            return
        except Exception as error:  # the test reads what went wrong from the result file
            result["error"] = f"{type(error).__name__}: {error}"
            app.stop()
            return
        Clock.schedule_once(advance, interval)

    start: Callable[[float], None] = advance
    Clock.schedule_once(start, 1.0)
    app.run()
    (out / "result.json").write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0 if result.get("done") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
