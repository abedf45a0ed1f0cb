"""Clock and board drivers against the simulators over real pty pairs (pyserial on both ends)."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest

from device.driver import BoardDriver, ClockDriver, LinkNoise, LinkState, LinkStatus
from device.messages import (
    BoardSnapshot,
    ButtonPressed,
    CheckerLifted,
    CheckerPlaced,
    ClockState,
    DelayMode,
    DeviceError,
    FlagFell,
    SensorHealth,
    Side,
    SnapshotReason,
    TimeReport,
)
from device.sim import BoardSimulator, ClockSimulator, Faults
from device.timecontrol import federation_default
from device.transport import FixedPort, UsbMatch, finder_for, parse_usb
from tests.device.helpers import FAST_DEVICE, FAST_LINK, Events, poll_until


@pytest.fixture
def events() -> Events:
    return Events(queue.Queue())


@pytest.fixture
def clock_sim() -> Iterator[ClockSimulator]:
    with ClockSimulator(**FAST_DEVICE) as sim:
        assert isinstance(sim, ClockSimulator)
        yield sim


@pytest.fixture
def board_sim() -> Iterator[BoardSimulator]:
    with BoardSimulator(settle_ms=100, **FAST_DEVICE) as sim:
        assert isinstance(sim, BoardSimulator)
        yield sim


def connected(kind_events: Events, count: int = 1) -> None:
    kind_events.wait_for(
        lambda seen: len([e for e in seen if isinstance(e, LinkStatus) and e.state is LinkState.CONNECTED]) >= count,
        what=f"{count} connection(s)",
    )


def statuses(ev: Events) -> list[LinkState]:
    return [e.state for e in ev.of(LinkStatus)]


def press_alternately(sim: ClockSimulator, n: int, first: Side = Side.WHITE) -> None:
    side = first
    for _ in range(n):
        assert sim.press(side)
        side = side.other


def assert_presses_exactly(presses: list[ButtonPressed], n: int, first: Side = Side.WHITE) -> None:
    assert len(presses) == n, presses
    assert [p.side for p in presses] == [Side((int(first) + i) % 2) for i in range(n)]
    assert all(p.accepted for p in presses)


def test_clock_driver_commands_and_events(clock_sim: ClockSimulator, events: Events) -> None:
    with ClockDriver(FixedPort(clock_sim.port), events.queue, **FAST_LINK) as driver:
        assert isinstance(driver, ClockDriver)
        connected(events)
        hello = events.of(LinkStatus)[-1].hello
        assert hello is not None and hello.serial == "SIMCLOCK1"
        driver.set_time_control(federation_default(7))
        driver.set_time(Side.BLACK, 10_000, 2_000, DelayMode.BRONSTEIN)
        driver.start_side(Side.WHITE)
        driver.display("Ayşe - Mehmet")
        poll_until(lambda: driver.pending() == 0, what="commands acknowledged")
        assert clock_sim.core.reserve[1] == 10_000 and clock_sim.core.mode[1] == int(DelayMode.BRONSTEIN)
        assert clock_sim.core.running == int(Side.WHITE) and clock_sim.text == "Ayşe - Mehmet"
        clock_sim.press(Side.WHITE)
        [press] = events.wait_count(ButtonPressed, 1)
        assert press == ButtonPressed(Side.WHITE, True, Side.BLACK, press.white_ms, 10_000)
        assert 14 * 60_000 - 1_000 < press.white_ms <= 14 * 60_000
        clock_sim.let_flag_fall(Side.BLACK)
        [flag] = events.wait_count(FlagFell, 1)
        assert flag.side is Side.BLACK and flag.black_ms == 0
        driver.request_times()
        events.wait_for(lambda seen: any(isinstance(e, TimeReport) and e.state is ClockState.FLAGGED for e in seen))
        driver.start_side(Side.WHITE)  # refused after a flag fall, with a reason
        [error] = events.wait_count(DeviceError, 1)
        assert "flag" in error.detail
    events.wait_for(lambda seen: statuses(events)[-1] is LinkState.CLOSED, what="closed status last")


def test_board_driver_snapshot_moves_and_health(board_sim: BoardSimulator, events: Events) -> None:
    with BoardDriver(FixedPort(board_sim.port), events.queue, **FAST_LINK):
        connected(events)
        events.wait_for(
            lambda seen: any(isinstance(e, BoardSnapshot) and e.reason is SnapshotReason.REQUESTED for e in seen),
            what="snapshot on connect",
        )
        first = events.of(BoardSnapshot)[-1]
        assert first.white.total == first.black.total == 15
        assert first.own_counts(Side.BLACK) == first.own_counts(Side.WHITE)  # the start is symmetric
        board_sim.move(24, 18, Side.WHITE)
        board_sim.lift(1, Side.BLACK)  # lift and hold
        events.wait_for(
            lambda seen: any(
                isinstance(e, BoardSnapshot) and e.reason is SnapshotReason.SETTLED and e.white.at(18) == 1
                for e in seen
            ),
            what="settled snapshot",
        )
        assert events.of(CheckerLifted) == [CheckerLifted(24, Side.WHITE), CheckerLifted(1, Side.BLACK)]
        assert events.of(CheckerPlaced) == [CheckerPlaced(18, Side.WHITE)]
        settled = events.of(BoardSnapshot)[-1]
        assert settled.black.total == 14 and settled.black.at(1) == 1  # one black checker in the hand
        board_sim.fail_sensor(7)
        [health] = events.wait_count(SensorHealth, 1)
        assert health == SensorHealth(False, (7,))


def test_cable_pulled_mid_game_loses_and_repeats_nothing(clock_sim: ClockSimulator, events: Events) -> None:
    with ClockDriver(FixedPort(clock_sim.port), events.queue, **FAST_LINK) as driver:
        assert isinstance(driver, ClockDriver)
        connected(events)
        press_alternately(clock_sim, 3)
        events.wait_count(ButtonPressed, 3)
        clock_sim.unplug()
        events.wait_for(lambda seen: statuses(events)[-1] is LinkState.DISCONNECTED, what="disconnected")
        press_alternately(clock_sim, 4, first=Side.BLACK)  # pressed while the cable is out
        driver.pause()  # a command while disconnected waits for the link
        clock_sim.replug()
        connected(events, 2)
        presses = events.wait_count(ButtonPressed, 7)
        poll_until(lambda: driver.pending() == 0, what="pause delivered")
        assert clock_sim.core.state == ClockState.PAUSED
        # After the reconnect the driver read the clock's times back: they match the clock's own.
        events.wait_for(lambda seen: isinstance(seen[-1], TimeReport) and seen[-1].state is ClockState.PAUSED)
        report = events.of(TimeReport)[-1]
        assert (report.white_ms, report.black_ms) == tuple(clock_sim.core.reserve)
        assert_presses_exactly(presses, 7)
        states = statuses(events)
        assert states.index(LinkState.DISCONNECTED) < len(states) - 1 - states[::-1].index(LinkState.CONNECTED)


def test_clock_reboot_gets_the_last_times_back(clock_sim: ClockSimulator, events: Events) -> None:
    with ClockDriver(FixedPort(clock_sim.port), events.queue, **FAST_LINK) as driver:
        assert isinstance(driver, ClockDriver)
        connected(events)
        driver.set_time(Side.WHITE, 100_000, 12_000)
        driver.set_time(Side.BLACK, 90_000, 12_000)
        driver.request_times()
        events.wait_for(lambda seen: any(isinstance(e, TimeReport) and e.white_ms == 100_000 for e in seen))
        clock_sim.reboot()  # power lost: the clock forgets (back to 2:00 each)
        events.wait_for(lambda seen: any(isinstance(e, LinkStatus) and e.restarted for e in seen), what="restart")
        poll_until(lambda: clock_sim.core.reserve == [100_000, 90_000], what="times restored")
        assert clock_sim.core.state == ClockState.STOPPED


def test_faulty_line_over_a_pty(events: Events) -> None:
    faults = dict(corrupt=0.05, drop=0.01, duplicate=0.01, split=True)
    with ClockSimulator(
        faults=Faults(seed=3, **faults),
        inbound_faults=Faults(seed=4, **faults),  # type: ignore[arg-type]
        report_ms=200,
        **FAST_DEVICE,
    ) as sim:
        assert isinstance(sim, ClockSimulator)
        with ClockDriver(FixedPort(sim.port), events.queue, **FAST_LINK) as driver:
            assert isinstance(driver, ClockDriver)
            events.wait_for(
                lambda seen: any(isinstance(e, LinkStatus) and e.state is LinkState.CONNECTED for e in seen),
                timeout=60,
                what="connection through the noise",
            )
            press_alternately(sim, 12)
            for i in range(12):
                driver.set_time(Side(i % 2), 60_000 + i, 12_000)
            presses = events.wait_count(ButtonPressed, 12, timeout=60)
            poll_until(lambda: driver.pending() == 0, timeout=60, what="commands acknowledged")
            assert sim.core.reserve == [60_010, 60_011]  # the last command of each side came last
            assert_presses_exactly(presses, 12)
            assert driver.stats().repaired_frames > 0 and sim.endpoint.link.repaired_frames > 0  # restored packets
            assert sim.faults.bytes_corrupted > 0


def test_silent_device_is_reported_and_recovers(clock_sim: ClockSimulator, events: Events) -> None:
    with ClockDriver(FixedPort(clock_sim.port), events.queue, **FAST_LINK):
        connected(events)
        clock_sim.faults.set("drop", 1.0)  # a stalled USB line: open, but nothing arrives
        events.wait_for(lambda seen: statuses(events)[-1] is LinkState.DISCONNECTED, what="stall noticed")
        assert "silent" in events.of(LinkStatus)[-1].detail
        clock_sim.faults.clear()
        connected(events, 2)


def test_a_board_on_the_clock_port_is_refused(board_sim: BoardSimulator, events: Events) -> None:
    with ClockDriver(FixedPort(board_sim.port), events.queue, **FAST_LINK):
        events.wait_for(lambda seen: any(isinstance(e, LinkStatus) and "refused" in e.detail for e in seen))
    events.wait_for(lambda seen: statuses(events)[-1] is LinkState.CLOSED)
    assert LinkState.CONNECTED not in statuses(events)
    assert "board, not a clock" in [e for e in events.of(LinkStatus) if "refused" in e.detail][0].detail


def test_missing_port_is_searched_for(events: Events, tmp_path: object) -> None:
    with ClockDriver(FixedPort("/nonexistent/tavla-clock"), events.queue, **FAST_LINK):
        events.wait_for(lambda seen: bool(seen), what="a status")
    first = events.of(LinkStatus)[0]
    assert first.state is LinkState.SEARCHING and "nonexistent" in first.detail


def test_usb_discovery_rules() -> None:
    match = parse_usb("usb:2e8a:0005:E660ABC")
    assert match == UsbMatch(0x2E8A, 0x0005, "E660ABC")
    assert match.matches(0x2E8A, 0x0005, "E660ABC")
    assert not match.matches(0x2E8A, 0x0005, "OTHER")
    assert not UsbMatch().matches(None, None, None)  # not a USB port at all
    assert UsbMatch(serial_number="X").matches(0x1234, 0x1, "X")
    assert isinstance(finder_for("socket://localhost:7000"), FixedPort)
    assert UsbMatch(0xFFFF, 0xFFFF).candidates() == []  # asks the real system, finds nothing
    with pytest.raises(ValueError):
        parse_usb("usb:zz")


def test_socket_url_through_a_tcp_bridge(clock_sim: ClockSimulator, events: Events) -> None:
    """A device behind a network serial server: pyserial's socket:// handler, same driver."""
    import os
    import select
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    stop = threading.Event()

    def bridge() -> None:
        connection, _ = server.accept()
        fd = os.open(clock_sim.port, os.O_RDWR | os.O_NOCTTY)
        import tty

        tty.setraw(fd)
        try:
            while not stop.is_set():
                ready, _, _ = select.select([connection, fd], [], [], 0.05)
                if connection in ready:
                    data = connection.recv(4096)
                    if not data:
                        break
                    os.write(fd, data)
                if fd in ready:
                    connection.sendall(os.read(fd, 4096))
        finally:
            os.close(fd)
            connection.close()

    thread = threading.Thread(target=bridge, daemon=True)
    thread.start()
    url = f"socket://127.0.0.1:{server.getsockname()[1]}"
    try:
        with ClockDriver(finder_for(url), events.queue, **FAST_LINK):
            connected(events)
            assert events.of(LinkStatus)[-1].port == url
            clock_sim.press(Side.BLACK)
            [press] = events.wait_count(ButtonPressed, 1)
            assert press.side is Side.BLACK and press.running is Side.WHITE
    finally:
        stop.set()
        thread.join(5)
        server.close()


