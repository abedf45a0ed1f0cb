"""The join code: one short text (and its QR code) that the director hands to a board, holding all it needs to
reach the tournament's broker: host, port, prefix, board, password and the tournament's CA certificate.

``tavla-join:`` then base64url of compact JSON; the CA travels as DER with its SHA-256 fingerprint, so a code cut
short or mistyped is refused instead of failing later as an endless "disconnected". Every refusal says why in
Turkish and English. The QR code is drawn and read by OpenCV (imported only here, when a QR is wanted).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import serialization

from app.net.topics import board_id, tournament_prefix
from app.record.whole_files import write_whole

SCHEME = "tavla-join:"
VERSION = 1
MAX_CODE = 4000
"""Characters a join code may have (a P-256 CA makes codes of about 1,000)."""
MAX_CA = 2000
"""Bytes of the CA certificate's DER (a P-256 certificate is about 400)."""
QR_MODULE_PX = 8
"""Pixels per QR module in the written PNG: readable on a printed sheet and on a phone or tablet screen."""
QR_QUIET = 4
"""Blank modules around the QR (the standard's quiet zone)."""


class JoinCodeError(ValueError):
    """A join code that cannot be used; ``tr`` and ``en`` say why to the person who typed or scanned it."""

    def __init__(self, tr: str, en: str) -> None:
        super().__init__(en)
        self.tr, self.en = tr, en

    def text(self, language: str) -> str:
        return self.tr if language == "tr" else self.en


@dataclass(frozen=True)
class JoinCode:
    """Everything a station needs to join the tournament's broker."""

    host: str
    port: int
    prefix: str
    board: str
    password: str
    ca: bytes
    """The tournament's CA certificate, DER."""

    @property
    def fingerprint(self) -> str:
        """The CA's SHA-256 fingerprint, hex (as ``openssl x509 -fingerprint -sha256`` prints it, without colons)."""
        return hashlib.sha256(self.ca).hexdigest()

    @property
    def broker(self) -> str:
        return f"{self.host}:{self.port}"

    def ca_pem(self) -> bytes:
        return x509.load_der_x509_certificate(self.ca).public_bytes(serialization.Encoding.PEM)

    def encode(self) -> str:
        data = {
            "v": VERSION,
            "h": self.host,
            "p": self.port,
            "t": self.prefix,
            "b": self.board,
            "pw": self.password,
            "ca": base64.urlsafe_b64encode(self.ca).decode().rstrip("="),
            "fp": self.fingerprint,
        }
        compact = json.dumps(data, separators=(",", ":"), ensure_ascii=True).encode()
        return SCHEME + base64.urlsafe_b64encode(compact).decode().rstrip("=")

    @classmethod
    def for_board(cls, host: str, port: int, prefix: str, board: str, password: str, ca_pem: bytes) -> "JoinCode":
        """A board's code from the hall's files (``ca.crt`` in PEM)."""
        ca = x509.load_pem_x509_certificate(ca_pem).public_bytes(serialization.Encoding.DER)
        return decode(cls(host, port, prefix, board, password, ca).encode())  # the same checks as a station's


