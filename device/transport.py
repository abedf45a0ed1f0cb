"""The byte pipe under a driver, behind one small interface.

Drivers only ever call ``read``, ``write`` and ``close`` on a
:class:`Transport` and get one from a :class:`PortFinder`. On a desktop the
pipe is pyserial (a real port, ``socket://host:port``, a pty path, any
pyserial URL); on a tablet without pyserial a USB-serial bridge implements the
same three methods. Every failure of the pipe is a :class:`TransportError`,
which the driver answers by closing and reconnecting.

Discovery: :class:`UsbMatch` finds ports by USB vendor id, product id and
serial number (pyserial's ``list_ports``); the driver then checks each
candidate's HELLO, so two Pico-based devices with the same ids are told
apart by the kind they announce.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import serial
import serial.tools.list_ports


class TransportError(Exception):
    """The port could not be opened, or failed (cable pulled, device gone)."""


class Transport(Protocol):
    """What a driver needs of a serial line."""

    name: str

    def read(self, max_bytes: int) -> bytes:
        """Up to max_bytes; b'' after a short wait when nothing came. Raises TransportError."""
        ...

    def write(self, data: bytes) -> None:
        """Write all of data. Raises TransportError."""
        ...

    def close(self) -> None:
        """Release the port; never raises."""
        ...


class PortFinder(Protocol):
    """Where to look for a device: yields candidate transports to try, in order."""

    def candidates(self) -> list[str]:
        """Port names or URLs to try now (may be empty while nothing is plugged in)."""
        ...

    def open(self, name: str) -> Transport:
        """Open one candidate. Raises TransportError."""
        ...


DEFAULT_BAUD = 115200
"""Ignored by USB CDC ports and ptys; used by real UARTs."""


class SerialTransport:
    """pyserial under the Transport interface."""

    def __init__(self, url: str, baudrate: int = DEFAULT_BAUD, read_timeout: float = 0.02) -> None:
        self.name = url
        try:
            self._port = serial.serial_for_url(
                url, baudrate=baudrate, timeout=read_timeout, write_timeout=1.0, exclusive=None
            )
        except (serial.SerialException, OSError, ValueError) as error:
            raise TransportError(f"cannot open {url}: {error}") from error

    def read(self, max_bytes: int) -> bytes:
        try:
            waiting = self._port.in_waiting
            data: bytes = self._port.read(max(1, min(max_bytes, waiting)))
            return data
        except (serial.SerialException, OSError, TypeError, AttributeError) as error:
            # pyserial raises TypeError/AttributeError on some platforms after the fd vanished.
            raise TransportError(f"{self.name}: {error}") from error

    def write(self, data: bytes) -> None:
        try:
            self._port.write(data)
        except (serial.SerialException, serial.SerialTimeoutException, OSError, TypeError, AttributeError) as error:
            raise TransportError(f"{self.name}: {error}") from error

    def close(self) -> None:
        try:
            self._port.close()
        except Exception:  # closing a vanished port may fail in many ways; it is closed either way
            pass


@dataclass(frozen=True)
class FixedPort:
    """One known port name or pyserial URL (a pty path, socket://, /dev/serial/by-id/...)."""

    url: str
    baudrate: int = DEFAULT_BAUD

    def candidates(self) -> list[str]:
        return [self.url]

    def open(self, name: str) -> Transport:
        return SerialTransport(name, self.baudrate)


@dataclass(frozen=True)
class UsbMatch:
    """Ports whose USB ids match; None matches anything."""

    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None
    baudrate: int = DEFAULT_BAUD

    def matches(self, vid: int | None, pid: int | None, serial_number: str | None) -> bool:
        if vid is None and pid is None:
            return False  # not a USB port
        return (
            (self.vid is None or self.vid == vid)
            and (self.pid is None or self.pid == pid)
            and (self.serial_number is None or self.serial_number == serial_number)
        )

    def candidates(self) -> list[str]:
        ports = serial.tools.list_ports.comports()
        return sorted(p.device for p in ports if self.matches(p.vid, p.pid, p.serial_number))

    def open(self, name: str) -> Transport:
        return SerialTransport(name, self.baudrate)


PICO_VID = 0x2E8A
"""Raspberry Pi's USB vendor id (the reference firmware's boards)."""
PICO_MICROPYTHON_PID = 0x0005


def parse_usb(spec: str) -> UsbMatch:
    """'usb:2e8a:0005[:SERIAL]' or 'usb::SERIAL' to a UsbMatch."""
    parts = spec.split(":")
    if parts[0] != "usb" or len(parts) > 4:
        raise ValueError(f"not a USB device spec: {spec!r} (expected usb:VID:PID[:SERIAL])")
    vid = int(parts[1], 16) if len(parts) > 1 and parts[1] else None
    pid = int(parts[2], 16) if len(parts) > 2 and parts[2] else None
    serial_number = parts[3] if len(parts) > 3 and parts[3] else None
    if len(parts) == 3 and pid is not None and vid is None:
        raise ValueError(f"give a vendor id with the product id: {spec!r}")
    return UsbMatch(vid, pid, serial_number)


def finder_for(spec: str) -> FixedPort | UsbMatch:
    """A port finder from what a user types: a port, a URL, or usb:VID:PID[:SERIAL]."""
    if spec.startswith("usb:"):
        return parse_usb(spec)
    return FixedPort(spec)
