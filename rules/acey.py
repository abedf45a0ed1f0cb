"""Acey-deucey, docs/rules.md section 3.

The board starts empty: each side's 15 checkers wait off the board
(``Aside.white_waiting``/``black_waiting``) and enter into the opponent's
home board as from the bar, die d on the mover's point 25 - d. Entered
checkers may move before all are in; a hit checker on the bar still enters
before anything else moves. Hitting, bearing off and scoring are tavla's
(a loser with checkers still to enter is backgammoned, as from the bar).
A 1-2 throw is played, then the player names a double, plays it, and throws
again (:class:`rules.game.Game`). The last checker still to come home is
Oscar, a name the app shows.

Notation writes every entry as ``bar/N``, whether the checker was hit or
had not entered yet.
"""

from __future__ import annotations

from rules.position import BAR, NO_ASIDE, OFF, SLOTS, Aside, Color, Position
from rules.standard import standard_result_kind, write_standard_play
from rules.variant import Opening, Variant


class AceyDeuceyPosition(Position):
    """An acey-deucey position; ``aside`` counts each side's checkers still to enter."""

    __slots__ = ()
    HAS_ASIDE = True

    @classmethod
    def start(cls, turn: Color = Color.WHITE) -> "AceyDeuceyPosition":
        empty = (0,) * SLOTS
        return cls(empty, empty, turn, Aside(white_waiting=15, black_waiting=15))

    def read_snapshot(self, after: Position) -> Position:
        """A board seen after this position's play: checkers off the board are still to enter.

        A board shows one heap of checkers off the board. While a side still
        had checkers to enter before the play, that heap is those checkers:
        nobody bears off before all 15 have entered and come home, which
        takes more than one turn.
        """
        sides = []
        waiting = []
        for color in Color:
            counts = after.side(color)
            extra = after.waiting(color)
            if self.waiting(color) and len(counts) == SLOTS and counts[OFF]:
                extra += counts[OFF]
                counts = (0, *counts[1:])
            sides.append(counts)
            waiting.append(extra)
        aside = Aside(white_waiting=waiting[0], black_waiting=waiting[1])
        if aside == NO_ASIDE:
            aside = NO_ASIDE
        return type(self).unchecked(sides[0], sides[1], after.turn, aside)

    def oscar(self, color: Color) -> int | None:
        """Where ``color``'s Oscar stands (own numbering, 25 = bar or still to enter), if it has one.

        Oscar is the side's last checker still to come home: the one checker
        outside the home board while all the others are home or borne off.
        """
        counts = self.side(color)
        outside = [point for point in range(7, BAR + 1) for _ in range(counts[point])]
        outside += [BAR] * self.waiting(color)
        return outside[0] if len(outside) == 1 else None


ACEY_DEUCEY_VARIANT = Variant(
    name="acey-deucey",
    aliases=("acey deucey", "aceydeucey", "acey-ducey", "acey ducey"),
    position_type=AceyDeuceyPosition,
    opening=Opening.USE_OPENING_DICE,
    cube=True,
    result_kind=standard_result_kind,
    write_play=write_standard_play,
    one_two_bonus=True,
)
