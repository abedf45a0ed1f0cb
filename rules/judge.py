"""The referee's question: is this board a legal play of that roll, and if not, why?

A play is judged by its result, as on a real board: the snapshot taken when
the player presses the clock must be one of the legal resulting positions.
When it is not, the diagnosis searches again with one rule at a time relaxed
and names the rule whose relaxation reaches the board, so the director hears
"the larger die must be played", not just "illegal".
"""

from __future__ import annotations

import enum
from typing import Iterable, NamedTuple, Sequence

from rules.errors import IllegalPlay
from rules.movegen import find_full_play, legal_results
from rules.play import Dice, Play, check_dice
from rules.position import BAR, OFF, Counts, Position, Status


class Violation(enum.Enum):
    """A rule that a play broke; the value is the sentence shown to people."""

    CHECKER_COUNT_CHANGED = "the number of checkers on the board changed"
    INVALID_POSITION = "the board cannot occur: checkers of both colours share a point"
    OPPONENT_MOVED = "the opponent's checkers moved"
    WRONG_DIRECTION = "a checker moved backwards"
    BAR_FIRST = "checkers on the bar must enter before any other checker moves"
    BLOCKED_POINT = "a checker landed on or passed through a closed point"
    NOT_ALL_HOME = "bearing off is allowed only with all checkers in the home board"
    BEAR_OFF_HIGHER = "a lower checker was borne off while a checker stands on a higher point"
    NO_MOVE = "nothing was played, but the roll can be played"
    MUST_USE_BOTH = "both dice must be played when possible"
    MUST_USE_LARGER = "when only one die can be played, the larger must be played"
    MUST_PLAY_MORE = "a double must be played as many times as possible"
    DICE_MISMATCH = "the checkers moved do not match the dice"


_RELAXABLE = (
    Violation.BAR_FIRST,
    Violation.BLOCKED_POINT,
    Violation.NOT_ALL_HOME,
    Violation.BEAR_OFF_HIGHER,
)

_StateKey = tuple[Counts, Counts]


def judge(before: Position, dice: Sequence[int], after: Position) -> Play:
    """Return the legal play that turns ``before`` into ``after``, or raise IllegalPlay.

    ``after`` is compared by board only (whose turn it claims does not
    matter). The error names the rules broken, lists the legal plays, and
    says whether the board is an unfinished play that can still be completed.
    """
    pair = check_dice(dice)
    if after.status() == Status.VALID:
        found = find_full_play(before, pair, after)
        if found is not None:
            return found
    results = legal_results(before, pair)
    for result, play in results.items():
        if result.same_board(after):
            return play
    legal = sorted(results.values(), key=Play.notation)
    violations, unfinished = diagnose(before, pair, after, results)
    message = "; ".join(v.value for v in violations)
    if unfinished:
        message = "unfinished play: " + message
    raise IllegalPlay(message, violations, legal, unfinished)


def is_unfinished(before: Position, dice: Sequence[int], after: Position) -> bool:
    """Whether ``after`` is on the way to a legal play (a strict prefix of one)."""
    try:
        judge(before, dice, after)
    except IllegalPlay as error:
        return error.unfinished
    return False


def diagnose(
    before: Position, dice: Dice, after: Position, results: dict[Position, Play]
) -> tuple[list[Violation], bool]:
    """The rules ``after`` breaks, and whether it is an unfinished legal play."""
    mover_color = before.turn
    me0, opp0 = before.mover, before.opponent
    me1, opp1 = after.side(mover_color), after.side(mover_color.other)
    status = after.status()
    if status & ~Status.SHARED_POINT:
        return [Violation.CHECKER_COUNT_CHANGED], False
    if Status.SHARED_POINT in status:
        closed = [p for p in range(1, 25) if me1[p] and opp1[25 - p] and opp0[25 - p] >= 2]
        return [Violation.BLOCKED_POINT if closed else Violation.INVALID_POSITION], False
    if not _only_blots_hit(opp0, opp1):
        return [Violation.OPPONENT_MOVED], False
    if not _moves_forward(me0, me1):
        return [Violation.WRONG_DIRECTION], False
    target: _StateKey = (me1, opp1)
    legal_keys = {(r.side(mover_color), r.side(mover_color.other)) for r in results}
    has_play = any(play.steps for play in results.values())
    if me0 == me1 and opp0 == opp1:
        return ([Violation.NO_MOVE], True) if has_play else ([], False)

    full = _dice_list(dice)
    reached = _explore(me0, opp0, full, frozenset())
    if target in reached:
        ways = reached[target]
        if any(_explore(me1, opp1, way.remaining, frozenset()).keys() & legal_keys for way in ways):
            return [_too_few_dice(dice)], True
        one_die_plays = all(len(play.steps) == 1 for play in results.values())
        if dice[0] != dice[1] and one_die_plays:
            return [Violation.MUST_USE_LARGER], False
        return [_too_few_dice(dice)], False
    for rule in _RELAXABLE:
        if target in _explore(me0, opp0, full, frozenset([rule])):
            return [rule], False
    relaxed_ways = _explore(me0, opp0, full, frozenset(_RELAXABLE)).get(target, [])
    if relaxed_ways:
        fewest = min((way.broken for way in relaxed_ways), key=len)
        return sorted(fewest, key=_RELAXABLE.index), False
    return [Violation.DICE_MISMATCH], False


