"""The simulated table wired through the real chain: device simulators on pty pairs, drivers, camera.

:class:`app.sim.world.World` decides what the two simulated players do next; this
module makes it happen the way it would at a real table. Checkers are lifted
and placed on the device package's board simulator, the clock is pressed on
its clock simulator (both speak the serial protocol over pseudo-terminals),
the drivers read them back with pyserial onto one queue, and
:mod:`app.table.devices` turns their messages into referee events. Throws go
through a camera (:mod:`app.sim.camera`: an image rendered and read by the real
dice reader). Taps on the tablet (doubles, answers, the choice after an
illegal play) go straight to the referee, as the touch screen does.

Every event is journaled by the :class:`app.record.session.Session` before it takes
effect, and everything the simulators do is derived from the journal, so a
demo killed at any moment resumes exactly:

- The devices live in virtual time (:class:`TableTime`): it runs while the
  links come up and then stands still, advanced only by the players: the
  seconds a player thinks before pressing the clock, the board's settling
  time after a move. A clock press therefore reports the same remaining
  times on every run of the same seed.
- On start the board is laid out as the journal says the checkers stand (the
  last snapshot, then every lift and placement since), the clock gets the
  journal's remaining times and runs for the side the referee last set.
- What a device says because the app (re)connected (link up, the snapshot it
  sends on request or at boot) is handed to the referee only when it tells
  the referee something the journal does not already say.

On the tablet (``python -m app --sim``, ``real_time``) a person sits at the
table, so the clock simulator runs on the wall clock: the side on turn sees
its time tick, and a press charges the time really spent (a simulated
player still thinks at least its ``think_ms``). The demo keeps virtual time.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Referee, Stage
from app.referee.events import event_from_dict
from app.referee.rulings import Reaction
from app.sim.world import snapshot_of
from app.table.devices import ClockLink, device_event, layout_counts, to_board_point
from device import messages as dm
from device.driver import BoardDriver, ClockDriver, LinkState
from device.sim import BoardSimulator, ClockSimulator
from device.transport import FixedPort
from rules.position import Color, Position

UNTIMED_MS = 24 * 3600 * 1000
"""The reserve put on the clock for a match without time control: the clock is then only the turn button."""

SETTLE_MS = 250
"""The board's settling time: a snapshot follows the last change after this long (virtual time)."""

WAIT_S = 15.0
"""How long (real time) to wait for a device to report an action before giving up with an error."""

_SIDE = {Color.WHITE: dm.Side.WHITE, Color.BLACK: dm.Side.BLACK}

# The devices' clocks stand still between the players' actions, so silence on a line means nothing there:
# a real device's silence is measured in real time by the same drivers with their default limits.
_QUIET_MS = 3_600_000
DRIVER_OPTIONS: dict[str, Any] = {
    "rto_ms": 40,
    "heartbeat_ms": 200,
    "silence_ms": _QUIET_MS,
    "hello_retry_ms": 40,
    "retry_s": 0.05,
}
DEVICE_OPTIONS: dict[str, Any] = {"rto_ms": 40, "heartbeat_ms": 200, "host_timeout_ms": _QUIET_MS}


Camera = Callable[[ev.DiceObserved, Referee], ev.Event]
"""Turns the throw the world intends into what reaches the referee (the camera's verdict, or dice typed in)."""


class TableError(RuntimeError):
    """A simulated device did not do what it was asked (a bug in the chain, said plainly)."""


