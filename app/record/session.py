"""A referee bound to its journal: write first, then take effect; reopen to resume.

:meth:`Session.submit` asks the pure referee for the next state and its
reaction, writes the event and the reaction to the journal in one durable
commit, and only then adopts the state and hands the reaction back for the
clock and the screen. Reopening a journal verifies the hash chain and folds
the events again; the reactions recomputed are compared with those written,
so a replay that would rule differently is reported, not hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from app.record.journal import Journal, JournalError
from app.referee.engine import Referee
from app.referee.events import DirectorOverride, Event, event_from_dict, event_to_dict
from app.referee.pin import check_pin
from app.referee.rulings import Reaction
from app.referee.setup import MatchSetup

Listener = Callable[[Event, Reaction], None]


@dataclass(frozen=True)
class Resumed:
    """What reopening found: how many events were replayed, and where replay ruled differently."""

    events: int
    mismatches: tuple[int, ...]


class Session:
    """One match in progress: the referee and its journal."""

    def __init__(self, journal: Journal, referee: Referee, resumed: Resumed | None = None) -> None:
        self.journal = journal
        self.referee = referee
        self.resumed = resumed
        self.listeners: list[Listener] = []
        self.last_event: Event | None = None

    @classmethod
    def create(cls, path: str | Path, setup: MatchSetup) -> "Session":
        """A new match journal at ``path`` (which must not hold a journal yet)."""
        journal = Journal(path)
        if len(journal):
            journal.close()
            raise JournalError(f"{path} already holds a match journal: open it to resume, or choose another file")
        journal.append("setup", {"setup": setup.to_dict()})
        return cls(journal, Referee.start(setup))

    @classmethod
    def open(cls, path: str | Path) -> "Session":
        """Resume the match in ``path``: verify the chain, fold the events, compare the reactions."""
        if not Path(path).exists():
            raise JournalError(f"{path}: no such journal")
        journal = Journal(path)
        journal.verify()
        entries = journal.entries()
        first = next(entries, None)
        if first is None or first.kind != "setup":
            journal.close()
            raise JournalError(f"{path}: the journal does not start with a match set-up")
        referee = Referee.start(MatchSetup.from_dict(first.payload["setup"]))
        count = 0
        mismatches = []
        event: Event | None = None
        for entry in entries:
            if entry.kind != "event":
                continue
            event = event_from_dict(entry.payload["event"])
            referee, reaction = referee.handle(event)
            count += 1
            if reaction.to_dict() != entry.payload.get("reaction"):
                mismatches.append(entry.seq)
        session = cls(journal, referee, Resumed(count, tuple(mismatches)))
        session.last_event = event
        return session

    @classmethod
    def open_or_create(cls, path: str | Path, setup: MatchSetup) -> "Session":
        """Resume ``path`` if it holds this set-up's match, else start it there."""
        if Path(path).exists() and Path(path).stat().st_size > 0:
            session = cls.open(path)
            if session.referee.setup != setup:
                session.close()
                raise JournalError(f"{path} holds a different match; choose another journal file")
            return session
        return cls.create(path, setup)

    @property
    def setup(self) -> MatchSetup:
        return self.referee.setup

    def submit(self, event: Event) -> Reaction:
        """Journal ``event`` with the referee's reaction, then adopt the new state and return the reaction."""
        referee, reaction = self.referee.handle(event)
        self.journal.append("event", {"event": event_to_dict(event), "reaction": reaction.to_dict()})
        self.referee = referee
        self.last_event = event
        for listener in list(self.listeners):
            listener(event, reaction)
        return reaction

    def director(self, pin: str, command: str, argument: str = "") -> Reaction:
        """A director's override: the PIN is checked against the stored scrypt hash, never stored itself."""
        authorised = bool(self.setup.pin_hash) and check_pin(pin, self.setup.pin_hash)
        return self.submit(DirectorOverride(command, argument, authorised))

    def note(self, source: str, text: str, problem: str) -> None:
        """Keep input that could not become an event (a garbled frame, a malformed reading)."""
        self.journal.append("note", {"source": source, "input": text[:2000], "problem": problem})

    def history(self) -> list[tuple[int, str, dict[str, Any], Reaction]]:
        """(entry number, time, event, reaction) of every event so far."""
        rows = []
        for entry in self.journal.entries():
            if entry.kind == "event":
                reaction = Reaction.from_dict(entry.payload["reaction"])
                rows.append((entry.seq, entry.at, entry.payload["event"], reaction))
        return rows

    def close(self) -> None:
        self.journal.close()
