"""One game of any variant, from the opening throw to the last checker off.

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
from rules.position import OFF, Color, Position
from rules.registry import variant_of
from rules.standard import STANDARD_VARIANT
from rules.variant import Opening, ResultKind, Variant

__all__ = ["FirstMove", "Game", "GameResult", "Phase", "ResultKind", "Turn", "game_result"]


class FirstMove(enum.Enum):
    """Who moves first (RULES.md section 1)."""

    OPENING_ROLL = "opening_roll"
    """Each throws one die; the higher moves first, as the variant's opening rule says."""
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


@dataclass(frozen=True, slots=True)
class GameResult:
    """Who won, how, and for what cube; ``winner`` None is a draw (uzun tavla's last throw)."""

    winner: Color | None
    kind: ResultKind
    cube: int = 1

    @property
    def points(self) -> int:
        return 0 if self.winner is None else int(self.kind) * self.cube


def game_result(position: Position, cube: int = 1) -> GameResult | None:
    """The result if one side has borne off all 15 checkers, else None."""
    winner = position.winner()
    if winner is None:
        return None
    return GameResult(winner, variant_of(position).result_kind(position, winner), cube)


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn as it was played: who, which dice, which play."""

    color: Color
    dice: Dice
    play: Play


@dataclass(frozen=True, slots=True)
class Game:
    """A game at one moment."""

    position: Position
    phase: Phase
    dice: Dice | None = None
    first_move: FirstMove = FirstMove.OPENING_ROLL
    opening_ties: int = 0
    turns: tuple[Turn, ...] = ()
    cube: int = 1
    result: GameResult | None = None
    variant: Variant = STANDARD_VARIANT
    starter: Color | None = None
    """Who moved first; the last-throw rule asks whether the starter finished first."""
    last_throw: bool = False
    """Uzun tavla's club rule (off by default): the starter finishing first gives the
    other one more throw, and a draw if that throw bears off all its checkers."""

    @classmethod
    def new(
        cls,
        first_move: FirstMove = FirstMove.OPENING_ROLL,
        previous_winner: Color | None = None,
        start: Position | None = None,
        variant: Variant = STANDARD_VARIANT,
        last_throw: bool = False,
    ) -> "Game":
        """A new game; with PREVIOUS_WINNER and a previous winner, that side rolls first."""
        position = start or variant.start()
        game = cls(position, Phase.OPENING, first_move=first_move, variant=variant, last_throw=last_throw)
        if first_move is FirstMove.PREVIOUS_WINNER and previous_winner is not None:
            first = position.with_turn(previous_winner)
            return replace(game, position=first, phase=Phase.ROLL, starter=previous_winner)
        return game

    def opening_throw(self, white_die: int, black_die: int) -> "Game":
        """Each side throws one die; a tie is thrown again, the higher moves first."""
        self._expect(Phase.OPENING, "the opening throw")
        check_dice((white_die, black_die))
        if white_die == black_die:
            return replace(self, opening_ties=self.opening_ties + 1)
        first = Color.WHITE if white_die > black_die else Color.BLACK
        position = self.position.with_turn(first)
        if self.variant.opening is Opening.THROW_AGAIN:
            return replace(self, position=position, phase=Phase.ROLL, starter=first)
        dice = (white_die, black_die) if first is Color.WHITE else (black_die, white_die)
        return replace(self, position=position, phase=Phase.PLAY, dice=dice, starter=first)

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
            accepted = judge(self.position, self.dice, apply_steps(self.position, steps))
        mover = self.position.turn
        after = apply_steps(self.position, accepted.steps)
        turns = self.turns + (Turn(mover, self.dice, accepted),)
        played = replace(self, position=after, phase=Phase.ROLL, dice=None, turns=turns)
        return played._settle(mover)

    def _settle(self, mover: Color) -> "Game":
        """End the game if the last checker is off, unless the last-throw rule grants a throw."""
        position = self.position
        finished = position.side(mover)[OFF] == 15
        if position.side(mover.other)[OFF] == 15:  # ``mover`` has just taken the last throw
            if finished:
                return replace(self, phase=Phase.OVER, result=GameResult(None, ResultKind.SINGLE, self.cube))
            kind = self.variant.result_kind(position, mover.other)
            return replace(self, phase=Phase.OVER, result=GameResult(mover.other, kind, self.cube))
        if not finished:
            return self
        if self.last_throw and mover is self.starter:
            return self  # the other side throws once more
        kind = self.variant.result_kind(position, mover)
        return replace(self, phase=Phase.OVER, result=GameResult(mover, kind, self.cube))

    def _expect(self, phase: Phase, action: str) -> None:
        if self.phase is not phase:
            raise IllegalAction(f"{action} is not allowed now: the game is waiting for {_WAITING[self.phase]}")


_WAITING = {
    Phase.OPENING: "the opening throw",
    Phase.ROLL: "a roll",
    Phase.PLAY: "a play",
    Phase.OVER: "nothing: it is over",
}
