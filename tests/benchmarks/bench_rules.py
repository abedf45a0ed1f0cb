"""Speed of the rules core, with GNU Backgammon timed on the same cases as a reference.

    .venv/bin/python -m tests.benchmarks.bench_rules [--cases 10000]

Prints the time to list every legal play of 10,000 random (position, roll)
cases, and p50/p99/max of ``judge`` on legal boards, on worst-case doubles,
and on illegal boards (which run the diagnosis). One process, one core.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from pathlib import Path
from typing import Callable

from rules.errors import IllegalPlay
from rules.gnubg_id import encode_position_id
from rules.judge import judge
from rules.movegen import legal_plays, legal_results
from rules.position import Position
from tests.progress import Progress, tracked
from tests.rules.gnubg import oracle
from tests.rules.random_positions import random_cases

REPEATS = 5
"""Runs of each timing; the machine is shared, so the best run is the code's own speed."""

GNUBG_TIMER = """
import json, os, time
import gnubg
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("new session")
cases = json.load(open(os.environ["TAVLA_ORACLE_IN"]))
total = 0.0
for case in cases:
    gnubg.command("set board " + case["position_id"])
    gnubg.command("set dice %d %d" % tuple(case["dice"]))
    start = time.perf_counter()
    gnubg.hint(100000)
    total += time.perf_counter() - start
json.dump([{"seconds": total}], open(os.environ["TAVLA_ORACLE_OUT"], "w"))
"""


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {p50 * 1e3:.3f} ms  p99 {p99 * 1e3:.3f} ms  max {ordered[-1] * 1e3:.3f} ms  (n={len(ordered)})"


def timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def worst_doubles() -> list[tuple[Position, tuple[int, int]]]:
    """Positions with the most distinct results: checkers spread thin, small doubles."""
    spread = Position.build({p: 1 for p in range(1, 16)}, {1: 15})
    spread_far = Position.build({p: 1 for p in range(10, 25)}, {})
    start = Position.start()
    return [(board, (d, d)) for board in (spread, spread_far, start) for d in (1, 2, 3)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cases = list(random_cases(args.seed, args.cases))
    print(f"python {platform.python_version()} on {platform.machine()}, {len(cases)} random cases (seed {args.seed})")

    runs = sorted(
        timed(lambda: all(legal_results(p, d) for p, d in cases))
        for _ in tracked(range(REPEATS), "legal_results, timed runs", every_s=0)
    )
    print(
        f"legal_results (positions + plays):     best {runs[0]:.3f} s, median {statistics.median(runs):.3f} s"
        f" of {REPEATS} runs ({runs[0] / len(cases) * 1e6:.0f} us/case)"
    )
    runs = sorted(
        timed(lambda: all([play.notation() for play in legal_plays(p, d)] for p, d in cases))
        for _ in tracked(range(REPEATS), "legal_plays with notation, timed runs", every_s=0)
    )
    print(f"legal_plays with notation:             best {runs[0]:.3f} s, median {statistics.median(runs):.3f} s")

    rng = random.Random(args.seed)
    legal_samples: list[float] = []
    illegal_samples: list[float] = []
    for position, dice in tracked(cases, "judge, legal boards"):
        results = list(legal_results(position, dice))
        after = rng.choice(results)
        start = time.perf_counter()
        judge(position, dice, after)
        legal_samples.append(time.perf_counter() - start)
    for position, dice in tracked(cases[:2000], "judge, illegal boards"):
        wrong = position.with_turn(position.turn.other)  # nothing moved, or another roll's board
        other = list(legal_results(position, (dice[0] % 6 + 1, dice[1])))
        for after in (wrong, rng.choice(other)):
            start = time.perf_counter()
            try:
                judge(position, dice, after)
            except IllegalPlay:
                pass
            illegal_samples.append(time.perf_counter() - start)
    doubles_samples: list[float] = []
    for position, dice in worst_doubles():
        results = list(legal_results(position, dice))
        for after in results[:: max(1, len(results) // 50)]:
            start = time.perf_counter()
            judge(position, dice, after)
            doubles_samples.append(time.perf_counter() - start)
        print(f"  worst case {encode_position_id(position)} {dice}: {len(results)} distinct results")
    print(f"judge, legal boards:                   {percentiles(legal_samples)}")
    print(f"judge, worst-case doubles:             {percentiles(doubles_samples)}")
    print(f"judge, illegal boards (diagnosis):     {percentiles(illegal_samples)}")

    if oracle.available():
        script = Path("/tmp/tavla_gnubg_timer.py")
        script.write_text(GNUBG_TIMER)
        requests = [{"id": i, "position_id": encode_position_id(p), "dice": list(d)} for i, (p, d) in enumerate(cases)]
        Progress(f"GNU Backgammon reference, {len(requests)} hints (no progress from inside it)")
        answer = oracle.run_script(script, requests, timeout=3600)
        print(f"reference: GNU Backgammon hint (0-ply, includes evaluation): {answer[0]['seconds']:.3f} s")
    else:
        print("reference: GNU Backgammon not installed (run .ci/setup --test)")


if __name__ == "__main__":
    main()
