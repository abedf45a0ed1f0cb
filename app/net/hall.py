"""Everything Mosquitto needs for one tournament, written in one folder: ``python -m app director broker``.

- ``ca.crt`` / ``ca.key``: the tournament's own certificate authority (EC P-256, the ``cryptography`` package);
  ``ca.crt`` goes to every station and browser, ``ca.key`` stays with the director.
- ``server.crt`` / ``server.key``: the broker's (and the director's page's) certificate, for the hall PC's names.
- ``passwd``: one account per board (its number) and one for the director, in mosquitto_passwd's format
  (PBKDF2-SHA512, ``$7$``); ``accounts.txt`` the same accounts with their clear passwords, to hand out, and
  ``director.password`` for ``--password-file``.
- ``acl``: the access rules of :func:`app.net.topics.acl_text`.
- ``mosquitto.conf``: a TLS listener, no anonymous access, these files, persistence in ``data/``.
- ``join/<board>.txt`` and ``join/<board>.png``: each board's join code (:mod:`app.net.join`: the first host, the
  port, the prefix, the board, its password and the CA) and its QR code, for the board's set-up screen.

Passwords are random (``secrets``), secrets are written readable by their owner only, and a folder that already
holds a configuration is never overwritten (a second run would lock every station out).
"""

from __future__ import annotations

import base64
import datetime
import getpass
import hashlib
import ipaddress
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from app.net.join import JoinCode, qr_png
from app.net.topics import DIRECTOR_USER, acl_text, board_id, tournament_prefix

PBKDF2_ITERATIONS = 101
"""mosquitto_passwd's own default for its ``$7$`` (PBKDF2-SHA512) hashes; the passwords are random, not words."""

PASSWORD_BYTES = 15
"""Random bytes of each account's password (20 characters of URL-safe base64)."""


def parse_boards(text: str) -> list[str]:
    """``1-12,15,final`` -> the board names; ValueError naming a bad one."""
    boards: list[str] = []
    for part in (piece.strip() for piece in text.split(",")):
        first, dash, last = part.partition("-")
        if dash and first.isdigit() and last.isdigit():
            low, high = int(first), int(last)
            if not 0 < low <= high <= 10_000:
                raise ValueError(f"a range of boards is LOW-HIGH with 0 < LOW <= HIGH, not {part!r}")
            boards += [str(number) for number in range(low, high + 1)]
        else:
            boards.append(board_id(part))
    if len(set(boards)) != len(boards):
        raise ValueError("a board is named twice")
    return boards


def passwd_line(user: str, password: str, salt: bytes | None = None) -> str:
    """One line of Mosquitto's password file, hashed as mosquitto_passwd does (``$7$``: PBKDF2-SHA512)."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, PBKDF2_ITERATIONS)
    encode = base64.b64encode
    return f"{user}:$7${PBKDF2_ITERATIONS}${encode(salt).decode()}${encode(digest).decode()}"


@dataclass(frozen=True)
class HallFiles:
    """What :func:`write_broker_files` wrote."""

    folder: Path
    config: Path
    ca: Path
    certificate: Path
    key: Path
    passwords: dict[str, str]
    join: Path
    """The folder of the boards' join codes (``<board>.txt``) and their QR codes (``<board>.png``)."""
    qr: bool
    """Whether the QR codes were drawn (they need OpenCV, the ``vision`` extra; the texts are always written)."""


def join_paths(folder: str | Path, board: str) -> tuple[Path, Path]:
    """Where ``director broker`` wrote a board's join code and its QR code."""
    root = Path(folder) / "join"
    return root / f"{board_id(board)}.txt", root / f"{board_id(board)}.png"


def _write(path: Path, data: bytes, secret: bool = False) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    with os.fdopen(os.open(path, flags, 0o600 if secret else 0o644), "wb") as out:
        out.write(data)


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def make_certificates(prefix: str, hosts: list[str], days: int) -> tuple[bytes, bytes, bytes, bytes]:
    """(CA certificate, CA key, server certificate, server key) in PEM, the server's for ``hosts``."""
    now = datetime.datetime.now(datetime.timezone.utc)
    until = now + datetime.timedelta(days=days)
    ca_key, server_key = _key(), _key()
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"tavla tournament CA {prefix}"[:64])])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(until)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )  # certificate and CRL signing only
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    names: list[x509.GeneralName] = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    server = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0][:64])]))
        .issuer_name(ca_name)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(until)
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    return ca.public_bytes(pem), _pem_key(ca_key), server.public_bytes(pem), _pem_key(server_key)


