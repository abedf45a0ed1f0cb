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
from rules.judge import judge, judge_numbers
from rules.movegen import legal_plays, numbers_results
from rules.notation import parse_play
from rules.play import Dice, Play, Step, apply_steps, check_dice
from rules.position import OFF, Color, Position
from rules.registry import variant_of
from rules.standard import STANDARD_VARIANT
from rules.variant import GameEnd, Opening, ResultKind, Variant

__all__ = ["Bonus", "FirstMove", "Game", "GameEnd", "GameResult", "Phase", "ResultKind", "Turn", "game_result"]


class FirstMove(enum.Enum):
    """Who moves first (docs/rules.md section 1)."""

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
    PASSED = "passed"
    """Plakoto Express: the side to move must first play the numbers passed to it."""
    NAME_DOUBLE = "name_double"
    """Acey-deucey: after playing a 1-2 in full, the side to move names a double."""
    OVER = "over"


class Bonus(enum.Enum):
    """Where the side to move stands in acey-deucey's 1-2 sequence."""

    NONE = "none"
    ONE_TWO = "one_two"
    """Playing the 1-2 itself."""
    NAMED_DOUBLE = "named_double"
    """Playing the double it named after the 1-2."""
    THROW_AGAIN = "throw_again"
    """Both played in full: the same side throws again (no cube action before this throw)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """Who won, how, and for what cube; ``winner`` None is a draw (uzun's last throw, plakoto's mothers)."""

    winner: Color | None
    kind: ResultKind
    cube: int = 1
    how: GameEnd = GameEnd.BORNE_OFF

    @property
    def points(self) -> int:
        return 0 if self.winner is None else int(self.kind) * self.cube


def game_result(position: Position, cube: int = 1) -> GameResult | None:
    """The result if the board decides the game (the last checker off, plakoto's mothers), else None."""
    variant = variant_of(position)
    if variant.board_ending is not None:
        ending = variant.board_ending(position)
        if ending is not None:
            return GameResult(ending.winner, ending.kind, cube, ending.how)
    winner = position.winner()
    if winner is None:
        return None
    return GameResult(winner, variant.result_kind(position, winner), cube)


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn as it was played: who, which dice, which play.

    ``passed`` is set when the play was of numbers passed on (Plakoto
    Express); ``dice`` then holds the passed number twice.
    """

    color: Color
    dice: Dice
    play: Play
    passed: tuple[int, ...] = ()


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
    pending: tuple[int, ...] = ()
    """Plakoto Express: numbers passed to the side to move, to be played before its roll."""
    bonus: Bonus = Bonus.NONE
    """Acey-deucey: where the side to move stands in a 1-2 sequence."""

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
        opened = replace(self, position=position, phase=Phase.PLAY, dice=dice, starter=first)
        return replace(opened, bonus=opened._bonus_of(dice))

    def roll(self, first: int, second: int) -> "Game":
        """The side to move rolls two dice."""
        self._expect(Phase.ROLL, "a roll")
        dice = check_dice((first, second))
        return replace(self, phase=Phase.PLAY, dice=dice, bonus=self._bonus_of(dice))

    def name_double(self, number: int) -> "Game":
        """Acey-deucey: after a 1-2 played in full, the side to move names the double it plays."""
        self._expect(Phase.NAME_DOUBLE, "naming a double")
        dice = check_dice((number, number))
        return replace(self, phase=Phase.PLAY, dice=dice, bonus=Bonus.NAMED_DOUBLE)

    def _bonus_of(self, dice: Dice) -> Bonus:
        if self.variant.one_two_bonus and sorted(dice) == [1, 2]:
            return Bonus.ONE_TWO
        return Bonus.NONE

    def legal_plays(self) -> list[Play]:
        """The legal plays of the current dice or passed numbers (the empty play when nothing can move)."""
        if self.phase is Phase.PASSED:
            return sorted(numbers_results(self.position, self.pending).values(), key=Play.notation)
        self._expect(Phase.PLAY, "listing plays")
        assert self.dice is not None
        return legal_plays(self.position, self.dice)

    @property
    def before_roll(self) -> bool:
        """Whether the side to move is before an ordinary roll, the moment for cube actions and resigning.

        Acey-deucey's extra throw is part of the same turn, so it is not such a moment.
        """
        return self.phase is Phase.ROLL and self.bonus is not Bonus.THROW_AGAIN

    def play(self, play: Union[Play, Position, str, Sequence[Step]]) -> "Game":
        """Make a play given as steps, notation, or the board it leads to.

        Raises IllegalPlay (naming the rule) for anything the rules forbid.
        """
        if self.phase is Phase.PASSED:
            return self._play_passed(play)
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
        played = replace(self, position=after, phase=Phase.ROLL, dice=None, turns=turns, bonus=Bonus.NONE)
        settled = played._settle(mover)
        if settled.phase is Phase.OVER:
            return settled
        return settled._after_play(mover, self.dice, len(accepted.steps), self.bonus)

    def _play_passed(self, play: Union[Play, Position, str, Sequence[Step]]) -> "Game":
        """Plakoto Express: play the numbers passed on, as many as possible, then roll."""
        if isinstance(play, str):
            raise IllegalAction("give a play of passed numbers as steps or as the board it leads to")
        if isinstance(play, Position):
            accepted = judge_numbers(self.position, self.pending, play)
        else:
            steps = play.steps if isinstance(play, Play) else tuple(play)
            accepted = judge_numbers(self.position, self.pending, apply_steps(self.position, steps))
        mover = self.position.turn
        after = apply_steps(self.position, accepted.steps).with_turn(mover)
        turn = Turn(mover, (self.pending[0], self.pending[0]), accepted, passed=self.pending)
        played = replace(self, position=after, phase=Phase.ROLL, pending=(), turns=self.turns + (turn,))
        return played._settle(mover)

    def _after_play(self, mover: Color, dice: Dice, used: int, bonus: Bonus) -> "Game":
        """What follows a play that did not end the game: passed numbers, a named double, a throw."""
        if bonus is Bonus.ONE_TWO and used == 2:
            return replace(self, position=self.position.with_turn(mover), phase=Phase.NAME_DOUBLE)
        if bonus is Bonus.NAMED_DOUBLE and used == 4:
            return replace(self, position=self.position.with_turn(mover), bonus=Bonus.THROW_AGAIN)
        if self.variant.passes_unplayed and dice[0] == dice[1] and used < 4:
            return replace(self, phase=Phase.PASSED, pending=(dice[0],) * (4 - used))
        return self

    def _settle(self, mover: Color) -> "Game":
        """End the game if the board decides it, unless the last-throw rule grants a throw."""
        position = self.position
        if self.variant.board_ending is not None:
            ending = self.variant.board_ending(position)
            if ending is not None:
                result = GameResult(ending.winner, ending.kind, self.cube, ending.how)
                return replace(self, phase=Phase.OVER, result=result)
        finished = position.side(mover)[OFF] == 15
        if position.side(mover.other)[OFF] == 15:  # ``mover`` has just taken the last throw
            if finished:
                draw = GameResult(None, ResultKind.SINGLE, self.cube, GameEnd.LAST_THROW_DRAW)
                return replace(self, phase=Phase.OVER, result=draw)
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
    Phase.PASSED: "the play of the numbers passed on",
    Phase.NAME_DOUBLE: "the double to be named",
    Phase.OVER: "nothing: it is over",
}
