"""The dice fairness monitor: chi-square per die and for the pair."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.fairness import FairnessMonitor, chi_square, gamma_q


@pytest.mark.parametrize(
    "df,x,p",
    [(5, 11.0705, 0.05), (5, 20.515, 0.001), (20, 31.410, 0.05), (20, 45.315, 0.001), (1, 3.8415, 0.05), (2, 0.0, 1.0)],
)
def test_p_values_match_chi_square_tables(df: int, x: float, p: float) -> None:
    assert gamma_q(df / 2, x / 2) == pytest.approx(p, rel=2e-3, abs=1e-9)


def test_chi_square_of_perfect_counts_is_zero() -> None:
    assert chi_square([10] * 6, [1 / 6] * 6) == (0.0, 1.0)


def simulate(rng: np.random.Generator, throws: int, first: np.ndarray) -> FairnessMonitor:
    fair = np.full(6, 1 / 6)
    m = FairnessMonitor(alpha=0.001)
    m.extend(zip((rng.choice(6, throws, p=first) + 1).tolist(), (rng.choice(6, throws, p=fair) + 1).tolist()))
    return m


def test_fair_dice_rarely_raise_an_alarm() -> None:
    rng = np.random.default_rng(1)
    alarms = sum(simulate(rng, 600, np.full(6, 1 / 6)).report().flagged for _ in range(300))
    # three tests at alpha 0.001: about 0.3 % expected; 3 of 300 would already be 1 %
    assert alarms <= 3


def test_a_loaded_die_is_caught_and_named() -> None:
    rng = np.random.default_rng(2)
    loaded = np.array([0.12, 0.14, 0.16, 0.16, 0.17, 0.25])
    reports = [simulate(rng, 1000, loaded).report() for _ in range(50)]
    caught = sum(r.flagged for r in reports)
    assert caught >= 45
    flagged_names = {res.name for r in reports for res in r.results if res.flagged}
    assert "die 1" in flagged_names and "die 2" not in flagged_names


def test_too_few_throws_are_never_flagged() -> None:
    m = FairnessMonitor()
    m.extend([(6, 6)] * 20)
    report = m.report()
    assert not report.flagged
    assert all(not r.enough for r in report.results)


def test_impossible_values_are_refused() -> None:
    with pytest.raises(ValueError):
        FairnessMonitor().add(0, 7)


def test_fairness_command_reads_throws_and_flags_a_loaded_die(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    loaded = np.array([0.1, 0.1, 0.1, 0.1, 0.1, 0.5])
    lines = [json.dumps([int(a), int(b)]) for a, b in zip(rng.choice(6, 400, p=loaded) + 1, rng.choice(6, 400) + 1)]
    lines.append("not json")
    lines.append(json.dumps({"verdict": "void", "reason": "cocked", "dice": []}))  # void throws do not count
    path = tmp_path / "throws.jsonl"
    path.write_text("\n".join(lines) + "\n")
    root = Path(__file__).resolve().parents[2]
    picture = tmp_path / "fairness.png"
    done = subprocess.run(
        [sys.executable, "-m", "vision", "fairness", str(path), "--picture", str(picture)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=120,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert cv2.imread(str(picture)).shape == (300, 720, 3)
    assert "die 1: 400 values" in done.stdout and "LOOKS LOADED" in done.stdout.splitlines()[0]
    assert "skipped" in done.stderr


def test_fairness_command_with_no_valid_throw_judges_nothing_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "throws.jsonl"
    path.write_text(json.dumps({"verdict": "void", "reason": "cocked", "dice": []}) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "vision", "fairness", str(path)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
    )
    assert done.returncode == 1 and "no valid throw" in done.stderr
