"""What the referee knows between events: the stage it waits in, and the values its state is made of.

The :class:`app.referee.engine.Referee` holds these; the handlers (:mod:`app.referee.handlers`) read and
replace them. Plain immutable values, so a referee is a value too and the journal can fold it back.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any, Union

from rules.chouette import Chouette, ChouetteGame
from rules.game import Game
from rules.match import Match
from rules.position import Color, Position

Tally = Union[Match, Chouette]
"""Where the rules core keeps the play and the score: a match between two, or a chouette session."""


class Stage(enum.Enum):
    """What the referee waits for."""

    OPENING = "opening"
    """The opening throw, one die each; clocks stand still."""
    ROLL = "roll"
    """The side to move throws (or doubles, or resigns)."""
    PLAY = "play"
    """The side to move plays its dice and presses the clock."""
    DOUBLE = "double"
    """A double waits for the answer."""
    RESIGNATION = "resignation"
    """A resignation waits for the answer."""
    NAME_DOUBLE = "name_double"
    """Acey-deucey: the side to move names the double it plays after a 1-2."""
    ILLEGAL = "illegal"
    """A flagged play waits for the opponent's choice: accept it or have it corrected."""
    QUESTION = "question"
    """The camera was not sure of a throw: it waits for the players (or the director) to confirm it, correct it
    or call a rethrow."""
    HALTED = "halted"
    """The director was called; both clocks stand still until the director resumes."""
    OVER = "over"


@dataclass(frozen=True)
class FlaggedPlay:
    """A play found illegal or unfinished when the clock was pressed."""

    mover: Color
    before: Position
    after: Position
    dice: tuple[int, ...]
    violations: tuple[str, ...]
    unfinished: bool


Answer = tuple[Color, str, Union[tuple[int, int], None]]
"""Who answered a question, how ("confirm", "correct", "rethrow") and, for a correction, the dice."""


@dataclass(frozen=True)
class Question:
    """An unsure throw waiting for people: the reading (values, or void with its reason), who threw it, the
    doubts, who must answer, the answers so far, and whether they disagreed (then the director decides)."""

    values: tuple[int, int] | None
    void: str | None
    thrower: Color | None
    doubts: tuple[str, ...]
    asked: tuple[Color, ...]
    answers: tuple[Answer, ...] = ()
    disputed: bool = False
    opening: bool = False
    at: int = 0
    """The number of the event that raised it (the referee's event count then)."""


@dataclass(frozen=True)
class LastPlay:
    """The last play made, for the board drawing ("" notation for a play accepted as illegal)."""

    color: Color
    dice: tuple[int, ...]
    notation: str
    before: Position
    after: Position
    legal: bool = True


@dataclass(frozen=True)
class Irregularity:
    """A breach of conduct, recorded for the director (event number, code, who, details)."""

    event: int
    code: str
    color: Color | None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Aids:
    """What casual mode shows: pip counts, the legal plays of the dice, the shot odds."""

    pips: tuple[int, int]
    legal_plays: tuple[str, ...]
    shots: str | None


def game_of(tally: Tally) -> Game:
    """The checker game in progress of a match or a chouette."""
    return tally.game.game


def with_game(tally: Tally, game: Game) -> Tally:
    """The match or chouette with its checker game in progress replaced (a play accepted as made)."""
    if isinstance(tally, Chouette):
        return replace(tally, game=replace(tally.game, game=game))
    return replace(tally, games=tally.games[:-1] + (replace(tally.game, game=game),))


def offers(game: ChouetteGame) -> list[str]:
    """The members whose cube waits for an answer."""
    return [member for member, cube in zip(game.members, game.cubes) if cube.offered_by is not None]


def cube_values(tally: Tally) -> tuple[int, ...]:
    if isinstance(tally, Chouette):
        return tuple(cube.value for cube in tally.game.cubes)
    return (tally.game.cube.value,)
