"""The publisher's memory of what the director has acknowledged, kept beside the journal.

A station that restarts, or reconnects after the network was gone, sends
again everything after the last sequence number the director acknowledged;
the director drops what it already has (idempotent by board and sequence
number). The number lives in its own small SQLite file next to the journal,
never in the journal itself: the journal records the match, not the network.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


def acks_path(journal: str | Path) -> Path:
    """Where the acknowledged sequence number of ``journal`` is kept."""
    path = Path(journal)
    return path.with_name(path.name + ".net.sqlite")


class AckStore:
    """The last acknowledged sequence number per (tournament prefix, board) for one journal."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS acked (prefix TEXT NOT NULL, board TEXT NOT NULL,"
            " seq INTEGER NOT NULL, PRIMARY KEY (prefix, board))"
        )

    def get(self, prefix: str, board: str) -> int:
        row = self._db.execute("SELECT seq FROM acked WHERE prefix = ? AND board = ?", (prefix, board)).fetchone()
        return int(row[0]) if row else 0

    def set(self, prefix: str, board: str, seq: int) -> None:
        self._db.execute(
            "INSERT INTO acked (prefix, board, seq) VALUES (?, ?, ?)"
            " ON CONFLICT (prefix, board) DO UPDATE SET seq = excluded.seq",
            (prefix, board, seq),
        )

    def close(self) -> None:
        self._db.close()
