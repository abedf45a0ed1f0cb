"""A referee at a test table: send events, read rulings; positions set up by hand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.referee import events as ev
from app.referee.engine import Referee
from app.referee.rulings import Reaction
from app.referee.setup import ClockSettings, Devices, MatchSetup, Mode, Policy
from app.sim.world import snapshot_of
from rules.game import Phase
from rules.play import Step, apply_steps
from rules.position import Color, Position


def make_setup(**changes: Any) -> MatchSetup:
    values: dict[str, Any] = dict(
        players=("Ayşe", "Mehmet"),
        variant="backgammon",
        length=5,
        mode=Mode.TOURNAMENT,
        policy=Policy.LEGAL_MOVES,
        clock=ClockSettings(600),
        devices=Devices(camera=True, board=True, clock=True),
    )
    values.update(changes)
    return MatchSetup(**values)


class Table:
    """Sends events to a referee and keeps every reaction."""

    def __init__(self, referee: Referee | None = None, **setup: Any) -> None:
        self.referee = referee or Referee.start(make_setup(**setup))
        self.reactions: list[Reaction] = []
        self.sent: list[ev.Event] = []

    def send(self, *events: ev.Event) -> Reaction:
        """Handle the events in order; the reaction to the last one."""
        reaction = Reaction()
        for event in events:
            self.referee, reaction = self.referee.handle(event)
            self.reactions.append(reaction)
            self.sent.append(event)
        return reaction

    def codes(self, *events: ev.Event) -> list[str]:
        """The ruling codes of all the events sent, in order."""
        out: list[str] = []
        for event in events:
            out += self.send(event).codes
        return out

    def board(self, position: Position) -> Reaction:
        return self.send(snapshot_of(position))

    def move(self, *steps: tuple[int, int]) -> Position:
        """Make steps (own numbering) for the side to move on the board; returns the board shown."""
        position = self.referee.position
        after = apply_steps(position, [Step(a, b) for a, b in steps]).with_turn(position.turn)
        self.board(after)
        return after

    def press(self, color: Color | None = None) -> Reaction:
        return self.send(ev.ClockPressed(color if color is not None else self.referee.mover))

    def open_with(self, white: int, black: int) -> None:
        """Opening throw and the loser's press that starts the clock."""
        self.board(self.referee.position)
        self.send(ev.DiceObserved((white, black)))
        winner = Color.WHITE if white > black else Color.BLACK
        self.send(ev.ClockPressed(winner.other))


def force(referee: Referee, position: Position, dice: tuple[int, int] | None = None) -> Referee:
    """The referee with the game in progress set to ``position`` (its side to move), with dice or before rolling."""
    game = referee.match.game
    played = replace(
        game.game, position=position, phase=Phase.PLAY if dice else Phase.ROLL, dice=dice, starter=position.turn
    )
    match = replace(referee.match, games=referee.match.games[:-1] + (replace(game, game=played),))
    return replace(
        referee,
        match=match,
        game_boards=(position,),
        turn_boards=(position,),
        clock_started=True,
        clock=position.turn,
        board=position,
    )
