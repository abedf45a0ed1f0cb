"""Crash safety: the demo killed with SIGKILL at random moments resumes as if it had never stopped.

The headless demo writes every event and its rulings to the journal before
they take effect, and derives each next event from the journaled state. So
after any number of hard kills (mid-commit included) and restarts on the same
journal, the finished journal must hold exactly the entries of a run that was
never interrupted, with an intact hash chain, and the same final state.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from app.__main__ import main
from app.record.session import Session

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--length", "3", "--seed", "1", "--quiet"]
KILLS = 20
STARTUP_S = 180.0  # the longest a (re)started demo may take to reach its kill, on the slowest machine


def demo_command(journal: Path) -> list[str]:
    return [sys.executable, "-m", "app", "demo", *ARGS, "--journal", str(journal)]


def entries_written(journal: Path) -> int:
    """How many entries the journal holds, read without writing (the demo may be writing it right now)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)) as db:
            return int(db.execute("SELECT count(*) FROM journal").fetchone()[0])
    except sqlite3.Error:
        return 0  # not created yet, or no table yet


def kill_once_under_way(command: list[str], journal: Path, target: int, delay_s: float) -> bool:
    """Start the demo and SIGKILL it once the journal holds ``target`` entries (then ``delay_s`` later, so the
    kill lands anywhere, mid-commit included); False if it finished first.

    The kill is measured in the journal's progress, not in seconds from the start: on a loaded machine the
    imports, the device simulators and the replay take many seconds before anything is written, and on a fast
    one a few seconds hold hundreds of entries.
    """
    env = {**os.environ, "TMPDIR": str(journal.parent)}  # a killed demo leaves its simulators' links in tmp_path
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + STARTUP_S
    while entries_written(journal) < target:
        if process.poll() is not None:
            _, err = process.communicate()
            assert process.returncode == 0, err.decode(errors="replace")
            return False
        assert time.monotonic() < deadline, f"the demo wrote no entry {target} in {STARTUP_S:.0f} s"
        time.sleep(0.005)
    time.sleep(delay_s)
    if process.poll() is not None:
        process.communicate()
        return False
    os.kill(process.pid, signal.SIGKILL)
    process.communicate()
    return True


def kill_plan(total: int, rng: random.Random) -> list[int]:
    """``KILLS`` journal lengths to kill at, spread at random over the first 80 % of a match of ``total``
    entries: whatever course the seeded match takes (it follows what the dice reader reads), every kill
    lands while it is under way."""
    assert total * 0.8 > 2 * KILLS, f"the match has only {total} entries: use a longer match"
    return sorted(rng.sample(range(1, int(total * 0.8)), KILLS))


def uninterrupted(journal: Path) -> Session:
    """The same demo played in this process without a crash (the same simulated devices and camera)."""
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["demo", *ARGS, "--journal", str(journal)]) == 0
    return Session.open(journal)


def test_the_demo_killed_at_random_moments_resumes_exactly(tmp_path: Path) -> None:
    rng = random.Random(2024)
    reference = uninterrupted(tmp_path / "reference.sqlite")
    theirs = [(e.seq, e.kind, e.payload) for e in reference.journal.entries()]
    crashed = tmp_path / "crashed.sqlite"
    progress = []
    for planned in kill_plan(len(theirs), rng):
        target = max(planned, entries_written(crashed) + 1)  # each run writes before it is killed
        killed = kill_once_under_way(demo_command(crashed), crashed, target, rng.uniform(0.0, 0.05))
        assert killed, f"the match finished before the kill at entry {target} of {len(theirs)}"
        progress.append(entries_written(crashed))
    finished = subprocess.run(demo_command(crashed), cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert "replay agrees with every journaled ruling" in finished.stdout, finished.stdout[:2000]
    assert progress == sorted(progress) and progress[-1] > progress[0]  # it got further between kills

    resumed = Session.open(crashed)
    assert resumed.resumed is not None and resumed.resumed.mismatches == ()
    ours = [(e.seq, e.kind, e.payload) for e in resumed.journal.entries()]
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
    assert first is None, f"entry {first + 1} differs:\n{ours[first]}\n{theirs[first]}\nkills at {progress}"
    assert resumed.referee == reference.referee
    assert len(ours) == len(theirs)  # no event lost, none doubled
    assert ours == theirs
    assert resumed.journal.verify() == len(theirs)
