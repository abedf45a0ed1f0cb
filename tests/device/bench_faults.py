"""Fault-injection benchmark of the device link: frames sent, damaged, recovered, lost.

    .venv/bin/python -m tests.device.bench_faults [--messages N] [--pty-messages M] [--corruption-only | --drops-only]

Part 1 joins the host's and the device's protocol ends by a faulty line in
virtual time (tests/device/virtual_line.py): N reliable events from the
device and N commands from the host per fault setting, every packet passed
through the fault injector on its own so damaged packets can be counted.
Part 2 is the real thing: the clock simulator and the clock driver over a
pty pair, 5 % of bytes corrupted plus drops, duplicates and split writes in
both directions, and the cable pulled and plugged back halfway.

Part 3 measures what a player would notice on a noisy cable: the clock and
the sensing board simulators and their drivers over pty pairs, 1, 5 and 10 %
of bytes corrupted both ways from the first byte on (handshake included), the
product's own timings; every event the device emits is timed from its
emission to its arrival on the app's queue. The same part runs unchanged
against older versions of the protocol (``--corruption-only``) for the figures
side by side in docs/trust.md.

Part 4 is part 3 on lines that lose bytes: 1, 5 and 10 % of bytes dropped,
and 10 % corrupted with 2 % dropped, both ways (``--drops-only``).

"recovered" counts reliable frames acknowledged only after a retransmission;
"lost", "duplicated" and "wrong" compare what arrived with what was sent.
"""

from __future__ import annotations

import argparse
import queue
import time
from collections import Counter

from device.driver import BoardDriver, ClockDriver, DeviceDriver, LinkState, LinkStatus
from device.messages import (
    BoardSnapshot,
    ButtonPressed,
    CheckerLifted,
    CheckerPlaced,
    DelayMode,
    FlagFell,
    Message,
    SensorHealth,
    SetTime,
    Side,
    SnapshotReason,
)
from device.sim import BoardSimulator, ClockSimulator, Faults
from device.sim.base import SimulatedDevice
from device.transport import FixedPort
from tests.device.virtual_line import VirtualLine

SCENARIOS: list[tuple[str, dict[str, float]]] = [
    ("clean line", {}),
    ("5 % bytes corrupted", {"corrupt": 0.05}),
    ("1 % dropped + 1 % duplicated", {"drop": 0.01, "duplicate": 0.01}),
    ("5 % corrupted + 1 % dropped + 1 % duplicated", {"corrupt": 0.05, "drop": 0.01, "duplicate": 0.01}),
]


def _compare(sent: list[Message], got: list[Message]) -> tuple[int, int, int]:
    """(lost, duplicated, wrong) of got against sent."""
    want, have = Counter(sent), Counter(got)
    lost = sum((want - have).values())
    duplicated = sum(min(have[m] - want[m], have[m]) for m in have if m in want and have[m] > want[m])
    wrong = sum(n for m, n in have.items() if m not in want)
    return lost, duplicated, wrong


