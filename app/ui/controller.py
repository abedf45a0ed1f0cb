"""What the screens do, without Kivy: find devices, start a match, send taps, run the clock and the table.

The screens only show :attr:`Controller.session`'s referee and call these
methods; every tap becomes an event through the journal like any device
message. Devices: the clock and the sensing board are looked for on USB (the
reference firmware's Raspberry Pi Pico ids; each port's HELLO tells a clock
from a board) or on ports named on the command line, and used when they
answer; otherwise the device package's software clock runs on screen and
plays are entered on the tablet. With ``sim`` the whole table is simulated
through the real chain (:class:`app.simtable.SimulatedTable`: clock and board
simulators on pty pairs, their drivers, and the camera whose pictures the
dice reader reads): a tap on "Sim >" lets the simulated players act until the
referee rules on something. With ``camera`` (``python -m app --camera SOURCE``) a
physical camera, video or image folder is read by :class:`app.livecamera.LiveCamera`
in a thread; its throws reach the referee on the main thread through ``post``, and
when it fails or ends the referee rules it disconnected and the dice are typed.
"""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

from app import events as ev
from app.camera import Shot, SimulatedCamera, camera_event
from app.devices import ClockLink, drain
from app.engine import Stage
from app.export import ExportError, write_exports
from app.i18n import render
from app.journal import JournalError
from app.livecamera import Image, LiveCamera, Post
from app.pin import hash_pin, no_pin_message
from app.rulings import Level, Reaction, Ruling
from app.session import Session
from app.setup import ClockSettings, Devices, MatchSetup, Mode
from app.simtable import SimulatedTable, TableError
from app.world import Temper, World
from device import messages as dm
from device.clockapi import ClockControl
from device.driver import BoardDriver, ClockDriver, LinkState
from device.softclock import SoftwareClock
from device.transport import PICO_VID, FixedPort, UsbMatch, finder_for
from rules.position import Color
from vision import Calibration, CalibrationError, ThrowObservation


