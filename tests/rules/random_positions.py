"""Seeded random positions of every kind the referee meets, for tests and benchmarks.

The kinds are chosen to reach every branch of the rules: open contact,
races, checkers on the bar against strong boards, bear-offs with and without
contact, and closed boards.
"""

from __future__ import annotations

import random
from typing import Iterator

from rules.position import BAR, CHECKERS, OFF, Color, Position

KINDS = ("contact", "race", "bar", "bearoff", "closed")


def place_checkers(rng: random.Random, counts: list[int], points: list[int], n: int, taken: set[int]) -> None:
    """Put n checkers on random points of ``points`` not in ``taken`` (own numbering)."""
    free = [p for p in points if p not in taken]
    for _ in range(n):
        if not free:
            counts[OFF] += 1
            continue
        counts[rng.choice(free)] += 1


def random_position(rng: random.Random, kind: str | None = None) -> Position:
    """One valid position of the given kind (random kind if None), random side to move."""
    kind = kind or rng.choice(KINDS)
    me = [0] * 26
    opp = [0] * 26
    if kind == "contact":
        n_me, n_opp = rng.randint(8, 15), rng.randint(8, 15)
        place_checkers(rng, me, list(range(1, 25)), n_me, set())
        place_checkers(rng, opp, list(range(1, 25)), n_opp, {25 - p for p in range(1, 25) if me[p]})
        if rng.random() < 0.25:
            moved = min(rng.randint(1, 2), sum(me[1:25]))
            for _ in range(moved):
                src = rng.choice([p for p in range(1, 25) if me[p]])
                me[src] -= 1
                me[BAR] += 1
    elif kind == "race":
        split = rng.randint(4, 20)
        place_checkers(rng, me, list(range(1, split + 1)), rng.randint(1, 15), set())
        place_checkers(rng, opp, list(range(1, 25 - split)), rng.randint(1, 15), set())
    elif kind == "bar":
        closed = rng.sample(range(1, 7), rng.randint(2, 5))
        for p in closed:
            opp[p] = 2
        place_checkers(rng, opp, list(range(1, 25)), rng.randint(0, 15 - 2 * len(closed)), set())
        me[BAR] = rng.randint(1, 4)
        place_checkers(rng, me, list(range(1, 25)), rng.randint(0, 11), {25 - p for p in range(1, 25) if opp[p]})
    elif kind == "bearoff":
        place_checkers(rng, me, list(range(1, 7)), rng.randint(1, 15), set())
        if rng.random() < 0.5:
            place_checkers(rng, opp, list(range(1, 25)), rng.randint(1, 15), {25 - p for p in range(1, 25) if me[p]})
        else:
            place_checkers(rng, opp, list(range(1, 19)), rng.randint(1, 15), {25 - p for p in range(1, 25) if me[p]})
    elif kind == "closed":
        for p in range(1, 7):
            opp[p] = 2
        place_checkers(rng, opp, list(range(7, 25)), rng.randint(0, 3), set())
        me[BAR] = rng.randint(0, 2)
        held = {25 - p for p in range(1, 25) if opp[p]}
        place_checkers(rng, me, list(range(1, 25)), rng.randint(3, 13 - me[BAR]), held)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    for side in (me, opp):
        side[OFF] = CHECKERS - sum(side[1:])
    turn = rng.choice((Color.WHITE, Color.BLACK))
    return Position.from_sides(tuple(me), tuple(opp), turn).with_turn(turn)


def random_roll(rng: random.Random) -> tuple[int, int]:
    return (rng.randint(1, 6), rng.randint(1, 6))


def random_cases(seed: int, count: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """``count`` (valid position, roll) pairs, the same for the same seed."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        position = random_position(rng)
        if position.status() or position.winner() is not None:
            continue
        yield position, random_roll(rng)
        made += 1
