"""The director's PIN or passphrase, kept only as the end of a hash chain grown from a device-keyed scrypt key.

The PIN itself is never written anywhere. ``hash_pin`` stretches it with scrypt
(N=2^17, r=8, p=1: about 128 MiB and a few tenths of a second per try), keys
the result with HMAC-SHA-256 under the tablet's journal key
(:mod:`app.record.devicekey`) and hashes that ``LINKS`` more times; only the
last link, the anchor, goes into the match set-up. Without the tablet's key
nothing in a journal can confirm a PIN guess, however short the PIN; with the
key each guess still costs a scrypt, and the tablet itself makes wrong tries
wait (:mod:`app.record.session`). Each authorised override reveals the link
before the last one revealed (a one-time proof: S/KEY style), which anyone can
check against the anchor but nobody can make without the PIN and the key, so
an override written into the journal without them is refused on replay.
Exports and the tournament feed leave out the anchor and the proofs
(:mod:`app.record.export`).

A set-up recorded with the older ``scrypt-chain`` form (no key) still
resumes and its PIN still works, so no match in progress is stranded, but a
copy of its journal can test PIN guesses: :func:`outdated_message` says so.
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
SCHEME = "scrypt-hmac-chain"
OUTDATED = "scrypt-chain"
"""The older form without the device key: still honoured, never written."""


def _key(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    material = unicodedata.normalize("NFC", pin).encode("utf-8")
    return hashlib.scrypt(material, salt=salt, n=n, r=r, p=p, maxmem=_MAXMEM, dklen=32)


def _link(value: bytes) -> bytes:
    return hashlib.sha256(b"tavla-director-link" + value).digest()


def _walk(value: bytes, times: int) -> bytes:
    for _ in range(times):
        value = _link(value)
    return value


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


def _keyed(device_key: bytes, stretched: bytes) -> bytes:
    return hmac.new(device_key, b"tavla-director-pin|" + stretched, hashlib.sha256).digest()


def hash_pin(pin: str, device_key: bytes, salt: bytes | None = None) -> str:
    """``scrypt-hmac-chain$N$r$p$links$salt$anchor`` for ``pin`` on the tablet whose journal key is
    ``device_key``; ValueError for a PIN that is not allowed.

    >>> key = bytes(32)
    >>> stored = hash_pin("2468", key, bytes(16))
    >>> check_pin("2468", stored, key), check_pin("2468", stored, bytes(range(32)))
    (True, False)
    """
    check_pin_text(pin)
    if len(device_key) < 16:
        raise ValueError("the director PIN needs the tablet's journal key")
    salt = os.urandom(16) if salt is None else salt
    anchor = _walk(_keyed(device_key, _key(pin, salt, _N, _R, _P)), LINKS)
    return f"{SCHEME}${_N}${_R}${_P}${LINKS}${salt.hex()}${anchor.hex()}"


def _parts(stored: str) -> tuple[str, int, int, int, int, bytes, str]:
    scheme, n, r, p, links, salt, anchor = stored.split("$")
    if scheme not in (SCHEME, OUTDATED) or len(anchor) != 64:
        raise ValueError("not a director PIN record")
    return scheme, int(n), int(r), int(p), int(links), bytes.fromhex(salt), anchor


def outdated(stored: str) -> bool:
    """Whether ``stored`` is of the older form that a copy of the journal alone can test guesses against."""
    return stored.startswith(OUTDATED + "$")


def outdated_message(language: str = "en") -> str:
    """What the director is told about a match whose PIN record has the older form."""
    if language == "tr":
        return (
            "Bu maçın başhakem PIN'i eski biçimde kayıtlı: maç kaydının bir kopyasını alan, PIN'i tabletsiz"
            " deneyerek bulabilir. Bu maç için geçerli kalır; sonraki maçta başka bir PIN seçin."
        )
    return (
        "This match's director PIN is recorded in the older form: whoever copies its journal can find the PIN by"
        " guessing away from the tablet. It stays valid for this match; choose a different PIN for the next one."
    )


def anchor_of(stored: str) -> str:
    """The first link an override is checked against; "" for a malformed record."""
    try:
        return _parts(stored)[6]
    except ValueError:
        return ""


def pin_key(pin: str, stored: str, device_key: bytes) -> bytes | None:
    """The chain's root for ``pin`` when it is the director's (constant-time compare), else None; a record of the
    older form ignores ``device_key``."""
    try:
        scheme, n, r, p, links, salt, anchor = _parts(stored)
        key = _key(pin, salt, n, r, p)
    except (ValueError, MemoryError, OverflowError):
        return None
    if scheme == SCHEME:
        key = _keyed(device_key, key)
    return key if hmac.compare_digest(_walk(key, links).hex(), anchor) else None


def check_pin(pin: str, stored: str, device_key: bytes) -> bool:
    """Whether ``pin`` is the director's on the tablet whose journal key is ``device_key``."""
    return pin_key(pin, stored, device_key) is not None


def proof(key: bytes, stored: str, used: int) -> str:
    """The proof for the next override after ``used`` authorised ones ("" once every link is used)."""
    links = _parts(stored)[4]
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
