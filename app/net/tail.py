"""Reading a journal while its station writes it: new entries in order, their hash chain checked.

The publisher reads the journal file itself (the source of truth), through a
read-only SQLite connection of its own, so it needs nothing from the screen
or the referee's thread and can never change the journal. Each entry read is
checked against its own hash and against the previous one, so what goes out
on the network is exactly what the journal holds.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from app.record.devicekey import KeyFileError, device_key
from app.record.journal import GENESIS, Entry, JournalError, entry_hash


class JournalTail:
    """Entries of one journal file after a given sequence number, read-only."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise JournalError(f"{self.path}: no such journal")
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        try:
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{self.path}: cannot be read ({error})") from None
        try:
            self._key = device_key(create=False)  # the publisher runs on the station's own tablet, under its key
        except KeyFileError as error:
            raise JournalError(f"{self.path}: {error}") from None
        self.checked = 0
        """The last entry whose chain has been checked."""
        self._last_hash = GENESIS

    def read(self, after: int, limit: int = 500) -> list[Entry]:
        """Up to ``limit`` entries with ``seq > after``, in order; JournalError on a broken chain."""
        try:
            rows = self._db.execute(
                "SELECT seq, kind, at, payload, prev, hash FROM journal WHERE seq > ? ORDER BY seq LIMIT ?",
                (after, limit),
            ).fetchall()
        except sqlite3.OperationalError as error:
            if "no such table" in str(error):
                return []  # the station has not written its first entry yet
            raise JournalError(f"{self.path}: cannot be read ({error})") from None
        entries = []
        for seq, kind, at, text, prev, digest in rows:
            if entry_hash(self._key, seq, kind, at, text, prev) != digest:
                raise JournalError(f"{self.path}: entry {seq} was changed after it was written (seal mismatch)")
            if seq == self.checked + 1:
                if prev != self._last_hash:
                    raise JournalError(f"{self.path}: entry {seq} does not follow entry {seq - 1} (chain broken)")
                self.checked, self._last_hash = seq, digest
            try:
                payload = json.loads(text)
            except json.JSONDecodeError as error:
                raise JournalError(f"{self.path}: entry {seq} is not JSON ({error})") from None
            entries.append(Entry(int(seq), str(kind), str(at), payload, str(prev), str(digest)))
        return entries

    def close(self) -> None:
        self._db.close()
