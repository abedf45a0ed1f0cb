"""Fixtures of the tournament network tests: a recorded match, a real broker, waiting for a condition."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from app.referee.events import Event
from app.referee.setup import MatchSetup
from tests.net.broker import Mosquitto, available
from tests.net.replay import record_demo, recorded

PREFIX = "tavla/test-cup"


@pytest.fixture(scope="session")
def recording(tmp_path_factory: pytest.TempPathFactory) -> tuple[MatchSetup, list[Event]]:
    """A whole 1-point match recorded by the headless demo (about 170 events)."""
    path = record_demo(tmp_path_factory.mktemp("recording") / "demo.sqlite")
    return recorded(path)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    problem = available()
    if problem:
        pytest.fail(problem)
    mosquitto = Mosquitto(tmp_path / "broker", PREFIX, ["1", "2", "3"])
    mosquitto.start()
    try:
        yield mosquitto
    finally:
        mosquitto.stop()


def wait_for(condition: Callable[[], bool], timeout: float = 60.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} not reached in {timeout:.0f} s")
