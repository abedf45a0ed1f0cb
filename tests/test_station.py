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
