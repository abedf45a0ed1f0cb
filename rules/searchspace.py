"""The board as the move search sees it: only checkers that may move, only points that matter.

Two variants keep checkers aside from the 26 counts (see
:class:`rules.position.Aside`). For one turn of the mover both reduce to
plain counts, so the one generic search needs no special cases:

- plakoto: the mover's pinned checkers cannot move for the whole turn, so
  they are taken out of its counts, and the point where each is pinned is
  marked as held by the pinner (:data:`GUARD` more opposing checkers), so
  the mover cannot land there either. The opponent's pins need no record:
  in the search a lone opposing checker standing with the mover's checkers
  is exactly a pinned one.
- acey-deucey: checkers still to enter are added to the bar slot, since they
  enter the same way; the search only keeps the bar-first rule for the hit
  checkers, which enter first (``pool`` below).

After the search each result is turned back into counts plus an
:class:`~rules.position.Aside`.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.position import BAR, NO_ASIDE, SLOTS, Aside, Counts, Position
from rules.steprules import Landing, Rules

GUARD = 64
"""Added to the opponent's count where the mover's checker is pinned: the pinner holds the point."""


class Frame(NamedTuple):
    """What stands aside for one turn, seen from the mover."""

    my_pinned: tuple[int, ...] = ()
    my_waiting: int = 0
    opp_waiting: int = 0

    @property
    def pool(self) -> int:
        """How many checkers in the search's bar slot are not bound by the bar-first rule."""
        return self.my_waiting


NO_FRAME = Frame()


def frame_of(position: Position) -> Frame:
    """The mover's view of the position's aside state."""
    aside = position.aside
    if aside == NO_ASIDE:
        return NO_FRAME
    turn = position.turn
    return Frame(aside.pinned(turn), aside.waiting(turn), aside.waiting(turn.other))


def needs_translation(frame: Frame, rules: Rules) -> bool:
    """Whether search results must be turned back into counts plus an aside state."""
    return frame != NO_FRAME or rules.landing is Landing.PIN


def into_search(mover: Counts, opponent: Counts, frame: Frame, rules: Rules) -> tuple[list[int], list[int]]:
    """The mover's and the opponent's counts as the search sees them (fresh lists)."""
    me = list(mover)
    opp = list(opponent)
    if frame is NO_FRAME or frame == NO_FRAME:
        return me, opp
    facing = rules.facing
    for point in frame.my_pinned:
        me[point] -= 1
        opp[facing[point]] += GUARD
    me[BAR] += frame.my_waiting
    opp[BAR] += frame.opp_waiting
    return me, opp


def search_key(mover: Counts, opponent: Counts, frame: Frame, rules: Rules) -> bytes | None:
    """The search's key for a board given in real counts; None if the search can never reach it."""
    me, opp = into_search(mover, opponent, frame, rules)
    if min(me) < 0 or max(opp) > 255:
        return None  # a pinned checker has left its point
    return bytes(me) + bytes(opp)


class Translated(NamedTuple):
    """A search result in real counts, with the aside state of both sides (mover's view)."""

    me: Counts
    opp: Counts
    my_pinned: tuple[int, ...]
    my_waiting: int
    opp_pinned: tuple[int, ...]
    opp_waiting: int


def out_of_search(key: bytes | list[int] | tuple[int, ...], frame: Frame, rules: Rules) -> Translated:
    """Turn a board of the search (``key``: mover's then opponent's counts) back into real counts."""
    me = list(key[:SLOTS])
    opp = list(key[SLOTS:])
    facing = rules.facing
    opp_pinned: tuple[int, ...] = ()
    if rules.landing is Landing.PIN:
        opp_pinned = tuple(sorted(facing[p] for p in range(1, 25) if me[p] and opp[facing[p]] == 1))
    for point in frame.my_pinned:
        me[point] += 1
        opp[facing[point]] -= GUARD
    waiting = min(frame.my_waiting, me[BAR])  # hit checkers enter before the waiting ones
    me[BAR] -= waiting
    opp[BAR] -= frame.opp_waiting
    return Translated(tuple(me), tuple(opp), frame.my_pinned, waiting, opp_pinned, frame.opp_waiting)


def real_key(translated: Translated) -> bytes:
    """Real counts as one key (they fix the aside state, given the position before)."""
    return bytes(translated.me) + bytes(translated.opp)


def position_after(before: Position, translated: Translated) -> Position:
    """The position a translated result stands for, the opponent to move."""
    turn = before.turn
    aside = Aside.of_sides(
        turn, translated.my_pinned, translated.my_waiting, translated.opp_pinned, translated.opp_waiting
    )
    if aside == NO_ASIDE:
        aside = NO_ASIDE
    return type(before).from_sides(translated.me, translated.opp, turn, aside).with_turn(turn.other)
