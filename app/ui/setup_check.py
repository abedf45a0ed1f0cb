"""The camera check on the set-up screen: the same check as ``python -m vision check-setup``, on the camera's
picture now, with a good / borderline / not good enough verdict and what to change, in Turkish or English.

A director finds out before the match, not after an evening of voided throws, that the camera is too low, out
of focus or in the dark.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color as GColor
from kivy.graphics import Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from app.ui.controller import Controller
from app.ui.labels import label
from app.ui.sizes import sp
from app.ui.widgets import TapButton, button, target
from vision.setupcheck import Check, Grade, SetupReport

GRADE_COLOURS = {
    Grade.GOOD: (0.10, 0.55, 0.20),
    Grade.BORDERLINE: (0.85, 0.55, 0.05),
    Grade.NOT_GOOD: (0.75, 0.10, 0.10),
}
GRADE_KEYS = {Grade.GOOD: "grade_good", Grade.BORDERLINE: "grade_borderline", Grade.NOT_GOOD: "grade_not_good"}


def check_name(check: Check, language: str) -> str:
    return label("check_" + check.name.replace(" ", "_"), language)


def advice(check: Check, language: str) -> str:
    """What to change for one check: vision's own words in English, the same advice in Turkish."""
    if not check.advice or language == "en":
        return check.advice
    key = "advice_" + check.name.replace(" ", "_")
    if check.name == "board":  # not found, or partly outside the picture
        key += "_missing" if check.grade is Grade.NOT_GOOD else "_partly"
    return label(key, language)


def shout(text: str, language: str) -> str:
    """Capitals, the Turkish way in Turkish (i -> İ, ı -> I)."""
    return (text.replace("i", "İ") if language == "tr" else text).upper()


def report_lines(report: SetupReport, language: str) -> list[str]:
    """Each check with its grade (and, in English, what was measured), then what to change, worst first."""
    lines = []
    for check in report.checks:
        measured = f" ({check.measured})" if language == "en" else ""
        lines.append(f"{check_name(check, language)}: {label(GRADE_KEYS[check.grade], language)}{measured}")
    worst_first = sorted(report.checks, key=lambda c: -c.grade)
    lines += [f"-> {advice(check, language)}" for check in worst_first if check.advice]
    return lines


class SetupCheckButton(TapButton):
    """ "Check the camera": runs the check, shows its verdict on the button and the details in a large view."""

    def __init__(self, controller: Controller, **kwargs: Any) -> None:
        super().__init__(
            text=label("check_setup", controller.language),
            font_size=sp(22),
            size_hint_y=None,
            height=target(),
            halign="center",
            **kwargs,
        )
        self.controller = controller
        self.report: SetupReport | None = None
        self.popup: ModalView | None = None

    def on_release(self) -> None:
        self.run()

    def run(self) -> SetupReport:
        language = self.controller.language
        report = self.report = self.controller.check_camera()
        self.text = f"{label('check_setup', language)}: {label(GRADE_KEYS[report.grade], language)}"
        self.background_normal = ""  # a flat colour: the verdict's own, not darkened by the button's grey
        self.background_color = (*GRADE_COLOURS[report.grade], 1)
        self.popup = ReportView(report, language)
        self.popup.open()
        return report


class ReportView(ModalView):
    """The whole report, large: the verdict in its colour, every check, what to change."""

    def __init__(self, report: SetupReport, language: str, **kwargs: Any) -> None:
        super().__init__(size_hint=(0.9, 0.9), auto_dismiss=False, **kwargs)
        root = BoxLayout(orientation="vertical", spacing=dp(10), padding=dp(12))
        self.verdict = Label(
            text=f"{label('camera_setup', language)}: {shout(label(GRADE_KEYS[report.grade], language), language)}",
            font_size=sp(32),
            bold=True,
            size_hint_y=None,
            height=dp(70),
        )
        colour = GRADE_COLOURS[report.grade]
        with self.verdict.canvas.before:
            GColor(*colour)
            self._band = Rectangle()
        self.verdict.bind(pos=self._paint, size=self._paint)
        root.add_widget(self.verdict)
        self.details = Label(
            text="\n".join(report_lines(report, language)), font_size=sp(21), halign="left", valign="top"
        )
        self.details.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        root.add_widget(self.details)
        root.add_widget(button(label("close", language), lambda: self.dismiss(animation=False)))
        self.add_widget(root)

    def _paint(self, *_: Any) -> None:
        self._band.pos, self._band.size = self.verdict.pos, self.verdict.size
