"""The match journal: an append-only SQLite log with a hash chain, the source of truth.

SQLite in WAL mode with ``synchronous=FULL``: a commit is on disk before
:meth:`Journal.append` returns, so an entry written before its effect
survives a crash or a power cut. Triggers refuse every UPDATE and DELETE.
Each entry carries the SHA-256 of its own content and of the previous
entry's hash, so changing, removing or reordering entries afterwards is
found by :meth:`Journal.verify`.

Entry kinds: ``setup`` (the first entry: the match set-up), ``event`` (an
input event with the referee's reaction to it, written together in one
transaction) and ``note`` (input that was refused before it became an event,
such as a garbled device frame, kept for the record).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

GENESIS = "0" * 64
KINDS = ("setup", "event", "note")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS journal_append_only_update BEFORE UPDATE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS journal_append_only_delete BEFORE DELETE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


class JournalError(Exception):
    """A journal that cannot be opened or whose hash chain is broken; says where."""


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    at: str
    payload: dict[str, Any]
    prev: str
    hash: str


def entry_hash(seq: int, kind: str, at: str, payload_text: str, prev: str) -> str:
    """SHA-256 of one entry's content chained to the previous hash."""
    material = json.dumps([seq, kind, at, payload_text, prev], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def utc_now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")


class Journal:
    """One match's journal file."""

    def __init__(self, path: str | Path, now: Callable[[], str] = utc_now) -> None:
        self.path = Path(path)
        self.now = now
        try:
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"{self.path}: SQLite refused WAL mode ({mode})")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{self.path}: not a match journal ({error})") from None
        self._last_seq, self._last_hash = (int(row[0]), str(row[1])) if row else (0, GENESIS)

    def __len__(self) -> int:
        return self._last_seq

    @property
    def head(self) -> str:
        """The hash of the last entry: it seals everything before it."""
        return self._last_hash

    def append(self, kind: str, payload: dict[str, Any]) -> Entry:
        """Write one entry durably (committed and synced) and return it."""
        if kind not in KINDS:
            raise ValueError(f"unknown journal entry kind {kind!r}")
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        seq = self._last_seq + 1
        at = self.now()
        digest = entry_hash(seq, kind, at, text, self._last_hash)
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
        return entry

    def entries(self) -> Iterator[Entry]:
        """Every entry in order (payloads parsed)."""
        for seq, kind, at, text, prev, digest in self._db.execute(
            "SELECT seq, kind, at, payload, prev, hash FROM journal ORDER BY seq"
        ):
            try:
                payload = json.loads(text)
            except json.JSONDecodeError as error:
                raise JournalError(f"{self.path}: entry {seq} is not JSON ({error})") from None
            yield Entry(int(seq), str(kind), str(at), payload, str(prev), str(digest))

    def verify(self) -> int:
        """Check the whole hash chain; the number of entries, or JournalError naming the first bad entry."""
        previous = GENESIS
        count = 0
        for seq, kind, at, text, prev, digest in self._db.execute(
            "SELECT seq, kind, at, payload, prev, hash FROM journal ORDER BY seq"
        ):
            count += 1
            if seq != count:
                raise JournalError(f"{self.path}: entry {count} is missing (found {seq} in its place)")
            if prev != previous:
                raise JournalError(f"{self.path}: entry {seq} does not follow entry {seq - 1} (chain broken)")
            if entry_hash(seq, kind, at, text, prev) != digest:
                raise JournalError(f"{self.path}: entry {seq} was changed after it was written (hash mismatch)")
            previous = digest
        return count

    def close(self) -> None:
        self._db.close()
