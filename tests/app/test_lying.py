"""Where the referee's position (or a sensing board) puts the checkers on the board the camera sees: every
variant's geometry, and when the sensing board's word is taken."""

from __future__ import annotations

import pytest

from app.referee import events as ev
from app.referee.handlers.camera import seen_counts
from app.referee.setup import Devices
from app.table.lying import checkers_lying, where_checkers_lie
from rules.position import Color
from rules.registry import VARIANTS
from rules.variant import Variant
from tests.app.table import Table
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


def test_a_sensing_board_says_where_the_checkers_lie_while_its_link_is_up_and_its_board_whole() -> None:
    """The referee's position shows the plays typed; a sensing board shows the checkers where they stand. Its
    snapshot is taken while its link is up and it is a whole board (here Black has moved a checker out of turn,
    which the position does not show); otherwise the position is, and vision is told it was not sensed."""
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()  # Black to throw
    assert where_checkers_lie(table.referee) == (checkers_lying(table.referee.position), False)  # no link yet
    table.send(ev.LinkChanged("board", True, "sensing board"))
    table.move((24, 22))  # out of turn: the board shows it, the position does not
    referee = table.referee
    assert referee.board is not None and not referee.board.same_board(referee.position)
    assert where_checkers_lie(referee) == (checkers_lying(referee.board), True)
    assert checkers_lying(referee.board) != checkers_lying(referee.position)
    white = list(referee.board.white)
    white[13] += 1  # a sixteenth white checker: not a board a snapshot can be trusted for
    table.send(ev.BoardSeen(tuple(white), referee.board.black))
    assert table.referee.board_problems
    assert where_checkers_lie(table.referee) == (checkers_lying(table.referee.position), False)
    table.board(table.referee.position)  # Black puts the checker back: a whole board again
    assert where_checkers_lie(table.referee)[1]
    table.send(ev.LinkChanged("board", False, "unplugged"))
    assert where_checkers_lie(table.referee) == (checkers_lying(table.referee.position), False)
    assert table.referee.mover is Color.BLACK


def test_the_cameras_sure_reading_of_the_referees_board_counts_as_seen_an_older_or_unsure_one_does_not() -> None:
    table = Table(devices=Devices(camera=True, board=False, clock=True))
    table.send(ev.DiceObserved((3, 1)))
    table.press(Color.BLACK)
    table.send(ev.ManualPlay("8/5 6/5"))
    after = table.referee.position
    assert where_checkers_lie(table.referee) == (checkers_lying(after), False)
    table.send(ev.CheckersSeen(*seen_counts(after), sure=False))
    assert where_checkers_lie(table.referee)[1] is False  # the reader doubted it
    table.send(ev.CheckersSeen(*seen_counts(after)))
    assert where_checkers_lie(table.referee) == (checkers_lying(after), True)
    table.send(ev.DiceObserved((6, 5)))
    table.send(ev.ManualPlay("24/13"))  # Black's play typed: the camera has not seen the board since
    assert where_checkers_lie(table.referee) == (checkers_lying(table.referee.position), False)
