"""A live station: the real table's devices wired to one match, without a screen.

The clock and the sensing board are looked for on USB (the reference firmware's Raspberry Pi Pico ids; each
port's HELLO tells a clock from a board) or on ports named on the command line, and used when they answer;
otherwise the device package's software clock runs on screen and plays are entered on the tablet. A physical
camera, video or image folder is read by :class:`app.table.camera.LiveCamera` in a thread; its settled
throws reach the referee on the main thread through ``post`` (:mod:`app.table.dice` makes the event), and
when it fails or ends the referee rules it disconnected and the dice are typed.

Told how the board lies under the camera (``checkers``: White's colour and home side), the station also reads
the checkers from the camera's picture when the mover presses the clock and hands the reading to the referee just
before the press (:mod:`app.table.checkers`): without a sensing board the play is judged from it; with one, the
board judges and a sure reading that disagrees calls the director. The hand that moved the checkers may still be
over the board at the press: the press then waits (``PRESS_WAIT_S`` at most, the events after it behind it) until
the board has stood still for ``STILL_AT_PRESS_S``; a board still moving when the wait ends is read as an unsure
reading, so the play is asked, never judged from a hand. The look for the dice among the checkers at the press
starts from the picture of the throw the play answers: only what changed since is read
(:func:`app.table.checkers.dice_at_press`).
"""

from __future__ import annotations

import dataclasses
import queue
import time
from typing import Callable

import cv2

from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from app.referee.rulings import Reaction
from app.referee.setup import Devices
from app.table.camera import LiveCamera, Post
from app.table.checkers import BoardLayout, ThrowSeen, dice_at_press, read_checkers
from app.table.devices import BoardReadings, ClockLink, drain
from app.table.dice import Image, Shot, shot
from app.table.learning import MatchDice, PracticeThrow
from device import messages as dm
from device.clockapi import ClockControl
from device.driver import BoardDriver, ClockDriver, LinkState
from device.softclock import SoftwareClock
from device.transport import PICO_VID, FixedPort, UsbMatch, finder_for
from rules.position import Color
from rules.steprules import Landing
from vision import Calibration, Reader, ThrowObservation, VisionError
from vision.checkers import shipped_counter

PRESS_WAIT_S = 1.0
"""The longest a press that ends a play waits for the board to stand still before the camera reads it."""
STILL_AT_PRESS_S = 0.3
"""How long the board must have stood still for its picture to be the board the mover left."""
MOVING_AT_PRESS = "the board was still moving at the clock press (a hand over it)"


