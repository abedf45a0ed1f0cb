"""The result confirmed: at the end of a match each player taps to confirm the result sheet.

The confirmation is an event like any other, so the journal holds who confirmed and when, a restart
folds it back, and the exports can say whether both players agreed to the result before anyone signs.
"""

from __future__ import annotations

from app.referee import events as ev
from app.referee.handling import Step
from app.referee.rulings import Level


def on_result_confirmed(step: Step, event: ev.ResultConfirmed) -> None:
    state = step.state
    if state.chouette is not None or not state.match.over:
        step.say("result_not_final", Level.WARNING, player=event.by)
        return
    if event.by in state.confirmed:
        step.say("result_already_confirmed", Level.INFO, player=event.by)
        return
    confirmed = state.confirmed + (event.by,)
    step.set(confirmed=confirmed)
    step.say("result_confirmed", Level.OK, player=event.by)
    if len(confirmed) == 2:
        step.say("result_agreed", Level.OK)
