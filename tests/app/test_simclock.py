"""``python -m app --sim``: the simulated clock runs in real time on the tablet, in virtual time in the demo.

A person at the simulated table must see the time of the side on turn tick; the headless demo's
clock must stand still between actions, so a demo run (and a demo resumed after a crash) reports
the same times every time.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.record.session import Session
from app.referee.events import ClockPressed
from app.sim.camera import typed_dice
from app.sim.table import SimulatedTable
from app.sim.world import World
from rules.position import Color
from tests.app.table import make_setup

WAIT_S = 1.5
TICK_MS = 200  # how stale a simulated clock's report may be


def running_table(tmp_path: Path, real_time: bool) -> tuple[SimulatedTable, Session]:
    """A simulated table whose clock runs for the side on turn after the opening."""
    session = Session.create(tmp_path / "match.sqlite", make_setup(length=3))
    world = World(seed=4)
    table = SimulatedTable(session, typed_dice, world.think_ms, real_time=real_time).start()
    for _ in range(200):
        if session.referee.clock is not None:
            break
        table.carry_out(world.next_event(session.referee, session.last_event))
    assert session.referee.clock is not None, "the clock never started"
    return table, session


def spent(before: tuple[int, int, int], after: tuple[int, int, int]) -> int:
    """Milliseconds gone from the running side's delay and reserve together."""
    return (before[0] + before[2]) - (after[0] + after[2])


def reading(table: SimulatedTable, side: Color) -> tuple[int, int, int]:
    """The running side's reserve, the other side's, and the delay left (ms)."""
    report = table.clock_sim.times()
    mine, theirs = (report.white_ms, report.black_ms) if side is Color.WHITE else (report.black_ms, report.white_ms)
    return mine, theirs, report.delay_left_ms


@pytest.mark.parametrize("real_time", [True, False])
def test_the_tablets_simulated_clock_ticks_in_real_time_and_the_demos_stands_still(
    tmp_path: Path, real_time: bool
) -> None:
    table, session = running_table(tmp_path, real_time)
    try:
        side = session.referee.clock
        assert side is not None
        started = time.monotonic()
        first = reading(table, side)
        read_first = time.monotonic()
        time.sleep(WAIT_S)
        before_second = time.monotonic()
        second = reading(table, side)
        ended = time.monotonic()
        assert second[1] == first[1]  # the side not on turn never loses time
        if real_time:  # bracketed by the time really gone, however slowly a loaded machine runs the threads
            shortest_ms, longest_ms = (before_second - read_first) * 1000, (ended - started) * 1000
            assert shortest_ms - TICK_MS <= spent(first, second) <= longest_ms + TICK_MS
            events = session.referee.events
            table.press(side, 0)  # a person presses: the time really spent is charged, the clock passes
            pressed = session.last_event
            assert session.referee.events > events and isinstance(pressed, ClockPressed) and pressed.by is side
            reported = pressed.white_ms if side is Color.WHITE else pressed.black_ms
            assert reported is not None and reported <= second[0]  # the press carries the real time spent
        else:
            assert second == first  # virtual time: only the players' actions move the demo's clock
    finally:
        table.close()
        session.close()
