"""The referee with the real device chain: simulated clock and sensing board over pty pairs.

The device package's simulators speak the real serial protocol on pseudo-terminals; its drivers read
them with pyserial and put their messages on one queue; ``app.table.devices`` turns those into referee events
and the referee's clock commands into driver calls. A turn is played on the simulated board and ended on
the simulated clock, and the referee judges it from the board's own snapshot.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from app.table.devices import ClockLink, drain
from device.driver import BoardDriver, ClockDriver
from device.messages import Side
from device.sim import BoardSimulator, ClockSimulator
from device.transport import FixedPort
from rules.position import Color
from tests.app.table import make_setup

ROOT = Path(__file__).resolve().parents[2]

LINK = {"rto_ms": 20, "heartbeat_ms": 100, "silence_ms": 600, "hello_retry_ms": 30, "retry_s": 0.05}
DEVICE = {"rto_ms": 20, "heartbeat_ms": 100, "host_timeout_ms": 600}


def test_a_turn_played_on_the_simulated_board_and_clock_is_judged(tmp_path: Path) -> None:
    messages: queue.Queue[object] = queue.Queue()
    with (
        ClockSimulator(**DEVICE) as clock_sim,
        BoardSimulator(settle_ms=100, **DEVICE) as board_sim,
        ClockDriver(FixedPort(clock_sim.port), messages, **LINK) as clock,
        BoardDriver(FixedPort(board_sim.port), messages, **LINK),
    ):
        session = Session.create(tmp_path / "match.sqlite", make_setup())
        link = ClockLink(clock)
        session.listeners.append(lambda event, reaction: [link.apply(c) for c in reaction.commands])

        def until(condition: Callable[[], bool], what: str) -> None:
            deadline = time.monotonic() + 30  # generous: a loaded CI machine starts threads and ptys slowly
            while time.monotonic() < deadline:
                drain(messages, lambda: session.referee.position, session.submit, session.note)
                if condition():
                    return
                time.sleep(0.02)
            raise AssertionError(f"timed out waiting for {what}")

        until(lambda: dict(session.referee.links) == {"board": True, "clock": True}, "both links")
        until(
            lambda: session.referee.board is not None and session.referee.board.same_board(session.referee.position),
            "the start on the board",
        )
        session.submit(ev.DiceObserved((3, 1)))  # the camera's verdict (White 3, Black 1)
        clock_sim.press(Side.BLACK)  # the lower thrower starts White's clock
        until(lambda: session.referee.clock is Color.WHITE, "White's clock running")
        board_sim.move(8, 5, Side.WHITE)
        board_sim.move(6, 5, Side.WHITE)
        until(lambda: session.referee.board is not None and session.referee.board.white[5] == 2, "the play seen")
        clock_sim.press(Side.WHITE)
        until(lambda: session.referee.stage is Stage.ROLL, "the play judged")
        plays = [r for _, _, _, reaction in session.history() for r in reaction.rulings if r.code == "play_ok"]
        assert [r.params["play"] for r in plays] == ["8/5 6/5"]
        assert session.referee.mover is Color.BLACK and session.referee.clock is Color.BLACK
        pressed = [e for _, _, e, _ in session.history() if e["kind"] == "clock_pressed"]
        assert pressed[-1]["by"] == "white" and pressed[-1]["white_ms"] is not None
        lifted = [e for _, _, e, _ in session.history() if e["kind"] == "checker_lifted"]
        assert [(e["color"], e["point"]) for e in lifted] == [("white", 8), ("white", 6)]


@pytest.mark.parametrize("variant", ["uzun", "acey-deucey", "plakoto"])
def test_variants_with_their_own_geometry_play_through_the_simulated_devices(variant: str, tmp_path: Path) -> None:
    """Uzun tavla's points face the other way, acey-deucey's checkers enter from the tray, plakoto pins:
    a whole 1-point match of each is played on the board simulator and judged from its snapshots."""
    demo = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "demo",
            "--variant",
            variant,
            "--length",
            "1",
            "--no-camera",
            "--quiet",
            "--journal",
            str(tmp_path / "m.sqlite"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert demo.returncode == 0, demo.stderr[-3000:]
    assert "wins the match" in demo.stdout
    session = Session.open(tmp_path / "m.sqlite")
    assert session.resumed is not None and session.resumed.mismatches == () and session.referee.match.over
    kinds = {e["kind"] for _, _, e, _ in session.history()}
    assert {"board_snapshot", "checker_lifted", "checker_placed", "clock_pressed", "link_status"} <= kinds
