"""The referee: events in, rulings and clock commands out; pure and deterministic.

The referee is an immutable value. ``referee.handle(event)`` returns the next
referee and a :class:`app.referee.rulings.Reaction`; nothing else changes and nothing
reads the time, so the journal (:mod:`app.record.journal`) can write the event and
its rulings before they take effect, and a restart folds the journal back
into exactly the same referee.

The turn cycle follows docs/design.md and docs/rules.md sections 2 and 5 for every
variant in :mod:`rules.registry`; the referee only asks the rules core what
is legal and never knows a variant by name. A play is judged by its result:
when the player presses the clock, the sensing board's last snapshot must be
one of the legal resulting positions of the roll (``rules.judge``); without
a sensing board the play is entered on the tablet. An illegal or unfinished
play is flagged with the rule broken; under the "legal moves" policy the
opponent then accepts it as played or has it corrected.

A chouette (docs/rules.md section 2) runs through the same cycle: ``rules.chouette``
holds its game, a cube per team member and the ledger; the box plays White,
the team's acting captain Black, member cube actions arrive as
:class:`app.referee.events.MemberCube` touches, and each game's end settles every
member with the box and turns the line.

The handlers are plain functions by concern in :mod:`app.referee.handlers` (throws,
plays, clock, cube, director, questions, result, chouette); :func:`_dispatch` hands
each event type to its handler with one ``match``, so mypy proves that every kind is
handled, and a reader follows ``Referee.handle`` to the very function that acts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import assert_never

from app.referee import events as ev
from app.referee.handlers import camera, chouette, clock, cube, director, plays, questions, result, throws
from app.referee.handling import Step
from app.referee.rulings import Reaction
from app.referee.setup import MatchSetup
from app.referee.state import (
    Aids,
    DeviceFault,
    FlaggedPlay,
    Irregularity,
    LastPlay,
    Question,
    RefereeState,
    Stage,
    Tally,
    game_of,
    offers,
)

__all__ = [
    "Aids",
    "DeviceFault",
    "FlaggedPlay",
    "Irregularity",
    "LastPlay",
    "Question",
    "Referee",
    "Stage",
    "Tally",
    "game_of",
    "offers",
]


@dataclass(frozen=True)
class Referee(RefereeState):
    """The referee: its state (:class:`app.referee.state.RefereeState`) and the fold of events; see the module
    docstring."""

    @classmethod
    def start(cls, setup: MatchSetup) -> "Referee":
        match = setup.new_match()
        chouette = setup.new_chouette() if setup.is_chouette else None
        tally: Tally = match if chouette is None else chouette
        return cls(setup, match, setup.mode, setup.policy, game_boards=(game_of(tally).position,), chouette=chouette)

    # -------------------------------------------------------------- handling

    def handle(self, event: ev.Event) -> tuple["Referee", Reaction]:
        """The referee after ``event`` and what it announces and commands."""
        if not ev.is_input(event):
            raise ValueError(f"the referee does not know events of kind {event.kind!r}")
        step = Step(replace(self, events=self.events + 1))
        _dispatch(step, event)
        after = step.state
        assert isinstance(after, Referee)  # the handlers replace fields; ``replace`` keeps the class
        return after, Reaction(tuple(step.rulings), tuple(step.commands))

    def fold(self, events: list[ev.Event]) -> "Referee":
        referee = self
        for event in events:
            referee, _ = referee.handle(event)
        return referee


def _dispatch(step: Step, event: ev.InputEvent) -> None:
    """Hand ``event`` to its handler; mypy proves every kind of event has one (``assert_never``)."""
    match event:
        case ev.DiceObserved():
            throws.on_dice_observed(step, event)
        case ev.ManualDice():
            throws.on_manual_dice(step, event)
        case ev.DoubleNamed():
            throws.on_name_double(step, event)
        case ev.BoardSeen():
            plays.on_board_snapshot(step, event)
        case ev.CheckersSeen():
            camera.on_checkers_seen(step, event)
        case ev.LiftSeen():
            plays.on_checker_lifted(step, event)
        case ev.PlaceSeen():
            plays.on_checker_placed(step, event)
        case ev.ManualPlay():
            plays.on_manual_play(step, event)
        case ev.AcceptIllegal():
            plays.on_accept_illegal(step, event)
        case ev.CorrectIllegal():
            plays.on_correct_illegal(step, event)
        case ev.DoubleOffered():
            cube.on_double(step, event)
        case ev.DoubleTaken():
            cube.on_take(step, event)
        case ev.DoubleDropped():
            cube.on_drop(step, event)
        case ev.Beavered():
            cube.on_beaver(step, event)
        case ev.Raccooned():
            cube.on_raccoon(step, event)
        case ev.ResignationOffered():
            cube.on_resign(step, event)
        case ev.ResignationAccepted():
            cube.on_accept_resignation(step, event)
        case ev.ResignationRejected():
            cube.on_reject_resignation(step, event)
        case ev.MemberCubeMoved():
            chouette.on_member_cube(step, event)
        case ev.ClockPressed():
            clock.on_clock_pressed(step, event)
        case ev.ClockFlag():
            clock.on_flag_fell(step, event)
        case ev.LinkChanged():
            clock.on_link_status(step, event)
        case ev.LinkNoisy():
            clock.on_link_noise(step, event)
        case ev.CallDirector():
            director.on_call_director(step, event)
        case ev.DirectorOverride():
            director.on_director_override(step, event)
        case ev.TimeCorrected():
            clock.on_time_corrected(step, event)
        case ev.ThrowQuestioned():
            questions.on_throw_questioned(step, event)
        case ev.ThrowConfirmed():
            questions.on_throw_confirmed(step, event)
        case ev.ThrowCorrected():
            questions.on_throw_corrected(step, event)
        case ev.RethrowCalled():
            questions.on_rethrow_called(step, event)
        case ev.ResultConfirmed():
            result.on_result_confirmed(step, event)
        case _:
            assert_never(event)
