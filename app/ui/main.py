"""The Kivy tablet app: set-up, play, director and history/export screens (landscape 1280x800).

Every screen reads the referee through :class:`app.ui.controller.Controller`
and turns taps into events; nothing here decides anything. Touch targets are
at least 64 px high and the ruling banner is large and coloured by level
(green accepted, blue information, amber warning, red a broken rule).
"""

from __future__ import annotations

import os
import tempfile
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
os.environ.setdefault("KCFG_GRAPHICS_WIDTH", "1280")  # landscape tablet, set before Kivy makes the window
os.environ.setdefault("KCFG_GRAPHICS_HEIGHT", "800")

import numpy as np  # noqa: E402
from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.config import Config  # noqa: E402
from kivy.graphics import Color as GColor  # noqa: E402
from kivy.graphics import Ellipse, Line, Rectangle  # noqa: E402
from kivy.graphics.texture import Texture  # noqa: E402
from kivy.uix.boxlayout import BoxLayout  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.gridlayout import GridLayout  # noqa: E402
from kivy.uix.image import Image as KivyImage  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from kivy.uix.spinner import Spinner  # noqa: E402
from kivy.uix.textinput import TextInput  # noqa: E402
from kivy.uix.togglebutton import ToggleButton  # noqa: E402

from app import events as ev  # noqa: E402
from app.camera import Shot, square  # noqa: E402
from app.engine import Referee, Stage, offers  # noqa: E402
from app.i18n import label, word  # noqa: E402
from app.rulings import Level  # noqa: E402
from app.setup import Mode  # noqa: E402
from app.ui.board import BoardWidget  # noqa: E402
from app.ui.controller import Controller  # noqa: E402
from rules.chouette import MemberCube  # noqa: E402
from rules.position import Color  # noqa: E402
from rules.registry import VARIANTS  # noqa: E402

TARGET = 72
"""Height of a touch target in pixels (about 11 mm on a 10-inch 1280x800 tablet)."""
LEVEL_COLOURS = {Level.OK: (0.10, 0.55, 0.20), Level.INFO: (0.12, 0.35, 0.65), Level.WARNING: (0.85, 0.55, 0.05),
                 Level.ERROR: (0.75, 0.10, 0.10)}


def button(text: str, on_press: Callable[[], Any], **kwargs: Any) -> Button:
    widget = Button(text=text, font_size=kwargs.pop("font_size", 24), size_hint_y=None,
                    height=kwargs.pop("height", TARGET), **kwargs)
    widget.bind(on_release=lambda *_: on_press())
    return widget


class Banner(Label):
    """The ruling banner: large text on the level's colour."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(font_size=30, bold=True, halign="center", valign="middle", **kwargs)
        self.level = Level.INFO
        self.bind(size=self._update, pos=self._update)

    def set(self, text: str, level: Level) -> None:
        self.text = text
        self.level = level
        self._update()

    def _update(self, *_: Any) -> None:
        self.text_size = (self.width - 30, None)
        self.canvas.before.clear()
        with self.canvas.before:
            GColor(*LEVEL_COLOURS[self.level])
            Rectangle(pos=self.pos, size=self.size)


class Card(BoxLayout):
    """One person of a chouette: who, the cube, the ledger, and the buttons for that member's cube."""

    def __init__(self, text: str, colour: tuple[float, float, float],
                 buttons: Sequence[tuple[str, Callable[[], None]]], narrow: bool = False, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=4, padding=4, **kwargs)
        self.colour = colour
        info = Label(text=text, font_size=16 if narrow else 18, halign="center", valign="middle")
        info.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        self.add_widget(info)
        if narrow and len(buttons) > 2:  # six or more players: three answers go two by two, still finger-sized
            row: BoxLayout | GridLayout = GridLayout(cols=2, spacing=4, size_hint_y=None, height=2 * 44 + 4)
            for caption, handler in buttons:
                row.add_widget(button(caption, handler, font_size=17, height=44))
        else:
            row = BoxLayout(spacing=4, size_hint_y=None, height=TARGET)
            for caption, handler in buttons:
                row.add_widget(button(caption, handler, font_size=20))
        self.add_widget(row)
        self.bind(pos=self._paint, size=self._paint)

    def _paint(self, *_: Any) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            GColor(*self.colour)
            Rectangle(pos=self.pos, size=self.size)


