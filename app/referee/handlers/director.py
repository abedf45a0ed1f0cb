"""The director: called to the table (both clocks stop), and the overrides a right PIN allows."""

from __future__ import annotations

import math
from dataclasses import replace

from app.referee import events as ev
from app.referee.handlers import questions, throws
from app.referee.handling import Step
from app.referee.pin import anchor_of, proves
from app.referee.rulings import Level
from app.referee.setup import Mode, Policy
from app.referee.state import Stage, game_of
from rules.game import Phase
from rules.position import Color


def on_call_director(step: Step, event: ev.CallDirector) -> None:
    if step.state.match.over:
        return
    step.set(halted=True)
    step.run_clock(None)
    step.say("director_called", Level.WARNING, player=event.by)


def on_director_override(step: Step, event: ev.DirectorOverride) -> None:
    state = step.state
    pin = state.setup.pin_hash
    if pin:  # no PIN set means anyone at the table acts as director (the set-up screen refuses it in tournaments)
        if not proves(event.proof, state.director_link or anchor_of(pin)):
            step.set(pin_failures=state.pin_failures + 1)
            step.irregular("pin_refused", None, command=event.command, attempts=state.pin_failures + 1)
            step.rulings[-1] = replace(step.rulings[-1], level=Level.ERROR)
            return
        step.set(director_link=event.proof, director_overrides=state.director_overrides + 1, pin_failures=0)
    command, argument = event.command, event.argument.strip()
    if command == "resume":
        if not state.halted:
            step.say("override_refused", Level.WARNING, command=command, reason="not_halted")
            return
        step.set(halted=False)
        step.say("resumed", Level.INFO)
        waiting = step.state.stage in (Stage.OPENING, Stage.QUESTION)  # a question keeps both clocks still
        if state.clock_started and step.state.to_act is not None and not waiting:
            step.run_clock(step.state.to_act)
    elif command in ("void_dice", "set_dice"):
        override_dice(step, command, argument)
    elif command == "set_time":
        correct_time(step, argument)
    elif command == "calibrate":
        recalibrate(step, argument)
    elif command == "undo_play":
        if not state.undo:
            step.say("override_refused", Level.WARNING, command=command, reason="nothing_to_undo")
            return
        tally, boards, before_dice = state.undo[-1]
        step.adopt(
            tally,
            game_boards=boards,
            undo=state.undo[:-1],
            flagged=None,
            last_play=None,
            turn_boards=(game_of(tally).position,),
            in_hand=0,
            before_dice=before_dice,
        )
        step.say("play_undone", Level.INFO, player=step.state.mover)
        if state.clock_started and not state.halted:
            step.run_clock(step.state.mover)
    elif command in ("policy", "mode"):
        choices = Policy if command == "policy" else Mode
        try:
            choice = choices(argument)
        except ValueError:
            step.say("override_refused", Level.WARNING, command=command, reason=f"unknown_{command}")
            return
        step.set(**{command: choice})
        step.say(f"{command}_set", Level.INFO, **{command: choice.value})


def recalibrate(step: Step, argument: str) -> None:
    """The director marked the board's corners on the camera's picture again ("x,y x,y x,y x,y taps", or
    "... markers" when the printed corner markers were found): the match goes on, read on the new board."""
    words = argument.split()
    how = words.pop() if words and words[-1] in CALIBRATED_BY else "taps"
    try:
        corners = tuple(_point(word) for word in words)
        if len(corners) != 4:
            raise ValueError("four corners")
    except ValueError:
        step.say("override_refused", Level.WARNING, command="calibrate", reason="bad_corners")
        return
    step.set(calibration=corners)
    step.say("calibrated", Level.INFO, how=how, corners=" ".join(f"{x:g},{y:g}" for x, y in corners))


def correct_time(step: Step, argument: str) -> None:
    """The director at the tablet corrects one side's remaining time ("white 540000")."""
    try:
        name, milliseconds = argument.split()
        color, remaining = Color.parse(name), int(milliseconds)
        if not 0 <= remaining <= 24 * 3600 * 1000:
            raise ValueError("time out of range")
    except ValueError:
        step.say("override_refused", Level.WARNING, command="set_time", reason="bad_time")
        return
    step.set_remaining(color, remaining)


def override_dice(step: Step, command: str, argument: str) -> None:
    """The director voids or corrects the dice of a play not yet made (a misread, a cocked die missed)."""
    state = step.state
    before = state.before_dice
    dice = None
    if command == "set_dice":
        try:
            numbers = [int(part) for part in argument.replace("-", " ").split()]
            if len(numbers) != 2:
                raise ValueError("two dice")
            dice = ev.ManualDice((numbers[0], numbers[1])).values
        except ValueError:
            step.say("override_refused", Level.WARNING, command=command, reason="bad_dice")
            return
    if state.question is not None:
        questions.decide_question(step, command, dice)
        return
    if state.stage is not Stage.PLAY or before is None:
        step.say("override_refused", Level.WARNING, command=command, reason="no_dice_to_change")
        return
    opening = game_of(before).phase is Phase.OPENING
    if command == "void_dice":
        step.adopt(before, before_dice=None, turn_boards=(), last_throw=None)
        step.say("dice_voided", Level.INFO, player=state.mover)
        if opening:
            step.run_clock(None)
            step.set(clock_started=False)
        return
    assert dice is not None
    step.adopt(before, before_dice=None)
    step.say("dice_set", Level.INFO, player=state.mover, dice=list(dice))
    if opening:
        throws.opening(step, dice)
    else:
        throws.roll(step, dice)


CALIBRATED_BY = ("taps", "markers")
"""How the director found the board's corners again: tapped on the picture, or the printed markers."""

PICTURE_LIMIT = 100_000.0
"""No camera's picture is this many pixels across: a corner beyond it is a garbled argument."""


def _point(word: str) -> tuple[float, float]:
    """One corner "x,y" in the picture's pixels; ValueError for anything else."""
    x, y = (float(part) for part in word.split(","))
    if not (
        math.isfinite(x)
        and math.isfinite(y)
        and -PICTURE_LIMIT < x < PICTURE_LIMIT
        and -PICTURE_LIMIT < y < PICTURE_LIMIT
    ):
        raise ValueError(f"corner out of range: {word}")
    return (x, y)
