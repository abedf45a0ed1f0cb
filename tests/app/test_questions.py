"""Unsure throws: the camera's question never takes effect by itself; the players or the director answer."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

import pytest

from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from app.referee.i18n import _RULINGS, render, word
from app.referee.rulings import ClockCommand
from app.referee.setup import Mode
from app.table.devices import ClockLink
from device.softclock import SoftwareClock
from device.timecontrol import TimeControl
from rules.position import Color
from tests.app.table import Table
from tests.app.test_engine import STORED, by_director
from vision.sureness import DOUBTS

W, B = Color.WHITE, Color.BLACK


def rolling(mode: Mode = Mode.TOURNAMENT, **setup: Any) -> Table:
    """White to throw after the opening and one play by Black (White's clock running)."""
    table = Table(mode=mode, **setup)
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    assert table.referee.stage is Stage.ROLL and table.referee.mover is B
    return table


def asked(
    values: tuple[int, int] | None = (5, 3), void: ev.VoidReason | None = None, thrower: Color | None = B
) -> ev.ThrowQuestioned:
    return ev.ThrowQuestioned(values, void, ("low_confidence",), (0.93, 0.99), thrower)


def test_an_unsure_throw_waits_and_the_casual_opponent_confirms_it_with_one_tap() -> None:
    table = rolling(Mode.CASUAL)
    before = table.referee.match
    reaction = table.send(asked())
    assert reaction.codes == ["throw_questioned", "clocks_paused_question"]
    assert reaction.rulings[0].params["asked"] == ["white"]
    assert table.referee.stage is Stage.QUESTION and table.referee.match == before and table.referee.dice is None
    assert table.referee.to_act is W
    assert table.send(ev.ThrowConfirmed(B)).codes == ["not_asked"]  # the thrower cannot confirm its own throw
    assert table.send(ev.ThrowConfirmed(W)).codes == ["throw_confirmed", "dice"]
    assert table.referee.stage in (Stage.PLAY,) and table.referee.dice == (5, 3)


def test_tournament_needs_both_players_and_a_correction_takes_effect_when_they_agree() -> None:
    table = rolling()
    table.send(asked())
    assert table.send(ev.ThrowCorrected(W, (5, 2))).codes == ["throw_corrected"]
    assert table.referee.stage is Stage.QUESTION and table.referee.to_act is B
    assert table.send(ev.ThrowCorrected(W, (5, 2))).codes == ["already_answered"]
    assert table.send(ev.ThrowCorrected(B, (2, 5))).codes == ["throw_corrected", "dice"]
    assert table.referee.dice == (5, 2)


def test_a_disagreement_goes_to_the_director_who_needs_the_pin() -> None:
    table = rolling(pin_hash=STORED)
    table.send(asked())
    table.send(ev.ThrowConfirmed(W))
    assert table.send(ev.RethrowCalled(B)).codes == ["rethrow_called", "question_disputed"]
    assert table.send(ev.ThrowConfirmed(B)).codes == ["director_decides"]
    assert table.send(ev.DirectorOverride("set_dice", "6-4")).codes == ["pin_refused"]
    assert table.referee.stage is Stage.QUESTION
    assert by_director(table, "set_dice", "6-4").codes == ["director_dice", "dice"]
    assert table.referee.dice == (6, 4)


def test_a_rethrow_called_or_ruled_changes_nothing_but_the_question() -> None:
    table = rolling(Mode.CASUAL)
    before = table.referee.match
    table.send(asked())
    assert table.send(ev.RethrowCalled(W)).codes == ["rethrow_called", "rethrow", "clock_resumed_question"]
    assert table.referee.stage is Stage.ROLL and table.referee.match == before
    table.send(asked())
    assert by_director(table, "void_dice").codes == ["director_rethrow", "rethrow", "clock_resumed_question"]
    assert table.referee.stage is Stage.ROLL and table.referee.match == before


def test_a_confirmed_void_reading_is_void_and_a_corrected_one_counts() -> None:
    table = rolling(Mode.CASUAL)
    assert table.send(asked(None, ev.VoidReason.COCKED)).codes == ["void_questioned", "clocks_paused_question"]
    confirmed = table.send(ev.ThrowConfirmed(W))
    assert confirmed.codes == ["throw_confirmed", "void_throw", "clock_resumed_question"]
    assert table.referee.stage is Stage.ROLL
    table.send(asked(None, ev.VoidReason.COCKED))
    assert table.send(ev.ThrowCorrected(W, (4, 4))).codes == ["throw_corrected", "dice"]
    assert table.referee.dice == (4, 4)


def test_while_a_throw_waits_nothing_else_takes_effect() -> None:
    table = rolling(Mode.CASUAL)
    table.send(asked())
    assert table.send(ev.DiceObserved((6, 6))).codes == ["answer_question_first"]
    assert table.send(ev.DoubleOffered(B)).codes == ["answer_question_first"]
    pressed = table.press(B)
    # the clock started by the press stops again: both stand still while the question waits
    assert pressed.codes == ["answer_question_first"] and pressed.commands == (ClockCommand(None),)
    assert table.referee.stage is Stage.QUESTION and table.referee.dice is None
    assert table.send(ev.ThrowConfirmed(W)).codes == ["throw_confirmed", "dice"]
    assert table.send(ev.ThrowConfirmed(W)).codes == ["no_question"]


def test_the_opening_throw_is_asked_of_both_players_in_order_white_then_black() -> None:
    table = Table(mode=Mode.CASUAL)
    table.board(table.referee.position)
    assert table.send(asked((2, 6), thrower=None)).rulings[0].params["asked"] == ["white", "black"]
    table.send(ev.ThrowConfirmed(B))
    assert table.send(ev.ThrowCorrected(W, (6, 2))).codes == ["throw_corrected", "question_disputed"]
    # no PIN in this set-up: anyone at the table acts as director
    assert table.send(ev.DirectorOverride("set_dice", "6-2")).codes == ["director_dice", "opening_won"]
    assert table.referee.mover is W and table.referee.dice == (6, 2)


def test_a_questioned_throw_that_would_not_count_is_ruled_as_read() -> None:
    table = rolling(Mode.CASUAL)
    out_of_turn = table.send(asked(thrower=W))
    assert out_of_turn.codes == ["out_of_turn_throw"] and table.referee.question is None


def test_the_journal_records_the_reading_the_question_and_who_answered_and_replays_it(tmp_path: Path) -> None:
    events = [asked(), ev.ThrowCorrected(W, (5, 2))]
    data = [ev.event_to_dict(e) for e in events]
    assert data[0]["doubts"] == ["low_confidence"] and data[0]["values"] == [5, 3]
    assert data[1] == {"kind": "throw_corrected", "by": "white", "values": [5, 2], "struck": []}
    assert [ev.event_from_dict(d) for d in data] == events
    table = rolling(Mode.CASUAL)
    session = Session.create(tmp_path / "m.sqlite", table.referee.setup)
    for event in table.sent + events:
        session.submit(event)
    assert session.referee.dice == (5, 2)
    kinds = [event["kind"] for _, _, event, _ in session.history()]
    assert kinds[-2:] == ["throw_questioned", "throw_corrected"]
    session.close()
    reopened = Session.open(tmp_path / "m.sqlite")
    assert reopened.referee == session.referee and reopened.referee.dice == (5, 2)
    reopened.close()


def test_every_new_ruling_reads_in_turkish_and_english() -> None:
    table = rolling(Mode.CASUAL)
    rulings = list(table.send(asked()).rulings) + list(table.send(ev.ThrowConfirmed(W)).rulings)
    english = render(rulings[0], "en", ("Ayşe", "Mehmet"))
    assert "a value is hard to read" in english and "5-3" in english and "Ayşe" in english
    turkish = render(rulings[0], "tr", ("Ayşe", "Mehmet"))
    assert "bir zar zor okunuyor" in turkish and "Ayşe" in turkish
    codes = (
        "throw_questioned",
        "void_questioned",
        "throw_confirmed",
        "throw_corrected",
        "rethrow_called",
        "question_disputed",
        "rethrow",
        "director_rethrow",
        "director_dice",
        "no_question",
        "director_decides",
        "not_asked",
        "already_answered",
        "answer_question_first",
        "clocks_paused_question",
        "clock_resumed_question",
    )
    for code in codes:
        assert code in _RULINGS["en"] and code in _RULINGS["tr"] and _RULINGS["en"][code] != _RULINGS["tr"][code]


def test_every_doubt_the_camera_can_raise_is_said_in_turkish_and_english() -> None:
    for doubt in DOUBTS:
        english, turkish = word(doubt, "en"), word(doubt, "tr")
        assert doubt not in (english, turkish) and english != turkish, doubt


def test_a_questioned_throw_must_name_its_doubts() -> None:
    with pytest.raises(ValueError, match="names its doubts"):
        ev.ThrowQuestioned((5, 3), doubts=())
    with pytest.raises(ValueError, match="two dice"):
        ev.ThrowCorrected(W, (5,))  # type: ignore[arg-type]


def test_both_clocks_stand_still_while_a_question_waits_and_the_thrower_s_clock_runs_again() -> None:
    table = rolling()
    assert table.referee.clock is B
    reaction = table.send(asked())
    assert reaction.commands == (ClockCommand(None),) and table.referee.clock is None
    assert reaction.rulings[-1].params["player"] == "black" and table.referee.question is not None
    assert table.referee.question.clock is B
    assert table.send(ev.ThrowConfirmed(W)).commands == ()  # one answer of two: the clocks still stand
    settled = table.send(ev.ThrowConfirmed(B))
    assert settled.codes == ["throw_confirmed", "dice"] and settled.commands == (ClockCommand(B),)
    assert table.referee.clock is B and table.referee.stage is Stage.PLAY


@pytest.mark.parametrize("how", ["rethrow", "director_rethrow", "director_dice"])
def test_a_rethrow_or_the_director_s_decision_gives_the_thrower_its_clock_back(how: str) -> None:
    table = rolling(pin_hash=STORED)
    table.send(asked())
    if how == "rethrow":
        table.send(ev.RethrowCalled(W))
        settled = table.send(ev.RethrowCalled(B))
    else:
        table.send(ev.ThrowConfirmed(W), ev.RethrowCalled(B))  # disputed: the clocks stay still for the director
        assert table.referee.clock is None
        settled = by_director(table, "void_dice" if how == "director_rethrow" else "set_dice", "6-4")
    assert settled.commands == (ClockCommand(B),) and table.referee.clock is B


def test_the_director_called_while_a_question_waits_resumes_play_with_the_clocks_still() -> None:
    table = rolling(Mode.CASUAL)
    table.send(asked())
    assert table.send(ev.CallDirector(W)).commands == (ClockCommand(None),)
    resumed = by_director(Table(table.referee), "resume")
    assert resumed.codes == ["resumed"] and resumed.commands == ()  # the question still waits: no clock runs


def test_a_flag_that_fell_just_before_the_question_stopped_the_clock_still_counts() -> None:
    table = rolling()
    table.send(asked())
    fell = table.send(ev.ClockFlag(B))
    assert "flag_fell" in fell.codes and table.referee.stage is Stage.OVER
    table = rolling()
    table.send(asked())
    assert table.send(ev.ClockFlag(W)).codes == ["clock_fault"]  # White's clock never ran: the clock misreports


def test_a_journal_resumed_while_a_question_waits_keeps_both_clocks_still(tmp_path: Path) -> None:
    table = rolling()
    session = Session.create(tmp_path / "m.sqlite", table.referee.setup)
    for event in table.sent + [asked(), ev.ThrowConfirmed(W)]:
        session.submit(event)
    session.close()
    reopened = Session.open(tmp_path / "m.sqlite")
    assert reopened.resumed is not None and not reopened.resumed.mismatches
    assert reopened.referee == session.referee
    assert reopened.referee.clock is None and reopened.referee.clock_started
    assert reopened.submit(ev.ThrowConfirmed(B)).commands == (ClockCommand(B),)
    reopened.close()


def test_a_chouette_s_question_stops_both_clocks_and_gives_the_team_its_clock_back() -> None:
    table = Table(chouette=("Box", "Cap", "Deniz", "Ece"), length=0)
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    assert table.referee.clock is B
    paused = table.send(asked())
    assert paused.commands == (ClockCommand(None),)
    assert render(paused.rulings[-1], "en", table.referee.setup.players) == (
        "Clocks paused while the throw is confirmed (Cap's clock waits)."
    )
    table.send(ev.RethrowCalled(W))
    assert table.send(ev.RethrowCalled(B)).commands == (ClockCommand(B),)


def test_the_thrower_s_reserve_does_not_drop_on_the_software_clock_while_the_question_waits() -> None:
    now = [0.0]
    clock = SoftwareClock(queue.Queue(), time_source=lambda: now[0])
    clock.set_time_control(TimeControl(600_000, 12_000))
    link = ClockLink(clock)
    table = rolling()
    for reaction in table.reactions:
        for command in reaction.commands:
            link.apply(command)
    now[0] += 20  # Black's delay and 8 s of reserve before the throw
    assert clock.times().black_ms == 592_000

    def send(event: ev.Event) -> None:
        for command in table.send(event).commands:
            link.apply(command)

    send(asked())
    now[0] += 300  # five minutes for the players to look at the dice and answer
    send(ev.ThrowConfirmed(W))
    now[0] += 300
    assert clock.times().black_ms == 592_000 and clock.times().white_ms == 600_000
    send(ev.ThrowConfirmed(B))
    now[0] += 20  # the thrower's clock runs again, its delay first
    assert clock.times().black_ms == 584_000 and clock.times().running is not None


def test_the_director_called_to_a_question_decides_it_and_the_clocks_wait_for_play_to_resume() -> None:
    table = rolling(Mode.CASUAL)
    table.send(asked())
    table.send(ev.CallDirector(W))
    decided = table.send(ev.DirectorOverride("set_dice", "6-4"))
    assert decided.codes == ["director_dice", "dice"] and decided.commands == ()
    assert (table.referee.stage, table.referee.dice, table.referee.clock) == (Stage.HALTED, (6, 4), None)
    resumed = table.send(ev.DirectorOverride("resume", ""))
    assert resumed.commands == (ClockCommand(B),) and table.referee.stage is Stage.PLAY
