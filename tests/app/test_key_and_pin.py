"""The tablet's key and the director's PIN against someone holding the tablet's files: another tablet's journal
salvaged, a deleted key, a PIN guessed from the journal file alone, what leaves the tablet."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from app.__main__ import main
from app.net.station import entry_message
from app.record.devicekey import KEY_ENV, MissingKey, device_key, key_id
from app.record.export import journal_json
from app.record.journal import Journal, JournalError
from app.record.session import Session, pin_record
from app.referee import events as ev
from app.referee.pin import LINKS, check_pin, pin_key
from app.sim.world import World
from rules.position import Color
from tests.app.table import make_setup

PIN = "2468"
OLD_RECORD = (
    "scrypt-chain$131072$8$1$256$000102030405060708090a0b0c0d0e0f"
    "$48dee57e307bdca6f3a7f0f28d7f204ef2045f1acc4d2acf1bb1c49b7ed5d60c"
)
"""PIN 2468 in the older record form (no device key), as journals set up with it hold it."""


def played(path: Path, events: int = 30, **setup: object) -> None:
    session = Session.create(path, make_setup(length=1, **setup))
    world = World(2)
    while session.referee.events < events and not session.referee.match.over:
        session.submit(world.next_event(session.referee, session.last_event))
    session.close()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out + captured.err


@pytest.fixture
def forged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A journal made on the forger's own tablet (its own key), naming the forger."""
    path = tmp_path / "forged.sqlite"
    device_key(create=True)  # this tablet's own key, before the forger's is made
    with monkeypatch.context() as forger:
        forger.setenv(KEY_ENV, str(tmp_path / "forger" / "device.key"))
        played(path, players=("Forger", "Victim"))
    return path


def test_a_journal_another_key_sealed_is_never_sealed_again_here(
    forged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "copy.sqlite"
    status, out = run(capsys, "salvage", str(forged), str(copy))
    assert status == 1 and not copy.exists()
    assert "another tablet's key" in out and "nothing was copied" in out and "başka bir tabletin" in out
    status, out = run(capsys, "verify", str(forged))
    assert status == 1 and "sealed with another key" in out

    status, out = run(capsys, "salvage", str(forged), str(copy), "--unchecked-from-other-key")
    assert status == 0 and copy.exists()
    status, out = run(capsys, "verify", str(copy))  # the director's choice stays visible: the copy vouches for nothing
    assert status == 1 and "copied from a journal sealed with another tablet's key" in out
    journal = Journal(copy, readonly=True)
    note = [e for e in journal.entries() if e.kind == "note"][0]
    assert note.seq == 2 and note.payload["unchecked_from"] == Journal(forged, readonly=True).sealed_by
    journal.close()


def test_a_changed_key_record_does_not_hide_a_changed_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite"
    played(path)
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER journal_append_only_update")
    db.execute("UPDATE journal SET at = '2026-01-01T00:00:00.000+00:00' WHERE seq = 2")
    db.execute("UPDATE seal SET key_id = 'ffffffffffffffff'")
    db.commit()
    db.close()
    journal = Journal(path, readonly=True)
    found = journal.findings()
    journal.close()
    assert any("key record was changed" in text for text in found)
    assert "entry 2 was changed after it was written (its seal does not match)" in found
    status, out = run(capsys, "salvage", str(path), str(tmp_path / "saved.sqlite"))
    assert status == 0 and "1 entries kept" in out and "the journal was whole" not in out


def test_a_deleted_key_is_an_error_never_a_new_key_and_its_backup_restores_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    key_file = tmp_path / "config" / "device.key"
    monkeypatch.setenv(KEY_ENV, str(key_file))
    path = tmp_path / "j.sqlite"
    played(path, 10)  # a genuinely first start: no key, no journal, so the key is made
    sealed_by = key_id(device_key())
    backup = tmp_path / "stick" / "tavla.key"
    assert run(capsys, "key", "backup", str(backup))[0] == 0 and backup.exists()

    key_file.unlink()
    with pytest.raises(JournalError, match="key restore") as error:
        Session.open(path)
    assert sealed_by in str(error.value) and "anahtarı kayıp" in str(error.value)
    with pytest.raises(JournalError, match="missing"):
        Session.create(tmp_path / "next.sqlite", make_setup())  # nor is a new match a new key
    with pytest.raises(MissingKey):
        pin_record(PIN)
    assert not key_file.exists()
    status, out = run(capsys, "verify", str(path))
    assert status == 1 and "key restore" in out

    assert run(capsys, "key", "restore", str(backup))[0] == 0
    session = Session.open(path)
    assert session.resumed is not None and session.resumed.events == 10 and session.resumed.mismatches == ()
    session.close()


def test_a_backup_of_another_tablets_key_is_not_restored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.record.devicekey import KeyFileError, backup_key, restore_key

    monkeypatch.setenv(KEY_ENV, str(tmp_path / "other" / "device.key"))
    device_key(create=True)
    backup_key(tmp_path / "other.backup")
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "mine" / "device.key"))
    device_key(create=True)
    (tmp_path / "mine" / "device.key").unlink()
    with pytest.raises(KeyFileError, match="another key"):
        restore_key(tmp_path / "other.backup")
    assert not (tmp_path / "mine" / "device.key").exists()


