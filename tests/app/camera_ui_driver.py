"""Drives the camera screens of the real Kivy app by taps: the set-up check (a good picture and a bad one), the
play screen's camera picture and its large view, the unsure throw's large dice, the director's new calibration
and the fairness picture; screenshots in Turkish and English.

Run by tests/app/test_camera_ui.py under Xvfb: ``python -m tests.app.camera_ui_driver OUTDIR``.
"""

# ruff: noqa: I001
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import cv2
import numpy as np

# first: it sets the window up before Kivy starts
from tests.app.ui_driver import PIN, find_button, run, shot, sim_camera, tap, until_question

from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.togglebutton import ToggleButton  # noqa: E402

from app.referee import events as ev  # noqa: E402
from app.referee.engine import Stage  # noqa: E402
from app.referee.i18n import word  # noqa: E402
from app.ui.labels import label  # noqa: E402
from app.table.lying import where_checkers_lie  # noqa: E402
from app.ui.camera_view import CameraView  # noqa: E402
from app.ui.controller import Controller  # noqa: E402
from app.ui.director_camera import RecalibrateView  # noqa: E402
from app.ui.main import TavlaApp  # noqa: E402
from app.ui.question_panel import QuestionPanel  # noqa: E402
from app.ui.setup_check import ReportView  # noqa: E402
from app.sim.station import SimStation  # noqa: E402
from vision import Calibration, DieReading, Reader  # noqa: E402
from vision.leaning import Checker, leans_on_nothing  # noqa: E402
from vision.verdict import judge  # noqa: E402

SHIFT = (6.0, -4.0)
"""How far the director's new corners lie from the set-up's (the camera was bumped)."""


def on_top(text: str) -> Button:
    """A button in the view open over the screen (a ModalView sits on the window, not in the screens)."""
    for child in Window.children:
        for widget in child.walk():
            if isinstance(widget, Button) and widget.text.startswith(text):
                return widget
    raise LookupError(f"no button {text!r} in the open view")


def open_view(kind: type) -> Any:
    return next((child for child in Window.children if isinstance(child, kind)), None)


def tap_at(widget: Any, x: float, y: float) -> None:
    touch = UnitTestTouch(*widget.to_window(x, y))
    touch.touch_down()
    touch.touch_up()


def bad_picture(picture: np.ndarray) -> np.ndarray:
    """The board out of focus under a dim lamp."""
    blurred = cv2.GaussianBlur(picture, (0, 0), 6)
    return np.asarray(blurred * 0.25, np.uint8)


def check(app: TavlaApp, result: dict[str, Any], out: Path, name: str) -> Iterator[None]:
    tap(find_button(app.root, "Kamerayı denetle" if app.controller.language == "tr" else "Check camera"))
    yield
    view = open_view(ReportView)
    result[name] = {
        "verdict": view.verdict.text if view else None,
        "details": view.details.text if view else None,
        "button": _check_button_text(app),
    }
    result["screens"][name] = shot(out, name)
    tap(on_top("Kapat" if app.controller.language == "tr" else "Close"))
    yield


def _check_button_text(app: TavlaApp) -> str:
    for widget in app.screens["setup"].walk():
        if isinstance(widget, Button) and widget.text.startswith(("Kamerayı denetle", "Check camera")):
            return str(widget.text)
    return ""


