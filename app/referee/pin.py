"""The director's PIN, kept only as an scrypt hash (hashlib.scrypt, salted).

The PIN itself is never written anywhere: the journal stores the hash in the
match set-up and, for each override, only whether the PIN given was right.
"""

from __future__ import annotations

import hashlib
import hmac
import os

_N, _R, _P = 2**14, 8, 1
"""scrypt cost: about 16 MiB and a few tens of milliseconds, enough for a 4-8 digit PIN on a tablet."""


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """``scrypt$N$r$p$salt$hash`` (hex) for ``pin``; ValueError for an empty or non-digit PIN."""
    if not pin or not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise ValueError("a director PIN is 4 to 12 digits")
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def check_pin(pin: str, stored: str) -> bool:
    """Whether ``pin`` matches the stored hash (constant-time compare); False for a malformed hash."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        computed = hashlib.scrypt(
            pin.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=len(digest) // 2
        )
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(computed.hex(), digest)
