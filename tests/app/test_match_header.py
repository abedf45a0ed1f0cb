"""What the set-up screen says about the event reaches the result sheet and the match record."""

from __future__ import annotations

import datetime
from pathlib import Path

from app.record.export import mat_text, result_sheet
from app.referee.setup import Mode
from app.table.live import LiveStation
from app.ui.controller import Controller


def test_event_round_table_and_date_reach_the_sheet_and_the_match_record(tmp_path: Path) -> None:
    controller = Controller(tmp_path, LiveStation(), language="tr")
    try:
        assert (
            controller.start(
                ("Ayşe", "Mehmet"),
                "backgammon",
                3,
                Mode.CASUAL,
                10,
                12,
                "",
                event="Kulüp gecesi",
                round_name="2",
                table="12",
            )
            is None
        )
        session = controller.session
        assert session is not None
        setup = session.setup
        assert (setup.event, setup.round, setup.table, setup.date) == (
            "Kulüp gecesi",
            "2",
            "12",
            datetime.date.today().isoformat(),
        )
        record = mat_text(session.referee)
        assert '[Event "Kulüp gecesi"]' in record and '[Round "2"]' in record and '[Site "table 12"]' in record
        sheet = result_sheet(session.referee, str(session.journal.last), "tr", as_html=False)
        assert "Masa" in sheet and "12" in sheet and "Kulüp gecesi 2" in sheet
    finally:
        controller.close()
