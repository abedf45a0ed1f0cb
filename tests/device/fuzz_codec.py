"""Coverage-guided fuzzing of the codec and the host's session with atheris (optional extra ``fuzz``).

    .venv/bin/python -m pip install -e '.[fuzz]'
    .venv/bin/python -m tests.device.fuzz_codec -atheris_runs=200000

Any input must give only declared messages or declared errors (codec), and
feeding it to the host's session must never raise. A crash prints the input.
The hypothesis tests in test_codec.py check the same property in CI.
"""

from __future__ import annotations

import sys
import typing

import atheris

with atheris.instrument_imports():
    from device import wire
    from device.codec import Decoder, FrameError
    from device.messages import DeviceKind, Message
    from device.session import HostSession, SessionChange

DECLARED = (FrameError, SessionChange, *typing.get_args(Message))


def one_input(data: bytes) -> None:
    for item in Decoder().feed(data):
        assert isinstance(item, DECLARED), item
    session = HostSession(DeviceKind.CLOCK, 1)
    session.opened(0)
    # Prefix a valid HELLO echoing the session, so the fuzzer also reaches the connected state.
    hello = wire.encode_frame(wire.HELLO, wire.pack_payload("BBBSSHH", (1, 1, 0, "f", "s", 1, 1)))
    for item in session.receive(hello + data, 1):
        assert isinstance(item, DECLARED), item
    session.poll(2)


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
