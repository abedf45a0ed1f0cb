"""The doubling cube as a value: who may double now, and what the game is worth.

docs/rules.md section 2. The cube starts centred at 1. A player may offer a double
on their own turn before rolling, when the cube is centred or theirs, never
in the Crawford game and never past the highest value. A take doubles the
value and gives the taker the cube; a drop ends the game and the dropper pays
the value before the double. Money play adds beavers (the doubled player
redoubles at once and keeps the cube), raccoons (the doubler redoubles the
beaver at once; off by default), automatic doubles on opening ties (the cube
stays centred) and the Jacoby rule.

A beaver and a raccoon are in force at once, with no answer, as GNU
Backgammon records them in a .mat file; the raccoon is open to the doubler
only as the very next action after the beaver.

Every refusal raises :class:`IllegalCubeAction` whose ``rule`` is a
:class:`CubeRule`, so the referee can say which rule was broken.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from rules.errors import IllegalCubeAction
from rules.game import ResultKind
from rules.position import Color

DEFAULT_MAX_CUBE = 64
"""The highest cube value (docs/rules.md section 2: the face 64)."""


class CubeRule(enum.Enum):
    """A cube rule an action broke; the value is the sentence shown to people."""

    NO_CUBE = "this game is played without the doubling cube"
    GAME_OVER = "the game is over"
    CRAWFORD = "nobody may double in the Crawford game"
    NOT_YOUR_TURN = "a double may be offered only on one's own turn"
    AFTER_ROLL = "a double must be offered before rolling"
    NOT_OWNER = "only the owner of the cube may double (either side while it is centred)"
    MAXIMUM = "the cube cannot go past its highest value"
    OFFER_PENDING = "a double is already waiting for an answer"
    NO_OFFER = "there is no double to answer"
    NOT_DOUBLED = "only the doubled player may take, drop or beaver"
    MONEY_ONLY = "beavers, raccoons and automatic doubles belong to money play only"
    BEAVERS_OFF = "beavers are not allowed in this session"
    RACCOONS_OFF = "raccoons are not allowed in this session"
    NO_BEAVER = "only the doubler may raccoon, at once after a beaver, before rolling"
    AUTOMATIC_LIMIT = "the automatic doubles of this game are used up"


@dataclass(frozen=True, slots=True)
class CubeRules:
    """The cube's rules for one match or money session.

    ``max_value`` None means no limit. Beavers, raccoons, automatic doubles
    (the most per game; 0 for none) and the Jacoby rule apply only when
    ``money`` is set: they never exist in match play.
    """

    money: bool = False
    max_value: int | None = DEFAULT_MAX_CUBE
    beavers: bool = True
    raccoons: bool = False
    automatic_doubles: int = 1
    jacoby: bool = True

    def __post_init__(self) -> None:
        top = self.max_value
        if top is not None and (top < 1 or top & (top - 1)):
            raise ValueError(f"the highest cube value must be a power of two, not {top}")
        if self.automatic_doubles < 0:
            raise ValueError(f"the number of automatic doubles cannot be negative ({self.automatic_doubles})")


@dataclass(frozen=True, slots=True)
class Cube:
    """The cube of one game at one moment; every action returns the next cube.

    ``offered_by`` is the doubler while a double waits for an answer;
    ``raccoon_by`` is the doubler right after a beaver (until anything else happens).
    ``automatic`` counts this game's automatic doubles. ``crawford`` marks the
    Crawford game and ``in_use`` is False for variants played without a cube.
    """

    rules: CubeRules = CubeRules()
    value: int = 1
    owner: Color | None = None
    offered_by: Color | None = None
    raccoon_by: Color | None = None
    automatic: int = 0
    crawford: bool = False
    in_use: bool = True

    @property
    def centred(self) -> bool:
        return self.owner is None

    @property
    def turned(self) -> bool:
        """Whether anyone has taken a double (automatic doubles leave the cube centred)."""
        return self.owner is not None

    @property
    def jacoby_applies(self) -> bool:
        """Money play with the Jacoby rule and a cube never turned: gammons count single."""
        return self.rules.money and self.rules.jacoby and not self.turned

    def points(self, kind: ResultKind) -> int:
        """What a win of ``kind`` is worth with this cube (the Jacoby rule included)."""
        if self.jacoby_applies:
            return self.value
        return int(kind) * self.value

    def may_double(self, by: Color, *, to_move: Color, rolled: bool) -> bool:
        return self.double_refusal(by, to_move=to_move, rolled=rolled) is None

    def double_refusal(self, by: Color, *, to_move: Color, rolled: bool) -> IllegalCubeAction | None:
        """Why ``by`` may not double now (the error to raise), or None if it may."""
        name = by.name.capitalize()
        if not self.in_use:
            return cube_error(CubeRule.NO_CUBE)
        if self.crawford:
            return cube_error(CubeRule.CRAWFORD)
        if self.offered_by is not None:
            return cube_error(CubeRule.OFFER_PENDING, f"{self.offered_by.name.capitalize()} has doubled")
        if by is not to_move:
            return cube_error(CubeRule.NOT_YOUR_TURN, f"it is {to_move.name.capitalize()}'s turn, not {name}'s")
        if rolled:
            return cube_error(CubeRule.AFTER_ROLL, f"{name} has already rolled")
        if self.owner is not None and self.owner is not by:
            return cube_error(CubeRule.NOT_OWNER, f"{self.owner.name.capitalize()} owns the cube")
        return self._room_for(2)

    def double(self, by: Color, *, to_move: Color, rolled: bool) -> "Cube":
        """``by`` offers a double; the value changes only when it is taken."""
        refusal = self.double_refusal(by, to_move=to_move, rolled=rolled)
        if refusal is not None:
            raise refusal
        return replace(self, offered_by=by, raccoon_by=None)

    def take(self, by: Color) -> "Cube":
        """The doubled player takes: twice the value, and the cube is theirs."""
        self._check_answer(by)
        return replace(self, value=self.value * 2, owner=by, offered_by=None)

    def drop(self, by: Color) -> int:
        """The doubled player drops; returns what it pays: the value before the double."""
        self._check_answer(by)
        return self.value

    def beaver(self, by: Color) -> "Cube":
        """The doubled player takes and redoubles at once, keeping the cube (money only)."""
        self._check_answer(by)
        if not self.rules.money:
            raise cube_error(CubeRule.MONEY_ONLY, "this is match play")
        if not self.rules.beavers:
            raise cube_error(CubeRule.BEAVERS_OFF)
        refusal = self._room_for(4)
        if refusal is not None:
            raise refusal
        return replace(self, value=self.value * 4, owner=by, offered_by=None, raccoon_by=by.other)

    def raccoon(self, by: Color) -> "Cube":
        """The doubler redoubles the beaver at once and owns the cube (money, option)."""
        if not self.rules.money:
            raise cube_error(CubeRule.MONEY_ONLY, "this is match play")
        if not self.rules.raccoons:
            raise cube_error(CubeRule.RACCOONS_OFF)
        if self.raccoon_by is not by:
            raise cube_error(CubeRule.NO_BEAVER)
        refusal = self._room_for(2)
        if refusal is not None:
            raise refusal
        return replace(self, value=self.value * 2, owner=by, raccoon_by=None)

    def raccoon_passed(self) -> "Cube":
        """Anything but a raccoon happened after a beaver: the chance to raccoon is gone."""
        return replace(self, raccoon_by=None) if self.raccoon_by is not None else self

    def automatic_refusal(self) -> IllegalCubeAction | None:
        """Why an opening tie does not double the stake, or None if it does."""
        if not self.in_use:
            return cube_error(CubeRule.NO_CUBE)
        if not self.rules.money:
            return cube_error(CubeRule.MONEY_ONLY, "this is match play")
        if self.automatic >= self.rules.automatic_doubles:
            return cube_error(CubeRule.AUTOMATIC_LIMIT, f"at most {self.rules.automatic_doubles} per game")
        return self._room_for(2)

    def automatic_double(self) -> "Cube":
        """An opening tie doubles the stake; the cube stays centred."""
        refusal = self.automatic_refusal()
        if refusal is not None:
            raise refusal
        return replace(self, value=self.value * 2, automatic=self.automatic + 1)

    def _check_answer(self, by: Color) -> None:
        if self.offered_by is None:
            raise cube_error(CubeRule.NO_OFFER)
        if by is self.offered_by:
            raise cube_error(CubeRule.NOT_DOUBLED, f"{by.name.capitalize()} is the doubler")

    def _room_for(self, factor: int) -> IllegalCubeAction | None:
        top = self.rules.max_value
        if top is not None and self.value * factor > top:
            return cube_error(CubeRule.MAXIMUM, f"the cube is at {self.value} and may not pass {top}")
        return None


def cube_error(rule: CubeRule, detail: str = "") -> IllegalCubeAction:
    """The error for a cube action that breaks ``rule``: the rule's sentence, then the detail."""
    return IllegalCubeAction(f"{rule.value}: {detail}" if detail else rule.value, rule)
