"""The director's tournament book: every director action written to a sealed journal before it takes effect.

The book is a match journal of its own (:class:`app.record.journal.Journal`: SQLite WAL, synchronous, each entry
sealed with this station's key): the first entry creates the tournament, each later entry is one action with who
took it and when. Opening the book replays it (:func:`app.net.tournament.replay`), so a director stopped and
started again mid-round has every registration, draw, assignment and result it had. An action the tournament
refuses is never written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from app.net.tournament import Tournament, TournamentError, replay
from app.record.journal import Journal, JournalError, utc_now


class TournamentBook:
    """One tournament and its journal; :meth:`do` is the only way to change it."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        problems = journal.findings()
        if problems:  # a book changed outside the director, or sealed by another station, is not replayed
            journal.close()
            raise JournalError(f"{journal.path}: " + "; ".join(problems))
        actions = []
        for entry in journal.entries():
            if entry.kind in ("setup", "event"):
                actions.append(entry.payload)
        try:
            self.tournament = replay(actions)
        except (TournamentError, KeyError, TypeError, ValueError) as error:
            raise JournalError(f"{journal.path}: not a tournament book ({error})") from None

    @classmethod
    def create(cls, path: str | Path, rules: Mapping[str, Any], by: str, key: bytes | None = None) -> TournamentBook:
        """A new book at ``path`` for a tournament with these rules (checked before anything is written)."""
        action = {**rules, "do": "create", "by": by, "at": utc_now()}
        replay([action])
        return cls(Journal.create(path, action, key=key))

    @classmethod
    def open(cls, path: str | Path, key: bytes | None = None) -> TournamentBook:
        return cls(Journal(path, key=key))

    def do(self, action: Mapping[str, Any], by: str) -> Tournament:
        """Take ``action`` as ``by`` (the director's or a deputy's account, or a board for a confirmed result):
        tried on a copy first, then journaled, then applied; :class:`TournamentError` leaves book and state
        untouched."""
        entry = {**action, "by": by, "at": str(action.get("at") or utc_now())}
        trial = self.tournament.copy()
        try:
            trial.apply(entry)
        except TournamentError:
            raise
        except (KeyError, TypeError, ValueError) as error:
            raise TournamentError(f"a malformed action ({type(error).__name__}: {error})") from None
        self.journal.append("event", entry)
        self.tournament = trial
        return trial

    def actions(self) -> list[dict[str, Any]]:
        """Every action in order, with who took it and when (the director's audit trail)."""
        return [entry.payload for entry in self.journal.entries() if entry.kind in ("setup", "event")]

    def close(self) -> None:
        self.journal.close()
