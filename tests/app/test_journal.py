"""The journal: durable, append-only, tamper-evident; resuming replays it exactly; exports."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.record.devicekey import device_key
from app.record.export import ExportError, journal_json, mat_text, result_sheet, write_exports
from app.record.journal import Journal, JournalError
from app.record.session import Session, pin_record
from app.referee import events as ev
from app.referee.pin import check_pin
from app.referee.setup import Mode
from app.sim.world import World
from app.table.live import LiveStation
from rules.mat import read_mat, recordable
from rules.position import Color
from tests.app.table import make_setup

W, B = Color.WHITE, Color.BLACK


def play_out(session: Session, seed: int = 2, stop_after: int | None = None) -> None:
    world = World(seed)
    while not session.referee.match.over and (stop_after is None or session.referee.events < stop_after):
        session.submit(world.next_event(session.referee, session.last_event))


def test_the_journal_is_sqlite_in_wal_mode_with_full_synchronous_writes(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "j.sqlite", {"setup": {}})
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    journal.close()


def test_entries_cannot_be_changed_or_removed(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "j.sqlite", {"setup": {}})
    journal.append("note", {"a": 1})
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        journal._db.execute("UPDATE journal SET payload = '{}'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        journal._db.execute("DELETE FROM journal")
    journal.close()


def test_tampering_is_found_and_located(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    session = Session.create(path, make_setup(length=1))
    play_out(session, stop_after=30)
    session.close()
    db = sqlite3.connect(path)  # someone with the file drops the guard and edits entry 12
    db.execute("DROP TRIGGER journal_append_only_update")
    db.execute("UPDATE journal SET payload = payload || ' ' WHERE seq = 12")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="entry 12 was changed"):
        Session.open(path)


def test_a_removed_entry_breaks_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    session = Session.create(path, make_setup(length=1))
    play_out(session, stop_after=30)
    session.close()
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER journal_append_only_delete")
    db.execute("DELETE FROM journal WHERE seq = 30")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="entry 30 is missing"):
        Session.open(path)


def test_reopening_resumes_exactly_where_play_stopped(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    session = Session.create(path, make_setup(length=3))
    play_out(session, stop_after=250)
    state = session.referee
    session.close()
    resumed = Session.open(path)
    assert resumed.referee == state
    assert resumed.resumed is not None and resumed.resumed.events == 250 and resumed.resumed.mismatches == ()
    play_out(resumed)
    assert resumed.referee.match.over
    uninterrupted = Session.create(tmp_path / "k.sqlite", make_setup(length=3))
    play_out(uninterrupted)
    assert resumed.referee == uninterrupted.referee
    ours = [e.payload for e in resumed.journal.entries()]
    theirs = [e.payload for e in uninterrupted.journal.entries()]
    assert ours == theirs


def test_an_existing_journal_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    Session.create(path, make_setup()).close()
    with pytest.raises(JournalError, match="already holds a match journal"):
        Session.create(path, make_setup())
    with pytest.raises(JournalError, match="different match"):
        Session.open_or_create(path, make_setup(length=7))


def test_a_file_that_is_not_a_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "not.sqlite"
    path.write_bytes(b"this is no database" * 100)
    with pytest.raises(JournalError, match="not a match journal"):
        Session.open(path)


def test_the_director_pin_is_kept_only_as_the_anchor_of_a_chain_from_its_scrypt_key(tmp_path: Path) -> None:
    stored = pin_record("482916")
    key = device_key()
    assert stored.startswith("scrypt-hmac-chain$131072$8$1$") and "482916" not in stored
    assert check_pin("482916", stored, key) and not check_pin("482917", stored, key)
    assert not check_pin("482916", "garbage", key)
    with pytest.raises(ValueError, match="4 to 12 digits"):
        pin_record("12a4")
    path = tmp_path / "j.sqlite"
    session = Session.create(path, make_setup(pin_hash=stored))
    session.submit(ev.DiceObserved((3, 1)))
    assert session.director("000000", "void_dice").codes == ["pin_refused"]
    assert session.referee.dice == (3, 1)
    assert session.director("482916", "void_dice").codes == ["dice_voided"]
    session.close()
    assert all(b"482916" not in file.read_bytes() for file in tmp_path.iterdir())
    overrides = [e.payload["event"] for e in Journal(path).entries() if e.kind == "event"][1:]
    assert [o["kind"] for o in overrides] == ["director_override", "director_override"]
    assert overrides[0]["proof"] == "" and len(overrides[1]["proof"]) == 64


def test_the_demo_pin_record_takes_the_demo_pin_on_this_tablet_and_is_the_same_at_every_start() -> None:
    from app.sim.demo import DEMO_PIN, DEMO_PIN_SALT

    stored = pin_record(DEMO_PIN, DEMO_PIN_SALT)
    assert stored == pin_record(DEMO_PIN, DEMO_PIN_SALT) and check_pin(DEMO_PIN, stored, device_key())


def test_a_passphrase_is_a_pin_and_an_empty_one_cannot_start_a_tournament(tmp_path: Path) -> None:
    stored = pin_record("kırmızı kale 7")
    key = device_key()
    assert check_pin("kırmızı kale 7", stored, key) and not check_pin("kırmızı kale", stored, key)
    for bad in ("", "123", "short", "9" * 13):
        with pytest.raises(ValueError):
            pin_record(bad)
    from app.ui.controller import Controller

    controller = Controller(tmp_path, LiveStation(), language="en")
    try:
        message = controller.start(("A", "B"), "backgammon", 5, Mode.TOURNAMENT, 10, 12, "")
        assert message is not None and "needs a director PIN" in message
        message = controller.start(("A", "B"), "backgammon", 5, Mode.TOURNAMENT, 10, 12, "123")
        assert message is not None and "4 to 12 digits" in message
        controller.language = "tr"  # the Turkish set-up screen says it in Turkish
        message = controller.start(("A", "B"), "backgammon", 5, Mode.TOURNAMENT, 10, 12, "")
        assert message is not None and "hakem PIN'i gerekir" in message
        message = controller.start(("A", "B"), "backgammon", 5, Mode.TOURNAMENT, 10, 12, "12")
        assert message is not None and "4-12 rakam" in message
        assert not (tmp_path / "match.sqlite").exists()  # nothing was started
    finally:
        controller.close()


def test_an_override_written_into_the_journal_without_the_pin_is_refused_on_replay(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    session = Session.create(path, make_setup(pin_hash=pin_record("482916")))
    session.submit(ev.DiceObserved((3, 1)))
    session.submit(ev.CallDirector(W))
    forged = ev.event_to_dict(ev.DirectorOverride("resume", "", "ab" * 32))  # a proof made up, not from the PIN
    session.journal.append(
        "event",
        {
            "event": forged,
            "reaction": {"rulings": [{"code": "resumed", "level": "info", "params": {}}], "commands": []},
        },
    )
    session.close()
    resumed = Session.open(path)
    assert resumed.referee.halted and resumed.resumed is not None and resumed.resumed.mismatches == (4,)
    assert [i.code for i in resumed.referee.irregularities] == ["pin_refused"]
    resumed.close()


def test_wrong_pins_are_journaled_and_after_five_the_tablet_makes_the_next_try_wait(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "j.sqlite", make_setup(pin_hash=pin_record("482916")))
    session.submit(ev.CallDirector(W))
    for attempt in range(1, 6):
        reaction = session.director("1111", "resume")
        assert reaction.codes == ["pin_refused"] and reaction.rulings[0].params["attempts"] == attempt
    locked = session.director("482916", "resume")  # even the right PIN waits: it is not even checked
    assert locked.codes == ["pin_locked"] and locked.rulings[0].params["seconds"] == 30
    assert session.referee.halted and session.referee.pin_failures == 5
    assert [e.kind for e in session.journal.entries()][-1] == "note"
    session._pin_failed_at -= 31  # half a minute later
    assert session.director("482916", "resume").codes == ["resumed"] and session.referee.pin_failures == 0
    session.close()


def test_exports_carry_no_pin_material_and_the_sheet_carries_the_head(tmp_path: Path) -> None:
    stored = pin_record("482916")
    session = Session.create(tmp_path / "j.sqlite", make_setup(pin_hash=stored, length=1))
    session.submit(ev.DiceObserved((3, 1)))
    session.submit(ev.CallDirector(W))
    session.director("482916", "resume")
    written = write_exports(session.referee, session.journal, tmp_path / "out")
    text = written["json"].read_text(encoding="utf-8")
    proof = [e.payload["event"] for e in session.journal.entries() if e.kind == "event"][-1]["proof"]
    assert stored.split("$")[-1] not in text and proof not in text and "scrypt" not in text
    data = json.loads(text)
    assert data["head"] == {"seq": 4, "hash": session.journal.head} and data["redacted"] == [1, 4]
    assert f"4:{session.journal.head}" in written["sheet_txt"].read_text(encoding="utf-8")
    session.close()


def test_refused_input_is_kept_as_a_note_and_not_replayed(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    session = Session.create(path, make_setup())
    session.note("board", "FF 00 13 garbage", "bad checksum")
    session.submit(ev.DiceObserved((3, 1)))
    session.close()
    resumed = Session.open(path)
    assert resumed.referee.dice == (3, 1)
    assert [e.kind for e in resumed.journal.entries()] == ["setup", "note", "event"]


def test_a_standard_match_exports_a_mat_file_that_reads_back(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "j.sqlite", make_setup(length=3))
    play_out(session, seed=4)
    text = mat_text(session.referee)
    assert read_mat(text) == recordable(session.referee.match)
    assert " 3 point match" in text and "Ayşe" in text


def test_a_play_accepted_as_illegal_cannot_go_into_a_mat_file_but_stays_in_the_journal(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "j.sqlite", make_setup(length=3))
    session.submit(ev.DiceObserved((3, 1)))
    session.submit(ev.ClockPressed(B))
    start = session.referee.position
    white = list(start.white)
    white[13] -= 1
    white[8] += 1
    session.submit(ev.BoardSeen(tuple(white), start.black))
    session.submit(ev.ClockPressed(W))
    session.submit(ev.AcceptIllegal(B))
    with pytest.raises(ExportError, match="accepted as made although illegal"):
        mat_text(session.referee)
    data = journal_json(session.journal, session.referee)
    assert [e["payload"]["event"]["kind"] for e in data["entries"][1:]][-1] == "accept_illegal"


def test_other_variants_export_the_journal_and_the_sheet_but_no_mat(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "j.sqlite", make_setup(variant="uzun", length=1))
    play_out(session, seed=1)
    with pytest.raises(ExportError, match="cannot hold uzun"):
        mat_text(session.referee)
    written = write_exports(session.referee, session.journal, tmp_path / "out", language="tr")
    assert set(written) == {"json", "sheet_txt", "sheet_html"}
    data = json.loads(written["json"].read_text(encoding="utf-8"))
    assert data["head"]["hash"] == session.journal.head and len(data["entries"]) == len(session.journal)
    assert data["result"]["winner"] in ("Ayşe", "Mehmet")
    sheet = written["sheet_txt"].read_text(encoding="utf-8")
    assert "Maç sonuç kâğıdı" in sheet and session.journal.head in sheet and "Kazanan" in sheet


def test_the_result_sheet_lists_every_game_and_the_irregularities(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "j.sqlite", make_setup(length=3))
    play_out(session, seed=4)
    referee = session.referee
    sheet = result_sheet(referee, session.journal.head, "en")
    games = [g for g in referee.match.games if g.outcome is not None]
    assert sheet.count("\n") < 70  # one page
    assert f"Winner: {referee.setup.players[referee.match.result.winner]}" in sheet  # type: ignore[union-attr]
    for number in range(1, len(games) + 1):
        assert f"\n{number} " in sheet
    assert "Irregularities: 2" in sheet and "Illegal play by" in sheet
    html = result_sheet(referee, session.journal.head, "tr", as_html=True)
    assert html.startswith("<!DOCTYPE html>") and "<table>" in html and "Hakem" in html
