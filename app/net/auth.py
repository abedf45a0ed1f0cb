"""Who may use the director's page: two accounts, their sessions, CSRF tokens and a brake on guessing.

The director (and, if wanted, a deputy) sets a password when the tournament starts; only its scrypt hash
(memory-hard: 16 MiB a guess) is kept, in memory. A login gives a session token for an HttpOnly, SameSite=Strict
cookie and a CSRF token the page's script sends with every request that changes anything. Failed logins are
counted per address and per account: after :data:`MAX_FAILURES` in :data:`FAILURE_WINDOW` seconds more tries
are refused until the window has passed, so a password can't be guessed at the speed of the network.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

DIRECTOR = "director"
DEPUTY = "deputy"
ACCOUNTS = (DIRECTOR, DEPUTY)

MIN_PASSWORD = 10
"""Characters of a page password: it guards every board's clock and the results."""

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
"""scrypt's cost: 16 MiB and some 50 ms a guess on a laptop (the parameters of RFC 7914's interactive example)."""

MAX_FAILURES = 5
FAILURE_WINDOW = 300.0
SESSION_IDLE = 12 * 3600.0
"""A session unused this long (seconds) ends: a tournament day."""


def hash_password(password: str, salt: bytes | None = None) -> tuple[bytes, bytes]:
    """(salt, scrypt hash) of ``password``."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, maxmem=64 * 1024 * 1024, dklen=32
    )
    return salt, digest


@dataclass(frozen=True)
class Session:
    user: str
    csrf: str


class Accounts:
    """The page's accounts, sessions and login brake; thread-safe (the server answers on many threads)."""

    def __init__(self, passwords: dict[str, str], clock: Callable[[], float] = time.monotonic) -> None:
        for user, password in passwords.items():
            if user not in ACCOUNTS:
                raise ValueError(f"the page's accounts are {' and '.join(ACCOUNTS)}, not {user!r}")
            if len(password) < MIN_PASSWORD:
                raise ValueError(f"the {user}'s page password needs at least {MIN_PASSWORD} characters")
        if DIRECTOR not in passwords:
            raise ValueError("the director's page password is needed")
        self._hashes = {user: hash_password(password) for user, password in passwords.items()}
        self._clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, tuple[Session, float]] = {}
        self._failures: dict[str, deque[float]] = {}

    @property
    def users(self) -> tuple[str, ...]:
        return tuple(self._hashes)

    def blocked(self, address: str, user: str) -> float:
        """Seconds until ``address`` or ``user`` may try again (0: now)."""
        now = self._clock()
        with self._lock:
            wait = 0.0
            for key in (f"address {address}", f"user {user}"):
                failures = self._failures.get(key)
                while failures and now - failures[0] > FAILURE_WINDOW:
                    failures.popleft()
                if failures and len(failures) >= MAX_FAILURES:
                    wait = max(wait, FAILURE_WINDOW - (now - failures[0]))
            return wait

    def login(self, address: str, user: str, password: str) -> str | None:
        """A new session token, or None (the failure is counted); call :meth:`blocked` first."""
        stored = self._hashes.get(user)
        # an unknown user costs the same scrypt as a known one, so the answer's time does not tell them apart
        salt, digest = stored if stored is not None else (b"\0" * 16, b"")
        ok = hmac.compare_digest(hash_password(password, salt)[1], digest) and stored is not None
        now = self._clock()
        with self._lock:
            if not ok:
                for key in (f"address {address}", f"user {user}"):
                    self._failures.setdefault(key, deque(maxlen=MAX_FAILURES * 4)).append(now)
                return None
            token = secrets.token_urlsafe(32)
            self._sessions[token] = (Session(user, secrets.token_urlsafe(32)), now)
            return token

    def session(self, token: str | None) -> Session | None:
        """The live session of a cookie's token (its idle time restarts), or None."""
        if not token:
            return None
        now = self._clock()
        with self._lock:
            found = self._sessions.get(token)
            if found is None:
                return None
            session, seen = found
            if now - seen > SESSION_IDLE:
                del self._sessions[token]
                return None
            self._sessions[token] = (session, now)
            return session

    def logout(self, token: str) -> None:
        with self._lock:
            self._sessions.pop(token, None)


def same_token(given: str | None, expected: str) -> bool:
    """A CSRF token compared in constant time."""
    return given is not None and hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
