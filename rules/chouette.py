"""Chouette ("şuet"): one player, the box, against a team of two to seven.

docs/rules.md section 2. The team's checkers are moved by its captain, the first
of the line; every team member holds a cube of its own against the box and
settles with the box separately. On the team's turn any member may double
the box on its own cube, and the box answers each of them; on the box's
turn the box may double any member, and each answers for itself. A member
who drops, or whom the box drops, is out of the game with that cube's
points; the checkers are then moved by the next member still in, and when
nobody is left the game is over.

After each game the line turns: if the captain won against the box, the
captain becomes the box and the old box goes to the end of the line;
otherwise the box stays and the captain goes to the end of the line. Points
are kept per person in a ledger that always sums to zero.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Union

from rules.cube import Cube, CubeRule, CubeRules, cube_error
from rules.cubeful import Move, OpeningThrow, Roll
from rules.errors import IllegalAction
from rules.game import Game, Phase
from rules.position import Color

MIN_PLAYERS = 3
MAX_PLAYERS = 8


class CubeMove(enum.Enum):
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"


@dataclass(frozen=True, slots=True)
class MemberCube:
    """``by`` (the box, or ``member`` itself) acts on the cube between the box and ``member``."""

    member: str
    move: CubeMove
    by: str


ChouetteAction = Union[OpeningThrow, Roll, Move, MemberCube]


@dataclass(frozen=True, slots=True)
class ChouetteGame:
    """One game of a chouette: the checkers, and one cube per team member.

    ``members`` is the team in line order, captain first. ``settled`` holds,
    per member, what it won from the box (negative: what it paid) once its
    game is over, else None.
    """

    game: Game
    box: str
    box_color: Color
    members: tuple[str, ...]
    cubes: tuple[Cube, ...]
    settled: tuple[int | None, ...]
    actions: tuple[ChouetteAction, ...] = ()

    @classmethod
    def new(
        cls, box: str, members: tuple[str, ...], rules: CubeRules, box_color: Color = Color.WHITE
    ) -> "ChouetteGame":
        """A new game; the box plays ``box_color``, the team the other colour."""
        money = replace(rules, money=True)
        return cls(Game.new(), box, box_color, members, tuple(Cube(money) for _ in members), (None,) * len(members))

    @property
    def team_color(self) -> Color:
        return self.box_color.other

    @property
    def over(self) -> bool:
        return all(points is not None for points in self.settled)

    @property
    def captain(self) -> str:
        return self.members[0]

    @property
    def acting_captain(self) -> str | None:
        """Who moves the team's checkers now: the first member still in the game."""
        for member, points in zip(self.members, self.settled):
            if points is None:
                return member
        return None

    def cube_of(self, member: str) -> Cube:
        return self.cubes[self._index(member)]

    def apply(self, action: ChouetteAction) -> "ChouetteGame":
        if self.over:
            raise IllegalAction("the chouette game is over")
        if isinstance(action, MemberCube):
            return self._cube_move(action)
        waiting = [m for m, cube in zip(self.members, self.cubes) if cube.offered_by is not None]
        if waiting and not isinstance(action, OpeningThrow):
            raise IllegalAction(f"doubles are waiting for an answer (cubes of {', '.join(waiting)})")
        if isinstance(action, OpeningThrow):
            game = self.game.opening_throw(action.white, action.black)
            cubes = self.cubes
            if action.white == action.black:
                cubes = tuple(c.automatic_double() if c.automatic_refusal() is None else c for c in cubes)
            return self._next(action, game=game, cubes=cubes)
        if isinstance(action, Roll):
            return self._next(action, game=self.game.roll(*action.dice))
        game = self.game.play(action.play)
        after = self._next(Move(game.turns[-1].play), game=game)
        result = game.result
        if result is None or result.winner is None:
            return after
        sign = 1 if result.winner is self.team_color else -1
        settled = tuple(
            points if points is not None else sign * cube.points(result.kind)
            for points, cube in zip(self.settled, self.cubes)
        )
        return replace(after, settled=settled)

    def _cube_move(self, action: MemberCube) -> "ChouetteGame":
        index = self._index(action.member)
        if self.settled[index] is not None:
            raise IllegalAction(f"{action.member} is out of this game: its cube was dropped")
        cube = self.cubes[index]
        if action.by == self.box:
            by = self.box_color
        elif action.by == action.member:
            by = self.team_color
        else:
            raise IllegalAction(
                f"{action.by} has no say on {action.member}'s cube: only {action.member} and the box ({self.box}) have"
            )
        if action.move is CubeMove.DOUBLE:
            if self.game.phase is Phase.OPENING:
                raise cube_error(CubeRule.NOT_YOUR_TURN, "nobody's turn has begun before the opening throw")
            cube = cube.double(by, to_move=self.game.position.turn, rolled=not self.game.before_roll)
            return self._next(action, cubes=self._with(index, cube))
        if action.move is CubeMove.RACCOON:
            return self._next(action, cubes=self._with(index, cube.raccoon(by)))
        if action.move is CubeMove.TAKE:
            return self._next(action, cubes=self._with(index, cube.take(by)))
        if action.move is CubeMove.BEAVER:
            return self._next(action, cubes=self._with(index, cube.beaver(by)))
        paid = cube.drop(by)
        points = -paid if by is self.team_color else paid
        cubes = self._with(index, replace(cube, offered_by=None))
        settled = self.settled[:index] + (points,) + self.settled[index + 1 :]
        after = replace(self._next(action, cubes=cubes), settled=settled)
        if after.over:
            return replace(after, game=replace(after.game, phase=Phase.OVER, dice=None))
        return after

    def _next(
        self, action: ChouetteAction, *, game: Game | None = None, cubes: tuple[Cube, ...] | None = None
    ) -> "ChouetteGame":
        new_cubes = self.cubes if cubes is None else cubes
        if not (isinstance(action, MemberCube) and action.move is CubeMove.BEAVER):
            new_cubes = tuple(cube.raccoon_passed() for cube in new_cubes)
        return replace(
            self, game=self.game if game is None else game, cubes=new_cubes, actions=self.actions + (action,)
        )

    def _with(self, index: int, cube: Cube) -> tuple[Cube, ...]:
        return self.cubes[:index] + (cube,) + self.cubes[index + 1 :]

    def _index(self, member: str) -> int:
        try:
            return self.members.index(member)
        except ValueError:
            raise IllegalAction(f"{member} is not on the team (the team is {', '.join(self.members)})") from None


