"""Matches to N points and money sessions: score, Crawford, the end of a match.

A :class:`Match` is the fold of its actions like the games in it: it holds
every game so far (:class:`rules.cubeful.CubefulGame`), the last one being
the game in progress, and starts the next game by itself when one ends.
Length 0 is a money session, as in GNU Backgammon: there is no end, the
score is the running total of points each player has won, and the
money-only cube rules (beavers, raccoons, automatic doubles, Jacoby) apply.

Crawford rule (docs/rules.md section 2): the game after a player first reaches
one point short of the length is played without the cube; the games after
it are post-Crawford. A match ends when a player reaches the length, or when
a player's time runs out on the clock (:meth:`Match.lose_on_time`), which is
an ending of its own.
"""

from __future__ import annotations

import datetime
import enum
import zlib
from dataclasses import dataclass, field, replace
from typing import Iterable

from rules.cube import CubeRules
from rules.cubeful import Action, CubefulGame, Outcome
from rules.errors import IllegalAction
from rules.game import FirstMove
from rules.position import Color
from rules.standard import STANDARD_VARIANT
from rules.variant import Variant


class MatchEnd(enum.Enum):
    """Why a match ended."""

    POINTS = "points"
    """The winner reached the match length."""
    TIME = "time"
    """The loser's time ran out on the clock (docs/rules.md section 5)."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    winner: Color
    end: MatchEnd


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How a match or money session is played. ``length`` 0 is a money session.

    What does not apply is cleared, so equal rules compare equal: the
    Crawford rule in a money session, and the money-only cube options
    (beavers, raccoons, automatic doubles, Jacoby) in a match.
    """

    length: int
    crawford: bool = True
    cube: CubeRules = CubeRules()
    first_move: FirstMove = FirstMove.OPENING_ROLL
    variant: Variant = STANDARD_VARIANT

    def __post_init__(self) -> None:
        if self.length < 0:
            raise ValueError(f"a match is played to 1 point or more (0 for money), not {self.length}")
        if self.length == 0:
            object.__setattr__(self, "crawford", False)
            object.__setattr__(self, "cube", replace(self.cube, money=True))
        else:
            object.__setattr__(self, "cube", CubeRules(max_value=self.cube.max_value))

    @property
    def is_money(self) -> bool:
        return self.length == 0


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """What a match record says about the event; none of it changes the play.

    ``record_id`` identifies the match to programs that keep a database of
    imported matches (eXtreme Gammon's "Match ID" tag, a signed 32-bit
    number); by default it is derived from the rest of the header, so
    writing a match twice gives the same number.
    """

    players: tuple[str, str] = ("White", "Black")
    event: str = ""
    round: str = ""
    site: str = ""
    date: datetime.date | None = None
    time: datetime.time | None = None
    record_id: int = field(default=0)

    def __post_init__(self) -> None:
        if len(self.players) != 2 or not all(name.strip() == name and name for name in self.players):
            raise ValueError(f"a match needs two player names without spaces around them, got {self.players!r}")
        for text in (*self.players, self.event, self.round, self.site):
            if "\n" in text or "\r" in text:
                raise ValueError(f"header fields are one line each: {text!r}")
        if not self.record_id:
            text = "|".join(
                [*self.players, self.event, self.round, self.site, str(self.date or ""), str(self.time or "")]
            )
            number = zlib.crc32(text.encode("utf-8")) or 1
            object.__setattr__(self, "record_id", number - (1 << 32) if number >= 1 << 31 else number)


