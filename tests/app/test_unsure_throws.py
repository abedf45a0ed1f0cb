"""Unsure throws at the table: vision's doubts make the referee's question, the simulated players answer it,
and the headless demo shows questions and answers, journaled and replayed exactly."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from app.__main__ import main
from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Referee, Stage
from app.referee.setup import Mode
from app.sim.world import World
from app.table.dice import throw_event
from rules.position import Color
from tests.app.table import Table, make_setup
from vision import Calibration, DieReading, ThrowObservation

W, B = Color.WHITE, Color.BLACK
CAL = Calibration.from_corners([(0, 0), (1000, 0), (1000, 800), (0, 800)])  # one pixel per board unit


def die(x: float, value: int, confidence: float = 0.999, y: float = 400) -> DieReading:
    return DieReading(
        value, (int(x) - 15, int(y) - 15, int(x) + 15, int(y) + 15), False, confidence, CAL.zone((x, y), "bottom")
    )


def black_to_throw(mode: Mode = Mode.TOURNAMENT) -> Referee:
    table = Table(mode=mode)
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    return table.referee


def test_a_sure_call_is_observed_and_an_unsure_one_is_questioned_with_its_reading() -> None:
    referee = black_to_throw()  # Black's right-hand half is the picture's left
    sure = ThrowObservation(None, None, (die(200, 4), die(300, 2)))
    event, thrower = throw_event(sure, referee, CAL, (900, 1100, 3))
    assert isinstance(event, ev.DiceObserved) and event.values == (4, 2) and thrower is B
    doubtful = ThrowObservation(None, None, (die(200, 4, confidence=0.9), die(300, 2)))
    event, thrower = throw_event(doubtful, referee, CAL, (900, 1100, 3))
    assert isinstance(event, ev.ThrowQuestioned) and thrower is B
    assert (event.values, event.doubts, event.thrower) == ((4, 2), ("low_confidence",), B)
    casual = black_to_throw(Mode.CASUAL)  # casual trusts a value read at 0.9
    assert isinstance(throw_event(doubtful, casual, CAL, (900, 1100, 3))[0], ev.DiceObserved)


def test_a_die_near_the_bar_is_questioned_only_with_the_board_known() -> None:
    referee = black_to_throw()
    near_bar = ThrowObservation(None, None, (die(300, 4), die(500 - 9 / 0.524 - 5, 6)))
    event, _ = throw_event(near_bar, referee, CAL, (900, 1100, 3))
    assert isinstance(event, ev.ThrowQuestioned) and event.doubts == ("near_bar",)
    assert isinstance(throw_event(near_bar, referee)[0], ev.DiceObserved)


def test_one_die_seen_is_a_rethrow_unless_the_board_changed_where_no_die_was_read() -> None:
    """The other die may lie off the board (thrown again) or on it, missed: only the reading can tell which, by
    what changed on the board; the referee's question then says a die may lie where none was read."""
    referee = black_to_throw()
    one = ThrowObservation(None, None, (die(200, 4),))
    event, _ = throw_event(one, referee, CAL, (900, 1100, 3))
    assert isinstance(event, ev.DiceObserved) and event.void is ev.VoidReason.DICE_COUNT
    missed = ThrowObservation(None, None, (die(200, 4),), unread=((600, 300, 640, 340),))
    event, thrower = throw_event(missed, referee, CAL, (900, 1100, 3))
    assert isinstance(event, ev.ThrowQuestioned) and event.doubts == ("die_unseen",) and thrower is B
    assert event.void is ev.VoidReason.DICE_COUNT


def cocked(x: float, y: float, probability: float = 0.95) -> DieReading:
    """A die showing 3 with this cocked probability: called cocked from 0.5, else read flat (surely)."""
    return DieReading(
        3,
        (int(x) - 15, int(y) - 15, int(x) + 15, int(y) + 15),
        probability >= 0.5,
        probability if probability >= 0.5 else 0.999,
        CAL.zone((x, y), "bottom"),
        probability,
    )


def test_a_die_called_cocked_is_asked_about_and_with_no_checker_near_it_is_said() -> None:
    """Black throws into the picture's left half after White's 3-1 opening (8/5 6/5): its points 2 to 4 from
    the left frame hold no checker on either side of the board, whichever way round the board was set up, and
    the point left of them (Black's 17 or White's 13) five. A die called cocked in the middle of the empty
    points can lean on nothing there: the players are asked, and told so. One beside the five checkers could lean
    on them, but the look's call alone is no evidence a referee would sign: asked too."""
    referee = black_to_throw()
    in_the_open = ThrowObservation(None, None, (cocked(220, 400), die(330, 2, y=200)))
    event, thrower = throw_event(in_the_open, referee, CAL, (900, 1100, 3))
    assert isinstance(event, ev.ThrowQuestioned) and thrower is B
    assert (event.void, event.doubts) == (ev.VoidReason.COCKED, ("leans_on_nothing",))
    beside_checkers = ThrowObservation(None, None, (cocked(78, 378), die(330, 2, y=200)))  # against the fifth checker
    event, _ = throw_event(beside_checkers, referee, CAL, (900, 1100, 3))
    assert isinstance(event, ev.ThrowQuestioned) and event.doubts == ("borderline_cocked",)
    assert isinstance(throw_event(in_the_open, referee)[0], ev.ThrowQuestioned)  # no board known: asked too


