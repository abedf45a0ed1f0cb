"""Tampering with a finished journal, case by case, and what ``python -m app verify`` finds; PIN guessing cost.

    .venv/bin/python -m tests.app.bench_tamper          # about a minute

Each case starts from a copy of one journal of a whole simulated match (with a director PIN and one
override) and does what someone holding the files, but not the tablet's key, could do. A case is detected
when ``verify`` reports at least one finding (or, for an override written in without the PIN, when the
referee refuses it on replay); another tablet's journal must not be salvaged here. Then the PIN guesses a
second each attacker gets: from the journal file alone, from the file and the tablet's key (scrypt N=2^17
per guess), from an export, and at the tablet itself.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Callable

from app.record.audit import audit, salvage
from app.record.devicekey import device_key
from app.record.export import journal_json
from app.record.journal import Head, Journal, JournalError, head_path
from app.record.session import FREE_TRIES, Session, pin_record
from app.referee import events as ev
from app.referee.pin import LINKS, hash_pin, pin_key
from app.sim.world import World
from rules.position import Color
from tests.app.table import make_setup
from tests.app.test_journal_trust import tamper
from tests.progress import Progress, tracked

PIN = "482916"
ATTACKER_KEY = hashlib.sha256(b"the attacker's own tablet").digest()


SAVED_AT = 500
"""An attacker copies the head file when the journal holds this many entries, and later cuts back to it."""


def build(folder: Path) -> tuple[Path, Head, bytes]:
    """A whole 3-point match, a director called and resumed with the PIN; the journal, its head, and the head
    file as it was at entry ``SAVED_AT``."""
    path = folder / "match.sqlite"
    session = Session.create(path, make_setup(length=3, pin_hash=pin_record(PIN)))
    world = World(3)
    saved = b""
    Progress("a 3-point match to tamper with")
    while not session.referee.match.over:
        if session.referee.events == 40:
            session.submit(ev.CallDirector(Color.WHITE))
            session.director(PIN, "resume")
        session.submit(world.next_event(session.referee, session.last_event))
        if len(session.journal) == SAVED_AT:
            saved = head_path(path).read_bytes()
    head = session.journal.last
    session.close()
    return path, head, saved


def sql(*statements: str) -> Callable[[Path], None]:
    """The statements run on the file with the append-only triggers dropped."""
    return lambda path: tamper(path, *statements)


def rechain(edit: Callable[[int, str], str]) -> Callable[[Path], None]:
    """Edit payloads and recompute a keyless SHA-256 chain, as the old journal allowed."""

    def run(path: Path) -> None:
        db = sqlite3.connect(path)
        rows = db.execute("SELECT seq, kind, at, payload FROM journal ORDER BY seq").fetchall()
        db.close()
        statements, previous = [], "0" * 64
        for seq, kind, at, text in rows:
            text = edit(seq, text)
            material = json.dumps([seq, kind, at, text, previous], ensure_ascii=False, separators=(",", ":"))
            digest = hashlib.sha256(material.encode()).hexdigest()
            statements.append((text, previous, digest, seq))
            previous = digest
        db = sqlite3.connect(path)
        db.execute("DROP TRIGGER IF EXISTS journal_append_only_update")
        db.executemany("UPDATE journal SET payload = ?, prev = ?, hash = ? WHERE seq = ?", statements)
        db.commit()
        db.close()

    return run


def forged_override(path: Path) -> None:
    """With the tablet's key at hand (the app's own process), append an override without the PIN."""
    journal = Journal(path)
    forged = ev.event_to_dict(ev.DirectorOverride("undo_play", "", "cd" * 32))
    journal.append("event", {"event": forged, "reaction": {"rulings": [], "commands": []}})
    journal.close()


def cut_with_saved_head(saved: bytes, keep: int) -> Callable[[Path], None]:
    def run(path: Path) -> None:
        sql(f"DELETE FROM journal WHERE seq > {keep}")(path)
        head_path(path).write_bytes(saved)

    return run


def foreign(folder: Path) -> tuple[str, bool, str]:
    """A match journal made on the attacker's own tablet (its key), salvaged here: refused, nothing copied?"""
    path = folder / "forged.sqlite"
    setup = make_setup(length=1, players=("Forger", "Victim")).to_dict()
    Journal.create(path, {"setup": setup}, key=ATTACKER_KEY).close()
    copy = folder / "laundered.sqlite"
    try:
        salvage(path, copy)
        return "another tablet's journal salvaged here", False, "copied"
    except JournalError as error:
        return "another tablet's journal salvaged here", not copy.exists(), str(error).split(": ", 1)[1]


