"""What a single checker step may do: the knobs of the one generic move search.

Every variant is the same search over the dice with different answers to a
few questions: where does my point p face the opponent's numbering, what
does landing on an opposing checker do, must the bar be emptied first, may
checkers be borne off yet, how many may leave the head, are six-point blocks
allowed. The referee's diagnosis switches single rules off to find out which
one a play broke.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

BAR_SLOT = 25
HEAD = 24


class Landing(enum.Enum):
    """What an opposing checker on the landing point means."""

    HIT = "hit"
    """Two or more close the point; a single one (a blot) is hit to the bar (tavla)."""
    BLOCK = "block"
    """Even a single checker closes the point; nothing is ever hit (uzun tavla)."""
    PIN = "pin"
    """Two or more close the point; a single one is pinned under the lander and cannot move (plakoto)."""


def tavla_facing() -> tuple[int, ...]:
    """Opposite numbering: my point p is the opponent's 25 - p (index 0 and 25 unused)."""
    return (0, *(25 - p for p in range(1, 25)), 0)


def same_way_facing() -> tuple[int, ...]:
    """Both sides travel the same way, heads 12 points apart (uzun tavla): p faces p + 12."""
    return (0, *((p + 11) % 24 + 1 for p in range(1, 25)), 0)


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules one search applies to every step."""

    facing: tuple[int, ...] = field(default_factory=tavla_facing)
    """facing[p]: the opponent's own number for my point p (1..24)."""
    landing: Landing = Landing.HIT
    bar_first: bool = True
    closed_points: bool = True
    """Points the opponent holds cannot be landed on (off only to diagnose a play)."""
    all_home_to_bear_off: bool = True
    highest_first: bool = True
    """A die larger than the point bears off only from the highest occupied point."""
    head_limit: int | None = None
    """How many checkers may leave the head (point 24) this turn; None: no limit."""
    six_prime: bool = False
    """No six points in a row along the opponent's path unless one of its checkers is past."""
    compulsory_bear_off: bool = False
    """A die that can bear a checker off must bear one off (Turkish tavla)."""

    @property
    def order_free(self) -> bool:
        """Whether equal dice may be searched in one canonical order (see movegen).

        True while a step's legality never depends on the steps before it
        other than by moving higher checkers first; a six-prime ban breaks
        that (a block may be legal only after another checker left it), and
        so does compulsory bear-off (a 2 must bear off the 2-point checker,
        but once it is off the same 2 may move the 3-point checker inside).
        """
        return not (self.six_prime or self.compulsory_bear_off)


STANDARD = Rules()
