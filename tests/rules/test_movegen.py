"""Legal plays for every rule of docs/rules.md section 1 (standard tavla), on hand-built boards.

Boards are written in each side's own numbering: White's point p is Black's
point 25 - p. ``after`` lists what White holds after the play.
"""

from __future__ import annotations

import pytest

from rules.errors import InvalidDice
from rules.movegen import legal_plays, legal_results
from rules.position import BAR, OFF, Color, Position, counts_from_mapping


def white_results(position: Position, dice: tuple[int, int]) -> set[tuple[int, ...]]:
    return {after.white for after in legal_results(position, dice)}


def notations(position: Position, dice: tuple[int, int]) -> set[str]:
    return {play.notation() for play in legal_plays(position, dice)}


def side(points: dict[object, int]) -> tuple[int, ...]:
    return counts_from_mapping(points)  # type: ignore[arg-type]


def test_opening_3_1_has_sixteen_plays_including_the_point() -> None:
    plays = notations(Position.start(), (3, 1))
    assert len(plays) == 16
    assert "8/5 6/5" in plays


def test_results_are_deduplicated_by_position() -> None:
    """24/18/13 and 24/19/13 are one result, written once as 24/13."""
    plays = notations(Position.start(), (6, 5))
    assert "24/13" in plays
    assert len(plays) == len(legal_results(Position.start(), (6, 5)))


def test_both_numbers_must_be_played_when_possible() -> None:
    for play in legal_plays(Position.start(), (5, 2)):
        assert len(play.steps) == 2


def test_doubles_are_played_four_times() -> None:
    for play in legal_plays(Position.start(), (6, 6)):
        assert len(play.steps) == 4
    assert "24/18(2) 13/7(2)" in notations(Position.start(), (6, 6))


def test_a_double_is_played_as_often_as_possible_and_the_rest_is_lost() -> None:
    """One free checker at 13 with 4-4 and White's 5-point closed: 13/9 and the rest is lost."""
    position = Position.build({13: 1, 1: 14}, {20: 2, 6: 13})
    assert notations(position, (4, 4)) == {"13/9"}


def test_bar_checker_enters_with_the_three_then_plays_the_six() -> None:
    """6-3 with one on the bar: only the 3 enters (Black holds its 6-point), the 6 must still be played."""
    position = Position.build({BAR: 1, 13: 5, 8: 4, 6: 5}, {6: 3, 8: 3, 13: 5, 24: 2, 1: 2})
    plays = legal_plays(position, (6, 3))
    assert plays
    for play in plays:
        assert play.steps[0].source == BAR and play.steps[0].dest == 22
        assert len(play.steps) == 2
    assert "bar/22 13/7" in {p.notation() for p in plays}
    assert "bar/16" in {p.notation() for p in plays}


def test_only_one_die_playable_means_the_larger() -> None:
    """13/7 or 13/8 alone are possible, not both (the 2-point is closed): the 6 must be played."""
    position = Position.build({13: 1, 1: 14}, {23: 2, 6: 13})
    assert notations(position, (6, 5)) == {"13/7"}
    assert notations(position, (5, 6)) == {"13/7"}


def test_the_smaller_die_when_the_larger_cannot_be_played() -> None:
    position = Position.build({13: 1, 1: 14}, {23: 2, 18: 2, 6: 11})
    assert notations(position, (6, 5)) == {"13/8"}


def test_bear_off_with_checkers_on_six_and_two_and_5_4() -> None:
    """The highest-point rule is re-checked after every die: 6/1 2/off, or 6/2 and then the 2 off."""
    position = Position.build({6: 1, 2: 1}, {13: 5})
    assert white_results(position, (5, 4)) == {side({1: 1}), side({2: 1})}
    assert notations(position, (5, 4)) == {"6/1 2/off", "6/off"}


def test_bear_off_from_highest_point_when_die_is_larger() -> None:
    position = Position.build({4: 2, 3: 1}, {24: 2})
    assert white_results(position, (6, 5)) == {side({3: 1})}


def test_a_higher_checker_must_move_before_a_lower_bears_off() -> None:
    """6-point checker and 3-point checker, 5-4: the 3 cannot be borne off by the 4 first."""
    position = Position.build({6: 2, 3: 1}, {24: 2})
    for after in legal_results(position, (5, 4)):
        assert after.white != side({6: 1, 1: 1})


def test_bearing_off_is_not_forced() -> None:
    position = Position.build({6: 3, 5: 3, 1: 2}, {13: 2})
    plays = notations(position, (1, 2))
    assert "1/off(2)" not in plays  # a 2 cannot bear off from the 1 while higher checkers stand
    assert "6/5 6/4" in plays
    assert any("off" in p for p in plays)


