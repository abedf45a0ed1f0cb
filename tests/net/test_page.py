"""The director's page in a real browser (Debian's chromium through Playwright) fed by three boards over Mosquitto.

Board 1 has finished its match (a result to confirm), board 2 is in the
middle of a game and has called the director, board 3 plays on. The director
logs in; the page must list all three live, highlight the call, draw a board's
position with its rulings, send "on the way", and confirm the result into the
table. A page of another origin open in the same browser, with the director's
session live, tries a plain-text post and a form post: nothing changes.
Screenshots go to ``TAVLA_SCREENSHOTS`` (a folder) when set, else the test's
temporary folder.
"""

from __future__ import annotations

import contextlib
import http.server
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import pytest

from app.net.actions import DirectorJournal
from app.net.auth import Accounts
from app.net.director import Director
from app.net.station import Station, StationConfig
from app.net.web import DirectorServer
from app.record.session import Session
from app.referee.events import CallDirector, Event
from app.referee.setup import MatchSetup
from tests.net.broker import Mosquitto
from tests.net.conftest import PREFIX, wait_for

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

PASSWORD = "masa-basi-hakem"
ATTACK = """<!doctype html><html><body><iframe name="sink"></iframe>
<form id="f" method="POST" action="DIRECTOR/api/confirm" target="sink"><input name="board" value="1"></form>
<script>
fetch("DIRECTOR/api/send", {method: "POST", mode: "no-cors", credentials: "include",
  headers: {"Content-Type": "text/plain"}, body: JSON.stringify({board: "2", type: "time", color: "white", ms: 1})})
  .finally(() => { document.getElementById("f").submit(); setTimeout(() => document.title = "done", 800); });
</script></body></html>"""
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


@contextlib.contextmanager
def chromium(viewport: dict[str, int], *extra: str) -> Iterator[tuple[BrowserContext, Page, list[str]]]:
    """Debian's chromium, headless, on a fresh profile (nothing of an earlier run reused) removed afterwards: the
    browser and a page whose script errors are collected."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    errors: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                headless=True,
                args=[*FLAGS, *extra],
                viewport=viewport,
                bypass_csp=True,  # the tests' own probes are evaluated scripts; the page's policy forbids those
            )
            try:
                page = browser.new_page()
                page.on("pageerror", lambda error: errors.append(str(error)))
                yield browser, page, errors
            finally:
                browser.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def tournament(
    broker: Mosquitto, recording: tuple[MatchSetup, list[Event]], tmp_path: Path
) -> Iterator[tuple[DirectorServer, list[Session]]]:
    setup, events = recording
    director = Director(broker.config("director"), PREFIX, tmp_path / "results").start()
    journal = DirectorJournal(tmp_path / "director.sqlite", PREFIX)
    server = DirectorServer(director, Accounts({"director": PASSWORD}), journal, "127.0.0.1", 0).start()
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
        journal.close()
        for session in sessions:
            session.close()


def test_the_directors_page_in_chromium(tournament: tuple[DirectorServer, list[Session]], tmp_path: Path) -> None:
    server, sessions = tournament
    shots = Path(os.environ.get("TAVLA_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    with chromium({"width": 1500, "height": 900}) as (browser, page, errors):
        page.goto(server.url)
        page.wait_for_selector("#password")  # no page without a login
        page.fill("#password", "yanlış")
        page.click("#login")
        page.wait_for_function("document.getElementById('problem').innerText.includes('Wrong')")
        page.fill("#password", PASSWORD)
        page.click("#login")
        page.wait_for_selector("#boards tr.board >> nth=2")
        assert page.locator("#user").inner_text() == "director"
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
        assert "The director is called" in page.locator("#rulings").inner_text()  # in words, not codes
        assert page.locator("#rulings li[title='director_called']").count() == 1
        page.click("#otw")
        page.wait_for_function(
            "document.querySelector('#boards tr.called') &&"
            " document.querySelector('#boards tr.called').innerText.includes('on the way')"
        )
        page.wait_for_function("document.querySelector('#sent').innerText.includes('seen by the station')")
        page.screenshot(path=str(shots / "director-board-2.png"), full_page=True)

        sent_before = len(server.director.boards["2"].sent)
        attacker = browser.new_page()  # another site's page in the same browser, the session live
        with _foreign_site(ATTACK.replace("DIRECTOR", server.url.rstrip("/"))) as foreign:
            attacker.goto(foreign)
            attacker.wait_for_function("document.title === 'done'")
        attacker.close()
        assert len(server.director.boards["2"].sent) == sent_before
        assert not server.director.boards["1"].confirmed

        page.click("#results button[data-confirm='1']")
        page.wait_for_function("!document.querySelector(\"#results button[data-confirm='1']\")")
        assert page.locator("#boards tr.confirm").count() == 0
        csv = page.evaluate("fetch('/results.csv').then(r => r.text())")
        assert "1,Ayşe,Mehmet," in csv and head in csv and csv.strip().endswith("True")
    assert errors == []


@contextlib.contextmanager
def _foreign_site(html: str) -> Iterator[str]:
    """A page served from another origin (another port) for as long as the block runs."""
    body = html.encode("utf-8")

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
