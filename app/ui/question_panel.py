"""The unsure throw's question on the play screen: each die's picture large, with its reading, above the answers
(confirm, correct the dice, call a rethrow), and under each picture what people say that die is when it is no
plain value: cocked, or not a die at all.

While the camera's call waits for people nobody moves a checker, so the panel takes the board's place and gives
it back once the question is answered. A player confirms what they can see for themselves, not a number.
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image as KivyImage
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from app.referee import events as ev
from app.referee.engine import Referee, Stage
from app.referee.i18n import word
from app.referee.state import Question
from app.table.dice import Image, sureness_for
from app.ui.controller import Controller
from app.ui.labels import label
from app.ui.sizes import lines as text_lines
from app.ui.sizes import sp
from app.ui.widgets import button, square, target, texture_of
from vision import DieReading
from vision.sureness import TOURNAMENT, die_doubts

CROP_PX = 240
"""Each die's picture, in screen pixels: large enough to count the pips from the players' chairs."""
MARK_ROW = dp(48)  # the row under a die's picture (its marks), and the space under an unread part's
UNREAD_SHOWN = 2
"""At most this many parts of the board where no die was read are shown beside the dice (a throw has two)."""
TITLE = dp(52)  # the question's title: two lines (more when the doubts need them)


def die_reading(die: DieReading, language: str) -> str:
    """What the reader made of one die: its value (or that it could not be read), cocked, how sure."""
    text = "?" if die.value is None else str(die.value)
    if die.cocked:
        text += f" ({word('cocked', language)})"
    return f"{text}   {die.confidence:.0%}"


def die_caption(die: DieReading, doubts: tuple[str, ...], language: str) -> str:
    """Under a die of an unsure throw: its value (or "?") and, in words, what the reader doubts about this die
    (hard to read, maybe cocked, near the bar...), or that it read it surely: people judge a die by what is
    wrong with it, which a percentage does not say."""
    text = "?" if die.value is None else str(die.value)
    if die.cocked:
        text += f" ({word('cocked', language)})"
    words = [label(f"die_doubt_{doubt}", language) for doubt in doubts] or [label("die_sure", language)]
    return f"{text}\n[size={int(sp(15))}]{escape_markup(', '.join(words))}[/size]"


def dice_pictures(crops: list[Image], captions: list[str], row: BoxLayout | None = None, lines: int = 1) -> BoxLayout:
    """Each die's picture large, side by side, with its caption (the reading, on ``lines`` lines) under it."""
    row = row if row is not None else BoxLayout(spacing=dp(12))
    for crop, caption in zip(crops, captions):
        column = BoxLayout(orientation="vertical", spacing=dp(4))
        column.add_widget(KivyImage(texture=texture_of(square(crop, CROP_PX)), fit_mode="contain"))
        text = Label(
            text=caption,
            markup=True,
            font_size=sp(28) if lines == 1 else sp(22),
            bold=True,
            halign="center",
            valign="middle",
            size_hint_y=None,
            height=max(dp(40), text_lines(sp(28))) if lines == 1 else max(dp(54), text_lines(sp(22), 2)),
        )
        text.bind(width=lambda widget, width: setattr(widget, "text_size", (width, None)))
        column.add_widget(text)
        row.add_widget(column)
    return row


