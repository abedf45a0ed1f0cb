"""This tablet's secret journal key, kept outside every journal.

Each journal entry is sealed with HMAC-SHA-256 under this key (:mod:`app.record.journal`), so
whoever holds a journal file but not the key cannot rewrite it unnoticed. The key is 32
random bytes in an owner-only file: ``TAVLA_KEY_FILE`` names it. ``python -m app`` names the one in
the station's data folder (Kivy's, where the matches are kept too); code run without the door finds it
in the user's configuration folder (``$XDG_CONFIG_HOME/tavla-referee/device.key``).
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

KEY_ENV = "TAVLA_KEY_FILE"


class KeyFileError(ValueError):
    """The key file cannot be made or trusted; the message says what to fix."""


def key_path() -> Path:
    """Where this tablet's key lives (``TAVLA_KEY_FILE`` first, else the user's config folder)."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "tavla-referee" / "device.key"


def key_id(key: bytes) -> str:
    """A short public name for a key (which tablet sealed a journal), not the key."""
    return hashlib.sha256(b"tavla-key-id" + key).hexdigest()[:16]


def device_key(path: Path | None = None, create: bool = True) -> bytes:
    """The key in ``path`` (made there, owner-only, when missing and ``create``); KeyFileError when it cannot be
    trusted: readable by others, or not 32 bytes."""
    path = path or key_path()
    if not path.exists():
        if not create:
            raise KeyFileError(f"{path}: no journal key on this device (the journal was sealed elsewhere?)")
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process made it a moment ago: read theirs
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(os.urandom(32).hex() + "\n")
                handle.flush()
                os.fsync(handle.fileno())
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise KeyFileError(f"{path}: the journal key must be a regular file")
    if os.name == "posix" and info.st_mode & 0o077:
        raise KeyFileError(f"{path}: the journal key is readable by others; run chmod 600 on it")
    text = path.read_text(encoding="ascii", errors="replace").strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != 32:
        raise KeyFileError(f"{path}: not a journal key (64 hex digits expected)")
    return key
