"""Time and links: clock presses (which end a play), a flag falling, a device's link coming and going."""

from __future__ import annotations

from dataclasses import replace

from app.referee import events as ev
from app.referee.handlers.plays import PlayHandlers
from app.referee.rulings import Level
from app.referee.state import Stage


class ClockHandlers(PlayHandlers):
    """Clock events and what follows from them."""

    def on_clock_pressed(self, event: ev.ClockPressed) -> None:
        state = self.state
        if event.white_ms is not None and event.black_ms is not None:
            self.set(times=(event.white_ms, event.black_ms))
        stage = state.stage
        if stage in (Stage.OVER, Stage.HALTED, Stage.ILLEGAL, Stage.OPENING):
            self.run_clock(None)  # both clocks stand still now: stop one a press may have started
            return
        by = event.by
        to_act = state.to_act
        if stage is Stage.QUESTION:  # the throw is not settled yet: whichever clock ran runs on
            self.say("answer_question_first", Level.WARNING, player=to_act)
            self.run_clock(state.clock)
            return
        if not state.clock_started:
            if by is not state.mover or stage is not Stage.PLAY:
                if to_act is not None:
                    self.run_clock(to_act)
                    self.say("clock_started", Level.INFO, player=to_act)
                return
        elif state.clock is not by:
            return  # a press on the side whose clock is not running: the clock ignores it
        self.set(clock=by.other, clock_started=True)  # the clock has switched by itself
        if stage is Stage.PLAY and by is state.mover:
            self.judge_press()
        elif stage is Stage.ROLL:
            self.say("throw_first", Level.WARNING, player=by)
            self.run_clock(by)
        elif to_act is not None:
            self.say("answer_first", Level.WARNING, player=to_act)
            self.run_clock(to_act)

    def on_flag_fell(self, event: ev.ClockFlag) -> None:
        state = self.state
        if state.match.over:
            return
        if state.clock is not event.color:
            # only a running clock can run out: anything else is the clock misreporting (a fault, never a result)
            self.irregular("clock_fault", None, flag=event.color, running=state.clock)
            self.rulings[-1] = replace(self.rulings[-1], level=Level.ERROR)
            return
        if state.match.is_money:
            self.say("flag_ignored", Level.INFO, player=event.color)
            return
        match = state.match.lose_on_time(event.color)
        self.set(match=match)
        self.say("flag_fell", Level.ERROR, player=event.color)
        self.run_clock(None)
        assert match.result is not None
        self.say(
            "match_over", Level.OK, player=match.result.winner, end=match.result.end.value, score=list(match.score)
        )

    def on_time_corrected(self, event: ev.TimeCorrected) -> None:
        self.set_remaining(event.color, event.remaining_ms)

    def on_link_status(self, event: ev.LinkChanged) -> None:
        links = dict(self.state.links)
        if links.get(event.device) == event.up:
            return
        links[event.device] = event.up
        self.set(links=tuple(sorted(links.items())))
        if event.up:
            self.say("link_up", Level.INFO, device=event.device, detail=event.detail)
        else:
            self.say("link_down", Level.WARNING, device=event.device, detail=event.detail)

    def on_link_noise(self, event: ev.LinkNoisy) -> None:
        if event.noisy:
            damaged, lost = f"{event.damaged_percent:.1f}", f"{event.lost_percent:.1f}"
            self.say("link_noisy", Level.WARNING, device=event.device, damaged=damaged, lost=lost)
        else:
            self.say("link_clean", Level.INFO, device=event.device)
