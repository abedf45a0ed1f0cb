"""Unsure throws: the camera's question, and the players' (or the director's) answers to it.

A throw the camera is not sure of never takes effect by itself (docs/rules.md section 5). In casual mode the
thrower's opponent answers with one tap; in tournament mode, and for the opening throw (one die each), both
players answer, and when they disagree the director decides (the "set_dice" or "void_dice" override). The
answer agreed then takes effect as if the throw had been read so: the confirmed reading, the corrected dice,
or both dice thrown again.

A referee's question is not the thrower's time: both clocks stand still while it waits, and the clock that ran
before runs again once it is settled (started anew with its delay, as when the director resumes play).
"""

from __future__ import annotations

from dataclasses import replace

from app.referee import events as ev
from app.referee.handlers import throws
from app.referee.handling import Step
from app.referee.rulings import Level
from app.referee.setup import Mode
from app.referee.state import Question, Stage
from rules.position import Color


def on_throw_questioned(step: Step, event: ev.ThrowQuestioned) -> None:
    state = step.state
    stage = state.stage
    void = event.void.value if event.void is not None else None
    out_of_turn = stage is Stage.ROLL and event.thrower is not None and event.thrower is not state.mover
    if stage not in (Stage.OPENING, Stage.ROLL) or out_of_turn:
        throws.throw(step, event.values, event.void, event.thrower)  # it would not take effect: no question to ask
        return
    opening = stage is Stage.OPENING
    thrower = None if opening else (event.thrower or state.mover)
    both = (Color.WHITE, Color.BLACK)
    asked = both if thrower is None or state.mode is Mode.TOURNAMENT else (thrower.other,)
    running = state.clock  # the clock the question stops, to run again once it is settled
    question = Question(event.values, void, thrower, event.doubts, asked, opening=opening, at=state.events)
    step.set(question=replace(question, clock=running))
    reading = {"dice": list(event.values)} if event.values is not None else {"reason": void}
    step.say(
        "throw_questioned" if event.values is not None else "void_questioned",
        Level.WARNING,
        doubts=list(event.doubts),
        asked=list(asked),
        **reading,
    )
    if running is not None:
        step.run_clock(None)
        step.say("clocks_paused_question", Level.INFO, player=running)


def on_throw_confirmed(step: Step, event: ev.ThrowConfirmed) -> None:
    answer(step, event.by, "confirm", None)


def on_throw_corrected(step: Step, event: ev.ThrowCorrected) -> None:
    answer(step, event.by, "correct", event.values)


def on_rethrow_called(step: Step, event: ev.RethrowCalled) -> None:
    answer(step, event.by, "rethrow", None)


def answer(step: Step, by: Color, how: str, values: tuple[int, int] | None) -> None:
    question = step.state.question
    if question is None:
        step.say("no_question", Level.WARNING, player=by)
        return
    if question.disputed:
        step.say("director_decides", Level.WARNING, player=by)
        return
    if by not in question.asked:
        step.say("not_asked", Level.WARNING, player=by, asked=list(question.asked))
        return
    if any(given[0] is by for given in question.answers):
        step.say("already_answered", Level.WARNING, player=by)
        return
    answers = question.answers + ((by, how, values),)
    code = {"confirm": "throw_confirmed", "correct": "throw_corrected", "rethrow": "rethrow_called"}[how]
    step.say(code, Level.INFO, player=by, **({"dice": list(values)} if values is not None else {}))
    if len(answers) < len(question.asked):
        step.set(question=replace(question, answers=answers))
        return
    outcomes = {outcome(question, how, values) for _, how, values in answers}
    if len(outcomes) > 1:
        step.set(question=replace(question, answers=answers, disputed=True))
        step.say("question_disputed", Level.WARNING)
        return
    settle(step, question, outcomes.pop(), all(how == "confirm" for _, how, _ in answers))


def outcome(question: Question, how: str, values: tuple[int, int] | None) -> tuple[int, int] | None:
    """What an answer makes of the throw: the dice that count (None: thrown again); the order of two dice
    matters only in the opening throw (White's die, Black's die)."""
    dice = question.values if how == "confirm" else values if how == "correct" else None
    if dice is None or question.opening:
        return dice
    if question.values is not None and sorted(question.values) == sorted(dice):
        return question.values
    return (max(dice), min(dice))


def settle(step: Step, question: Question, dice: tuple[int, int] | None, confirmed: bool) -> None:
    """The answer agreed takes effect, as if the camera had read the throw so; the clock the question stopped
    runs again (a roll that counts starts the mover's clock itself). The director called to the table decides
    while play is halted: the throw counts, and the clocks wait for the director to resume play."""
    before = step.state
    commands = len(step.commands)
    step.set(question=None, halted=False)
    if dice is not None:
        throws.throw(step, dice, None, question.thrower)
    elif confirmed and question.void is not None:
        throws.throw(step, None, ev.VoidReason(question.void), question.thrower)
    else:
        step.say("rethrow", Level.WARNING)
    if before.halted:
        del step.commands[commands:]
        step.set(halted=True, clock=None, clock_started=before.clock_started)
        return
    state = step.state
    if question.clock is not None and state.clock is None and state.stage is not Stage.OVER:
        step.run_clock(question.clock)
        step.say("clock_resumed_question", Level.INFO, player=question.clock)


def decide_question(step: Step, command: str, dice: tuple[int, int] | None) -> None:
    """The director decides a question: ``set_dice`` the dice that count, ``void_dice`` a rethrow."""
    question = step.state.question
    assert question is not None
    if command == "void_dice":
        step.say("director_rethrow", Level.INFO)
        settle(step, question, None, False)
        return
    assert dice is not None
    step.say("director_dice", Level.INFO, dice=list(dice))
    settle(step, question, dice, False)
