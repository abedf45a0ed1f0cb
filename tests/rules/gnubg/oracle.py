"""GNU Backgammon as an oracle: its own legal-move lists for batches of positions."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

GNUBG = Path("/usr/games/gnubg")
SCRIPT = Path(__file__).with_name("oracle_script.py")


def available() -> bool:
    return GNUBG.exists()


def run_script(
    script: Path, cases: list[dict[str, Any]], timeout: float = 900, variation: str = "standard"
) -> list[dict[str, Any]]:
    """Run a gnubg Python script over ``cases`` (JSON in, JSON out) in one gnubg process.

    ``variation`` is passed as TAVLA_ORACLE_VARIATION for scripts that `set variation`.
    """
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "in.json")
        target = Path(folder, "out.json")
        source.write_text(json.dumps(cases))
        env = dict(
            os.environ,
            TAVLA_ORACLE_IN=str(source),
            TAVLA_ORACLE_OUT=str(target),
            TAVLA_ORACLE_VARIATION=variation,
            HOME=folder,
        )
        completed = subprocess.run(
            [str(GNUBG), "-t", "-q", "-p", str(script)],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if not target.exists():
            raise RuntimeError(f"gnubg wrote no answer (exit {completed.returncode}):\n{completed.stderr[-3000:]}")
        result: list[dict[str, Any]] = json.loads(target.read_text())
        return result


def legal_moves(cases: list[dict[str, Any]], variation: str = "standard") -> list[dict[str, Any]]:
    """For each {"id", "position_id", "dice"}: gnubg's moves with their result IDs."""
    return run_script(SCRIPT, cases, variation=variation)