def script(app: TavlaApp, out: Path, result: dict[str, Any]) -> Iterator[None]:
    controller = app.controller
    camera = sim_camera(controller)
    assert camera is not None
    result["screens"] = {}
    yield
    yield from check(app, result, out, "c1-check-good-tr")
    result["screens"]["c1-setup-tr"] = shot(out, "c1-setup-tr")  # the verdict stays on the button
    good = camera.before
    camera.before = bad_picture(good)  # the camera out of focus in the dark
    yield from check(app, result, out, "c1-check-bad-tr")
    tap(find_button(app.root, "English"))
    yield
    yield from check(app, result, out, "c1-check-bad-en")
    camera.before = good
    yield from check(app, result, out, "c1-check-good-en")
    result["screens"]["c1-setup-en"] = shot(out, "c1-setup-en")
    tap(find_button(app.root, "Türkçe"))
    yield
    app.screens["setup"].pin.text = PIN
    app.screens["setup"].length.text = "11"  # room for every unsure throw the script waits for
    tap(find_button(app.root, "Maçı başlat"))
    yield
    play = app.screens["play"]
    session = controller.session
    assert session is not None
    for _ in range(8):
        tap(find_button(app.root, "Sim >"))
        yield
        if controller.last_shot is not None:
            break
    view = next(w for w in play.walk() if isinstance(w, CameraView))
    yield
    result["small_texture"] = list(view.texture.size) if view.texture is not None else None
    result["screens"]["c2-play-tr"] = shot(out, "c2-play-tr")
    tap(view)  # a tap enlarges it
    yield
    large = view.large
    result["large_open"] = large is not None
    result["large_texture"] = list(large.picture.texture.size) if large and large.picture.texture else None
    result["large_caption"] = large.caption.text if large else None
    settled = controller.last_shot
    result["large_asked"] = settled is not None and isinstance(settled.event, ev.ThrowQuestioned)
    result["screens"]["c3-large-tr"] = shot(out, "c3-large-tr")
    tap(on_top("Canlı kamera"))
    yield
    result["live_caption"] = large.caption.text if large else None
    result["screens"]["c3-live-tr"] = shot(out, "c3-live-tr")
    tap(on_top("Kapat"))
    yield
    result["large_closed"] = view.large is None and open_view(type(large)) is None
    yield from question(app, out, result, "tr")
    yield from unseen(app, out, result, "tr")
    yield from in_the_open(app, out, result, "tr")
    yield from director(app, out, result, "tr")
    for text in ("Geri", "Geçmiş", "Dışa aktar"):  # back to play, the history screen, the exports
        tap(find_button(app.root, text))
        yield
    result["exported"] = sorted(path.name for path in (out / "export").iterdir())
    tap(find_button(app.root, "Geri"))
    yield
    tap(find_button(app.root, "English"))
    yield
    view = next(w for w in app.screens["play"].walk() if isinstance(w, CameraView))
    result["screens"]["c2-play-en"] = shot(out, "c2-play-en")
    tap(view)
    yield
    result["large_caption_en"] = view.large.caption.text if view.large else None
    result["screens"]["c3-large-en"] = shot(out, "c3-large-en")
    tap(on_top("Close"))
    yield
    yield from question(app, out, result, "en")
    yield from unseen(app, out, result, "en")
    yield from in_the_open(app, out, result, "en")
    yield from director(app, out, result, "en")
    result["calibration"] = [list(c) for c in session.referee.calibration or ()]
    result["set_up_corners"] = [list(c) for c in camera.corners]
    result["camera_corners"] = [list(c) for c in camera.calibration.corners]
    result["journal"] = str(session.journal.path)


def question(app: TavlaApp, out: Path, result: dict[str, Any], language: str) -> Iterator[None]:
    """Play on until the camera is unsure; the panel shows the dice large; each player asked corrects it."""
    session = app.controller.session
    assert session is not None
    yield from until_question(app)
    if session.referee.stage is not Stage.QUESTION:
        result[f"question_{language}"] = None
        return
    yield
    panel = next(w for w in app.screens["play"].walk() if isinstance(w, QuestionPanel))
    pictures = [w for w in panel.walk() if type(w).__name__ == "Image" and w.texture is not None]
    result[f"question_{language}"] = {
        "panel_shown": panel.parent is not None and app.screens["play"].board.parent is None,
        "pictures": [list(p.texture.size) for p in pictures],
        "picture_heights": [p.height for p in pictures],
    }
    result["screens"][f"c4-question-{language}"] = shot(out, f"c4-question-{language}")
    yield from cocked_mark(app, panel, result, out, language)
    yield from corrected(app, (6, 2), language)  # the players read 6-2 on the pictures
    result[f"question_{language}"]["dice_after"] = list(session.referee.dice or ())
    result[f"question_{language}"]["board_back"] = app.screens["play"].board.parent is not None


def corrected(app: TavlaApp, dice: tuple[int, int], language: str) -> Iterator[None]:
    """Each player asked picks ``dice`` on the question panel and taps Correct."""
    session = app.controller.session
    assert session is not None
    correct = "Düzelt" if language == "tr" else "Correct"
    while session.referee.question is not None and not session.referee.question.disputed:
        panel = next(w for w in app.screens["play"].walk() if isinstance(w, QuestionPanel))
        for row, number in enumerate(dice):
            toggle = next(
                w
                for w in panel.walk()
                if isinstance(w, Button) and w.text == str(number) and getattr(w, "group", "") == f"question_die_{row}"
            )
            tap(toggle)
        yield
        tap(find_button(panel, correct))
        yield


