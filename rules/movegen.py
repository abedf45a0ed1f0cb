"""Legal plays of a roll: one search over the dice, deduplicated by result.

The rules become three choices in one depth-first search, for every variant:

- which dice orders to try: both orders of two different numbers; for a
  double, one order only, with each step's source at or below the previous
  one (any legal sequence of equal steps can be reordered so, because blocked
  points stay blocked, hits only open points and moving high checkers first
  only helps bearing off, so nothing is lost and nothing is found twice).
  Where a step's legality depends on the steps before it (uzun tavla's
  six-in-a-row ban, Turkish tavla's compulsory bear-off) every order is
  searched instead, with boards already seen at the same depth skipped;
- which results to keep: those that use the most dice, and of two different
  numbers of which only one can be played, the larger;
- what one step may do: the variant's :class:`rules.steprules.Rules` (bar
  first, closed landing points, bear off only with all checkers home and
  from a lower point only when no checker stands higher, the head limit,
  the six-in-a-row ban, compulsory bear-off).

The board is mutated in place and undone, and a result is frozen into
tuples only at a leaf: this keeps the whole search fast in pure Python.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from rules.errors import InvalidDice
from rules.play import Dice, Play, Step, check_dice
from rules.position import BAR, OFF, SLOTS, Color, Counts, Position
from rules.searchspace import (
    NO_FRAME,
    Frame,
    frame_of,
    into_search,
    needs_translation,
    out_of_search,
    position_after,
    real_key,
    search_key,
)
from rules.steprules import HEAD, STANDARD, Landing, Rules

ResultKey = bytes
"""Mover counts then opponent counts after a play, 26 bytes each, own numbering, as the
search sees them (:mod:`rules.searchspace`).

