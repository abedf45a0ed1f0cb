"""The director's page in a real browser (Debian's chromium through Playwright) fed by three boards over Mosquitto.

Board 1 has finished its match (a result to confirm), board 2 is in the
middle of a game and has called the director, board 3 plays on. The page
must list all three live, highlight the call, draw a board's position with
its rulings, send "on the way", and confirm the result into the table.
Screenshots go to ``TAVLA_SCREENSHOTS`` (a folder) when set, else the test's
temporary folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from app.net.director import Director
from app.net.station import Station, StationConfig
from app.net.web import DirectorServer
from app.record.session import Session
from app.referee.events import CallDirector, Event
from app.referee.setup import MatchSetup
from tests.net.broker import Mosquitto
from tests.net.conftest import PREFIX, wait_for

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def tournament(
    broker: Mosquitto, recording: tuple[MatchSetup, list[Event]], tmp_path: Path
) -> Iterator[tuple[DirectorServer, list[Session]]]:
    setup, events = recording
    director = Director(broker.config("director"), PREFIX, tmp_path / "results").start()
    server = DirectorServer(director, "127.0.0.1", 0).start()
    sessions: list[Session] = []
    stations: list[Station] = []
    players = [("Ayşe", "Mehmet"), ("Deniz", "Ece"), ("Can", "Elif")]
    cut = [len(events), len(events) // 2, len(events) // 3]
    try:
        for number, (names, upto) in enumerate(zip(players, cut), start=1):
            board = str(number)
            session = Session.create(
                tmp_path / f"board{board}.sqlite", MatchSetup.from_dict({**setup.to_dict(), "players": list(names)})
            )
            for event in events[:upto]:
                session.submit(event)
            if number == 2:
                session.submit(CallDirector())
            sessions.append(session)
            stations.append(Station(session.journal.path, StationConfig(broker.config(board), board, PREFIX)).start())
        wait_for(
            lambda: all(
                director.boards.get(str(n)) is not None and director.boards[str(n)].held == len(sessions[n - 1].journal)
                for n in (1, 2, 3)
            ),
            60,
            "three boards on the director",
        )
        yield server, sessions
    finally:
        for station in stations:
            station.stop()
        server.stop()
        director.stop()
        for session in sessions:
            session.close()


def test_the_directors_page_in_chromium(tournament: tuple[DirectorServer, list[Session]], tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    server, sessions = tournament
    shots = Path(os.environ.get("TAVLA_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    errors: list[str] = []
    try:
        with sync_playwright() as playwright:
            # a fresh profile (user data folder) each run, so nothing of an earlier run is reused
            browser = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=FLAGS, viewport={"width": 1500, "height": 900}
            )
            try:
                page = browser.new_page()
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(server.url)
                page.wait_for_selector("#boards tr.board >> nth=2")
                rows = page.locator("#boards tr.board")
                assert rows.count() == 3
                called = page.locator("#boards tr.called")
                assert called.count() == 1 and called.get_attribute("data-board") == "2"
                assert "DIRECTOR CALLED" in called.inner_text()
                assert "Deniz" in called.inner_text() and "Ece" in called.inner_text()
                finished = page.locator("#boards tr.confirm")
                assert finished.get_attribute("data-board") == "1"
                assert "result to confirm" in finished.inner_text()
                head = sessions[0].journal.head
                page.wait_for_selector("#results button[data-confirm='1']")
                assert head[:16] in page.locator("#results").inner_text()
                page.screenshot(path=str(shots / "director-boards.png"), full_page=True)

                page.click("#boards tr[data-board='2']")
                page.wait_for_selector("#detail svg#position")
                assert page.locator("#position circle").count() >= 10  # checkers drawn
                assert "director_called" in page.locator("#rulings").inner_text()
                page.click("#otw")
                page.wait_for_function(
                    "document.querySelector('#boards tr.called') &&"
                    " document.querySelector('#boards tr.called').innerText.includes('on the way')"
                )
                page.wait_for_function("document.querySelector('#sent').innerText.includes('seen by the station')")
                page.screenshot(path=str(shots / "director-board-2.png"), full_page=True)

                page.click("#results button[data-confirm='1']")
                page.wait_for_function("!document.querySelector(\"#results button[data-confirm='1']\")")
                assert page.locator("#boards tr.confirm").count() == 0
                csv = page.evaluate("fetch('/results.csv').then(r => r.text())")
                assert "1,Ayşe,Mehmet," in csv and head in csv and csv.strip().endswith("True")
            finally:
                browser.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert errors == []
