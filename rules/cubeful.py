"""One game with its cube and resignations, as the referee keeps it.

:class:`rules.game.Game` knows the checkers; this adds the doubling cube
(:mod:`rules.cube`), resignations, and how the game ended and for how many
points. Every change comes in as an :data:`Action`, is checked, and is kept
in ``actions``: the game is the fold of its actions, so a journal replays it
and a match record (:mod:`rules.mat`) can be written from it.

Resignations (docs/rules.md section 2 leaves them open; this follows GNU
Backgammon): a player offers, on their own turn before rolling, to lose a
single game, a gammon or a backgammon; the opponent accepts (the game ends
at that level times the cube) or declines (play goes on).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Sequence, Union

from rules.cube import Cube, CubeRule, CubeRules, cube_error
from rules.errors import IllegalAction
from rules.game import FirstMove, Game, GameEnd, Phase, ResultKind
from rules.play import Dice, Play, Step, check_dice
from rules.position import Color, Position
from rules.standard import STANDARD_VARIANT
from rules.variant import Variant


@dataclass(frozen=True, slots=True)
class OpeningThrow:
    """Each side throws one die (a tie is thrown again)."""

    white: int
    black: int


@dataclass(frozen=True, slots=True)
class Roll:
    """The side to move rolls; the dice are kept high die first, so equal rolls compare equal."""

    dice: Dice

    def __post_init__(self) -> None:
        first, second = check_dice(self.dice)
        object.__setattr__(self, "dice", (max(first, second), min(first, second)))


@dataclass(frozen=True, slots=True)
class Move:
    """The side to move plays its dice (or, in Plakoto Express, the numbers passed to it)."""

    play: Play


@dataclass(frozen=True, slots=True)
class NameDouble:
    """Acey-deucey: after a 1-2 played in full, the side to move names the double it plays."""

    number: int


@dataclass(frozen=True, slots=True)
class PlayerAction:
    """An action one player takes by name; subclasses differ only in what they mean."""

    by: Color


@dataclass(frozen=True, slots=True)
class Double(PlayerAction):
    """``by`` offers the cube."""


@dataclass(frozen=True, slots=True)
class Take(PlayerAction):
    """``by`` accepts the double and owns the cube."""


@dataclass(frozen=True, slots=True)
class Drop(PlayerAction):
    """``by`` refuses the double and pays the value before it."""


@dataclass(frozen=True, slots=True)
class Beaver(PlayerAction):
    """``by``, just doubled, redoubles at once and keeps the cube (money only)."""


@dataclass(frozen=True, slots=True)
class Raccoon(PlayerAction):
    """``by``, just beavered, redoubles once more (money only, an option)."""


@dataclass(frozen=True, slots=True)
class Resign:
    """``by`` offers to lose the game at ``level`` (single, gammon or backgammon)."""

    by: Color
    level: ResultKind


@dataclass(frozen=True, slots=True)
class AcceptResignation(PlayerAction):
    """``by`` accepts the resignation offered to it."""


@dataclass(frozen=True, slots=True)
class RejectResignation(PlayerAction):
    """``by`` declines the resignation offered to it."""


Action = Union[
    OpeningThrow,
    Roll,
    Move,
    NameDouble,
    Double,
    Take,
    Drop,
    Beaver,
    Raccoon,
    Resign,
    AcceptResignation,
    RejectResignation,
]
"""Everything that can happen in a game, in the order it happened."""


class Ending(enum.Enum):
    """How a game ended."""

    BORNE_OFF = "borne off"
    """Played to the last checker."""
    MOTHER_PINNED = "mother pinned"
    """Plakoto: decided by a pinned mother, or drawn with both mothers pinned."""
    DROPPED = "dropped"
    """A double was refused."""
    RESIGNED = "resigned"
    """A resignation was accepted."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won a game, how, and for how many points.

    ``cube`` is the value the points were counted with (for a drop, the value
    before the double); ``points`` includes the Jacoby rule. ``winner`` is
    None only for a draw (uzun tavla's last-throw rule), worth nothing.
    """

    winner: Color | None
    kind: ResultKind
    cube: int
    ending: Ending
    points: int


@dataclass(frozen=True, slots=True)
class CubefulGame:
    """A game with its cube and resignation state; immutable, the fold of ``actions``."""

    game: Game
    cube: Cube
    resignation: Resign | None = None
    outcome: Outcome | None = None
    actions: tuple[Action, ...] = ()

    @classmethod
    def new(
        cls,
        rules: CubeRules = CubeRules(),
        *,
        crawford: bool = False,
        variant: Variant = STANDARD_VARIANT,
        first_move: FirstMove = FirstMove.OPENING_ROLL,
        previous_winner: Color | None = None,
    ) -> "CubefulGame":
        """A new game; ``crawford`` makes it the Crawford game (no cube)."""
        game = Game.new(first_move, previous_winner, variant=variant)
        return cls(game, Cube(rules, crawford=crawford, in_use=variant.cube))

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def rolled(self) -> bool:
        """Whether the side to move is past the moment for a cube action or a resignation.

        That moment is before an ordinary roll (see :attr:`Game.before_roll`).
        """
        return not self.game.before_roll

    @property
    def to_act(self) -> Color | None:
        """Who must act next (None before the opening throw and after the end)."""
        if self.over or self.game.phase is Phase.OPENING:
            return None
        if self.cube.offered_by is not None:
            return self.cube.offered_by.other
        if self.resignation is not None:
            return self.resignation.by.other
        return self.game.position.turn

    def may_double(self, by: Color) -> bool:
        return not self.over and self.resignation is None and self._cube_ready(by)

    def apply(self, action: Action) -> "CubefulGame":
        """The game after ``action``; raises a RulesError naming the rule if it is not allowed."""
        if self.over:
            if isinstance(action, (Double, Take, Drop, Beaver, Raccoon)):
                raise cube_error(CubeRule.GAME_OVER)
            raise IllegalAction(f"{_describe(action)} is not allowed: the game is over")
        if isinstance(action, OpeningThrow):
            return self._opening(action)
        if isinstance(action, Roll):
            self._no_answer_waiting("rolling")
            return self._next(action, game=self.game.roll(*action.dice))
        if isinstance(action, NameDouble):
            self._no_answer_waiting("naming a double")
            return self._next(action, game=self.game.name_double(action.number))
        if isinstance(action, Move):
            self._no_answer_waiting("a play")
            game = self.game.play(action.play)
            accepted = Move(game.turns[-1].play)
            after = self._next(accepted, game=game)
            result = game.result
            if result is None:
                return after
            ending = Ending.BORNE_OFF
            if result.how in (GameEnd.MOTHER_PINNED, GameEnd.BOTH_MOTHERS_PINNED):
                ending = Ending.MOTHER_PINNED
            if result.winner is None:
                outcome = Outcome(None, result.kind, self.cube.value, ending, 0)
            else:
                outcome = Outcome(result.winner, result.kind, self.cube.value, ending, self.cube.points(result.kind))
            return replace(after, outcome=outcome)
        if isinstance(action, (Resign, AcceptResignation, RejectResignation)):
            return self._resignation(action)
        return self._cube_action(action)

    def _opening(self, action: OpeningThrow) -> "CubefulGame":
        game = self.game.opening_throw(action.white, action.black)
        cube = self.cube
        if action.white == action.black and cube.automatic_refusal() is None:
            cube = cube.automatic_double()
        return self._next(action, game=game, cube=cube)

    def _cube_action(self, action: Union[Double, Take, Drop, Beaver, Raccoon]) -> "CubefulGame":
        if isinstance(action, Double):
            if self.resignation is not None:
                raise IllegalAction("a resignation is waiting for an answer: answer it before doubling")
            if self.game.phase is Phase.OPENING:
                raise cube_error(CubeRule.NOT_YOUR_TURN, "nobody's turn has begun before the opening throw")
            cube = self.cube.double(action.by, to_move=self.game.position.turn, rolled=self.rolled)
            return self._next(action, cube=cube)
        if isinstance(action, Take):
            return self._next(action, cube=self.cube.take(action.by))
        if isinstance(action, Beaver):
            return self._next(action, cube=self.cube.beaver(action.by))
        if isinstance(action, Raccoon):
            return self._next(action, cube=self.cube.raccoon(action.by))
        paid = self.cube.drop(action.by)
        game = replace(self.game, phase=Phase.OVER, dice=None)
        outcome = Outcome(action.by.other, ResultKind.SINGLE, paid, Ending.DROPPED, paid)
        return replace(self._next(action, game=game, cube=replace(self.cube, offered_by=None)), outcome=outcome)

    def _resignation(self, action: Union[Resign, AcceptResignation, RejectResignation]) -> "CubefulGame":
        if isinstance(action, Resign):
            self._no_answer_waiting("resigning")
            if self.game.phase is Phase.OPENING:
                raise IllegalAction("a resignation is not allowed before the opening throw")
            turn = self.game.position.turn
            name = action.by.name.capitalize()
            if action.by is not turn:
                raise IllegalAction(f"{name} may resign only on its own turn: it is {turn.name.capitalize()}'s")
            if self.rolled:
                raise IllegalAction(f"{name} has rolled: a resignation is offered before rolling")
            return replace(self._next(action), resignation=action)
        offer = self.resignation
        if offer is None:
            raise IllegalAction("there is no resignation to answer")
        if action.by is offer.by:
            raise IllegalAction(f"{action.by.name.capitalize()} offered the resignation: the opponent answers it")
        if isinstance(action, RejectResignation):
            return replace(self._next(action), resignation=None)
        game = replace(self.game, phase=Phase.OVER, dice=None)
        winner = action.by
        outcome = Outcome(winner, offer.level, self.cube.value, Ending.RESIGNED, self.cube.points(offer.level))
        return replace(self._next(action, game=game), resignation=None, outcome=outcome)

    def _next(self, action: Action, *, game: Game | None = None, cube: Cube | None = None) -> "CubefulGame":
        new_cube = self.cube if cube is None else cube
        if not isinstance(action, Beaver):
            new_cube = new_cube.raccoon_passed()
        new_game = self.game if game is None else game
        if new_game.cube != new_cube.value:  # keep the checker game's own result in step
            new_game = replace(new_game, cube=new_cube.value)
        return replace(self, game=new_game, cube=new_cube, actions=self.actions + (action,))

    def _cube_ready(self, by: Color) -> bool:
        if self.game.phase not in (Phase.ROLL, Phase.PLAY):
            return False
        return self.cube.may_double(by, to_move=self.game.position.turn, rolled=self.rolled)

    def _no_answer_waiting(self, what: str) -> None:
        if self.cube.offered_by is not None:
            doubled = self.cube.offered_by.other.name.capitalize()
            raise IllegalAction(f"{what} is not allowed now: a double is waiting for {doubled}'s answer")
        if self.resignation is not None:
            answering = self.resignation.by.other.name.capitalize()
            raise IllegalAction(f"{what} is not allowed now: a resignation is waiting for {answering}'s answer")

    # The same actions as methods, for callers that do not build Action values.

    def opening_throw(self, white: int, black: int) -> "CubefulGame":
        return self.apply(OpeningThrow(white, black))

    def roll(self, first: int, second: int) -> "CubefulGame":
        return self.apply(Roll((first, second)))

    def name_double(self, number: int) -> "CubefulGame":
        return self.apply(NameDouble(number))

    def play(self, play: Union[Play, Position, str, Sequence[Step]]) -> "CubefulGame":
        """Play given as a Play, steps, notation or the board it leads to (see Game.play)."""
        if isinstance(play, Play):
            return self.apply(Move(play))
        self._no_answer_waiting("a play")
        game = self.game.play(play)
        return self.apply(Move(game.turns[-1].play))

    def double(self, by: Color) -> "CubefulGame":
        return self.apply(Double(by))

    def take(self, by: Color) -> "CubefulGame":
        return self.apply(Take(by))

    def drop(self, by: Color) -> "CubefulGame":
        return self.apply(Drop(by))

    def beaver(self, by: Color) -> "CubefulGame":
        return self.apply(Beaver(by))

    def raccoon(self, by: Color) -> "CubefulGame":
        return self.apply(Raccoon(by))

    def resign(self, by: Color, level: ResultKind = ResultKind.SINGLE) -> "CubefulGame":
        return self.apply(Resign(by, level))

    def accept_resignation(self, by: Color) -> "CubefulGame":
        return self.apply(AcceptResignation(by))

    def reject_resignation(self, by: Color) -> "CubefulGame":
        return self.apply(RejectResignation(by))


def _describe(action: Action) -> str:
    return type(action).__name__.lower()
