"""A deliberately simple reference enumerator, written from docs/rules.md alone.

It shares no code with the fast generator in ``rules.movegen``: checkers
are tracked by their progress along their own path over the absolute board
(White's numbering), every order of the dice and every checker choice is
tried, and the rules are applied one step at a time as the text states them.
It is slow and only for tests, which compare its results with the real
generator's on thousands of random positions.
"""

from __future__ import annotations

import itertools
from typing import Iterable, Sequence

from rules.position import NO_ASIDE, Aside, Color, Position

BAR_PROGRESS = -1
WAITING_PROGRESS = -2
"""Acey-deucey: not entered yet; enters like a checker on the bar, but need not enter first."""
OFF_PROGRESS = 24

TAVLA = "tavla"
TURKISH = "turkish"
"""Tavla with compulsory bear-off (docs/rules.md section 3)."""
UZUN = "uzun"
ACEY = "acey"
"""Tavla with an empty start: checkers enter from off the board (docs/rules.md section 3)."""


def paths(game: str) -> dict[Color, list[int]]:
    """Each side's path over the absolute board, as White numbers the points, first point first."""
    white = list(range(24, 0, -1))
    if game == UZUN:
        black = list(range(12, 0, -1)) + list(range(24, 12, -1))
    elif game not in (TAVLA, TURKISH, ACEY):
        raise ValueError(f"the reference knows tavla, turkish, acey and uzun, not {game!r}")
    else:
        black = list(range(1, 25))
    return {Color.WHITE: white, Color.BLACK: black}


Board = tuple[tuple[int, ...], tuple[int, ...]]
"""Sorted progress values of the mover's 15 checkers, then of the opponent's."""


def board_of(position: Position) -> Board:
    """Progress of every checker: own point p is progress 24 - p; off 24; bar -1; not entered -2."""

    def progress(counts: tuple[int, ...], waiting: int) -> tuple[int, ...]:
        values: list[int] = [WAITING_PROGRESS] * waiting
        for slot, n in enumerate(counts):
            if slot == 0:
                values += [OFF_PROGRESS] * n
            elif slot == 25:
                values += [BAR_PROGRESS] * n
            else:
                values += [24 - slot] * n
        return tuple(sorted(values))

    mover = position.turn
    return progress(position.mover, position.waiting(mover)), progress(position.opponent, position.waiting(mover.other))


def position_of(board: Board, mover: Color, kind: type[Position]) -> Position:
    def counts(values: tuple[int, ...]) -> tuple[int, ...]:
        slots = [0] * 26
        for value in values:
            if value == WAITING_PROGRESS:
                continue
            slot = 0 if value == OFF_PROGRESS else 25 if value == BAR_PROGRESS else 24 - value
            slots[slot] += 1
        return tuple(slots)

    me, opp = counts(board[0]), counts(board[1])
    white, black = (me, opp) if mover is Color.WHITE else (opp, me)
    waiting = [board[0].count(WAITING_PROGRESS), board[1].count(WAITING_PROGRESS)]
    if mover is Color.BLACK:
        waiting.reverse()
    aside = Aside(white_waiting=waiting[0], black_waiting=waiting[1]) if any(waiting) else NO_ASIDE
    return kind.unchecked(white, black, mover.other, aside)


def _occupants(board: Board, mover: Color, game: str) -> tuple[dict[int, int], dict[int, int]]:
    """Checker counts on each absolute point, for the mover and the opponent."""
    route = paths(game)
    mine: dict[int, int] = {}
    theirs: dict[int, int] = {}
    for value in board[0]:
        if 0 <= value < 24:
            point = route[mover][value]
            mine[point] = mine.get(point, 0) + 1
    for value in board[1]:
        if 0 <= value < 24:
            point = route[mover.other][value]
            theirs[point] = theirs.get(point, 0) + 1
    return mine, theirs


def _six_in_a_row(board: Board, mover: Color, game: str, landed: int) -> bool:
    """docs/rules.md section 4: a forbidden block of six along the opponent's path through ``landed``."""
    route = paths(game)
    opponent_path = route[mover.other]
    mine, _ = _occupants(board, mover, game)
    held = [mine.get(point, 0) > 0 for point in opponent_path]
    index = opponent_path.index(landed)
    start = index
    while start > 0 and held[start - 1]:
        start -= 1
    end = index
    while end < 23 and held[end + 1]:
        end += 1
    if end - start + 1 < 6:
        return False
    past = any(value > end for value in board[1])  # borne-off checkers (24) are past too
    return not past