@dataclass(frozen=True, slots=True)
class Match:
    """A match or money session at one moment; immutable.

    ``games`` ends with the game in progress (a fresh one right after a game
    ends) unless the match is over. ``score`` is (White, Black).
    """

    rules: MatchRules
    header: MatchHeader
    games: tuple[CubefulGame, ...]
    score: tuple[int, int] = (0, 0)
    result: MatchResult | None = None

    @classmethod
    def new(
        cls,
        length: int,
        header: MatchHeader = MatchHeader(),
        *,
        crawford: bool = True,
        cube: CubeRules = CubeRules(),
        first_move: FirstMove = FirstMove.OPENING_ROLL,
        variant: Variant = STANDARD_VARIANT,
    ) -> "Match":
        """A match to ``length`` points (0: a money session) with its first game ready."""
        rules = MatchRules(length, crawford, cube, first_move, variant)
        return cls(rules, header, (_new_game(rules, crawford_game=False, previous_winner=None),))

    @classmethod
    def money_session(
        cls, header: MatchHeader = MatchHeader(), cube: CubeRules = CubeRules(), *, variant: Variant = STANDARD_VARIANT
    ) -> "Match":
        """A money session (a match of length 0): the money-only cube rules apply."""
        return cls.new(0, header, cube=cube, variant=variant)

    @classmethod
    def replay(cls, start: "Match", actions: Iterable[Action | "TimeOut"]) -> "Match":
        """Fold a journal of actions into ``start`` (a new match)."""
        match = start
        for action in actions:
            match = match.lose_on_time(action.loser) if isinstance(action, TimeOut) else match.apply(action)
        return match

    @property
    def length(self) -> int:
        return self.rules.length

    @property
    def is_money(self) -> bool:
        return self.rules.is_money

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def game(self) -> CubefulGame:
        """The game in progress (the last game, finished, once the match is over)."""
        return self.games[-1]

    @property
    def finished_games(self) -> tuple[CubefulGame, ...]:
        return tuple(game for game in self.games if game.over)

    @property
    def is_crawford(self) -> bool:
        """Whether the game in progress is the Crawford game."""
        return self.game.cube.crawford

    @property
    def post_crawford(self) -> bool:
        """Whether the Crawford game has been played and the match goes on."""
        return not self.is_crawford and any(game.cube.crawford for game in self.games)

    def away(self, color: Color) -> int:
        """Points ``color`` still needs to win the match (0 in a money session)."""
        return max(self.length - self.score[color], 0) if self.length else 0

    def net(self, color: Color) -> int:
        """Money: what ``color`` is up (or down, negative) over the session."""
        return self.score[color] - self.score[color.other]

    def scores_before(self) -> list[tuple[int, int]]:
        """The score at the start of each game in ``games``."""
        scores = []
        white = black = 0
        for game in self.games:
            scores.append((white, black))
            if game.outcome is not None and game.outcome.winner is not None:
                if game.outcome.winner is Color.WHITE:
                    white += game.outcome.points
                else:
                    black += game.outcome.points
        return scores

    def apply(self, action: Action) -> "Match":
        """The match after ``action`` in the game in progress; starts the next game at a game's end."""
        if self.result is not None:
            raise IllegalAction(f"the match is over: {self.header.players[self.result.winner]} has won it")
        game = self.game.apply(action)
        games = self.games[:-1] + (game,)
        if game.outcome is None:
            return replace(self, games=games)
        score = _add(self.score, game.outcome)
        if self.length and max(score) >= self.length:
            winner = Color.WHITE if score[0] >= self.length else Color.BLACK
            return replace(self, games=games, score=score, result=MatchResult(winner, MatchEnd.POINTS))
        crawford_game = (
            self.rules.crawford
            and self.length >= 2
            and self.length - 1 in score
            and not any(g.cube.crawford for g in games)
        )
        following = _new_game(self.rules, crawford_game, game.outcome.winner)
        return replace(self, games=games + (following,), score=score)

    def lose_on_time(self, loser: Color) -> "Match":
        """``loser``'s time ran out: the match ends at once, the game in progress unfinished."""
        if self.result is not None:
            raise IllegalAction("the match is already over")
        if self.is_money:
            raise IllegalAction("a money session has no clock to lose on: only a match is lost on time")
        return replace(self, result=MatchResult(loser.other, MatchEnd.TIME))

    def actions(self) -> list[Action | "TimeOut"]:
        """The journal of the whole match: every game's actions, then the time-out if any."""
        journal: list[Action | TimeOut] = [action for game in self.games for action in game.actions]
        if self.result is not None and self.result.end is MatchEnd.TIME:
            journal.append(TimeOut(self.result.winner.other))
        return journal


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The journal entry of a match lost on time."""

    loser: Color


def _add(score: tuple[int, int], outcome: Outcome) -> tuple[int, int]:
    if outcome.winner is None:
        return score
    if outcome.winner is Color.WHITE:
        return (score[0] + outcome.points, score[1])
    return (score[0], score[1] + outcome.points)


def _new_game(rules: MatchRules, crawford_game: bool, previous_winner: Color | None) -> CubefulGame:
    return CubefulGame.new(
        rules.cube,
        crawford=crawford_game,
        variant=rules.variant,
        first_move=rules.first_move,
        previous_winner=previous_winner,
    )
