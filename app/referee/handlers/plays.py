"""Plays: the sensing board's snapshots and touches, a play judged when the clock is pressed or typed on the
tablet, and the opponent's choice after an illegal play."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.referee import events as ev
from app.referee.handlers.chouette import chouette_over
from app.referee.handlers.cube import game_over
from app.referee.handling import Step
from app.referee.rulings import Level
from app.referee.setup import Mode, Policy
from app.referee.state import FlaggedPlay, LastPlay, Stage, with_game
from rules import cubeful as rc
from rules.chouette import Chouette, ChouetteGame
from rules.errors import AmbiguousPlay, IllegalPlay, InvalidNotation, RulesError
from rules.game import Phase
from rules.notation import parse_play
from rules.play import Play
from rules.position import Color, Position, Status, describe_status
from rules.steprules import Landing

_IN_HAND = Status.TOO_FEW_WHITE | Status.TOO_FEW_BLACK
"""The only problems a checker held in a hand explains: too many checkers or a shared point never are."""


def on_board_snapshot(step: Step, event: ev.BoardSeen) -> None:
    state = step.state
    if event.late:  # an old reading sent again: it says nothing of where the checkers stand now
        step.device_fault("board", "board_late")
        return
    raw = type(state.position).unchecked(event.white, event.black, state.mover)
    board = state.position.read_snapshot(raw)  # pins and checkers still to enter, as the variant reads them
    status = board.status()
    problems = tuple(describe_status(status))
    stage = state.stage
    missing = 2 * 15 - sum(raw.white) - sum(raw.black)
    held = not status & ~_IN_HAND and 0 < missing <= state.in_hand  # only missing checkers can be in a hand
    if problems and not held and problems != state.board_problems:
        step.irregular("board_invalid", None, problems=list(problems))
    step.set(board=board, board_problems=problems)
    if problems:
        return
    step.set(in_hand=0)  # every checker is on the board: a lost "placed" report is healed here
    if stage is Stage.PLAY:
        seen = state.turn_boards
        if seen and not board.same_board(seen[-1]):
            if any(board.same_board(earlier) for earlier in seen[:-1]):
                step.irregular("takeback", state.mover)
            step.set(turn_boards=seen + (board,))
    elif stage in (Stage.ROLL, Stage.DOUBLE, Stage.RESIGNATION, Stage.QUESTION):
        previous = state.board
        moved = not board.same_board(state.position)
        was_moved = previous is not None and not previous.same_board(state.position)
        if moved and not was_moved:
            step.irregular("board_moved_out_of_turn", None, waiting=state.mover)


def on_checker_lifted(step: Step, event: ev.LiftSeen) -> None:
    state = step.state
    step.set(in_hand=state.in_hand + 1)
    stage = state.stage
    if stage in (Stage.ROLL, Stage.DOUBLE, Stage.RESIGNATION, Stage.ILLEGAL, Stage.QUESTION):
        step.irregular("touched_out_of_turn", event.color, point=event.point, on_turn=state.mover)
        return
    if stage is not Stage.PLAY:
        return
    position = state.board if state.board is not None and not state.board_problems else state.position
    if event.color is not state.mover:
        counts = position.side(event.color)
        hittable = position.RULES.landing is Landing.HIT and 1 <= event.point <= 24 and counts[event.point] == 1
        if not hittable:
            step.irregular("touched_out_of_turn", event.color, point=event.point, on_turn=state.mover)
        return
    if state.mode is Mode.CASUAL:
        targets = sorted(
            {step.dest for play in state.legal_plays() for step in play.steps if step.source == event.point}
        )
        step.say("hint", Level.INFO, player=event.color, point=event.point, targets=targets)


def on_checker_placed(step: Step, event: ev.PlaceSeen) -> None:
    step.set(in_hand=max(step.state.in_hand - 1, 0))


def judge_press(step: Step) -> None:
    state = step.state
    mover = state.mover
    board = state.board
    if not state.setup.devices.board or board is None:
        if state.legal_plays() == [Play()]:
            accept(step, Play())
        else:
            step.say("enter_play", Level.WARNING, player=mover)
            step.run_clock(mover)
        return
    if state.board_problems:
        step.say("board_unreadable", Level.ERROR, player=mover, problems=list(state.board_problems))
        step.run_clock(mover)
        return
    judge_board(step, board)


def judge_board(step: Step, board: Position) -> None:
    """Judge the play by the board it left (a sensing board's snapshot or the camera's reading): a play of the
    variant's own judge, an earlier position of the game (a takeback), or an illegal or unfinished play."""
    state = step.state
    before, mover = state.position, state.mover
    if not board.same_board(before):
        for earlier in reversed(state.game_boards[:-1]):
            if board.same_board(earlier):
                step.irregular("takeback_earlier", mover)
                step.run_clock(mover)
                return
    try:
        played = state.game.play(board.with_turn(mover))  # the variant's own judge
    except IllegalPlay as error:
        flag(step, error, board)
        return
    accept(step, played.turns[-1].play)


