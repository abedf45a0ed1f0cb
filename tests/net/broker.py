"""A real Mosquitto for the tests and the benchmark: a free loopback port, TLS, passwords, the tournament's ACL.

Everything is generated in a temporary folder: a throw-away CA and a server
certificate for 127.0.0.1 (openssl), the password file (mosquitto_passwd),
the access list (:func:`app.net.topics.acl_text`) and the configuration.
:meth:`Mosquitto.kill` and :meth:`Mosquitto.start` again restart it on the
same port, as a broker that crashed and came back.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Protocol

from app.net.client import BrokerConfig
from app.net.topics import DIRECTOR_USER, acl_text

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


class Broker(Protocol):
    """A running broker that knows each account's way in."""

    def config(self, user: str) -> BrokerConfig: ...


def available() -> str | None:
    """Why the broker cannot run here, or None."""
    for tool in (MOSQUITTO, PASSWD, shutil.which("openssl") or ""):
        if not tool or not Path(tool).exists():
            return f"{tool or 'openssl'} is missing: run .ci/setup --test (it installs mosquitto)"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, timeout=60)


def make_certificates(folder: Path) -> None:
    """ca.crt, server.crt and server.key (for 127.0.0.1 and localhost) in ``folder``."""
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _run(
        "openssl",
        "req",
        "-x509",
        *ec,
        "-keyout",
        str(folder / "ca.key"),
        "-out",
        str(folder / "ca.crt"),
        "-days",
        "2",
        "-subj",
        "/CN=tavla test CA",
    )
    _run(
        "openssl",
        "req",
        *ec,
        "-keyout",
        str(folder / "server.key"),
        "-out",
        str(folder / "server.csr"),
        "-subj",
        "/CN=localhost",
    )
    (folder / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    _run(
        "openssl",
        "x509",
        "-req",
        "-in",
        str(folder / "server.csr"),
        "-CA",
        str(folder / "ca.crt"),
        "-CAkey",
        str(folder / "ca.key"),
        "-CAcreateserial",
        "-out",
        str(folder / "server.crt"),
        "-days",
        "2",
        "-extfile",
        str(folder / "ext.cnf"),
    )


class Mosquitto:
    """One broker for one tournament prefix; users are the director and the boards given."""

    def __init__(self, folder: Path, prefix: str, boards: list[str], tls: bool = True) -> None:
        self.folder = folder
        self.prefix = prefix
        self.tls = tls
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.passwords = {DIRECTOR_USER: "director-secret", **{board: f"pw-{board}" for board in boards}}
        folder.mkdir(parents=True, exist_ok=True)
        if tls:
            make_certificates(folder)
        passwd = folder / "passwd"
        passwd.write_text("".join(f"{user}:{password}\n" for user, password in self.passwords.items()))
        _run(PASSWD, "-U", str(passwd))  # hashes every password in place
        (folder / "acl").write_text(acl_text(prefix))
        (folder / "data").mkdir(exist_ok=True)
        lines = [
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous false",
            f"password_file {passwd}",
            f"acl_file {folder / 'acl'}",
            "persistence true",
            f"persistence_location {folder / 'data'}/",
            "autosave_interval 1",
            "max_queued_messages 100000",
            "max_inflight_messages 100",
            f"log_dest file {folder / 'mosquitto.log'}",
            "log_type error",
            "log_type warning",
            "log_type notice",
            f"user {getpass.getuser()}",
        ]
        if tls:
            lines += [
                f"cafile {folder / 'ca.crt'}",
                f"certfile {folder / 'server.crt'}",
                f"keyfile {folder / 'server.key'}",
                "require_certificate false",
            ]
        (folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")

    def config(self, user: str) -> BrokerConfig:
        """How ``user`` (the director or a board) reaches this broker."""
        return BrokerConfig(
            "127.0.0.1", self.port, user, self.passwords[user], str(self.folder / "ca.crt") if self.tls else None
        )

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
