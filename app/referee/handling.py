"""One event being handled: the state so far, the rulings and clock commands so far, and the helpers every
handler shares (announce, record an irregularity, command the clock, ask the rules core, guard the stage).

Each handler (:mod:`app.referee.handlers`) is a function of a :class:`Step` and its event; the engine makes
the step and dispatches to them, so the handlers see the referee's state (:class:`app.referee.state.RefereeState`)
and never the engine.
"""

from __future__ import annotations

import enum
from dataclasses import replace
from typing import Any

from app.referee.rulings import ClockCommand, Level, Ruling, color_name
from app.referee.state import DeviceFault, Irregularity, RefereeState, Stage, Tally
from rules import cubeful as rc
from rules.chouette import Chouette
from rules.errors import IllegalAction
from rules.position import Color
from rules.variant import ResultKind

KIND = {ResultKind.SINGLE: "single", ResultKind.GAMMON: "gammon", ResultKind.BACKGAMMON: "backgammon"}
"""How a ruling names the kind of a game's result."""


class Step:
    """One event being handled: the state so far, the rulings and clock commands so far."""

    def __init__(self, state: RefereeState) -> None:
        self.state = state
        self.rulings: list[Ruling] = []
        self.commands: list[ClockCommand] = []
        self.names = list(state.side_names()) if state.chouette is not None else None
        """In a chouette, who White and Black were when the event came (the box and captain change)."""

    # ------------------------------------------------------------- helpers

    def say(self, code: str, level: Level, **params: Any) -> None:
        if self.names is not None and any(isinstance(value, Color) for value in params.values()):
            params["names"] = self.names  # the ruling names the people, whoever is box and captain later
        self.rulings.append(Ruling(code, level, {k: _json(v) for k, v in params.items()}))

    def irregular(self, code: str, color: Color | None, **params: Any) -> None:
        """Record a breach of conduct and announce it (amber)."""
        named = dict(params, names=self.names) if self.names is not None else params  # who, in a chouette
        record = Irregularity(self.state.events, code, color, {k: _json(v) for k, v in named.items()})
        self.set(irregularities=self.state.irregularities + (record,))
        self.say(code, Level.WARNING, player=color, **params)

    def device_fault(self, device: str, fault: str, **params: Any) -> None:
        """Record a device's fault and announce it as the device's (amber): ruling ``device_fault_<fault>``, never
        a player's irregularity; what the device sent is ignored."""
        record = DeviceFault(self.state.events, device, fault, {k: _json(v) for k, v in params.items()})
        self.set(device_faults=self.state.device_faults + (record,))
        self.say("device_fault_" + fault, Level.WARNING, device=device, **params)

    def set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def run_clock(self, color: Color | None) -> None:
        """Command the clock: ``color``'s runs, or both stand still. Always sent: the clock is idempotent."""
        self.set(clock=color, clock_started=self.state.clock_started or color is not None)
        self.commands.append(ClockCommand(color))

    def apply(self, action: rc.Action) -> Tally:
        """The match or chouette after a rules-core action (the caller catches RulesError)."""
        chouette = self.state.chouette
        if chouette is None:
            return self.state.match.apply(action)
        if not isinstance(action, (rc.OpeningThrow, rc.Roll, rc.Move)):
            raise IllegalAction("a chouette game has no such action")
        return chouette.apply(action)

    def adopt(self, tally: Tally, **changes: Any) -> None:
        """Take the rules core's new match or chouette (with other changes to the state)."""
        if isinstance(tally, Chouette):
            self.set(chouette=tally, **changes)
        else:
            self.set(match=tally, **changes)

    def open_for_input(self, stage: Stage) -> bool:
        if stage is Stage.OVER:
            self.say("match_is_over", Level.INFO)
            return False
        if stage is Stage.HALTED:
            self.say("play_halted", Level.WARNING)
            return False
        return True

    def ready(self, stage: Stage) -> bool:
        """The stage guard for a throw or a cube action: nothing while the match is over or halted, and nothing
        but the opponent's choice while a flagged play waits for it."""
        if not self.open_for_input(stage):
            return False
        if stage is Stage.ILLEGAL:
            self.say("choose_first", Level.WARNING, player=self.state.to_act)
            return False
        if stage is Stage.QUESTION:
            self.say("answer_question_first", Level.WARNING, player=self.state.to_act)
            return False
        return True

    def set_remaining(self, color: Color, remaining_ms: int) -> None:
        """One side's remaining time corrected by the director; the other side's stays."""
        state = self.state
        reserve = state.setup.clock.reserve_s * 1000
        times = list(state.times or (reserve, reserve))
        times[color] = remaining_ms
        self.set(times=(times[0], times[1]), longest_time_set=max(state.longest_time_set, remaining_ms))
        self.say("time_set", Level.INFO, player=color, ms=remaining_ms)


def _json(value: Any) -> Any:
    if isinstance(value, Color):
        return color_name(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value