def texture_of(image: Any) -> Texture:
    """A Kivy texture of a BGR numpy picture (Kivy's rows run bottom-up)."""
    height, width = image.shape[:2]
    texture = Texture.create(size=(width, height), colorfmt="bgr")
    texture.blit_buffer(image[::-1].copy().tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


class CornerPicker(KivyImage):
    """The camera's picture of the board; each tap marks a corner (in the picture's own pixels)."""

    def __init__(self, on_corner: Callable[[float, float], None], **kwargs: Any) -> None:
        super().__init__(fit_mode="contain", **kwargs)
        self.on_corner = on_corner
        self.marks: list[tuple[float, float]] = []
        self.bind(size=lambda *_: self.draw_marks(), pos=lambda *_: self.draw_marks())

    def picture_rect(self) -> tuple[float, float, float, float]:
        """Where the picture is drawn inside the widget: x, y, width, height."""
        width, height = self.norm_image_size
        return self.center_x - width / 2, self.center_y - height / 2, width, height

    def to_picture(self, x: float, y: float) -> tuple[float, float] | None:
        left, bottom, width, height = self.picture_rect()
        if self.texture is None or not (left <= x <= left + width and bottom <= y <= bottom + height):
            return None
        tex_w, tex_h = self.texture.size
        return (x - left) / width * tex_w, (1 - (y - bottom) / height) * tex_h

    def to_widget(self, px: float, py: float) -> tuple[float, float]:
        left, bottom, width, height = self.picture_rect()
        tex_w, tex_h = self.texture.size if self.texture is not None else (1, 1)
        return left + px / tex_w * width, bottom + (1 - py / tex_h) * height

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        point = self.to_picture(*touch.pos)
        if point is not None:
            self.on_corner(*point)
        return True

    def draw_marks(self) -> None:
        self.canvas.after.clear()
        with self.canvas.after:
            GColor(1, 0.2, 0.2, 1)
            points = [self.to_widget(px, py) for px, py in self.marks]
            for x, y in points:
                Ellipse(pos=(x - 7, y - 7), size=(14, 14))
            if len(points) == 4:
                Line(points=[c for p in points + points[:1] for c in p], width=2)


class TavlaScreen(Screen):
    def __init__(self, app: "TavlaApp", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app = app

    @property
    def controller(self) -> Controller:
        return self.app.controller

    def t(self, key: str) -> str:
        return label(key, self.controller.language)

    def refresh(self) -> None:
        """Redraw from the referee's state."""


class SetupScreen(TavlaScreen):
    def __init__(self, app: "TavlaApp", **kwargs: Any) -> None:
        super().__init__(app, name="setup", **kwargs)
        self.build()

    def build(self) -> None:
        self.clear_widgets()
        root = BoxLayout(orientation="vertical", padding=16, spacing=8)
        root.add_widget(Label(text=f"{self.t('title')} - {self.t('setup')}", font_size=34, size_hint_y=None,
                              height=50))
        row = 64
        form = GridLayout(cols=4, spacing=8, size_hint_y=None, height=5 * (row + 8),
                          row_default_height=row, row_force_default=True)
        self.white = TextInput(text="Ayşe", font_size=26, multiline=False)
        self.black = TextInput(text="Mehmet", font_size=26, multiline=False)
        self.variant = Spinner(text="backgammon", values=[v.name for v in VARIANTS], font_size=24)
        self.length = Spinner(text="5", values=[str(n) for n in (1, 3, 5, 7, 9, 11, 13, 15, 17)] + ["0"],
                              font_size=24)
        self.tournament = ToggleButton(text=self.t("tournament"), group="mode", state="down", font_size=24)
        self.casual = ToggleButton(text=self.t("casual"), group="mode", font_size=24)
        modes = BoxLayout(spacing=6)
        modes.add_widget(self.tournament)
        modes.add_widget(self.casual)
        kinds = BoxLayout(spacing=6)
        self.kinds: dict[str, ToggleButton] = {}
        for kind in ("match", "money_kind", "chouette"):
            toggle = ToggleButton(text=self.t(kind), group="kind", state="down" if kind == "match" else "normal",
                                  font_size=22, allow_no_selection=False)
            self.kinds[kind] = toggle
            kinds.add_widget(toggle)
        self.line = TextInput(text="", hint_text=self.t("chouette_hint"), font_size=24, multiline=False)
        self.reserve = TextInput(text="10", font_size=26, multiline=False, input_filter="int")
        self.delay = TextInput(text="12", font_size=26, multiline=False, input_filter="int")
        self.pin = TextInput(text="", font_size=26, multiline=False, password=True)  # digits or a passphrase
        self.devices = Label(text=self.devices_text(), font_size=18)
        rows = [
            (self.t("white"), self.white, self.t("black"), self.black),
            (self.t("variant"), self.variant, self.t("length"), self.length),
            (self.t("mode"), modes, self.t("kind"), kinds),
            (self.t("chouette_players"), self.line, self.t("reserve"), self.reserve),
            (self.t("delay"), self.delay, self.t("pin"), self.pin),
        ]
        for caption_a, widget_a, caption_b, widget_b in rows:
            form.add_widget(Label(text=caption_a, font_size=24))
            form.add_widget(widget_a)
            form.add_widget(Label(text=caption_b, font_size=24))
            form.add_widget(widget_b)
        root.add_widget(form)
        camera = BoxLayout(spacing=12, size_hint_y=None, height=210)
        devices = BoxLayout(orientation="vertical", size_hint_x=0.5)
        devices.add_widget(Label(text=self.t("devices"), font_size=24, size_hint_y=None, height=48))
        devices.add_widget(self.devices)
        camera.add_widget(devices)
        texts = BoxLayout(orientation="vertical")
        texts.add_widget(Label(text=self.t("calibrate"), font_size=22))
        self.calibration = Label(text="", font_size=20)
        texts.add_widget(self.calibration)
        self.error = Label(text="", font_size=20, color=(1, 0.4, 0.4, 1))
        texts.add_widget(self.error)
        camera.add_widget(texts)
        picture = self.controller.camera_picture()
        self.picker: CornerPicker | None = None
        if picture is not None:
            self.picker = CornerPicker(self.corner, texture=texture_of(picture), size_hint_x=None, width=374)
            camera.add_widget(self.picker)
        else:
            self.calibration.text = self.t("no_camera_crop")
        root.add_widget(camera)
        bar = BoxLayout(spacing=12, size_hint_y=None, height=TARGET)
        bar.add_widget(button(self.t("language"), self.app.toggle_language))
        self.start_button = button(self.t("start"), self.start)
        bar.add_widget(self.start_button)
        root.add_widget(bar)
        root.add_widget(Widget_spacer())
        self.add_widget(root)

    def _device_text(self, state: str) -> str:
        if state.startswith("found: "):
            return self.t("found") + " (" + state[len("found: "):].split(",")[0] + ")"
        return {"sim": "sim", "software": self.t("software"), "none": self.t("not_found")}.get(state, state)

    def devices_text(self) -> str:
        devices = self.controller.devices_found()
        return "\n".join(f"{self.t(name)}: {self._device_text(state)}" for name, state in devices.items())

    def corner(self, x: float, y: float) -> None:
        """A corner tapped on the camera picture; the fourth calibrates the camera."""
        problem = self.controller.tap_corner(x, y)
        assert self.picker is not None
        self.picker.marks = list(self.controller.taps)
        self.picker.draw_marks()
        self.error.text = problem or ""
        taps = len(self.controller.taps)
        calibration = self.controller.calibration
        if taps == 4 and calibration is not None:
            corners = "  ".join(f"{x:.0f},{y:.0f}" for x, y in calibration.corners)
            self.calibration.text = f"4/4 {self.t('corners')}: {corners}"
        else:
            self.calibration.text = f"{taps}/4 {self.t('corners')}"

    def refresh(self) -> None:
        self.devices.text = self.devices_text()

    def start(self) -> None:
        try:
            length = int(self.length.text)
            reserve = int(self.reserve.text or "0")
            delay = int(self.delay.text or "0")
        except ValueError:
            self.error.text = "?"
            return
        mode = Mode.CASUAL if self.casual.state == "down" else Mode.TOURNAMENT
        chouette: tuple[str, ...] = ()
        if self.kinds["chouette"].state == "down":
            chouette = tuple(name.strip() for name in self.line.text.split(",") if name.strip())
            if not 3 <= len(chouette) <= 8:
                self.error.text = self.t("chouette_need")
                return
            length = 0
        elif self.kinds["money_kind"].state == "down":
            length = 0
        problem = self.controller.start((self.white.text, self.black.text), self.variant.text, length, mode,
                                        reserve, delay, self.pin.text, chouette)
        if problem:
            self.error.text = problem
            return
        self.app.show("play")


def Widget_spacer() -> Label:
    return Label(text="")


class PlayScreen(TavlaScreen):
    def __init__(self, app: "TavlaApp", **kwargs: Any) -> None:
        super().__init__(app, name="play", **kwargs)
        self.build()

    def build(self) -> None:
        self.clear_widgets()
        root = BoxLayout(orientation="vertical", padding=8, spacing=8)
        nav = BoxLayout(size_hint_y=None, height=64, spacing=8)
        self.score = Label(text="", font_size=26, size_hint_x=2.4)
        nav.add_widget(self.score)
        for key in ("director", "history"):
            nav.add_widget(button(self.t(key), partial(self.app.show, key), height=64))
        nav.add_widget(button(self.t("language"), self.app.toggle_language, height=64))
        root.add_widget(nav)
        self.strip = BoxLayout(spacing=6, size_hint_y=None, height=0)
        """A chouette's people: the box and each member with its cube, ledger and cube buttons."""
        self.strip_shown: tuple[int, str] = (-1, "")
        root.add_widget(self.strip)
        middle = BoxLayout(spacing=8)
        self.board = BoardWidget(size_hint_x=0.64)
        middle.add_widget(self.board)
        side = BoxLayout(orientation="vertical", spacing=8, size_hint_x=0.36)
        self.info = Label(text="", font_size=22, halign="left", valign="top", size_hint_y=None, height=120)
        self.info.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        side.add_widget(self.info)
        dice = BoxLayout(spacing=8, size_hint_y=None, height=120)
        self.dice_picture = KivyImage(fit_mode="contain", size_hint_x=0.55)
        self.dice_text = Label(text=self.t("no_camera_crop"), font_size=20, halign="left", valign="middle")
        self.dice_text.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))
        dice.add_widget(self.dice_picture)
        dice.add_widget(self.dice_text)
        side.add_widget(dice)
        self.dice_box = dice
        self.shot_shown: Shot | None = None
        clocks = BoxLayout(spacing=8, size_hint_y=None, height=110)
        self.clock_buttons = []
        for color in (Color.WHITE, Color.BLACK):
            clock = Button(text="", font_size=30, halign="center")
            clock.bind(on_release=lambda *_, color=color: self.press(color))
            clocks.add_widget(clock)
            self.clock_buttons.append(clock)
        side.add_widget(clocks)
        self.clocks_box = clocks
        self.actions_shown: tuple[int, list[str]] = (-1, [])
        self.actions = GridLayout(cols=2, spacing=8, size_hint_y=None)
        self.actions.bind(minimum_height=self.actions.setter("height"))
        side.add_widget(self.actions)
        entry = BoxLayout(spacing=8, size_hint_y=None, height=TARGET)
        self.entry = TextInput(text="", hint_text="8/5 6/5  |  5-3", font_size=26, multiline=False)
        entry.add_widget(self.entry)
        entry.add_widget(button(self.t("enter"), self.enter, size_hint_x=0.5))
        side.add_widget(entry)
        middle.add_widget(side)
        root.add_widget(middle)
        self.banner = Banner(size_hint_y=None, height=110)
        root.add_widget(self.banner)
        self.add_widget(root)

    def press(self, color: Color) -> None:
        self.controller.press_clock(int(color))
        self.app.refresh()

    def act(self, event: ev.Event) -> None:
        self.controller.send(event)
        self.app.refresh()

    def enter(self) -> None:
        text = self.entry.text.strip()
        self.entry.text = ""
        if not text:
            return
        parts = text.replace("-", " ").split()
        if len(parts) == 2 and all(p.isdigit() and len(p) == 1 for p in parts):
            self.act(ev.ManualDice((int(parts[0]), int(parts[1]))))
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
        if referee.chouette is not None:
            game = referee.chouette.game
            self.score.text = (f"{self.t('chouette')} #{referee.game_number}   {self.t('box')}: {game.box}   "
                               f"{self.t('captain')}: {game.acting_captain or game.captain}")
            self.show_chouette(referee)
        else:
            length = f"/ {match.length}" if match.length else f"({self.t('money')})"
            crawford = f"  [{self.t('crawford')}]" if match.is_crawford else ""
            cube = match.game.cube
            owner = "" if cube.owner is None else f" ({names[cube.owner]})"
            self.score.text = (f"{names[0]} {match.score[0]} - {match.score[1]} {names[1]} {length}{crawford}    "
                               f"{self.t('cube')}: {cube.value}{owner}")
        self.board.show(referee.position, referee.last_play)
        dice = referee.numbers
        waiting = names[referee.to_act] if referee.to_act is not None else "-"
        if referee.chouette is not None and referee.stage is Stage.DOUBLE:  # each doubled member answers
            game = referee.chouette.game
            members = offers(game)
            if game.cube_of(members[0]).offered_by is game.box_color:
                waiting = ", ".join(members)
        lines = [f"{self.t('dice')}: {'-'.join(map(str, dice)) if dice else '-'}    {self.t('waiting')}: {waiting}"]
        aids = referee.aids()
        if aids is not None:
            lines.append(f"{self.t('pips')}: {aids.pips[0]} / {aids.pips[1]}")
            if aids.shots:
                lines.append(f"{self.t('shots')}: {aids.shots}")
            if aids.legal_plays:
                lines.append(f"{self.t('legal')}: " + ", ".join(aids.legal_plays[:4]))
        self.info.text = "\n".join(lines)
        self.show_shot(self.controller.last_shot)
        report = self.controller.clock_report()
        for button_widget, color, ms in zip(self.clock_buttons, Color, (report.white_ms, report.black_ms)):
            running = referee.clock is color
            delay = ""
            if report.running is not None and int(report.running) == int(color) and report.delay_left_ms > 0:
                delay = f"  +{-(-report.delay_left_ms // 1000)}"  # the delay counts down before the reserve
            button_widget.text = f"{names[color]}\n{ms // 60000}:{ms // 1000 % 60:02d}{delay}"
            button_widget.background_color = (0.3, 0.8, 0.3, 1) if running else (0.6, 0.6, 0.6, 1)
        actions = self._actions(referee.stage, referee.to_act)
        key = (referee.events, [text for text, _ in actions])
        if key != self.actions_shown:  # rebuilt only when they change: a tap never lands on a vanishing button
            self.actions_shown = key
            self.actions.clear_widgets()
            for text, handler in actions:
                self.actions.add_widget(button(text, handler, font_size=22))
        banner = self.controller.banner
        if banner is not None:
            self.banner.set(self.controller.text(banner), banner.level)
        elif match.over:
            self.banner.set(self.t("over"), Level.OK)

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
            self.strip.height = 180
            self.info.height = 72
            self.dice_box.height = 88
            self.clocks_box.height = 96
            self.banner.height = 84
        game = session.game
        self.strip.add_widget(Card(f"{self.t('box').upper()}\n{game.box}\n{self.t('ledger')}"
                                   f" {session.balance(game.box):+d}", (0.35, 0.22, 0.10), []))
        moves = referee.member_moves()
        for index, (member, cube, settled) in enumerate(zip(game.members, game.cubes, game.settled)):
            role = self.t("captain") if member == game.acting_captain else f"{self.t('line')} {index + 1}"
            if settled is not None:
                state = f"{self.t('out')} {settled:+d}"
            else:
                owner = self.t("centre") if cube.owner is None else (
                    self.t("box") if cube.owner is game.box_color else member)
                state = f"{self.t('cube')} {cube.value} · {owner}"
                if cube.offered_by is not None:
                    state = f"{self.t('cube')} {cube.value} > {cube.value * 2} ?"
            buttons = [(self.member_move_text(action, game.box),
                        partial(self.act, ev.MemberCube(member, action.move.value, action.by)))
                       for action in moves if action.member == member]
            colour = (0.10, 0.30, 0.45) if member == game.acting_captain else (0.18, 0.18, 0.22)
            self.strip.add_widget(Card(f"{role} · {member}\n{state}\n{self.t('ledger')}"
                                       f" {session.balance(member):+d}", colour, buttons,
                                       narrow=len(session.players) >= 6))

    def member_move_text(self, action: MemberCube, box: str) -> str:
        move = action.move.value
        return self.t(f"box_{'doubles' if move == 'double' else move}") if action.by == box else self.t(move)

    def show_shot(self, shot: Shot | None) -> None:
        """The dice as the camera read them, beside its crop of each die."""
        if shot is None or shot is self.shot_shown:
            return
        self.shot_shown = shot
        crops = shot.crops()
        if crops:
            self.dice_picture.texture = texture_of(np.hstack([square(crop, 110) for crop in crops]))
        read = ", ".join("?" if d.value is None else f"{d.value}{'*' if d.cocked else ''}" for d in shot.dice)
        event = shot.event
        verdict = ("-".join(map(str, event.values)) if event.values is not None
                   else word(event.void.value if event.void is not None else "unreadable", self.controller.language))
        self.dice_text.text = f"{self.t('camera')}: {read or '-'}\n{verdict}"

    def _actions(self, stage: Stage, to_act: Color | None) -> list[tuple[str, Callable[[], None]]]:
        session = self.controller.session
        assert session is not None
        referee = session.referee
        out: list[tuple[str, Callable[[], None]]] = []
        if self.controller.sim and stage is not Stage.OVER:
            out.append(("Sim >", self.sim_next))
        if to_act is None:
            return out
        chouette = referee.chouette is not None  # its cube buttons are on the people's cards
        if stage is Stage.ROLL and not chouette and referee.match.game.may_double(to_act):
            out.append((self.t("double"), lambda: self.act(ev.Double(to_act))))
        if stage is Stage.DOUBLE and not chouette:
            out += [(self.t("take"), lambda: self.act(ev.Take(to_act))),
                    (self.t("drop"), lambda: self.act(ev.Drop(to_act)))]
            if referee.match.is_money:
                out.append((self.t("beaver"), lambda: self.act(ev.Beaver(to_act))))
        if stage is Stage.ILLEGAL:
            out += [(self.t("accept"), lambda: self.act(ev.AcceptIllegal(to_act))),
                    (self.t("correct"), lambda: self.act(ev.CorrectIllegal(to_act)))]
        if stage is Stage.RESIGNATION:
            out += [(self.t("accept_resign"), lambda: self.act(ev.AcceptResignation(to_act))),
                    (self.t("reject_resign"), lambda: self.act(ev.RejectResignation(to_act)))]
        if stage is Stage.ROLL and not chouette:
            out.append((self.t("resign"), lambda: self.act(ev.Resign(to_act, 1))))
        if stage is Stage.NAME_DOUBLE:
            for number in range(1, 7):
                out.append((f"{number}-{number}", partial(self.act, ev.NameDouble(to_act, number))))
        out.append((self.t("call"), lambda: self.act(ev.CallDirector(to_act))))
        return out


