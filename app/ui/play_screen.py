"""The play screen: the board, the dice as read beside the camera's crops, the clock, the score, the ruling
banner and every tap a player may make (cube, resignation, the choice after an illegal play, chouette cubes)."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Sequence

from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.utils import escape_markup

from app.referee import events as ev
from app.referee.engine import Referee, Stage, offers
from app.referee.i18n import word
from app.referee.rulings import Level
from app.table.dice import Shot
from app.ui.board import BoardWidget, CubeView
from app.ui.camera_view import CameraView
from app.ui.play_choices import PlayChoices
from app.ui.question_panel import QuestionPanel
from app.ui.sizes import lines as text_lines
from app.ui.sizes import sp
from app.ui.slots import place
from app.ui.widgets import (
    Banner,
    Card,
    ScreensApp,
    TavlaScreen,
    Widget_spacer,
    button,
    confirm_button,
    portrait,
    target,
)
from rules.chouette import MemberCube
from rules.position import Color

LEGAL_SHOWN = 8
"""Legal plays listed in casual mode (the rest counted)."""


class PlayScreen(TavlaScreen):
    def __init__(self, app: ScreensApp, **kwargs: Any) -> None:
        super().__init__(app, name="play", **kwargs)
        self.build()

    def build(self) -> None:
        self.clear_widgets()
        upright = portrait()  # a tablet held upright: the score above its buttons, the board above the rest
        root = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(6))
        nav = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(8))
        self.score = Label(text="", markup=True, font_size=sp(30), size_hint_x=2.6, halign="left", valign="middle")
        self.score.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        if upright:
            self.score.size_hint, self.score.height = (1, None), dp(60)
            root.add_widget(self.score)
        else:
            nav.add_widget(self.score)
        for key in ("director", "history"):
            nav.add_widget(button(self.t(key), partial(self.app.show, key), height=dp(60)))
        nav.add_widget(button(self.t("language"), self.app.toggle_language, height=dp(60)))
        root.add_widget(nav)
        self.strip = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(0))
        """A chouette's people: the box and each member with its cube, ledger and cube buttons."""
        self.strip_shown: tuple[int, str] = (-1, "")
        root.add_widget(self.strip)
        middle = BoxLayout(spacing=dp(8), orientation="vertical" if upright else "horizontal")
        self.board = BoardWidget(size_hint_x=1 if upright else 0.6)
        middle.add_widget(self.board)
        self.question = QuestionPanel(self.controller, self.board, self.act)  # in the board's place while asked
        side = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_x=1 if upright else 0.4)
        if upright:  # as tall as what it holds; the board takes the rest
            side.size_hint_y = None
            side.bind(minimum_height=side.setter("height"))
        self.turn = Label(text="", font_size=sp(26), bold=True, halign="center", valign="middle")
        self.turn.bind(size=lambda widget, *_: setattr(widget, "text_size", (widget.width - dp(8), None)))
        self.turn.size_hint_y, self.turn.height = None, dp(64)
        side.add_widget(self.turn)
        clocks = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(128))
        self.clock_buttons = []
        for color in (Color.WHITE, Color.BLACK):
            clock = Button(
                text="", markup=True, font_size=sp(22), halign="center", background_normal="", background_down=""
            )
            clock.bind(on_release=lambda *_, color=color: self.press(color))
            clocks.add_widget(clock)
            self.clock_buttons.append(clock)
        side.add_widget(clocks)
        self.clocks_box = clocks
        read_lines = text_lines(sp(15), 2)  # the dice as read: two lines under the camera's picture
        detail = BoxLayout(spacing=dp(6), size_hint_y=None, height=max(dp(96), read_lines + dp(40)))
        self.info = Label(text="", font_size=sp(18), halign="left", valign="top", size_hint_x=0.62)
        self.info.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        detail.add_widget(self.info)
        dice = BoxLayout(orientation="vertical", size_hint_x=0.38)
        self.dice_picture = CameraView(self.controller)
        self.dice_text = Label(
            text=self.t("no_camera_crop"),
            font_size=sp(15),
            halign="center",
            valign="middle",
            size_hint_y=None,
            height=read_lines,
        )
        self.dice_text.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        dice.add_widget(self.dice_picture)
        dice.add_widget(self.dice_text)
        detail.add_widget(dice)
        side.add_widget(detail)
        self.dice_box = detail
        self.shot_shown: Shot | None = None
        self.actions_shown: tuple[int, list[str]] = (-1, [])
        self.slots_shown: list[str | None] = []
        self.actions = GridLayout(cols=2, spacing=dp(6), size_hint_y=None)
        self.actions.bind(minimum_height=self.actions.setter("height"))
        side.add_widget(self.actions)
        # a play the camera asks: its candidates in the camera crop's place
        self.choices = PlayChoices(self.controller, detail, self.app.refresh, self.type_play, upright)
        side.add_widget(self.choices)
        entry = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(60))
        self.entry = TextInput(text="", hint_text="8/5 6/5  |  5-3", font_size=sp(24), multiline=False)
        entry.add_widget(self.entry)
        entry.add_widget(button(self.t("enter"), self.enter, size_hint_x=0.5, height=dp(60)))
        side.add_widget(entry)
        if not upright:
            side.add_widget(Widget_spacer())
        middle.add_widget(side)
        root.add_widget(middle)
        self.banner = Banner(size_hint_y=None, height=dp(128) if upright else dp(96))  # upright: three lines
        root.add_widget(self.banner)
        self.add_widget(root)
        self.result_offered: object = None

    def press(self, color: Color) -> None:
        self.controller.press_clock(int(color))
        self.app.refresh()

    def act(self, event: ev.Event) -> None:
        self.controller.send(event)
        self.app.refresh()

    def type_play(self) -> None:
        """The typed-play entry, ready for a play the camera did not offer."""
        self.entry.focus = True

    def enter(self) -> None:
        text = self.entry.text.strip()
        self.entry.text = ""
        if not text:
            return
        parts = text.replace("-", " ").split()
        if len(parts) == 2 and all(p.isdigit() and len(p) == 1 for p in parts):
            dice = (int(parts[0]), int(parts[1]))
            session = self.controller.session
            to_act = session.referee.to_act if session is not None else None
            asked = session is not None and session.referee.stage is Stage.QUESTION and to_act is not None
            self.act(ev.ThrowCorrected(to_act, dice) if asked and to_act is not None else ev.ManualDice(dice))
        else:
            self.act(ev.ManualPlay(text))

    def sim_next(self) -> None:
        self.controller.sim_step()
        self.app.refresh()

    def refresh(self) -> None:
        session = self.controller.session
        if session is None:
            return
        referee = session.referee
        match = referee.match
        names = referee.side_names()
        cube: CubeView | None = None
        if referee.chouette is not None:
            game = referee.chouette.game
            self.score.text = (
                f"{self.t('chouette')} #{referee.game_number}   {self.t('box')}: {escape_markup(game.box)}   "
                f"{self.t('captain')}: {escape_markup(game.acting_captain or game.captain)}"
            )
            self.show_chouette(referee)
        else:
            length = self.t("match_to").format(length=match.length) if match.length else self.t("money")
            crawford = f"  [{self.t('crawford')}]" if match.is_crawford else ""
            self.score.text = (
                f"[b]{escape_markup(names[0])}  {match.score[0]} - {match.score[1]}  {escape_markup(names[1])}[/b]"
                f"[size={int(sp(20))}]    {length}{escape_markup(crawford)}[/size]"
            )
            match_cube = match.game.cube
            cube = CubeView(match_cube.value, match_cube.owner, match_cube.offered_by)
        self.board.show(referee.position, referee.last_play, referee.numbers, cube)
        self.turn.text = self.expected(referee, names)
        self.turn.color = (1, 0.85, 0.3, 1) if referee.stage in (Stage.QUESTION, Stage.ILLEGAL) else (1, 1, 1, 1)
        self.question.update(referee)
        self.choices.update()
        self.dice_picture.refresh()
        if referee.chouette is not None and referee.stage is Stage.DOUBLE:  # each doubled member answers
            members = offers(referee.chouette.game)
            self.turn.text = f"{self.t('waiting')}: {', '.join(members)}"
        lines = []
        waiting = self.controller.waiting  # the director's next match for this table, after this one
        if waiting is not None:
            white, black = waiting.setup.players
            lines.append(f"{self.t('next_match')}: {white} - {black} ({waiting.setup.round or '-'})")
        aids = referee.aids()  # casual mode: the pip counts go on the clocks, beside each player's name
        if aids is not None:
            if aids.shots:
                lines.append(f"{self.t('shots')}: {aids.shots}")
            if aids.legal_plays:  # all of them, or as many as fit with how many more there are
                lines.append(self.legal_line(aids.legal_plays, lines))
        self.info.text = "\n".join(lines)
        self.show_shot(self.controller.last_shot)
        self.show_clocks(referee, names, aids.pips if aids is not None else None)
        actions = self._actions(referee.stage, referee.to_act)
        key = (referee.events, [text for text, _, _ in actions])
        if key != self.actions_shown:  # rebuilt only when they change: a tap never lands on a vanishing button
            self.actions_shown = key
            slots = place(actions, self.slots_shown)
            self.slots_shown = [None if slot is None else slot[0] for slot in slots]
            self.actions.clear_widgets()
            for slot in slots:
                if slot is None:
                    self.actions.add_widget(Label(text="", size_hint_y=None, height=target()))
                    continue
                text, handler, consequential = slot
                self.actions.add_widget(
                    confirm_button(text, self.t("sure"), handler, font_size=sp(22))
                    if consequential
                    else button(text, handler, font_size=sp(22))
                )
        banner = self.controller.banner
        if banner is not None:
            self.banner.set(self.controller.text(banner), banner.level)
        elif match.over:
            self.banner.set(self.t("over"), Level.OK)
        if match.over and referee.chouette is None and self.result_offered is not session:
            self.result_offered = session  # the result sheet comes up once by itself when the match ends
            self.app.show("result")

    def legal_line(self, plays: Sequence[str], above: list[str]) -> str:
        """The legal plays, as many as fit under the lines ``above`` in the aids' box (at most
        :data:`LEGAL_SHOWN`), and how many more there are: a play cut off in the middle tells nothing."""
        total = len(plays)
        text = ""
        for shown in range(min(LEGAL_SHOWN, total), 0, -1):
            more = f" (+{total - shown})" if total > shown else ""
            text = f"{self.t('legal')} ({total}): {', '.join(plays[:shown])}{more}"
            core = CoreLabel(
                text="\n".join([*above, text]), font_size=self.info.font_size, text_size=(self.info.width, None)
            )
            core.refresh()
            if core.texture is not None and core.texture.size[1] <= self.info.height:
                break
        return text

    def expected(self, referee: Referee, names: tuple[str, str]) -> str:
        """Whose turn it is and what the referee waits for, in a few words."""
        stage = referee.stage
        player = names[referee.to_act] if referee.to_act is not None else names[referee.mover]
        if stage is Stage.PLAY:
            dice = "-".join(map(str, referee.numbers))
            return self.t("to_play").format(player=names[referee.mover], dice=dice)
        texts = {
            Stage.OVER: self.t("over"),
            Stage.HALTED: self.t("halted"),
            Stage.OPENING: self.t("opening"),
            Stage.ROLL: self.t("to_throw").format(player=names[referee.mover]),
            Stage.DOUBLE: self.t("to_answer_double").format(player=player),
            Stage.RESIGNATION: self.t("to_answer_resign").format(player=player),
            Stage.ILLEGAL: self.t("to_choose").format(player=player),
            Stage.QUESTION: self.t("to_confirm_dice").format(player=player),
            Stage.NAME_DOUBLE: self.t("to_name").format(player=player),
        }
        return texts[stage]

    def show_clocks(self, referee: Referee, names: tuple[str, str], pips: tuple[int, int] | None) -> None:
        """Both clocks large; the running one bright green, the waiting one dim, a low one red; in casual mode
        each player's pip count beside the name."""
        report = self.controller.clock_report()
        for button_widget, color, ms in zip(self.clock_buttons, Color, (report.white_ms, report.black_ms)):
            running = referee.clock is color
            delay = ""
            if report.running is not None and int(report.running) == int(color) and report.delay_left_ms > 0:
                delay = f"  +{-(-report.delay_left_ms // 1000)}"  # the delay counts down before the reserve
            time_text = f"{ms // 60000}:{ms // 1000 % 60:02d}"
            heading = escape_markup(names[color]) + (f"  ·  {self.t('pips')} {pips[color]}" if pips else "")
            button_widget.text = (
                f"[size={int(sp(22))}]{heading}[/size]\n"
                f"[size={int(sp(54))}][b]{time_text}[/b][/size][size={int(sp(22))}]{delay}[/size]"
            )
            if running:
                button_widget.background_color = (0.85, 0.15, 0.1, 1) if ms < 60_000 else (0.1, 0.62, 0.22, 1)
                button_widget.color = (1, 1, 1, 1)
            else:
                button_widget.background_color = (0.2, 0.2, 0.23, 1)
                button_widget.color = (0.62, 0.62, 0.62, 1)

    def show_chouette(self, referee: Referee) -> None:
        """The chouette strip, rebuilt only when something happened (a tap never lands on a vanishing button)."""
        session = referee.chouette
        assert session is not None
        key = (referee.events, self.controller.language)
        if key == self.strip_shown:
            return
        self.strip_shown = key
        self.strip.clear_widgets()
        if self.strip.height == 0:  # the people's strip takes room from the side panel and the banner
            self.strip.height = dp(170)
            self.dice_box.height = max(dp(72), text_lines(sp(15), 2) + dp(24))
            self.clocks_box.height = dp(88)
            self.turn.height = dp(48)
            self.banner.height = dp(76)
        game = session.game
        self.strip.add_widget(
            Card(
                f"{self.t('box').upper()}\n{game.box}\n{self.t('ledger')} {session.balance(game.box):+d}",
                (0.35, 0.22, 0.10),
                [],
            )
        )
        moves = referee.member_moves()
        for index, (member, cube, settled) in enumerate(zip(game.members, game.cubes, game.settled)):
            role = self.t("captain") if member == game.acting_captain else f"{self.t('line')} {index + 1}"
            if settled is not None:
                state = f"{self.t('out')} {settled:+d}"
            else:
                owner = (
                    self.t("centre")
                    if cube.owner is None
                    else (self.t("box") if cube.owner is game.box_color else member)
                )
                state = f"{self.t('cube')} {cube.value} · {owner}"
                if cube.offered_by is not None:
                    state = f"{self.t('cube')} {cube.value} > {cube.value * 2} ?"
            buttons = [
                (
                    self.member_move_text(action, game.box),
                    partial(self.act, ev.MemberCubeMoved(member, action.move.value, action.by)),
                )
                for action in moves
                if action.member == member
            ]
            colour = (0.10, 0.30, 0.45) if member == game.acting_captain else (0.18, 0.18, 0.22)
            self.strip.add_widget(
                Card(
                    f"{role} · {member}\n{state}\n{self.t('ledger')} {session.balance(member):+d}",
                    colour,
                    buttons,
                    narrow=len(session.players) >= 6,
                )
            )

    def member_move_text(self, action: MemberCube, box: str) -> str:
        move = action.move.value
        return self.t(f"box_{'doubles' if move == 'double' else move}") if action.by == box else self.t(move)

    def show_shot(self, shot: Shot | None) -> None:
        """The dice as the camera read them, beside its picture of the throw."""
        if shot is None or shot is self.shot_shown:
            return
        self.shot_shown = shot
        read = ", ".join("?" if d.value is None else f"{d.value}{'*' if d.cocked else ''}" for d in shot.dice)
        event = shot.event
        verdict = (
            "-".join(map(str, event.values))
            if event.values is not None
            else word(event.void.value if event.void is not None else "unreadable", self.controller.language)
        )
        self.dice_text.text = f"{self.t('camera')}: {read or '-'}\n{verdict}"

    def _actions(self, stage: Stage, to_act: Color | None) -> list[tuple[str, Callable[[], None], bool]]:
        session = self.controller.session
        assert session is not None
        referee = session.referee
        out: list[tuple[str, Callable[[], None], bool]] = []
        if self.controller.sim and stage is not Stage.OVER:
            out.append(("Sim >", self.sim_next, False))
        if stage is Stage.OVER and referee.chouette is None:
            out.append((self.t("result_sheet"), partial(self.app.show, "result"), False))
        if to_act is None:
            return out
        chouette = referee.chouette is not None  # its cube buttons are on the people's cards
        if stage is Stage.ROLL and not chouette and referee.match.game.may_double(to_act):
            out.append((self.t("double"), lambda: self.act(ev.DoubleOffered(to_act)), False))
        if stage is Stage.DOUBLE and not chouette:
            out += [
                (self.t("take"), lambda: self.act(ev.DoubleTaken(to_act)), True),
                (self.t("drop"), lambda: self.act(ev.DoubleDropped(to_act)), True),
            ]
            if referee.match.is_money:
                out.append((self.t("beaver"), lambda: self.act(ev.Beavered(to_act)), True))
        if stage is Stage.ILLEGAL:
            out += [
                (self.t("accept"), lambda: self.act(ev.AcceptIllegal(to_act)), True),
                (self.t("correct"), lambda: self.act(ev.CorrectIllegal(to_act)), True),
            ]
        if stage is Stage.RESIGNATION:
            out += [
                (self.t("accept_resign"), lambda: self.act(ev.ResignationAccepted(to_act)), True),
                (self.t("reject_resign"), lambda: self.act(ev.ResignationRejected(to_act)), False),
            ]
        if stage is Stage.ROLL and not chouette:
            out.append((self.t("resign"), lambda: self.act(ev.ResignationOffered(to_act, 1)), True))
        if stage is Stage.NAME_DOUBLE:
            for number in range(1, 7):
                out.append((f"{number}-{number}", partial(self.act, ev.DoubleNamed(to_act, number)), False))
        out.append((self.t("call"), lambda: self.act(ev.CallDirector(to_act)), False))
        return out
