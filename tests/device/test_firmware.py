"""The reference firmware, run on the host against its fake hardware layer, driven by the real drivers.

The firmware's applications and runtime are the files copied onto the Pico;
only the hardware layer (fw_hal_host.py instead of fw_hal_pico.py) differs. Also
checked: the firmware stays within what MicroPython offers, and PROTOCOL.md
lists exactly the messages of device/wire.py.
"""

from __future__ import annotations

import ast
import queue
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device import wire
from device.driver import BoardDriver, ClockDriver, LinkState, LinkStatus
from device.messages import (
    BoardSnapshot,
    ButtonPressed,
    CheckerLifted,
    CheckerPlaced,
    ClockState,
    FlagFell,
    SensorHealth,
    Side,
    SnapshotReason,
    TimeReport,
)
from device.sim import standard_start
from device.transport import FixedPort
from tests.device.helpers import FAST_LINK, Events, poll_until

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "hardware" / "firmware"
sys.path.insert(0, str(FIRMWARE))

import fw_hal_host  # noqa: E402
from fw_board import BoardApp  # noqa: E402
from fw_clock import ClockApp, format_ms  # noqa: E402
from fw_runtime import Runtime  # noqa: E402

FAST = {"rto_ms": 20, "heartbeat_ms": 100, "host_timeout_ms": 1000}


@pytest.fixture
def clock_fw() -> Iterator[tuple[Any, Any]]:
    hal = fw_hal_host.FakeClockHardware(serial="FWCLOCK")
    runtime = Runtime(hal, ClockApp(hal), wire.KIND_CLOCK, "ref-test", **FAST)
    runner = fw_hal_host.FirmwareThread(runtime).start()
    yield hal, runtime
    runner.stop()


@pytest.fixture
def board_fw() -> Iterator[tuple[Any, Any]]:
    hal = fw_hal_host.FakeBoardHardware(serial="FWBOARD")
    hal.setup_standard()
    runtime = Runtime(hal, BoardApp(hal), wire.KIND_BOARD, "ref-test", **FAST)
    runner = fw_hal_host.FirmwareThread(runtime).start()
    yield hal, runtime
    runner.stop()


def test_firmware_clock_with_the_clock_driver(clock_fw: tuple[Any, Any]) -> None:
    hal, runtime = clock_fw
    events = Events(queue.Queue())
    with ClockDriver(FixedPort(hal.port), events.queue, **FAST_LINK) as driver:
        assert isinstance(driver, ClockDriver)
        events.wait_for(lambda seen: any(isinstance(e, LinkStatus) and e.state is LinkState.CONNECTED for e in seen))
        driver.set_time(Side.WHITE, 30_000, 0)
        driver.set_time(Side.BLACK, 400, 0)
        driver.display("Masa 3")
        poll_until(lambda: driver.pending() == 0, what="commands acknowledged")
        hal.tap(0)  # White presses: Black's clock starts, with 0.4 s
        [press] = events.wait_count(ButtonPressed, 1)
        assert press == ButtonPressed(Side.WHITE, True, Side.BLACK, 30_000, press.black_ms)
        [flag] = events.wait_count(FlagFell, 1)
        assert flag == FlagFell(Side.BLACK, 30_000, 0)
        hal.tap(1)  # after the flag: ignored
        presses = events.wait_count(ButtonPressed, 2)
        assert not presses[1].accepted
        events.wait_for(lambda seen: isinstance(seen[-1], TimeReport) and seen[-1].state is ClockState.FLAGGED)
        poll_until(
            lambda: hal.display[1] == "Masa 3" and hal.display[0] == "  0:30  F 0.0", what=f"display, now {hal.display}"
        )
        assert hal.beeps and max(hal.beeps) >= 1000  # the flag sounded
    assert len(events.of(FlagFell)) == 1