class TableTime:
    """A time source for the simulators: runs with the wall clock, or stands still and is advanced by hand.

    Whole milliseconds, so a clock that is advanced by 30,000 ms has spent exactly that.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ms = 1_000_000
        self._running_since: float | None = None

    def __call__(self) -> float:
        return (self.now_ms() + 0.5) / 1000.0  # the half keeps int(t * 1000) on the whole millisecond

    def now_ms(self) -> int:
        with self._lock:
            if self._running_since is None:
                return self._ms
            return self._ms + int((time.monotonic() - self._running_since) * 1000)

    def run(self) -> None:
        with self._lock:
            if self._running_since is None:
                self._running_since = time.monotonic()

    def freeze(self) -> None:
        with self._lock:
            if self._running_since is not None:
                self._ms += int((time.monotonic() - self._running_since) * 1000)
                self._running_since = None

    def advance(self, ms: int) -> None:
        with self._lock:
            self._ms += max(ms, 0)


class TableBoard(BoardSimulator):
    """The board simulator booting with the checkers where they stand, some perhaps in a player's hand."""

    def __init__(self, layout: tuple[dm.SideCounts, dm.SideCounts], in_hand: tuple[int, int], **options: Any) -> None:
        self._layout = layout
        self._hand = in_hand
        super().__init__(**options)

    def reset_state(self, now_ms: int) -> None:
        if not self._counts:  # the first boot: the checkers stand as given (the base would lay out the start)
            self.set_position(*self._layout, announce=False)
            self.in_hand = {dm.Side.WHITE: self._hand[0], dm.Side.BLACK: self._hand[1]}
            self._snapshot_id = 0
            self._changed_at = None
            return
        super().reset_state(now_ms)

    @property
    def changing(self) -> bool:
        """True while a change waits to settle into a snapshot."""
        return self._changed_at is not None

    def arrange(self, white: dm.SideCounts, black: dm.SideCounts) -> None:
        """A player sets the checkers out by hand (a new game, a correction); the board settles after it."""
        with self._lock:
            self.in_hand = {dm.Side.WHITE: 0, dm.Side.BLACK: 0}
            self.set_position(white, black, announce=True)


@dataclass(frozen=True)
class Standing:
    """Where the journal says the checkers stand now: the last snapshot with every lift and placement since."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    in_hand: tuple[int, int]
    snapshot: ev.BoardSeen | None
    """The last snapshot handed to the referee (None before the first)."""

    def counts(self, color: Color) -> tuple[int, ...]:
        return self.white if color is Color.WHITE else self.black

    def after(self, event: ev.Event) -> "Standing":
        """The standing once ``event`` was handed to the referee."""
        if isinstance(event, ev.BoardSeen):
            return Standing(event.white, event.black, (0, 0), event)
        if isinstance(event, (ev.LiftSeen, ev.PlaceSeen)):
            lifted = isinstance(event, ev.LiftSeen)
            counts = list(self.counts(event.color))
            hand = list(self.in_hand)
            if lifted:
                counts[event.point] = max(counts[event.point] - 1, 0)
                hand[event.color] += 1
            else:
                counts[event.point] += 1
                hand[event.color] = max(hand[event.color] - 1, 0)
            white, black = (tuple(counts), self.black) if event.color is Color.WHITE else (self.white, tuple(counts))
            return Standing(white, black, (hand[0], hand[1]), self.snapshot)
        return self

    def shows(self, event: ev.BoardSeen) -> bool:
        """True when a snapshot says nothing new: the checkers stand where the journal already has them."""
        return self.snapshot is not None and (event.white, event.black) == (self.white, self.black)

    @classmethod
    def of(cls, position: Position) -> "Standing":
        """The checkers set out for ``position`` (nothing reported yet)."""
        snapshot = snapshot_of(position)
        return cls(snapshot.white, snapshot.black, (0, 0), None)

    @classmethod
    def from_journal(cls, session: Session) -> "Standing":
        """Fold the journal's board events (the whole match: a board keeps its checkers between games)."""
        standing = cls.of(Referee.start(session.setup).position)
        for entry in session.journal.entries():
            if entry.kind == "event":
                standing = standing.after(event_from_dict(entry.payload["event"]))
        return standing


