"""Variants that move like standard tavla and differ in their start or their bear-off.

docs/rules.md section 3: Turkish tavla (compulsory bear-off), nackgammon,
longgammon and eureika. Each is a Position subclass (its own start, and for
Turkish tavla its own step rules) plus a :class:`Variant` record; scoring,
opening and notation are standard tavla's.
"""

from __future__ import annotations

from dataclasses import replace

from rules.position import Color, Position, counts_from_mapping
from rules.standard import STANDARD_VARIANT
from rules.steprules import STANDARD, Rules
from rules.variant import Variant

TURKISH_RULES: Rules = replace(STANDARD, compulsory_bear_off=True)


class TurkishPosition(Position):
    """Standard start; a die that can bear a checker off must do so."""

    __slots__ = ()
    RULES = TURKISH_RULES


class NackgammonPosition(Position):
    """GNU Backgammon's nackgammon start: 2 on 24, 2 on 23, 4 on 13, 3 on 8, 4 on 6."""

    __slots__ = ()

    @classmethod
    def start(cls, turn: Color = Color.WHITE) -> "NackgammonPosition":
        side = counts_from_mapping({24: 2, 23: 2, 13: 4, 8: 3, 6: 4})
        return cls(side, side, turn)


class LonggammonPosition(Position):
    """All 15 checkers start on the 24-point (the opponent's 1-point)."""

    __slots__ = ()

    @classmethod
    def start(cls, turn: Color = Color.WHITE) -> "LonggammonPosition":
        side = counts_from_mapping({24: 15})
        return cls(side, side, turn)


class EureikaPosition(Position):
    """Three checkers on each of points 1, 2, 3 and two on 4, 5, 6: a bear-off race from the first throw."""

    __slots__ = ()

    @classmethod
    def start(cls, turn: Color = Color.WHITE) -> "EureikaPosition":
        side = counts_from_mapping({1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2})
        return cls(side, side, turn)


TURKISH_VARIANT = replace(
    STANDARD_VARIANT,
    name="turkish",
    aliases=("turkish tavla", "türk tavlası", "turk tavlasi", "zorunlu toplama"),
    position_type=TurkishPosition,
)
NACKGAMMON_VARIANT = replace(STANDARD_VARIANT, name="nackgammon", aliases=("nack",), position_type=NackgammonPosition)
LONGGAMMON_VARIANT = replace(
    STANDARD_VARIANT, name="longgammon", aliases=("long gammon",), position_type=LonggammonPosition
)
EUREIKA_VARIANT: Variant = replace(STANDARD_VARIANT, name="eureika", aliases=("eureka",), position_type=EureikaPosition)
