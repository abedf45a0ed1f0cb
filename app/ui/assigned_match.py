"""The match the director assigned to this table, shown for its two players: event, round, board, the players,
length, time control and variant, and one "I am <name>" tap per player before it starts.

The players see exactly what the director's draw sent before anything is journaled; the two taps say the right
two people sit at the right board. The match then starts with that set-up unchanged (the controller's
:meth:`~app.ui.controller.Controller.claim`), and the app shows this screen whenever an assignment waits for them.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.utils import escape_markup

from app.net.station import Assignment
from app.referee.rulings import Level
from app.referee.setup import ClockSettings, Mode
from app.ui.labels import label, variant_label
from app.ui.sizes import sp
from app.ui.widgets import Banner, ScreensApp, TavlaScreen, button, inside, target
from rules.position import Color


def clock_text(clock: ClockSettings, length: int, language: str) -> str:
    """The time control as a player reads it: per point when the reserve is a whole number of minutes a point."""
    if clock.reserve_s <= 0:
        return label("no_clock", language)
    total = f"{clock.reserve_s / 60:g}"
    if length > 0 and clock.reserve_s % (length * 60) == 0:
        per = clock.reserve_s // (length * 60)
        return label("clock_per_point", language).format(per=per, total=total, delay=clock.delay_s)
    return label("clock_total", language).format(total=total, delay=clock.delay_s)


def assignment_facts(assignment: Assignment, language: str) -> list[tuple[str, str]]:
    """(name, value) of every fact of the assigned match the players check before they confirm."""
    setup = assignment.setup
    length = label("points_n", language).format(n=setup.length) if setup.length else label("money", language)
    mode = label("tournament" if setup.mode is Mode.TOURNAMENT else "casual", language)
    return [
        (label("event", language), setup.event or "-"),
        (label("round", language), setup.round or "-"),
        (label("table", language), setup.table or "-"),
        (label("match_length", language), length),
        (label("time_control", language), clock_text(setup.clock, setup.length, language)),
        (label("variant", language), f"{variant_label(setup.variant, language)}  ({mode})"),
    ]


class AssignedMatchScreen(TavlaScreen):
    def __init__(self, app: ScreensApp, **kwargs: Any) -> None:
        super().__init__(app, name="assigned", **kwargs)
        self.build()

    def build(self) -> None:
        kept = getattr(self, "pin", None)  # a rebuild (the language switched) keeps the PIN typed
        pin = kept.text if isinstance(kept, TextInput) else self.controller.station_pin
        self.clear_widgets()
        self.shown: tuple[Assignment | None, frozenset[Color], str] | None = None
        root = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(8))
        heading = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(12))
        heading.add_widget(Label(text=self.t("assigned_title"), font_size=sp(34), bold=True, size_hint_x=2.4))
        heading.add_widget(button(self.t("language"), self.app.toggle_language, height=dp(60)))
        root.add_widget(heading)
        self.facts = BoxLayout(orientation="vertical", spacing=dp(2))
        root.add_widget(self.facts)
        self.players = BoxLayout(spacing=dp(16), size_hint_y=None, height=dp(150))
        root.add_widget(self.players)
        row = BoxLayout(spacing=dp(12), size_hint_y=None, height=dp(56))
        row.add_widget(Label(text=self.t("pin"), font_size=sp(24), size_hint_x=0.5))
        self.pin = TextInput(text=pin, font_size=sp(26), multiline=False, password=True)
        row.add_widget(self.pin)
        row.add_widget(Label(text="", size_hint_x=0.5))
        root.add_widget(row)
        self.status = Banner(size_hint_y=None, height=dp(72))
        root.add_widget(self.status)
        self.add_widget(root)
        self.refresh()

    def refresh(self) -> None:
        assignment = self.controller.assignment()
        if assignment is None:
            return
        claimed = frozenset(self.controller.claimed)
        key = (assignment, claimed, self.controller.language)
        if key == self.shown:
            return  # the name buttons stay put while nothing changed (a tap never lands on a new one)
        self.shown = key
        if not self.pin.text:
            self.pin.text = self.controller.station_pin  # typed on the set-up screen meanwhile
        language = self.controller.language
        self.facts.clear_widgets()
        for name, value in assignment_facts(assignment, language):
            line = Label(
                text=f"[b]{escape_markup(name)}:[/b]  {escape_markup(value)}",
                markup=True,
                font_size=sp(26),
                halign="left",
                valign="middle",
            )
            line.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
            self.facts.add_widget(line)
        self.players.clear_widgets()
        names = assignment.setup.players
        for color, name in zip(Color, names):
            side = BoxLayout(orientation="vertical", spacing=dp(6))
            title = Label(text=escape_markup(name), markup=True, font_size=sp(36), bold=True, shorten=True)
            title.halign, title.valign = "center", "middle"
            title.bind(size=lambda widget, *_: setattr(widget, "text_size", (widget.width - dp(12), None)))
            side.add_widget(title)
            if color in claimed:
                done = button(self.t("claimed_by").format(player=name), lambda: None, height=target())
                done.disabled = True
                side.add_widget(inside(done))
            else:
                side.add_widget(inside(button(self.t("i_am").format(player=name), partial(self.claim, color))))
            self.players.add_widget(side)
        if len(claimed) == 1:
            here = names[0] if Color.WHITE in claimed else names[1]
            other = names[1] if Color.WHITE in claimed else names[0]
            self.status.set(self.t("claim_other").format(player=here, other=other), Level.INFO)
        else:
            self.status.set(self.t("claim_each"), Level.INFO)

    def claim(self, color: Color) -> None:
        """One player's tap on their own name; the second starts the match and shows the play screen."""
        problem = self.controller.claim(color, self.pin.text.strip())
        if problem is not None:
            self.shown = None
            self.refresh()
            self.status.set(problem, Level.WARNING)
            return
        if self.controller.session is not None and self.controller.assignment() is None:
            self.app.show("play")
            return
        self.refresh()