class SimulatedTable:
    """Clock and board simulators with their drivers, and a camera, serving one session.

    ``camera(intention, referee)`` turns the throw the world intends into the event the camera reports.
    ``think_ms(referee, by)`` says how long a player thinks before pressing the clock.
    """

    def __init__(
        self,
        session: Session,
        camera: Camera,
        think_ms: Callable[[Referee, Color], int],
        sensing_board: bool = True,
        real_time: bool = False,
        checkers: Callable[[Referee], ev.CheckersSeen] | None = None,
    ) -> None:
        self.session = session
        self.checkers = checkers
        """The camera's reading of the board the mover leaves, sent just before a press that ends a play (a
        table without a sensing board whose camera reads the checkers: :mod:`app.sim.board_camera`)."""
        self.real_time = real_time
        self.camera = camera
        self.think_ms = think_ms
        self.sensing_board = sensing_board
        self.queue: queue.Queue[object] = queue.Queue()
        self.clock_time = TableTime()
        self.board_time = TableTime()
        self.standing = Standing.from_journal(session)
        self.timed = session.setup.clock.reserve_s > 0
        self.clock_sim = ClockSimulator(time_source=self.clock_time, **DEVICE_OPTIONS)
        self.clock = ClockDriver(FixedPort("unset"), self.queue, **DRIVER_OPTIONS)
        self.board_sim: TableBoard | None = None
        self.board: BoardDriver | None = None
        if sensing_board:
            layout = layout_counts(self.standing.white, self.standing.black, session.referee.position)
            self.board_sim = TableBoard(
                layout, self.standing.in_hand, settle_ms=SETTLE_MS, time_source=self.board_time, **DEVICE_OPTIONS
            )
        self.clock_link = ClockLink(self.clock)
        self.messages = 0
        """Device messages read from the queue (for the demo's summary)."""
        self._listener = self._on_reaction

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> "SimulatedTable":
        """Plug in and power up the devices, restore the clock from the journal, wait for both links. A start
        that fails on the way (devices silent, the demo's reader gone with ``| head``) closes what it opened:
        ``with`` closes only a table whose start returned, and the simulators' threads and links would stay."""
        try:
            return self._power_up()
        except BaseException:
            self.close()
            raise

    def _power_up(self) -> "SimulatedTable":
        self.clock_time.run()
        self.board_time.run()
        try:
            self.clock_sim.start()
            if self.board_sim is not None:
                self.board_sim.start()
        except OSError as error:  # no pseudo-terminals here (a container without /dev/pts)
            raise TableError(
                f"the device simulators talk over pseudo-terminals and none can be opened here "
                f"({error}): mount /dev/pts (a container or chroot needs it)"
            ) from None
        self.clock = ClockDriver(FixedPort(self.clock_sim.port), self.queue, **DRIVER_OPTIONS)
        self.clock_link = ClockLink(self.clock)
        self.clock.start()
        if self.board_sim is not None:
            self.board = BoardDriver(FixedPort(self.board_sim.port), self.queue, **DRIVER_OPTIONS)
            self.board.start()
        referee = self.session.referee
        settings = self.session.setup.clock
        reserve = settings.reserve_s * 1000 if self.timed else UNTIMED_MS
        times = referee.times if referee.times is not None and self.timed else (reserve, reserve)
        for color in Color:
            self.clock.set_time(_SIDE[color], times[color], settings.delay_s * 1000)
        if referee.clock is not None:
            self.clock.start_side(_SIDE[referee.clock])
        held: list[object] = []
        deadline = time.monotonic() + WAIT_S
        board_seen = self.board is None
        while True:
            if self._links_up() and board_seen and self._commands_done():
                break
            if time.monotonic() > deadline:
                raise TableError(f"the simulated devices did not come up in {WAIT_S:.0f} s: {self._link_states()}")
            try:
                message = self.queue.get(timeout=0.01)
            except queue.Empty:
                continue
            self.messages += 1
            held.append(message)
            if isinstance(message, dm.BoardSnapshot) and message.reason is dm.SnapshotReason.REQUESTED:
                board_seen = True
        if not self.real_time:
            self.clock_time.freeze()
        self.board_time.freeze()
        self.session.listeners.append(self._listener)
        # what the referee learns from the start-up, in a fixed order: the links, then the board
        links = dict(self.session.referee.links)
        for device, driver in (("clock", self.clock), ("board", self.board)):
            if driver is not None and links.get(device) is not True:
                self._submit(device_event(driver.status, self.session.referee.position))
        snapshots = [m for m in held if isinstance(m, dm.BoardSnapshot)]
        if snapshots:
            self.handle(snapshots[-1])
        return self

    def close(self) -> None:
        if self._listener in self.session.listeners:
            self.session.listeners.remove(self._listener)
        for driver in (self.clock, self.board):
            if driver is not None:
                driver.close()
        self.clock_sim.close()
        if self.board_sim is not None:
            self.board_sim.close()

    def __enter__(self) -> "SimulatedTable":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _links_up(self) -> bool:
        return all(d.status.state is LinkState.CONNECTED for d in (self.clock, self.board) if d is not None)

    def _commands_done(self) -> bool:
        return all(d.pending() == 0 for d in (self.clock, self.board) if d is not None)

    def _link_states(self) -> str:
        return "; ".join(
            f"{d.KIND.name.lower()}: {d.status.state.value} ({d.status.detail})"
            for d in (self.clock, self.board)
            if d is not None
        )

    def _on_reaction(self, event: ev.Event, reaction: Reaction) -> None:
        for command in reaction.commands:
            self.clock_link.apply(command)

    # ------------------------------------------------------------------ acting

    def carry_out(self, intention: ev.Event) -> None:
        """Make what the world intends happen at the table; the devices' reports reach the referee."""
        self._wait(self._commands_done, "the clock to take the referee's commands")
        referee = self.session.referee
        if isinstance(intention, ev.DiceObserved):
            self._submit(self.camera(intention, referee))
        elif isinstance(intention, (ev.ClockPressed, ev.ClockFlag)):
            by = intention.by if isinstance(intention, ev.ClockPressed) else intention.color
            ends_a_play = referee.stage is Stage.PLAY and by is referee.mover and referee.clock is by
            if self.checkers is not None and isinstance(intention, ev.ClockPressed) and ends_a_play:
                self._submit(self.checkers(referee))
            self.press(by, self.think_ms(referee, by) if self.timed else 0)
        elif isinstance(intention, (ev.LiftSeen, ev.PlaceSeen, ev.BoardSeen)) and self.board_sim:
            self.move(intention, referee.position)
        else:
            self._submit(intention)  # a tap on the tablet

    def press(self, by: Color, think_ms: int) -> None:
        """``by`` thinks ``think_ms`` on its own clock (if it runs), then presses its button."""
        side = _SIDE[by]
        self.clock_sim.times()  # brings the clock's model up to now (time stands still from here to the press)
        core = self.clock_sim.core
        used = core.used_this_turn if core.running == int(side) else think_ms
        self.clock_time.advance(think_ms - used)  # nothing when more than that has passed in real time
        self.clock_sim.press(side)
        self._collect(lambda m: isinstance(m, dm.ButtonPressed) and m.side is side, f"{by.name.lower()}'s press")

    def poll(self) -> None:
        """Hand over what the devices said by themselves since the last action (a flag falling in real time)."""
        while True:
            try:
                message = self.queue.get_nowait()
            except queue.Empty:
                return
            self.messages += 1
            self.handle(message)

    def move(self, intention: ev.Event, position: Position) -> None:
        board = self.board_sim
        assert board is not None
        if isinstance(intention, ev.BoardSeen):
            white, black = layout_counts(intention.white, intention.black, position)
            if (
                (board.side_counts(dm.Side.WHITE), board.side_counts(dm.Side.BLACK)) != (white, black)
                or any(board.in_hand.values())
                or not board.changing
            ):
                board.arrange(white, black)
            self.board_time.advance(board.settle_ms)
            self._collect(
                lambda m: isinstance(m, dm.BoardSnapshot) and m.reason is dm.SnapshotReason.SETTLED,
                "the board's snapshot",
            )
            return
        assert isinstance(intention, (ev.LiftSeen, ev.PlaceSeen))
        side = _SIDE[intention.color]
        point = to_board_point(intention.point, intention.color, position)
        if isinstance(intention, ev.LiftSeen):
            board.lift(point, side)
            self._collect(
                lambda m: isinstance(m, dm.CheckerLifted) and (m.point, m.colour) == (point, side), "the lift"
            )
        else:
            board.place(point, side)
            self._collect(
                lambda m: isinstance(m, dm.CheckerPlaced) and (m.point, m.colour) == (point, side), "the placement"
            )

    # --------------------------------------------------------------- the queue

    def _collect(self, expected: Callable[[object], bool], what: str) -> None:
        """Hand device messages to the referee until the one the action causes has come."""
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                message = self.queue.get(timeout=max(deadline - time.monotonic(), 0.001))
            except queue.Empty:
                raise TableError(
                    f"no report of {what} from the simulated devices in {WAIT_S:.0f} s ({self._link_states()})"
                ) from None
            self.messages += 1
            self.handle(message)
            if expected(message):
                return

    def handle(self, message: object) -> None:
        """One device message: an event for the referee unless the journal already says as much."""
        referee = self.session.referee
        try:
            event = device_event(message, referee.position)
        except (ValueError, KeyError, IndexError, StopIteration) as error:
            self.session.note("device", repr(message), str(error))
            return
        if event is None:
            return
        if isinstance(event, ev.LinkChanged) and dict(referee.links).get(event.device) is event.up:
            return
        resync = isinstance(message, dm.BoardSnapshot) and message.reason is not dm.SnapshotReason.SETTLED
        if resync and isinstance(event, ev.BoardSeen) and self.standing.shows(event):
            return
        self._submit(event)

    def _submit(self, event: ev.Event | None) -> None:
        if event is None:
            return
        self.session.submit(event)
        self.standing = self.standing.after(event)

    def _wait(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while not condition():
            if time.monotonic() > deadline:
                raise TableError(f"timed out waiting for {what} ({self._link_states()})")
            time.sleep(0.001)