def test_firmware_board_with_the_board_driver(board_fw: tuple[Any, Any]) -> None:
    hal, runtime = board_fw
    events = Events(queue.Queue())
    with BoardDriver(FixedPort(hal.port), events.queue, **FAST_LINK):
        events.wait_for(
            lambda seen: any(isinstance(e, BoardSnapshot) and e.reason is SnapshotReason.REQUESTED for e in seen),
            what="snapshot",
        )
        snapshot = events.of(BoardSnapshot)[-1]
        assert (snapshot.white, snapshot.black) == standard_start()
        # A hand takes longer than the 60 ms debounce between lifting and placing: wait for each event.
        hal.lift(13, 0)
        events.wait_count(CheckerLifted, 1)
        hal.place(9, 0)
        events.wait_count(CheckerPlaced, 1)
        hal.lift(12, 1)
        events.wait_count(CheckerLifted, 2)
        hal.place(25, 1)  # onto the bar (black's bar area)
        events.wait_for(
            lambda seen: any(
                isinstance(e, BoardSnapshot)
                and e.reason is SnapshotReason.SETTLED
                and e.black.bar == 1
                and e.white.at(9) == 1
                for e in seen
            )
        )
        assert events.of(CheckerLifted) == [CheckerLifted(13, Side.WHITE), CheckerLifted(12, Side.BLACK)]
        assert events.of(CheckerPlaced) == [CheckerPlaced(9, Side.WHITE), CheckerPlaced(25, Side.BLACK)]
        hal.break_sensor(4, 2)
        [health] = events.wait_count(SensorHealth, 1)
        assert health == SensorHealth(False, (5,))


def test_format_of_the_clock_display() -> None:
    assert format_ms(14 * 60_000) == "14:00"
    assert format_ms(61_001) == "1:02"
    assert format_ms(19_950) == "19.9"


MICROPYTHON_MODULES = {
    "struct",
    "binascii",
    "time",
    "sys",
    "os",
    "select",
    "machine",
    "micropython",
    "gc",
    "random",
    "wire",
    "clockcore",
    "config",
    "ssd1306",
    "fw_runtime",
    "fw_clock",
    "fw_board",
    "fw_hal_pico",
    "fw_hal_unix",
}
HOST_ONLY = {"fw_hal_host.py", "run_host.py"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(FIRMWARE.glob("*.py")) if p.name not in HOST_ONLY]
    + [ROOT / "device" / "wire.py", ROOT / "device" / "clockcore.py"],
    ids=lambda p: p.name,
)
def test_firmware_code_stays_within_micropython(path: Path) -> None:
    # "device" is the host-side fallback inside try/except ImportError.
    unknown = _imports(path) - MICROPYTHON_MODULES - {"device"}
    assert not unknown, f"{path.name} imports what MicroPython lacks: {unknown}"


def test_protocol_document_lists_exactly_the_messages_of_the_code() -> None:
    document = (ROOT / "hardware" / "PROTOCOL.md").read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| `0x([0-9A-F]{2})` \| `(\w+)` \| `([BHISY*0-9()]+|-)` \| (yes|no) \|", document, re.MULTILINE
    )

    def schema_of(text: str) -> str:  # the document writes 52 Bs as (B*52) and no fields as -
        return re.sub(r"\(B\*(\d+)\)", lambda m: "B" * int(m.group(1)), text).replace("-", "")

    listed = {int(code, 16): (name, schema_of(schema), rel == "yes") for code, name, schema, rel in rows}
    assert listed == {code: (name, schema, reliable) for code, (name, schema, reliable) in wire.SCHEMAS.items()}
    assert f"Protocol version {wire.PROTOCOL_MAJOR}.{wire.PROTOCOL_MINOR}" in document


def test_protocol_document_describes_the_frames_of_the_code() -> None:
    document = (ROOT / "hardware" / "PROTOCOL.md").read_text(encoding="utf-8")
    assert f"frame format version, `{wire.FRAME_VERSION}`" in document
    assert f"rows of {wire.ROW} bytes" in document
    rule = re.search(r"^\| parity \| `min\(255 - n, max\((\d+), (\d+) \* n\)\)` \|", document, re.MULTILINE)
    assert rule is not None
    assert (int(rule[1]), int(rule[2])) == (wire.MIN_PARITY, wire.PARITY_FACTOR)
    example = re.search(
        r"`STOP` as reliable frame 1 with tag 1 is (\d+) bytes and (\d+) bytes\s+of parity, (\d+) packets"
        r"\s+and (\d+) bytes on the line; its first packet is\s+`([0-9a-f ]+)`",
        document,
    )
    assert example is not None
    frame = wire.encode_frame(wire.STOP, b"", 1, wire.FLAG_RELIABLE, 1)
    packets = frame.count(0) - 1  # one zero before each packet, one after the last
    assert tuple(int(example[i]) for i in range(1, 5)) == (7, wire.frame_parity(7), packets, len(frame))
    assert bytes.fromhex(example[5]) == frame[: frame.index(0, 1)]
