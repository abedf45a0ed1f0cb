"""How long a director takes from a confirmed result to the next match's station set-up, for a large field.

    .venv/bin/python -m tests.net.bench_tournament [--players 128] [--seed 1]

A 128-player main draw with a two-round consolation and a last-chance bracket is played to the end with random
results, every action through the sealed tournament book (journaled and synced before it takes effect). For each
result it times: the result taken (tried on a copy, journaled, applied), the matches now playable found, and the
station set-up of each new one made. Prints p50/p99/max in milliseconds and the counts that must hold (every
match once, no result lost or doubled after a reopening).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from app.net.tournament_book import TournamentBook


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.net.bench_tournament")
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    key = bytes(range(32))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.sqlite"
        rules = {"event": "Bench Open", "consolation_rounds": 2, "last_chance": True, "lengths": [5, 7, 9, 11]}
        book = TournamentBook.create(path, rules, by="director", key=key)
        for i in range(args.players):
            book.do({"do": "register", "name": f"Player {i}", "rating": rng.randrange(1400, 2100)}, by="director")
        book.do({"do": "draw", "seed": args.seed, "seeded": True}, by="director")
        timings = []
        results = 0
        open_before = {m.id for m in book.tournament.playable()}
        while open_before:
            match = book.tournament.matches[rng.choice(sorted(open_before))]
            winner = rng.choice(book.tournament.players_of(match))
            start = time.perf_counter()
            book.do({"do": "result", "match": match.id, "winner": winner, "score": [5, 3]}, by="board")
            now_open = {m.id for m in book.tournament.playable()}
            for new in sorted(now_open - open_before):
                book.tournament.station_setup(new)
            timings.append((time.perf_counter() - start) * 1000)
            results += 1
            open_before = now_open
        played = {m.id for m in book.tournament.matches.values() if m.result is not None}
        book.close()
        reopened = TournamentBook.open(path, key=key)
        again = {m.id for m in reopened.tournament.matches.values() if m.result is not None}
        reopened.close()
    quantiles = statistics.quantiles(timings, n=100)
    print(f"players {args.players}; results {results}; matches played {len(played)}; after reopening {len(again)}")
    print(f"lost or doubled results: {abs(results - len(played)) + len(played ^ again)}")
    print(
        f"result -> next station set-up, ms: p50 {statistics.median(timings):.1f}  p99 {quantiles[98]:.1f}"
        f"  max {max(timings):.1f}"
    )


if __name__ == "__main__":
    main()
