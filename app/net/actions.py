"""The director's own journal: every action taken on the page (who, what, when, from where), kept for good.

It is a journal like a board's (:class:`app.record.journal.Journal`: append-only SQLite, synchronous, each
entry sealed with this machine's key and chained to the one before), so a disputed time correction or result
confirmation can be traced to the account that made it. Its first entry names the tournament; every action
is a ``note`` entry. A director restarted on the same file goes on appending to it.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from app.record.journal import Journal, JournalError

RECENT = 50


class DirectorJournal:
    """Appends the page's actions; thread-safe."""

    def __init__(self, path: str | Path, tournament: str) -> None:
        path = Path(path)
        if path.exists() and path.stat().st_size > 0:
            self._journal = Journal(path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._journal = Journal.create(path, {"director_journal": tournament})
        self.path = path
        self._lock = threading.Lock()

    def record(self, who: str, action: str, address: str, **detail: Any) -> None:
        """One action, durably written before the caller carries it out; JournalError if it cannot be."""
        with self._lock:
            try:
                self._journal.append("note", {"who": who, "action": action, "from": address, **detail})
            except (sqlite3.Error, OSError) as error:  # a full disk, a file gone: the caller must not go on
                raise JournalError(f"{self.path}: {error}") from None

    def recent(self, count: int = RECENT) -> list[dict[str, Any]]:
        """The latest actions, newest first, for the page."""
        with self._lock:
            try:
                entries = list(self._journal.entries())[-count:]
            except (sqlite3.Error, OSError) as error:
                raise JournalError(f"{self.path}: {error}") from None
        return [{"seq": e.seq, "at": e.at, **e.payload} for e in reversed(entries) if e.kind == "note"]

    def close(self) -> None:
        with self._lock:
            self._journal.close()
