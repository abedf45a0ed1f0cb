"""Clock semantics (docs/rules.md section 5) on the software clock, driven by a fake time source."""

from __future__ import annotations

import queue

import pytest

from device import clockcore
from device.messages import ButtonPressed, ClockState, DelayMode, FlagFell, Side, TimeReport
from device.softclock import SoftwareClock
from device.timecontrol import TimeControl, federation_default


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def setup() -> tuple[SoftwareClock, FakeTime, queue.Queue[object]]:
    fake = FakeTime()
    events: queue.Queue[object] = queue.Queue()
    clock = SoftwareClock(events, time_source=fake)
    clock.set_time_control(TimeControl(60_000, 12_000))
    return clock, fake, events


def drain(events: queue.Queue[object]) -> list[object]:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def test_federation_defaults() -> None:
    assert federation_default(7) == TimeControl(14 * 60_000, 12_000, DelayMode.SIMPLE)
    assert federation_default(5, doubles_or_team=True) == TimeControl(int(12.5 * 60_000), 18_000)
    with pytest.raises(ValueError):
        federation_default(0)


def test_delay_runs_before_the_reserve(setup: tuple[SoftwareClock, FakeTime, queue.Queue[object]]) -> None:
    clock, fake, _ = setup
    clock.start_side(Side.WHITE)
    fake.advance(10)
    report = clock.times()
    assert (report.white_ms, report.delay_left_ms) == (60_000, 2_000)
    fake.advance(5)
    assert clock.times().white_ms == 57_000
    assert clock.times().black_ms == 60_000


def test_press_hands_over_and_unused_delay_is_lost(setup: tuple[SoftwareClock, FakeTime, queue.Queue[object]]) -> None:
    clock, fake, events = setup
    clock.start_side(Side.WHITE)
    fake.advance(3)
    pressed = clock.press(Side.WHITE)
    assert pressed.accepted and pressed.running is Side.BLACK and pressed.white_ms == 60_000
    fake.advance(20)
    report = clock.times()
    assert report.running is Side.BLACK and report.black_ms == 52_000 and report.white_ms == 60_000
    # The waiting side's button does nothing.
    ignored = clock.press(Side.WHITE)
    assert not ignored.accepted and ignored.running is Side.BLACK
    assert ButtonPressed in {type(e) for e in drain(events)}


def test_first_press_starts_the_opponent() -> None:
    fake = FakeTime()
    clock = SoftwareClock(queue.Queue(), time_source=fake)
    clock.set_time_control(TimeControl(60_000, 0))
    assert clock.press(Side.BLACK).running is Side.WHITE  # the lower opening thrower starts the other's clock


def test_flag_falls_exactly_once_at_the_right_time(setup: tuple[SoftwareClock, FakeTime, queue.Queue[object]]) -> None:
    clock, fake, events = setup
    clock.start_side(Side.BLACK)
    fake.advance(71.999)
    clock.poll()
    assert not [e for e in drain(events) if isinstance(e, FlagFell)]
    fake.advance(100)  # polled late: the flag still fell at 72 s, once
    clock.poll()
    clock.poll()
    fake.advance(1)
    clock.poll()
    flags = [e for e in drain(events) if isinstance(e, FlagFell)]
    assert flags == [FlagFell(Side.BLACK, 60_000, 0)]
    report = clock.times()
    assert report.state is ClockState.FLAGGED and report.running is None
    assert not clock.press(Side.BLACK).accepted  # nothing runs after a flag fall


def test_pause_and_resume_keep_delay_and_reserve(setup: tuple[SoftwareClock, FakeTime, queue.Queue[object]]) -> None:
    clock, fake, _ = setup
    clock.start_side(Side.WHITE)
    fake.advance(8)
    clock.pause()
    fake.advance(300)
    paused = clock.times()
    assert paused.state is ClockState.PAUSED and paused.delay_left_ms == 4_000 and paused.white_ms == 60_000
    assert not clock.press(Side.WHITE).accepted
    clock.resume()
    fake.advance(6)
    report = clock.times()
    assert report.state is ClockState.RUNNING and report.white_ms == 58_000 and report.running is Side.WHITE


def test_stop_stops_both(setup: tuple[SoftwareClock, FakeTime, queue.Queue[object]]) -> None:
    clock, fake, _ = setup
    clock.start_side(Side.WHITE)
    fake.advance(20)
    clock.stop()
    fake.advance(100)
    report = clock.times()
    assert report.state is ClockState.STOPPED and report.running is None and report.white_ms == 52_000


def test_bronstein_and_increment() -> None:
    core = clockcore.ClockCore(0)
    core.set_time(0, 60_000, 5_000, clockcore.BRONSTEIN, 0)
    core.set_time(1, 60_000, 5_000, clockcore.INCREMENT, 0)
    core.start(0, 0)
    assert core.press(0, 3_000)  # used 3 s, given back 3 s
    assert core.reserve[0] == 60_000
    assert core.press(1, 10_000)  # used 7 s, increment 5 s
    assert core.reserve[1] == 58_000
    assert core.press(0, 20_000)  # used 10 s, given back only 5 s
    assert core.reserve[0] == 55_000


def test_setting_times_after_a_flag_allows_a_new_start() -> None:
    core = clockcore.ClockCore(0)
    core.set_time(0, 1_000, 0, clockcore.SIMPLE_DELAY, 0)
    core.set_time(1, 1_000, 0, clockcore.SIMPLE_DELAY, 0)
    core.start(0, 0)
    core.advance(5_000)
    assert core.take_flag() == 0 and core.take_flag() == clockcore.NO_SIDE
    assert not core.start(1, 5_000)
    core.set_time(0, 60_000, 0, clockcore.SIMPLE_DELAY, 5_000)
    assert core.start(1, 5_000) and core.state == clockcore.RUNNING


def test_periodic_reports(setup: tuple[SoftwareClock, FakeTime, queue.Queue[object]]) -> None:
    clock, fake, events = setup
    for _ in range(5):
        clock.poll()
        fake.advance(0.5)
    reports = [e for e in drain(events) if isinstance(e, TimeReport)]
    assert len(reports) == 3  # every second, not every poll


def test_the_background_thread_reports_a_flag_on_real_monotonic_time() -> None:
    events: queue.Queue[object] = queue.Queue()
    clock = SoftwareClock(events).start(interval_s=0.01)
    try:
        clock.set_time(Side.WHITE, 150, 50)
        clock.set_time(Side.BLACK, 60_000, 0)
        clock.start_side(Side.WHITE)
        deadline = 10.0
        seen: list[object] = []
        while not any(isinstance(e, FlagFell) for e in seen):
            seen.append(events.get(timeout=deadline))
        assert [e for e in seen if isinstance(e, FlagFell)] == [FlagFell(Side.WHITE, 0, 60_000)]
    finally:
        clock.close()
