"""The station's own board, measured at set-up, and the calls a referee would sign on it: the measured board
replaces the first guess everywhere a millimetre counts; a die the look calls cocked is never thrown again by
that alone; fewer dice than a throw needs where the board changed by more is a question; a reading the size
of the doubling cube is no die."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.calibration import BOX_OVER_DIE, DEFAULT_BOARD, Board, Calibration, Point, die_mm_of
from vision.errors import CalibrationError
from vision.leaning import Checker, both_ways_round, point_checkers
from vision.setupcheck import BoardEntry, Grade, check_frames
from vision.slant import slant
from vision.sureness import CASUAL, TOURNAMENT, doubts
from vision.verdict import DieReading, ThrowObservation, judge

# a board unlike the first guess (a foreign render's): its field 445.2 x 397.5 mm with the bar, frames 20.5 and
# 21.1 mm, a bar of 43.9 mm, dice of 17.9 mm; seen a little from the side, 1.3 px a millimetre
FIELD_MM = (445.2, 397.5)
FRAME_MM = (20.5, 21.1)
BAR_MM = 43.9
DIE_MM = 17.9
WIDTH, DEPTH = FIELD_MM[0] + 2 * FRAME_MM[0], FIELD_MM[1] + 2 * FRAME_MM[1]
TO_IMAGE = cv2.getPerspectiveTransform(
    np.array([[0, 0], [WIDTH, 0], [WIDTH, DEPTH], [0, DEPTH]], np.float32),
    np.array([[270, 80], [940, 60], [972, 665], [283, 701]], np.float32),
)


def image_of(mm: list[tuple[float, float]]) -> list[tuple[float, float]]:
    pts = cv2.perspectiveTransform(np.array(mm, np.float64).reshape(-1, 1, 2), TO_IMAGE).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in pts]


OUTER_PX = image_of([(0, 0), (WIDTH, 0), (WIDTH, DEPTH), (0, DEPTH)])
FIELD_PX = image_of(
    [
        (FRAME_MM[0], FRAME_MM[1]),
        (WIDTH - FRAME_MM[0], FRAME_MM[1]),
        (WIDTH - FRAME_MM[0], DEPTH - FRAME_MM[1]),
        (FRAME_MM[0], DEPTH - FRAME_MM[1]),
    ]
)
BOARD = Board.from_field(FIELD_MM, OUTER_PX, FIELD_PX, BAR_MM, DIE_MM)
GUESSED = Calibration.from_corners(OUTER_PX)
MEASURED = Calibration.from_corners(OUTER_PX, BOARD)
SHAPE = (720, 1280, 3)


def die_at(x_mm: float, y_mm: float, cocked: float = 0.01, calibration: Calibration = MEASURED) -> DieReading:
    """A die read at a spot of the board (millimetres from its top-left outer corner), its box a flat die's."""
    half = BOX_OVER_DIE * DIE_MM / 2
    corners = image_of([(x_mm - half, y_mm - half), (x_mm + half, y_mm + half)])
    (x0, y0), (x1, y1) = corners
    x, y = image_of([(x_mm, y_mm)])[0]
    is_cocked = cocked >= 0.5
    zone = calibration.zone((x, y), "bottom")
    return DieReading(4, (int(x0), int(y0), int(x1), int(y1)), is_cocked, 0.999, zone, cocked)


def throw(*dice: DieReading, changed: float = 0.0) -> ThrowObservation:
    verdict, reason = judge(dice, calibrated=True)
    return ThrowObservation(verdict, reason, dice, changed_dice=changed)


def test_set_up_measures_the_board_from_its_corners_and_the_sizes_entered_once() -> None:
    assert BOARD.measured and not DEFAULT_BOARD.measured
    assert (BOARD.width_mm, BOARD.depth_mm) == pytest.approx((WIDTH, DEPTH), abs=0.5)
    assert (BOARD.frame_mm, BOARD.frame_depth_mm) == pytest.approx(FRAME_MM, abs=0.3)
    assert (BOARD.bar_mm, BOARD.die_mm) == (BAR_MM, DIE_MM)


def test_the_measured_board_replaces_the_first_guess_where_a_millimetre_counts() -> None:
    """A die 12 mm right of the board's middle lies in the field of a board with a 30 mm bar, and on the bar of
    this one (44 mm); the frame's edge, a checker's place and the slant a flat die shows move with the board."""
    on_bar = die_at(WIDTH / 2 + 12, DEPTH / 2, calibration=GUESSED).centre
    assert GUESSED.zone(on_bar, "bottom") == "right_half"
    assert MEASURED.zone(on_bar, "bottom") == "off_board"
    assert MEASURED.edges_mm(on_bar)[0] == pytest.approx(12 - BAR_MM / 2, abs=0.5)
    near_frame = image_of([(WIDTH - FRAME_MM[0] - 5, DEPTH / 2)])[0]
    assert MEASURED.edges_mm(near_frame)[1] == pytest.approx(5, abs=0.5)
    first = point_checkers([1] + [0] * 11, [0] * 12, BOARD)[0]
    assert first.y == pytest.approx(FRAME_MM[1] + first.radius)
    assert both_ways_round([first], BOARD)[1].x == pytest.approx(WIDTH - first.x)
    spot = np.array([image_of([(WIDTH - 40, 40)])[0]])
    assert not np.allclose(slant(MEASURED, SHAPE, spot), slant(GUESSED, SHAPE, spot), atol=0.005)
    assert MEASURED.die_px() / GUESSED.die_px() == pytest.approx((DIE_MM / WIDTH) / (16.5 / 524.0), rel=1e-6)


