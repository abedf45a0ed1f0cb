"""How long a hall takes from a result sheet confirmed to the next round's match on its board, through the broker.

    .venv/bin/python -m tests.net.bench_hall [--boards 200] [--players 128] [--seed 1] [--per-process 50]

One Mosquitto (TLS, a password per board, the tournament's access rules), ``--boards`` stations online waiting
for their match (``--per-process`` to a process) and the director with its tournament book and results folder in
this process. A main draw with a two-round
consolation and a last-chance bracket is played to the end: each station takes its assignment from its inbox and
plays a match shortened to its result (a real session and journal: the opening, a play or two, a resignation, both
players confirming the sheet), the director writes the result into the book by itself, and an assigner (the
director at the desk, looking at the book every 10 ms) puts each match that became playable on a free board.

For every match made playable by a played one, it times from the later confirmation of its feeding matches to
the assignment received by its station, and in two parts: confirmation to assignment sent (the station
publishing, the director taking the result into the book, the assigner seeing it) and assignment sent to
received. Prints p50/p99/max in milliseconds and the counts that must be 0.
"""

from __future__ import annotations

import argparse
import collections
import logging
import multiprocessing
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.net.client import BrokerConfig
from app.net.director import Director
from app.net.tournament_book import TournamentBook
from tests.net.broker import Mosquitto, available
from tests.net.hall_day import Assigner, Day, Played

PREFIX = "tavla/bench-hall"


@dataclass(frozen=True)
class Accounts:
    """Each board's way in, for a process of stations (the broker itself stays in the benchmark's process)."""

    configs: dict[str, BrokerConfig]

    def config(self, user: str) -> BrokerConfig:
        return self.configs[user]


def _stations(hall: Accounts, boards: list[str], folder: Path, seed: int, out: Any, stop: Any) -> None:
    """One process of stations (a paho client waits in select(), which takes file numbers below 1024 only: a
    process hosts 50 stations, as the tablets are many)."""
    logging.basicConfig(level=logging.ERROR)
    day = Day(hall, PREFIX, boards, folder, seed=seed, workers=4).start()
    out.put(("online", day.online()))
    stop.wait()
    day.stop()
    out.put(("done", (day.played, day.received)))


def _figures(name: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p99 = statistics.quantiles(ms, n=100)[98] if len(ms) >= 2 else ms[0]
    return f"{name:<34} p50 {statistics.median(ms):7.0f}  p99 {p99:7.0f}  max {ms[-1]:7.0f}  (n={len(ms)})"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.net.bench_hall")
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-process", type=int, default=50, help="stations a process hosts")
    args = parser.parse_args()
    problem = available()
    if problem:
        raise SystemExit(problem)
    logging.basicConfig(level=logging.ERROR)
    boards = [str(b) for b in range(1, args.boards + 1)]
    context = multiprocessing.get_context("spawn")
    out, stop = context.Queue(), context.Event()
    played: list[Played] = []
    received: list[tuple[str, str, float]] = []
    with tempfile.TemporaryDirectory() as name, Mosquitto(Path(name) / "broker", PREFIX, boards) as hall:
        folder = Path(name)
        accounts = Accounts({b: hall.config(b) for b in boards})
        groups = [boards[i : i + args.per_process] for i in range(0, len(boards), args.per_process)]
        processes = [
            context.Process(target=_stations, args=(accounts, group, folder / f"boards{i}", args.seed, out, stop))
            for i, group in enumerate(groups)
        ]
        for process in processes:
            process.start()
        rules = {"event": "Bench Hall Open", "consolation_rounds": 2, "last_chance": True, "lengths": [1]}
        book = TournamentBook.create(folder / "book.sqlite", rules, "director")
        director = Director(hall.config("director"), PREFIX, folder / "results", book=book).start()
        assigner = Assigner(boards, director)
        try:
            for i in range(args.players):
                director.act({"do": "register", "name": f"Player {i + 1}"}, "director")
            director.act({"do": "draw", "seed": args.seed}, "director")
            online = [out.get(timeout=600) for _ in processes]
            matches = len(book.tournament.matches)
            print(f"{args.boards} stations online: {all(ok for _, ok in online)}; {matches} matches drawn")
            start = time.monotonic()
            assigner.start()
            while not book.tournament.finished() and time.monotonic() - start < 1800:
                time.sleep(0.1)
            played_for = time.monotonic() - start
            time.sleep(2)  # anything late or doubled would arrive now
        finally:
            assigner.stop()
            stop.set()
            for _ in processes:
                kind, (their_played, their_received) = out.get(timeout=120)
                played += their_played
                received += their_received
            for process in processes:
                process.join(timeout=60)
            director.stop()
        tournament = book.tournament
        actions = [a for a in book.actions() if a["do"] == "result"]
        book.close()
    confirmed = {p.match: p.confirmed for p in played}
    times = collections.Counter(m for _, m, _ in received)
    when_received = {m: t for _, m, t in received}
    taken = collections.Counter(a["match"] for a in actions)
    total, to_assigned, to_station = [], [], []
    for match in tournament.matches.values():
        feeders = [p.winner_of or p.loser_of for p in match.places]
        confirmations = [confirmed[f] for f in feeders if f in confirmed]
        if not confirmations or match.id not in when_received:
            continue
        total.append(when_received[match.id] - max(confirmations))
        to_assigned.append(assigner.assigned[match.id] - max(confirmations))
        to_station.append(when_received[match.id] - assigner.assigned[match.id])
    lost = sum(1 for m in confirmed if taken[m] == 0)
    doubled = sum(n - 1 for n in taken.values()) + sum(n - 1 for n in times.values())
    decided = sum(1 for m in tournament.matches.values() if m.result is not None)
    print(
        f"players {args.players}; boards {args.boards} in {len(groups)} processes; matches {len(tournament.matches)},"
        f" decided {decided}, played on boards {len(played)}; finished {tournament.finished()} in {played_for:.1f} s"
    )
    print(_figures("confirmed -> station set-up, ms", total))
    print(_figures("  confirmed -> assignment sent, ms", to_assigned))
    print(_figures("  assignment sent -> received, ms", to_station))
    print(f"lost results {lost}; doubled results or assignments {doubled}")


if __name__ == "__main__":
    main()