class MissesADie:
    """The dice reader as it reads a throw whose second die its detector missed (the dull white 1 of held-out
    match 181): the next throw read with two dice keeps the first, and the other's place is a change of the
    board no die read explains, as ``DiceReader.read`` reports one."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.missed: DieReading | None = None

    def dice(self, *args: Any, **kwargs: Any) -> tuple[DieReading, ...]:
        return self.reader.dice(*args, **kwargs)

    def read(self, image: np.ndarray, calibration: Calibration | None = None, *args: Any, **kwargs: Any) -> Any:
        seen = self.reader.read(image, calibration, *args, **kwargs)
        if self.missed is not None or not seen.valid:
            return seen
        kept, self.missed = seen.dice[:1], seen.dice[1]
        verdict, reason = judge(kept, calibration is not None)
        return replace(seen, verdict=verdict, reason=reason, dice=kept, unread=(self.missed.box,))


def unseen(app: TavlaApp, out: Path, result: dict[str, Any], language: str) -> Iterator[None]:
    """A throw whose second die the camera missed: the question shows the die read and, beside it, where the
    board changed with no die read; the players read both dice on the board and correct the throw."""
    camera = sim_camera(app.controller)
    session = app.controller.session
    assert camera is not None and session is not None
    reader = camera.reader
    missing = camera.reader = MissesADie(reader)
    yield from until_asked(app, "die_unseen", language)
    camera.reader = reader
    question = session.referee.question
    if question is None or missing.missed is None:
        result[f"unseen_{language}"] = None
        return
    yield
    panel = next(w for w in app.screens["play"].walk() if isinstance(w, QuestionPanel))
    pictures = [w for w in panel.walk() if type(w).__name__ == "Image" and w.texture is not None]
    captions = [w.text for w in panel.walk() if type(w).__name__ == "Label"]
    missed = missing.missed.value
    result[f"unseen_{language}"] = {
        "doubts": list(question.doubts),
        "pictures": len(pictures),
        "picture_heights": [p.height for p in pictures],
        "unread_captions": captions.count(label("no_die_read_here", language)),
    }
    result["screens"][f"c7-unseen-{language}"] = shot(out, f"c7-unseen-{language}")
    first = camera.last.dice[0].value if camera.last is not None and camera.last.dice else None
    assert first is not None and missed is not None
    yield from corrected(app, (first, missed), language)  # the players read the missed die on the board
    result[f"unseen_{language}"]["dice_after"] = list(session.referee.dice or ())
    result[f"unseen_{language}"]["dice_thrown"] = sorted((first, missed), reverse=True)


class CallsAFlatDieCocked:
    """The dice reader as it reads a flat die its cocked look calls cocked where nothing could hold it up (held-out
    match 167's, at 0.94): the next valid throw with a die lying in the open, by where ``lying`` says the
    checkers are (where the station places them), has that die read cocked."""

    def __init__(self, reader: Reader, lying: Callable[[], Sequence[Checker]]) -> None:
        self.reader = reader
        self.lying = lying
        self.called: tuple[int, int] | None = None  # the dice as they lie, the one called cocked first

    def dice(self, *args: Any, **kwargs: Any) -> tuple[DieReading, ...]:
        return self.reader.dice(*args, **kwargs)

    def read(self, image: np.ndarray, calibration: Calibration | None = None, *args: Any, **kwargs: Any) -> Any:
        seen = self.reader.read(image, calibration, *args, **kwargs)
        if self.called is not None or not seen.valid or calibration is None:
            return seen
        for place, die in enumerate(seen.dice):
            others = seen.dice[:place] + seen.dice[place + 1 :]
            if die.value is not None and others[0].value is not None:
                if leans_on_nothing(die, others, calibration, self.lying()):
                    self.called = (die.value, others[0].value)
                    cocked = replace(die, cocked=True, confidence=0.94, cocked_probability=0.94)
                    dice = seen.dice[:place] + (cocked,) + seen.dice[place + 1 :]
                    verdict, reason = judge(dice, True)
                    return replace(seen, verdict=verdict, reason=reason, dice=dice)
        return seen


def in_the_open(app: TavlaApp, out: Path, result: dict[str, Any], language: str) -> Iterator[None]:
    """A flat die called cocked beyond doubt where no checker, die, frame or bar could hold it up: the players are
    asked rather than the throw voided; they read both dice on the board and the throw counts."""
    camera = sim_camera(app.controller)
    session = app.controller.session
    assert camera is not None and session is not None
    reader = camera.reader
    calls = camera.reader = CallsAFlatDieCocked(reader, lambda: where_checkers_lie(session.referee)[0])
    yield from until_asked(app, "leans_on_nothing", language)
    camera.reader = reader
    question = session.referee.question
    if question is None or calls.called is None or "leans_on_nothing" not in question.doubts:
        result[f"open_{language}"] = None
        return
    yield
    panel = next(w for w in app.screens["play"].walk() if isinstance(w, QuestionPanel))
    titles = [w.text for w in panel.walk() if type(w).__name__ == "Label" and "\n" in w.text]
    result[f"open_{language}"] = {
        "doubts": list(question.doubts),
        "void": question.void,
        "says_why": any(word("leans_on_nothing", language) in text for text in titles),
    }
    result["screens"][f"c8-open-{language}"] = shot(out, f"c8-open-{language}")
    yield from corrected(app, calls.called, language)  # the players see the die flat and give both values
    result[f"open_{language}"]["dice_after"] = list(session.referee.dice or ())
    result[f"open_{language}"]["dice_thrown"] = sorted(calls.called, reverse=True)


def until_asked(app: TavlaApp, doubt: str, language: str, tries: int = 8) -> Iterator[None]:
    """Play on until the camera asks about a throw for ``doubt``; another unsure throw may come first: the
    players call it again."""
    session = app.controller.session
    assert session is not None
    for _ in range(tries):
        yield from until_question(app)
        question = session.referee.question
        if question is None or doubt in question.doubts:
            return
        yield from called_again(app, language)


def called_again(app: TavlaApp, language: str) -> Iterator[None]:
    """Each player asked calls the unsure throw again."""
    session = app.controller.session
    assert session is not None
    rethrow = "Yeniden at" if language == "tr" else "Rethrow"
    while session.referee.question is not None and not session.referee.question.disputed:
        panel = next(w for w in app.screens["play"].walk() if isinstance(w, QuestionPanel))
        tap(find_button(panel, rethrow))
        yield


def cocked_mark(
    app: TavlaApp, panel: QuestionPanel, result: dict[str, Any], out: Path, language: str
) -> Iterator[None]:
    """A die marked cocked leaves only the rethrow to tap, and says so; a tap on Confirm then does nothing;
    clearing the mark gives the answers back."""
    session = app.controller.session
    assert session is not None
    mark = next(
        w
        for w in panel.walk()
        if isinstance(w, ToggleButton)
        and getattr(w, "group", "") == "question_mark_0"
        and w.text == label("die_cocked", language)
    )
    asked = result[f"question_{language}"]
    tap(mark)
    yield
    result["screens"][f"c4-question-cocked-{language}"] = shot(out, f"c4-question-cocked-{language}")
    asked["marked"] = {
        "confirm_disabled": panel.confirm.disabled,
        "correct_disabled": panel.correct.disabled,
        "hint": panel.hint.text if panel.hint.get_root_window() is not None else None,
    }
    tap(panel.confirm)
    yield
    assert session.referee.question is not None
    asked["marked"]["answers_after_confirm_tap"] = len(session.referee.question.answers)
    tap(mark)
    yield
    asked["cleared"] = {"confirm_disabled": panel.confirm.disabled, "hint_shown": panel.hint.parent is not None}


def director(app: TavlaApp, out: Path, result: dict[str, Any], language: str) -> Iterator[None]:
    """The director's screen with the fairness picture; the camera calibrated again by four taps and the PIN."""
    tr = language == "tr"
    tap(find_button(app.root, "Hakem" if tr else "Director"))
    yield
    screen = app.screens["director"]
    result["screens"][f"c5-director-{language}"] = shot(out, f"c5-director-{language}")
    result[f"fairness_{language}"] = list(screen.fairness.picture.texture.size)
    tap(find_button(app.root, "Kamerayı" if tr else "Calibrate"))
    yield
    view = open_view(RecalibrateView)
    camera = sim_camera(app.controller)
    assert view is not None and view.picker is not None and camera is not None
    for x, y in camera.corners:
        tap_at(view.picker, *view.picker.to_widget(x + SHIFT[0], y + SHIFT[1]))
        yield
    view.pin.text = "1111" if tr else PIN  # a wrong PIN first (in Turkish): refused, the view stays
    result["screens"][f"c6-recalibrate-{language}"] = shot(out, f"c6-recalibrate-{language}")
    tap(on_top("Kaydet" if tr else "Save"))
    yield
    if tr:
        result["wrong_pin"] = view.result.text
        result["still_open"] = open_view(RecalibrateView) is not None
        view.pin.text = PIN
        tap(on_top("Kaydet"))
        yield
    result[f"recalibrated_{language}"] = screen.result.text
    result[f"closed_{language}"] = open_view(RecalibrateView) is None


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {}
    controller = Controller(out, SimStation(), language="tr")
    app = TavlaApp(controller)
    return run(app, script(app, out, result), out, result)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