def _single_moves(board: Board, mover: Color, game: str, die: int, head_left: int) -> Iterable[tuple[Board, int]]:
    """Every board after moving one checker by ``die`` under the rules, with the head budget left."""
    route = paths(game)
    mine_values, their_values = list(board[0]), list(board[1])
    on_bar = BAR_PROGRESS in mine_values
    all_home = all(value >= 18 for value in mine_values)
    lowest = min(mine_values)
    hitting = game != UZUN
    # Turkish tavla: if this die can bear a checker off, it must.
    can_bear_off = all_home and any(
        v + die == 24 or (v + die > 24 and v == lowest) for v in mine_values if v != OFF_PROGRESS
    )
    must_bear_off = game == TURKISH and can_bear_off
    for index in sorted(set(range(15)), key=lambda i: mine_values[i]):
        value = mine_values[index]
        if value == OFF_PROGRESS:
            continue
        if on_bar and value != BAR_PROGRESS:
            continue  # bar first
        if game == UZUN and value == 0 and head_left == 0:
            continue  # head rule
        target = (BAR_PROGRESS if value == WAITING_PROGRESS else value) + die
        new_theirs = list(their_values)
        if target < 24:
            if must_bear_off:
                continue
            point = route[mover][target]
            _, theirs = _occupants(board, mover, game)
            count = theirs.get(point, 0)
            if not hitting and count >= 1:
                continue
            if hitting and count >= 2:
                continue
            if hitting and count == 1:
                hit = next(i for i, v in enumerate(their_values) if 0 <= v < 24 and route[mover.other][v] == point)
                new_theirs[hit] = BAR_PROGRESS
        else:
            if not all_home:
                continue
            if target > 24 and value != lowest:
                continue  # a checker farther from home must be played first
            target = OFF_PROGRESS
        new_mine = list(mine_values)
        new_mine[index] = target
        new_board = (tuple(sorted(new_mine)), tuple(sorted(new_theirs)))
        if game == UZUN and target < 24:
            point = route[mover][target]
            was_held = any(0 <= v < 24 and route[mover][v] == point for v in mine_values)
            if not was_held and _six_in_a_row(new_board, mover, game, point):
                continue
        used_head = game == UZUN and value == 0
        yield new_board, head_left - (1 if used_head else 0)


def reference_results(position: Position, dice: tuple[int, int], game: str, head_limit: int = 1) -> set[Position]:
    """Every legal result, by brute force over dice orders and checker choices."""
    orders = [dice * 2] if dice[0] == dice[1] else list(itertools.permutations(dice))
    return _results(position, orders, game, head_limit, larger_rule=dice[0] != dice[1])


def reference_sequence_results(position: Position, numbers: Sequence[int], game: str) -> set[Position]:
    """Results of numbers played in this order only, as many as possible (passed numbers)."""
    return _results(position, [tuple(numbers)], game, 1, larger_rule=False)


def _results(
    position: Position, orders: Sequence[tuple[int, ...]], game: str, head_limit: int, larger_rule: bool
) -> set[Position]:
    if game == PLAKOTO:
        return _plakoto_results(position, orders, larger_rule)
    mover = position.turn
    start = board_of(position)
    dice = orders[0]
    finished: list[tuple[Board, int, int]] = []  # board, dice used, first die
    for order in orders:
        frontier = {(start, head_limit)}
        for used in range(len(order)):
            following = set()
            for board, head_left in frontier:
                moves = list(_single_moves(board, mover, game, order[used], head_left))
                if not moves:
                    finished.append((board, used, order[0]))
                following.update(moves)
            frontier = following
        finished.extend((board, len(order), order[0]) for board, _ in frontier)
    most = max(used for _, used, _ in finished)
    kept = [(board, first) for board, used, first in finished if used == most]
    if most == 1 and larger_rule and any(first == max(dice) for _, first in kept):
        kept = [(board, first) for board, first in kept if first == max(dice)]
    return {position_of(board, mover, type(position)) for board, _ in kept}