def _unbase64(text: str) -> bytes:
    text = text.rstrip("=")  # padded or not
    if not text or any(not (c.isascii() and (c.isalnum() or c in "-_")) for c in text):
        raise binascii.Error("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _bad(tr: str, en: str) -> JoinCodeError:
    return JoinCodeError(f"Katılım kodu geçersiz: {tr}", f"Bad join code: {en}")


def decode(text: str) -> JoinCode:
    """A join code typed, pasted or scanned -> its :class:`JoinCode`; :class:`JoinCodeError` saying what is wrong."""
    code = "".join(text.split())  # a code pasted across lines, or with spaces, is still the same code
    if len(code) > MAX_CODE:
        raise _bad(f"{MAX_CODE} karakterden uzun", f"longer than {MAX_CODE} characters")
    if not code.lower().startswith(SCHEME):
        raise _bad(f"'{SCHEME}' ile başlamıyor", f"it does not start with '{SCHEME}'")
    try:
        data: Any = json.loads(_unbase64(code[len(SCHEME) :]))
    except (binascii.Error, ValueError):
        raise _bad(
            "eksik ya da bozuk (tamamı kopyalandı mı?)", "cut short or damaged (was all of it copied?)"
        ) from None
    if not isinstance(data, dict):
        raise _bad("içeriği bir kayıt değil", "its content is not a record")
    if data.get("v") != VERSION:
        raise _bad(
            f"sürüm {data.get('v')!r}, bu uygulama {VERSION} okur",
            f"version {data.get('v')!r}, this app reads {VERSION}",
        )
    texts = {"h": "host", "t": "prefix", "b": "board", "pw": "password", "ca": "ca", "fp": "fp"}
    for key, name in texts.items():
        if not isinstance(data.get(key), str):
            raise _bad(f"'{name}' alanı yok ya da metin değil", f"the field '{name}' is missing or not text")
    port = data.get("p")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise _bad("port 1-65535 arası bir sayı değil", "the port is not a number from 1 to 65535")
    host = data["h"]
    if not 0 < len(host) <= 253 or any(c.isspace() or c in "/@?#" for c in host):
        raise _bad(f"sunucu adresi {host[:40]!r} kullanılamaz", f"the broker's host {host[:40]!r} cannot be used")
    try:
        prefix = tournament_prefix(data["t"])
    except ValueError as error:
        raise _bad(f"turnuva öneki: {error}", f"the tournament prefix: {error}") from None
    try:
        board = board_id(data["b"])
    except ValueError as error:
        raise _bad(f"masa: {error}", f"the board: {error}") from None
    password = data["pw"]
    if not 0 < len(password) <= 256:
        raise _bad("parola boş ya da çok uzun", "the password is empty or too long")
    try:
        ca = _unbase64(data["ca"])
    except binascii.Error:
        raise _bad("CA sertifikası bozuk", "the CA certificate is damaged") from None
    if len(ca) > MAX_CA:
        raise _bad(f"CA sertifikası {MAX_CA} bayttan büyük", f"the CA certificate is larger than {MAX_CA} bytes")
    if hashlib.sha256(ca).hexdigest() != data["fp"].lower().replace(":", ""):
        raise _bad(
            "CA sertifikası parmak iziyle uyuşmuyor (kod değiştirilmiş ya da bozuk)",
            "the CA certificate does not match its fingerprint (the code was altered or damaged)",
        )
    try:
        certificate = x509.load_der_x509_certificate(ca)
        constraints = certificate.extensions.get_extension_for_class(x509.BasicConstraints).value
    except (ValueError, x509.ExtensionNotFound):
        raise _bad("CA sertifikası okunamıyor", "the CA certificate cannot be read") from None
    if not constraints.ca:
        raise _bad("sertifika bir CA değil", "the certificate is not a CA")
    return JoinCode(host, port, prefix, board, password, ca)


def write_ca(code: JoinCode, folder: str | Path) -> Path:
    """The code's CA written into the station's data folder (named by its fingerprint, so a tournament's CA is
    written once and another tournament's never replaces it); the path for TLS."""
    path = Path(folder) / f"tournament-ca-{code.fingerprint[:16]}.crt"
    pem = code.ca_pem()
    if not path.is_file() or path.read_bytes() != pem:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, pem)
    return path


def qr_image(text: str) -> Any:
    """The QR code of ``text`` as a grey image (numpy, white around), ready to write as a PNG."""
    import cv2

    modules = cv2.QRCodeEncoder.create().encode(text)
    big = cv2.resize(
        modules, None, fx=QR_MODULE_PX, fy=QR_MODULE_PX, interpolation=cv2.INTER_NEAREST
    )  # the encoder draws one pixel a module
    margin = QR_QUIET * QR_MODULE_PX
    return cv2.copyMakeBorder(big, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=255)


def qr_png(text: str) -> bytes:
    """The QR code of ``text`` as PNG bytes."""
    import cv2

    ok, png = cv2.imencode(".png", qr_image(text))
    if not ok:
        raise ValueError("OpenCV could not write the QR code as a PNG")
    return bytes(png.tobytes())


def read_qr(picture: Any) -> str | None:
    """The text of a QR code seen in ``picture`` (a camera picture, BGR or grey), None if none is read."""
    import cv2

    if picture is None:
        return None
    for detector in (cv2.QRCodeDetectorAruco(), cv2.QRCodeDetector()):  # the ArUco-based one reads large codes
        text, points, _ = detector.detectAndDecode(picture)
        if points is not None and text:
            return str(text)
    return None
