"""A chouette's cubes (one per team member) and the end of a chouette game: settling, the ledger, the line."""

from __future__ import annotations

from app.referee import events as ev
from app.referee.handling import KIND, Step
from app.referee.rulings import Level
from app.referee.state import Stage
from rules.chouette import ChouetteGame, CubeMove, MemberCube
from rules.errors import IllegalCubeAction, RulesError


def on_member_cube(step: Step, event: ev.MemberCubeMoved) -> None:
    """A chouette cube action: a member doubles the box or answers it, the box doubles or answers a member."""
    state = step.state
    stage = state.stage
    if not step.open_for_input(stage):
        return
    session = state.chouette
    if session is None:
        step.say("not_a_chouette", Level.WARNING, member=event.member)
        return
    if stage is Stage.ILLEGAL:
        step.say("choose_first", Level.WARNING, player=state.to_act)
        return
    game = session.game
    try:
        after = session.apply(MemberCube(event.member, CubeMove(event.move), event.by))
    except IllegalCubeAction as error:
        step.say(
            "member_cube_refused",
            Level.WARNING,
            by=event.by,
            member=event.member,
            rule=error.rule.name.lower(),
            detail=str(error),
        )
        return
    except RulesError as error:
        step.say("action_refused", Level.WARNING, detail=str(error))
        return
    step.set(chouette=after)
    ended = after.finished[-1] if len(after.finished) > len(session.finished) else None
    now = ended or after.game
    cube = now.cube_of(event.member)
    names = {"by": event.by, "member": event.member, "box": game.box}
    if event.move == "double":
        step.say("member_double", Level.INFO, value=cube.value * 2, **names)
    elif event.move == "drop":
        points = now.settled[game.members.index(event.member)]
        assert points is not None
        step.say("member_drop", Level.INFO, points=abs(points), **names)
        captain = now.acting_captain
        if ended is None and captain is not None and captain != game.acting_captain:
            step.say("captain_passes", Level.INFO, captain=captain, previous=game.acting_captain)
    else:
        step.say("member_" + event.move, Level.INFO, value=cube.value, **names)
    if ended is not None:
        chouette_over(step, ended, game.acting_captain)
    elif step.state.to_act is not None and state.clock_started:
        step.run_clock(step.state.to_act)


def chouette_over(step: Step, game: ChouetteGame, captain: str | None) -> None:
    """A chouette game ended: each member settles with the box, the ledger and the new line are announced.

    ``captain`` is the member who moved the team's checkers at the end.
    """
    session = step.state.chouette
    assert session is not None
    result = game.game.result
    if result is not None and result.winner is not None:
        side = "box" if result.winner is game.box_color else "team"
        step.say(
            "chouette_game_over",
            Level.OK,
            side=side,
            box=game.box,
            captain=captain or game.captain,
            kind=KIND[result.kind],
        )
    settled = [[member, points] for member, points in zip(game.members, game.settled)]
    step.say("chouette_settled", Level.OK, box=game.box, settled=settled)
    step.say("ledger", Level.INFO, ledger=[[name, session.balance(name)] for name in session.players])
    step.say(
        "line_turns",
        Level.INFO,
        box=session.box,
        captain=session.captain,
        line=list(session.line),
        stays=session.box == game.box,
    )
    step.run_clock(None)
    step.set(
        game_boards=(session.game.game.position,),
        undo=(),
        turn_boards=(),
        clock_started=False,
        flagged=None,
        last_throw=None,
    )
    step.say("new_game", Level.INFO, number=len(session.finished) + 1, crawford=False)
