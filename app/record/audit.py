"""Checking a journal without touching it, and saving what can be saved from a damaged one.

``python -m app verify`` opens the file read-only and reports every finding in
words (seals, the head file, a head recorded on a result sheet, damaged
entries, rulings that differ on replay). ``python -m app salvage`` copies the
entries up to the first bad one into a new journal, sealed again, so a match
can go on from the last good moment; the damaged file is left as it was. Only
what this tablet's key sealed is sealed again: another tablet's journal is
copied only by the director's explicit choice, noted in the copy and reported
by every later ``verify``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.record.devicekey import key_id
from app.record.journal import Entry, Head, Journal, JournalError, parse_payload
from app.record.session import event_of, replay
from app.referee.pin import outdated


@dataclass(frozen=True)
class Report:
    """What verifying found: the problems in words and, when the journal could be replayed, the standing."""

    entries: int
    findings: tuple[str, ...]
    standing: str = ""
    events: int = 0
    outdated_pin: bool = False
    """The set-up's PIN record has the older form a copy of the journal can test (:func:`outdated_message`)."""

    @property
    def ok(self) -> bool:
        return not self.findings


def audit(path: str | Path, expected: Head | None = None) -> Report:
    """Verify ``path`` read-only; JournalError only when it cannot be opened at all."""
    journal = Journal(path, readonly=True)
    try:
        check = journal.check(expected)
        findings = list(check.findings)
        if not check.foreign:
            findings += unchecked_findings(journal)
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
        return Report(len(journal), tuple(findings), standing, events, outdated(referee.setup.pin_hash))
    finally:
        journal.close()


UNCHECKED = "unchecked_from"
"""The note a salvage writes when the director chose to copy entries another tablet's key sealed."""


def salvage(source: str | Path, target: str | Path, unchecked: bool = False) -> tuple[int, str]:
    """Copy ``source``'s whole entries up to the first bad one into a new journal at ``target``, sealed with this
    tablet's key; (entries kept, why the copy stopped or "").

    Only entries whose seals this tablet's key confirms are copied: a journal sealed with another key is refused
    (JournalError naming that key), since sealing it here would vouch for what this tablet never saw. With
    ``unchecked`` (the director's explicit choice) its linked entries are copied, and a note right after the set-up
    says so and whose key sealed them; ``verify`` reports every such journal.
    """
    journal = Journal(source, readonly=True)
    try:
        check = journal.check()
        if check.foreign and not unchecked:
            raise JournalError(foreign_message(source, journal.sealed_by, key_id(journal.key)))
        keep = check.linked if check.foreign else check.sealed
        good: list[tuple[str, dict[str, Any], str]] = []
        stop = ""
        for seq, kind, at, text, prev, digest in journal.rows():
            if seq > keep:
                stop = f"entry {seq} is missing or damaged"
                break
            try:
                entry = Entry(seq, kind, at, parse_payload(journal.path, seq, text), prev, digest)
                if entry.kind == "event":
                    event_of(journal.path, entry)
            except JournalError as error:
                stop = str(error).removeprefix(f"{journal.path}: ")
                break
            good.append((entry.kind, entry.payload, entry.at))
        sealed_by = journal.sealed_by
    finally:
        journal.close()
    if not good or good[0][0] != "setup":
        raise JournalError(f"{source}: nothing to salvage (the match set-up itself is damaged)")
    copy = Journal.create(target, good[0][1], now=lambda: good[0][2])
    try:
        if check.foreign:
            copy.append(
                "note",
                {
                    "source": "salvage",
                    "input": str(source),
                    "problem": f"entries 1 to {len(good)} copied from a journal sealed with another tablet's key"
                    f" (key id {sealed_by}); their seals were not checked here: the director chose to copy them",
                    UNCHECKED: sealed_by,
                    "entries": len(good),
                },
            )
        for kind, payload, at in good[1:]:
            copy.append(kind, payload, at=at)
    finally:
        copy.close()
    return len(good), stop


def foreign_message(path: str | Path, sealed_by: str, own: str) -> str:
    """Why a journal sealed with another tablet's key is not salvaged here, in English and Turkish."""
    return (
        f"{path}: sealed with another tablet's key (key id {sealed_by}; this tablet's is {own}): its seals cannot be"
        " checked here, so nothing was copied. Salvage it on the tablet that wrote it (or after restoring that"
        " tablet's key); `--unchecked-from-other-key` copies it anyway, the director's choice noted in the new"
        f" journal. / {path}: başka bir tabletin anahtarıyla mühürlü (anahtar kimliği {sealed_by}; bu tabletinki"
        f" {own}): mühürleri burada denetlenemez, hiçbir kayıt kopyalanmadı. Onu yazan tablette kurtarın (ya da o"
        " tabletin anahtarını geri yükledikten sonra); `--unchecked-from-other-key` yine de kopyalar, hakemin"
        " kararı yeni kayda not edilir."
    )


def unchecked_findings(journal: Journal) -> list[str]:
    """What a salvage copied unchecked from another key's journal, in words (one finding per such note)."""
    found = []
    for seq, kind, _, text, _, _ in journal.rows():
        try:
            payload = parse_payload(journal.path, seq, text) if kind == "note" else {}
        except JournalError:
            continue  # a damaged entry is a finding of its own
        if payload.get(UNCHECKED):
            found.append(
                f"entries 1 to {payload.get('entries')} were copied from a journal sealed with another tablet's"
                f" key (key id {payload[UNCHECKED]}) by the director's choice: this journal does not vouch for them"
            )
    return found
