"""Shared helpers of the device tests: fast link timings and polling for events."""

from __future__ import annotations

import queue
import time
import zlib
from typing import Callable, TypeVar

from device import wire

FAST_LINK = {"rto_ms": 20, "heartbeat_ms": 100, "silence_ms": 1000, "hello_retry_ms": 30, "retry_s": 0.05}
"""Driver options that keep the tests quick; the protocol is the same at any timing."""
FAST_DEVICE = {"rto_ms": 20, "heartbeat_ms": 100, "host_timeout_ms": 1000}

T = TypeVar("T")


def legacy_frame(msg_type: int, payload: bytes) -> bytes:
    """A frame as protocol 1 devices sent it: COBS over the body and its CRC-32, no parity."""
    body = bytes((1 << 4, 0, msg_type)) + payload
    stuffed = bytearray()
    for chunk in (body + zlib.crc32(body).to_bytes(4, "little")).split(b"\x00"):
        stuffed += bytes((len(chunk) + 1,)) + chunk
    return b"\x00" + bytes(stuffed) + b"\x00"


def second_protocol_frame() -> bytes:
    """A HEARTBEAT as protocol 2 devices sent it: one block, three zero substitutes, the codeword with its parity."""
    body = bytes((2 << 4, 0, 5, 1, 0, 0, 0))
    body += zlib.crc32(body).to_bytes(4, "little")
    word = wire.rs_encode(body, 8 + 2 * (len(body) // 4))
    sub = next(value for value in range(1, 256) if value not in word)
    return b"\x00" + bytes((sub,)) * 3 + bytes(byte or sub for byte in word) + b"\x00\x00"


class Events:
    """Everything the drivers put on one queue, read by polling with a deadline."""

    def __init__(self, q: queue.Queue[object]) -> None:
        self.queue = q
        self.seen: list[object] = []

    def wait_for(
        self, predicate: Callable[[list[object]], bool], timeout: float = 15.0, what: str = ""
    ) -> list[object]:
        deadline = time.monotonic() + timeout
        while True:
            if predicate(self.seen):
                return self.seen
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting for {what or predicate}; saw {self.seen[-15:]}")
            try:
                self.seen.append(self.queue.get(timeout=min(0.05, remaining)))
            except queue.Empty:
                pass

    def of(self, kind: type[T]) -> list[T]:
        return [e for e in self.seen if isinstance(e, kind)]

    def wait_count(self, kind: type[T], count: int, timeout: float = 15.0) -> list[T]:
        self.wait_for(
            lambda seen: len([e for e in seen if isinstance(e, kind)]) >= count, timeout, f"{count} x {kind.__name__}"
        )
        return self.of(kind)


def poll_until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        time.sleep(0.01)