class DirectorScreen(TavlaScreen):
    def __init__(self, app: "TavlaApp", **kwargs: Any) -> None:
        super().__init__(app, name="director", **kwargs)
        self.build()

    def build(self) -> None:
        self.clear_widgets()
        root = BoxLayout(orientation="vertical", padding=24, spacing=12)
        root.add_widget(Label(text=self.t("director"), font_size=36, size_hint_y=None, height=70))
        self.pin = TextInput(text="", hint_text=self.t("locked"), password=True, font_size=30, multiline=False,
                             size_hint_y=None, height=TARGET)
        root.add_widget(self.pin)
        grid = GridLayout(cols=3, spacing=12, size_hint_y=None, height=2 * TARGET + 12)
        for key, command, argument in (("resume", "resume", ""), ("void_dice", "void_dice", ""),
                                       ("undo_play", "undo_play", ""),
                                       ("policy", "policy", "always_correct"), ("casual", "mode", "casual"),
                                       ("tournament", "mode", "tournament")):
            grid.add_widget(button(self.t(key) + (f": {argument}" if command == "policy" else ""),
                                   partial(self.override, command, argument)))
        root.add_widget(grid)
        self.result = Banner(size_hint_y=None, height=100)
        root.add_widget(self.result)
        root.add_widget(button(self.t("back"), lambda: self.app.show("play")))
        root.add_widget(Widget_spacer())
        self.add_widget(root)

    def override(self, command: str, argument: str) -> None:
        if self.controller.session is None:
            return
        reaction = self.controller.director(self.pin.text, command, argument)
        self.pin.text = ""
        if reaction.rulings:
            ruling = reaction.rulings[0]
            self.result.set(self.controller.text(ruling), ruling.level)
        self.app.refresh()


