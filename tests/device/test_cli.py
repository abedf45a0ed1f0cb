"""The command lines people use: the simulator as a subprocess, scripted, watched by the monitor."""

from __future__ import annotations

import io
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from device.__main__ import monitor
from device.driver import ClockDriver, LinkState, LinkStatus
from device.messages import ButtonPressed, Side
from device.sim import BoardSimulator, ClockSimulator
from device.sim.script import ScriptError, run_line
from device.transport import FixedPort
from tests.device.helpers import FAST_LINK, Events

ROOT = Path(__file__).resolve().parents[2]


class Lines:
    """A subprocess's output lines, read in a thread so a hung process fails the test instead of hanging it."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        assert process.stdout is not None
        stream = process.stdout
        threading.Thread(target=lambda: [self._lines.put(line) for line in stream], daemon=True).start()

    def next(self, timeout: float = 15.0) -> str:
        try:
            return self._lines.get(timeout=timeout).strip()
        except queue.Empty:
            raise AssertionError("the simulator printed nothing") from None


def test_simulator_subprocess_is_scriptable_and_drivable(tmp_path: Path) -> None:
    link = tmp_path / "clock"
    process = subprocess.Popen(
        [sys.executable, "-m", "device.sim", "clock", "--link", str(link), "--exit-at-eof"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines = Lines(process)
    try:
        assert lines.next() == f"port: {link}"
        events = Events(queue.Queue())
        with ClockDriver(FixedPort(str(link)), events.queue, **FAST_LINK):
            events.wait_for(
                lambda seen: any(isinstance(e, LinkStatus) and e.state is LinkState.CONNECTED for e in seen)
            )
            assert process.stdin is not None
            process.stdin.write("press white\npress white\nbogus\n")
            process.stdin.flush()
            replies = [lines.next() for _ in range(4)]  # 'pty: ...' comes first
            assert replies[1:] == ["accepted", "ignored", "error: unknown clock command 'bogus' (try help)"]
            presses = events.wait_count(ButtonPressed, 2)
            assert [(p.side, p.accepted) for p in presses] == [(Side.WHITE, True), (Side.WHITE, False)]
        process.stdin.close()
        assert process.wait(timeout=20) == 0
    finally:
        process.kill()
        process.wait()


def test_monitor_prints_frames_and_link_changes() -> None:
    with BoardSimulator(settle_ms=50) as board:
        assert isinstance(board, BoardSimulator)
        out = io.StringIO()
        watcher = threading.Thread(target=monitor, args=(board.port, out, 2.5))
        watcher.start()
        deadline = time.monotonic() + 30  # generous: a loaded CI machine starts threads and ptys slowly
        while "REQUESTED" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.02)
        board.move(13, 7, Side.WHITE)
        watcher.join(15)
    text = out.getvalue()
    assert "link: connected: board SIMBOARD1" in text
    assert "seq" in text and "CheckerLifted(point=13" in text and "CheckerPlaced(point=7" in text
    assert "reason=<SnapshotReason.SETTLED" in text


def test_script_language_errors_are_clear() -> None:
    clock = ClockSimulator()
    board = BoardSimulator()
    for device, line, message in [
        (clock, "press green", "unknown colour 'green'"),
        (board, "move 30 2 white", "point 30 is not on the board"),
        (board, "lift 5 white", "no white checker on point 5"),
        (board, "fault corrupt 2", "not a probability"),
        (clock, "press", "usage: press white|black"),
    ]:
        try:
            run_line(device, line)
        except ScriptError as error:
            assert message in str(error), (line, str(error))
        else:
            raise AssertionError(f"{line!r} was accepted")
    assert run_line(board, "move 13 7 w  # comment") == "moved"
    assert run_line(clock, "quit") is None
