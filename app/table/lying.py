"""Where the position's checkers lie on the board the camera sees: what a die called cocked could lean on.

The referee's position says which points hold checkers; the camera's calibration says where the board lies in
the picture, with White at its bottom edge (``app.table.dice.SEAT``). Which side of the board holds the home
boards the station is not told (players set a board up either way round), so a point's checkers are placed on
both sides: a die then counts as lying in the open (``vision.leaning``) only when no checker lies near it
either way round, and a cocked call that finds nothing to lean on is asked about rather than taken.

A sensing board says where the checkers are, not where the plays typed so far put them (a play may be typed
after the next throw): while its link is up and its last snapshot is a whole board, the checkers are placed
from that snapshot, and vision may then also take a die read flat in the open as surely flat. The camera's own
reading of the checkers (:mod:`app.table.checkers`) counts as such a sighting when it is sure and shows the
checkers where the referee has them; a reading the referee has not settled on (an older board, a doubted one)
says nothing.
"""

from __future__ import annotations

from app.referee.engine import Referee
from app.referee.handlers.camera import camera_shows
from rules.position import Position
from vision.leaning import POINTS_A_ROW, Checker, both_ways_round, point_checkers


def where_checkers_lie(referee: Referee) -> tuple[tuple[Checker, ...], bool]:
    """The checkers as they lie (both ways round), and whether a device saw them there: a sensing board's last
    snapshot while its link is up and the snapshot is a whole, valid board; else the referee's position, seen
    when the camera's latest sure reading shows it."""
    board = referee.board
    if board is not None and not referee.board_problems and dict(referee.links).get("board", False):
        return checkers_lying(board), True
    return checkers_lying(referee.position), camera_shows(referee)


def checkers_lying(position: Position) -> tuple[Checker, ...]:
    """The checkers on the points, as they lie with White's home board on the right of the picture and as
    they lie with it on the left (the bar's and those borne off apart: the bar stands up by itself)."""
    facing = position.RULES.facing
    held = {point: position.white[point] + position.black[facing[point]] for point in range(1, 25)}
    # White's view, home on the right (as the tablet draws it): 13..24 along the top, 12..1 along the bottom
    top = [held[13 + column] for column in range(POINTS_A_ROW)]
    bottom = [held[12 - column] for column in range(POINTS_A_ROW)]
    return both_ways_round(point_checkers(top, bottom))
