"""A real Mosquitto for the tests and the benchmark: a free loopback port, TLS, passwords, the tournament's ACL.

Everything is written in a temporary folder by the same code as
``python -m app director broker`` (:func:`app.net.hall.write_broker_files`):
a throw-away CA and a server certificate for 127.0.0.1, the password file,
the access list and the configuration.
:meth:`Mosquitto.kill` and :meth:`Mosquitto.start` again restart it on the
same port, as a broker that crashed and came back.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Protocol

from app.net.client import BrokerConfig
from app.net.hall import write_broker_files

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


class Broker(Protocol):
    """A running broker that knows each account's way in."""

    def config(self, user: str) -> BrokerConfig: ...


def available() -> str | None:
    """Why the broker cannot run here, or None."""
    if not Path(MOSQUITTO).exists():
        return f"{MOSQUITTO} is missing: run .ci/setup --test (it installs mosquitto)"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Mosquitto:
    """One broker for one tournament prefix; users are the director and the boards given."""

    def __init__(self, folder: Path, prefix: str, boards: list[str]) -> None:
        self.folder = folder
        self.prefix = prefix
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        written = write_broker_files(folder, prefix, boards, ["127.0.0.1"], self.port, bind="127.0.0.1", days=2)
        self.passwords = written.passwords

    def config(self, user: str) -> BrokerConfig:
        """How ``user`` (the director or a board) reaches this broker."""
        return BrokerConfig("127.0.0.1", self.port, user, self.passwords[user], str(self.folder / "ca.crt"))

    def start(self) -> "Mosquitto":
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port}: {self.log()}")

    def kill(self) -> None:
        """SIGKILL: the broker dies without saving anything since its last autosave."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def __enter__(self) -> "Mosquitto":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
