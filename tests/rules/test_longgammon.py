"""Longgammon: all 15 checkers start on the 24-point; cube in use (docs/rules.md section 3)."""

from __future__ import annotations

from rules.family import LONGGAMMON_VARIANT, LonggammonPosition
from rules.movegen import legal_plays
from rules.registry import find_variant
from tests.rules.reference import TAVLA
from tests.rules.variant_checks import agree_with_reference, self_play


def test_start_and_cube() -> None:
    start = LonggammonPosition.start()
    assert start.white[24] == start.black[24] == 15
    assert LONGGAMMON_VARIANT.cube
    assert find_variant("long gammon") is LONGGAMMON_VARIANT


def test_first_rolls_can_only_leave_the_24_point() -> None:
    plays = {p.notation() for p in legal_plays(LonggammonPosition.start(), (6, 5))}
    assert plays == {"24/13", "24/19 24/18"}
    # Four sixes shared among checkers leaving the 24-point, none past the 6-point (not all home).
    assert {p.notation() for p in legal_plays(LonggammonPosition.start(), (6, 6))} == {
        "24/18(4)",
        "24/12 24/18(2)",
        "24/12(2)",
        "24/6 24/18",
    }


def test_generator_agrees_with_the_reference_on_5000_positions() -> None:
    assert agree_with_reference(LONGGAMMON_VARIANT, TAVLA, 5000, seed=45) == 5000


def test_self_play_of_1000_games() -> None:
    assert len(self_play(LONGGAMMON_VARIANT, 1000, seed=46)) == 1000