def test_a_die_read_flat_in_the_open_counts_unasked_only_on_a_sensing_boards_word() -> None:
    """The same empty points: a die read flat there with a borderline cocked probability (0.3) is asked about
    while only the referee's position says where the checkers lie (a play typed late could leave a checker
    there it does not show); with a sensing board's link up and its board whole, the die cannot be tilted and
    the dice count. With the link down the question comes back."""
    flat = cocked(220, 400, 0.3)
    in_the_open = ThrowObservation(None, None, (flat, die(330, 2, y=200)))
    assert not flat.cocked and flat.value == 3
    referee = black_to_throw()
    event, _ = throw_event(in_the_open, referee, CAL, (900, 1100, 3))
    assert isinstance(event, ev.ThrowQuestioned) and event.doubts == ("borderline_cocked",)
    sensed, _ = referee.handle(ev.LinkChanged("board", True, "sensing board"))
    event, thrower = throw_event(in_the_open, sensed, CAL, (900, 1100, 3))
    assert isinstance(event, ev.DiceObserved) and event.values == (3, 2) and thrower is B
    unplugged, _ = sensed.handle(ev.LinkChanged("board", False, "unplugged"))
    assert isinstance(throw_event(in_the_open, unplugged, CAL, (900, 1100, 3))[0], ev.ThrowQuestioned)


def test_the_opening_throw_questioned_keeps_white_die_first() -> None:
    referee = Referee.start(make_setup())
    split = ThrowObservation(None, None, (die(300, 5, confidence=0.9), die(700, 2)))
    event, thrower = throw_event(split, referee, CAL, (900, 1100, 3))
    assert isinstance(event, ev.ThrowQuestioned) and event.values == (2, 5) and thrower is None


def test_the_simulated_players_answer_by_what_they_threw() -> None:
    world = World(5)
    referee = black_to_throw()
    truth = world.next_event(referee, None)  # what Black throws now
    assert isinstance(truth, ev.DiceObserved)
    asked = Table(referee)
    if truth.values is None:
        asked.send(ev.ThrowQuestioned((6, 6), doubts=("borderline_cocked",), thrower=B))
        assert asked.referee.stage is Stage.QUESTION
        assert world.next_event(asked.referee, None) == ev.RethrowCalled(W)
        return
    high, low = max(truth.values), min(truth.values)
    asked.send(ev.ThrowQuestioned((low, high), doubts=("low_confidence",), thrower=B))
    assert world.next_event(asked.referee, None) == ev.ThrowConfirmed(W)  # the same dice, in any order
    wrong = Table(referee)
    misread = (high % 6 + 1, low) if (high % 6 + 1, low) != (low, high) else (high, low % 6 + 1)
    wrong.send(ev.ThrowQuestioned(misread, doubts=("low_confidence",), thrower=B))
    assert world.next_event(wrong.referee, None) == ev.ThrowCorrected(W, truth.values)
    wrong.send(ev.ThrowConfirmed(W), ev.RethrowCalled(B))  # they disagree: the director rules what was thrown
    decided = world.next_event(wrong.referee, None)
    assert isinstance(decided, ev.DirectorOverride) and decided.command == "set_dice"
    assert decided.argument == "-".join(map(str, truth.values))


def test_the_demo_asks_about_unsure_throws_and_the_journal_replays_the_answers(tmp_path: Path) -> None:
    journal = tmp_path / "m.sqlite"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--length", "1", "--seed", "1", "--journal", str(journal)]) == 0
    text = out.getvalue()
    assert "The camera is not sure of this throw" in text
    assert "confirms the camera's reading" in text
    session = Session.open(journal)
    try:
        kinds = [event["kind"] for _, _, event, _ in session.history()]
        assert session.referee.match.over
    finally:
        session.close()
    questions = kinds.count("throw_questioned")
    answers = sum(kinds.count(k) for k in ("throw_confirmed", "throw_corrected", "rethrow_called"))
    assert questions >= 1 and answers >= questions  # every question answered (twice in a tournament)
    again = io.StringIO()
    with contextlib.redirect_stdout(again):  # reopened: the journal folds back with every ruling the same
        assert main(["verify", str(journal)]) == 0
