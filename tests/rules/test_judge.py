"""The referee's question, judge(before, roll, after), with every rule it can name."""

from __future__ import annotations

import pytest

from rules.errors import IllegalPlay
from rules.judge import Violation, is_unfinished, judge
from rules.play import Step, apply_steps
from rules.position import BAR, Color, Position


def after_steps(position: Position, *steps: tuple[int, int]) -> Position:
    """The board after moving checkers step by step, legal or not (hits included)."""
    me = list(position.mover)
    opp = list(position.opponent)
    for source, dest in steps:
        me[source] -= 1
        me[dest] += 1
        if dest and opp[25 - dest] == 1:
            opp[25 - dest] = 0
            opp[BAR] += 1
    return Position.from_sides(tuple(me), tuple(opp), position.turn)


def violation(before: Position, dice: tuple[int, int], after: Position) -> IllegalPlay:
    with pytest.raises(IllegalPlay) as caught:
        judge(before, dice, after)
    return caught.value


def test_a_legal_play_is_accepted_and_named() -> None:
    start = Position.start()
    play = judge(start, (3, 1), after_steps(start, (8, 5), (6, 5)))
    assert play.notation() == "8/5 6/5"


def test_whose_turn_the_snapshot_claims_does_not_matter() -> None:
    start = Position.start()
    after = after_steps(start, (8, 5), (6, 5))
    assert judge(start, (3, 1), after.with_turn(Color.BLACK)) == judge(start, (3, 1), after)


def test_nothing_played_is_unfinished() -> None:
    error = violation(Position.start(), (3, 1), Position.start())
    assert error.violations == (Violation.NO_MOVE,)
    assert error.unfinished
    assert len(error.legal) == 16


def test_a_lost_turn_accepts_the_unchanged_board() -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
    position = Position.build({BAR: 1, 13: 14}, closed)
    assert judge(position, (5, 5), position).steps == ()


def test_one_die_of_two_played_is_unfinished() -> None:
    start = Position.start()
    error = violation(start, (3, 1), after_steps(start, (8, 5)))
    assert error.violations == (Violation.MUST_USE_BOTH,)
    assert error.unfinished
    assert is_unfinished(start, (3, 1), after_steps(start, (8, 5)))


def test_part_of_a_double_is_unfinished() -> None:
    start = Position.start()
    error = violation(start, (6, 6), after_steps(start, (24, 18), (24, 18)))
    assert error.violations == (Violation.MUST_PLAY_MORE,)
    assert error.unfinished


def test_a_dead_end_that_kills_the_other_die_breaks_must_use_both() -> None:
    """13/7 leaves the 5 unplayable, but 13/8 10/4 plays both: 13/7 is illegal, not unfinished."""
    position = Position.build({13: 1, 10: 1, 1: 13}, {20: 2, 23: 2, 6: 11})
    error = violation(position, (6, 5), after_steps(position, (13, 7)))
    assert error.violations == (Violation.MUST_USE_BOTH,)
    assert not error.unfinished
    assert [p.notation() for p in error.legal] == ["13/8 10/4"]


def test_the_smaller_die_when_the_larger_must_be_played() -> None:
    position = Position.build({13: 1, 1: 14}, {23: 2, 6: 13})
    error = violation(position, (6, 5), after_steps(position, (13, 8)))
    assert error.violations == (Violation.MUST_USE_LARGER,)
    assert not error.unfinished


def test_moving_another_checker_with_one_on_the_bar() -> None:
    position = Position.build({BAR: 1, 13: 14}, {6: 2, 13: 13})
    error = violation(position, (3, 1), after_steps(position, (13, 10), (10, 9)))
    assert error.violations == (Violation.BAR_FIRST,)


def test_jumping_over_two_closed_points() -> None:
    position = Position.build({24: 1, 6: 14}, {7: 2, 6: 2, 13: 11})  # White's 18 and 19 closed
    error = violation(position, (6, 5), after_steps(position, (24, 18), (18, 13)))
    assert error.violations == (Violation.BLOCKED_POINT,)


def test_landing_on_a_closed_point() -> None:
    start = Position.start()
    landed = after_steps(start, (13, 12), (8, 5))  # Black holds White's 12 with five
    error = violation(start, (3, 1), landed)
    assert error.violations == (Violation.BLOCKED_POINT,)


def test_bearing_off_with_a_checker_outside() -> None:
    position = Position.build({7: 1, 3: 5, 2: 5, 1: 4}, {13: 2})
    error = violation(position, (3, 1), after_steps(position, (3, 0), (2, 1)))
    assert error.violations == (Violation.NOT_ALL_HOME,)


def test_bearing_off_a_lower_checker_with_a_higher_one_standing() -> None:
    position = Position.build({6: 2, 3: 1}, {13: 2})
    error = violation(position, (5, 4), after_steps(position, (3, 0), (6, 1)))
    assert error.violations == (Violation.BEAR_OFF_HIGHER,)


def test_a_checker_moved_backwards() -> None:
    start = Position.start()
    error = violation(start, (3, 1), after_steps(start, (6, 9), (8, 7)))
    assert error.violations == (Violation.WRONG_DIRECTION,)


def test_the_opponent_checkers_moved() -> None:
    start = Position.start()
    moved = after_steps(start, (8, 5), (6, 5))
    black = list(moved.black)
    black[13] -= 1
    black[10] += 1
    error = violation(start, (3, 1), Position(moved.white, tuple(black), Color.BLACK))
    assert error.violations == (Violation.OPPONENT_MOVED,)


def test_a_checker_missing_from_the_board() -> None:
    start = Position.start()
    white = list(start.white)
    white[6] -= 1
    error = violation(start, (3, 1), Position.unchecked(tuple(white), start.black))
    assert error.violations == (Violation.CHECKER_COUNT_CHANGED,)


def test_moves_that_do_not_fit_the_dice() -> None:
    start = Position.start()
    error = violation(start, (3, 1), after_steps(start, (13, 8)))
    assert error.violations == (Violation.DICE_MISMATCH,)
    assert "do not match the dice" in str(error)


def test_a_legal_play_is_not_unfinished() -> None:
    start = Position.start()
    assert not is_unfinished(start, (3, 1), apply_steps(start, [Step(8, 5), Step(6, 5)]))


def test_judge_errors_are_value_errors() -> None:
    start = Position.start()
    with pytest.raises(ValueError):
        judge(start, (3, 1), start)
