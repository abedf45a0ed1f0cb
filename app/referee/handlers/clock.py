"""Time and links: clock presses (which end a play), a flag falling, a device's link coming and going."""

from __future__ import annotations

from dataclasses import replace

from app.referee import events as ev
from app.referee.handlers import camera
from app.referee.handling import Step
from app.referee.rulings import Level
from app.referee.state import RefereeState, Stage

DAY_MS = 24 * 3600 * 1000
"""Without a time control (no reserve) a clock can still show its own times, never more than a day."""


def time_ceiling(state: RefereeState) -> int:
    """The most time (ms) a side can ever have left in this match: the reserve, or a longer time the director
    set; the clock's simple delay never adds to the reserve."""
    reserve = state.setup.clock.reserve_s * 1000
    return max(reserve or DAY_MS, state.longest_time_set)


def on_clock_pressed(step: Step, event: ev.ClockPressed) -> None:
    state = step.state
    if event.white_ms is not None and event.black_ms is not None:
        ceiling = time_ceiling(state)
        if all(0 <= ms <= ceiling for ms in (event.white_ms, event.black_ms)):
            step.set(times=(event.white_ms, event.black_ms))
        else:  # the press counts; the times it came with cannot be
            step.device_fault(
                "clock",
                "clock_time",
                white_s=event.white_ms // 1000,
                black_s=event.black_ms // 1000,
                limit_s=ceiling // 1000,
            )
    stage = state.stage
    if stage in (Stage.OVER, Stage.HALTED, Stage.ILLEGAL, Stage.OPENING):
        step.run_clock(None)  # both clocks stand still now: stop one a press may have started
        return
    by = event.by
    to_act = state.to_act
    if stage is Stage.QUESTION:  # the throw is not settled yet: the clocks stay as the question left them
        step.say("answer_question_first", Level.WARNING, player=to_act)
        step.run_clock(state.clock)
        return
    if not state.clock_started:
        if by is not state.mover or stage is not Stage.PLAY:
            if to_act is not None:
                step.run_clock(to_act)
                step.say("clock_started", Level.INFO, player=to_act)
            return
    elif state.clock is not by:
        return  # a press on the side whose clock is not running: the clock ignores it
    step.set(clock=by.other, clock_started=True)  # the clock has switched by itself
    if stage is Stage.PLAY and by is state.mover:
        camera.judge_press(step)
    elif stage is Stage.ROLL:
        step.say("throw_first", Level.WARNING, player=by)
        step.run_clock(by)
    elif to_act is not None:
        step.say("answer_first", Level.WARNING, player=to_act)
        step.run_clock(to_act)


def on_flag_fell(step: Step, event: ev.ClockFlag) -> None:
    state = step.state
    if state.match.over:
        return
    question = state.question
    paused = question.clock if question is not None else None  # it ran out just before the question stopped it
    if event.color not in (state.clock, paused):
        # only a running clock can run out: anything else is the clock misreporting (a fault, never a result)
        step.irregular("clock_fault", None, flag=event.color, running=state.clock)
        step.rulings[-1] = replace(step.rulings[-1], level=Level.ERROR)
        return
    if state.match.is_money:
        step.say("flag_ignored", Level.INFO, player=event.color)
        return
    match = state.match.lose_on_time(event.color)
    step.set(match=match)
    step.say("flag_fell", Level.ERROR, player=event.color)
    step.run_clock(None)
    assert match.result is not None
    step.say("match_over", Level.OK, player=match.result.winner, end=match.result.end.value, score=list(match.score))


def on_time_corrected(step: Step, event: ev.TimeCorrected) -> None:
    step.set_remaining(event.color, event.remaining_ms)


def on_link_status(step: Step, event: ev.LinkChanged) -> None:
    links = dict(step.state.links)
    if links.get(event.device) == event.up:
        return
    links[event.device] = event.up
    step.set(links=tuple(sorted(links.items())))
    if event.up:
        step.say("link_up", Level.INFO, device=event.device, detail=event.detail)
    else:
        step.say("link_down", Level.WARNING, device=event.device, detail=event.detail)


def on_link_noise(step: Step, event: ev.LinkNoisy) -> None:
    if event.noisy:
        damaged, lost = f"{event.damaged_percent:.1f}", f"{event.lost_percent:.1f}"
        step.say("link_noisy", Level.WARNING, device=event.device, damaged=damaged, lost=lost)
    else:
        step.say("link_clean", Level.INFO, device=event.device)