class HistoryScreen(TavlaScreen):
    def __init__(self, app: "TavlaApp", **kwargs: Any) -> None:
        super().__init__(app, name="history", **kwargs)
        self.build()

    def build(self) -> None:
        self.clear_widgets()
        root = BoxLayout(orientation="vertical", padding=16, spacing=10)
        root.add_widget(Label(text=f"{self.t('history')} / {self.t('export')}", font_size=34, size_hint_y=None,
                              height=60))
        scroll = ScrollView()
        self.lines = Label(text="", font_size=20, halign="left", valign="top", size_hint_y=None, markup=False)
        self.lines.bind(texture_size=lambda widget, size: setattr(widget, "height", size[1]))
        self.lines.bind(width=lambda widget, width: setattr(widget, "text_size", (width, None)))
        scroll.add_widget(self.lines)
        root.add_widget(scroll)
        self.status = Label(text="", font_size=20, size_hint_y=None, height=60)
        root.add_widget(self.status)
        bar = BoxLayout(spacing=12, size_hint_y=None, height=TARGET)
        bar.add_widget(button(self.t("export"), self.export))
        bar.add_widget(button(self.t("back"), lambda: self.app.show("play")))
        root.add_widget(bar)
        self.add_widget(root)

    def refresh(self) -> None:
        session = self.controller.session
        if session is None:
            return
        rulings = [self.controller.text(r) for r in self.controller.log[-40:]]
        irregular = len(session.referee.irregularities)
        head = f"{self.t('journal')}: {len(session.journal)}  {self.t('irregularities')}: {irregular}"
        self.lines.text = head + "\n\n" + "\n".join(reversed(rulings))

    def export(self) -> None:
        written = self.controller.export()
        names = ", ".join(Path(path).name for path in written.values())
        note = f"  ({self.controller.message})" if self.controller.message else ""
        self.status.text = f"{self.t('saved')}: {names}{note}"[:200]