Bytes hash once and compare fast, which matters at hundreds of leaves a roll.
"""


def dice_sequences(dice: Dice) -> tuple[tuple[int, ...], ...]:
    """The orders in which the dice may be played."""
    first, second = dice
    if first == second:
        return ((first,) * 4,)
    return ((first, second), (second, first))


def check_numbers(numbers: Sequence[int]) -> tuple[int, ...]:
    """Numbers to be played in a fixed order (plakoto express's passed numbers), checked."""
    values = tuple(numbers)
    if not 1 <= len(values) <= 4:
        raise InvalidDice(f"one to four numbers are passed on, got {len(values)}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise InvalidDice(f"a die shows 1 to 6, got {value!r}")
    return values


_STEPS = [[(Step(source, dest, False), Step(source, dest, True)) for dest in range(26)] for source in range(26)]
"""Every possible step made once, so the search never allocates one."""


class _Search:
    """One search over the dice orders; keeps the results using the most dice.

    With ``partial`` it also keeps every board passed on the way, with the
    dice still unplayed there, for the referee's diagnosis.
    """

    __slots__ = (
        "me",
        "opp",
        "rules",
        "dice",
        "canonical",
        "path",
        "best",
        "results",
        "first_die",
        "slack",
        "head_left",
        "memo",
        "partial",
        "knobs",
    )

    def __init__(
        self,
        mover: Counts,
        opponent: Counts,
        rules: Rules = STANDARD,
        target: Counts | None = None,
        partial: bool = False,
        frame: Frame = NO_FRAME,
    ) -> None:
        """``mover``, ``opponent`` and ``target`` (the mover's counts to aim at) as the search sees them."""
        self.me, self.opp = into_search(mover, opponent, frame, rules)
        self.slack = _slack(self.me, target) if target is not None else None
        self.rules = rules
        self.path: list[Step] = []
        self.best = -1
        self.results: dict[ResultKey, tuple[Step, ...]] = {}
        self.first_die: dict[ResultKey, int] = {}
        self.dice: tuple[int, ...] = ()
        self.canonical = False
        self.head_left = rules.head_limit if rules.head_limit is not None else 15
        # The rules as plain locals for the hot loop (attribute lookups add up at 100,000s of steps).
        self.knobs = (
            rules.facing,
            1 if rules.landing is Landing.BLOCK else 2,
            rules.landing is Landing.HIT,
            frame.pool,
            bool(frame.my_pinned),
            rules.bar_first,
            rules.closed_points,
            rules.all_home_to_bear_off,
            rules.highest_first,
            rules.head_limit is not None,
            rules.six_prime,
            rules.compulsory_bear_off,
        )
        self.memo: set[tuple[bytes, int, int]] | None = None
        self.partial: dict[ResultKey, set[tuple[int, ...]]] | None = {} if partial else None

    def run(self, sequence: tuple[int, ...]) -> None:
        self.dice = sequence
        double = len(set(sequence)) == 1 and len(sequence) > 1
        self.canonical = double and self.rules.order_free
        self.memo = set() if double and not self.canonical else None
        if self.slack is None or min(self.slack) >= 0:
            self._descend(0, BAR)

    def _heads_for_target(self, source: int, dest: int) -> bool:
        """With a target board, take this step only if the target stays reachable.

        Checkers only move down, so the number standing at or above any point
        can only fall; a step that takes it below the target's is a dead end.
        """
        slack = self.slack
        assert slack is not None
        if min(slack[dest + 1 : source + 1]) < 1:
            return False
        for point in range(dest + 1, source + 1):
            slack[point] -= 1
        return True

    def _step_back(self, source: int, dest: int) -> None:
        slack = self.slack
        assert slack is not None
        for point in range(dest + 1, source + 1):
            slack[point] += 1

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
        (
            facing_of,
            closed_at,
            hitting,
            pool,
            pinned,
            bar_first,
            closed_points,
            all_home_rule,
            highest_first,
            head_limited,
            six_prime,
            compulsory,
        ) = self.knobs
        if self.memo is not None:
            seen = (bytes(me), depth, self.head_left)
            if seen in self.memo:
                return
            self.memo.add(seen)
        if self.partial is not None:
            self.partial.setdefault(bytes(me) + bytes(opp), set()).add(self.dice[depth:])
            if depth == len(self.dice):
                self._leaf(depth)
                return
        aimed = self.slack is not None
        die = self.dice[depth]
        last = depth + 1 == len(self.dice) and self.partial is None
        following = depth + 1
        canonical = self.canonical
        sources: Iterable[int]
        highest = BAR
        while highest and not me[highest]:
            highest -= 1
        all_home = highest <= 6 and not pinned  # plakoto: no bearing off while a checker is pinned
        first = highest if highest < top else top
        if me[BAR] > pool and bar_first:
            # Bar first: nothing else moves while a checker waits to enter.
            sources = (BAR,) if top == BAR else ()
        else:
            sources = range(first, 0, -1)
        # Turkish tavla: a die that can bear a checker off may not move one inside instead.
        must_bear_off = compulsory and all_home and (me[die] > 0 or highest < die)
        moved = False
        for source in sources:
            if not me[source]:
                continue
            dest = source - die
            hit = False
            facing = 0
            if dest > 0:
                if must_bear_off:
                    continue
                facing = facing_of[dest]
                blockers = opp[facing]
                if blockers >= closed_at:
                    if closed_points:
                        continue
                    blockers = 0  # waived for a diagnosis: the checker stands beside them
                hit = blockers == 1 and not me[dest]  # plakoto: a lone checker under mine is pinned already
            else:
                if not all_home and all_home_rule:
                    break  # every lower source would bear off too
                if dest < 0 and source != highest and highest_first:
                    continue  # a higher checker must be moved or borne off first
                dest = OFF
            if head_limited and source == HEAD:
                if not self.head_left:
                    continue
                self.head_left -= 1
            if six_prime and dest != OFF and not me[dest]:
                me[source] -= 1  # the block is judged with the checker already gone from its source
                forbidden = _forbidden_prime(me, opp, dest, facing_of)
                me[source] += 1
                if forbidden:
                    if head_limited and source == HEAD:
                        self.head_left += 1
                    continue
            moved = True
            if aimed and not self._heads_for_target(source, dest):
                if head_limited and source == HEAD:
                    self.head_left += 1
                continue  # legal, only not toward the target
            me[source] -= 1
            me[dest] += 1
            if hit and hitting:
                opp[facing] = 0
                opp[BAR] += 1
            path.append(_STEPS[source][dest][hit])
            if last:
                self._leaf(following)
            else:
                self._descend(following, source if canonical else BAR)
            path.pop()
            if hit and hitting:
                opp[BAR] -= 1
                opp[facing] = 1
            me[dest] -= 1
            me[source] += 1
            if aimed:
                self._step_back(source, dest)
            if head_limited and source == HEAD:
                self.head_left += 1
        if not moved:
            self._leaf(depth)


def _forbidden_prime(me: list[int], opp: list[int], dest: int, facing: tuple[int, ...]) -> bool:
    """Whether a checker landing on the empty point ``dest`` makes six in a row with no opposing checker past it.

    "In a row" follows the opponent's path: its own points 24 down to 1,
    which are my points facing[24], facing[23], ... Borne-off opposing
    checkers are past every block.
    """
    index = 24 - facing[dest]  # place of dest along the opponent's path, 0..23
    low = index
    while low > 0 and me[facing[24 - (low - 1)]]:
        low -= 1
    high = index
    while high < 23 and me[facing[24 - (high + 1)]]:
        high += 1
    if high - low + 1 < 6:
        return False
    return not (opp[OFF] or any(opp[1 : 24 - high]))


def _slack(mover: Sequence[int], target: Sequence[int]) -> list[int]:
    """For each point, how many more checkers stand at or above it now than in the target."""
    slack = [0] * SLOTS
    now = then = 0
    for point in range(BAR, OFF - 1, -1):
        now += mover[point]
        then += target[point]
        slack[point] = now - then
    return slack


def find_full_play(position: Position, dice: Dice, after: Position) -> Play | None:
    """The play using every die that leads to ``after``, found by a search aimed at it.

    A play using all the dice is always legal, so this answers the referee's
    common case fast even where a double has thousands of results; None means
    "not found this way", and the full rules must decide.
    """
    rules = position.step_rules(dice)
    frame = frame_of(position)
    key = search_key(after.side(position.turn), after.side(position.turn.other), frame, rules)
    if key is None:
        return None
    search = _Search(position.mover, position.opponent, rules, target=tuple(key[:SLOTS]), frame=frame)
    for sequence in dice_sequences(dice):
        search.run(sequence)
    full = 4 if dice[0] == dice[1] else 2
    steps = search.results.get(key)
    if steps is None or search.best != full:
        return None
    return Play(steps)


def reachable(
    position: Position, sequences: Sequence[tuple[int, ...]], rules: Rules | None = None
) -> dict[ResultKey, set[tuple[int, ...]]]:
    """Every board reachable by the side to move playing the numbers in these orders, fully or in part.

    Maps each board (mover's then opponent's real counts, as bytes) to the
    numbers still unplayed there; the referee's diagnosis uses it to tell an
    unfinished play from a wrong one. ``rules`` default to the position's own.
    """
    rules = rules if rules is not None else position.RULES
    frame = frame_of(position)
    search = _Search(position.mover, position.opponent, rules, partial=True, frame=frame)
    for sequence in sequences:
        if sequence:
            search.run(sequence)
    assert search.partial is not None
    found = search.partial or {bytes(search.me) + bytes(search.opp): {()}}
    if not needs_translation(frame, rules):
        return found
    return {real_key(out_of_search(key, frame, rules)): rests for key, rests in found.items()}


def search_results(
    mover: Counts, opponent: Counts, dice: Dice, rules: Rules = STANDARD, frame: Frame = NO_FRAME
) -> dict[ResultKey, tuple[Step, ...]]:
    """Every distinct legal result of the roll for the side whose counts are ``mover``.

    Maps (mover, opponent) counts after the play, as the search sees them, to
    one sequence of steps reaching it. A roll that cannot be played at all
    gives the unchanged board with no steps.
    """
    search = _Search(mover, opponent, rules, frame=frame)
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
    rules = position.step_rules(pair)
    frame = frame_of(position)
    found = search_results(position.mover, position.opponent, pair, rules, frame)
    return _positions(position, found, rules, frame)


def numbers_results(position: Position, numbers: Sequence[int]) -> dict[Position, Play]:
    """Results of numbers played in the given order, as many as possible (plakoto express).

    Unlike a roll, there is no larger-die rule and no second order: the
    numbers passed on must be played in the order the passer had them.
    """
    sequence = check_numbers(numbers)
    pair = (sequence[0], sequence[-1])
    rules = position.step_rules(pair)
    frame = frame_of(position)
    search = _Search(position.mover, position.opponent, rules, frame=frame)
    search.run(sequence)
    return _positions(position, search.results, rules, frame)


def _positions(
    position: Position, found: dict[ResultKey, tuple[Step, ...]], rules: Rules, frame: Frame
) -> dict[Position, Play]:
    """The search's results as positions, the opponent to move."""
    if needs_translation(frame, rules):
        return {position_after(position, out_of_search(key, frame, rules)): Play(steps) for key, steps in found.items()}
    turn = position.turn
    after_turn = turn.other
    white_moved = turn is Color.WHITE
    aside = position.aside
    new = tuple.__new__  # Position.unchecked without the call: results are valid by construction
    kind = type(position)
    results: dict[Position, Play] = {}
    opponents: dict[bytes, Counts] = {}  # most results leave the opponent as it was: share one tuple
    for key, steps in found.items():
        me = tuple(key[:SLOTS])
        opp_key = key[SLOTS:]
        opp = opponents.get(opp_key)
        if opp is None:
            opp = opponents[opp_key] = tuple(opp_key)
        board = (me, opp, after_turn, aside) if white_moved else (opp, me, after_turn, aside)
        results[new(kind, board)] = Play(steps)
    return results


def legal_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """The legal plays of a roll, one per distinct result, farthest-moving steps first.

    When nothing can be played the list holds the empty play only: the turn
    is lost ("yanar"), and the unchanged board is the one legal result.
    """
    return sorted(legal_results(position, dice).values(), key=_steps_order)


def _steps_order(play: Play) -> list[Step]:
    return sorted(play.steps, reverse=True)
