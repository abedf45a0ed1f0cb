"""Crash benchmark: the headless demo killed with SIGKILL many times, resumed each time, compared at the end.

    .venv/bin/python -m tests.app.bench_crash [--kills 60] [--length 5] [--seed 1] [--window 0.8 3.0]

Each run is the user's command (``python -m app demo ... --journal J``) with the real chain: the device
simulators on pty pairs, their drivers, the camera and the dice reader. It is killed with SIGKILL after a
random time in the window (seconds), so kills land anywhere: during start-up, mid-commit, between a device
action and its report. After the kills the demo runs to the end on the same journal. A second journal is
played in one uninterrupted run, and the two are compared entry by entry. Printed: kills, resumes,
entries, events lost, events doubled, entries that differ, rulings that differ on replay, hash chain.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from app.record.journal import Journal
from app.record.session import Session
from tests.progress import Progress

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--window", type=float, nargs=2, default=(0.8, 3.0), metavar=("MIN", "MAX"))
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="tavla-crash-"))
    crashed, reference = folder / "crashed.sqlite", folder / "reference.sqlite"
    demo = [sys.executable, "-m", "app", "demo", "--length", str(args.length), "--seed", str(args.seed), "--quiet"]
    rng = random.Random(2024)
    started = time.monotonic()
    kills = resumes = 0
    sizes: list[int] = []
    progress = Progress("kill and resume the demo", args.kills, every_s=5)
    while kills < args.kills:
        process = subprocess.Popen(
            [*demo, "--journal", str(crashed)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        time.sleep(rng.uniform(*args.window))
        if process.poll() is not None:
            print(f"the match ended after {kills} kills: give a longer match (--length)")
            break
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        kills += 1
        if crashed.exists():
            journal = Journal(crashed)
            sizes.append(len(journal))
            journal.close()
        progress.step(note=f"journal at {sizes[-1] if sizes else 0} entries")
    progress.finish()
    progress.say("the killed match played to its end, then an uninterrupted run of the same match")
    finished = subprocess.run([*demo, "--journal", str(crashed)], cwd=ROOT, capture_output=True, text=True)
    resumes = kills if crashed.exists() else 0
    crashed_wall = time.monotonic() - started
    started = time.monotonic()
    clean = subprocess.run([*demo, "--journal", str(reference)], cwd=ROOT, capture_output=True, text=True)
    clean_wall = time.monotonic() - started
    if finished.returncode != 0 or clean.returncode != 0:
        print("a demo run failed:", finished.stderr[-2000:], clean.stderr[-2000:])
        return 1
    ours, theirs = Session.open(crashed), Session.open(reference)
    assert ours.resumed is not None and theirs.resumed is not None
    mine = [(e.kind, e.payload) for e in ours.journal.entries()]
    other = [(e.kind, e.payload) for e in theirs.journal.entries()]
    lost = sum(1 for entry in other if entry not in mine)
    doubled = max(len(mine) - len(other), 0)
    differ = sum(1 for a, b in zip(mine, other) if a != b) + abs(len(mine) - len(other))
    progress = sorted(set(sizes))
    print(f"demo: {args.length}-point match, seed {args.seed}; kill window {args.window[0]}-{args.window[1]} s")
    print(
        f"kills (SIGKILL): {kills}; resumes: {resumes}; journal sizes seen at the kills: {len(progress)} distinct,"
        f" {sizes[0] if sizes else 0} .. {sizes[-1] if sizes else 0} entries"
    )
    print(
        f"crashed run: {len(mine)} entries, {ours.resumed.events} events, hash chain"
        f" {'intact' if ours.journal.verify() == len(mine) else 'BROKEN'},"
        f" {len(ours.resumed.mismatches)} rulings differ on replay; wall {crashed_wall:.1f} s"
    )
    print(f"uninterrupted run: {len(other)} entries, {theirs.resumed.events} events; wall {clean_wall:.1f} s")
    print(
        f"events lost: {lost}; events doubled: {doubled}; entries that differ: {differ};"
        f" final state equal: {ours.referee == theirs.referee}"
    )
    ok = lost == 0 and doubled == 0 and differ == 0 and ours.referee == theirs.referee and not ours.resumed.mismatches
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
