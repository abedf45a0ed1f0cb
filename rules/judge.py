"""The referee's question: is this board a legal play of that roll, and if not, why?

A play is judged by its result, as on a real board: the snapshot taken when
the player presses the clock must be one of the legal resulting positions.
When it is not, the diagnosis searches again with one rule at a time relaxed
and names the rule whose relaxation reaches the board, so the director hears
"the larger die must be played", not just "illegal".
"""

from __future__ import annotations

import enum
from dataclasses import replace
from typing import Any, Sequence

from rules.errors import IllegalPlay
from rules.movegen import (
    check_numbers,
    dice_sequences,
    find_full_play,
    legal_results,
    numbers_results,
    reachable,
)
from rules.play import Dice, Play, check_dice
from rules.position import BAR, OFF, Counts, Position, Status, entering_from_bar
from rules.steprules import HEAD, Landing, Rules

Orders = Sequence[tuple[int, ...]]
"""The orders in which the numbers of a turn may be played."""


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
    HEAD_RULE = "only one checker may leave the head this turn (two on the first turn with 6-6, 4-4, 3-3)"
    SIX_PRIME = "six points in a row are not allowed while no opposing checker is past them"
    MUST_BEAR_OFF = "a die that can bear a checker off must bear one off (Turkish tavla)"
    PINNED_MOVED = "a pinned checker cannot move until the pinning checkers leave (plakoto)"
    PINNED_BEAR_OFF = "no checker may be borne off while an own checker is pinned (plakoto)"
    NO_MOVE = "nothing was played, but the roll can be played"
    MUST_USE_BOTH = "both dice must be played when possible"
    MUST_USE_LARGER = "when only one die can be played, the larger must be played"
    MUST_PLAY_MORE = "a double must be played as many times as possible"
    DICE_MISMATCH = "the checkers moved do not match the dice"


def judge(before: Position, dice: Sequence[int], after: Position) -> Play:
    """Return the legal play that turns ``before`` into ``after``, or raise IllegalPlay.

    ``after`` is compared by board only (whose turn it claims does not
    matter; what a board cannot show, such as plakoto's pins, is read from
    ``before``). The error names the rules broken, lists the legal plays,
    and says whether the board is an unfinished play that can still be
    completed.
    """
    pair = check_dice(dice)
    after = before.read_snapshot(after)
    if after.status() == Status.VALID:
        found = find_full_play(before, pair, after)
        if found is not None:
            return found
    return _decide(before, dice_sequences(pair), pair, after, legal_results(before, pair))


def judge_numbers(before: Position, numbers: Sequence[int], after: Position) -> Play:
    """Like :func:`judge`, for numbers passed on to be played in a fixed order (plakoto express)."""
    sequence = check_numbers(numbers)
    after = before.read_snapshot(after)
    pair = (sequence[0], sequence[-1])
    return _decide(before, (sequence,), pair, after, numbers_results(before, sequence))


