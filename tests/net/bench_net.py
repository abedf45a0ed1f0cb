"""Benchmark: many simulated boards through one Mosquitto to the director, with a broker crash and a station cut off.

  .venv/bin/python -m tests.net.bench_net [--boards 200] [--speed 10] [--entries 300] [--cut 300]

Each simulated board is a real station: a journal (in /dev/shm, so 200
synchronous commits a second measure the network and not this machine's
disk), a :class:`app.session.Session` the recorded demo match is played into
again, and a :class:`app.net.station.Station` publishing it over TLS with
its own user name. Play is paced as a real match sped up: one turn every
``--turn-seconds`` (12 s, the federation's delay per move) divided by
``--speed``, the turn's entries spread over it; boards start at random
moments of their first turn. The director (this process) takes every
entry, acknowledges it and serves its page, which a thread here polls once
a second like a browser would.

Mid-run the broker is killed with SIGKILL and restarted ``--broker-down``
seconds later, and one station is cut off the network (a relay that stops
forwarding) for ``--cut`` seconds. At the end every board's journal is
compared with what the director holds: entries lost, entries taken twice,
head hash. Bounded: ``--entries`` per board, ``--timeout`` for the whole run.
Loopback only.
"""

from __future__ import annotations

import argparse
import heapq
import json
import multiprocessing
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from app.net.actions import DirectorJournal
from app.net.auth import Accounts
from app.net.client import BrokerConfig
from app.net.director import Director
from app.net.station import Station, StationConfig
from app.net.web import DirectorServer
from app.record.session import Session
from app.referee.events import Event
from app.referee.setup import MatchSetup
from tests.net.broker import Mosquitto, cpu_seconds
from tests.net.proxy import Relay
from tests.net.replay import record_demo, recorded
from tests.progress import Progress

BENCH_PASSWORD = "bench-director-password"

PREFIX = "tavla/bench"
CUT_BOARD = "1"


def schedule(events: list[Event], turn_seconds: float) -> list[float]:
    """Seconds from the board's start at which each event is played: a turn per clock press, spread evenly."""
    times: list[float] = []
    turn: list[Event] = []
    clock = 0.0
    for event in events:
        turn.append(event)
        if event.kind == "clock_pressed":
            step = turn_seconds / len(turn)
            times.extend(clock + step * (i + 1) for i in range(len(turn)))
            clock += turn_seconds
            turn = []
    times.extend(clock + 0.01 * (i + 1) for i in range(len(turn)))
    return times


