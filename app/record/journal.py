"""The match journal: an append-only SQLite log sealed with this tablet's key, the source of truth.

SQLite in WAL mode with ``synchronous=FULL``: a commit is on disk before
:meth:`Journal.append` returns, so an entry written before its effect
survives a crash or a power cut. Triggers refuse every UPDATE and DELETE.
Each entry carries an HMAC-SHA-256, under the tablet's key kept outside the
journal (:mod:`app.record.devicekey`), of its own content and the previous entry's
seal, so whoever holds the file but not the key cannot change, remove or
reorder entries unnoticed. A small head file beside the journal
(``<journal>.head``: the last entry number and seal, sealed too) shows a tail
cut off; the result sheet and the exports carry the same head.

The schema and the first entry (the match set-up) are written in one
transaction, so a file is either a whole journal or none. One process at a
time holds a journal (an exclusive lock on ``<journal>.lock``); a read-only
journal (``readonly=True``, for ``verify``) neither locks nor writes.

Entry kinds: ``setup`` (the first entry: the match set-up), ``event`` (an
input event with the referee's reaction to it, written together in one
transaction) and ``note`` (input that was refused before it became an event,
such as a garbled device frame, kept for the record).
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from app.record.devicekey import KeyFileError, device_key, key_id

GENESIS = "0" * 64
KINDS = ("setup", "event", "note")
FORMAT = 2
"""2: entries sealed with HMAC-SHA-256 under the tablet's key (1 was a keyless SHA-256 chain)."""

_SCHEMA = """
CREATE TABLE journal (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE TABLE seal (format INTEGER NOT NULL, key_id TEXT NOT NULL);
CREATE TRIGGER journal_append_only_update BEFORE UPDATE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER journal_append_only_delete BEFORE DELETE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


class JournalError(Exception):
    """A journal that cannot be opened, is held elsewhere, or whose seals are broken; says where."""


class EmptyJournal(JournalError):
    """A file with no journal entry (a set-up interrupted before its first commit, or an empty file)."""


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    at: str
    payload: dict[str, Any]
    prev: str
    hash: str


@dataclass(frozen=True)
class Check:
    """What checking a journal found: the problems in words, whether another tablet's key sealed it, and how many
    entries from the start are whole (``sealed``: also sealed by this tablet's key; ``linked``: in order, chained,
    readable, whichever key sealed them)."""

    findings: tuple[str, ...]
    foreign: bool
    sealed: int
    linked: int


@dataclass(frozen=True)
class Head:
    """The last entry's number and seal: what a result sheet, an export and the head file record."""

    seq: int
    hash: str

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"

    @classmethod
    def parse(cls, text: str) -> "Head":
        """``seq:hash`` as written by ``str``; JournalError for anything else."""
        seq, _, digest = text.strip().partition(":")
        if not seq.isdigit() or len(digest) != 64:
            raise JournalError(f"not a journal head (entry number:seal): {text[:80]!r}")
        return cls(int(seq), digest)


def entry_hash(key: bytes, seq: int, kind: str, at: str, payload_text: str, prev: str) -> str:
    """HMAC-SHA-256 under ``key`` of one entry's content chained to the previous seal."""
    material = json.dumps([seq, kind, at, payload_text, prev], ensure_ascii=False, separators=(",", ":"))
    return hmac.new(key, material.encode("utf-8"), hashlib.sha256).hexdigest()


def head_mac(key: bytes, head: Head) -> str:
    return hmac.new(key, f"tavla-head|{head}".encode(), hashlib.sha256).hexdigest()


_HEAD_SIZE = 256


def utc_now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")


def head_path(path: Path) -> Path:
    return path.with_name(path.name + ".head")


def _lock(path: Path) -> IO[bytes] | None:
    """An exclusive lock on ``<journal>.lock`` for as long as the journal is open; JournalError when held."""
    try:
        import fcntl
    except ImportError:  # no advisory locks on this system: one app per tablet is then the user's care
        return None
    handle = open(path.with_name(path.name + ".lock"), "ab")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise JournalError(
            f"{path}: this match is open elsewhere (another app or demo holds its journal); close it there first"
        ) from None
    return handle


