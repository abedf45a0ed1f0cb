"""What a user installs: the rules core alone pulls no third-party package and runs on the standard library."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_pip_install_without_extras_pulls_no_third_party_package(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--ignore-installed",
            "--quiet",
            "--disable-pip-version-check",
            "--report",
            str(report),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    installed = [item["metadata"]["name"] for item in json.loads(report.read_text())["install"]]
    assert installed == ["tavla-referee"]


def test_the_rules_command_line_runs_without_any_site_packages() -> None:
    """``python -S``: no site-packages at all, only the standard library and the project's folder."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    completed = subprocess.run(
        [sys.executable, "-S", "-m", "rules", "list", "4HPwATDgc/ABMA", "3", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=env,
    )
    assert completed.returncode == 0, completed.stderr
    assert "16 distinct result(s)" in completed.stdout