# Plakoto: each checker is (progress, pinned). Written apart from the rest, from docs/rules.md section 3.

PLAKOTO = "plakoto"

Checker = tuple[int, bool]
PinBoard = tuple[tuple[Checker, ...], tuple[Checker, ...]]


def _plakoto_board(position: Position) -> PinBoard:
    def side(color: Color) -> tuple[Checker, ...]:
        counts = position.side(color)
        pinned = set(position.pinned(color))
        checkers: list[Checker] = [(OFF_PROGRESS, False)] * counts[0]
        for point in range(1, 25):
            checkers += [(24 - point, point in pinned)] * counts[point]
        return tuple(sorted(checkers))

    return side(position.turn), side(position.turn.other)


def _plakoto_position(board: PinBoard, mover: Color, kind: type[Position]) -> Position:
    def side(checkers: tuple[Checker, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        slots = [0] * 26
        pins = []
        for value, pinned in checkers:
            slot = 0 if value == OFF_PROGRESS else 24 - value
            slots[slot] += 1
            if pinned:
                pins.append(slot)
        return tuple(slots), tuple(sorted(pins))

    (me, my_pins), (opp, opp_pins) = side(board[0]), side(board[1])
    if mover is Color.WHITE:
        aside = Aside(my_pins, opp_pins)
        return kind.unchecked(me, opp, mover.other, aside if aside != NO_ASIDE else NO_ASIDE)
    aside = Aside(opp_pins, my_pins)
    return kind.unchecked(opp, me, mover.other, aside if aside != NO_ASIDE else NO_ASIDE)


def _plakoto_moves(board: PinBoard, mover: Color, die: int) -> Iterable[PinBoard]:
    """Every board after one checker moves by ``die`` under plakoto's rules."""
    route = paths(TAVLA)
    mine, theirs = board

    def point_of(color: Color, value: int) -> int | None:
        return route[color][value] if 0 <= value < 24 else None

    any_pinned = any(pinned for _, pinned in mine)
    all_home = all(value >= 18 for value, _ in mine)
    farthest = min(value for value, _ in mine)
    for index, (value, pinned) in enumerate(mine):
        if value == OFF_PROGRESS or pinned:
            continue  # borne off, or pinned and frozen
        target = value + die
        new_theirs = list(theirs)
        if target < 24:
            point = route[mover][target]
            if any(p and point_of(mover, v) == point for v, p in mine):
                continue  # my checker is pinned there: the pinner holds the point
            there = [j for j, (v, _) in enumerate(theirs) if point_of(mover.other, v) == point]
            if len(there) >= 2:
                continue
            if len(there) == 1:
                j = there[0]
                new_theirs[j] = (theirs[j][0], True)  # a lone checker is pinned (or stays pinned under mine)
        else:
            if not all_home or any_pinned:
                continue
            if target > 24 and value != farthest:
                continue
            target = OFF_PROGRESS
        new_mine = list(mine)
        new_mine[index] = (target, False)
        left = point_of(mover, value)
        if not any(point_of(mover, v) == left for v, _ in new_mine):
            new_theirs = [(v, False) if point_of(mover.other, v) == left else (v, p) for v, p in new_theirs]
        yield tuple(sorted(new_mine)), tuple(sorted(new_theirs))


def _plakoto_results(position: Position, orders: Sequence[tuple[int, ...]], larger_rule: bool) -> set[Position]:
    mover = position.turn
    start = _plakoto_board(position)
    finished: list[tuple[PinBoard, int, int]] = []
    for order in orders:
        frontier = {start}
        for used, die in enumerate(order):
            following: set[PinBoard] = set()
            for board in frontier:
                moves = list(_plakoto_moves(board, mover, die))
                if not moves:
                    finished.append((board, used, order[0]))
                following.update(moves)
            frontier = following
        finished.extend((board, len(order), order[0]) for board in frontier)
    most = max(used for _, used, _ in finished)
    kept = [(board, first) for board, used, first in finished if used == most]
    top = max(orders[0])
    if most == 1 and larger_rule and any(first == top for _, first in kept):
        kept = [(board, first) for board, first in kept if first == top]
    return {_plakoto_position(board, mover, type(position)) for board, _ in kept}
