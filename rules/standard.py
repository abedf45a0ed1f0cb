"""Standard tavla (backgammon), docs/rules.md section 1: the variant the core is built on."""

from __future__ import annotations

from rules.play import Play
from rules.position import BAR, OFF, Color, Position
from rules.variant import Opening, ResultKind, Variant


def standard_result_kind(position: Position, winner: Color) -> ResultKind:
    """Single, gammon (mars) or backgammon (katmerli mars), from the loser's checkers."""
    loser = position.side(winner.other)
    if loser[OFF] > 0:
        return ResultKind.SINGLE
    # The winner's home board is the loser's points 19..24; the bar and checkers
    # still to enter (acey-deucey) count too.
    if loser[BAR] or position.waiting(winner.other) or any(loser[point] for point in range(19, 25)):
        return ResultKind.BACKGAMMON
    return ResultKind.GAMMON


def write_standard_play(position: Position, play: Play) -> str:
    return play.notation()


STANDARD_VARIANT = Variant(
    name="backgammon",
    aliases=("tavla", "standard", "portes"),
    position_type=Position,
    opening=Opening.USE_OPENING_DICE,
    cube=True,
    result_kind=standard_result_kind,
    write_play=write_standard_play,
    gnubg_ids=True,
)
