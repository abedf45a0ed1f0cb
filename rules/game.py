"""One game from the opening throw to the last checker off.

The game is an immutable value: every action returns the next game, so the
referee can fold a journal of actions into the current state and replay it
after a crash. Actions out of order raise :class:`IllegalAction`; plays are
judged by :func:`rules.judge.judge`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Sequence, Union

from rules.errors import IllegalAction
from rules.judge import judge
from rules.movegen import legal_plays
from rules.notation import parse_play
from rules.play import Dice, Play, Step, apply_steps, check_dice
from rules.position import BAR, OFF, Color, Position


class FirstMove(enum.Enum):
    """Who moves first (RULES.md section 1)."""

    OPENING_ROLL = "opening_roll"
    """Each throws one die; the higher plays the two opening numbers (tournament rule)."""
    PREVIOUS_WINNER = "previous_winner"
    """Seed 001's house rule: the previous game's winner rolls two dice first."""


class Phase(enum.Enum):
    OPENING = "opening"
    """Waiting for the opening throw (one die each)."""
    ROLL = "roll"
    """The side to move must roll."""
    PLAY = "play"
    """The side to move has dice and must play them."""
    OVER = "over"


class ResultKind(enum.IntEnum):
    """How a game was won; the value is the points before the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: Color
    kind: ResultKind
    cube: int = 1

    @property
    def points(self) -> int:
        return int(self.kind) * self.cube


def result_kind(position: Position, winner: Color) -> ResultKind:
    """Single, gammon or backgammon, judged from the loser's checkers (RULES.md 1)."""
    loser = position.side(winner.other)
    if loser[OFF] > 0:
        return ResultKind.SINGLE
    # The winner's home board is the loser's points 19..24; the bar counts too.
    if loser[BAR] or any(loser[point] for point in range(19, 25)):
        return ResultKind.BACKGAMMON
    return ResultKind.GAMMON


def game_result(position: Position, cube: int = 1) -> GameResult | None:
    """The result if one side has borne off all 15 checkers, else None."""
    winner = position.winner()
    if winner is None:
        return None
    return GameResult(winner, result_kind(position, winner), cube)


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn as it was played: who, which dice, which play."""

    color: Color
    dice: Dice
    play: Play


@dataclass(frozen=True, slots=True)
class Game:
    """A game of tavla (standard rules) at one moment."""

    position: Position
    phase: Phase
    dice: Dice | None = None
    first_move: FirstMove = FirstMove.OPENING_ROLL
    opening_ties: int = 0
    turns: tuple[Turn, ...] = ()
    cube: int = 1
    result: GameResult | None = None

    @classmethod
    def new(
        cls,
        first_move: FirstMove = FirstMove.OPENING_ROLL,
        previous_winner: Color | None = None,
        start: Position | None = None,
    ) -> "Game":
        """A new game; with PREVIOUS_WINNER and a previous winner, that side rolls first."""
        position = start or Position.start()
        if first_move is FirstMove.PREVIOUS_WINNER and previous_winner is not None:
            return cls(position.with_turn(previous_winner), Phase.ROLL, first_move=first_move)
        return cls(position, Phase.OPENING, first_move=first_move)

    def opening_throw(self, white_die: int, black_die: int) -> "Game":
        """Each side throws one die; a tie is thrown again, the higher plays both numbers."""
        self._expect(Phase.OPENING, "the opening throw")
        check_dice((white_die, black_die))
        if white_die == black_die:
            return replace(self, opening_ties=self.opening_ties + 1)
        first = Color.WHITE if white_die > black_die else Color.BLACK
        return replace(
            self,
            position=self.position.with_turn(first),
            phase=Phase.PLAY,
            dice=(white_die, black_die) if first is Color.WHITE else (black_die, white_die),
        )

    def roll(self, first: int, second: int) -> "Game":
        """The side to move rolls two dice."""
        self._expect(Phase.ROLL, "a roll")
        return replace(self, phase=Phase.PLAY, dice=check_dice((first, second)))

    def legal_plays(self) -> list[Play]:
        """The legal plays of the current dice (the empty play when the turn is lost)."""
        self._expect(Phase.PLAY, "listing plays")
        assert self.dice is not None
        return legal_plays(self.position, self.dice)

    def play(self, play: Union[Play, Position, str, Sequence[Step]]) -> "Game":
        """Make a play given as steps, notation, or the board it leads to.

        Raises IllegalPlay (naming the rule) for anything the rules forbid.
        """
        self._expect(Phase.PLAY, "a play")
        assert self.dice is not None
        if isinstance(play, str):
            accepted = parse_play(self.position, self.dice, play)
        elif isinstance(play, Position):
            accepted = judge(self.position, self.dice, play)
        else:
            steps = play.steps if isinstance(play, Play) else tuple(play)
            candidate = apply_steps(self.position, steps)
            accepted = judge(self.position, self.dice, candidate)
        after = apply_steps(self.position, accepted.steps)
        turns = self.turns + (Turn(self.position.turn, self.dice, accepted),)
        result = game_result(after, self.cube)
        if result is not None:
            return replace(self, position=after, phase=Phase.OVER, dice=None, turns=turns, result=result)
        return replace(self, position=after, phase=Phase.ROLL, dice=None, turns=turns)

    def _expect(self, phase: Phase, action: str) -> None:
        if self.phase is not phase:
            raise IllegalAction(f"{action} is not allowed now: the game is waiting for {_WAITING[self.phase]}")


_WAITING = {
    Phase.OPENING: "the opening throw",
    Phase.ROLL: "a roll",
    Phase.PLAY: "a play",
    Phase.OVER: "nothing: it is over",
}
