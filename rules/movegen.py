"""Legal plays of a roll: one search over the dice, deduplicated by result.

The rules (RULES.md section 1) become three choices in one depth-first search:

- which dice orders to try: both orders of two different numbers; for a
  double, one order only, with each step's source at or below the previous
  one (any legal sequence of equal steps can be reordered so, because blocked
  points stay blocked, hits only open points and moving high checkers first
  only helps bearing off, so nothing is lost and nothing is found twice);
- which results to keep: those that use the most dice, and of two different
  numbers of which only one can be played, the larger;
- what one step may do: bar first, no closed landing, bear off only with all
  checkers home, from a lower point only when no checker stands higher.

The board is mutated in place and undone, and a result is frozen into
tuples only at a leaf: this keeps the whole search fast in pure Python.
"""

from __future__ import annotations

from typing import Sequence

from rules.play import Dice, Play, Step, check_dice
from rules.position import BAR, OFF, SLOTS, Color, Counts, Position

ResultKey = bytes
"""Mover counts then opponent counts after a play, 26 bytes each, own numbering.

Bytes hash once and compare fast, which matters at hundreds of leaves a roll.
"""


def dice_sequences(dice: Dice) -> tuple[tuple[int, ...], ...]:
    """The orders in which the dice may be played."""
    first, second = dice
    if first == second:
        return ((first,) * 4,)
    return ((first, second), (second, first))


_STEPS = [[(Step(source, dest, False), Step(source, dest, True)) for dest in range(26)] for source in range(26)]
"""Every possible step made once, so the search never allocates one."""


class _Search:
    """One search over the dice orders; keeps the results using the most dice."""

    __slots__ = ("me", "opp", "dice", "canonical", "path", "best", "results", "first_die")

    def __init__(self, mover: Counts, opponent: Counts) -> None:
        self.me = list(mover)
        self.opp = list(opponent)
        self.path: list[Step] = []
        self.best = -1
        self.results: dict[ResultKey, tuple[Step, ...]] = {}
        self.first_die: dict[ResultKey, int] = {}
        self.dice: tuple[int, ...] = ()
        self.canonical = False

    def run(self, sequence: tuple[int, ...]) -> None:
        self.dice = sequence
        self.canonical = len(set(sequence)) == 1 and len(sequence) > 1
        self._descend(0, BAR)

    def _leaf(self, depth: int) -> None:
        if depth < self.best:
            return
        if depth > self.best:
            self.best = depth
            self.results = {}
            self.first_die = {}
        key = bytes(self.me) + bytes(self.opp)
        if key not in self.results:
            self.results[key] = tuple(self.path)
            self.first_die[key] = self.dice[0]
        elif self.dice[0] > self.first_die[key]:
            # The same result by the other number (e.g. both bear one checker off).
            self.first_die[key] = self.dice[0]

    def _descend(self, depth: int, top: int) -> None:
        me, opp, path = self.me, self.opp, self.path
        die = self.dice[depth]
        last = depth + 1 == len(self.dice)
        following = depth + 1
        moved = False
        if me[BAR]:
            # Bar first: nothing else moves while a checker waits to enter.
            blockers = opp[die]
            if top == BAR and blockers < 2:
                dest = BAR - die
                hit = blockers == 1
                me[BAR] -= 1
                me[dest] += 1
                if hit:
                    opp[die] = 0
                    opp[BAR] += 1
                path.append(_STEPS[BAR][dest][hit])
                if last:
                    self._leaf(following)
                else:
                    self._descend(following, BAR)
                path.pop()
                if hit:
                    opp[BAR] -= 1
                    opp[die] = 1
                me[dest] -= 1
                me[BAR] += 1
            else:
                self._leaf(depth)
            return
        highest = 24
        while highest and not me[highest]:
            highest -= 1
        all_home = highest <= 6
        canonical = self.canonical
        start = highest if highest < top else top
        for source in range(start, 0, -1):
            if not me[source]:
                continue
            dest = source - die
            if dest > 0:
                facing = BAR - dest
                blockers = opp[facing]
                if blockers >= 2:
                    continue
                hit = blockers == 1
                me[source] -= 1
                me[dest] += 1
                if hit:
                    opp[facing] = 0
                    opp[BAR] += 1
                path.append(_STEPS[source][dest][hit])
                if last:
                    self._leaf(following)
                else:
                    self._descend(following, source if canonical else BAR)
                path.pop()
                if hit:
                    opp[BAR] -= 1
                    opp[facing] = 1
                me[dest] -= 1
                me[source] += 1
                moved = True
            else:
                if not all_home:
                    break  # every lower source would bear off too
                if dest < 0 and source != highest:
                    continue  # a higher checker must be moved or borne off first
                me[source] -= 1
                me[OFF] += 1
                path.append(_STEPS[source][OFF][False])
                if last:
                    self._leaf(following)
                else:
                    self._descend(following, source if canonical else BAR)
                path.pop()
                me[OFF] -= 1
                me[source] += 1
                moved = True
        if not moved:
            self._leaf(depth)


def search_results(mover: Counts, opponent: Counts, dice: Dice) -> dict[ResultKey, tuple[Step, ...]]:
    """Every distinct legal result of the roll for the side whose counts are ``mover``.

    Maps (mover, opponent) counts after the play to one sequence of steps
    reaching it. A roll that cannot be played at all gives the unchanged
    board with no steps.
    """
    search = _Search(mover, opponent)
    for sequence in dice_sequences(dice):
        search.run(sequence)
    results = search.results
    if search.best == 1 and dice[0] != dice[1]:
        # Only one number can be played: the larger one, where it can be.
        larger = max(dice)
        if any(die == larger for die in search.first_die.values()):
            results = {k: v for k, v in results.items() if search.first_die[k] == larger}
    return results


def legal_results(position: Position, dice: Sequence[int]) -> dict[Position, Play]:
    """Each distinct legal resulting position (opponent to move) with one play reaching it."""
    pair = check_dice(dice)
    turn = position.turn
    after_turn = turn.other
    make = Position.unchecked
    white_moved = turn is Color.WHITE
    results: dict[Position, Play] = {}
    for key, steps in search_results(position.mover, position.opponent, pair).items():
        me, opp = tuple(key[:SLOTS]), tuple(key[SLOTS:])
        after = make(me, opp, after_turn) if white_moved else make(opp, me, after_turn)
        results[after] = Play(steps)
    return results


def legal_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """The legal plays of a roll, one per distinct result, in notation order.

    When nothing can be played the list holds the empty play only: the turn
    is lost ("yanar"), and the unchanged board is the one legal result.
    """
    return sorted(legal_results(position, dice).values(), key=_steps_order)


def _steps_order(play: Play) -> list[Step]:
    return sorted(play.steps, reverse=True)
