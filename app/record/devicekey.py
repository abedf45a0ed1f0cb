"""This tablet's secret journal key, kept outside every journal, and its backup.

Each journal entry is sealed with HMAC-SHA-256 under this key (:mod:`app.record.journal`), so
whoever holds a journal file but not the key cannot rewrite it unnoticed, and the director's PIN
record is keyed by it (:mod:`app.referee.pin`), so the file alone cannot test a PIN guess. The key
is 32 random bytes in an owner-only file, ``device.key`` in the station's data folder when
``TAVLA_DATA_DIR`` names one (``python -m app`` names Kivy's), else in the user's configuration folder
(``$XDG_CONFIG_HOME/tavla-referee/device.key``); ``TAVLA_KEY_FILE`` names another file.

A key is made only on a genuinely first start: no key, no record of one (``device.key.id`` beside it,
the key's public name) and, for the usual key place, no match in the station's library. A key that
went missing afterwards is an error that says to restore it from its backup
(``python -m app key backup FILE`` writes one): a silent new key would leave every journal on the
tablet unreadable.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from app.record.library import DATA_ENV

KEY_ENV = "TAVLA_KEY_FILE"


class KeyFileError(ValueError):
    """The key file cannot be made or trusted; the message says what to fix (in English and Turkish)."""


class MissingKey(KeyFileError):
    """The key is gone although this tablet has had one: restore it from its backup, never make a new one."""

    def __init__(self, path: Path, known: str) -> None:
        self.path = path
        self.known = known
        named = f" (key id {known})" if known else ""
        adli = f" (anahtar kimliği {known})" if known else ""
        super().__init__(
            f"{path}: this tablet's journal key is missing{named}. Restore it from its backup with"
            f" `python -m app key restore BACKUP_FILE`; no new key is made, since every journal on this tablet"
            f" is sealed with the missing one."
            f" / {path}: bu tabletin maç kaydı anahtarı kayıp{adli}. Yedeğinden geri yükleyin:"
            f" `python -m app key restore YEDEK_DOSYASI`; yeni anahtar yapılmaz, çünkü bu tabletteki her maç"
            f" kaydı kayıp anahtarla mühürlü."
        )


def key_path() -> Path:
    """Where this tablet's key lives (``TAVLA_KEY_FILE`` first, else the station's data folder, else the user's
    config folder)."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named)
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV]) / "device.key"
    return xdg_key_path()


def xdg_key_path() -> Path:
    """The key's place in the user's configuration folder (XDG)."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "tavla-referee" / "device.key"


def key_id(key: bytes) -> str:
    """A short public name for a key (which tablet sealed a journal), not the key."""
    return hashlib.sha256(b"tavla-key-id" + key).hexdigest()[:16]


def id_path(path: Path) -> Path:
    """The record that this tablet has a key (its public id), beside the key so that losing the key alone is seen."""
    return path.with_name(path.name + ".id")


def known_id(path: Path | None = None) -> str:
    """The id of the key this tablet has had ("" when none is recorded)."""
    try:
        return id_path(path or key_path()).read_text(encoding="ascii", errors="replace").strip()[:16]
    except OSError:
        return ""


def first_start(path: Path | None = None) -> bool:
    """Whether a key may be made at ``path``: none is there, none was recorded, and (for the usual key place) the
    station's library holds no match that an earlier key sealed."""
    path = path or key_path()
    if path.exists() or id_path(path).exists():
        return False
    if os.environ.get(KEY_ENV) or path != key_path():
        return True
    from app.record.library import MatchLibrary

    return not MatchLibrary().matches()


def device_key(path: Path | None = None, create: bool = False) -> bytes:
    """The key in ``path``; with ``create``, made there (owner-only) on a genuinely first start.

    :raises MissingKey: the key is missing and this is no first start (or ``create`` is false).
    :raises KeyFileError: the key cannot be trusted: readable by others, or not 32 bytes.
    """
    path = path or key_path()
    if not path.exists():
        if not (create and first_start(path)):
            raise MissingKey(path, known_id(path))
        _write_key(path, os.urandom(32))
    key = read_key(path)
    _record_id(path, key)
    return key


def read_key(path: Path, private: bool = True) -> bytes:
    """The key in the file ``path``; KeyFileError when it cannot be trusted (``private``: the tablet's own file must
    be owner-only; a backup on a stick that knows no owners need not be)."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise KeyFileError(f"{path}: a journal key must be a regular file / maç kaydı anahtarı bir dosya olmalı")
        if private and os.name == "posix" and info.st_mode & 0o077:
            raise KeyFileError(
                f"{path}: the journal key is readable by others; run chmod 600 on it"
                f" / anahtarı başkaları da okuyabiliyor; chmod 600 ile kapatın"
            )
        text = path.read_text(encoding="ascii", errors="replace").split("#")[0].strip()
    except FileNotFoundError:
        raise MissingKey(path, known_id(path)) from None
    except OSError as error:
        raise KeyFileError(f"{path}: the journal key cannot be read ({error.strerror})") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != 32:
        raise KeyFileError(
            f"{path}: not a journal key (64 hex digits expected) / maç kaydı anahtarı değil (64 onaltılık rakam)"
        )
    return key


def _write_key(path: Path, key: bytes, exclusive: bool = True) -> None:
    """``key`` into a new owner-only file (a file another process made a moment ago is left to be read)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if exclusive:
            return
        raise
    with os.fdopen(fd, "w") as handle:
        handle.write(f"{key.hex()}\n# tavla-referee journal key, id {key_id(key)}\n")
        handle.flush()
        os.fsync(handle.fileno())


def _record_id(path: Path, key: bytes) -> None:
    """Remember that this tablet has this key (its public id only); a folder that cannot take it is left alone."""
    target = id_path(path)
    if known_id(path) == key_id(key):
        return
    try:
        target.write_text(key_id(key) + "\n", encoding="ascii")
    except OSError:
        pass  # the key works without the record; only a lost key's message names fewer facts


def backup_key(target: str | Path, path: Path | None = None) -> str:
    """Write this tablet's key to ``target`` (a new owner-only file: a USB stick, the director's laptop) and
    return its id (a new station's key is made first); KeyFileError when the key is missing or ``target`` exists."""
    key = device_key(path, create=True)
    target = Path(target)
    if target.exists():
        raise KeyFileError(f"{target}: already exists; choose a new file / bu dosya zaten var; yeni bir dosya seçin")
    try:
        _write_key(target, key, exclusive=False)
    except OSError as error:
        raise KeyFileError(f"{target}: the backup cannot be written ({error.strerror})") from None
    return key_id(key)


def restore_key(backup: str | Path, path: Path | None = None) -> str:
    """Put the key in ``backup`` back as this tablet's key and return its id; KeyFileError when a key is already
    there or the backup holds another tablet's key than the one this tablet had."""
    path = path or key_path()
    key = read_key(Path(backup), private=False)
    if path.exists():
        raise KeyFileError(
            f"{path}: this tablet already has a journal key; it is left as it is"
            f" / bu tabletin zaten bir anahtarı var; olduğu gibi bırakıldı"
        )
    known = known_id(path)
    if known and known != key_id(key):
        raise KeyFileError(
            f"{backup}: this backup holds another key (id {key_id(key)}) than the one this tablet had (id {known})"
            f" / bu yedek başka bir anahtar (kimlik {key_id(key)}); bu tabletinki {known}"
        )
    try:
        _write_key(path, key, exclusive=False)
    except OSError as error:
        raise KeyFileError(f"{path}: the key cannot be written back ({error.strerror})") from None
    _record_id(path, key)
    return key_id(key)
