"""Uzun tavla (long nardy), docs/rules.md section 4 and seed 003.

Both sides travel the same way with their heads twelve points apart, so in
each side's own numbering the head is 24 and the home board 1..6, and my
point p is the opponent's point p + 12 (mod 24). A single checker holds a
point, nothing is ever hit, at most one checker leaves the head a turn (two
on the first turn with 6-6, 4-4 or 3-3), and six points in a row are
forbidden while no opposing checker is past them. Notation numbers the
points from White's side for both players, as the seed's diagrams do.
"""

from __future__ import annotations

from dataclasses import replace

from rules.play import Play, join_chains, point_name
from rules.position import OFF, Color, Position, counts_from_mapping
from rules.steprules import HEAD, Landing, Rules, same_way_facing
from rules.variant import Opening, ResultKind, Variant

UZUN_RULES = Rules(facing=same_way_facing(), landing=Landing.BLOCK, head_limit=1, six_prime=True)
FIRST_TURN_DOUBLES = frozenset({3, 4, 6})
"""Doubles that let two checkers leave the head on a player's first turn."""


class UzunPosition(Position):
    """A position of uzun tavla; each side in its own numbering (head 24, home 1..6)."""

    __slots__ = ()
    RULES = UZUN_RULES

    @classmethod
    def start(cls, turn: Color = Color.WHITE) -> "UzunPosition":
        side = counts_from_mapping({HEAD: 15})
        return cls(side, side, turn)

    def step_rules(self, dice: tuple[int, int]) -> Rules:
        """Two may leave the head on the first turn (all 15 still there) with 6-6, 4-4 or 3-3.

        A player's first turn is exactly when all 15 stand on the head: a
        checker that leaves it never returns, and the first roll can always
        be played from the head.
        """
        if self.mover[HEAD] == 15 and dice[0] == dice[1] and dice[0] in FIRST_TURN_DOUBLES:
            return replace(UZUN_RULES, head_limit=2)
        return UZUN_RULES


def to_white_numbering(point: int, mover: Color) -> int:
    """A point in the mover's own numbering, as numbered from White's side."""
    if mover is Color.WHITE or point == OFF:
        return point
    return UZUN_RULES.facing[point]


def uzun_result_kind(position: Position, winner: Color) -> ResultKind:
    """1 point, or mars (2) when the loser has borne off none; no triple, no cube."""
    return ResultKind.SINGLE if position.side(winner.other)[OFF] else ResultKind.GAMMON


def write_uzun_play(position: Position, play: Play) -> str:
    """The seed's style: White's numbering, one checker's steps joined, repeats written out."""
    mover = position.turn
    chains = sorted(join_chains(play.steps), key=lambda chain: (-chain[0], chain[-1]))
    return " ".join("/".join(point_name(to_white_numbering(point, mover)) for point in chain) for chain in chains)


UZUN_VARIANT = Variant(
    name="uzun",
    aliases=("uzun tavla", "uzun-tavla", "long nardy", "nardy", "narde", "nard"),
    position_type=UzunPosition,
    opening=Opening.THROW_AGAIN,
    cube=False,
    result_kind=uzun_result_kind,
    write_play=write_uzun_play,
    white_numbering=True,
)
