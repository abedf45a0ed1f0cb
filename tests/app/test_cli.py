"""``python -m app``'s command line: --lang before or after the command, a reader that leaves early."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def demo_lines(tmp_path: Path, *argv: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*argv, "--journal", str(tmp_path / f"m{len(list(tmp_path.iterdir()))}.sqlite")]) == 0
    return out.getvalue().splitlines()


@pytest.mark.parametrize("argv", [["--lang", "tr", "demo", "--length", "1"], ["demo", "--length", "1", "--lang", "tr"]])
def test_lang_is_honoured_before_or_after_the_command(tmp_path: Path, argv: list[str]) -> None:
    lines = demo_lines(tmp_path, *argv)
    assert "Saat bağlandı." in "\n".join(lines[:6])


def test_the_demo_speaks_english_by_default(tmp_path: Path) -> None:
    assert "The clock is connected." in "\n".join(demo_lines(tmp_path, "demo", "--length", "1")[:6])


def test_piping_the_demo_into_head_ends_quietly_and_leaves_no_simulator_behind(tmp_path: Path) -> None:
    shell = f"{sys.executable} -m app demo --length 1 | head -n 2"
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # where the demo keeps its journal and its simulators' links
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.stdout.count("\n") == 2 and "Traceback" not in done.stderr
    left = sorted(p.name.rsplit("-", 1)[0] for p in tmp_path.glob("tavla-*"))
    assert left == ["tavla-demo"], left  # the journal stays; the clock's and board's pty links are gone


def test_a_machine_without_pseudo_terminals_gets_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_pty() -> tuple[int, int]:
        raise OSError(19, "No such device")

    monkeypatch.setattr("os.openpty", no_pty)
    assert main(["demo", "--length", "1", "--journal", str(tmp_path / "m.sqlite")]) == 1
    assert "pseudo-terminals" in capsys.readouterr().err


def test_a_quiet_demo_shows_its_progress_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("app.sim.demo.PROGRESS_EVERY_S", 0.0)  # every event: the run is too short to wait for
    assert main(["demo", "--length", "1", "--quiet", "--journal", str(tmp_path / "m.sqlite")]) == 0
    captured = capsys.readouterr()
    progress = [line for line in captured.err.splitlines() if line.startswith("demo: game 1, score 0-0, ")]
    assert len(progress) > 20 and progress[-1].endswith(" events so far")
    assert "demo: game" not in captured.out  # the results on stdout stay as they were


@pytest.mark.parametrize(
    "blocked, command, extra",
    [("kivy", ["--camera", "none"], "app"), ("cv2", ["demo", "--length", "1"], "vision")],
)
def test_a_part_installed_without_its_extra_says_which_to_install(blocked: str, command: list[str], extra: str) -> None:
    """No traceback: the extra to install, in English and Turkish."""
    code = f"import sys; sys.modules[{blocked!r}] = None; from app.__main__ import main; sys.exit(main({command!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert f".[{extra}]" in done.stderr and "Traceback" not in done.stderr and "eki kurulmalı" in done.stderr
