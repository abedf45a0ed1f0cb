"""Shared fixtures of the rules tests."""

from __future__ import annotations

import pytest

from tests.rules.gnubg import oracle


@pytest.fixture(scope="session")
def gnubg_available() -> None:
    """GNU Backgammon must be there: `.ci/setup --test` installs it; skip only by hand."""
    if not oracle.available():
        pytest.skip("GNU Backgammon (/usr/games/gnubg) is not installed; run .ci/setup --test")
