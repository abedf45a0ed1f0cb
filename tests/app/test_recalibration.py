"""Calibrating the camera again between games: behind the director's PIN, journaled, and the match goes on."""

from __future__ import annotations

from pathlib import Path

from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from app.referee.i18n import render
from rules.position import Color
from tests.app.table import Table
from tests.app.test_engine import STORED, by_director

CORNERS = "101.5,82 1180,90 1170,650 95,640"


def between_games() -> Table:
    """A match whose first game is over (White dropped Black's double): the second game waits to open."""
    table = Table(pin_hash=STORED)
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    table.send(ev.DoubleOffered(Color.BLACK), ev.DoubleDropped(Color.WHITE))
    assert table.referee.stage is Stage.OPENING and table.referee.match.score == (0, 1)
    return table


def test_the_director_calibrates_again_with_the_pin_and_the_match_goes_on() -> None:
    table = between_games()
    before = table.referee.match
    assert table.send(ev.DirectorOverride("calibrate", CORNERS)).codes == ["pin_refused"]
    assert table.referee.calibration is None
    reaction = by_director(table, "calibrate", CORNERS + " markers")
    assert reaction.codes == ["calibrated"]
    assert table.referee.calibration == ((101.5, 82.0), (1180.0, 90.0), (1170.0, 650.0), (95.0, 640.0))
    assert table.referee.match == before and table.referee.stage is Stage.OPENING  # nothing else changed
    assert "opening_won" in table.send(ev.DiceObserved((5, 2))).codes  # the next game opens as always
    english = render(reaction.rulings[0], "en")
    turkish = render(reaction.rulings[0], "tr")
    assert "from the corner markers" in english and "101.5,82" in english and "goes on" in english
    assert "köşe işaretlerinden" in turkish and "Maç sürüyor" in turkish


def test_garbled_corners_are_refused_with_the_reason_and_change_nothing() -> None:
    table = between_games()
    by_director(table, "calibrate", CORNERS)
    kept = table.referee.calibration
    for garbled in ("1,2 3,4 5,6", "a,b 1,2 3,4 5,6", "1,2 3,4 5,6 7,8 9,10", "1,2 3,4 5,6 nan,8", "1,2 3,4 5,6 7"):
        reaction = by_director(table, "calibrate", garbled)
        assert reaction.codes == ["override_refused"] and reaction.rulings[0].params["reason"] == "bad_corners"
        assert "four corners" in render(reaction.rulings[0], "en")
        assert table.referee.calibration == kept


def test_the_new_calibration_is_journaled_and_replays_exactly(tmp_path: Path) -> None:
    table = between_games()
    session = Session.create(tmp_path / "m.sqlite", table.referee.setup)
    for event in table.sent:
        session.submit(event)
    session.director("482916", "calibrate", "1,2 3,4 5,6 7,8")
    session.director("0000", "calibrate", CORNERS)  # a wrong PIN: journaled, refused
    session.director("482916", "calibrate", CORNERS + " taps")
    assert session.referee.calibration == ((101.5, 82.0), (1180.0, 90.0), (1170.0, 650.0), (95.0, 640.0))
    rows = [(event["kind"], event.get("argument"), reaction.codes) for _, _, event, reaction in session.history()]
    assert rows[-3:] == [
        ("director_override", "1,2 3,4 5,6 7,8", ["calibrated"]),
        ("director_override", CORNERS, ["pin_refused"]),
        ("director_override", CORNERS + " taps", ["calibrated"]),
    ]
    session.close()
    reopened = Session.open(tmp_path / "m.sqlite")
    assert reopened.resumed is not None and reopened.resumed.mismatches == ()
    assert reopened.referee == session.referee
    assert reopened.referee.calibration == session.referee.calibration
    reopened.close()
