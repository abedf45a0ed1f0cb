"""Fault-injection benchmark of the device link: frames sent, damaged, recovered, lost.

    .venv/bin/python -m tests.device.bench_faults [--messages N] [--pty-messages M]

Part 1 joins the host's and the device's protocol ends by a faulty line in
virtual time (tests/device/virtual_line.py): N reliable events from the
device and N commands from the host per fault setting, every frame passed
through the fault injector on its own so damaged frames can be counted.
Part 2 is the real thing: the clock simulator and the clock driver over a
pty pair, 5 % of bytes corrupted plus drops, duplicates and split writes in
both directions, and the cable pulled and plugged back halfway.

"recovered" counts reliable frames acknowledged only after a retransmission;
"lost", "duplicated" and "wrong" compare what arrived with what was sent.
"""

from __future__ import annotations

import argparse
import queue
import time
from collections import Counter

from device.driver import ClockDriver, LinkState, LinkStatus
from device.messages import ButtonPressed, DelayMode, Message, SetTime, Side
from device.sim import ClockSimulator, Faults
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
        "damaged",
        "rejected",
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
                "frames sent | bytes corrupted/dropped/duplicated | rejected | retransmitted | recovered | "
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--pty-messages", type=int, default=100)
    args = parser.parse_args()
    virtual(args.messages)
    real_pty(args.pty_messages)


if __name__ == "__main__":
    main()
