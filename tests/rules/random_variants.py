"""Seeded random positions of plakoto (with pins) and acey-deucey (with checkers still to enter).

They aim at the places where these rules bite: pins on every part of the
board including the 24-point mothers, pinned checkers in the home board
while bearing off, and entering checkers mixed with hit ones on the bar.
"""

from __future__ import annotations

import random
from typing import Iterator

from rules.position import BAR, CHECKERS, NO_ASIDE, OFF, Aside, Color, Position
from tests.rules.random_positions import place_checkers, random_roll


def random_plakoto(rng: random.Random, kind: type[Position]) -> Position:
    """A valid plakoto position: random pins first, then the other checkers where they may stand."""
    white = [0] * 26
    black = [0] * 26
    pins: dict[Color, list[int]] = {Color.WHITE: [], Color.BLACK: []}
    used: set[int] = set()  # White's numbering
    phase = rng.choice(("opening", "middle", "home"))
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        if phase == "home":
            point = rng.choice([*range(1, 7), *range(19, 25)])
        elif phase == "opening" and rng.random() < 0.5:
            point = rng.choice((1, 24))  # a mother pinned
        else:
            point = rng.randint(1, 24)
        if point in used:
            continue
        used.add(point)
        pinned = rng.choice((Color.WHITE, Color.BLACK))
        pinners = rng.randint(1, 3)
        if pinned is Color.WHITE:
            white[point] = 1
            black[25 - point] = pinners
            pins[Color.WHITE].append(point)
        else:
            black[25 - point] = 1
            white[point] = pinners
            pins[Color.BLACK].append(25 - point)
    for counts, other in ((white, black), (black, white)):
        taken = {p for p in range(1, 25) if other[25 - p]}  # where the other side stands, pins included
        left = CHECKERS - sum(counts)
        points = list(range(1, 25))
        if phase == "opening" and 24 not in taken and not counts[24]:
            counts[24] += rng.randint(0, left)
            left = CHECKERS - sum(counts)
        elif phase == "home":
            points = list(range(1, 7)) if rng.random() < 0.7 else list(range(1, 13))
            counts[OFF] += rng.randint(0, left - 1)  # at least one checker stays in play
            left = CHECKERS - sum(counts)
        place_checkers(rng, counts, points, left, taken | set(pins[Color.WHITE if counts is white else Color.BLACK]))
    aside = Aside(tuple(sorted(pins[Color.WHITE])), tuple(sorted(pins[Color.BLACK])))
    turn = rng.choice((Color.WHITE, Color.BLACK))
    return kind(tuple(white), tuple(black), turn, aside if aside != NO_ASIDE else NO_ASIDE)


def random_acey(rng: random.Random, kind: type[Position]) -> Position:
    """A valid acey-deucey position: some checkers still to enter, some on the bar, the rest anywhere."""
    sides = []
    waiting = []
    taken: set[int] = set()  # White's numbering of points the first side holds
    for index in range(2):
        counts = [0] * 26
        stage = rng.choice(("entering", "entering", "middle", "home"))
        wait = rng.randint(1, 15) if stage == "entering" else 0
        if stage == "home":
            counts[OFF] = rng.randint(0, 14)
        counts[BAR] = rng.choice((0, 0, 1, 2)) if stage != "home" else 0
        left = CHECKERS - wait - counts[OFF] - counts[BAR]
        if left < 0:
            counts[BAR] = 0
            left = CHECKERS - wait - counts[OFF]
        points = list(range(1, 7)) if stage == "home" else list(range(1, 25))
        own_taken = {p if index == 0 else 25 - p for p in taken}
        place_checkers(rng, counts, points, left, own_taken)
        if stage != "home" and counts[OFF]:
            wait += counts[OFF]  # nobody bears off before all have entered: these are still to enter
            counts[OFF] = 0
        if index == 0:
            taken = {p for p in range(1, 25) if counts[p]}
        sides.append(tuple(counts))
        waiting.append(wait)
    aside = Aside(white_waiting=waiting[0], black_waiting=waiting[1])
    turn = rng.choice((Color.WHITE, Color.BLACK))
    return kind(sides[0], sides[1], turn, aside if aside != NO_ASIDE else NO_ASIDE)


def plakoto_cases(seed: int, count: int, kind: type[Position]) -> Iterator[tuple[Position, tuple[int, int]]]:
    rng = random.Random(seed)
    for _ in range(count):
        yield random_plakoto(rng, kind), random_roll(rng)


def acey_cases(seed: int, count: int, kind: type[Position]) -> Iterator[tuple[Position, tuple[int, int]]]:
    rng = random.Random(seed)
    for _ in range(count):
        yield random_acey(rng, kind), random_roll(rng)