def test_the_journal_file_alone_cannot_confirm_a_pin_guess(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.sqlite"
    session = Session.create(path, make_setup(pin_hash=pin_record(PIN)))
    session.submit(ev.DiceObserved((3, 1)))
    session.submit(ev.CallDirector(Color.WHITE))
    assert session.director(PIN, "resume").codes == ["resumed"]  # a proof revealed into the file too
    stored = session.setup.pin_hash
    session.close()
    files = b"".join(file.read_bytes() for file in tmp_path.iterdir() if file.is_file())

    # what the file offers to test a guess: its salt and scrypt's cost; no link of the PIN's own chain is in it
    _, n, r, p, _, salt, _ = stored.split("$")
    stretched = hashlib.scrypt(
        PIN.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), maxmem=256 << 20, dklen=32
    )
    link = stretched
    for _ in range(LINKS + 1):
        assert link.hex().encode() not in files
        link = hashlib.sha256(b"tavla-director-link" + link).digest()
    # on a tablet with another key the right PIN and a wrong one are refused alike
    other = hashlib.sha256(b"another tablet").digest()
    assert not check_pin(PIN, stored, other) and not check_pin("1357", stored, other)
    assert pin_key(PIN, stored, device_key()) is not None  # with this tablet's key it is the PIN


def test_an_older_pin_record_still_works_and_the_director_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite"
    session = Session.create(path, make_setup(pin_hash=OLD_RECORD))
    session.submit(ev.DiceObserved((3, 1)))
    assert session.director("1357", "void_dice").codes == ["pin_refused"]
    assert session.director(PIN, "void_dice").codes == ["dice_voided"]
    assert "older form" in session.notice("en") and "eski biçimde" in session.notice("tr")
    session.close()
    status, out = run(capsys, "--lang", "en", "verify", str(path))
    assert status == 0 and "choose a different PIN for the next one" in out
    assert Session.open(path).notice() != ""


def test_neither_the_pin_record_nor_the_key_leaves_the_tablet(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "j.sqlite", make_setup(pin_hash=pin_record(PIN), length=1))
    session.submit(ev.DiceObserved((3, 1)))
    session.submit(ev.CallDirector(Color.WHITE))
    session.director(PIN, "resume")
    secrets = [session.setup.pin_hash.split("$")[-1], session.referee.director_link, session.journal.key.hex()]
    assert all(secrets)
    published = json.dumps([entry_message("7", entry) for entry in session.journal.entries()])
    exported = json.dumps(journal_json(session.journal, session.referee))
    session.close()
    for text in (published, exported):
        assert not any(secret in text for secret in secrets) and "scrypt" not in text
        assert "(left out of exports)" in text


def test_only_a_genuinely_first_start_makes_a_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.record.devicekey import backup_key
    from app.record.library import MatchLibrary

    monkeypatch.delenv(KEY_ENV)
    monkeypatch.delenv("TAVLA_DATA_DIR", raising=False)  # the XDG folders: a station without Kivy's folder
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = MatchLibrary().new_folder()
    (folder / "match.sqlite").write_bytes(b"a match an earlier key sealed")
    with pytest.raises(MissingKey):  # no key and no record of one, but the station's library holds a match
        device_key(create=True)
    (folder / "match.sqlite").unlink()
    made = backup_key(tmp_path / "stick.key")  # nothing at all: the station's first start, its key backed up at once
    key = device_key(create=True)
    assert key_id(key) == made and (tmp_path / "config" / "tavla-referee" / "device.key.id").exists()
