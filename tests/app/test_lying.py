"""Where the referee's position puts the checkers on the board the camera sees: every variant's geometry."""

from __future__ import annotations

import pytest

from app.table.lying import checkers_lying
from rules.registry import VARIANTS
from rules.variant import Variant
from vision.calibration import BAR_MM, BOARD_DEPTH_MM, BOARD_MM, FRAME_MM
from vision.leaning import IN_A_LINE, POINT_MM


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_each_variants_starting_checkers_lie_on_their_points_both_ways_round(variant: Variant) -> None:
    position = variant.position_type.start()
    facing = position.RULES.facing
    held = [position.white[p] + position.black[facing[p]] for p in range(1, 25)]
    lying = checkers_lying(position)
    one_way = lying[: len(lying) // 2]
    assert len(lying) == 2 * sum(min(n, IN_A_LINE) for n in held)
    assert len({(round(c.x, 3), round(c.y, 3)) for c in one_way}) == len(one_way)  # no two checkers in one place
    for c in lying:
        assert FRAME_MM < c.x - c.radius and c.x + c.radius < BOARD_MM - FRAME_MM
        assert not (BOARD_MM / 2 - BAR_MM / 2 < c.x + c.radius and c.x - c.radius < BOARD_MM / 2 + BAR_MM / 2)
        assert FRAME_MM <= c.y - c.radius + 1e-9 and c.y + c.radius <= BOARD_DEPTH_MM - FRAME_MM + 1e-9


def test_whites_home_board_lies_at_the_bottom_on_either_side() -> None:
    """White sits at the picture's bottom: its six-point stack (five checkers) lies along the bottom frame, in the
    right half as the tablet draws the board, or mirrored into the left half."""
    standard = VARIANTS[0].position_type.start()
    lying = checkers_lying(standard)
    bottom_line = sorted(round(c.x) for c in lying if c.y > BOARD_DEPTH_MM / 2)
    six_point = FRAME_MM + BAR_MM + 6.5 * POINT_MM  # the seventh point from the left frame, past the bar
    assert bottom_line.count(round(six_point)) == 5 and bottom_line.count(round(BOARD_MM - six_point)) == 5