def _decide(before: Position, sequences: Orders, pair: Dice, after: Position, results: dict[Position, Play]) -> Play:
    for result, play in results.items():
        if result.same_board(after):
            return play
    legal = sorted(results.values(), key=Play.notation)
    violations, unfinished = diagnose(before, sequences, after, results, before.step_rules(pair))
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
    before: Position, sequences: Orders, after: Position, results: dict[Position, Play], rules: Rules
) -> tuple[list[Violation], bool]:
    """The rules ``after`` breaks, and whether it is an unfinished legal play.

    ``sequences`` are the orders the numbers may be played in (both orders
    of a roll, or one), ``results`` the legal results, ``rules`` the step
    rules of this turn.
    """
    facing = rules.facing
    mover_color = before.turn
    me0, opp0 = before.mover, before.opponent
    me1, opp1 = after.side(mover_color), after.side(mover_color.other)
    status = after.status()
    if status & ~(Status.SHARED_POINT | Status.BAD_PIN):
        return [Violation.CHECKER_COUNT_CHANGED], False
    pinned = before.pinned(mover_color)
    if any(me1[point] < 1 for point in pinned):
        return [Violation.PINNED_MOVED], False
    if pinned and me1[OFF] > me0[OFF]:
        return [Violation.PINNED_BEAR_OFF], False
    if status & (Status.SHARED_POINT | Status.BAD_PIN):
        closed_at = 1 if rules.landing is Landing.BLOCK else 2
        closed = [p for p in range(1, 25) if me1[p] and opp1[facing[p]] and opp0[facing[p]] >= closed_at]
        return [Violation.BLOCKED_POINT if closed else Violation.INVALID_POSITION], False
    waiting0, waiting1 = before.waiting(mover_color), after.waiting(mover_color)
    if after.waiting(mover_color.other) != before.waiting(mover_color.other):
        return [Violation.OPPONENT_MOVED], False
    if not _only_blots_hit(opp0, opp1, hits_allowed=rules.landing is Landing.HIT):
        return [Violation.OPPONENT_MOVED], False
    if not _moves_forward(entering_from_bar(me0, waiting0), entering_from_bar(me1, waiting1)):
        return [Violation.WRONG_DIRECTION], False
    if me0 == me1 and opp0 == opp1:
        has_play = any(play.steps for play in results.values())
        return ([Violation.NO_MOVE], True) if has_play else ([], False)

    target = bytes(me1) + bytes(opp1)
    legal_keys = {bytes(r.side(mover_color)) + bytes(r.side(mover_color.other)) for r in results}
    reached = reachable(before, sequences, rules)
    if target in reached:
        head_used = me0[HEAD] - me1[HEAD]
        on_the_way = after.with_turn(mover_color)
        for rest in reached[target]:
            rest_rules = rules
            if rules.head_limit is not None:
                rest_rules = replace(rules, head_limit=max(rules.head_limit - head_used, 0))
            if reachable(on_the_way, (rest,), rest_rules).keys() & legal_keys:
                return [_too_few(sequences)], True
        one_die_plays = all(len(play.steps) == 1 for play in results.values())
        if len(sequences) == 2 and one_die_plays:
            return [Violation.MUST_USE_LARGER], False
        return [_too_few(sequences)], False
    waivers = {rule: waiver for rule, waiver in _WAIVERS.items() if _applies(rules, waiver)}
    for rule, waiver in waivers.items():
        if target in reachable(before, sequences, replace(rules, **waiver)):
            return [rule], False
    everything = {key: value for waiver in waivers.values() for key, value in waiver.items()}
    if target in reachable(before, sequences, replace(rules, **everything)):
        needed = []
        for rule, waiver in waivers.items():
            others = {k: v for w_rule, w in waivers.items() if w_rule is not rule for k, v in w.items()}
            if target not in reachable(before, sequences, replace(rules, **others)):
                needed.append(rule)
        return needed or list(waivers), False
    return [Violation.DICE_MISMATCH], False


_WAIVERS: dict[Violation, dict[str, Any]] = {
    Violation.BAR_FIRST: {"bar_first": False},
    Violation.BLOCKED_POINT: {"closed_points": False},
    Violation.NOT_ALL_HOME: {"all_home_to_bear_off": False},
    Violation.BEAR_OFF_HIGHER: {"highest_first": False},
    Violation.HEAD_RULE: {"head_limit": None},
    Violation.SIX_PRIME: {"six_prime": False},
    Violation.MUST_BEAR_OFF: {"compulsory_bear_off": False},
}
"""How to switch each rule off, to see whether the play needed that."""


def _applies(rules: Rules, waiver: dict[str, Any]) -> bool:
    """Whether the rule a waiver switches off is in force in these rules."""
    return any(getattr(rules, name) != value for name, value in waiver.items())


def _too_few(sequences: Orders) -> Violation:
    """Two orders are a roll of two different numbers; one order is a double or passed numbers."""
    return Violation.MUST_USE_BOTH if len(sequences) == 2 else Violation.MUST_PLAY_MORE


def _only_blots_hit(opp0: Counts, opp1: Counts, hits_allowed: bool) -> bool:
    """The opponent's only change may be blots sent to the bar (where hitting exists)."""
    if not hits_allowed:
        return opp0 == opp1
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