def test_no_bear_off_while_a_checker_is_outside_home() -> None:
    """Every bear-off step comes after the 7-point checker is home."""
    position = Position.build({7: 1, 3: 5, 2: 5, 1: 4}, {13: 2})
    for dice in [(6, 1), (1, 3), (5, 4), (2, 2), (6, 6)]:
        for play in legal_plays(position, dice):
            counts = list(position.white)
            for step in play.steps:
                if step.dest == OFF:
                    assert max(p for p in range(1, 26) if counts[p]) <= 6, (dice, str(play))
                counts[step.source] -= 1
                counts[step.dest] += 1
    assert "7/6 3/off" not in notations(position, (1, 4))  # the 4 cannot bear off the 3 with a 6 behind


def test_two_on_the_bar_with_one_entry_point() -> None:
    """Only Black's 3-point is open: one checker enters with the 3, the 5 is lost."""
    black = {1: 2, 2: 2, 4: 2, 5: 2, 6: 2, 13: 5}
    position = Position.build({BAR: 2, 13: 13}, black)
    assert notations(position, (3, 5)) == {"bar/22"}
    plays = notations(position, (3, 3))
    assert plays and all(p.startswith("bar/22(2)") for p in plays)


def test_no_entry_loses_the_turn() -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
    position = Position.build({BAR: 1, 13: 14}, closed)
    plays = legal_plays(position, (6, 6))
    assert len(plays) == 1 and plays[0].steps == ()
    assert list(legal_results(position, (4, 2))) == [position.with_turn(Color.BLACK)]


def test_nothing_moves_while_a_checker_is_on_the_bar() -> None:
    position = Position.build({BAR: 1, 13: 14}, {6: 2, 13: 13})
    for play in legal_plays(position, (2, 1)):
        assert play.steps[0].source == BAR


def test_hit_and_continue() -> None:
    """A 3-2 hits the blot on White's 10 with the 3 and goes on to 8."""
    position = Position.build({13: 5, 6: 10}, {15: 1, 24: 14})
    plays = notations(position, (3, 2))
    assert "13/10*/8" in plays
    hit = next(a for a, p in legal_results(position, (3, 2)).items() if p.notation() == "13/10*/8")
    assert hit.black[BAR] == 1 and hit.black[15] == 0


def test_one_checker_cannot_jump_over_closed_intermediate_points() -> None:
    position = Position.build({24: 1, 6: 14}, {7: 2, 6: 2, 13: 11})  # White's 18 and 19 closed
    assert "24/13" not in notations(position, (6, 5))


def test_a_closed_point_is_never_a_landing_point() -> None:
    position = Position.start()
    closed = [p for p in range(1, 25) if position.black[25 - p] >= 2]
    assert closed == [1, 12, 17, 19]
    for dice in [(5, 5), (6, 5), (4, 4), (2, 1)]:
        for after in legal_results(position, dice):
            assert all(after.white[p] == 0 for p in closed)


def test_hitting_in_the_home_board_during_bear_off() -> None:
    """A checker hit during bear-off enters first and no bear-off happens while it travels."""
    position = Position.build({BAR: 1, 3: 4, 2: 5, 1: 5}, {1: 1, 13: 14})
    plays = legal_plays(position, (4, 1))
    assert plays
    for play in plays:
        assert play.steps[0].source == BAR
        assert all(step.dest != OFF for step in play.steps)


def test_hitting_a_blot_sends_it_to_the_bar() -> None:
    position = Position.build({24: 2, 13: 5, 8: 3, 6: 5}, {5: 1, 6: 4, 8: 3, 13: 5, 24: 2})
    results = legal_results(position, (4, 2))
    hits = [after for after, play in results.items() if play.hits]
    assert hits and all(after.black[BAR] == 1 for after in hits)


def test_black_to_move_uses_black_numbering() -> None:
    start = Position.start(Color.BLACK)
    results = legal_results(start, (3, 1))
    assert len(results) == 16
    for after in results:
        assert after.turn is Color.WHITE
        assert after.white == start.white


@pytest.mark.parametrize("dice", [(0, 1), (7, 2), (1,), (1, 2, 3), (True, 2)])
def test_impossible_dice_are_refused(dice: tuple[int, ...]) -> None:
    with pytest.raises(InvalidDice):
        legal_plays(Position.start(), dice)


def test_no_limit_on_checkers_per_point() -> None:
    """Fourteen on the 6-point take the fifteenth: any number of own checkers share a point."""
    position = Position.build({11: 1, 6: 14}, {13: 15})
    assert side({6: 15}) in white_results(position, (3, 2))
    assert "11/6" in notations(position, (3, 2))
