"""The code keeps the project's style: ``ruff check`` finds nothing (rules in pyproject.toml: pycodestyle,
pyflakes, import order) and ``ruff format`` would change nothing. The same run before each commit with
pre-commit (.pre-commit-config.yaml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ruff(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_ruff_check_is_clean() -> None:
    completed = ruff("check", ".")
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_the_code_is_formatted() -> None:
    completed = ruff("format", "--check", ".")
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_ruff_check_finds_a_breach(tmp_path: Path) -> None:
    sloppy = tmp_path / "sloppy.py"
    sloppy.write_text("import sys, os\n", encoding="utf-8")
    completed = ruff("check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(sloppy))
    assert completed.returncode == 1 and "F401" in completed.stdout


def test_ruff_format_finds_unformatted_code(tmp_path: Path) -> None:
    sloppy = tmp_path / "sloppy.py"
    sloppy.write_text("x = {  'a':1 }\n", encoding="utf-8")
    completed = ruff("format", "--check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(sloppy))
    assert completed.returncode == 1 and "sloppy.py" in completed.stdout