def _too_few_dice(dice: Dice) -> Violation:
    return Violation.MUST_PLAY_MORE if dice[0] == dice[1] else Violation.MUST_USE_BOTH


def _dice_list(dice: Dice) -> tuple[int, ...]:
    return (dice[0],) * 4 if dice[0] == dice[1] else tuple(sorted(dice))


def _only_blots_hit(opp0: Counts, opp1: Counts) -> bool:
    """The opponent's only change may be blots sent to the bar."""
    if opp1[OFF] != opp0[OFF]:
        return False
    hit = 0
    for point in range(1, 25):
        if opp1[point] != opp0[point]:
            if not (opp0[point] == 1 and opp1[point] == 0):
                return False
            hit += 1
    return opp1[BAR] == opp0[BAR] + hit


def _moves_forward(me0: Counts, me1: Counts) -> bool:
    """Checkers only move toward home: no count above any point may grow."""
    above0 = above1 = 0
    for point in range(BAR, OFF - 1, -1):
        above0 += me0[point]
        above1 += me1[point]
        if above1 > above0:
            return False
    return True


class _Way(NamedTuple):
    """How a board was reached: the dice still unplayed and the rules broken."""

    remaining: tuple[int, ...]
    broken: frozenset[Violation]


def _explore(
    me: Counts, opp: Counts, dice: tuple[int, ...], relax: frozenset[Violation]
) -> dict[_StateKey, list[_Way]]:
    """Every board reachable by playing some of the dice, one checker step at a time.

    Steps follow the rules except those in ``relax``; each board maps to the
    ways found to it.
    """
    start = _Way(dice, frozenset())
    reached: dict[_StateKey, list[_Way]] = {(me, opp): [start]}
    stack = [(me, opp, start)]
    seen = {(me, opp, start)}
    while stack:
        cur_me, cur_opp, way = stack.pop()
        for die in set(way.remaining):
            rest = list(way.remaining)
            rest.remove(die)
            for new_me, new_opp, broken in _steps(cur_me, cur_opp, die, relax):
                new_way = _Way(tuple(rest), way.broken | broken)
                node = (new_me, new_opp, new_way)
                if node in seen:
                    continue
                seen.add(node)
                reached.setdefault((new_me, new_opp), []).append(new_way)
                stack.append(node)
    return reached


def _steps(
    me: Counts, opp: Counts, die: int, relax: frozenset[Violation]
) -> Iterable[tuple[Counts, Counts, frozenset[Violation]]]:
    """One checker moved by ``die``, with the rules in ``relax`` waived."""
    highest = BAR
    while highest and not me[highest]:
        highest -= 1
    for source in range(BAR, 0, -1):
        if not me[source]:
            continue
        broken: list[Violation] = []
        if me[BAR] and source != BAR:
            broken.append(Violation.BAR_FIRST)
        dest = max(source - die, OFF)
        new_me = list(me)
        new_me[source] -= 1
        new_me[dest] += 1
        new_opp = opp
        if dest == OFF:
            if highest > 6:
                broken.append(Violation.NOT_ALL_HOME)
            if source - die < 0 and source != highest:
                broken.append(Violation.BEAR_OFF_HIGHER)
        else:
            facing = BAR - dest
            if opp[facing] >= 2:
                broken.append(Violation.BLOCKED_POINT)
            elif opp[facing] == 1:
                changed = list(opp)
                changed[facing] = 0
                changed[BAR] += 1
                new_opp = tuple(changed)
        if all(rule in relax for rule in broken):
            yield tuple(new_me), new_opp, frozenset(broken)
