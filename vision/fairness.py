"""Are the dice balanced? Chi-square tests on the throws of a match or a session (docs/rules.md section 5: dice must
be balanced precision dice).

Per die: the six faces should come up equally often (5 degrees of freedom). For the pair: the 21 unordered
outcomes should come up 1/36 (doubles) and 2/36 (the rest) of the time (20 degrees of freedom). A die is
flagged when a p-value falls below ``alpha`` (0.001 by default) once there are enough throws for the test to
mean something (every expected count at least ``min_expected``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

FACES = (1, 2, 3, 4, 5, 6)
PAIRS = tuple((a, b) for a in FACES for b in FACES if a <= b)


def gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x): series below a + 1, continued fraction above."""
    if x < 0 or a <= 0:
        raise ValueError("gamma_q needs a > 0 and x >= 0")
    if x == 0:
        return 1.0
    log_pre = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_pre))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_pre) * h)


def chi_square(observed: list[int], probabilities: list[float]) -> tuple[float, float]:
    """(statistic, p-value) of observed counts against the given cell probabilities."""
    n = sum(observed)
    if n == 0:
        return 0.0, 1.0
    stat = sum((o - n * p) ** 2 / (n * p) for o, p in zip(observed, probabilities))
    return stat, gamma_q((len(observed) - 1) / 2, stat / 2)


@dataclass(frozen=True)
class TestResult:
    name: str
    throws: int
    statistic: float
    p_value: float
    enough: bool  # every expected count reaches min_expected
    flagged: bool


@dataclass(frozen=True)
class FairnessReport:
    results: tuple[TestResult, ...]

    @property
    def flagged(self) -> bool:
        return any(r.flagged for r in self.results)


@dataclass(frozen=True)
class FaceCounts:
    """How often each face of one die came up, and the band a fair die stays inside (per face, 99 %)."""

    name: str
    counts: tuple[int, ...]  # faces 1..6

    @property
    def throws(self) -> int:
        return sum(self.counts)

    def band(self, z: float = 2.576) -> tuple[float, float]:
        """Normal approximation of a fair face's count: n/6 +- z standard deviations (z = 2.576: 99 %)."""
        n = self.throws
        spread = z * math.sqrt(n * (1 / 6) * (5 / 6))
        return max(0.0, n / 6 - spread), n / 6 + spread

    def outside(self, z: float = 2.576) -> tuple[int, ...]:
        """The faces whose count lies outside the band."""
        low, high = self.band(z)
        return tuple(face for face, count in zip(FACES, self.counts) if not low <= count <= high)


@dataclass
class FairnessMonitor:
    """Feed throws as (first die, second die). When the two dice can be told apart (colour), keep the order
    consistent and each die gets its own test; ``distinguishable=False`` pools them."""

    alpha: float = 0.001
    min_expected: float = 5.0
    distinguishable: bool = True
    throws: list[tuple[int, int]] = field(default_factory=list)

    def add(self, first: int, second: int) -> None:
        if first not in FACES or second not in FACES:
            raise ValueError(f"dice values must be 1..6, got {first}, {second}")
        self.throws.append((first, second))

    def extend(self, throws: Iterable[tuple[int, int]]) -> None:
        for a, b in throws:
            self.add(a, b)

    def face_counts(self) -> tuple[FaceCounts, ...]:
        """Each die's face counts (both dice together when they cannot be told apart)."""
        if self.distinguishable:
            sets = [("die 1", [t[0] for t in self.throws]), ("die 2", [t[1] for t in self.throws])]
        else:
            sets = [("both dice", [v for t in self.throws for v in t])]
        return tuple(FaceCounts(name, tuple(values.count(f) for f in FACES)) for name, values in sets)

    def report(self) -> FairnessReport:
        n = len(self.throws)
        results = []
        faces = [1 / 6] * 6
        dice_sets = (
            [("die 1", [t[0] for t in self.throws]), ("die 2", [t[1] for t in self.throws])]
            if self.distinguishable
            else [("both dice", [v for t in self.throws for v in t])]
        )
        for name, values in dice_sets:
            counts = [values.count(f) for f in FACES]
            stat, p = chi_square(counts, faces)
            enough = len(values) / 6 >= self.min_expected
            results.append(TestResult(name, len(values), stat, p, enough, enough and p < self.alpha))
        pair_counts = [0] * len(PAIRS)
        index = {pair: i for i, pair in enumerate(PAIRS)}
        for a, b in self.throws:
            pair_counts[index[(min(a, b), max(a, b))]] += 1
        probs = [(1 if a == b else 2) / 36 for a, b in PAIRS]
        stat, p = chi_square(pair_counts, probs)
        enough = n / 36 >= self.min_expected
        results.append(TestResult("pair", n, stat, p, enough, enough and p < self.alpha))
        return FairnessReport(tuple(results))