def accept(step: Step, play: Play) -> None:
    state = step.state
    before, mover, dice = state.position, state.mover, state.numbers
    tally = step.apply(rc.Move(play))
    ended: rc.CubefulGame | ChouetteGame | None = None
    if isinstance(tally, Chouette):
        assert state.chouette is not None
        if len(tally.finished) > len(state.chouette.finished):
            ended = tally.finished[-1]
        after = (ended or tally.game).game.position
    else:
        game = tally.games[len(state.match.games) - 1]
        ended = game if game.over else None
        after = game.position
    notation = state.setup.variant_rules.write_play(before, play)
    step.adopt(
        tally,
        undo=state.undo + ((state.tally, state.game_boards, state.before_dice),),
        before_dice=None,
        last_play=LastPlay(mover, dice, notation, before, after),
        game_boards=state.game_boards + (after,),
        turn_boards=(),
        in_hand=0,
        camera=None,
        play_asked=None,
    )
    step.say("play_ok", Level.OK, player=mover, play=notation, dice=list(dice))
    if isinstance(ended, ChouetteGame):
        assert state.chouette is not None
        chouette_over(step, ended, state.chouette.game.acting_captain)
    elif ended is not None:
        game_over(step, ended)
    else:
        step.run_clock(step.state.to_act)


def flag(step: Step, error: IllegalPlay, board: Position) -> None:
    state = step.state
    mover, dice = state.mover, state.numbers
    rules = [violation.name.lower() for violation in error.violations]
    code = "unfinished_play" if error.unfinished else "illegal_play"
    can_accept = state.policy is Policy.LEGAL_MOVES and board.winner() is None
    params: dict[str, Any] = {"rules": rules, "choice": can_accept}
    if state.mode is Mode.CASUAL:
        write = state.setup.variant_rules.write_play
        params["legal"] = [write(state.position, play) for play in error.legal[:8]]
    step.irregular(code, mover, **params)
    step.rulings[-1] = replace(step.rulings[-1], level=Level.ERROR)
    if can_accept:
        flagged = FlaggedPlay(mover, state.position, board, dice, tuple(rules), error.unfinished)
        step.set(flagged=flagged)
        step.run_clock(None)
        step.say("choose", Level.INFO, player=mover.other)
    else:
        step.run_clock(mover)


def on_accept_illegal(step: Step, event: ev.AcceptIllegal) -> None:
    flagged = chooser(step, event.by)
    if flagged is None:
        return
    state = step.state
    game = state.game
    kind = type(game.position)
    after = kind.unchecked(flagged.after.white, flagged.after.black, flagged.mover.other)
    forced = with_game(state.tally, replace(game, position=after, phase=Phase.ROLL, dice=None))
    step.adopt(
        forced,
        flagged=None,
        undo=state.undo + ((state.tally, state.game_boards, state.before_dice),),
        before_dice=None,
        last_play=LastPlay(flagged.mover, flagged.dice, "", flagged.before, after, legal=False),
        game_boards=state.game_boards + (after,),
        turn_boards=(),
        accepted_illegal=state.accepted_illegal + 1,
    )
    step.say("illegal_accepted", Level.INFO, player=event.by, mover=flagged.mover)
    step.run_clock(event.by)


def on_correct_illegal(step: Step, event: ev.CorrectIllegal) -> None:
    flagged = chooser(step, event.by)
    if flagged is None:
        return
    step.set(flagged=None, turn_boards=(step.state.position,), in_hand=0)
    step.say("illegal_corrected", Level.INFO, player=event.by, mover=flagged.mover, dice=list(flagged.dice))
    step.run_clock(flagged.mover)


def chooser(step: Step, by: Color) -> FlaggedPlay | None:
    flagged = step.state.flagged
    if flagged is None or step.state.stage is not Stage.ILLEGAL:
        step.say("nothing_to_choose", Level.INFO, player=by)
        return None
    if by is flagged.mover:
        step.say("not_your_choice", Level.WARNING, player=by, chooser=by.other)
        return None
    return flagged


def on_manual_play(step: Step, event: ev.ManualPlay) -> None:
    state = step.state
    stage = state.stage
    if not step.open_for_input(stage):
        return
    if stage is not Stage.PLAY:
        step.say("no_play_expected", Level.WARNING)
        return
    dice = state.dice
    if dice is None:
        step.say(
            "manual_unreadable", Level.WARNING, text=event.text, detail="numbers passed on are played on the board"
        )
        return
    try:
        play = parse_play(state.position, dice, event.text)
    except AmbiguousPlay as error:
        write = state.setup.variant_rules.write_play
        options = [write(state.position, p) for p in error.candidates]
        step.say("manual_ambiguous", Level.WARNING, text=event.text, options=options)
        return
    except IllegalPlay as error:
        rules = [violation.name.lower() for violation in error.violations]
        step.say("manual_illegal", Level.ERROR, player=state.mover, text=event.text, rules=rules, detail=str(error))
        return
    except (InvalidNotation, RulesError) as error:
        step.say("manual_unreadable", Level.WARNING, text=event.text, detail=str(error))
        return
    accept(step, play)
