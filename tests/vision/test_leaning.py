"""A die called cocked must have something to lean on: where the checkers lie is known, a cocked call in the
open is asked about instead of voiding the throw by itself."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.test_sureness import CAL, SHAPE, throw
from vision import DiceReader
from vision.calibration import BOARD_DEPTH_MM, BOARD_MM, FRAME_MM, Calibration
from vision.errors import VisionError
from vision.leaning import (
    CHECKER_RADIUS_MM,
    IN_A_LINE,
    POINT_MM,
    Checker,
    both_ways_round,
    leans_on_nothing,
    point_checkers,
)
from vision.sureness import CASUAL, TOURNAMENT, doubts
from vision.train.heldout import heldout_match_throw, heldout_throw
from vision.verdict import DieReading

# CAL: a board seen straight from above, one pixel per canonical unit (x_mm = 0.524 x, y_mm = 0.555 y)
X_MM, Y_MM = BOARD_MM / 1000, BOARD_DEPTH_MM / 800


def die_at_mm(x_mm: float, y_mm: float, cocked: float = 0.95, side: int = 30) -> DieReading:
    x, y = x_mm / X_MM, y_mm / Y_MM
    box = (int(x - side / 2), int(y - side / 2), int(x + side / 2), int(y + side / 2))
    is_cocked = cocked >= 0.5
    return DieReading(4, box, is_cocked, cocked if is_cocked else 0.999, CAL.zone((x, y), "bottom"), cocked)


NO_CHECKERS = [0] * 12
MIDDLE_MM = BOARD_DEPTH_MM / 2
RIGHT_HALF_COLUMN_3 = FRAME_MM + 6 * POINT_MM + 30 + 3.5 * POINT_MM  # the thrower's half, its fourth point


def test_checkers_lie_in_a_line_from_the_frame_and_a_tall_stack_no_further_than_a_line_of_five() -> None:
    [first] = point_checkers([1] + [0] * 11, NO_CHECKERS)
    assert (first.x, first.y) == pytest.approx((FRAME_MM + POINT_MM / 2, FRAME_MM + CHECKER_RADIUS_MM))
    three = point_checkers(NO_CHECKERS, [0] * 11 + [3])
    assert [c.y for c in three] == pytest.approx(
        [BOARD_DEPTH_MM - FRAME_MM - CHECKER_RADIUS_MM * (1 + 2 * k) for k in range(3)]
    )
    assert three[0].x == pytest.approx(BOARD_MM - FRAME_MM - POINT_MM / 2)
    assert len(point_checkers([15] + [0] * 11, NO_CHECKERS)) == IN_A_LINE
    with pytest.raises(VisionError):
        point_checkers([1] * 11, NO_CHECKERS)
    with pytest.raises(VisionError):
        point_checkers([-1] + [0] * 11, NO_CHECKERS)


def test_a_die_leans_on_a_checker_the_other_die_the_frame_or_the_bar_within_reach() -> None:
    open_ = die_at_mm(RIGHT_HALF_COLUMN_3, MIDDLE_MM)
    assert leans_on_nothing(open_, [], CAL, [])
    beside = Checker(RIGHT_HALF_COLUMN_3 + CHECKER_RADIUS_MM + 8, MIDDLE_MM)
    far = Checker(RIGHT_HALF_COLUMN_3 + CHECKER_RADIUS_MM + 40, MIDDLE_MM)
    assert not leans_on_nothing(open_, [], CAL, [beside])
    assert leans_on_nothing(open_, [], CAL, [far])
    assert not leans_on_nothing(open_, [die_at_mm(RIGHT_HALF_COLUMN_3 + 20, MIDDLE_MM, 0.01)], CAL, [])
    assert leans_on_nothing(open_, [die_at_mm(RIGHT_HALF_COLUMN_3 + 60, MIDDLE_MM, 0.01)], CAL, [])
    against_frame = die_at_mm(BOARD_MM - FRAME_MM - 8, MIDDLE_MM)
    against_bar = die_at_mm(BOARD_MM / 2 + 15 + 8, MIDDLE_MM)
    against_far_side = die_at_mm(RIGHT_HALF_COLUMN_3, FRAME_MM + 8)
    for leaning in (against_frame, against_bar, against_far_side):
        assert not leans_on_nothing(leaning, [], CAL, [])


def test_a_station_not_told_which_way_round_the_board_is_finds_a_checker_on_either_side() -> None:
    """The home boards may be on the left or the right: a checker the position puts at the left frame may lie at
    the right one, so a die beside either is within reach of one."""
    [at_left] = point_checkers(NO_CHECKERS, [1] + [0] * 11)
    assert both_ways_round([at_left])[1] == Checker(BOARD_MM - at_left.x, at_left.y, at_left.radius)
    at_right_frame = die_at_mm(BOARD_MM - at_left.x, at_left.y - CHECKER_RADIUS_MM - 8)  # above its mirror
    assert leans_on_nothing(at_right_frame, [], CAL, [at_left])
    assert not leans_on_nothing(at_right_frame, [], CAL, both_ways_round([at_left]))


def test_a_surely_cocked_die_in_the_open_is_asked_about_where_the_checkers_are_known() -> None:
    cocked_in_open = throw(die_at_mm(RIGHT_HALF_COLUMN_3, MIDDLE_MM), die_at_mm(RIGHT_HALF_COLUMN_3 - 90, 300, 0.01))
    assert cocked_in_open.reason == "cocked"
    for setting in (TOURNAMENT, CASUAL):
        assert doubts(cocked_in_open, CAL, SHAPE, setting) == ()  # checkers not known: thrown again, as before
        assert doubts(cocked_in_open, CAL, SHAPE, setting, []) == ("leans_on_nothing",)
    checker = Checker(RIGHT_HALF_COLUMN_3, MIDDLE_MM - CHECKER_RADIUS_MM - 10)
    assert doubts(cocked_in_open, CAL, SHAPE, TOURNAMENT, [checker]) == ()  # it leans on that checker
    flat = throw(die_at_mm(RIGHT_HALF_COLUMN_3, MIDDLE_MM, 0.01), die_at_mm(RIGHT_HALF_COLUMN_3 - 90, 300, 0.01))
    assert flat.verdict == "valid" and doubts(flat, CAL, SHAPE, TOURNAMENT, []) == ()
    # a die in the wrong half voids the throw beyond doubt, cocked or not
    wrong_half = throw(die_at_mm(BOARD_MM / 2 - 100, MIDDLE_MM), die_at_mm(RIGHT_HALF_COLUMN_3 - 90, 300, 0.01))
    assert doubts(wrong_half, CAL, SHAPE, TOURNAMENT, []) == ()


def test_a_die_read_flat_in_the_open_is_surely_flat_only_where_a_sensing_board_saw_the_checkers() -> None:
    """Where a sensing board saw the checkers, a die read flat with nothing within reach cannot be tilted: its
    borderline cocked probability is no question. The referee's position alone may lag the board by a play (a
    checker it does not show yet could hold the die up), so there the question stays, as it does beside a
    checker, for a value read with too little confidence, and for a die called cocked in the open."""
    second = die_at_mm(RIGHT_HALF_COLUMN_3 - 90, 300, 0.01)
    flat_in_open = throw(die_at_mm(RIGHT_HALF_COLUMN_3, MIDDLE_MM, 0.3), second)
    assert flat_in_open.verdict == "valid"
    assert doubts(flat_in_open, CAL, SHAPE, TOURNAMENT, []) == ("borderline_cocked",)
    assert doubts(flat_in_open, CAL, SHAPE, TOURNAMENT, [], sensed=True) == ()
    assert doubts(flat_in_open, CAL, SHAPE, TOURNAMENT, None, sensed=True) == ("borderline_cocked",)
    checker = Checker(RIGHT_HALF_COLUMN_3, MIDDLE_MM - CHECKER_RADIUS_MM - 10)
    assert doubts(flat_in_open, CAL, SHAPE, TOURNAMENT, [checker], sensed=True) == ("borderline_cocked",)
    unsure_value = throw(replace(flat_in_open.dice[0], confidence=0.9), second)
    assert doubts(unsure_value, CAL, SHAPE, TOURNAMENT, [], sensed=True) == ("low_confidence",)
    borderline_cocked = throw(die_at_mm(RIGHT_HALF_COLUMN_3, MIDDLE_MM, 0.6), second)
    assert doubts(borderline_cocked, CAL, SHAPE, TOURNAMENT, [], sensed=True) == (
        "borderline_cocked",
        "leans_on_nothing",
    )


@settings(max_examples=300, deadline=None)
@given(
    dice=st.lists(
        st.tuples(
            st.floats(BOARD_MM / 2, BOARD_MM - FRAME_MM),  # the thrower's half, and the bar and frame round it
            st.floats(FRAME_MM, BOARD_DEPTH_MM - FRAME_MM),
            st.floats(0.0, 1.0),
            st.floats(0.5, 1.0),
        ),
        min_size=2,
        max_size=3,
    ),
    points=st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3, 5, 7]), min_size=24, max_size=24),
)
def test_a_sensing_boards_word_only_ever_takes_a_flat_dies_cocked_doubt_away(
    dice: list[tuple[float, float, float, float]], points: list[int]
) -> None:
    """Whatever the dice and the checkers: judged on a sensing board's word, a throw has the same doubts or fewer,
    only ``borderline_cocked`` ever goes, and only from a die read flat (a throw of dice all called cocked, or of
    more than two, is judged the same)."""
    read = [die_at_mm(x, y, p) for x, y, p, _ in dice]
    obs = throw(*(d if d.cocked else replace(d, confidence=c) for d, (_, _, _, c) in zip(read, dice)))
    checkers = both_ways_round(point_checkers(points[:12], points[12:]))
    for setting in (TOURNAMENT, CASUAL):
        position_only = set(doubts(obs, CAL, SHAPE, setting, checkers))
        sensed = set(doubts(obs, CAL, SHAPE, setting, checkers, sensed=True))
        assert sensed <= position_only and position_only - sensed <= {"borderline_cocked"}
        if all(d.cocked for d in obs.dice) or len(obs.dice) > 2:
            assert sensed == position_only


@pytest.mark.parametrize("index", [105, 111])
def test_held_out_flat_dice_the_look_doubts_count_unasked_on_a_sensing_boards_word(
    reader: DiceReader, index: int
) -> None:
    """Two of the 400 single held-out renders the sureness bench asks about only for a flat die's borderline
    cocked probability (0.21 and 0.15), each lying in the open: with the checkers where a sensing board saw
    them, the right dice count without a question."""
    throw_ = heldout_throw(index, "valid", with_reference=True)
    calibration = Calibration.from_corners(throw_.corners)
    obs = reader.read(throw_.image, calibration, throw_.thrower, reference=throw_.reference)
    lying = both_ways_round(throw_.checkers)
    assert doubts(obs, calibration, throw_.image.shape, TOURNAMENT, lying) == ("borderline_cocked",)
    assert doubts(obs, calibration, throw_.image.shape, TOURNAMENT, lying, sensed=True) == ()
    assert obs.values is not None and sorted(obs.values) == sorted(throw_.values)


def test_flat_dice_the_shipped_look_calls_cocked_on_held_out_matches_are_asked_about(reader: DiceReader) -> None:
    """The flat dice the look calls cocked beyond the band in held-out matches (models/MODEL_CARD.md), lying where
    nothing could hold them up. Read with where the checkers lie, each throw is a question; read without, it is
    thrown again unasked."""
    for match, number in ((167, 15), (167, 22), (206, 11)):
        throw_ = heldout_match_throw(match, number, "valid")
        calibration = Calibration.from_corners(throw_.corners)
        obs = reader.read(throw_.image, calibration, throw_.thrower, reference=throw_.reference)
        assert obs.reason == "cocked" and not any(d.cocked for d in throw_.dice)
        assert doubts(obs, calibration, throw_.image.shape, TOURNAMENT) == ()
        assert "leans_on_nothing" in doubts(
            obs, calibration, throw_.image.shape, TOURNAMENT, both_ways_round(throw_.checkers)
        )


@pytest.mark.parametrize("index", [7, 17, 27, 37])
def test_a_cocked_die_on_what_it_leans_on_still_voids_the_throw_by_itself(reader: DiceReader, index: int) -> None:
    throw_ = heldout_throw(index, "cocked", with_reference=True)
    calibration = Calibration.from_corners(throw_.corners)
    obs = reader.read(throw_.image, calibration, throw_.thrower, reference=throw_.reference)
    assert obs.reason == "cocked" and len(throw_.checkers) > 0
    assert (
        doubts(obs, calibration, throw_.image.shape, TOURNAMENT, both_ways_round(throw_.checkers)) == ()
    )  # thrown again, unasked