def main() -> None:
    device_key(create=True)
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        original, head, saved_head = build(folder)
        last = head.seq
        cases: list[tuple[str, Callable[[Path], None], bool]] = [
            ("a payload edited, seals kept", sql("UPDATE journal SET payload = payload || ' ' WHERE seq = 2"), False),
            (
                "payload edited, keyless SHA-256 chain recomputed",
                rechain(lambda seq, text: text.replace('"values":[', '"values":[6,6],"x":[', 1) if seq == 2 else text),
                False,
            ),
            (
                "score changed in a game_over ruling",
                sql("UPDATE journal SET payload = replace(payload, '\"points\":1', '\"points\":3')"),
                False,
            ),
            ("an entry in the middle deleted", sql("DELETE FROM journal WHERE seq = 100"), False),
            (
                "two entries swapped",
                sql(
                    "UPDATE journal SET seq = -1 WHERE seq = 50",
                    "UPDATE journal SET seq = 50 WHERE seq = 51",
                    "UPDATE journal SET seq = 51 WHERE seq = -1",
                ),
                False,
            ),
            (f"tail cut (last 200 entries of {last})", sql(f"DELETE FROM journal WHERE seq > {last - 200}"), False),
            (
                "tail cut and head file deleted",
                lambda p: (sql(f"DELETE FROM journal WHERE seq > {last - 200}")(p), head_path(p).unlink()) and None,
                False,
            ),
            (
                "tail cut, head file deleted, checked against the sheet's head",
                lambda p: (sql(f"DELETE FROM journal WHERE seq > {last - 200}")(p), head_path(p).unlink()) and None,
                True,
            ),
            ("last entry deleted", sql(f"DELETE FROM journal WHERE seq = {last}"), False),
            (
                "an entry duplicated at the end",
                sql(
                    f"INSERT INTO journal SELECT {last + 1}, kind, at, payload, hash, hash"
                    f" FROM journal WHERE seq = {last}"
                ),
                False,
            ),
            (
                "head file edited (entry number raised)",
                lambda p: head_path(p).write_text(
                    head_path(p).read_text().replace(f'"seq": {last}', f'"seq": {last + 5}')
                ),
                False,
            ),
            (
                "director PIN record emptied",
                sql(
                    "UPDATE journal SET payload = replace(payload,"
                    f" substr(payload, instr(payload, 'scrypt-'), {RECORD}), '') WHERE seq = 1"
                ),
                False,
            ),
            (
                "director PIN record replaced by the attacker's",
                sql(
                    "UPDATE journal SET payload = replace(payload,"
                    f" substr(payload, instr(payload, 'scrypt-'), {RECORD}),"
                    f" '{hash_pin('0000', ATTACKER_KEY, bytes(16))}') WHERE seq = 1"
                ),
                False,
            ),
            (
                "match length changed in the set-up",
                sql("UPDATE journal SET payload = replace(payload, '\"length\":3', '\"length\":1') WHERE seq = 1"),
                False,
            ),
            (
                "a time stamp changed",
                sql("UPDATE journal SET at = '2020-01-01T00:00:00.000+00:00' WHERE seq = 10"),
                False,
            ),
            ("an entry's kind changed", sql("UPDATE journal SET kind = 'note' WHERE seq = 20"), False),
            (
                "override flagged authorised in its payload",
                sql('UPDATE journal SET payload = replace(payload, \'"proof":"\', \'"authorised":true,"proof":"\')'),
                False,
            ),
            ("override appended without the PIN (key at hand)", forged_override, False),
            ("seal table's key id changed", sql("UPDATE seal SET key_id = '0000000000000000'"), False),
            (
                "seal table's key id changed and an entry edited",
                sql(
                    "UPDATE seal SET key_id = '0000000000000000'",
                    "UPDATE journal SET payload = payload || ' ' WHERE seq = 2",
                ),
                False,
            ),
            ("payload made unreadable", sql("UPDATE journal SET payload = '{\"event\": [' WHERE seq = 30"), False),
        ]
        cases += [
            (
                f"tail cut to entry {SAVED_AT}, the head file saved then put back",
                cut_with_saved_head(saved_head, SAVED_AT),
                False,
            ),
            ("the same, checked against the sheet's head", cut_with_saved_head(saved_head, SAVED_AT), True),
        ]
        rows: list[tuple[str, bool, str]] = []
        for name, damage, with_sheet in tracked(cases, "tamper and audit"):
            copy = folder / "case.sqlite"
            for suffix in ("", ".head"):
                shutil.copy(original.with_name(original.name + suffix), copy.with_name(copy.name + suffix))
            damage(copy)
            try:
                report = audit(copy, head if with_sheet else None)
                found = list(report.findings)
            except JournalError as error:
                found = [str(error)]
            if name.startswith("override appended"):
                resumed = Session.open(copy)
                refused = resumed.referee.irregularities[-1].code == "pin_refused"
                resumed.close()
                found = found or (["refused on replay: pin_refused"] if refused else [])
            rows.append((name, bool(found), found[0] if found else "-"))
        rows.append(foreign(folder))
        print(f"{'tampering':<62} detected  first finding")
        for name, detected, first in rows:
            print(f"{name:<62} {'yes' if detected else 'NO':<9} {first[:90]}")
        print(f"detected {sum(d for _, d, _ in rows)} of {len(rows)}")
        pin_figures(original)