def test_a_noisy_cable_loses_no_board_event_and_is_reported(events: Events) -> None:
    # One byte in ten corrupted both ways: the first protocol got no snapshot through at all.
    with BoardSimulator(
        faults=Faults(seed=5, corrupt=0.10), inbound_faults=Faults(seed=6, corrupt=0.10), settle_ms=50, **FAST_DEVICE
    ) as sim:
        assert isinstance(sim, BoardSimulator)
        with BoardDriver(FixedPort(sim.port), events.queue, **FAST_LINK):
            connected(events)
            events.wait_for(
                lambda seen: any(isinstance(e, BoardSnapshot) and e.reason is SnapshotReason.REQUESTED for e in seen),
                what="the snapshot asked for on connecting",
            )
            moves = [(24, 20), (13, 10), (8, 5), (6, 3)]
            for done, (source, target) in enumerate(moves, 1):
                sim.move(source, target, Side.WHITE)
                events.wait_for(lambda seen: len(settled(events)) >= done, timeout=30, what=f"settled snapshot {done}")
            assert events.of(CheckerLifted) == [CheckerLifted(s, Side.WHITE) for s, _ in moves]
            assert events.of(CheckerPlaced) == [CheckerPlaced(t, Side.WHITE) for _, t in moves]
            ids = [s.snapshot_id for s in settled(events)]
            assert len(ids) == len(moves) and ids == sorted(set(ids))  # once each, in order
            assert settled(events)[-1].white == sim.side_counts(Side.WHITE)
            warnings = [e for e in events.seen if isinstance(e, LinkNoise)]
            assert warnings[0].noisy and warnings[0].quality.damaged_fraction > 0.01
            assert LinkState.DISCONNECTED not in statuses(events)


def settled(ev: Events) -> list[BoardSnapshot]:
    return [e for e in ev.of(BoardSnapshot) if e.reason is SnapshotReason.SETTLED]
