"""The director's match at the tablet, without a window: offered, confirmed by each player, started unchanged.

A match the draw gives this table is shown to its two players; only after both tapped "I am <name>" is a journal
started, with exactly the director's set-up. A later assignment never replaces a match being played: it waits
for that match's confirmed result. One replaced before both confirmed is simply the one offered.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from app.net.messages import DirectorMessage
from app.net.station import Assignment, assignment_of
from app.record.session import Session
from app.referee import events as ev
from app.referee.setup import ClockSettings, MatchSetup, Mode
from app.table.live import LiveStation
from app.ui.assigned_match import assignment_facts, clock_text
from app.ui.controller import Controller
from rules.position import Color

PIN = "2468"


def assigned(match: str, players: tuple[str, str], length: int = 1, round_name: str = "R1") -> Assignment:
    """An assignment as the station makes it of the director's ``match`` message."""
    setup = MatchSetup(
        players=players,
        variant="backgammon",
        length=length,
        clock=ClockSettings.for_match(length),
        event="Kadıköy Kupası",
        round=round_name,
        table="7",
    )
    message = DirectorMessage("match", id=f"id-{match}", setup={"match": match, **setup.to_dict()})
    assignment = assignment_of(message)
    assert assignment is not None
    return assignment


@pytest.fixture
def controller(tmp_path: Path) -> Iterator[Controller]:
    station = Controller(tmp_path, LiveStation(), language="en")
    try:
        yield station
    finally:
        station.close()


def resign_out(controller: Controller) -> None:
    """A 1-point match to its end by hand: the opening throw played, then the next player resigns."""
    session = controller.session
    assert session is not None
    assert controller.send(ev.ManualDice((3, 1))).codes == ["opening_won"]
    assert controller.send(ev.ManualPlay("8/5 6/5")).codes == ["play_ok"]
    controller.send(ev.ResignationOffered(session.referee.mover, 1))
    to_act = session.referee.to_act
    assert to_act is not None
    controller.send(ev.ResignationAccepted(to_act))
    assert session.referee.match.over


def finish(controller: Controller) -> None:
    """Play the match to its end and have both players confirm the result sheet."""
    resign_out(controller)
    controller.send(ev.ResultConfirmed(Color.WHITE))
    controller.send(ev.ResultConfirmed(Color.BLACK))


def test_the_match_starts_only_when_both_players_said_who_they_are_and_exactly_as_assigned(
    controller: Controller,
) -> None:
    controller.assignment_came(assigned("main-1-1", ("Ayşe", "Mehmet"), length=3))
    offered = controller.assignment()
    assert offered is not None and offered.match == "main-1-1"
    assert "PIN" in str(controller.claim(Color.WHITE, ""))  # a tournament match needs the director's PIN
    assert controller.claimed == set() and controller.session is None
    assert controller.claim(Color.WHITE, PIN) is None
    assert controller.claim(Color.WHITE, PIN) is None  # the same player twice starts nothing
    assert controller.session is None and controller.claimed == {Color.WHITE}
    assert controller.claim(Color.BLACK, PIN) is None
    session = controller.session
    assert session is not None and controller.assignment() is None and controller.playing()
    setup = session.setup
    assert setup.players == ("Ayşe", "Mehmet") and setup.length == 3 and setup.variant == "backgammon"
    assert setup.clock == ClockSettings(360, 12) and setup.mode is Mode.TOURNAMENT
    assert (setup.event, setup.round, setup.table) == ("Kadıköy Kupası", "R1", "7")
    header = session.referee.match.header
    assert header.players == ("Ayşe", "Mehmet") and (header.event, header.round) == ("Kadıköy Kupası", "R1")
    first = next(iter(session.journal.entries()))
    assert first.payload["setup"]["players"] == ["Ayşe", "Mehmet"] and first.payload["setup"]["round"] == "R1"
    assert session.director(PIN, "resume").codes != ["pin_wrong"]  # the PIN typed is the match's director PIN


def test_an_assignment_changed_before_both_confirmed_replaces_the_one_offered(controller: Controller) -> None:
    controller.assignment_came(assigned("main-1-1", ("Ayşe", "Mehmet")))
    assert controller.claim(Color.WHITE, PIN) is None
    controller.assignment_came(assigned("main-1-2", ("Deniz", "Ece")))  # the director moved the match
    offered = controller.assignment()
    assert offered is not None and offered.match == "main-1-2" and controller.claimed == set()
    controller.claim(Color.WHITE, PIN)
    controller.claim(Color.BLACK, PIN)
    assert controller.session is not None and controller.session.setup.players == ("Deniz", "Ece")


def test_a_later_assignment_waits_for_the_running_match_and_then_gets_a_journal_of_its_own(
    controller: Controller,
) -> None:
    controller.assignment_came(assigned("main-1-1", ("Ayşe", "Mehmet")))
    controller.claim(Color.WHITE, PIN)
    controller.claim(Color.BLACK, PIN)
    first = controller.session
    assert first is not None
    first_path = first.journal.path
    controller.assignment_came(assigned("main-2-1", ("Ayşe", "Deniz"), round_name="R2"))
    assert controller.session is first and controller.assignment() is None  # never replaces the match played
    assert controller.waiting is not None and controller.waiting.match == "main-2-1"
    resign_out(controller)
    controller.send(ev.ResultConfirmed(Color.WHITE))
    assert controller.assignment() is None  # one confirmation is not the result confirmed
    controller.send(ev.ResultConfirmed(Color.BLACK))
    assert controller.agreed_seq == first.journal.last.seq
    offered = controller.assignment()
    assert offered is not None and offered.match == "main-2-1" and controller.waiting is None
    controller.claim(Color.BLACK, PIN)
    controller.claim(Color.WHITE, PIN)
    second = controller.session
    assert second is not None and second is not first and second.journal.path != first_path
    assert second.setup.players == ("Ayşe", "Deniz") and second.setup.round == "R2"
    finished = Session.open(first_path)  # the first match is kept whole, both confirmations in it
    try:
        assert finished.referee.confirmed == (Color.WHITE, Color.BLACK)
    finally:
        finished.close()


