"""The simulated table as the screens see a table: a :class:`app.table.table.Table` like the live station.

``python -m app --sim`` hands the screens this station instead of the live one, so the simulation exercises the
screens' own path: the clock and board simulators on pty pairs with their drivers (:class:`SimulatedTable`),
the camera whose pictures the dice reader reads (:class:`SimulatedCamera`), and the simulated players
(:class:`World`) who act when the screen's "Sim >" is tapped. The clock runs on the wall clock, as a person
sits at the table. Given a board layout (``python -m app --sim --read-checkers light-right``), the table has no
sensing board: the camera reads the checkers the simulated player leaves at each clock press
(:class:`app.sim.board_camera.BoardCamera`), as a station without one does.
"""

from __future__ import annotations

import queue
from typing import Callable

from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from app.referee.rulings import Reaction
from app.referee.setup import Devices
from app.sim.board_camera import BoardCamera
from app.sim.camera import SimulatedCamera
from app.sim.table import SimulatedTable, TableError
from app.sim.world import Temper, World
from app.table.camera import LiveCamera
from app.table.checkers import BoardLayout
from app.table.dice import Image, Shot
from app.table.learning import MatchDice, PracticeThrow
from device import messages as dm
from device.softclock import SoftwareClock
from rules.position import Color
from vision import Calibration

STEP_ENDS = frozenset(
    {
        "dice",
        "play_ok",
        "void_throw",
        "opening_tie",
        "opening_won",
        "illegal_play",
        "unfinished_play",
        "double_offered",
        "taken",
        "game_over",
        "match_over",
        "illegal_corrected",
        "early_throw",
        "member_double",
        "member_take",
        "member_drop",
        "member_beaver",
        "member_raccoon",
        "chouette_settled",
        "throw_questioned",  # an unsure throw: the players answer it on the screen
        "void_questioned",
        "play_asked",  # the camera's reading fits several plays, or it doubts it: the players pick the play
        "play_asked_unsure",
    }
)
"""The rulings a step of the simulated players stops at: something the screen shows happened."""


class SimStation:
    """Simulated clock, sensing board (or, given ``checkers``, the camera reading the checkers instead), camera
    and players serving one match, behind the screens' table."""

    simulated = True

    def __init__(self, seed: int = 1, match_dice: MatchDice | None = None, checkers: BoardLayout | None = None) -> None:
        self.match_dice = match_dice if match_dice is not None else MatchDice()
        self.notify: Callable[[str], None] = lambda message: None
        """Nothing to hear: the simulated camera never stops."""
        self.live_camera: LiveCamera | None = None
        """None: the simulated camera draws its throws, it reads no source."""
        self.world = World(
            seed=seed, temper=Temper(), sensing_board=checkers is None, camera_reads_checkers=checkers is not None
        )
        self.camera = SimulatedCamera(seed, reader=self.match_dice.reader())
        self.board_camera = (
            None if checkers is None else BoardCamera(seed, self.world.board_left, self.camera.reader, checkers)
        )
        """The camera reading the checkers at each press, on a table without a sensing board."""
        self.table: SimulatedTable | None = None
        self.session: Session | None = None
        self._practice: Callable[[PracticeThrow], None] | None = None
        self._practice_throws = 0
        self._codes: list[str] = []
        self._idle_clock = SoftwareClock(queue.Queue())
        """What the clock shows before the match: a clock set to nothing, standing still."""

    def use_camera(self, spec: str | None) -> None:
        """The simulated table's dice are drawn, never read from a device: no camera to choose."""
        raise ValueError("the simulated table draws its dice; it reads no camera")

    def devices_found(self) -> dict[str, str]:
        return {"camera": "sim", "board": "none" if self.board_camera else "sim", "clock": "sim"}

    def devices(self) -> Devices:
        return Devices(camera=True, board=self.board_camera is None, clock=True)

    def has_camera(self) -> bool:
        return True

    def picture(self, wait_s: float = 0.0) -> Image | None:
        """The board between throws, as the simulated camera sees it."""
        return self.camera.before

    def frame_rate(self) -> float | None:
        return None

    def camera_calibration(self) -> Calibration | None:
        return self.camera.calibration

    def use_calibration(self, calibration: Calibration, in_match: bool) -> None:
        self.camera.calibration = calibration

    def start(self, session: Session, calibration: Calibration | None, director_pin: str) -> str | None:
        self.session = session
        self.world.director_pin = director_pin  # the simulated director knows the PIN it was given
        session.listeners.append(self._on_reaction)
        try:
            board_camera = self.board_camera
            self.table = SimulatedTable(
                session,
                self.camera,
                self.world.think_ms,
                sensing_board=board_camera is None,
                real_time=True,
                checkers=None if board_camera is None else board_camera.seen,
            ).start()
        except TableError as error:
            return str(error)
        return None

    def _on_reaction(self, event: ev.Event, reaction: Reaction) -> None:
        self._codes += reaction.codes

    def learn_dice(self, calibration: Calibration | None, practice: Callable[[PracticeThrow], None]) -> str | None:
        self._practice = practice
        return None

    def practice_throw(self) -> None:
        """The simulated referee throws the match dice once (the learning step's next throw)."""
        if self._practice is not None:
            self._practice_throws += 1
            self._practice(self.camera.practice(self._practice_throws))

    def step(self, limit: int = 400) -> str | None:
        """Let the simulated players act until the referee rules on a throw, a play or the cube."""
        session, table = self.session, self.table
        if session is None or table is None:
            return None
        for _ in range(limit):
            if session.referee.stage is Stage.OVER:
                return None
            before = len(self._codes)
            try:
                table.carry_out(self.world.next_event(session.referee, session.last_event))
            except TableError as error:
                return str(error)
            if any(code in STEP_ENDS for code in self._codes[before:]):
                return None
        return None

    def press_clock(self, color: Color) -> None:
        """A tap on the on-screen clock presses the simulated clock's button."""
        if self.table is not None:
            self.table.press(color, 0)

    def pump(self) -> None:
        if self.table is not None:
            self.table.poll()

    def clock_report(self) -> dm.TimeReport:
        """The simulated clock's own report (before the match: the idle clock's)."""
        if self.table is not None:
            return self.table.clock_sim.times()
        return self._idle_clock.times()

    @property
    def last_shot(self) -> Shot | None:
        return self.camera.last

    def close(self) -> None:
        if self.table is not None:
            self.table.close()
        self._idle_clock.close()