def virtual(n: int) -> None:
    print(f"Part 1: virtual line, {n} device events + {n} host commands per row, retransmission timeout 50 ms")
    header = (
        "faults",
        "frames sent",
        "packets damaged",
        "frames lost",
        "retransmitted",
        "recovered",
        "messages",
        "delivered",
        "lost",
        "duplicated",
        "wrong",
        "in order",
        "virtual time",
    )
    print(" | ".join(header))
    for name, faults in SCENARIOS:
        line = VirtualLine(down=Faults(seed=11, **faults), up=Faults(seed=12, **faults))  # type: ignore[arg-type]
        line.run_until(lambda: line.connected, 60_000)
        events = [ButtonPressed(Side(i % 2), True, Side((i + 1) % 2), i, 10_000 + i) for i in range(n)]
        commands = [SetTime(Side(i % 2), 60_000 + i, 12_000, DelayMode.SIMPLE) for i in range(n)]
        start = line.now
        to_send = list(zip(events, commands))

        def feed() -> bool:
            # Keep a few messages queued each way, as a busy game would (the queues are bounded).
            while to_send and line.device.link.pending() < 8:
                event, command = to_send.pop(0)
                line.device_event(event)
                line.host_command(command)
            return not to_send and line.host.pending() == 0 and line.device.link.pending() == 0

        line.run_until(feed, 36_000_000)
        got_events = [e for e in line.host_events if isinstance(e, ButtonPressed)]
        got_commands = [c for c in line.device_commands if isinstance(c, SetTime)]
        lost_e, dup_e, wrong_e = _compare(list(events), list(got_events))
        lost_c, dup_c, wrong_c = _compare(list(commands), list(got_commands))
        host, device = line.host.link, line.device.link
        row = (
            name,
            host.frames_sent + device.frames_sent,
            line.down_counts.damaged + line.up_counts.damaged,
            host.bad_frames + device.bad_frames,
            host.retransmits + device.retransmits,
            host.recovered + device.recovered,
            2 * n,
            len(got_events) + len(got_commands),
            lost_e + lost_c,
            dup_e + dup_c,
            wrong_e + wrong_c,
            "yes" if got_events == events and got_commands == commands else "NO",
            f"{(line.now - start) / 1000:.1f} s",
        )
        print(" | ".join(str(v) for v in row), flush=True)


def real_pty(n: int) -> None:
    faults = {"corrupt": 0.05, "drop": 0.01, "duplicate": 0.01, "split": 1.0}
    print(
        f"\nPart 2: clock simulator and ClockDriver over a pty pair, {n} presses + {n} commands, "
        "5 % corrupted + 1 % dropped + 1 % duplicated + split writes both ways, cable pulled halfway"
    )
    events: queue.Queue[object] = queue.Queue()
    out_faults = Faults(seed=21, **faults)  # type: ignore[arg-type]
    in_faults = Faults(seed=22, **faults)  # type: ignore[arg-type]
    started = time.monotonic()
    cpu = time.process_time()
    with ClockSimulator(
        faults=out_faults, inbound_faults=in_faults, rto_ms=30, heartbeat_ms=200, host_timeout_ms=1500
    ) as sim:
        assert isinstance(sim, ClockSimulator)
        with ClockDriver(
            FixedPort(sim.port), events, rto_ms=30, heartbeat_ms=200, silence_ms=1500, hello_retry_ms=50, retry_s=0.1
        ) as driver:
            assert isinstance(driver, ClockDriver)
            seen: list[object] = []

            def drain(until: float) -> None:
                while time.monotonic() < until:
                    try:
                        seen.append(events.get(timeout=0.05))
                    except queue.Empty:
                        pass

            while not any(isinstance(e, LinkStatus) and e.state is LinkState.CONNECTED for e in seen):
                drain(time.monotonic() + 0.1)
            side = Side.WHITE
            for i in range(n):
                if i == n // 2:
                    sim.unplug()
                    drain(time.monotonic() + 2.0)
                    sim.replug()
                assert sim.press(side)
                side = side.other
                # A 10-minute delay keeps the reserves still, so the last command's value shows at the end.
                driver.set_time(Side(i % 2), 60_000 + i, 600_000)
                drain(time.monotonic() + 0.05)
            deadline = time.monotonic() + 600
            while (
                len([e for e in seen if isinstance(e, ButtonPressed)]) < n or driver.pending()
            ) and time.monotonic() < deadline:
                drain(time.monotonic() + 0.2)
            drain(time.monotonic() + 0.5)  # anything repeated would arrive now
            presses = [e for e in seen if isinstance(e, ButtonPressed)]
            expected_sides = [Side(i % 2) for i in range(n)]
            stats = driver.stats()
            device = sim.endpoint.link
            states = [e.state.value for e in seen if isinstance(e, LinkStatus)]
            print(
                "frames sent | bytes corrupted/dropped/duplicated | frames lost | retransmitted | recovered | "
                "presses sent | received | lost | duplicated | commands acknowledged | in order | "
                "link states | wall | CPU"
            )
            print(
                " | ".join(
                    str(v)
                    for v in (
                        stats.frames_sent + device.frames_sent,
                        f"{out_faults.bytes_corrupted + in_faults.bytes_corrupted}/"
                        f"{out_faults.bytes_dropped + in_faults.bytes_dropped}/"
                        f"{out_faults.bytes_duplicated + in_faults.bytes_duplicated}",
                        stats.bad_frames + device.bad_frames,
                        stats.retransmits + device.retransmits,
                        driver.session.link.recovered + device.recovered,
                        n,
                        len(presses),
                        max(0, n - len(presses)),
                        max(0, len(presses) - n),
                        f"{n - driver.pending()}/{n}",
                        "yes"
                        if [p.side for p in presses] == expected_sides
                        and sim.core.reserve == [60_000 + n - 2 + (n % 2), 60_000 + n - 1 - (n % 2)]
                        else "NO",
                        " > ".join(states),
                        f"{time.monotonic() - started:.1f} s",
                        f"{time.process_time() - cpu:.1f} s",
                    )
                )
            )