@dataclass(frozen=True, slots=True)
class Chouette:
    """A chouette session: who is box, the line, the game in progress, and the ledger.

    ``line`` is the team in order, captain first. ``ledger`` is each
    player's running total, in the order of ``players``; ``finished`` holds
    the games played, each with its settlement.
    """

    players: tuple[str, ...]
    box: str
    line: tuple[str, ...]
    ledger: tuple[int, ...]
    rules: CubeRules
    game: ChouetteGame
    finished: tuple[ChouetteGame, ...] = ()

    @classmethod
    def new(cls, players: tuple[str, ...], rules: CubeRules = CubeRules(money=True)) -> "Chouette":
        """A session in the given order: the first player is the box, the second the captain."""
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"a chouette has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
        if len(set(players)) != len(players) or not all(name.strip() for name in players):
            raise ValueError(f"chouette players need distinct names: {players!r}")
        line = tuple(players[1:])
        return cls(players, players[0], line, (0,) * len(players), rules, ChouetteGame.new(players[0], line, rules))

    @property
    def captain(self) -> str:
        return self.line[0]

    def balance(self, player: str) -> int:
        return self.ledger[self.players.index(player)]

    def apply(self, action: ChouetteAction) -> "Chouette":
        """The session after ``action``; at a game's end: settle, turn the line, start the next game."""
        game = self.game.apply(action)
        if not game.over:
            return replace(self, game=game)
        ledger = list(self.ledger)
        for member, points in zip(game.members, game.settled):
            assert points is not None
            ledger[self.players.index(member)] += points
            ledger[self.players.index(self.box)] -= points
        captain_points = game.settled[0]
        assert captain_points is not None
        if captain_points > 0:
            box, line = self.captain, self.line[1:] + (self.box,)
        else:
            box, line = self.box, self.line[1:] + (self.captain,)
        return replace(
            self,
            box=box,
            line=line,
            ledger=tuple(ledger),
            game=ChouetteGame.new(box, line, self.rules),
            finished=self.finished + (game,),
        )
