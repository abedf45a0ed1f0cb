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
import subprocess
import sys
import time
from pathlib import Path

from app.__main__ import main
from app.record.journal import Journal
from app.record.session import Session

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--length", "3", "--seed", "1", "--quiet"]
KILLS = 20


def demo_command(journal: Path) -> list[str]:
    return [sys.executable, "-m", "app", "demo", *ARGS, "--journal", str(journal)]


def uninterrupted(journal: Path) -> Session:
    """The same demo played in this process without a crash (the same simulated devices and camera)."""
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["demo", *ARGS, "--journal", str(journal)]) == 0
    return Session.open(journal)


def test_the_demo_killed_at_random_moments_resumes_exactly(tmp_path: Path) -> None:
    rng = random.Random(2024)
    crashed = tmp_path / "crashed.sqlite"
    kills = 0
    progress = []
    while kills < KILLS:
        process = subprocess.Popen(demo_command(crashed), cwd=ROOT, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.6, 2.2))  # the demo takes about a second to start (imports, devices)
        if process.poll() is not None:
            break  # the match finished before this kill
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        kills += 1
        if crashed.exists():
            journal = Journal(crashed)
            progress.append(len(journal))
            journal.close()
    assert kills >= KILLS, f"the match ended after {kills} kills: use a longer match"
    finished = subprocess.run(demo_command(crashed), cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert "replay agrees with every journaled ruling" in finished.stdout, finished.stdout[:2000]
    assert progress == sorted(progress) and progress[-1] > progress[0]  # it got further between kills

    reference = uninterrupted(tmp_path / "reference.sqlite")
    resumed = Session.open(crashed)
    assert resumed.resumed is not None and resumed.resumed.mismatches == ()
    ours = [(e.seq, e.kind, e.payload) for e in resumed.journal.entries()]
    theirs = [(e.seq, e.kind, e.payload) for e in reference.journal.entries()]
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
    assert first is None, f"entry {first + 1} differs:\n{ours[first]}\n{theirs[first]}\nkills at {progress}"
    assert resumed.referee == reference.referee
    assert len(ours) == len(theirs)  # no event lost, none doubled
    assert ours == theirs
    assert resumed.journal.verify() == len(theirs)