EVENTS = (ButtonPressed, FlagFell, BoardSnapshot, CheckerLifted, CheckerPlaced, SensorHealth)
"""The reliable events a device emits: each must arrive once, in order."""

BOARD_MOVES = [(24, 20), (13, 10), (8, 5), (6, 3)]
"""White's checkers from the start forwards, then back again (board numbering), any number of times."""


def _boot(message: Message) -> bool:
    return isinstance(message, BoardSnapshot) and message.reason is SnapshotReason.BOOT


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def noisy_row(kind: str, setting: dict[str, float], n: int, limit_s: float) -> str:
    """One device on one faulty line: delivery, duplicates, order and latency, as a table row."""
    faults = Faults(seed=31, **setting), Faults(seed=32, **setting)  # type: ignore[arg-type]
    sim: SimulatedDevice
    if kind == "clock":
        sim = ClockSimulator(faults=faults[0], inbound_faults=faults[1])
    else:
        sim = BoardSimulator(faults=faults[0], inbound_faults=faults[1], settle_ms=100)
    sent: list[tuple[Message, float]] = []
    emit = sim.emit

    def timed_emit(message: Message) -> None:
        if isinstance(message, EVENTS):
            sent.append((message, time.monotonic()))
        emit(message)

    sim.emit = timed_emit  # type: ignore[method-assign]
    events: queue.Queue[object] = queue.Queue()
    arrived: list[tuple[Message, float]] = []
    states: list[str] = []
    warnings = 0
    started = time.monotonic()

    def drain(until: float) -> None:
        nonlocal warnings
        while time.monotonic() < until:
            try:
                item = events.get(timeout=0.01)
            except queue.Empty:
                continue
            if isinstance(item, EVENTS):
                arrived.append((item, time.monotonic()))
            elif isinstance(item, LinkStatus):
                states.append(item.state.value)
            elif type(item).__name__ == "LinkNoise" and getattr(item, "noisy", False):
                warnings += 1

    with sim:
        driver: DeviceDriver = (ClockDriver if kind == "clock" else BoardDriver)(FixedPort(sim.port), events)
        with driver:
            while LinkState.CONNECTED.value not in states and time.monotonic() - started < limit_s:
                drain(time.monotonic() + 0.05)
            connect_s = time.monotonic() - started
            side = Side.WHITE
            for i in range(n):
                if kind == "clock":
                    sim.press(side)  # type: ignore[attr-defined]
                    side = side.other
                    drain(time.monotonic() + 0.12)
                else:
                    source, target = BOARD_MOVES[i % len(BOARD_MOVES)]
                    if i // len(BOARD_MOVES) % 2:
                        source, target = target, source
                    sim.move(source, target, Side.WHITE)  # type: ignore[attr-defined]
                    drain(time.monotonic() + 0.25)  # long enough for the board to settle: a snapshot each move
            deadline = started + limit_s
            while len(arrived) < len(sent) and time.monotonic() < deadline:
                drain(time.monotonic() + 0.1)
            drain(time.monotonic() + 0.5)  # anything repeated would arrive now
            frames = driver.stats()
    wall = time.monotonic() - started
    sent = [(m, t) for m, t in sent if not _boot(m)]
    arrived = [(m, t) for m, t in arrived if not _boot(m)]  # said at start-up, before the timing began
    want = [m for m, _ in sent]
    got = [m for m, _ in arrived]
    lost, duplicated, wrong = _compare(want, got)
    latencies: list[float] = []
    at = 0
    for message, when in arrived:  # each arrival against the first unmatched emission of the same event
        for j in range(at, len(sent)):
            if sent[j][0] == message:
                latencies.append(1000 * (when - sent[j][1]))
                at = j + 1
                break
    figures = (
        f"{_percentile(latencies, 0.5):.0f} | {_percentile(latencies, 0.95):.0f} | {max(latencies):.0f}"
        if latencies
        else "- | - | -"
    )
    return " | ".join(
        (
            kind,
            _describe(setting),
            f"{connect_s:.1f} s",
            f"{len(want) - lost}/{len(want)}",
            str(duplicated + wrong),
            "yes" if got == want else "NO",
            figures,
            str(frames.bad_frames),
            str(getattr(frames, "repaired_frames", "-")),
            "yes" if warnings else "no",
            " > ".join(states),
            f"{wall:.0f} s",
        )
    )


