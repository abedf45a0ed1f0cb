"""The learning step before the match: the match dice thrown about ten times, each settled throw shown with its
dice large (as the unsure throw's question shows them), and the players saying what each die shows.

The reader is told the truth about this pair of dice under this lamp before the first game, not after a
misread; each confirmation is learned at once and kept in the station's data folder under the set's name.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from app.table.learning import LEARNING_THROWS, PracticeThrow
from app.ui.question_panel import dice_pictures, die_reading
from app.ui.sizes import sp
from app.ui.widgets import ScreensApp, TavlaScreen, button, target


class LearnScreen(TavlaScreen):
    def __init__(self, app: ScreensApp, **kwargs: Any) -> None:
        super().__init__(app, name="learn", **kwargs)
        self.shown: PracticeThrow | None = None
        self.drawn = False
        self.picked: list[int | None] = []
        self.build()

    def build(self) -> None:
        self.clear_widgets()
        self.drawn = False
        root = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(8))
        root.add_widget(Label(text=self.t("learn_title"), font_size=sp(34), size_hint_y=None, height=dp(50)))
        top = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(56))
        top.add_widget(Label(text=self.t("dice_set"), font_size=sp(24), size_hint_x=0.5))
        self.set_name = TextInput(
            text=self.controller.match_dice.name,
            hint_text=self.t("dice_set_hint"),
            font_size=sp(24),
            multiline=False,
        )
        top.add_widget(self.set_name)
        top.add_widget(button(self.t("learn_begin"), self.begin, font_size=sp(22), size_hint_x=0.6, height=dp(56)))
        root.add_widget(top)
        self.status = Label(text="", font_size=sp(22), size_hint_y=None, height=dp(36))
        root.add_widget(self.status)
        self.hint = Label(
            text=self.t("learn_hint"), font_size=sp(20), halign="center", valign="middle", size_hint_y=None
        )
        self.hint.height = dp(56)
        self.hint.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        root.add_widget(self.hint)
        self.panel = BoxLayout(orientation="vertical", spacing=dp(6))
        root.add_widget(self.panel)
        self.error = Label(text="", font_size=sp(20), color=(1, 0.4, 0.4, 1), size_hint_y=None, height=dp(30))
        root.add_widget(self.error)
        bar = BoxLayout(spacing=dp(12), size_hint_y=None, height=target())
        bar.add_widget(button(self.t("language"), self.app.toggle_language))
        if self.controller.sim:
            bar.add_widget(button(self.t("sim_throw"), self.sim_throw))
        self.skip = button(self.t("learn_skip"), self.skip_throw)
        bar.add_widget(self.skip)
        self.confirm = button(self.t("learn_confirm"), self.confirm_throw)
        bar.add_widget(self.confirm)
        bar.add_widget(button(self.t("learn_done"), self.done))
        root.add_widget(bar)
        self.add_widget(root)
        self.refresh()

    def begin(self) -> None:
        """Use (or start) the dice set named: throws are read for it from now on."""
        if not self.set_name.text.strip():
            self.error.text = self.t("learn_choose")
            return
        self.error.text = self.controller.learn_dice(self.set_name.text) or ""
        self.refresh()

    def sim_throw(self) -> None:
        if self.controller.match_dice.profile is None:
            self.error.text = self.t("learn_choose")
            return
        self.controller.sim_practice()
        self.refresh()

    def skip_throw(self) -> None:
        self.controller.skip_practice()
        self.refresh()

    def confirm_throw(self) -> None:
        """The players' word on each die: learned at once, then the next throw."""
        if self.controller.practice is None:
            return
        problem = self.controller.confirm_practice(list(self.picked))
        self.error.text = problem or self.controller.photos_warning()  # the dice were learned all the same
        self.refresh()

    def done(self) -> None:
        self.controller.skip_practice()
        self.app.show("setup")

    def refresh(self) -> None:
        dice = self.controller.match_dice
        learned = f"{self.controller.practiced}/{LEARNING_THROWS} {self.t('learned')}"
        self.status.text = f"{dice.name or '-'}: {learned}, {dice.confirmed} {self.t('confirmed_dice')}"
        throw = self.controller.practice
        self.confirm.disabled = throw is None or not throw.dice
        self.skip.disabled = throw is None
        if not self.drawn or throw is not self.shown:
            self.shown, self.drawn = throw, True
            self.show(throw)

    def show(self, throw: PracticeThrow | None) -> None:
        """The throw's dice large, each with its reading and a row to say what it shows."""
        self.panel.clear_widgets()
        if throw is None or not throw.dice:
            text = self.t("learn_wait") if throw is None else self.t("learn_no_dice")
            self.panel.add_widget(Label(text=text, font_size=sp(26)))
            self.picked = []
            return
        language = self.controller.language
        self.panel.add_widget(dice_pictures(throw.crops(), [die_reading(die, language) for die in throw.dice]))
        self.picked = throw.proposed()
        for row, value in enumerate(self.picked):
            self.panel.add_widget(self.die_row(row, value))

    def die_row(self, row: int, value: int | None) -> Widget:
        """Six values and "not a die" for one die found (its reading chosen to start with)."""
        line = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(60))
        line.add_widget(Label(text=self.t("die_n").format(n=row + 1), font_size=sp(20), size_hint_x=1.0))
        choices: list[int | None] = [1, 2, 3, 4, 5, 6, None]
        for choice in choices:
            toggle = ToggleButton(
                text=str(choice) if choice is not None else self.t("not_a_die"),
                group=f"learn_die_{row}",
                state="down" if choice == value else "normal",
                font_size=sp(26) if choice is not None else sp(20),
                size_hint_x=1.0 if choice is not None else 2.0,
                allow_no_selection=False,
            )
            toggle.bind(on_release=lambda *_, choice=choice: self.pick(row, choice))
            line.add_widget(toggle)
        return line

    def pick(self, row: int, choice: int | None) -> None:
        self.picked[row] = choice
