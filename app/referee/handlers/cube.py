"""The cube and resignations in a match between two: offers, answers, and the game they may end."""

from __future__ import annotations

from app.referee import events as ev
from app.referee.handling import KIND, Step
from app.referee.rulings import Level
from rules import cubeful as rc
from rules.errors import IllegalAction, IllegalCubeAction, RulesError
from rules.game import Phase
from rules.position import Color
from rules.variant import ResultKind


def on_double(step: Step, event: ev.DoubleOffered) -> None:
    cube_action(step, rc.Double(event.by), event.by)


def on_take(step: Step, event: ev.DoubleTaken) -> None:
    cube_action(step, rc.Take(event.by), event.by)


def on_drop(step: Step, event: ev.DoubleDropped) -> None:
    cube_action(step, rc.Drop(event.by), event.by)


def on_beaver(step: Step, event: ev.Beavered) -> None:
    cube_action(step, rc.Beaver(event.by), event.by)


def on_raccoon(step: Step, event: ev.Raccooned) -> None:
    cube_action(step, rc.Raccoon(event.by), event.by)


def on_resign(step: Step, event: ev.ResignationOffered) -> None:
    cube_action(step, rc.Resign(event.by, ResultKind(event.level)), event.by)


def on_accept_resignation(step: Step, event: ev.ResignationAccepted) -> None:
    cube_action(step, rc.AcceptResignation(event.by), event.by)


def on_reject_resignation(step: Step, event: ev.ResignationRejected) -> None:
    cube_action(step, rc.RejectResignation(event.by), event.by)


def cube_action(step: Step, action: rc.Action, by: Color) -> None:
    """Doubles, answers and resignations: the rules core decides, the clock goes to whoever acts."""
    state = step.state
    stage = state.stage
    if not step.ready(stage):
        return
    if state.chouette is not None:
        step.say("chouette_names_member", Level.WARNING, player=by, action=type(action).__name__.lower())
        return
    try:
        match = state.match.apply(action)
    except IllegalCubeAction as error:
        step.say("cube_refused", Level.WARNING, player=by, rule=error.rule.name.lower(), detail=str(error))
        return
    except (IllegalAction, RulesError) as error:
        step.say("action_refused", Level.WARNING, player=by, detail=str(error))
        return
    index = len(state.match.games) - 1
    game = match.games[index]
    step.set(match=match)
    name = type(action).__name__
    cube = game.cube
    if name == "Double":
        step.say("double_offered", Level.INFO, player=by, value=cube.value * 2)
    elif name == "Take":
        step.say("taken", Level.INFO, player=by, value=cube.value)
    elif name in ("Beaver", "Raccoon"):
        step.say(name.lower() + "ed", Level.INFO, player=by, value=cube.value)
    elif name == "Resign":
        assert isinstance(action, rc.Resign)
        step.say("resign_offered", Level.INFO, player=by, kind=KIND[action.level])
    elif name == "RejectResignation":
        step.say("resign_rejected", Level.INFO, player=by)
    if game.over:
        game_over(step, game)
    elif match.game.to_act is not None and state.clock_started:
        step.run_clock(match.game.to_act)


def game_over(step: Step, game: rc.CubefulGame) -> None:
    """Score the game that just ended; announce Crawford or the end of the match."""
    state = step.state
    match = state.match
    outcome = game.outcome
    assert outcome is not None
    score = list(match.score)
    if outcome.winner is None:
        step.say("game_drawn", Level.OK, score=score)
    else:
        step.say(
            "game_over",
            Level.OK,
            player=outcome.winner,
            kind=KIND[outcome.kind],
            ending=outcome.ending.value,
            cube=outcome.cube,
            points=outcome.points,
            score=score,
        )
    step.run_clock(None)
    if match.result is not None:
        step.say("match_over", Level.OK, player=match.result.winner, end=match.result.end.value, score=score)
        return
    step.set(
        game_boards=(match.game.position,),
        undo=(),
        turn_boards=(),
        clock_started=False,
        flagged=None,
        last_throw=None,
    )
    step.say("new_game", Level.INFO, number=len(match.games), crawford=match.is_crawford)
    if match.game.game.phase is Phase.ROLL:
        step.say("previous_winner_starts", Level.INFO, player=match.game.position.turn)