class LiveStation:
    """The devices of one table and the match they serve: a :class:`app.table.table.Table`. ``notify`` hears why
    the camera stopped ("" when it reads again)."""

    simulated = False

    def __init__(
        self,
        clock_port: str | None = None,
        board_port: str | None = None,
        camera: str | None = None,
        post: Post | None = None,
        notify: Callable[[str], None] = lambda message: None,
        match_dice: MatchDice | None = None,
        checkers: BoardLayout | None = None,
    ) -> None:
        self.session: Session | None = None
        self.checkers = checkers
        """How the board lies under the camera, when the camera is to read the checkers at each press."""
        self._dice_reader: Reader | None = None
        """The reader that finds the dice among the checkers (made at the first reading)."""
        self._throw_seen: ThrowSeen | None = None
        """The camera's picture of the throw the next play answers, until the press that ends it is read."""
        self._held: tuple[ev.ClockPressed, float] | None = None
        """A press waiting for the board to stand still, and the monotonic time it waits until."""
        self._behind_held: list[ev.Event] = []
        """The devices' events that came after the held press, in order."""
        self.notify = notify
        self.match_dice = match_dice if match_dice is not None else MatchDice()
        self.device_queue: queue.Queue[object] = queue.Queue()
        self.board_readings = BoardReadings()
        """The sensing board's reading numbers seen so far (a late or repeated one is the board's fault)."""
        self.software_clock = SoftwareClock(self.device_queue)
        # from the start: the set-up screen shows what answered
        self.clock_driver = ClockDriver(_finder(clock_port), self.device_queue)
        self.board_driver = BoardDriver(_finder(board_port), self.device_queue)
        self.clock_driver.start()
        self.board_driver.start()
        self.clock: ClockControl = self.software_clock
        self.clock_link = ClockLink(self.clock)
        self.live_camera: LiveCamera | None = None
        self.last_shot: Shot | None = None
        """The live camera's last throw: the picture, the dice read, the event."""
        self.practice: Callable[[PracticeThrow], None] | None = None
        """Where the settled throws go before the match (the match dice being learned)."""
        self._offered = Devices(camera=False, board=False, clock=False)
        """The devices last offered to a match (:meth:`devices`): the clock :meth:`start` takes."""
        self.post = post
        self.use_camera(camera)

    def use_camera(self, spec: str | None) -> None:
        """Read the dice from ``spec`` (an index, a video file, an image folder; None: the dice are typed) from
        now on, the camera read before stopped; before the match only, as the match's calibration is its camera's."""
        if self.session is not None:
            raise ValueError("the camera is chosen before the match")
        if self.live_camera is not None:
            self.live_camera.close()
            self.live_camera = None
        if spec is not None:
            if self.post is None:
                raise ValueError("a live camera needs a way to post to the main thread")
            reader = self.match_dice.reader
            self.live_camera = LiveCamera(spec, self.post, self.camera_throw, self.camera_link, reader).start()

    def devices_found(self) -> dict[str, str]:
        """What each device is now: a device that answered (with its serial), or the fall-back."""
        found = {"camera": "none", "board": "none", "clock": "software"}
        if self.live_camera is not None and self.live_camera.alive:
            found["camera"] = f"found: {self.live_camera.spec}"
        for name, driver in (("clock", self.clock_driver), ("board", self.board_driver)):
            if driver.status.state is LinkState.CONNECTED:
                found[name] = "found: " + driver.status.detail
        return found

    def devices(self) -> Devices:
        """The devices that answered: the others fall back to the on-screen clock and typed dice and plays."""
        found = self.devices_found()
        self._offered = Devices(
            camera=found["camera"].startswith("found"),
            board=found["board"].startswith("found"),
            clock=found["clock"].startswith("found"),
        )
        return self._offered

    def has_camera(self) -> bool:
        return self.live_camera is not None

    def picture(self, wait_s: float = 0.0) -> Image | None:
        return self.live_camera.picture(wait_s=wait_s) if self.live_camera is not None else None

    def frame_rate(self) -> float | None:
        return self.live_camera.frame_rate if self.live_camera is not None else None

    def camera_calibration(self) -> Calibration | None:
        return self.live_camera.calibration if self.live_camera is not None else None

    def use_calibration(self, calibration: Calibration, in_match: bool) -> None:
        """Mid-match the camera reads with the new corners at once; before it, :meth:`start` arms it with them."""
        if self.live_camera is not None and in_match:
            self.live_camera.recalibrate(calibration)

    def start(self, session: Session, calibration: Calibration | None, director_pin: str = "") -> str | None:
        """Serve ``session``: arm the camera, take the physical clock if one answered, and set the clock's
        times from the journal (a physical clock that ran on through a restart keeps its own)."""
        physical_clock = self._offered.clock  # as the match was set up now (a resumed journal's own set-up may differ)
        self.session = session
        session.listeners.append(self.on_reaction)
        if self.live_camera is not None:
            if self.live_camera.failure is not None:  # it failed on the set-up screen: say so in the journal
                session.submit(ev.LinkChanged("camera", False, self.live_camera.failure))
            else:
                self.live_camera.arm(calibration)
                if self.checkers is not None:
                    shipped_counter()  # loaded now, not at the first press it would keep waiting
        if physical_clock:
            self.clock = self.clock_driver
        self.clock_link = ClockLink(self.clock)
        settings = session.setup.clock
        times = session.referee.times or (settings.reserve_s * 1000, settings.reserve_s * 1000)
        if not physical_clock or session.resumed is None:
            for side in dm.Side:
                self.clock.set_time(side, times[side], settings.delay_s * 1000)
        if session.referee.clock is not None:
            self.clock.start_side(dm.Side(int(session.referee.clock)))
        return None

    def on_reaction(self, event: ev.Event, reaction: Reaction) -> None:
        """Carry out the referee's clock commands."""
        for command in reaction.commands:
            self.clock_link.apply(command)

    def press_clock(self, color: Color) -> None:
        """A tap on a player's half of the on-screen clock."""
        if self.clock is self.software_clock:
            self.software_clock.press(dm.Side(color))
        self.pump()

    def pump(self) -> None:
        """Hand the clock's and devices' messages to the referee (a held press first, once the board is still)."""
        session = self.session
        if session is None:
            return
        self._release_held()
        drain(self.device_queue, lambda: session.referee.position, self._submit, session.note, self.board_readings)

    def _submit(self, event: ev.Event) -> None:
        """A device's event for the referee; a press that ends a play goes after the camera's reading of the board,
        held until the board stands still."""
        session = self.session
        assert session is not None
        if self._held is not None:
            self._behind_held.append(event)
            return
        if isinstance(event, ev.ClockPressed) and self.reads_checkers_at(event.by):
            if not self._board_still():
                self._held = (event, time.monotonic() + PRESS_WAIT_S)
                return
            seen = self.read_checkers(event.by)
            if seen is not None:
                session.submit(seen)
        session.submit(event)

    def _board_still(self) -> bool:
        """Whether the camera's latest picture shows a board that has stood still long enough (or says nothing of
        motion: a single picture)."""
        camera = self.live_camera
        still = camera.still_for() if camera is not None else None
        return still is None or still >= STILL_AT_PRESS_S

    def _release_held(self, now: bool = False) -> None:
        """Send the held press with the camera's reading once the board is still, its wait is over, or ``now``;
        then the events that came behind it."""
        session, held = self.session, self._held
        if session is None or held is None:
            return
        press, until = held
        still = self._board_still()
        if not (still or now or time.monotonic() >= until):
            return
        self._held = None
        seen = self.read_checkers(press.by, moving=not still)
        if seen is not None:
            session.submit(seen)
        session.submit(press)
        behind, self._behind_held = self._behind_held, []
        for event in behind:
            self._submit(event)

    def reads_checkers_at(self, by: Color) -> bool:
        """Whether ``by``'s press ends ``by``'s play with a camera that is to read the checkers."""
        session, camera = self.session, self.live_camera
        if session is None or camera is None or self.checkers is None or camera.failure is not None:
            return False
        referee = session.referee
        return referee.stage is Stage.PLAY and by is referee.mover and referee.clock is by

    def read_checkers(self, by: Color, moving: bool = False) -> ev.CheckersSeen | None:
        """The camera's reading of the board as ``by``'s press finds it, when that press ends ``by``'s play and
        the camera is to read the checkers; None otherwise, or when the picture cannot be read (noted).
        ``moving``: the board had not stood still, so the reading cannot be sure."""
        session, camera, layout = self.session, self.live_camera, self.checkers
        if session is None or camera is None or layout is None or not self.reads_checkers_at(by):
            return None
        image, calibration = camera.picture(), camera.calibration
        if image is None or calibration is None:
            return None
        throw, self._throw_seen = self._throw_seen, None
        try:
            if self._dice_reader is None:
                self._dice_reader = self.match_dice.reader()
            seen, _ = read_checkers(
                image,
                calibration,
                layout,
                session.referee.position.RULES.facing,
                dice_at_press(self._dice_reader, image, calibration, throw),
                session.referee.position.RULES.landing is Landing.PIN,
            )
        except (VisionError, cv2.error, ValueError) as error:
            session.note("camera", "checkers at the clock press", str(error))
            return None
        if moving:  # nothing is known for certain of a board a hand may be over: no ranges either
            doubts = (MOVING_AT_PRESS, *seen.doubts)[:20]
            return dataclasses.replace(
                seen, sure=False, doubts=doubts, white_low=(), white_high=(), black_low=(), black_high=()
            )
        return seen

    def step(self, limit: int = 400) -> str | None:
        """People play at a live table: nothing to do."""
        return None

    def practice_throw(self) -> None:
        """People throw the match dice at a live table: nothing to do."""

    def learn_dice(self, calibration: Calibration | None, practice: Callable[[PracticeThrow], None]) -> str | None:
        """Read throws before the match, each handed to ``practice`` (the learning step); why not (no camera
        that reads), or None."""
        if self.live_camera is None:
            return "no camera"
        if self.live_camera.failure is not None:
            return self.live_camera.failure
        self.practice = practice
        self.live_camera.arm(calibration)
        return None

    def camera_throw(self, image: Image, observation: ThrowObservation) -> None:
        """A settled throw from the live camera (on the main thread), handed to the referee (before the match,
        to the learning step)."""
        if self.session is None:
            if self.practice is not None:
                self.practice(PracticeThrow.of(image, observation))
            return
        calibration = self.live_camera.calibration if self.live_camera is not None else None
        taken = shot(image, observation, self.session.referee, calibration)
        self._throw_seen = ThrowSeen(image, tuple(d.box for d in observation.dice))
        self.last_shot = taken  # before the referee hears of it: its listeners may look at the picture
        self.session.submit(taken.event)

    def camera_link(self, up: bool, detail: str) -> None:
        """The live camera started reading or stopped (on the main thread); stopped, the dice are typed."""
        self.notify("" if up else detail)
        if self.session is not None:
            self.session.submit(ev.LinkChanged("camera", up, detail))

    def clock_report(self) -> dm.TimeReport:
        """The clock's latest report: the physical clock's own when it has sent one, else the software clock's."""
        if self.clock is self.clock_driver and self.clock_driver.last_report is not None:
            return self.clock_driver.last_report
        return self.software_clock.times()

    def close(self) -> None:
        if self._held is not None:  # a press is never lost: it goes with what the camera sees now
            self._release_held(now=True)
        if self.live_camera is not None:
            self.live_camera.close()
        for driver in (self.clock_driver, self.board_driver):
            driver.close()
        self.software_clock.close()


def _finder(port: str | None) -> FixedPort | UsbMatch:
    """Where to look for a device: the port given, or any Raspberry Pi Pico on USB (its HELLO says which)."""
    return finder_for(port) if port else UsbMatch(PICO_VID)
