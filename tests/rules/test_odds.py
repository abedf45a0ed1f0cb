"""Shot odds: docs/rules.md section 1's figures, then blocks, the bar and doubles."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.odds import ROLLS, count_rolls, rolls_with_double, rolls_with_number, rolls_with_sum, shots
from rules.position import Color, Position


def shooter_and_blot(shooter: dict[int, int], blot: int, black_extra: dict[int, int] | None = None) -> Position:
    """White (to roll) with ``shooter``; one Black checker on White's point ``blot`` (the rest off)."""
    black = {25 - blot: 1, **(black_extra or {})}
    return Position.build(shooter, black, Color.WHITE)


def test_there_are_36_equally_likely_rolls() -> None:
    assert len(ROLLS) == 36 and len(set(ROLLS)) == 36
    assert count_rolls(lambda roll: True) == 36


@pytest.mark.parametrize("number", range(1, 7))
def test_a_given_number_shows_in_11_of_36(number: int) -> None:
    assert rolls_with_number(number) == 11


@pytest.mark.parametrize("number", range(1, 7))
def test_a_given_double_is_1_of_36(number: int) -> None:
    assert rolls_with_double(number) == 1


def test_a_sum_of_7_is_6_of_36() -> None:
    assert rolls_with_sum(7) == 6
    assert sum(rolls_with_sum(total) for total in range(2, 13)) == 36


def test_a_blot_6_away_on_an_open_board_is_hit_by_17_of_36() -> None:
    found = shots(shooter_and_blot({13: 1, 3: 14}, blot=7), point=7)
    assert found.count == 17 and found.chance == Fraction(17, 36)
    assert (6, 1) in found.rolls and (5, 1) in found.rolls and (3, 3) in found.rolls and (2, 2) in found.rolls
    assert (5, 2) not in found.rolls
    assert str(found) == "17/36 (47.2%)"


def test_a_blot_7_away_is_hit_only_by_combined_dice() -> None:
    found = shots(shooter_and_blot({14: 1, 3: 14}, blot=7), point=7)
    assert found.count == 6
    assert set(found.rolls) == {(6, 1), (1, 6), (5, 2), (2, 5), (4, 3), (3, 4)}


def test_a_blot_8_away_is_hit_by_6_2_5_3_4_4_and_2_2() -> None:
    assert shots(shooter_and_blot({15: 1, 3: 14}, blot=7), point=7).count == 6


def test_closed_points_on_the_way_block_combined_shots() -> None:
    # 7 away from 14; Black holds White's 8 and 13, the stops of 6-1 either way round.
    position = shooter_and_blot({14: 1, 3: 14}, blot=7, black_extra={17: 2, 12: 2})
    found = shots(position, point=7)
    assert (6, 1) not in found.rolls and (1, 6) not in found.rolls
    assert found.count == 4  # 5-2 and 4-3 still get through


def test_a_closed_stop_blocks_a_double_too() -> None:
    open_board = shots(shooter_and_blot({13: 1, 3: 14}, blot=7), point=7)
    blocked = shots(shooter_and_blot({13: 1, 3: 14}, blot=7, black_extra={15: 2}), point=7)  # White's 10
    assert (3, 3) in open_board.rolls and (3, 3) not in blocked.rolls
    assert blocked.count == open_board.count - 1


def test_a_checker_on_the_bar_must_enter_first() -> None:
    # White on the bar; Black blots on White's 20 (entered on with a 5) and 8.
    position = Position.build({25: 1, 6: 14}, {5: 1, 17: 1}, Color.WHITE)
    found = shots(position, point=20)
    # Any 5 (11 rolls), or entering with one die and moving on with the other: 4-1 and 3-2 (4 rolls).
    assert found.count == 15
    two_on_bar = Position.build({25: 2, 6: 13}, {5: 1, 17: 1}, Color.WHITE)
    assert shots(two_on_bar, point=20).count == 11


def test_any_blot_counts_each_roll_once() -> None:
    position = shooter_and_blot({13: 1, 3: 14}, blot=7, black_extra={14: 1})  # blots 6 and 2 away
    near = shots(position, point=11)
    far = shots(position, point=7)
    either = shots(position)
    assert either.count == len(set(near.rolls) | set(far.rolls))
    assert either.count < near.count + far.count


def test_the_target_must_be_a_blot_on_the_board() -> None:
    position = shooter_and_blot({13: 1, 3: 14}, blot=7, black_extra={15: 2})
    with pytest.raises(ValueError, match="no blot on point 10"):
        shots(position, point=10)
    with pytest.raises(ValueError, match="not on the board"):
        shots(position, point=25)
    assert shots(Position.start()).count == 0
