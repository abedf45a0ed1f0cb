"""The result both players confirm: a tap each at the end of the match, journaled, replayed, exported."""

from __future__ import annotations

import json
from pathlib import Path

from app.record.export import result_sheet, write_exports
from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from rules.position import Color
from tests.app.table import Table, make_setup
from tests.app.test_journal import play_out

W, B = Color.WHITE, Color.BLACK


def test_the_result_cannot_be_confirmed_before_the_match_is_over() -> None:
    table = Table()
    assert table.send(ev.ResultConfirmed(W)).codes == ["result_not_final"]
    assert table.referee.confirmed == ()


def test_each_player_confirms_once_and_both_make_the_result_agreed(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "j.sqlite", make_setup(length=1))
    play_out(session, seed=1)
    assert session.referee.stage is Stage.OVER
    assert session.submit(ev.ResultConfirmed(B)).codes == ["result_confirmed"]
    assert session.submit(ev.ResultConfirmed(B)).codes == ["result_already_confirmed"]
    assert session.referee.confirmed == (B,)
    assert session.submit(ev.ResultConfirmed(W)).codes == ["result_confirmed", "result_agreed"]
    assert session.referee.confirmed == (B, W)


def test_the_journal_replays_the_confirmations_exactly(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    session = Session.create(path, make_setup(length=1))
    play_out(session, seed=1)
    session.submit(ev.ResultConfirmed(W))
    before = session.referee
    session.close()
    resumed = Session.open(path)
    assert resumed.referee == before and resumed.referee.confirmed == (W,)
    resumed.submit(ev.ResultConfirmed(B))
    final = resumed.referee
    resumed.close()
    again = Session.open(path)
    assert again.referee == final and again.referee.confirmed == (W, B)
    kinds = [e.payload["event"]["kind"] for e in again.journal.entries() if "event" in e.payload]
    assert kinds[-2:] == ["result_confirmed", "result_confirmed"]
    again.close()


def test_the_exports_say_whether_both_players_confirmed(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "j.sqlite", make_setup(length=1))
    play_out(session, seed=1)
    white, black = session.referee.setup.players
    sheet = result_sheet(session.referee, session.journal.head, "en")
    assert "Result confirmed by: not confirmed on the tablet" in sheet
    session.submit(ev.ResultConfirmed(W))
    assert f"Result confirmed by: {white} (the other player has not confirmed)" in result_sheet(
        session.referee, session.journal.head, "en"
    )
    session.submit(ev.ResultConfirmed(B))
    written = write_exports(session.referee, session.journal, tmp_path / "out", language="tr")
    data = json.loads(written["json"].read_text(encoding="utf-8"))
    assert data["result"]["confirmed_by"] == [white, black] and data["result"]["confirmed_by_both"] is True
    assert f"Sonucu onaylayan: iki oyuncu da: {white}, {black}" in written["sheet_txt"].read_text(encoding="utf-8")
