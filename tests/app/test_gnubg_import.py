"""The .mat file the headless demo exports imports into GNU Backgammon without a warning.

The demo (a 5-point match; seed 2 today has a cube action, a gammon, a Crawford game, an illegal
play flagged and corrected, void throws and unsure throws confirmed) is run as a user runs it, with
``--export``, from seed 2 on until a seed's match has a Crawford game (the course follows what the dice
reader reads, so a new model may need another seed); Debian's gnubg imports the file in its embedded Python
(the rules tests' script) and must print no warning and see the same games,
winners, points, Crawford game and final score as the referee's journal.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.record.session import Session
from rules.cubeful import Move
from tests.rules.gnubg import oracle

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "rules" / "gnubg" / "mat_import_script.py"
LETTER = {0: "X", 1: "O"}
SEEDS = (2, 3, 4, 5, 6)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Session, dict[str, object], list[str]]:
    if not oracle.available():
        pytest.skip("GNU Backgammon (/usr/games/gnubg) is not installed; run .ci/setup --test")
    folder = tmp_path_factory.mktemp("demo")
    for seed in SEEDS:
        mat, journal = folder / f"match_{seed}.mat", folder / f"match_{seed}.sqlite"
        command = [sys.executable, "-m", "app", "demo", "--length", "5", "--seed", str(seed), "--quiet"]
        demo = subprocess.run(
            [*command, "--journal", str(journal), "--export", str(mat)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert demo.returncode == 0, demo.stderr
        session = Session.open(journal)  # replays the whole match: once, and kept for the tests
        if any(game.cube.crawford for game in session.referee.match.games):
            break
    else:
        pytest.fail(f"no demo match of seeds {SEEDS} has a Crawford game")
    cases = [{"id": "demo", "path": str(mat)}]
    source, target = folder / "in.json", folder / "out.json"
    source.write_text(json.dumps(cases))
    env = dict(os.environ, TAVLA_ORACLE_IN=str(source), TAVLA_ORACLE_OUT=str(target), HOME=str(folder))
    completed = subprocess.run(
        [str(oracle.GNUBG), "-t", "-q", "-p", str(SCRIPT)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    assert target.exists(), completed.stdout[-3000:]
    answer = json.loads(target.read_text())[0]["match"]
    lines = completed.stdout.splitlines()
    inside = lines[lines.index("@@BEGIN demo") + 1 : lines.index("@@END demo")]
    return session, answer, inside


def test_gnubg_prints_no_warning(exported: tuple[Session, dict[str, object], list[str]]) -> None:
    _, _, output = exported
    assert [line for line in output if re.search(r"warning|invalid|illegal|error", line, re.IGNORECASE)] == []


def test_gnubg_sees_the_games_and_the_score_the_referee_recorded(
    exported: tuple[Session, dict[str, object], list[str]],
) -> None:
    session, theirs, _ = exported
    match = session.referee.match
    games = [game for game in match.games if game.outcome is not None]
    assert any(game.cube.crawford for game in games), "the demo match should include the Crawford game"
    their_games = theirs["games"]
    assert isinstance(their_games, list) and len(their_games) == len(games)
    for game, score, their in zip(games, match.scores_before(), their_games):
        info = their["info"]
        assert game.outcome is not None and game.outcome.winner is not None
        assert (info["score-X"], info["score-O"]) == score
        assert info["winner"] == LETTER[game.outcome.winner]
        assert info["points-won"] == game.outcome.points
        assert bool(info.get("crawford")) == game.cube.crawford
        moves = [entry for entry in their["game"] if entry["action"] == "move"]
        assert len(moves) == sum(1 for action in game.actions if isinstance(action, Move))
    last = their_games[-1]["info"]
    final = [last["score-X"], last["score-O"]]
    final[0 if last["winner"] == "X" else 1] += last["points-won"]
    assert tuple(final) == match.score
