"""What the screens need of a table, live or simulated: one interface, so the screens never know which it is.

:class:`app.table.live.LiveStation` is the real table (devices on USB, a camera); :class:`app.sim.station.SimStation`
is the simulated one, driven through the same chain. The door (``python -m app``) builds one and hands it to
the screens' controller. What only the simulation can do (the simulated players' next actions, a practice
throw of the match dice) is here too, and does nothing at a live table, where people do it.
"""

from __future__ import annotations

from typing import Callable, Protocol

from app.record.session import Session
from app.referee.setup import Devices
from app.table.camera import LiveCamera
from app.table.dice import Image, Shot
from app.table.learning import MatchDice, PracticeThrow
from device import messages as dm
from rules.position import Color
from vision import Calibration


class Table(Protocol):
    """The devices and the camera of one table, and the match they serve once started."""

    match_dice: MatchDice
    """The dice reader the table's camera reads with and the dice set it learns."""

    simulated: bool
    """True when simulated players sit at this table (the screen offers to let them act)."""

    notify: Callable[[str], None]
    """Hears why the camera stopped reading ("" when it reads again)."""

    live_camera: LiveCamera | None
    """The reader of a physical camera, video or image folder (None without one: the simulated camera draws)."""

    def use_camera(self, spec: str | None) -> None:
        """Read the dice from the camera ``spec`` from now on (None: no camera, the dice are typed); before the
        match only.

        :raises ValueError: the match has started, or the table reads no camera (the simulated one)."""
        ...

    def devices_found(self) -> dict[str, str]:
        """What each device is now ("camera", "board", "clock"): "found: ..." , "sim", "software" or "none"."""
        ...

    def devices(self) -> Devices:
        """The devices a match started now would be refereed with."""
        ...

    def has_camera(self) -> bool:
        """Whether there is a camera at all (one that failed still counts: its picture says so)."""
        ...

    def picture(self, wait_s: float = 0.0) -> Image | None:
        """The camera's picture of the board now (waiting up to ``wait_s`` for the first one); None without one."""
        ...

    def frame_rate(self) -> float | None:
        """Pictures a second the camera delivers (None when unknown)."""
        ...

    def camera_calibration(self) -> Calibration | None:
        """The board as the camera itself reads it (found in its pictures, or as given)."""
        ...

    def use_calibration(self, calibration: Calibration, in_match: bool) -> None:
        """Read the throws on ``calibration`` from now on (``in_match``: the director marked the board again)."""
        ...

    def start(self, session: Session, calibration: Calibration | None, director_pin: str) -> str | None:
        """Serve ``session`` (its events go through the journal); why not, or None. ``director_pin`` is the PIN
        the match was given (the simulated director uses it; people type it at a live table)."""
        ...

    def learn_dice(self, calibration: Calibration | None, practice: Callable[[PracticeThrow], None]) -> str | None:
        """Hand every settled throw before the match to ``practice``; why not (no camera that reads), or None."""
        ...

    def practice_throw(self) -> None:
        """The simulated referee throws the match dice once for the learning step (live: people throw)."""
        ...

    def step(self, limit: int = 400) -> str | None:
        """Let the simulated players act until the referee rules on a throw, a play or the cube; why it stopped
        short, or None (live: nothing to do)."""
        ...

    def press_clock(self, color: Color) -> None:
        """A tap on a player's half of the on-screen clock."""
        ...

    def pump(self) -> None:
        """Hand what the devices said since the last call to the match (called often by the main loop)."""
        ...

    def clock_report(self) -> dm.TimeReport:
        """The clock's latest report: times, the side running and the delay left."""
        ...

    @property
    def last_shot(self) -> Shot | None:
        """The camera's last throw in the match: the picture, the dice read, the event."""
        ...

    def close(self) -> None:
        """Stop the devices and the camera."""
        ...
