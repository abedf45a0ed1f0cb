"""python -m device monitor PORT: watch a device's frames and events live.

For people wiring up hardware: the monitor acts as the host (it asks the
device to introduce itself and acknowledges its events, so the device talks
as it would to the app), asks a clock for its times or a board for a
snapshot, and prints every frame with its sequence number, every damaged
frame, and every change of the link. PORT is a device path, a pty, any
pyserial URL (``socket://host:port``) or ``usb:VID:PID[:SERIAL]``. Stop it
with Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TextIO

from device import wire
from device.codec import Decoder, Frame, FrameError
from device.messages import DeviceError, DeviceKind, Heartbeat, RequestSnapshot, RequestTimes
from device.session import HostSession, SessionChange, SessionState, error_text
from device.transport import Transport, TransportError, finder_for


def _stamp(start: float) -> str:
    return f"{time.monotonic() - start:9.3f}"


def monitor(spec: str, out: TextIO, duration: float | None = None, show_heartbeats: bool = False) -> int:
    """Run until interrupted (or for duration seconds); returns a process exit code."""
    finder = finder_for(spec)
    session = HostSession(None, int.from_bytes(os.urandom(2), "little"))
    tap = Decoder()
    start = time.monotonic()
    transport: Transport | None = None
    announced_wait = False
    last_problem = ""

    def say(text: str) -> None:
        print(f"{_stamp(start)}  {text}", file=out, flush=True)

    while duration is None or time.monotonic() - start < duration:
        if transport is None:
            names = finder.candidates()
            for name in names:
                try:
                    transport = finder.open(name)
                except TransportError as error:
                    if str(error) != last_problem:
                        say(f"link: cannot open: {error}")
                        last_problem = str(error)
                    continue
                session.opened(int(time.monotonic() * 1000))
                tap = Decoder()
                say(f"link: {name} open, asking the device to introduce itself")
                announced_wait = False
                last_problem = ""
                break
            if transport is None:
                if not announced_wait:
                    say(f"link: waiting for {spec}")
                    announced_wait = True
                time.sleep(0.5)
                continue
        try:
            data = transport.read(4096)
        except TransportError as error:
            say(f"link: lost: {error}")
            transport.close()
            transport = None
            session.closed()
            continue
        for item in tap.feed_frames(data):
            if isinstance(item, FrameError):
                say(f"damaged frame: {item.text}")
            elif isinstance(item, Frame):
                if isinstance(item.message, Heartbeat) and not show_heartbeats:
                    continue
                kind = f"seq {item.seq:3d}" if item.reliable else "       "
                say(f"{kind}  {item.message}")
        now = int(time.monotonic() * 1000)
        for event in session.receive(data, now):
            if isinstance(event, SessionChange):
                say(f"link: {event.state.value}: {event.detail}")
                if event.state is SessionState.CONNECTED and event.hello is not None:
                    if event.hello.kind is DeviceKind.CLOCK:
                        session.send(RequestTimes())
                    else:
                        session.send(RequestSnapshot())
            elif isinstance(event, DeviceError):
                say(error_text(event))
        data_out, change = session.poll(now)
        if change is not None:
            say(f"link: {change.state.value}: {change.detail}; reopening")
            transport.close()
            transport = None
            session.closed()
            continue
        if data_out:
            try:
                transport.write(data_out)
            except TransportError as error:
                say(f"link: lost: {error}")
                transport.close()
                transport = None
                session.closed()
    if transport is not None:
        transport.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m device", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    mon = commands.add_parser("monitor", help="print a device's frames and events live")
    mon.add_argument("port", help="device path, pyserial URL or usb:VID:PID[:SERIAL]")
    mon.add_argument("--seconds", type=float, help="stop after this many seconds")
    mon.add_argument("--heartbeats", action="store_true", help="print heartbeats too")
    commands.add_parser("version", help="print the protocol version")
    args = parser.parse_args(argv)
    if args.command == "version":
        print(f"tavla device protocol {wire.PROTOCOL_MAJOR}.{wire.PROTOCOL_MINOR}")
        return 0
    try:
        return monitor(args.port, sys.stdout, args.seconds, args.heartbeats)
    except KeyboardInterrupt:
        return 0
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
