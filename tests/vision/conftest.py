"""Shared fixtures: the shipped reader, and the real photographs (read in place, never copied here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision import DiceReader
from vision.reader import DEFAULT_COCKED_LOOK, DEFAULT_DETECTOR, DEFAULT_HEAD

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / ".." / "shared" / "real_dice" / "webcam_white_dice"
REAL_VALID = REAL / "Valid"


def need_real_photos() -> Path:
    if not REAL_VALID.is_dir():
        pytest.skip(f"real dice photographs not found at {REAL_VALID} (shared/ is beside the repository in CI)")
    return REAL_VALID


@pytest.fixture(scope="session")
def reader() -> DiceReader:
    for model in (DEFAULT_DETECTOR, DEFAULT_HEAD, DEFAULT_COCKED_LOOK):
        if not model.is_file():
            pytest.fail(f"the shipped model {model} is missing")
    return DiceReader()
