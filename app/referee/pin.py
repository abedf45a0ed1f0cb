"""The director's PIN or passphrase, kept only as the end of a hash chain grown from its scrypt key.

The PIN itself is never written anywhere. ``hash_pin`` derives a key with
scrypt (N=2^17, r=8, p=1: about 128 MiB and a few tenths of a second per try,
so an attacker holding a journal tests a handful of guesses a second per core)
and hashes it ``LINKS`` more times; only the last link, the anchor, goes into
the match set-up. Each authorised override reveals the link before the last one
revealed (a one-time proof: S/KEY style), which anyone can check against the
journal but nobody can make without the PIN, so an override written into the
journal without the PIN is refused on replay. Exports leave out the anchor and
the proofs (:mod:`app.record.export`).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import unicodedata

_N, _R, _P = 2**17, 8, 1
_MAXMEM = 256 * 1024 * 1024
"""scrypt needs 128 * r * N bytes (128 MiB here); OpenSSL's default limit is 32 MiB."""
LINKS = 256
"""Director overrides one match can authorise (one link each)."""
SCHEME = "scrypt-chain"


def _key(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    material = unicodedata.normalize("NFC", pin).encode("utf-8")
    return hashlib.scrypt(material, salt=salt, n=n, r=r, p=p, maxmem=_MAXMEM, dklen=32)


def _link(value: bytes) -> bytes:
    return hashlib.sha256(b"tavla-director-link" + value).digest()


def _walk(value: bytes, times: int) -> bytes:
    for _ in range(times):
        value = _link(value)
    return value


def no_pin_message() -> str:
    """Why a tournament match cannot start without a PIN: nobody could resume after a call to the director."""
    return (
        "a tournament match needs a director PIN (4 to 12 digits, or a passphrase): without one nobody could"
        " resume play after a call to the director"
    )


def check_pin_text(pin: str) -> str:
    """The PIN as it will be used; ValueError for one too short or too long (4 to 12 digits, or a passphrase of
    8 to 128 characters)."""
    if pin.isdigit() and pin.isascii():
        if not 4 <= len(pin) <= 12:
            raise ValueError("a director PIN is 4 to 12 digits, or a passphrase of 8 to 128 characters")
        return pin
    if not 8 <= len(pin) <= 128 or not pin.isprintable():
        raise ValueError("a director PIN is 4 to 12 digits, or a passphrase of 8 to 128 characters")
    return pin


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """``scrypt-chain$N$r$p$links$salt$anchor`` for ``pin``; ValueError for a PIN that is not allowed."""
    check_pin_text(pin)
    salt = os.urandom(16) if salt is None else salt
    anchor = _walk(_key(pin, salt, _N, _R, _P), LINKS)
    return f"{SCHEME}${_N}${_R}${_P}${LINKS}${salt.hex()}${anchor.hex()}"


def _parts(stored: str) -> tuple[int, int, int, int, bytes, str]:
    scheme, n, r, p, links, salt, anchor = stored.split("$")
    if scheme != SCHEME or len(anchor) != 64:
        raise ValueError("not a director PIN record")
    return int(n), int(r), int(p), int(links), bytes.fromhex(salt), anchor


def anchor_of(stored: str) -> str:
    """The first link an override is checked against; "" for a malformed record."""
    try:
        return _parts(stored)[5]
    except ValueError:
        return ""


def pin_key(pin: str, stored: str) -> bytes | None:
    """The scrypt key of ``pin`` when it is the director's (constant-time compare), else None."""
    try:
        n, r, p, links, salt, anchor = _parts(stored)
        key = _key(pin, salt, n, r, p)
    except (ValueError, MemoryError):
        return None
    return key if hmac.compare_digest(_walk(key, links).hex(), anchor) else None


def check_pin(pin: str, stored: str) -> bool:
    """Whether ``pin`` is the director's."""
    return pin_key(pin, stored) is not None


def proof(key: bytes, stored: str, used: int) -> str:
    """The proof for the next override after ``used`` authorised ones ("" once every link is used)."""
    links = _parts(stored)[3]
    if used >= links:
        return ""
    return _walk(key, links - used - 1).hex()


def proves(candidate: str, previous: str) -> bool:
    """Whether ``candidate`` is the link before ``previous`` (the anchor or the last proof revealed)."""
    try:
        value = bytes.fromhex(candidate)
    except ValueError:
        return False
    return len(value) == 32 and bool(previous) and hmac.compare_digest(_link(value).hex(), previous)
