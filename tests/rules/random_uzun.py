"""Seeded random uzun tavla positions: first turns, early and middle game, primes, bear-offs."""

from __future__ import annotations

import random

from rules.position import OFF, Color
from rules.steprules import HEAD
from rules.uzun import UZUN_RULES, UzunPosition
from tests.rules.random_positions import place_checkers

KINDS = ("first", "early", "middle", "prime", "bearoff")
FACING = UZUN_RULES.facing


def random_uzun_position(rng: random.Random, kind: str | None = None) -> UzunPosition:
    """One valid uzun tavla position (each side in its own numbering), random side to move."""
    kind = kind or rng.choice(KINDS)
    white = [0] * 26
    black = [0] * 26
    if kind == "first":
        white[HEAD] = 15
        black[HEAD] = 15 - rng.choice((0, 0, 1, 2))
        place_checkers(rng, black, list(range(13, 24)), 15 - black[HEAD], {FACING[p] for p in range(1, 25) if white[p]})
    else:
        if kind == "early":
            white[HEAD] = rng.randint(6, 14)
            place_checkers(rng, white, list(range(10, 24)), 15 - white[HEAD], set())
        elif kind == "middle":
            white[HEAD] = rng.randint(0, 4)
            place_checkers(rng, white, list(range(1, 24)), rng.randint(5, 15 - white[HEAD]), set())
        elif kind == "prime":
            top = rng.randint(6, 23)
            for p in range(top, top - 5, -1):
                white[p] = rng.randint(1, 2)
            white[HEAD] += rng.randint(0, 15 - sum(white))
            place_checkers(rng, white, list(range(1, 24)), rng.randint(0, 15 - sum(white)), set())
        else:  # bearoff
            place_checkers(rng, white, list(range(1, 7)), rng.randint(1, 15), set())
        blocked = {FACING[p] for p in range(1, 25) if white[p]}
        black_head = 0 if HEAD in blocked else rng.randint(0, 8)
        black[HEAD] = black_head
        place_checkers(rng, black, list(range(1, 24)), rng.randint(1, 15 - black_head), blocked | {HEAD})
    white[OFF] = 15 - sum(white[1:])
    black[OFF] = 15 - sum(black[1:])
    turn = rng.choice((Color.WHITE, Color.BLACK)) if kind != "first" else Color.WHITE
    return UzunPosition(tuple(white), tuple(black), turn)
