"""Throws: the camera's and the tablet's dice, the opening throw, a roll, the double named after a 1-2."""

from __future__ import annotations

from app.referee import events as ev
from app.referee.handling import Step
from app.referee.rulings import Level
from app.referee.state import Stage, cube_values, game_of
from rules import cubeful as rc
from rules.errors import RulesError
from rules.play import Play
from rules.position import Color
from rules.variant import Opening


def on_dice_observed(step: Step, event: ev.DiceObserved) -> None:
    throw(step, event.values, event.void, event.thrower)


def on_manual_dice(step: Step, event: ev.ManualDice) -> None:
    throw(step, event.values, None, None)


def throw(step: Step, values: tuple[int, int] | None, void: ev.VoidReason | None, thrower: Color | None) -> None:
    state = step.state
    stage = state.stage
    if not step.ready(stage):
        return
    if stage in (Stage.DOUBLE, Stage.RESIGNATION):
        if values is None and thrower is None:  # no die seen: the camera cannot say who threw, nobody is blamed
            step.device_fault("camera", "thrower_unknown", reason=void.value if void is not None else "unreadable")
            return
        step.irregular("throw_before_answer", thrower if thrower is not None else state.mover, waiting=state.to_act)
        return
    if stage is Stage.NAME_DOUBLE:
        step.say("name_double_first", Level.WARNING, player=state.mover)
        return
    if stage is Stage.PLAY:
        dice = state.dice
        if dice is None:
            step.say("play_passed_first", Level.WARNING, player=state.mover, numbers=list(state.numbers))
            return
        same = values is not None and dice is not None and sorted(values) == sorted(dice)
        if values is None or (same and thrower in (None, state.mover)):
            return  # the dice still lying there, or being picked up: nothing new
        if thrower is None:  # typed, or a camera that cannot tell whose half: nobody is blamed
            step.irregular("throw_during_play", None, waiting=state.mover)
        elif thrower is state.mover:
            step.irregular("thrown_again", thrower)
        else:
            step.irregular("early_throw", thrower, waiting=state.mover)
        return
    if void is not None:
        step.say("void_throw", Level.WARNING, reason=void.value)
        return
    assert values is not None
    if stage is Stage.OPENING:
        opening(step, values)
        return
    if thrower is not None and thrower is not state.mover:
        step.irregular("out_of_turn_throw", thrower, waiting=state.mover)
        return
    roll(step, values)


def opening(step: Step, values: tuple[int, int]) -> None:
    state = step.state
    white, black = values
    cube_before = cube_values(state.tally)
    try:
        tally = step.apply(rc.OpeningThrow(white, black))
    except RulesError as error:
        step.say("action_refused", Level.WARNING, detail=str(error))
        return
    step.adopt(tally, last_throw=values, before_dice=None if white == black else state.tally)
    if white == black:
        step.say("opening_tie", Level.INFO, white=white, black=black)
        if cube_values(tally) != cube_before:
            step.say("automatic_double", Level.INFO, value=max(cube_values(tally)))
        return
    winner = Color.WHITE if white > black else Color.BLACK
    board = state.board
    if board is not None and not board.same_board(game_of(tally).position):
        step.say("set_up_board", Level.WARNING)
    if state.setup.variant_rules.opening is Opening.USE_OPENING_DICE:
        step.say("opening_won", Level.OK, player=winner, white=white, black=black, plays=True)
        new_turn(step)
    else:
        step.say("opening_won", Level.OK, player=winner, white=white, black=black, plays=False)


def roll(step: Step, values: tuple[int, int]) -> None:
    try:
        tally = step.apply(rc.Roll(values))
    except RulesError as error:
        step.say("action_refused", Level.WARNING, detail=str(error))
        return
    mover = step.state.mover
    step.adopt(tally, last_throw=values, before_dice=step.state.tally)
    step.say("dice", Level.OK, player=mover, dice=list(values))
    if not step.state.clock_started or step.state.clock is not mover:
        step.run_clock(mover)
    new_turn(step)


def new_turn(step: Step) -> None:
    """The mover has numbers to play: start watching the board for this play."""
    state = step.state
    step.set(turn_boards=(state.position,), in_hand=0)
    if state.legal_plays() == [Play()]:
        step.say("no_move", Level.INFO, player=state.mover, dice=list(state.numbers))


def on_name_double(step: Step, event: ev.DoubleNamed) -> None:
    state = step.state
    if not step.open_for_input(state.stage):
        return
    if state.stage is not Stage.NAME_DOUBLE or event.by is not state.mover:
        step.say("action_refused", Level.WARNING, player=event.by, detail="no double is to be named now")
        return
    try:
        match = step.apply(rc.NameDouble(event.number))
    except RulesError as error:
        step.say("action_refused", Level.WARNING, player=event.by, detail=str(error))
        return
    step.set(match=match)
    step.say("double_named", Level.OK, player=event.by, dice=[event.number, event.number])
    new_turn(step)