class Controller:
    def __init__(self, folder: Path, language: str = "tr", sim: bool = False, journal: Path | None = None,
                 clock_port: str | None = None, board_port: str | None = None, seed: int = 1,
                 camera: str | None = None, post: Post | None = None) -> None:
        self.folder = folder
        self.language = language
        self.sim = sim
        self.journal_path = journal
        self.session: Session | None = None
        self.banner: Ruling | None = None
        self.log: list[Ruling] = []
        self.device_queue: queue.Queue[object] = queue.Queue()
        self.software_clock = SoftwareClock(self.device_queue)
        self.clock_driver: ClockDriver | None = None
        self.board_driver: BoardDriver | None = None
        if not sim:  # look for the physical devices from the start: the set-up screen shows what answered
            self.clock_driver = ClockDriver(_finder(clock_port), self.device_queue)
            self.board_driver = BoardDriver(_finder(board_port), self.device_queue)
            self.clock_driver.start()
            self.board_driver.start()
        self.clock: ClockControl = self.software_clock
        self.clock_link = ClockLink(self.clock)
        self.world = World(seed=seed, temper=Temper(), sensing_board=True) if sim else None
        self.camera = SimulatedCamera(seed) if sim else None
        self.table: SimulatedTable | None = None
        self.taps: list[tuple[float, float]] = []
        """Corners tapped on the set-up screen's camera picture (image pixels)."""
        self.calibration: Calibration | None = None
        self.message = ""
        self.live_camera: LiveCamera | None = None
        self.live_shot: Shot | None = None
        if camera is not None and not sim:
            if post is None:
                raise ValueError("a live camera needs a way to post to the main thread")
            self.live_camera = LiveCamera(camera, post, self._camera_throw, self._camera_link).start()

    # ------------------------------------------------------------ set-up

    def devices_found(self) -> dict[str, str]:
        """What each device is now: the simulators, a device that answered (with its serial), or the fall-back."""
        if self.sim:
            return {"camera": "sim", "board": "sim", "clock": "sim"}
        found = {"camera": "none", "board": "none", "clock": "software"}
        if self.live_camera is not None and self.live_camera.alive:
            found["camera"] = f"found: {self.live_camera.spec}"
        for name, driver in (("clock", self.clock_driver), ("board", self.board_driver)):
            if driver is not None and driver.status.state is LinkState.CONNECTED:
                found[name] = "found: " + driver.status.detail
        return found

    def camera_picture(self) -> Any:
        """The camera's view of the board for calibration (None without a camera)."""
        if self.live_camera is not None:
            return self.live_camera.picture(wait_s=3.0)
        return self.camera.before if self.camera is not None else None

    def tap_corner(self, x: float, y: float) -> str | None:
        """A tap on the camera picture (image pixels); after the fourth, the calibration (or why it failed)."""
        if self.camera is None and self.live_camera is None:
            return "no camera"
        if len(self.taps) == 4:
            self.taps = []
        self.taps.append((x, y))
        if len(self.taps) < 4:
            return None
        try:
            calibration = Calibration.from_corners(self.taps)
        except CalibrationError as error:
            self.taps = []
            return str(error)
        self.calibration = calibration
        if self.camera is not None:
            self.camera.calibration = calibration
        return None

    def start(self, players: tuple[str, str], variant: str, length: int, mode: Mode, reserve_min: int,
              delay_s: int, pin: str, chouette: tuple[str, ...] = ()) -> str | None:
        """Start (or resume) the match, or a chouette of the players named (the box first); an error
        message for the set-up screen, or None."""
        if mode is Mode.TOURNAMENT and not pin:
            return no_pin_message()
        found = self.devices_found()
        board = self.sim or found["board"].startswith("found")
        physical_clock = not self.sim and found["clock"].startswith("found")
        live = found["camera"].startswith("found")
        try:
            setup = MatchSetup(
                players=players, variant=variant, length=length, mode=mode,
                clock=ClockSettings(reserve_min * 60, delay_s),
                devices=Devices(camera=self.sim or live, board=board, clock=self.sim or physical_clock),
                pin_hash=hash_pin(pin) if pin else "",
                chouette=chouette,
            )
            path = self.journal_path or self.folder / "match.sqlite"
            self.session = Session.resume_or_create(path, setup)
        except (ValueError, JournalError) as error:
            return str(error)
        session = self.session
        self.session.listeners.append(self._on_reaction)
        if self.sim:
            assert self.world is not None and self.camera is not None
            self.world.director_pin = pin  # the simulated director knows the PIN it was given
            try:
                self.table = SimulatedTable(session, self.camera, self.world.think_ms, real_time=True).start()
            except TableError as error:
                return str(error)
            return None
        if self.live_camera is not None:
            if self.live_camera.failure is not None:  # it failed on the set-up screen: say so in the journal
                session.submit(ev.LinkStatus("camera", False, self.live_camera.failure))
            else:
                self.live_camera.arm(self.calibration)
        if physical_clock:
            assert self.clock_driver is not None
            self.clock = self.clock_driver
        self.clock_link = ClockLink(self.clock)
        settings = session.setup.clock
        times = session.referee.times or (settings.reserve_s * 1000, settings.reserve_s * 1000)
        if not physical_clock or session.resumed is None:  # a physical clock that ran on keeps its own times
            for side in dm.Side:
                self.clock.set_time(side, times[side], settings.delay_s * 1000)
        if session.referee.clock is not None:
            self.clock.start_side(dm.Side(int(session.referee.clock)))
        return None

    # ------------------------------------------------------------- events

    def send(self, event: ev.Event) -> Reaction:
        assert self.session is not None
        return self.session.submit(event)

    def _on_reaction(self, event: ev.Event, reaction: Reaction) -> None:
        if self.table is None:  # the simulated table carries out the commands on its own clock
            for command in reaction.commands:
                self.clock_link.apply(command)
        self.log += reaction.rulings
        if reaction.rulings:  # the banner shows the gravest ruling: a broken rule outranks the question after it
            self.banner = max(reaction.rulings, key=lambda ruling: _GRAVITY[ruling.level])

    def press_clock(self, color: int) -> None:
        """A tap on a player's half of the on-screen clock (the simulated clock's button with --sim)."""
        if self.table is not None:
            self.table.press(Color(color), 0)
            return
        if self.clock is self.software_clock:
            self.software_clock.press(dm.Side(color))
        self.pump()

    def pump(self) -> None:
        """Hand the clock's and devices' messages to the referee."""
        if self.session is None:
            return
        if self.table is not None:
            self.table.poll()
            return
        session = self.session
        drain(self.device_queue, lambda: session.referee.position, session.submit, session.note)

    def _camera_throw(self, image: Image, observation: ThrowObservation) -> None:
        """A settled throw from the live camera (on the main thread): judged for whoever threw, then ruled on."""
        if self.session is None:
            return
        event, seen_by = camera_event(observation.dice, self.session.referee)
        self.live_shot = Shot(image, observation.dice, event, seen_by)
        self.session.submit(event)

    def _camera_link(self, up: bool, detail: str) -> None:
        """The live camera started reading or stopped (on the main thread); stopped, the dice are typed."""
        self.message = "" if up else detail
        if self.session is not None:
            self.session.submit(ev.LinkStatus("camera", up, detail))

    def director(self, pin: str, command: str, argument: str = "") -> Reaction:
        assert self.session is not None
        return self.session.director(pin, command, argument)

    def sim_step(self, limit: int = 400) -> None:
        """Let the simulated table act until the referee rules on a throw, a play or the cube."""
        if self.world is None or self.session is None or self.table is None:
            return
        session = self.session
        for _ in range(limit):
            if session.referee.stage is Stage.OVER:
                return
            before = len(self.log)
            try:
                self.table.carry_out(self.world.next_event(session.referee, session.last_event))
            except TableError as error:
                self.message = str(error)
                return
            if any(r.code in _STEP_ENDS for r in self.log[before:]):
                return

    @property
    def last_shot(self) -> Shot | None:
        """The camera's last throw: the picture, the dice read, the verdict."""
        return self.camera.last if self.camera is not None else self.live_shot

    # -------------------------------------------------------------- views

    def text(self, ruling: Ruling) -> str:
        assert self.session is not None
        return render(ruling, self.language, self.session.setup.players)

    def banner_level(self) -> Level:
        return self.banner.level if self.banner is not None else Level.INFO

    def times_ms(self) -> tuple[int, int]:
        """The times the clock shows (the simulated or physical clock's own report when there is one)."""
        report = self.clock_report()
        return report.white_ms, report.black_ms

    def clock_report(self) -> dm.TimeReport:
        """The clock's latest report: times, the side running and the delay left (real time also with --sim)."""
        if self.table is not None:
            return self.table.clock_sim.times()
        if self.clock is self.clock_driver and self.clock_driver.last_report is not None:
            return self.clock_driver.last_report
        return self.software_clock.times()

    def export(self) -> dict[str, Any]:
        assert self.session is not None
        target = self.folder / "export"
        written = write_exports(self.session.referee, self.session.journal, target, language=self.language)
        try:
            from app.export import mat_text

            mat_text(self.session.referee)
            self.message = ""
        except ExportError as error:
            self.message = str(error)
        return {key: str(path) for key, path in written.items()}

    def close(self) -> None:
        if self.live_camera is not None:
            self.live_camera.close()
        if self.table is not None:
            self.table.close()
        for driver in (self.clock_driver, self.board_driver):
            if driver is not None:
                driver.close()
        if self.session is not None:
            self.session.close()
        self.software_clock.close()


def _finder(port: str | None) -> FixedPort | UsbMatch:
    """Where to look for a device: the port given, or any Raspberry Pi Pico on USB (its HELLO says which)."""
    return finder_for(port) if port else UsbMatch(PICO_VID)


_GRAVITY = {Level.INFO: 0, Level.OK: 1, Level.WARNING: 2, Level.ERROR: 3}

_STEP_ENDS = {"dice", "play_ok", "void_throw", "opening_tie", "opening_won", "illegal_play", "unfinished_play",
              "double_offered", "taken", "game_over", "match_over", "illegal_corrected", "early_throw",
              "member_double", "member_take", "member_drop", "member_beaver", "member_raccoon", "chouette_settled"}