def write_broker_files(
    folder: str | Path,
    prefix: str,
    boards: list[str],
    hosts: list[str],
    port: int = 8883,
    bind: str | None = None,
    days: int = 30,
    run_as: str | None = None,
) -> HallFiles:
    """Write the tournament's broker folder (see the module's docstring); ValueError if it cannot or must not."""
    prefix = tournament_prefix(prefix)
    boards = [board_id(board) for board in boards]
    if not boards:
        raise ValueError("name the boards (--boards 1-12)")
    if not hosts:
        raise ValueError("name the hall PC (--host NAME or IP, as the stations reach it)")
    if not 0 < port < 65536:
        raise ValueError(f"a port is 1 to 65535, not {port}")
    if not 0 < days <= 3650:
        raise ValueError(f"the certificates last 1 to 3650 days, not {days}")
    root = Path(folder).resolve()
    if (root / "mosquitto.conf").exists():
        raise ValueError(f"{root} already holds a broker set-up: choose a new folder (its stations' passwords stand)")
    root.mkdir(parents=True, exist_ok=True)
    (root / "data").mkdir(exist_ok=True)
    names = list(dict.fromkeys([*hosts, "localhost", "127.0.0.1"]))
    ca, ca_key, server, server_key = make_certificates(prefix, names, days)
    passwords = {DIRECTOR_USER: secrets.token_urlsafe(PASSWORD_BYTES)}
    passwords.update({board: secrets.token_urlsafe(PASSWORD_BYTES) for board in boards})
    _write(root / "ca.crt", ca)
    _write(root / "ca.key", ca_key, secret=True)
    _write(root / "server.crt", server)
    _write(root / "server.key", server_key, secret=True)
    _write(root / "passwd", "".join(passwd_line(u, p) + "\n" for u, p in passwords.items()).encode(), secret=True)
    accounts = "".join(f"{user} {password}\n" for user, password in passwords.items())
    _write(root / "accounts.txt", accounts.encode(), secret=True)
    _write(root / "director.password", (passwords[DIRECTOR_USER] + "\n").encode(), secret=True)
    _write(root / "acl", acl_text(prefix).encode())
    lines = [
        f"# the tournament {prefix}: python -m app director broker wrote this folder",
        f"listener {port}" + (f" {bind}" if bind else ""),
        "allow_anonymous false",
        f"password_file {root / 'passwd'}",
        f"acl_file {root / 'acl'}",
        f"cafile {root / 'ca.crt'}",
        f"certfile {root / 'server.crt'}",
        f"keyfile {root / 'server.key'}",
        "tls_version tlsv1.2",
        "require_certificate false",
        "persistence true",
        f"persistence_location {root / 'data'}/",
        "autosave_interval 10",
        "max_queued_messages 100000",
        "max_inflight_messages 100",
        f"log_dest file {root / 'mosquitto.log'}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        f"user {run_as or getpass.getuser()}",
    ]
    _write(root / "mosquitto.conf", ("\n".join(lines) + "\n").encode())
    (root / "join").mkdir(mode=0o700, exist_ok=True)
    qr = True
    for board in boards:
        code = JoinCode.for_board(hosts[0], port, prefix, board, passwords[board], ca).encode()
        text_path, png_path = join_paths(root, board)
        _write(text_path, (code + "\n").encode(), secret=True)
        try:
            _write(png_path, qr_png(code), secret=True)
        except ImportError:
            qr = False  # no OpenCV on the hall PC: the text codes stand alone
    return HallFiles(
        root, root / "mosquitto.conf", root / "ca.crt", root / "server.crt", root / "server.key", passwords,
        root / "join", qr,
    )  # fmt: skip
