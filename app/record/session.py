"""A referee bound to its journal: write first, then take effect; reopen to resume.

:meth:`Session.submit` asks the pure referee for the next state and its
reaction, writes the event and the reaction to the journal in one durable
commit, and only then adopts the state and hands the reaction back for the
clock and the screen. Reopening a journal verifies its seals and folds
the events again; the reactions recomputed are compared with those written,
so a replay that would rule differently is reported, not hidden.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from app.record.devicekey import device_key
from app.record.journal import EmptyJournal, Entry, Journal, JournalError
from app.referee.engine import Referee
from app.referee.events import DirectorOverride, Event, event_from_dict, event_to_dict
from app.referee.pin import hash_pin, outdated, outdated_message, pin_key, proof
from app.referee.rulings import Level, Reaction, Ruling
from app.referee.setup import MatchSetup

FREE_TRIES = 5
"""Wrong director PINs allowed in a row before the tablet makes the next one wait (30 s, doubling)."""

Listener = Callable[[Event, Reaction], None]


def pin_record(pin: str, salt: bytes | None = None) -> str:
    """The set-up's record of the director's ``pin`` on this tablet (keyed by its journal key, made on a first
    start); ValueError for a PIN that is not allowed or a journal key that is missing (the message says what to do)."""
    return hash_pin(pin, device_key(create=True), salt)


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
        self._pin_failed_at = time.monotonic()  # a restart does not clear a wait for wrong PINs

    @classmethod
    def create(cls, path: str | Path, setup: MatchSetup) -> "Session":
        """A new match journal at ``path`` (which must not hold a journal yet), set-up written with the schema."""
        journal = Journal.create(path, {"setup": setup.to_dict()})
        return cls(journal, Referee.start(setup))

    @classmethod
    def open(cls, path: str | Path) -> "Session":
        """Resume the match in ``path``: verify the seals and the head, fold the events, compare the reactions.

        Every damaged entry becomes a JournalError naming it (``python -m app salvage`` keeps the entries before
        it)."""
        journal = Journal(path)
        try:
            journal.verify()
            referee, count, mismatches, event = replay(journal)
        except JournalError:
            journal.close()
            raise
        session = cls(journal, referee, Resumed(count, tuple(mismatches)))
        session.last_event = event
        return session

    @classmethod
    def open_or_create(cls, path: str | Path, setup: MatchSetup) -> "Session":
        """Resume ``path`` if it holds this set-up's match, else start it there (also over an empty journal left
        by a set-up that was interrupted)."""
        session = cls.resume_or_create(path, setup)
        if session.referee.setup != setup:
            session.close()
            raise JournalError(f"{path} holds a different match; choose another journal file")
        return session

    @classmethod
    def resume_or_create(cls, path: str | Path, setup: MatchSetup) -> "Session":
        """Resume whatever match ``path`` holds (the tablet's own journal), else start ``setup`` there (also over
        an empty journal left by a set-up that was interrupted)."""
        if Path(path).exists():
            try:
                return cls.open(path)
            except EmptyJournal:
                pass
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
        """A director's override with the proof made from ``pin`` now (never stored); after ``FREE_TRIES`` wrong
        PINs in a row each further try waits longer, and a try too soon is noted without checking the PIN."""
        stored = self.setup.pin_hash
        referee = self.referee
        made = ""
        if stored:
            wait = self.pin_wait()
            if wait > 0:
                self.note(
                    "director",
                    command,
                    f"PIN try refused unchecked: wait {wait} s after {referee.pin_failures} wrong PINs",
                )
                return Reaction(
                    (Ruling("pin_locked", Level.ERROR, {"seconds": wait, "attempts": referee.pin_failures}),)
                )
            key = pin_key(pin, stored, self.journal.key)
            made = proof(key, stored, referee.director_overrides) if key is not None else ""
        reaction = self.submit(DirectorOverride(command, argument, made))
        if self.referee.pin_failures > referee.pin_failures:
            self._pin_failed_at = time.monotonic()
        return reaction

    def notice(self, language: str = "en") -> str:
        """What the director should know about this match's trust ("" when nothing): a PIN record of the older
        form that a copy of the journal can test."""
        return outdated_message(language) if outdated(self.setup.pin_hash) else ""

    def pin_wait(self) -> int:
        """Seconds before the next PIN try is checked (0: now)."""
        failures = self.referee.pin_failures
        if failures < FREE_TRIES:
            return 0
        delay = 30 * 2 ** min(failures - FREE_TRIES, 8)
        since = time.monotonic() - self._pin_failed_at
        return max(0, int(delay - since + 0.999))

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


def replay(journal: Journal) -> tuple[Referee, int, list[int], Event | None]:
    """Fold a journal's events: the referee, how many events, where replay ruled differently, the last event.

    A damaged entry (a payload without its set-up or event, an event that does not parse) is a JournalError
    naming the entry, never a bare KeyError or ValueError."""
    entries = journal.entries()
    first = next(entries, None)
    if first is None or first.kind != "setup":
        raise JournalError(f"{journal.path}: the journal does not start with a match set-up")
    referee = Referee.start(_setup_of(journal.path, first))
    count = 0
    mismatches = []
    event: Event | None = None
    for entry in entries:
        if entry.kind != "event":
            continue
        event = event_of(journal.path, entry)
        try:
            referee, reaction = referee.handle(event)
        except (ValueError, KeyError, TypeError) as error:
            raise JournalError(f"{journal.path}: entry {entry.seq} cannot be refereed ({error})") from None
        count += 1
        if reaction.to_dict() != entry.payload.get("reaction"):
            mismatches.append(entry.seq)
    return referee, count, mismatches, event


def _setup_of(path: Path, entry: Entry) -> MatchSetup:
    try:
        data = entry.payload["setup"]
        if not isinstance(data, dict):
            raise ValueError("the set-up is not a JSON object")
        return MatchSetup.from_dict(data)
    except (KeyError, ValueError, TypeError) as error:
        raise JournalError(f"{path}: entry {entry.seq} is damaged: not a match set-up ({error!s})") from None


def event_of(path: Path, entry: Entry) -> Event:
    """The event an ``event`` entry holds; JournalError naming the entry when it is damaged."""
    if "event" not in entry.payload:
        raise JournalError(f"{path}: entry {entry.seq} is damaged: it holds no event")
    try:
        return event_from_dict(entry.payload["event"])
    except (ValueError, TypeError, KeyError, RecursionError) as error:
        raise JournalError(f"{path}: entry {entry.seq} is damaged: {error}") from None