def _describe(setting: dict[str, float]) -> str:
    """ "10 % corrupted + 2 % dropped" for {"corrupt": 0.1, "drop": 0.02}."""
    words = {"corrupt": "corrupted", "drop": "dropped", "duplicate": "duplicated"}
    return " + ".join(f"{100 * rate:.0f} % {words[name]}" for name, rate in setting.items())


def corruption(n: int, limit_s: float) -> None:
    print(
        f"\nPart 3: clock and board simulators and drivers over pty pairs, bytes corrupted both ways from the start, "
        f"{n} presses or moves each (a board move is a lift, a placement and a settled snapshot), "
        f"default timings, at most {limit_s:.0f} s a row"
    )
    print(ROW_HEADER)
    for rate in (0.01, 0.05, 0.10):
        for kind in ("clock", "board"):
            print(noisy_row(kind, {"corrupt": rate}, n, limit_s), flush=True)


ROW_HEADER = (
    "device | faults | connected after | events delivered | duplicated or wrong | in order | "
    "latency p50 ms | p95 ms | max ms | frames lost | frames repaired | noisy warning | link states | wall"
)

DROPS = [{"drop": 0.01}, {"drop": 0.05}, {"drop": 0.10}, {"corrupt": 0.10, "drop": 0.02}]
"""Lines that lose bytes: each lost byte must cost at most its own frame, which is sent again."""


def drops(n: int, limit_s: float) -> None:
    print(
        f"\nPart 4: clock and board simulators and drivers over pty pairs, bytes dropped (and corrupted) both ways "
        f"from the start, {n} presses or moves each, default timings, at most {limit_s:.0f} s a row"
    )
    print(ROW_HEADER)
    for setting in DROPS:
        for kind in ("clock", "board"):
            print(noisy_row(kind, setting, n, limit_s), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--pty-messages", type=int, default=100)
    parser.add_argument("--events", type=int, default=30, help="presses or board moves per row of part 3")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds a row of part 3 may take")
    parser.add_argument("--corruption-only", action="store_true", help="part 3 only")
    parser.add_argument("--drops-only", action="store_true", help="part 4 only")
    args = parser.parse_args()
    if not (args.corruption_only or args.drops_only):
        virtual(args.messages)
        real_pty(args.pty_messages)
    if not args.drops_only:
        corruption(args.events, args.limit)
    if not args.corruption_only:
        drops(args.events, args.limit)


if __name__ == "__main__":
    main()
