"""python -m device.sim clock|board: a simulated device on a new pty.

Prints ``port: PATH`` (a stable link to the pty; open it with the app, the
monitor or any serial terminal), then reads commands (see
``device.sim.script``) from ``--script`` files and from standard input, and
answers each on standard output. At the end of input it keeps running until
interrupted, unless ``--exit-at-eof``.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any, TextIO

from device.sim.base import SimulatedDevice
from device.sim.board import BoardSimulator
from device.sim.clock import ClockSimulator
from device.sim.faults import Faults
from device.sim.script import ScriptError, run_line


def _run_lines(device: SimulatedDevice, stream: TextIO, echo: bool) -> bool:
    """Run each line; False when a line said quit."""
    for line in stream:
        if echo:
            print(f"> {line.rstrip()}", flush=True)
        try:
            reply = run_line(device, line)
        except ScriptError as error:
            print(f"error: {error}", flush=True)
            continue
        if reply is None:
            return False
        if reply:
            print(reply, flush=True)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m device.sim", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("device", choices=["clock", "board"])
    parser.add_argument("--link", help="path of the stable link to the pty (default: a new temporary one)")
    parser.add_argument("--serial", help="serial number the device announces")
    parser.add_argument("--script", action="append", default=[], help="file of commands to run first")
    parser.add_argument("--corrupt", type=float, default=0.0, help="probability that a sent byte is corrupted")
    parser.add_argument("--drop", type=float, default=0.0, help="probability that a sent byte is dropped")
    parser.add_argument("--duplicate", type=float, default=0.0, help="probability that a sent byte is doubled")
    parser.add_argument("--split", action="store_true", help="write in random small pieces")
    parser.add_argument("--seed", type=int, help="seed of the fault generator")
    parser.add_argument("--exit-at-eof", action="store_true", help="stop at the end of standard input")
    args = parser.parse_args(argv)

    faults = Faults(args.corrupt, args.drop, args.duplicate, args.split, args.seed)
    options: dict[str, Any] = {"link_path": args.link, "faults": faults}
    if args.serial:
        options["serial"] = args.serial
    device: SimulatedDevice = ClockSimulator(**options) if args.device == "clock" else BoardSimulator(**options)
    device.start()
    print(f"port: {device.port}", flush=True)
    print(f"pty: {device.pty_path}", flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    try:
        keep_going = True
        for path in args.script:
            with open(path, encoding="utf-8") as script:
                keep_going = _run_lines(device, script, echo=True)
            if not keep_going:
                break
        if keep_going:
            keep_going = _run_lines(device, sys.stdin, echo=False)
        if keep_going and not args.exit_at_eof:
            done.wait()
    except KeyboardInterrupt:
        pass
    finally:
        device.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
