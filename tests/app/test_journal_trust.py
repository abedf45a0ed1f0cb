"""The journal against someone holding the file: rewrites, cut tails, damaged entries, a second app, verify."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

import pytest

from app.__main__ import main
from app.record.devicekey import KEY_ENV, device_key
from app.record.journal import EmptyJournal, JournalError
from app.record.session import Session, pin_record
from app.referee import events as ev
from app.sim.world import World
from tests.app.table import make_setup


def played(path: Path, events: int = 40, **setup: object) -> Session:
    session = Session.create(path, make_setup(length=1, **setup))
    world = World(2)
    while session.referee.events < events and not session.referee.match.over:
        session.submit(world.next_event(session.referee, session.last_event))
    return session


def tamper(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER IF EXISTS journal_append_only_update")
    db.execute("DROP TRIGGER IF EXISTS journal_append_only_delete")
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def verify(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    status = main(["verify", str(path), *extra])
    return status, capsys.readouterr().out


def test_a_rewritten_entry_with_a_recomputed_keyless_chain_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite"
    played(path).close()
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, kind, at, payload FROM journal ORDER BY seq").fetchall()
    db.close()
    statements, previous = [], "0" * 64
    for seq, kind, at, text in rows:  # what the old keyless SHA-256 chain let anyone do
        text = text.replace('"values":[3,1]', '"values":[6,6]') if seq == 2 else text
        material = json.dumps([seq, kind, at, text, previous], ensure_ascii=False, separators=(",", ":"))
        digest = hashlib.sha256(material.encode()).hexdigest()
        statements.append(
            f"UPDATE journal SET payload = '{text}', prev = '{previous}', hash = '{digest}' WHERE seq = {seq}"
        )
        previous = digest
    tamper(path, *statements)
    status, out = verify(path, capsys)
    assert status == 1 and "entry 1 was changed after it was written" in out and "problem(s) found" in out
    with pytest.raises(JournalError, match="entry 1 was changed"):
        Session.open(path)


def test_a_cut_tail_is_found_from_the_head_file_and_from_a_recorded_head(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite"
    session = played(path)
    recorded = str(session.journal.last)
    session.close()
    assert verify(path, capsys)[0] == 0
    tamper(path, "DELETE FROM journal WHERE seq > 30")
    status, out = verify(path, capsys)
    assert status == 1 and "entries 31 to 41 were removed" in out
    with pytest.raises(JournalError, match="entries 31 to 41 were removed"):
        Session.open(path)
    (tmp_path / "j.sqlite.head").unlink()  # the attacker removes the head file too
    status, out = verify(path, capsys)
    assert status == 1 and "head file j.sqlite.head is missing" in out
    status, out = verify(path, capsys, "--head", recorded)  # the head on the result sheet
    assert status == 1 and "entries 31 to 41 were removed: the recorded head is entry 41" in out


def test_an_emptied_pin_record_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite"
    played(path, 5, pin_hash=pin_record("482916")).close()
    tamper(
        path,
        "UPDATE journal SET payload = replace(payload, substr(payload, instr(payload, 'scrypt-chain'), 100),"
        " '') WHERE seq = 1",
    )
    status, out = verify(path, capsys)
    assert status == 1 and "entry 1 was changed" in out


def test_verify_never_writes_to_the_file_it_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    before = other.read_bytes()
    assert main(["verify", str(other)]) == 1
    assert "not a match journal" in capsys.readouterr().err
    assert other.read_bytes() == before  # no table added, not switched to WAL
    db = sqlite3.connect(f"{other.as_uri()}?mode=ro", uri=True)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()
    path = tmp_path / "j.sqlite"
    played(path).close()
    contents = path.read_bytes(), (tmp_path / "j.sqlite.head").read_bytes()
    assert verify(path, capsys)[0] == 0
    assert (path.read_bytes(), (tmp_path / "j.sqlite.head").read_bytes()) == contents


def test_a_set_up_interrupted_before_its_first_commit_leaves_a_journal_that_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    db = sqlite3.connect(path)  # what a kill between creating the file and writing the set-up used to leave
    db.execute("PRAGMA journal_mode=WAL")
    db.close()
    with pytest.raises(EmptyJournal):
        Session.open(path)
    session = Session.open_or_create(path, make_setup())
    assert len(session.journal) == 1 and session.referee.setup == make_setup()
    session.close()
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.close()
    tablet = Session.resume_or_create(path, make_setup(length=7))  # the tablet app starts its match over it
    assert tablet.referee.setup.length == 7
    tablet.close()
    resumed = Session.resume_or_create(path, make_setup())
    assert resumed.referee.setup.length == 7  # a real match is resumed, whatever the screen's set-up
    resumed.close()
    path.unlink()
    path.write_bytes(b"")
    Session.create(path, make_setup()).close()  # an empty file is no journal either
    with pytest.raises(JournalError, match="already holds a match journal"):
        Session.create(path, make_setup())


def test_a_second_app_on_the_same_journal_is_told_the_match_is_open_elsewhere(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    first = played(path, 5)
    with pytest.raises(JournalError, match="open elsewhere"):
        Session.open(path)
    with pytest.raises(JournalError, match="open elsewhere"):
        Session.create(path, make_setup())
    first.close()
    Session.open(path).close()


def test_a_damaged_payload_is_a_journal_error_and_salvage_keeps_what_came_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite"
    session = played(path, 20)
    session.journal.append("event", {"reaction": {}})  # sealed, but holds no event
    session.submit(ev.CallDirector(None))
    session.close()
    with pytest.raises(JournalError, match="entry 22 is damaged: it holds no event"):
        Session.open(path)
    status, out = verify(path, capsys)
    assert status == 1 and "entry 22 is damaged: it holds no event" in out
    assert main(["salvage", str(path), str(tmp_path / "saved.sqlite")]) == 0
    assert "21 entries kept; stopped: entry 22 is damaged" in capsys.readouterr().out
    saved = Session.open(tmp_path / "saved.sqlite")
    assert saved.resumed is not None and saved.resumed.events == 20 and saved.resumed.mismatches == ()
    saved.close()
    tamper(path, "UPDATE journal SET payload = '{\"event\": [' WHERE seq = 5")
    assert "entry 5 is damaged: its payload is not JSON" in verify(path, capsys)[1]


def test_a_journal_sealed_on_another_tablet_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.sqlite"
    played(path, 5).close()
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "other.key"))
    device_key(create=True)
    status, out = verify(path, capsys)
    assert status == 1 and "sealed with another key" in out


def test_the_key_is_owner_only_and_one_readable_by_others_is_refused(tmp_path: Path) -> None:
    key_file = tmp_path / "conf" / "device.key"
    key = device_key(key_file, create=True)
    assert len(key) == 32 and os.stat(key_file).st_mode & 0o777 == 0o600 and device_key(key_file) == key
    os.chmod(key_file, 0o644)
    with pytest.raises(ValueError, match="readable by others"):
        device_key(key_file)
