"""A recorded match played again into a new journal: the simulated boards of the network tests and benchmark.

The recording is a journal the headless demo wrote (the real chain); its
events are submitted again, in order, to a fresh :class:`app.session.Session`,
so the new journal is a real station's journal, entry by entry.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.record.journal import Journal
from app.referee.events import Event, event_from_dict
from app.referee.setup import MatchSetup

ROOT = Path(__file__).resolve().parents[2]


def record_demo(path: Path, length: int = 1, seed: int = 1, board: bool = False) -> Path:
    """Run the headless demo (no camera: quicker) and keep its journal at ``path``."""
    command = [
        sys.executable,
        "-m",
        "app",
        "demo",
        "--no-camera",
        "--seed",
        str(seed),
        "--length",
        str(length),
        "--journal",
        str(path),
        "--quiet",
    ]
    if not board:
        command.append("--no-board")
    subprocess.run(command, check=True, cwd=ROOT, capture_output=True, timeout=300)
    return path


def recorded(path: Path) -> tuple[MatchSetup, list[Event]]:
    """The set-up and the events of a recorded journal."""
    journal = Journal(path)
    try:
        entries = list(journal.entries())
    finally:
        journal.close()
    setup = MatchSetup.from_dict(entries[0].payload["setup"])
    return setup, [event_from_dict(e.payload["event"]) for e in entries if e.kind == "event"]