RECORD = len(hash_pin("0000", ATTACKER_KEY, bytes(16)))
"""The length of a PIN record in the set-up."""


def pin_figures(path: Path) -> None:
    """PIN guesses a second for each attacker: the journal file alone, the file and the key (one core), an
    export, the tablet itself."""
    session = Session.open(path)
    stored = session.setup.pin_hash
    key = session.journal.key
    export = json.dumps(journal_json(session.journal, session.referee))
    session.close()
    files = path.read_bytes() + head_path(path).read_bytes()
    # the file alone: the right PIN stretched with the record's salt and cost, walked along every link, never
    # meets a value the file holds, and without the key every guess, the right one too, is refused alike
    _, n, r, p, _, salt, _ = stored.split("$")
    link = hashlib.scrypt(PIN.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), maxmem=1 << 28)
    met = False
    for _ in range(LINKS + 1):
        met = met or link.hex().encode() in files
        link = hashlib.sha256(b"tavla-director-link" + link).digest()
    confirmed = pin_key(PIN, stored, ATTACKER_KEY) is not None
    print(
        "the journal file alone: the right PIN confirmed by the file's record:"
        f" {'YES' if met or confirmed else 'no'}; guesses per second: none possible (each needs the tablet's key)"
    )
    tries = 5
    began = time.perf_counter()
    for guess in range(tries):
        pin_key(f"{guess:04d}", stored, key)
    rate = tries / (time.perf_counter() - began)
    print(f"the journal file and the tablet's key: {rate:.2f} PIN guesses per second per core (scrypt N=2^17, r=8)")
    print(
        f"  to try every 4-digit PIN: {10_000 / rate / 3600:.1f} core-hours; every 6-digit PIN:"
        f" {1_000_000 / rate / 86400:.1f} core-days"
    )
    anchor = stored.split("$")[-1]
    held = "YES" if anchor in export or "scrypt" in export else "no"
    print(f"an export or the tournament feed: holds the PIN record: {held}; guesses per second: none possible")
    spent, wait, made = 0.0, 0.0, 0
    while spent + wait <= 86400:
        spent += wait
        made += 1
        wait = 0.0 if made < FREE_TRIES else 30.0 * 2 ** min(made - FREE_TRIES, 8)
    print(
        f"at the tablet, typing guesses: {made} in the first 24 hours (after {FREE_TRIES} the waits double from 30 s)"
    )


if __name__ == "__main__":
    main()