def test_without_a_tournament_link_the_result_is_not_said_to_be_sent(controller: Controller) -> None:
    controller.assignment_came(assigned("main-1-1", ("Ayşe", "Mehmet")))
    controller.claim(Color.WHITE, PIN)
    controller.claim(Color.BLACK, PIN)
    finish(controller)
    assert controller.result_delivery() == ""


def test_the_panel_says_the_time_control_per_point_in_both_languages() -> None:
    assert clock_text(ClockSettings.for_match(5), 5, "en") == "2 min a point (10 min each) + 12 s delay"
    assert clock_text(ClockSettings.for_match(5), 5, "tr") == "Sayı başına 2 dk (oyuncu başına 10 dk) + 12 sn gecikme"
    assert clock_text(ClockSettings(450, 18), 4, "en") == "7.5 min each + 18 s delay"
    assert clock_text(ClockSettings(0, 0), 0, "tr") == "saat yok"
    facts = dict(assignment_facts(assigned("main-1-1", ("Ayşe", "Mehmet"), length=7), "tr"))
    assert facts["Etkinlik"] == "Kadıköy Kupası" and facts["Tur"] == "R1" and facts["Masa"] == "7"
    assert facts["Maç uzunluğu"] == "7 sayı" and facts["Oyun türü"].startswith("Tavla")


def test_with_the_broker_out_of_reach_the_confirmed_result_is_said_to_wait_for_the_link(
    controller: Controller,
) -> None:
    assert controller.link_tournament("127.0.0.1:9", "7") is None  # nothing answers there
    assert controller.listen() is None and controller.publisher is not None
    controller.assignment_came(assigned("main-1-1", ("Ayşe", "Mehmet")))
    controller.claim(Color.WHITE, PIN)
    controller.claim(Color.BLACK, PIN)
    resign_out(controller)
    controller.send(ev.ResultConfirmed(Color.WHITE))
    assert controller.result_delivery() == ""  # one confirmation: no result to send yet
    controller.send(ev.ResultConfirmed(Color.BLACK))
    assert controller.result_delivery() == "waiting"


def test_an_assignment_not_yet_confirmed_is_offered_again_after_a_restart_until_it_is_started(
    tmp_path: Path,
) -> None:
    """The tablet restarts with an assignment offered (one player tapped): the same match is offered again; the
    director sending it again once the board is back online offers it once; started, it is not offered again."""
    first = Controller(tmp_path, LiveStation(), language="en")
    try:
        first.assignment_came(assigned("main-1-1", ("Ayşe", "Mehmet"), length=3))
        assert first.claim(Color.WHITE, PIN) is None
    finally:
        first.close()
    again = Controller(tmp_path, LiveStation(), language="en")
    try:
        offered = again.assignment()
        assert offered == assigned("main-1-1", ("Ayşe", "Mehmet"), length=3) and again.claimed == set()
        assert again.claim(Color.BLACK, PIN) is None
        again.assignment_came(assigned("main-1-1", ("Ayşe", "Mehmet"), length=3))  # sent again: the same id
        assert again.claimed == {Color.BLACK}
        assert again.claim(Color.WHITE, PIN) is None and again.session is not None
        assert again.session.setup.players == ("Ayşe", "Mehmet") and again.session.setup.length == 3
    finally:
        again.close()
    third = Controller(tmp_path / "elsewhere", LiveStation(), language="en")  # a station of its own: nothing kept
    later = Controller(tmp_path, LiveStation(), language="en")
    try:
        assert third.assignment() is None
        assert later.assignment() is None  # started: not offered again
        later.assignment_came(assigned("main-1-1", ("Ayşe", "Mehmet"), length=3))  # the director, before it saw
        assert later.assignment() is None  # the match's journal, sends it again: still not offered
        later.assignment_came(assigned("main-2-1", ("Ayşe", "Deniz"), round_name="R2"))
        offered = later.assignment()
        assert offered is not None and offered.match == "main-2-1"
    finally:
        third.close()
        later.close()


def test_an_unreadable_kept_assignment_starts_the_tablet_with_none(tmp_path: Path) -> None:
    (tmp_path / "assigned_match.json").write_text('{"offered": {"match": "m"', encoding="utf-8")
    controller = Controller(tmp_path, LiveStation(), language="en")
    try:
        assert controller.assignment() is None
        controller.assignment_came(assigned("main-1-1", ("Ayşe", "Mehmet")))
    finally:
        controller.close()
    restarted = Controller(tmp_path, LiveStation(), language="en")
    try:
        offered = restarted.assignment()  # the next assignment is kept whole again
        assert offered is not None and offered.match == "main-1-1"
    finally:
        restarted.close()
