"""Benchmark: what checking every message against its schema costs the director.

  .venv/bin/python -m tests.net.bench_schemas [--repeat 5000]

Real messages of the recorded demo match (its events, its finished board's snapshot) go through
:meth:`app.net.director.Director.take` as the network thread hands them over, checked and taken, and through
:func:`app.net.schemas.parse` alone; printed: microseconds a message, the best of five runs;
the JSON parsing alone beside them.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Callable

from app.net import schemas
from app.net.client import BrokerConfig
from app.net.director import Director
from app.net.messages import dumps
from app.net.snapshot import BoardState
from app.net.station import entry_message
from app.net.topics import Topics
from app.record.session import Session
from tests.net.replay import record_demo, recorded

PREFIX = "tavla/bench"


def per_message(run: Callable[[], None], count: int) -> float:
    """Microseconds a message, the best of five runs of ``count`` (the machine is shared: the least disturbed)."""
    times = []
    for _ in range(5):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) / count * 1e6)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5000, help="snapshots taken a run")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tavla-bench-schemas-"))
    setup, events = recorded(record_demo(folder / "demo.sqlite"))
    session = Session.create(folder / "board.sqlite", setup)
    for event in events:
        session.submit(event)
    entries = list(session.journal.entries())
    session.close()
    state = BoardState()
    for entry in entries:
        state.add(entry)
    snapshot = dumps(state.snapshot("1"))
    messages = [dumps(entry_message("1", entry)) for entry in entries]
    topics = Topics(PREFIX)

    def take_events() -> None:
        director = Director(BrokerConfig(), PREFIX)
        for payload in messages:
            director.take(topics.events("1"), payload)

    def take_snapshots() -> None:
        director = Director(BrokerConfig(), PREFIX)
        for _ in range(args.repeat):
            director.take(topics.snapshot("1"), snapshot)

    def check_snapshots() -> None:
        for _ in range(args.repeat):
            schemas.parse("snapshot", snapshot)

    def parse_snapshots() -> None:
        for _ in range(args.repeat):
            json.loads(snapshot)

    average_event = sum(map(len, messages)) / len(messages)
    print(f"{len(messages)} event messages (average {average_event:.0f} bytes), snapshot {len(snapshot)} bytes")
    print(f"director takes an event message:   {per_message(take_events, len(messages)):6.1f} us")
    print(f"director takes a snapshot:         {per_message(take_snapshots, args.repeat):6.1f} us")
    print(f"parse and check a snapshot:        {per_message(check_snapshots, args.repeat):6.1f} us")
    print(f"parse a snapshot (JSON only):      {per_message(parse_snapshots, args.repeat):6.1f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