class QuestionPanel(BoxLayout):
    """Shown in the board's place while an unsure throw waits; ``act`` sends the answer as an event."""

    def __init__(self, controller: Controller, board: Widget, act: Callable[[ev.Event], None], **kwargs: Any):
        super().__init__(orientation="vertical", spacing=dp(8), padding=dp(6), **kwargs)
        self.controller = controller
        self.board = board
        self.act = act
        self.size_hint_x = board.size_hint_x
        self.shown: tuple[int, str] = (-1, "")
        self.picked: list[int | None] = [None, None]
        self.marked: dict[int, str] = {}
        """What people marked a found die as, by its place among the pictures: "cocked" or "not_a_die"."""
        self.hint = Label(font_size=sp(18), color=(1, 0.75, 0.2, 1), size_hint_y=None, height=dp(28))
        """Under the answers only while a die is marked cocked: the pictures keep their room otherwise."""

    def t(self, key: str) -> str:
        return label(key, self.controller.language)

    def update(self, referee: Referee) -> None:
        """Take the board's place while a question waits, give it back after; rebuilt when something changed."""
        question = referee.question if referee.stage is Stage.QUESTION else None
        holder = self.parent if self.parent is not None else self.board.parent
        if holder is None:
            return
        if question is None or referee.to_act is None:
            if self.parent is not None:
                index = holder.children.index(self)
                holder.remove_widget(self)
                holder.add_widget(self.board, index=index)
            return
        if self.parent is None:
            index = holder.children.index(self.board)
            holder.remove_widget(self.board)
            holder.add_widget(self, index=index)
        key = (referee.events, self.controller.language)
        if key != self.shown:
            self.shown = key
            self.build(referee, question)

    def build(self, referee: Referee, question: Question) -> None:
        self.clear_widgets()
        to_act = referee.to_act
        assert to_act is not None
        names = referee.side_names()
        doubts = ", ".join(word(d, self.controller.language) for d in question.doubts)
        shot = self.controller.last_shot
        threw = shot.thrower if shot is not None and shot.thrower is not None else referee.mover
        thrower = self.t("throw_of").format(player=names[threw])  # whose dice these are, said first
        title = Label(
            text=f"{thrower} - {self.t('question_title')} ({doubts})\n{names[to_act]}: {self.t('question_answer')}",
            font_size=sp(19),
            halign="center",
            valign="middle",
            size_hint_y=None,
            height=TITLE,
        )
        # two doubts, or a long one, take a third line: the title grows rather than cut its first line off
        title.bind(width=lambda widget, width: setattr(widget, "text_size", (width, None)))
        title.bind(texture_size=lambda widget, size: setattr(widget, "height", max(TITLE, size[1])))
        self.add_widget(title)
        self.add_widget(self.pictures(question))
        values = question.values or (None, None)
        self.picked = list(values)
        self.marked = {}
        for row, value in enumerate(values):
            self.add_widget(self.die_row(row, value, question.opening))
        answers = BoxLayout(spacing=dp(8), size_hint_y=None, height=target())
        self.confirm = button(
            self.t("confirm_dice"), lambda: self.act(ev.ThrowConfirmed(to_act, self.marks("not_a_die")))
        )
        answers.add_widget(self.confirm)
        self.correct = button(self.t("correct"), lambda: self.send_correction(to_act))
        answers.add_widget(self.correct)
        answers.add_widget(button(self.t("rethrow"), lambda: self.send_rethrow(to_act)))
        self.add_widget(answers)
        self.hint.text = self.t("cocked_means_rethrow")
        self.show_correction()

    def pictures(self, question: Question) -> Widget:
        """Each die's crop from the settled picture, large, with its reading under it; when a die may lie where
        none was read (``die_unseen``), the parts of the board the throw changed there too, so people look where
        the camera could not read."""
        row = BoxLayout(spacing=dp(12))
        shot = self.controller.last_shot
        if shot is None or not isinstance(shot.event, ev.ThrowQuestioned) or not shot.dice:
            row.add_widget(Label(text=self.t("no_camera_crop"), font_size=sp(22)))  # a resumed match: no picture
            return row
        session = self.controller.session
        sureness = sureness_for(session.referee) if session is not None else TOURNAMENT
        shape = shot.image.shape if shot.image is not None else None
        readings = [
            die_caption(die, die_doubts(die, shot.calibration, shape, sureness), self.controller.language)
            for die in shot.dice
        ]
        dice_pictures(shot.crops(), readings, row, lines=2)
        for place, column in enumerate(reversed(row.children)):  # Kivy keeps the last added first
            column.add_widget(self.mark_row(place))
        if "die_unseen" in question.doubts:
            unread = shot.unread_crops()[:UNREAD_SHOWN]
            dice_pictures(unread, [self.t("no_die_read_here")] * len(unread), row, lines=2)
            for column in row.children[: len(unread)]:  # the columns added last
                column.add_widget(Widget(size_hint_y=None, height=MARK_ROW))  # level with the dice's mark rows
        return row

    def mark_row(self, place: int) -> Widget:
        """Under a die's picture: mark it cocked (with a rethrow) or struck out as not a die, so the match dice
        are learned from what people say it is."""
        line = BoxLayout(spacing=dp(4), size_hint_y=None, height=MARK_ROW)
        for mark in ("die_cocked", "not_a_die"):
            toggle = ToggleButton(text=self.t(mark), group=f"question_mark_{place}", font_size=sp(18))
            toggle.bind(state=lambda widget, state, mark=mark: self.mark(place, mark, state == "down"))
            line.add_widget(toggle)
        return line

    def mark(self, place: int, mark: str, down: bool) -> None:
        if down:
            self.marked[place] = mark
        elif self.marked.get(place) == mark:
            del self.marked[place]
        self.show_answers()

    def marks(self, mark: str) -> tuple[int, ...]:
        """The places of the found dice marked so."""
        return tuple(sorted(place for place, marked in self.marked.items() if marked == mark))

    def die_row(self, row: int, value: int | None, opening: bool) -> Widget:
        """Six buttons to correct one die (the reading chosen to start with)."""
        line = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(64))
        name = ("white_die", "black_die")[row] if opening else ("die_1", "die_2")[row]
        line.add_widget(Label(text=self.t(name), font_size=sp(20), size_hint_x=1.4))
        for number in range(1, 7):
            toggle = ToggleButton(
                text=str(number),
                group=f"question_die_{row}",
                state="down" if number == value else "normal",
                font_size=sp(28),
                allow_no_selection=False,
            )
            toggle.bind(on_release=lambda *_, number=number: self.pick(row, number))
            line.add_widget(toggle)
        return line

    def pick(self, row: int, number: int) -> None:
        self.picked[row] = number
        self.show_correction()

    def show_correction(self) -> None:
        first, second = self.picked
        dice = f" {first}-{second}" if first is not None and second is not None else ""
        self.correct.text = f"{self.t('correct')}{dice}"
        self.show_answers()

    def show_answers(self) -> None:
        """Only the answers that fit what is marked can be tapped, and the line under them says why: a die
        marked cocked voids the throw (so only a rethrow keeps the mark); a correction needs both dice (the
        button shows them once chosen)."""
        cocked = bool(self.marks("die_cocked"))
        missing = None in self.picked
        self.confirm.disabled = cocked
        self.correct.disabled = cocked or missing
        if cocked and self.hint.parent is None:
            self.add_widget(self.hint)
        elif not cocked and self.hint.parent is not None:
            self.remove_widget(self.hint)

    def send_correction(self, by: Any) -> None:
        first, second = self.picked
        if first is None or second is None:
            return
        self.act(ev.ThrowCorrected(by, (first, second), self.marks("not_a_die")))

    def send_rethrow(self, by: Any) -> None:
        self.act(ev.RethrowCalled(by, self.marks("die_cocked"), self.marks("not_a_die")))