def test_the_dice_size_is_measured_from_the_set_up_throws() -> None:
    boxes = [die_at(x, y).box for x, y in ((300, 120), (350, 300), (120, 380))]
    assert die_mm_of(boxes, MEASURED) == pytest.approx(DIE_MM, rel=0.06)
    with pytest.raises(CalibrationError, match="no die"):
        die_mm_of([], MEASURED)


def four(points: list[tuple[float, float]]) -> tuple[Point, Point, Point, Point]:
    return points[0], points[1], points[2], points[3]


def test_check_setup_says_when_the_picture_does_not_allow_measuring() -> None:
    picture = np.full((720, 1280, 3), 90, np.uint8)
    good = check_frames([picture], None, GUESSED, BoardEntry(four(FIELD_PX), FIELD_MM, BAR_MM, DIE_MM))
    size = next(c for c in good.checks if c.name == "board size")
    assert size.grade is Grade.GOOD and "bar 44 mm" in size.measured
    outside = [(x + 400, y) for x, y in FIELD_PX]  # tapped beyond the board
    bad = check_frames([picture], None, GUESSED, BoardEntry(four(outside), FIELD_MM, BAR_MM, DIE_MM))
    size = next(c for c in bad.checks if c.name == "board size")
    assert size.grade is Grade.NOT_GOOD and "inside" in size.measured and size.advice
    tiny = [(x / 20, y / 20) for x, y in OUTER_PX]  # the whole board 35 px wide: its frame under two pixels
    with pytest.raises(CalibrationError, match="too thin"):
        Board.from_field(FIELD_MM, tiny, [(x / 20, y / 20) for x, y in FIELD_PX], BAR_MM, DIE_MM)


@settings(max_examples=200, deadline=None)
@given(
    x=st.floats(WIDTH / 2 + 40, WIDTH - 60),
    y=st.floats(60, DEPTH - 60),
    cocked=st.floats(0.5, 1.0),
    lean=st.booleans(),
)
def test_a_die_called_cocked_is_never_an_automatic_void_and_one_with_nothing_to_lean_on_is_said(
    x: float, y: float, cocked: float, lean: bool
) -> None:
    """Whatever the look's probability: the players confirm a cocked call; where nothing lies within reach
    (no checker, the other die far, the frame and the bar away) the question says so."""
    other = die_at(WIDTH / 2 + 30 if x > WIDTH * 0.75 else WIDTH - 40, DEPTH - 40 if y < DEPTH / 2 else 40)
    checkers = [Checker(x + 30, y)] if lean else []
    obs = throw(die_at(x, y, cocked), other)
    assert obs.reason == "cocked"
    for setting in (TOURNAMENT, CASUAL):
        found = doubts(obs, MEASURED, SHAPE, setting, checkers)
        assert found and set(found) & {"borderline_cocked", "leans_on_nothing"}
        far = min(MEASURED.edges_mm(obs.dice[0].centre)) > 2 * BOX_OVER_DIE * DIE_MM
        if far and not lean and np.hypot(*np.subtract(obs.dice[0].centre, obs.dice[1].centre)) > 200:
            assert "leans_on_nothing" in found


def test_fewer_dice_than_a_throw_needs_where_the_board_changed_by_more_is_a_question() -> None:
    one = die_at(WIDTH * 0.75, DEPTH / 2)
    touching_read_as_one = throw(one, changed=3.4)  # two touching dice and their shadows changed the board
    assert touching_read_as_one.reason == "dice_count"
    for setting in (TOURNAMENT, CASUAL):
        assert doubts(touching_read_as_one, MEASURED, SHAPE, setting) == ("die_unseen",)
        assert doubts(throw(one, changed=1.6), MEASURED, SHAPE, setting) == ()  # one die's change: the other left
    also_cocked = throw(die_at(WIDTH * 0.75, DEPTH / 2, 0.97), changed=3.4)
    assert "die_unseen" in doubts(also_cocked, MEASURED, SHAPE, TOURNAMENT)


def test_a_reading_the_size_of_the_doubling_cube_is_no_die_but_a_question() -> None:
    flat = die_at(WIDTH * 0.75, DEPTH / 2)
    x0, y0, x1, y1 = flat.box
    grow = int(0.8 * (x1 - x0))  # a 40 mm cube's box beside 17.9 mm dice
    cube = DieReading(6, (x0 - grow, y0 - grow, x1 + grow, y1 + grow), False, 0.999, flat.zone, 0.01)
    other = die_at(WIDTH - 60, 60)
    assert doubts(throw(flat, other), MEASURED, SHAPE, TOURNAMENT) == ()
    assert doubts(throw(cube, other), MEASURED, SHAPE, TOURNAMENT) == ("third_object",)


def test_a_die_against_the_frame_or_the_bar_is_asked_about_even_read_flat() -> None:
    """A die against a wall may lean on it whatever the look says (the foreign renders' dice leaning on a wall
    read flat at 0.01 and 0.09); a die a die's width and more from it does not."""
    other = die_at(WIDTH * 0.75, DEPTH / 2)
    against_frame = die_at(WIDTH - FRAME_MM[0] - 0.5 * DIE_MM, DEPTH / 3)
    against_bar = die_at(WIDTH / 2 + BAR_MM / 2 + 0.5 * DIE_MM, DEPTH / 3)
    clear = die_at(WIDTH - FRAME_MM[0] - 1.5 * DIE_MM, DEPTH / 3)
    for setting in (TOURNAMENT, CASUAL):
        assert doubts(throw(against_frame, other), MEASURED, SHAPE, setting) == ("near_frame",)
        assert doubts(throw(against_bar, other), MEASURED, SHAPE, setting) == ("near_bar",)
        assert doubts(throw(clear, other), MEASURED, SHAPE, setting) == ()