def _text(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class Journal:
    """One match's journal file, opened for appending (locked) or read-only."""

    def __init__(
        self, path: str | Path, now: Callable[[], str] = utc_now, key: bytes | None = None, readonly: bool = False
    ) -> None:
        self.path = Path(path)
        self.now = now
        self.readonly = readonly
        self._head_fd: int | None = None
        if not self.path.is_file():
            raise JournalError(f"{self.path}: no such journal")
        self._lock = None if readonly else _lock(self.path)
        try:
            self.key = key if key is not None else device_key()  # a journal exists, so a key must: never made here
        except (KeyFileError, OSError) as error:
            self._unlock()
            raise JournalError(str(error)) from None
        try:
            if readonly:
                self._db = sqlite3.connect(
                    f"{self.path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
                )
            else:
                self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
                self._db.execute("PRAGMA synchronous=FULL")
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            row = (
                self._db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
                if "journal" in tables
                else None
            )
            seal = self._db.execute("SELECT format, key_id FROM seal").fetchone() if "seal" in tables else None
        except sqlite3.DatabaseError as error:
            self._unlock()
            raise JournalError(f"{self.path}: not a match journal ({error})") from None
        if row is None and not (tables - {"journal", "seal"}):
            self.close()
            raise EmptyJournal(f"{self.path}: an empty journal (its set-up was never written)")
        if "journal" not in tables or seal is None:
            self.close()
            raise JournalError(f"{self.path}: not a match journal of this app version (no sealed journal table)")
        self.format, self.sealed_by = int(seal[0]), str(seal[1])
        if not readonly:
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                self.close()
                raise JournalError(f"{self.path}: SQLite refused WAL mode ({mode})")
        self._last_seq, self._last_hash = (int(row[0]), str(row[1])) if row else (0, GENESIS)

    @classmethod
    def create(
        cls, path: str | Path, setup: dict[str, Any], now: Callable[[], str] = utc_now, key: bytes | None = None
    ) -> "Journal":
        """A new journal at ``path`` holding the set-up entry, both written in one transaction (an empty file
        left by an interrupted set-up is replaced; a journal with entries never is)."""
        path = Path(path)
        try:
            key = key if key is not None else device_key(create=True)  # made on a first start only
        except (KeyFileError, OSError) as error:
            raise JournalError(str(error)) from None
        lock = _lock(path)
        try:
            if path.exists():
                try:
                    Journal(path, key=key, readonly=True).close()
                except EmptyJournal:
                    for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                        leftover.unlink(missing_ok=True)
                else:
                    raise JournalError(
                        f"{path} already holds a match journal: open it to resume, or choose another file"
                    )
            at = now()
            text = _text(setup)
            digest = entry_hash(key, 1, "setup", at, text, GENESIS)
            db = sqlite3.connect(str(path), isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.execute("BEGIN IMMEDIATE")
                for statement in _SCHEMA.split(";\n"):
                    if statement.strip():
                        db.execute(statement + (";" if "BEGIN SELECT" in statement else ""))
                db.execute("INSERT INTO seal (format, key_id) VALUES (?, ?)", (FORMAT, key_id(key)))
                db.execute(
                    "INSERT INTO journal (seq, kind, at, payload, prev, hash) VALUES (1, 'setup', ?, ?, ?, ?)",
                    (at, text, GENESIS, digest),
                )
                db.execute("COMMIT")
            finally:
                db.close()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{path}: the journal cannot be created ({error})") from None
        finally:
            if lock is not None:
                lock.close()
        journal = cls(path, now, key)
        journal._write_head()
        return journal

    def __len__(self) -> int:
        return self._last_seq

    @property
    def head(self) -> str:
        """The seal of the last entry: it seals everything before it."""
        return self._last_hash

    @property
    def last(self) -> Head:
        """The last entry's number and seal."""
        return Head(self._last_seq, self._last_hash)

    def append(self, kind: str, payload: dict[str, Any], at: str | None = None) -> Entry:
        """Write one entry durably (committed and synced), then the head file, and return it."""
        if self.readonly:
            raise JournalError(f"{self.path}: opened read-only")
        if kind not in KINDS:
            raise ValueError(f"unknown journal entry kind {kind!r}")
        text = _text(payload)
        seq = self._last_seq + 1
        at = at if at is not None else self.now()
        digest = entry_hash(self.key, seq, kind, at, text, self._last_hash)
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(
                "INSERT INTO journal (seq, kind, at, payload, prev, hash) VALUES (?, ?, ?, ?, ?, ?)",
                (seq, kind, at, text, self._last_hash, digest),
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        entry = Entry(seq, kind, at, payload, self._last_hash, digest)
        self._last_seq, self._last_hash = seq, digest
        self._write_head()
        return entry

    def _write_head(self) -> None:
        """``<journal>.head``: the last entry and its seal, sealed. Made once and synced, then overwritten in
        place at the same length without a sync: a power cut can leave it one entry behind (harmless: entries
        are sealed one by one), never empty."""
        head = self.last
        record = json.dumps({"seq": head.seq, "hash": head.hash, "mac": head_mac(self.key, head)})
        data = record.ljust(_HEAD_SIZE - 1).encode("ascii") + b"\n"
        if self._head_fd is None:
            target = head_path(self.path)
            fresh = not target.exists()
            self._head_fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)
            os.pwrite(self._head_fd, data, 0)
            if fresh:
                os.fsync(self._head_fd)
            return
        os.pwrite(self._head_fd, data, 0)

    def read_head(self) -> Head | None:
        """The head file's record (None when there is none); JournalError when it is damaged or forged."""
        target = head_path(self.path)
        if not target.exists():
            return None
        try:
            data = json.loads(target.read_text(encoding="ascii", errors="replace"))
            head = Head(int(data["seq"]), str(data["hash"]))
            mac = str(data["mac"])
        except (ValueError, KeyError, TypeError) as error:
            raise JournalError(f"{target}: the head file is damaged ({error})") from None
        if not hmac.compare_digest(mac, head_mac(self.key, head)):
            raise JournalError(f"{target}: the head file's seal is wrong (written elsewhere or changed)")
        return head

    def rows(self) -> Iterator[tuple[int, str, str, str, str, str]]:
        """The raw rows in order, as stored."""
        try:
            for seq, kind, at, text, prev, digest in self._db.execute(
                "SELECT seq, kind, at, payload, prev, hash FROM journal ORDER BY seq"
            ):
                yield int(seq), str(kind), str(at), str(text), str(prev), str(digest)
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{self.path}: the journal cannot be read ({error})") from None

    def entries(self) -> Iterator[Entry]:
        """Every entry in order (payloads parsed); JournalError naming an entry whose payload is damaged."""
        for seq, kind, at, text, prev, digest in self.rows():
            yield Entry(seq, kind, at, parse_payload(self.path, seq, text), prev, digest)

    def findings(self, expected: Head | None = None) -> list[str]:
        """Every problem found, in words (empty: the journal is whole and sealed by this tablet's key).

        ``expected`` is a head recorded elsewhere (a result sheet, an export) that the journal must reach.
        """
        return list(self.check(expected).findings)

    def check(self, expected: Head | None = None) -> "Check":
        """Every seal checked under this tablet's key, also when the journal names another key (a changed key
        record must not hide a changed entry), the chain, the kinds, the payloads and the head."""
        found: list[str] = []
        previous, count, sealed, sound, whole = GENESIS, 0, 0, 0, True
        broken: list[int] = []
        for seq, kind, at, text, prev, digest in self.rows():
            count += 1
            ok = True
            if seq != count:
                found.append(f"entry {count} is missing (entry {seq} stands in its place)")
                count, ok = seq, False
            if prev != previous:
                found.append(f"entry {seq} does not follow entry {seq - 1} (chain broken)")
                ok = False
            if hmac.compare_digest(entry_hash(self.key, seq, kind, at, text, prev), digest):
                sealed += 1
            else:
                broken.append(seq)
            if kind not in KINDS or (seq == 1) != (kind == "setup"):
                found.append(f"entry {seq} has the wrong kind {kind!r}")
                ok = False
            try:
                parse_payload(self.path, seq, text)
            except JournalError as error:
                found.append(str(error).removeprefix(f"{self.path}: "))
                ok = False
            whole = whole and ok
            if whole:
                sound = seq
            previous = digest
        foreign = self.sealed_by != key_id(self.key) and sealed == 0
        if foreign:
            found.insert(
                0,
                f"the journal was sealed with another key (key id {self.sealed_by}; this tablet's is"
                f" {key_id(self.key)}): none of its {count} seals can be checked here; check it on the tablet that"
                " wrote it, or restore that tablet's key from its backup",
            )
        else:
            if self.sealed_by != key_id(self.key):
                found.insert(
                    0,
                    f"the journal's key record was changed: it names key id {self.sealed_by}, but {sealed} of its"
                    f" entries are sealed with this tablet's key ({key_id(self.key)})",
                )
            found += [f"entry {seq} was changed after it was written (its seal does not match)" for seq in broken]
            found += self._head_findings(Head(count, previous), count)
        last = Head(count, previous)
        if expected is not None and expected != last:
            if expected.seq > last.seq:
                found.append(
                    f"entries {last.seq + 1} to {expected.seq} were removed: the recorded head is entry"
                    f" {expected.seq}, the journal ends at entry {last.seq}"
                )
            elif expected.seq < last.seq:
                found.append(
                    f"the journal has {last.seq - expected.seq} entries after the recorded head (entry {expected.seq})"
                )
            else:
                found.append(f"entry {last.seq} differs from the recorded head")
        first_broken = broken[0] if broken else count + 1
        return Check(tuple(found), foreign, min(sound, first_broken - 1), sound)

    def _head_findings(self, last: Head, count: int) -> list[str]:
        found: list[str] = []
        try:
            head = self.read_head()
        except JournalError as error:
            found.append(str(error))
            head = None
        if head is None and count > 1:
            found.append(f"the head file {head_path(self.path).name} is missing: a cut tail cannot be ruled out")
        elif head is not None and head.seq > last.seq:
            found.append(
                f"entries {last.seq + 1} to {head.seq} were removed: the head file records entry"
                f" {head.seq}, the journal ends at entry {last.seq}"
            )
        elif head is not None and head.seq == last.seq and head.hash != last.hash:
            found.append(f"the last entry {last.seq} is not the one the head file records")
        return found

    def verify(self) -> int:
        """Check every seal and the head; the number of entries, or JournalError with the first problem."""
        found = self.findings()
        if found:
            raise JournalError(f"{self.path}: {found[0]}")
        return self._last_seq

    def _unlock(self) -> None:
        if getattr(self, "_lock", None) is not None:
            assert self._lock is not None
            self._lock.close()
            self._lock = None

    def close(self) -> None:
        if hasattr(self, "_db"):
            self._db.close()
        if self._head_fd is not None:
            os.close(self._head_fd)
            self._head_fd = None
        self._unlock()


def parse_payload(path: Path, seq: int, text: str) -> dict[str, Any]:
    """An entry's payload as a JSON object; JournalError naming the entry otherwise."""
    try:
        payload = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise JournalError(f"{path}: entry {seq} is damaged: its payload is not JSON ({error})") from None
    if not isinstance(payload, dict):
        raise JournalError(f"{path}: entry {seq} is damaged: its payload is not a JSON object")
    return payload
