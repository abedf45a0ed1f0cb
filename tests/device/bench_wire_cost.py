"""What the packets' parity costs to compute, in CPython and in MicroPython's Unix port.

    .venv/bin/python -m tests.device.bench_wire_cost

The same device/wire.py runs on the boards; the Unix port is the nearest
stand-in for a Pico here (a Pico is slower still). Prints milliseconds per
frame encoded (a board snapshot, a clock command) and per command whose first
row and every parity row after the 12th were lost (restored from the rest).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SNIPPET = """
import sys, time
sys.path.insert(0, %r)
import wire
ticks = time.ticks_ms if hasattr(time, "ticks_ms") else (lambda: int(time.monotonic() * 1000))
def per(run, times=50):
    start = ticks()
    for _ in range(times):
        run()
    return (ticks() - start) / times
snapshot = bytes(range(1, 56))
command = bytes(range(1, 11))
size = 3 + len(command) + 4
parity = wire.frame_parity(size)
word = wire.rs_encode(bytes(range(size)), parity)
lost = [0, 1, 2, 3] + list(range(48, len(word)))
print("encode a board snapshot frame: %%.1f ms" %% per(lambda: wire.encode_frame(wire.SNAPSHOT, snapshot, 1, 1)))
print("encode a clock command frame: %%.1f ms" %% per(lambda: wire.encode_frame(wire.SET_TIME, command, 1, 1)))
print("restore a command's lost rows: %%.1f ms" %% per(lambda: wire.rs_correct(word, parity, lost, size)))
"""


def main() -> None:
    code = SNIPPET % str(ROOT / "device")
    print("CPython:")
    subprocess.run([sys.executable, "-c", code], check=True)
    micropython = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    print("MicroPython (Unix port):")
    subprocess.run([micropython, "-c", code], check=True)


if __name__ == "__main__":
    main()
