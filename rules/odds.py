"""Shot odds: how many of the 36 rolls hit a blot (casual mode and teaching only).

docs/rules.md section 1 gives the open-board figures (a given number 11/36, a
given double 1/36, a sum of 7 6/36, a blot 6 away 17/36, 7 away 6/36) and
asks for a real calculator. This one asks the move generator: a roll hits a
blot when some legal play of it hits that blot, so closed points on the way,
a checker on the bar that must enter first, doubles played four times and
the rule to use both dice are all counted as the rules have them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from rules.movegen import legal_results
from rules.play import Dice
from rules.position import BAR, Position

ROLLS: tuple[Dice, ...] = tuple((first, second) for first in range(1, 7) for second in range(1, 7))
"""The 36 equally likely rolls; 3-1 and 1-3 are two of them, a double is one."""


def count_rolls(condition: Callable[[Dice], bool]) -> int:
    """How many of the 36 rolls meet ``condition``."""
    return sum(1 for roll in ROLLS if condition(roll))


def rolls_with_number(number: int) -> int:
    """Rolls showing ``number`` on at least one die (11 of 36)."""
    return count_rolls(lambda roll: number in roll)


def rolls_with_double(number: int) -> int:
    """Rolls that are the double of ``number`` (1 of 36)."""
    return count_rolls(lambda roll: roll == (number, number))


def rolls_with_sum(total: int) -> int:
    """Rolls whose dice add up to ``total`` (6 of 36 for 7)."""
    return count_rolls(lambda roll: sum(roll) == total)


@dataclass(frozen=True, slots=True)
class Shots:
    """The rolls that hit, as ordered pairs out of :data:`ROLLS`."""

    rolls: tuple[Dice, ...]

    @property
    def count(self) -> int:
        return len(self.rolls)

    @property
    def chance(self) -> Fraction:
        return Fraction(self.count, len(ROLLS))

    def __str__(self) -> str:
        return f"{self.count}/36 ({float(self.chance):.1%})"


def shots(position: Position, point: int | None = None) -> Shots:
    """The rolls with which the side to move can hit the blot on ``point``, or any blot.

    ``point`` is in the numbering of the side to move (the shooter), as the
    points of its plays are. ValueError if no single opposing checker stands
    there.
    """
    opponent = position.opponent
    if point is not None:
        if not 1 <= point <= 24:
            raise ValueError(f"point {point} is not on the board (1-24)")
        if opponent[BAR - point] != 1:
            raise ValueError(f"there is no blot on point {point}: the opponent has {opponent[BAR - point]} there")
    hitting: list[Dice] = []
    for first in range(1, 7):
        for second in range(first, 7):
            if _hits(position, (first, second), point):
                hitting += [(first, second)] if first == second else [(first, second), (second, first)]
    return Shots(tuple(sorted(hitting)))


def _hits(position: Position, dice: Dice, point: int | None) -> bool:
    bar_before = position.opponent[BAR]
    for after in legal_results(position, dice):
        opponent = after.side(position.turn.other)
        if point is None and opponent[BAR] > bar_before:
            return True
        if point is not None and opponent[BAR - point] == 0:
            return True
    return False
