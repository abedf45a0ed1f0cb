"""Host and device protocol ends joined by a faulty line, in virtual time.

No threads and no sleeping: every millisecond each end polls, its bytes pass
through the fault injector packet by packet (so damaged packets can be counted)
and arrive at the other end one millisecond later. Used by the link tests
and by the fault-injection benchmark (tests/device/bench_faults.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from device import codec, wire
from device.codec import FrameError
from device.messages import DeviceKind, Message, SetTime
from device.session import HostSession, SessionChange, SessionState
from device.sim.faults import Faults


@dataclass
class LineCounts:
    packets: int = 0
    damaged: int = 0


@dataclass
class VirtualLine:
    down: Faults = field(default_factory=Faults)  # device to host
    up: Faults = field(default_factory=Faults)  # host to device
    rto_ms: int = 50
    now: int = 0
    host_events: list[Message] = field(default_factory=list)
    device_commands: list[Message] = field(default_factory=list)
    changes: list[SessionChange] = field(default_factory=list)
    down_counts: LineCounts = field(default_factory=LineCounts)
    up_counts: LineCounts = field(default_factory=LineCounts)

    def __post_init__(self) -> None:
        self.host = HostSession(DeviceKind.CLOCK, 0x1234, rto_ms=self.rto_ms, heartbeat_ms=200, silence_ms=3000)
        self.device = wire.DeviceEndpoint(wire.KIND_CLOCK, "virtual", "V1", 42, self.rto_ms, 200, 3000)
        self.device.announce()
        self.host.opened(0)
        self._to_host = b""
        self._to_device = b""

    def _through(self, data: bytes, faults: Faults, counts: LineCounts) -> bytes:
        out = bytearray()
        for block in data.split(b"\x00"):
            if not block:
                continue
            packet = b"\x00" + block + b"\x00"
            counts.packets += 1
            damaged = b"".join(faults.apply(packet))
            if damaged != packet:
                counts.damaged += 1
            out += damaged
        return bytes(out)

    def step(self) -> None:
        self.now += 1
        for item in self.host.receive(self._to_host, self.now):
            if isinstance(item, SessionChange):
                self.changes.append(item)
            else:
                self.host_events.append(item)
        for msg_type, values in self.device.receive(self._to_device, self.now):
            command = codec.from_values(msg_type, values)
            assert not isinstance(command, FrameError)
            self.device_commands.append(command)
        host_out, change = self.host.poll(self.now)
        if change is not None:
            self.changes.append(change)
        self._to_device = self._through(host_out, self.up, self.up_counts)
        self._to_host = self._through(self.device.poll(self.now, self.now), self.down, self.down_counts)

    def run_until(self, done: Callable[[], bool], limit_ms: int) -> bool:
        end = self.now + limit_ms
        while self.now < end:
            self.step()
            if done():
                return True
        return False

    @property
    def connected(self) -> bool:
        return self.host.state is SessionState.CONNECTED

    def device_event(self, message: Message) -> None:
        self.device.send_event(message.TYPE, codec.to_values(message))

    def host_command(self, command: SetTime) -> None:
        self.host.send(command)