class TavlaApp(App):
    title = "Tavla"

    def __init__(self, controller: Controller, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.screens: dict[str, TavlaScreen] = {}

    def build(self) -> ScreenManager:
        self.manager = ScreenManager(transition=NoTransition())
        for screen in (SetupScreen(self), PlayScreen(self), DirectorScreen(self), HistoryScreen(self)):
            self.screens[screen.name] = screen
            self.manager.add_widget(screen)
        Clock.schedule_interval(lambda *_: self.tick(), 0.25)
        if self.controller.session is not None:
            self.manager.current = "play"
        return self.manager

    def tick(self) -> None:
        self.controller.pump()
        if self.manager.current in ("play", "setup"):
            self.screens[self.manager.current].refresh()

    def show(self, name: str) -> None:
        self.manager.current = name
        self.refresh()

    def refresh(self) -> None:
        self.screens[self.manager.current].refresh()

    def toggle_language(self) -> None:
        self.controller.language = "en" if self.controller.language == "tr" else "tr"
        current = self.manager.current
        for screen in self.screens.values():
            if isinstance(screen, SetupScreen) and self.controller.session is not None:
                continue
            screen.build()
        self.manager.current = current
        self.refresh()

    def on_stop(self) -> None:
        self.controller.close()


def configure_window() -> None:
    Config.set("graphics", "width", "1280")
    Config.set("graphics", "height", "800")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")


def run_app(sim: bool = False, journal: str | None = None, language: str = "tr", clock_port: str | None = None,
            board_port: str | None = None, camera: str | None = None) -> int:
    """``python -m app``: the tablet app; the journal resumes a match if it exists."""
    configure_window()
    folder = Path(journal).parent if journal else Path(tempfile.mkdtemp(prefix="tavla-"))
    controller = Controller(folder, language=language, sim=sim, journal=Path(journal) if journal else None,
                            clock_port=clock_port, board_port=board_port, camera=camera,
                            post=lambda task: Clock.schedule_once(lambda _: task()))
    if journal and Path(journal).exists():
        problem = controller.start(("White", "Black"), "backgammon", 5, Mode.TOURNAMENT, 10, 12, "")
        if problem:
            print(f"app: {problem}")
            return 2
    TavlaApp(controller).run()
    return 0