def last_seq(path: Path) -> int:
    """The journal's last sequence number, read-only (the station may be writing)."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT max(seq) FROM journal").fetchone()
        return int(row[0] or 0)
    finally:
        db.close()


def worker(
    boards: list[str],
    recording: str,
    folder: str,
    configs: dict[str, BrokerConfig],
    turn_seconds: float,
    entries: int,
    start_at: float,
    cut: tuple[float, float] | None,
    results: Any,
    seed: int,
) -> None:
    """One process hosting some boards: play their matches, publish them, report when all are acknowledged."""
    setup, events = recorded(Path(recording))
    events = events[:entries]
    offsets = schedule(events, turn_seconds)
    rng = random.Random(seed)
    sessions: dict[str, Session] = {}
    stations: dict[str, Station] = {}
    relay: Relay | None = None
    for board in boards:
        path = Path(folder) / f"board-{board}.sqlite"
        players = (f"White {board}", f"Black {board}")
        sessions[board] = Session.create(path, MatchSetup.from_dict({**setup.to_dict(), "players": list(players)}))
        config = configs[board]
        if board == CUT_BOARD and cut is not None:
            relay = Relay(config.port)
            config = BrokerConfig(config.host, relay.port, config.username, config.password, config.ca)
        stations[board] = Station(path, StationConfig(config, board, PREFIX)).start()
    queue: list[tuple[float, str, int]] = []
    for board in boards:
        begin = start_at + rng.uniform(0, turn_seconds)
        heapq.heappush(queue, (begin + offsets[0], board, 0))
    cpu0 = time.process_time()
    late: list[float] = []
    cut_done = cut is None
    while queue:
        due, board, index = queue[0]
        now = time.time()
        if relay is not None and cut is not None and not cut_done:
            if now >= cut[0] + cut[1]:
                relay.restore()
                results.put(("restored", board, time.time(), last_seq(Path(folder) / f"board-{board}.sqlite")))
                cut_done = True
            elif now >= cut[0] and not relay.cut_off.is_set():
                relay.cut()
                results.put(("cut", board, time.time(), last_seq(Path(folder) / f"board-{board}.sqlite")))
        if due > now:
            time.sleep(min(due - now, 0.05))
            continue
        heapq.heappop(queue)
        late.append(now - due)
        sessions[board].submit(events[index])
        stations[board].notify()
        if index + 1 < len(events):
            heapq.heappush(queue, (due - offsets[index] + offsets[index + 1], board, index + 1))
    while relay is not None and not cut_done and cut is not None:  # the cut outlasts the match: wait it out
        if time.time() >= cut[0] + cut[1]:
            relay.restore()
            results.put(("restored", CUT_BOARD, time.time(), last_seq(Path(folder) / f"board-{CUT_BOARD}.sqlite")))
            cut_done = True
        time.sleep(0.1)
    played = time.process_time() - cpu0
    deadline = time.time() + 600
    while time.time() < deadline and any(stations[b].acked < len(sessions[b].journal) for b in boards):
        time.sleep(0.2)
    for board in boards:
        stations[board].stop()
        results.put(("board", board, len(sessions[board].journal), sessions[board].journal.head))
        sessions[board].close()
    if relay is not None:
        relay.close()
    late.sort()
    results.put(
        (
            "worker",
            ",".join(boards),
            played,
            late[len(late) // 2] if late else 0.0,
            late[int(len(late) * 0.99)] if late else 0.0,
        )
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--speed", type=float, default=10.0, help="times faster than real play")
    parser.add_argument("--turn-seconds", type=float, default=12.0, help="a turn of real play, seconds")
    parser.add_argument("--entries", type=int, default=300, help="events each board plays (bounds the run)")
    parser.add_argument("--procs", type=int, default=4, help="processes hosting the boards")
    parser.add_argument("--kill-at", type=float, default=0.5, help="broker SIGKILL at this fraction of play")
    parser.add_argument("--broker-down", type=float, default=3.0, help="seconds before the broker restarts")
    parser.add_argument("--cut", type=float, default=300.0, help="seconds board 1 is cut off (0: not at all)")
    parser.add_argument("--cut-at", type=float, default=0.25, help="the cut starts at this fraction of play")
    parser.add_argument("--recording", help="a recorded journal (default: record the demo's 3-point match)")
    parser.add_argument("--timeout", type=float, default=1200.0)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="tavla-bench-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    boards = [str(n) for n in range(1, args.boards + 1)]
    broker = Mosquitto(folder / "broker", PREFIX, boards)
    processes: list[Any] = []
    director: Director | None = None
    server: DirectorServer | None = None
    journal: DirectorJournal | None = None
    try:
        recording = (
            Path(args.recording) if args.recording else record_demo(folder / "recording.sqlite", length=3, board=True)
        )
        _, events = recorded(recording)
        events = events[: args.entries]
        turn = args.turn_seconds / args.speed
        play_seconds = schedule(events, turn)[-1] + turn
        print(
            f"recording: {len(events)} events a board, {play_seconds:.0f} s of play at {args.speed:g}x"
            f" ({len(events) / play_seconds:.1f} events/s a board, {args.boards} boards:"
            f" {len(events) / play_seconds * args.boards:.0f} events/s offered)",
            flush=True,
        )
        broker.start()
        broker_cpu = 0.0
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        start_at = time.time() + 8 + args.boards * 0.05
        cut = (start_at + play_seconds * args.cut_at, args.cut) if args.cut > 0 else None
        configs = {board: broker.config(board) for board in boards}
        for index in range(args.procs):
            mine = boards[index :: args.procs]
            processes.append(
                context.Process(
                    target=worker,
                    args=(
                        mine,
                        str(recording),
                        str(folder),
                        configs,
                        turn,
                        args.entries,
                        start_at,
                        cut if CUT_BOARD in mine else None,
                        results,
                        index,
                    ),
                    daemon=True,
                )
            )
            processes[-1].start()
        director = Director(broker.config("director"), PREFIX).start()
        journal = DirectorJournal(folder / "director.sqlite", PREFIX)
        server = DirectorServer(director, Accounts({"director": BENCH_PASSWORD}), journal, "127.0.0.1", 0).start()
        login = urllib.request.Request(
            server.url + "api/login",
            data=json.dumps({"user": "director", "password": BENCH_PASSWORD}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(login, timeout=30) as response:
            cookie = response.headers["Set-Cookie"].split(";", 1)[0]
        polls: list[float] = []
        stop_polling = threading.Event()

        def poll_page() -> None:  # a browser polling the page's data once a second
            assert server is not None
            while not stop_polling.wait(1.0):
                began = time.perf_counter()
                request = urllib.request.Request(server.url + "api/boards", headers={"Cookie": cookie})
                with urllib.request.urlopen(request, timeout=30) as response:
                    response.read()
                polls.append(time.perf_counter() - began)

        poller = threading.Thread(target=poll_page, daemon=True)
        poller.start()
        director_cpu0 = time.process_time()
        kill_at = start_at + play_seconds * args.kill_at
        waiting = Progress(f"boards playing, the broker is killed at {args.kill_at:.0%} of play", every_s=10)
        while time.time() < kill_at:
            time.sleep(0.05)
            waiting.step(0, note=f"boards heard by the director: {len(director.boards)}")
        assert broker.pid is not None
        broker_cpu += cpu_seconds(broker.pid)
        broker.kill()
        killed = time.time()
        time.sleep(args.broker_down)
        broker.start()
        restarted = time.time()
        at_restart = {b: last_seq(folder / f"board-{b}.sqlite") for b in boards}
        print(f"broker killed at {killed - start_at:.1f} s, restarted {restarted - killed:.1f} s later", flush=True)
        caught_up = None
        cut_info: dict[str, float] = {}
        finished: dict[str, tuple[int, str]] = {}
        workers: list[tuple[Any, ...]] = []
        deadline = time.time() + args.timeout
        done = Progress("boards finished and acknowledged", args.boards, every_s=10)
        while len(workers) < args.procs and time.time() < deadline:
            done.step(0)
            if caught_up is None and all(
                director.boards.get(b) is not None and director.boards[b].held >= seq
                for b, seq in at_restart.items()
                if b != CUT_BOARD or cut is None
            ):
                caught_up = time.time() - restarted
            if (
                "restored" in cut_info
                and "catch_up" not in cut_info
                and CUT_BOARD in director.boards
                and director.boards[CUT_BOARD].held >= cut_info["restored_seq"]
            ):
                cut_info["catch_up"] = time.time() - cut_info["restored"]
            try:
                message = results.get(timeout=0.1)
            except Exception:
                continue
            if message[0] in ("cut", "restored"):
                cut_info[message[0]] = message[2]
                cut_info[message[0] + "_seq"] = message[3]
                print(f"board {CUT_BOARD} {message[0]} at {message[2] - start_at:.1f} s", flush=True)
            elif message[0] == "board":
                finished[message[1]] = (message[2], message[3])
                done.step()
            elif message[0] == "worker":
                workers.append(message)
        director_cpu = time.process_time() - director_cpu0
        stop_polling.set()
        assert broker.pid is not None
        broker_cpu += cpu_seconds(broker.pid)
        lost = sum(
            max(0, total - director.boards[b].held) if b in director.boards else total
            for b, (total, _) in finished.items()
        )
        doubled = sum(
            max(0, director.boards[b].received - total) for b, (total, _) in finished.items() if b in director.boards
        )
        heads_differ = sum(1 for b, (_, head) in finished.items() if director.boards[b].head != head)
        dropped = sum(feed.duplicates for feed in director.boards.values())
        total_entries = sum(total for total, _ in finished.values())
        recovered = restarted + (caught_up if caught_up is not None else args.timeout)
        steady = [
            lat
            for at, lat in director.latencies
            if not killed - 1 <= at <= recovered + 1
            and (cut is None or not cut[0] - 1 <= at <= cut_info.get("restored", 0) + cut_info.get("catch_up", 0))
        ]
        every = [lat for _, lat in director.latencies]
        first = min(at for at, _ in director.latencies)
        last = max(at for at, _ in director.latencies)
        station_cpu = sum(w[2] for w in workers)
        print()
        print(f"boards {args.boards}, entries {total_entries} ({len(finished)} boards reported)")
        print(f"events/s delivered over the play: {total_entries / max(last - first, 1e-9):.0f}")
        print(
            f"latency journal append -> director (outside the outages, {len(steady)} entries): p50 "
            f"{percentile(steady, 0.5) * 1000:.0f} ms, p99 {percentile(steady, 0.99) * 1000:.0f} ms"
        )
        print(
            f"latency over all entries (outages included): p50 {percentile(every, 0.5) * 1000:.0f} ms, p99 "
            f"{percentile(every, 0.99) * 1000:.0f} ms, max {max(every):.1f} s"
        )
        print(f"page data (/api/boards) fetch: median {statistics.median(polls) * 1000:.0f} ms" if polls else "")
        print(
            f"CPU: broker {broker_cpu:.1f} s, director {director_cpu:.1f} s, stations {station_cpu:.1f} s"
            f" (playing), over {last - first:.0f} s"
        )
        print("replay lateness per worker (p50/p99 s): " + ", ".join(f"{w[3]:.2f}/{w[4]:.2f}" for w in workers))
        print(
            f"broker crash: catch-up {caught_up:.1f} s after restart"
            if caught_up is not None
            else "broker crash: no catch-up measured"
        )
        if "restored" in cut_info:
            print(
                f"station cut off {cut_info['restored'] - cut_info['cut']:.0f} s; it journaled entries "
                f"{cut_info['cut_seq'] + 1:.0f} to {cut_info['restored_seq']:.0f} meanwhile; the director held"
                " it all "
                f"{cut_info.get('catch_up', float('nan')):.1f} s after the network came back"
            )
        print(
            f"lost {lost}, doubled in the table {doubled}, duplicates dropped {dropped}, heads differing "
            f"{heads_differ}, chain breaks {sum(f.chain_breaks for f in director.boards.values())}"
        )
        return 0 if lost == 0 and doubled == 0 and heads_differ == 0 and len(finished) == args.boards else 1
    finally:
        for process in processes:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
        if server is not None:
            server.stop()
        if director is not None:
            director.stop()
        if journal is not None:
            journal.close()
        broker.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
