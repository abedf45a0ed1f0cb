"""The station's deployment files (hardware/station/) agree with the code they start and the devices they name."""

from __future__ import annotations

import configparser
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from device.transport import PICO_VID

ROOT = Path(__file__).resolve().parents[1]
STATION = ROOT / "hardware" / "station"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(STATION / "tavla-station.service")
    return parser


def test_the_udev_rule_names_the_devices_the_app_looks_for() -> None:
    rule = (STATION / "99-tavla-devices.rules").read_text()
    vendors = re.findall(r'ENV\{ID_VENDOR_ID\}=="([0-9a-f]{4})"', rule)
    assert vendors == [f"{PICO_VID:04x}"]


@pytest.mark.parametrize("script", sorted(p.name for p in STATION.glob("*.sh")))
def test_station_scripts_are_valid_bash(script: str) -> None:
    completed = subprocess.run(["bash", "-n", str(STATION / script)], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr


def test_the_service_starts_the_app_with_a_full_screen_kivy(tmp_path: Path) -> None:
    """The unit's command runs from the install folder, and Kivy takes its environment as configuration."""
    service = unit()["Service"]
    home = tmp_path / "home"
    home.mkdir()
    (home / "tavla").symlink_to(ROOT)
    command = shlex.split(service["ExecStart"].replace("%h", str(home)))
    assert command[1:] == ["-m", "app"] and command[0].endswith(".venv/bin/python")
    env = dict(item.split("=", 1) for item in shlex.split(service["Environment"]))
    assert service["WorkingDirectory"] == "%h/tavla"
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "from kivy.config import Config; "
            "print(Config.get('graphics', 'fullscreen'), Config.get('graphics', 'show_cursor'))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=home / "tavla",
        env={**os.environ, **env, "KIVY_NO_ARGS": "1", "KIVY_HOME": str(tmp_path / "kivy")},
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split() == ["auto", "0"]
    helped = subprocess.run(
        [sys.executable, "-m", "app", "--help"], capture_output=True, text=True, timeout=60, cwd=home / "tavla"
    )
    assert helped.returncode == 0 and "--camera" in helped.stdout


SYSTEMCTL = """#!/usr/bin/env bash
# The station's service manager, as far as update.sh asks it: a version whose file ``starts`` says "no" dies
# at once (inactive, restarted by systemd); every call is logged.
echo "$*" >> "$TAVLA_HOME/../systemctl.log"
starts=$(cat "$TAVLA_HOME/starts")
case "$*" in
  *is-active*) [ "$starts" = yes ] ;;
  *NRestarts*) if [ "$starts" = yes ]; then echo 0; else date +%s%N; fi ;;
  *) true ;;
esac
"""


def release_repo(tmp_path: Path, versions: dict[str, str]) -> Path:
    """An origin with one commit and tag per version; each commit's ``starts`` says whether it starts and its
    ``.ci/setup`` notes that it was set up."""
    origin = tmp_path / "origin"
    origin.mkdir()

    def run(*args: str) -> None:
        subprocess.run(["git", *args], cwd=origin, check=True, capture_output=True)

    run("init", "-q", "-b", "main")
    run("config", "user.email", "club@example.org")
    run("config", "user.name", "club")
    (origin / ".ci").mkdir()
    (origin / ".ci" / "setup").write_text(
        'echo "$(cat "$(dirname "$0")/../starts")" >> "$(dirname "$0")/../../setups"\n'
    )
    for tag, starts in versions.items():
        (origin / "starts").write_text(starts + "\n")
        (origin / "version").write_text(tag + "\n")
        run("add", "-A")
        run("commit", "-q", "-m", f"version {tag}")
        run("tag", tag)
    return origin


def update(tmp_path: Path, origin: Path, installed: str) -> tuple[subprocess.CompletedProcess[str], str]:
    station = tmp_path / "station"
    if not station.exists():
        subprocess.run(["git", "clone", "-q", str(origin), str(station)], check=True)
        subprocess.run(["git", "-C", str(station), "checkout", "-q", "--detach", installed], check=True)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "systemctl").write_text(SYSTEMCTL)
    (bin_dir / "systemctl").chmod(0o755)
    env = {**os.environ, "TAVLA_HOME": str(station), "TAVLA_SETTLE_S": "0", "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(STATION / "update.sh")], capture_output=True, text=True, env=env, timeout=60)
    head = subprocess.run(
        ["git", "-C", str(station), "describe", "--tags"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return done, head


def test_update_installs_the_newest_release_not_the_newest_commit(tmp_path: Path) -> None:
    origin = release_repo(tmp_path, {"v1.2.0": "yes", "v1.10.0": "yes"})
    (origin / "starts").write_text("no\n")  # work after the release, untagged: never installed
    subprocess.run(["git", "commit", "-qam", "unreleased"], cwd=origin, check=True)
    done, head = update(tmp_path, origin, "v1.2.0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert head == "v1.10.0"  # by version, not by name: 1.10 comes after 1.2
    assert "updated to v1.10.0" in done.stdout
    again, head = update(tmp_path, origin, "v1.2.0")
    assert again.returncode == 0 and "already at v1.10.0" in again.stdout and head == "v1.10.0"


def test_a_release_that_does_not_start_is_rolled_back(tmp_path: Path) -> None:
    origin = release_repo(tmp_path, {"v1.0.0": "yes", "v1.1.0": "no"})
    done, head = update(tmp_path, origin, "v1.0.0")
    assert done.returncode == 1
    assert head == "v1.0.0", "the version that ran is back"
    assert "v1.1.0 did not start" in done.stdout and "rolled back" in done.stdout
    assert (tmp_path / "setups").read_text().split() == ["no", "yes"], "set up again after going back"
    restarts = [
        line for line in (tmp_path / "systemctl.log").read_text().splitlines() if line.startswith("--user restart")
    ]
    assert len(restarts) == 2


def test_local_changes_are_never_overwritten(tmp_path: Path) -> None:
    origin = release_repo(tmp_path, {"v1.0.0": "yes", "v1.1.0": "yes"})
    update(tmp_path, origin, "v1.0.0")  # installs v1.1.0
    (origin / "version").write_text("v1.2.0\n")
    subprocess.run(["git", "commit", "-qam", "version v1.2.0"], cwd=origin, check=True)
    subprocess.run(["git", "tag", "v1.2.0"], cwd=origin, check=True)
    (tmp_path / "station" / "starts").write_text("edited on the station\n")
    done, head = update(tmp_path, origin, "v1.0.0")
    assert done.returncode == 1 and "local changes" in done.stdout and head == "v1.1.0"
    assert (tmp_path / "station" / "starts").read_text() == "edited on the station\n"
