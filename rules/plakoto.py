"""Plakoto and Plakoto Express, docs/rules.md section 3.

All 15 checkers start on each side's 24-point and the sides move toward each
other as in tavla. Nothing is hit: landing on a lone opposing checker pins
it under the lander (:attr:`rules.steprules.Landing.PIN`); it cannot move
until every pinner has left, the pinner may stack more checkers there, and
no side bears off while one of its checkers is pinned. The checker alone on
a side's 24-point is its mother: a pinned mother ends the game at once when
the pinner has no checker left on its own 24-point (the pinner wins 2), and
when both mothers are pinned the game is a draw. Otherwise 1 point, or 2
when the loser has borne off none; no cube; the winner of the opening throw
throws both dice again.

Plakoto Express differs only in the game cycle: numbers of a double the
mover cannot play pass to the opponent (see :class:`rules.game.Game`).
"""

from __future__ import annotations

from dataclasses import replace

from rules.position import NO_ASIDE, Aside, Color, Position, counts_from_mapping
from rules.standard import write_standard_play
from rules.steprules import HEAD, Landing, Rules
from rules.uzun import uzun_result_kind
from rules.variant import BoardEnd, GameEnd, Opening, ResultKind, Variant

PLAKOTO_RULES = Rules(landing=Landing.PIN, bar_first=False)


class PlakotoPosition(Position):
    """A plakoto position; ``aside`` records which checkers are pinned."""

    __slots__ = ()
    RULES = PLAKOTO_RULES
    HAS_ASIDE = True

    @classmethod
    def start(cls, turn: Color = Color.WHITE) -> "PlakotoPosition":
        side = counts_from_mapping({HEAD: 15})
        return cls(side, side, turn)

    def read_snapshot(self, after: Position) -> Position:
        """Pins of a board seen after this position's play, since a board shows checkers only.

        On a point holding both colours the lone checker is the pinned one. If
        each colour has one there, the pin stands as it was, and a new one is
        the mover's: only the side to move can have landed.
        """
        facing = self.RULES.facing
        mover = self.turn
        white, black = after.white, after.black
        if len(white) != len(black) or len(white) != 26:
            return after
        white_pins: list[int] = []
        black_pins: list[int] = []
        for point in range(1, 25):
            other = facing[point]
            w, b = white[point], black[other]
            if not (w and b):
                continue
            if w == 1 and (b > 1 or point in self.pinned(Color.WHITE)):
                white_pins.append(point)
            elif b == 1 and (w > 1 or other in self.pinned(Color.BLACK)):
                black_pins.append(other)
            elif w == 1 and b == 1:
                (black_pins.append(other) if mover is Color.WHITE else white_pins.append(point))
        aside = Aside(tuple(white_pins), tuple(sorted(black_pins)))
        if aside == NO_ASIDE:
            aside = NO_ASIDE
        return type(self).unchecked(white, black, after.turn, aside)


def mother_pinned(position: Position, color: Color) -> bool:
    """Whether ``color``'s mother, its last checker on its own 24-point, is pinned."""
    return HEAD in position.pinned(color)


def plakoto_ending(position: Position) -> BoardEnd | None:
    """The mother rule: a game decided on the board before anyone has borne off all 15."""
    white_mother, black_mother = mother_pinned(position, Color.WHITE), mother_pinned(position, Color.BLACK)
    if white_mother and black_mother:
        return BoardEnd(None, ResultKind.SINGLE, GameEnd.BOTH_MOTHERS_PINNED)
    for pinned, pinner in ((white_mother, Color.BLACK), (black_mother, Color.WHITE)):
        if pinned and not position.side(pinner)[HEAD]:
            return BoardEnd(pinner, ResultKind.GAMMON, GameEnd.MOTHER_PINNED)
    return None


PLAKOTO_VARIANT = Variant(
    name="plakoto",
    aliases=("πλακωτό", "plakwto", "mahbusa"),
    position_type=PlakotoPosition,
    opening=Opening.THROW_AGAIN,
    cube=False,
    result_kind=uzun_result_kind,
    write_play=write_standard_play,
    board_ending=plakoto_ending,
)
"""Plakoto; a ``*`` in its notation marks a checker pinned."""


class PlakotoExpressPosition(PlakotoPosition):
    """A Plakoto Express position: plakoto's board; what differs is the game cycle."""

    __slots__ = ()


PLAKOTO_EXPRESS_VARIANT = replace(
    PLAKOTO_VARIANT,
    name="plakoto express",
    position_type=PlakotoExpressPosition,
    aliases=("express", "plakoto-express", "express plakoto"),
    passes_unplayed=True,
)
