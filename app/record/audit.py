"""Checking a journal without touching it, and saving what can be saved from a damaged one.

``python -m app verify`` opens the file read-only and reports every finding in
words (seals, the head file, a head recorded on a result sheet, damaged
entries, rulings that differ on replay). ``python -m app salvage`` copies the
entries up to the first bad one into a new journal, sealed again, so a match
can go on from the last good moment; the damaged file is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.record.journal import Entry, Head, Journal, JournalError, parse_payload
from app.record.session import event_of, replay


@dataclass(frozen=True)
class Report:
    """What verifying found: the problems in words and, when the journal could be replayed, the standing."""

    entries: int
    findings: tuple[str, ...]
    standing: str = ""
    events: int = 0

    @property
    def ok(self) -> bool:
        return not self.findings


def audit(path: str | Path, expected: Head | None = None) -> Report:
    """Verify ``path`` read-only; JournalError only when it cannot be opened at all."""
    journal = Journal(path, readonly=True)
    try:
        findings = journal.findings(expected)
        try:
            referee, events, mismatches, _ = replay(journal)
        except JournalError as error:
            text = str(error).removeprefix(f"{journal.path}: ")
            return Report(len(journal), tuple(findings if text in findings else [*findings, text]))
        findings += [
            f"entry {seq}: the referee rules differently on replay than it did at the table" for seq in mismatches
        ]
        chouette = referee.chouette
        if chouette is not None:
            standing = "ledger " + ", ".join(f"{name} {chouette.balance(name):+d}" for name in chouette.players)
        else:
            score = referee.match.score
            standing = f"score {score[0]}-{score[1]}" + (", match over" if referee.match.over else "")
        return Report(len(journal), tuple(findings), standing, events)
    finally:
        journal.close()


def salvage(source: str | Path, target: str | Path) -> tuple[int, str]:
    """Copy ``source``'s entries up to the first bad one into a new journal at ``target``, sealed with this
    tablet's key; (entries kept, why the copy stopped or "")."""
    journal = Journal(source, readonly=True)
    try:
        good: list[tuple[str, dict[str, Any], str]] = []
        stop = ""
        bad = {_entry_number(text) for text in journal.findings() if _entry_number(text) is not None}
        for seq, kind, at, text, prev, digest in journal.rows():
            if seq != len(good) + 1 or seq in bad:
                stop = f"entry {len(good) + 1} is missing or damaged"
                break
            try:
                entry = Entry(seq, kind, at, parse_payload(journal.path, seq, text), prev, digest)
                if entry.kind == "event":
                    event_of(journal.path, entry)
            except JournalError as error:
                stop = str(error).removeprefix(f"{journal.path}: ")
                break
            good.append((entry.kind, entry.payload, entry.at))
    finally:
        journal.close()
    if not good or good[0][0] != "setup":
        raise JournalError(f"{source}: nothing to salvage (the match set-up itself is damaged)")
    copy = Journal.create(target, good[0][1], now=lambda: good[0][2])
    try:
        for kind, payload, at in good[1:]:
            copy.append(kind, payload, at=at)
    finally:
        copy.close()
    return len(good), stop


def _entry_number(finding: str) -> int | None:
    words = finding.split()
    if len(words) > 1 and words[0] == "entry" and words[1].isdigit():
        return int(words[1])
    return None
