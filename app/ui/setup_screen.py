"""The set-up screen: players, variant, match length, mode, clock, PIN, chouette, the devices found and the
camera picture whose four corners are tapped to calibrate it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.spinner import Spinner
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton

from app.net.link import DEFAULT_TOURNAMENT
from app.referee.setup import Mode
from app.ui.camera_chooser import CameraChooser
from app.ui.labels import variant_label, why_text
from app.ui.setup_check import SetupCheckButton
from app.ui.sizes import lines, sp
from app.ui.widgets import CornerPicker, ScreensApp, TavlaScreen, button, inside, portrait, target, texture_of
from rules.registry import VARIANTS

_TEXT_FIELDS = (
    "white",
    "black",
    "line",
    "reserve",
    "delay",
    "pin",
    "event",
    "round",
    "broker",
    "board",
    "board_password",
    "join_code",
    "ca",
    "prefix",
)
"""The set-up screen's text fields, kept when the screen is built again."""


def caption(text: str, **kwargs: Any) -> Label:
    """A field's name beside it, on two lines where it is long."""
    widget = Label(text=text, font_size=sp(18), halign="center", valign="middle", **kwargs)
    widget.bind(size=lambda label, *_: setattr(label, "text_size", label.size))
    return widget


class SetupScreen(TavlaScreen):
    def __init__(self, app: ScreensApp, **kwargs: Any) -> None:
        super().__init__(app, name="setup", **kwargs)
        self.build()

    def build(self) -> None:
        kept = self.form_state()  # a rebuild (the language switched) keeps what was typed and chosen
        self.clear_widgets()
        root = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(8))
        root.add_widget(
            Label(text=f"{self.t('title')} - {self.t('setup')}", font_size=sp(34), size_hint_y=None, height=dp(50))
        )
        # the form and the camera scroll where the window is shorter than they are (the Pi's 800x480); the
        # buttons below them stay in sight
        scroller = ScrollView(do_scroll_x=False, bar_width=dp(10), scroll_type=["bars", "content"])
        body = BoxLayout(orientation="vertical", spacing=dp(8), size_hint_y=None)
        body.bind(minimum_height=body.setter("height"))
        scroller.add_widget(body)
        row = max(dp(50), lines(sp(18), 2))  # a caption's two lines fit at the smallest text size
        upright = portrait()  # a tablet held upright: one field a row, the camera under the devices, one button a row
        form = GridLayout(
            cols=2 if upright else 4,
            spacing=dp(6),
            size_hint_y=None,
            row_default_height=row,
            row_force_default=True,
        )
        self.white = TextInput(text="Ayşe", font_size=sp(26), multiline=False)
        self.black = TextInput(text="Mehmet", font_size=sp(26), multiline=False)
        self.variant_names = {variant_label(v.name, self.controller.language): v.name for v in VARIANTS}
        self.variant = Spinner(
            text=variant_label("backgammon", self.controller.language),
            values=list(self.variant_names),
            font_size=sp(24),
        )
        self.length = Spinner(
            text="5", values=[str(n) for n in (1, 3, 5, 7, 9, 11, 13, 15, 17)] + ["0"], font_size=sp(24)
        )
        self.tournament = ToggleButton(text=self.t("tournament"), group="mode", state="down", font_size=sp(24))
        self.casual = ToggleButton(text=self.t("casual"), group="mode", font_size=sp(24))
        modes = BoxLayout(spacing=dp(6))
        modes.add_widget(inside(self.tournament))
        modes.add_widget(inside(self.casual))
        kinds = BoxLayout(spacing=dp(6))
        self.kinds: dict[str, ToggleButton] = {}
        for kind in ("match", "money_kind", "chouette"):
            toggle = ToggleButton(
                text=self.t(kind),
                group="kind",
                state="down" if kind == "match" else "normal",
                font_size=sp(20),
                allow_no_selection=False,
            )
            self.kinds[kind] = inside(toggle)
            kinds.add_widget(toggle)
        self.line = TextInput(text="", hint_text=self.t("chouette_hint"), font_size=sp(24), multiline=False)
        self.reserve = TextInput(text="10", font_size=sp(26), multiline=False, input_filter="int")
        self.delay = TextInput(text="12", font_size=sp(26), multiline=False, input_filter="int")
        self.pin = TextInput(text="", font_size=sp(26), multiline=False, password=True)  # digits or a passphrase
        self.pin.bind(text=lambda _, text: setattr(self.controller, "station_pin", text))  # for assigned matches
        self.event = TextInput(text="", hint_text=self.t("event_hint"), font_size=sp(22), multiline=False)
        self.round = TextInput(text="", hint_text="1", font_size=sp(22), multiline=False)
        self.board = TextInput(text="", hint_text="12", font_size=sp(22), multiline=False)
        self.board_password = TextInput(text="", font_size=sp(22), multiline=False, password=True)
        board = BoxLayout(spacing=dp(6))
        board.add_widget(self.board)
        board.add_widget(self.board_password)
        self.link_view = self.tournament_link_view(row)
        self.link_button = button(self.t("link_open"), self.link_view.open, font_size=sp(20), height=row)
        self.devices = inside(Label(text=self.devices_text(), font_size=sp(18)))
        rows = [
            (self.t("white"), self.white, self.t("black"), self.black),
            (self.t("variant"), self.variant, self.t("length"), self.length),
            (self.t("mode"), modes, self.t("kind"), kinds),
            (self.t("chouette_players"), self.line, self.t("reserve"), self.reserve),
            (self.t("delay"), self.delay, self.t("pin"), self.pin),
            (self.t("event"), self.event, self.t("round"), self.round),
            (self.t("link"), self.link_button, self.t("board_no"), board),
        ]
        for caption_a, widget_a, caption_b, widget_b in rows:
            for name, widget in ((caption_a, widget_a), (caption_b, widget_b)):
                form.add_widget(caption(name, size_hint_x=0.7))  # the fields get the room a caption does not need
                widget.size_hint_x = 1.3
                form.add_widget(widget)
        form.bind(minimum_height=form.setter("height"))  # as many rows as the form has
        body.add_widget(form)
        camera = BoxLayout(spacing=dp(12), size_hint_y=None, height=dp(210))
        devices = BoxLayout(orientation="vertical", size_hint_x=0.5)
        if upright:
            camera.orientation = "vertical"
            devices.size_hint = (1, None)
            devices.height = dp(150)
        devices.add_widget(Label(text=self.t("devices"), font_size=sp(24), size_hint_y=None, height=dp(48)))
        devices.add_widget(self.devices)
        camera.add_widget(devices)
        texts = BoxLayout(orientation="vertical")
        texts.add_widget(Label(text=self.t("calibrate"), font_size=sp(22)))
        self.calibration = Label(text="", font_size=sp(20))
        texts.add_widget(self.calibration)
        self.error = Label(text="", font_size=sp(18), color=(1, 0.4, 0.4, 1), halign="center", valign="middle")
        self.error.bind(size=lambda widget, *_: setattr(widget, "text_size", widget.size))  # a long reason wraps
        texts.add_widget(self.error)
        sets = BoxLayout(spacing=dp(6))  # the dice set the reader learned, reused match after match
        sets.add_widget(Label(text=self.t("dice_set"), font_size=sp(22), size_hint_x=0.6))
        self.dice_set = Spinner(text=self.dice_set_text(), values=self.dice_set_values(), font_size=sp(22))
        self.dice_set.bind(text=lambda _, text: self.choose_dice_set(text))
        sets.add_widget(self.dice_set)
        texts.add_widget(sets)
        self.photos = ToggleButton(
            text="", font_size=sp(18), state="down" if self.controller.photos_on else "normal", halign="center"
        )
        self.photos.disabled = not self.controller.photos_possible  # python -m app --no-throw-photos
        self.photos.bind(state=lambda _, state: self.keep_photos(state == "down"))
        self.photos.bind(size=lambda widget, *_: setattr(widget, "text_size", (widget.width - dp(16), None)))
        self.keep_photos(self.controller.photos_on)
        texts.add_widget(self.photos)
        camera.add_widget(texts)
        picture = self.controller.camera_picture()
        self.picker: CornerPicker | None = None
        if picture is not None:
            self.picker = CornerPicker(self.corner, texture=texture_of(picture), size_hint_x=None, width=dp(374))
            if upright:
                self.picker.size_hint, self.picker.height = (1, None), dp(320)
            camera.add_widget(self.picker)
        else:
            self.calibration.text = self.t("no_camera_crop")
        if upright:  # the devices, the calibration's texts and the picture, each its own height
            camera.height = dp(150 + 210) + (dp(320) + camera.spacing if self.picker else 0) + camera.spacing
        body.add_widget(camera)
        cameras = self.controller.cameras
        if cameras is not None and cameras.offered:  # two cameras or more: the players pick the one over the board
            body.add_widget(CameraChooser(self.controller, cameras, self.build))
        root.add_widget(scroller)
        bar = BoxLayout(spacing=dp(12), size_hint_y=None, height=target())
        if upright:
            bar.orientation = "vertical"
            bar.bind(minimum_height=bar.setter("height"))
        bar.add_widget(button(self.t("language"), self.app.toggle_language))
        bar.add_widget(SetupCheckButton(self.controller))  # the camera judged before the match
        last = self.controller.library.last() if self.controller.library is not None else None
        if last is not None and last.folder != self.controller.folder:
            when = last.modified.strftime("%d.%m %H:%M")
            bar.add_widget(button(f"{self.t('resume_last')} ({when})", lambda: self.resume(last.journal)))
        bar.add_widget(button(self.t("learn_dice"), lambda: self.app.show("learn")))
        self.start_button = button(self.t("start"), self.start)
        bar.add_widget(self.start_button)
        root.add_widget(bar)
        self.add_widget(root)
        self.restore(kept)

    def tournament_link_view(self, row: float) -> ModalView:
        """The tournament link, opened from the form: the director's join code (typed, pasted or its QR scanned by
        the camera), or by hand the broker, the CA file and the tournament's prefix."""
        view = ModalView(size_hint=(0.9, None), height=(row + dp(8)) * 5 + target() + dp(40), auto_dismiss=True)
        grid = GridLayout(cols=2, spacing=dp(8), padding=dp(12), row_default_height=row, row_force_default=True)
        self.join_code = TextInput(text="", hint_text=self.t("join_hint"), font_size=sp(18), multiline=False)
        join = BoxLayout(spacing=dp(6))
        join.add_widget(self.join_code)
        join.add_widget(button(self.t("scan"), self.scan_join_code, font_size=sp(20), size_hint_x=0.3, height=row))
        self.broker = TextInput(text="", hint_text="192.168.1.10:8883", font_size=sp(22), multiline=False)
        self.ca = TextInput(text="", hint_text="ca.crt", font_size=sp(20), multiline=False)
        self.prefix = TextInput(text="", hint_text=DEFAULT_TOURNAMENT, font_size=sp(20), multiline=False)
        self.link_said = Label(text="", font_size=sp(18), color=(1, 0.4, 0.4, 1))
        for caption, widget in (
            (self.t("join_code"), join),
            (self.t("broker"), self.broker),
            (self.t("ca_file"), self.ca),
            (self.t("tournament_prefix"), self.prefix),
            ("", self.link_said),
        ):
            grid.add_widget(Label(text=caption, font_size=sp(22), size_hint_x=0.35))
            grid.add_widget(widget)
        root = BoxLayout(orientation="vertical")
        root.add_widget(grid)
        root.add_widget(button(self.t("close"), view.dismiss))
        view.add_widget(root)
        view.bind(on_dismiss=lambda *_: self.join())
        return view

    def keep_photos(self, on: bool) -> None:
        """Players are told the camera keeps each throw's picture (the default), and the switch turns it off."""
        self.controller.photos_on = on and self.controller.photos_possible
        self.photos.text = self.t("photos_kept" if self.controller.photos_on else "photos_not_kept")

    def show_link(self) -> None:
        """The form's link button names what the station will join (nothing typed: no network)."""
        code, broker = self.join_code.text.strip(), self.broker.text.strip()
        self.link_button.text = self.t("join_code").split("\n")[0] if code else broker or self.t("link_open")

    def join(self) -> None:
        """The link panel closed: join the tournament at once, so the director's match reaches this table."""
        self.show_link()
        self.error.text = self.link() or self.controller.listen() or ""

    def link(self) -> str | None:
        """The tournament's link as the link panel's fields give it; why not, for the error line."""
        return self.controller.link_tournament(
            self.broker.text,
            self.board.text,
            self.board_password.text,
            self.ca.text,
            self.prefix.text,
            join_code=self.join_code.text,
        )

    def scan_join_code(self) -> None:
        """The join code's QR held before the camera: read from its latest picture into the join code field."""
        code, problem = self.controller.scan_join_code()
        if code:
            self.join_code.text = code
        self.link_said.text = problem or ""

    def resume(self, journal: Path) -> None:
        """Go on with the last match kept in the data folder (the window was closed, the tablet restarted)."""
        problem = self.controller.resume(journal)
        if problem:
            self.error.text = problem
            return
        self.app.show("play")

    def form_state(self) -> dict[str, Any]:
        """What the form holds now (empty before the first build)."""
        if not hasattr(self, "white"):
            return {}
        texts = {name: getattr(self, name).text for name in _TEXT_FIELDS}
        return {
            "texts": texts,
            "variant": self.variant_names.get(self.variant.text, "backgammon"),
            "length": self.length.text,
            "casual": self.casual.state == "down",
            "kind": next(kind for kind, toggle in self.kinds.items() if toggle.state == "down"),
        }

    def restore(self, kept: dict[str, Any]) -> None:
        if not kept:
            return
        for name, text in kept["texts"].items():
            getattr(self, name).text = text
        self.variant.text = variant_label(kept["variant"], self.controller.language)
        self.length.text = kept["length"]
        self.casual.state, self.tournament.state = ("down", "normal") if kept["casual"] else ("normal", "down")
        for kind, toggle in self.kinds.items():
            toggle.state = "down" if kind == kept["kind"] else "normal"
        self.show_link()
        if self.picker is not None and self.controller.taps:
            self.picker.marks = list(self.controller.taps)
            self.picker.draw_marks()
            self.calibration.text = f"{len(self.controller.taps)}/4 {self.t('corners')}"

    def _device_text(self, state: str) -> str:
        if state.startswith("found: "):  # a device by its port or file name, not its whole path
            return self.t("found") + " (" + Path(state[len("found: ") :].split(",")[0]).name + ")"
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
        values = self.dice_set_values()
        if list(self.dice_set.values) != values:
            self.dice_set.values = values
        self.dice_set.text = self.dice_set_text()

    def dice_set_values(self) -> list[str]:
        return [self.t("no_dice_set")] + self.controller.match_dice.sets.names()

    def dice_set_text(self) -> str:
        return self.controller.match_dice.name or self.t("no_dice_set")

    def choose_dice_set(self, text: str) -> None:
        """A dice set learned before chosen for this match (or none)."""
        dice = self.controller.match_dice
        if text == dice.name or (text == self.t("no_dice_set") and not dice.name):
            return
        if text == self.t("no_dice_set"):
            dice.forget()
            return
        problem = dice.use(text)
        self.error.text = why_text(problem, self.controller.language) if problem is not None else ""

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
        problem = self.link()
        if problem:
            self.error.text = problem
            return
        variant = self.variant_names.get(self.variant.text, "backgammon")
        problem = self.controller.start(
            (self.white.text, self.black.text),
            variant,
            length,
            mode,
            reserve,
            delay,
            self.pin.text,
            chouette,
            event=self.event.text,
            round_name=self.round.text,
            table=self.controller.tournament.board if self.controller.tournament is not None else self.board.text,
        )
        if problem:
            self.error.text = problem
            return
        self.app.show("play")
