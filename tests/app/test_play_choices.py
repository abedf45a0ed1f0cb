"""The camera's candidate plays as buttons: a tap journals exactly what typing that play journals.

The controller is checked without a window; the real play screen under Xvfb by tests/app/play_choices_driver.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from app.referee.handlers.camera import seen_counts
from app.referee.setup import Devices, Mode
from app.sim.station import SimStation
from app.table.checkers import BoardLayout
from app.ui.controller import Controller
from rules.play import Step, apply_steps
from rules.position import Color, Position
from tests.app.table import make_setup
from tests.app.test_ui import drive, xvfb

W, B = Color.WHITE, Color.BLACK
CAMERA_ONLY = Devices(camera=True, board=False, clock=True)


def asked_controller(folder: Path) -> Controller:
    """A camera-only match where White's 3-1 was read unsure (8/5 6/5 on the board): the play is asked."""
    folder.mkdir()
    controller = Controller(folder, SimStation(), keep_photos=False)
    controller.session = Session.create(folder / "match.sqlite", make_setup(devices=CAMERA_ONLY))
    controller.send(ev.DiceObserved((3, 1)))
    controller.send(ev.ClockPressed(B))
    played = apply_steps(Position.start(W), [Step(8, 5), Step(6, 5)]).with_turn(W)
    white, black = seen_counts(played)
    controller.send(ev.CheckersSeen(white, black, False, ("a checker hidden under others",)))
    controller.send(ev.ClockPressed(W))
    return controller


def last_entry(controller: Controller) -> tuple[str, dict[str, Any]]:
    assert controller.session is not None
    entry = list(controller.session.journal.entries())[-1]
    return entry.kind, entry.payload


def test_a_tapped_candidate_journals_what_typing_it_journals(tmp_path: Path) -> None:
    tapped, typed = asked_controller(tmp_path / "tap"), asked_controller(tmp_path / "type")
    options = tapped.asked_plays()
    assert options[0] == "8/5 6/5" and 1 < len(options) <= 6  # the nearest first
    assert typed.asked_plays() == options
    tapped.choose_play(options[1])
    typed.send(ev.ManualPlay(options[1]))  # what the play screen's entry sends for the typed play
    assert last_entry(tapped) == last_entry(typed)
    kind, payload = last_entry(tapped)
    assert kind == "event" and payload["event"]["text"] == options[1]
    assert [r["code"] for r in payload["reaction"]["rulings"]] == ["play_ok"]
    assert tapped.asked_plays() == ()  # answered: no candidates are offered any more
    assert tapped.session is not None and tapped.session.referee.stage is Stage.ROLL


def test_no_candidates_are_offered_when_no_play_is_asked(tmp_path: Path) -> None:
    controller = Controller(tmp_path, SimStation(), keep_photos=False)
    assert controller.asked_plays() == ()
    controller.session = Session.create(tmp_path / "match.sqlite", make_setup(devices=CAMERA_ONLY))
    controller.send(ev.DiceObserved((3, 1)))
    controller.send(ev.ClockPressed(B))
    assert controller.asked_plays() == ()  # White is to play, nothing was read unsure


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    server, display = xvfb("1280x800", range(200, 220))
    try:
        result, _ = drive(display, tmp_path_factory.mktemp("choices"), driver="tests.app.play_choices_driver")
    finally:
        server.terminate()
        server.wait(timeout=10)
    return result


def test_the_play_screen_offers_each_candidate_and_a_tap_plays_it(ran: dict[str, Any]) -> None:
    for language, other in (("tr", "Başka hamle"), ("en", "Another play")):
        buttons = ran[f"buttons/{language}"]
        assert buttons[: len(ran["options"])] == ran["options"] and buttons[-1] == other
    assert ran["other_focuses_entry"] is True
    assert ran["journaled"] == {"kind": "manual_play", "text": "8/5 6/5"}
    assert ran["after"] == {"stage": "ROLL", "buttons": []}


def test_the_simulated_table_without_a_sensing_board_judges_plays_from_its_camera(tmp_path: Path) -> None:
    """``python -m app --sim --read-checkers ...``: no sensing board; each play is judged from the camera's reading
    at the press, and a play the camera leaves to the players stops the simulation for the screen's buttons."""
    controller = Controller(tmp_path, SimStation(seed=3, checkers=BoardLayout("dark", home_right=False)))
    try:
        assert controller.table.devices() == Devices(camera=True, board=False, clock=True)
        assert controller.start(("A", "B"), "backgammon", 1, Mode.CASUAL, 10, 12, "") is None
        session = controller.session
        assert session is not None and not session.setup.devices.board
        asked_seen = False
        for _ in range(40):
            controller.sim_step()
            asked_seen |= bool(controller.asked_plays())
            if session.referee.stage is Stage.OVER:
                break
        kinds = [entry.payload.get("event", {}).get("kind") for entry in session.journal.entries()]
        codes = [r["code"] for e in session.journal.entries() for r in e.payload.get("reaction", {}).get("rulings", [])]
        assert kinds.count("checkers_seen") >= 5 and "board_snapshot" not in kinds  # the camera, no sensing board
        assert codes.count("play_ok") >= 5
        assert asked_seen == ("play_asked" in codes or "play_asked_unsure" in codes)  # a question waits for a tap
    finally:
        controller.close()
