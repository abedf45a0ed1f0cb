"""The tournament on the director's page in headless Chromium, with boards over the real Mosquitto.

The director logs in, switches the page to Turkish, registers four players, draws and puts the two semi-finals
on boards 1 and 2 from the page. Board 1 plays its match to the end and both players confirm the sheet: the
result appears in the bracket by itself. Board 2 calls the director: a red banner and a beep. Its rulings read in
Turkish words. The director corrects board 1's result with a reason (journaled as the director's), and the
printable sheet is in the page's language. Screenshots go to ``TAVLA_SCREENSHOTS`` (a folder) when set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from app.net.actions import DirectorJournal
from app.net.auth import Accounts
from app.net.director import Director
from app.net.tournament_book import TournamentBook
from app.net.web import DirectorServer
from app.referee.events import Event
from app.referee.setup import MatchSetup
from tests.net.broker import Mosquitto, available
from tests.net.conftest import PREFIX, wait_for
from tests.net.hall_boards import Boards
from tests.net.test_page import PASSWORD, chromium

PLAYERS = [("Ayşe", "Kadıköy", "1700"), ("Mehmet", "Beşiktaş", "1650"), ("Deniz", "", ""), ("Ece", "Moda", "1500")]


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Mosquitto]:
    problem = available()
    if problem:
        pytest.fail(problem)
    with Mosquitto(tmp_path / "broker", PREFIX, ["1", "2"]) as mosquitto:
        yield mosquitto


def test_the_tournament_run_from_the_page(
    hall: Mosquitto, recording: tuple[MatchSetup, list[Event]], tmp_path: Path
) -> None:
    from playwright.sync_api import Dialog

    _, events = recording
    book = TournamentBook.create(tmp_path / "book.sqlite", {"event": "Moda Kupası", "lengths": [1]}, "terminal")
    director = Director(hall.config("director"), PREFIX, book=book).start()
    journal = DirectorJournal(tmp_path / "director.sqlite", PREFIX)
    server = DirectorServer(director, Accounts({"director": PASSWORD}), journal, "127.0.0.1", 0).start()
    boards = Boards(hall, events, tmp_path)
    shots = Path(os.environ.get("TAVLA_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    sound = "--autoplay-policy=no-user-gesture-required"  # the call's beep plays without a tap
    try:
        with chromium({"width": 1500, "height": 1000}, sound) as (_, page, errors):
            page.goto(server.url)
            page.fill("#password", PASSWORD)
            page.click("#login")
            page.wait_for_selector("#tournament:not([hidden])")
            page.select_option("#lang", "tr")
            assert page.locator("#register").inner_text() == "Kaydet"
            for name, club, rating in PLAYERS:
                page.fill("#p-name", name)
                page.fill("#p-club", club)
                page.fill("#p-rating", rating)
                page.click("#register")
                page.wait_for_function(f"document.getElementById('players').innerText.includes('{name}')")
            page.check("#seeded")
            page.click("#draw")
            page.wait_for_selector("#after-draw:not([hidden])")
            tournament = book.tournament
            semis = [m.id for m in tournament.playable()]
            assert len(semis) == 2 and book.actions()[-1]["by"] == "director"
            assert page.locator("#brackets").inner_text().count("Ana tablo") == 1
            assert "main-1-1 galibi" in page.locator("#brackets").inner_text()  # the final's open places
            for board, match in zip(("1", "2"), semis):
                page.select_option("#a-match", match)
                page.fill("#a-board", board)
                page.click("#assign")
                page.wait_for_selector(f".match[data-match='{match}'] >> text=masa {board}")
            for board in ("1", "2"):
                sent = director.boards[board].sent[-1]
                setup = MatchSetup.from_dict({k: v for k, v in sent["setup"].items() if k != "match"})
                boards.play(board, setup, upto=None if board == "1" else len(events) // 2, call=board == "2")

            page.wait_for_selector("#alarm:not([hidden])")
            assert "2 numaralı masa hakem çağırıyor" in page.locator("#alarm").inner_text()
            page.wait_for_function("Number(document.body.dataset.beeps) >= 1")
            assert page.locator("#boards tr.called").get_attribute("data-board") == "2"
            first = semis[0]
            wait_for(lambda: book.tournament.matches[first].result is not None, 60, "board 1's result in the book")
            page.wait_for_selector(f".match[data-match='{first}'] .won")
            winner = page.locator(f".match[data-match='{first}'] .won").inner_text()
            assert book.tournament.name(book.tournament.matches[first].result.winner) == winner  # type: ignore
            page.click("#boards tr[data-board='2']")
            page.wait_for_selector("#detail #rulings li[title='director_called']")
            assert "Hakem çağrıldı" in page.locator("#rulings").inner_text()
            page.screenshot(path=str(shots / "director-tournament-tr.png"), full_page=True)

            # the director corrects board 1's result: the other player won, with a reason
            loser = page.locator(f".match[data-match='{first}'] div:not(.id):not(.won)").inner_text()
            page.select_option("#c-match", first)
            page.wait_for_function("[...document.querySelectorAll('#c-winner option')].length === 2")
            page.select_option("#c-winner", label=loser)
            page.fill("#c-score", "0-1")
            dialogs: list[str] = []

            def said(dialog: Dialog) -> None:
                dialogs.append(dialog.message)
                dialog.dismiss()

            page.on("dialog", said)
            page.click("#correct")  # no reason: refused, and the page says why
            page.wait_for_function("document.getElementById('c-score').value === '0-1'")
            for _ in range(100):  # Playwright hands the page's events over only while it is called
                if dialogs:
                    break
                page.wait_for_timeout(100)
            assert "reason" in dialogs[0] and not [a for a in book.actions() if a["do"] == "correct"]
            page.fill("#c-reason", "sonuç kâğıdı yanlış okundu")
            page.click("#correct")
            won = f".match[data-match='{first}'] .won"
            page.wait_for_function(f"document.querySelector({won!r})?.innerText === {loser!r}")
            last = book.actions()[-1]
            assert last["do"] == "correct" and last["by"] == "director" and "yanlış" in last["reason"]
            sheet = page.evaluate("fetch(document.getElementById('sheet').href).then(r => r.text())")
            assert "Ana tablo" in sheet and loser in sheet
            page.select_option("#lang", "en")
            page.wait_for_function("document.getElementById('alarm').innerText.includes('calls the director')")
            page.wait_for_function("document.getElementById('brackets').innerText.includes('Main draw')")
            assert page.locator("#register").inner_text() == "Register"
            page.screenshot(path=str(shots / "director-tournament-en.png"), full_page=True)
    finally:
        boards.stop()
        server.stop()
        director.stop()
        journal.close()
        book.close()
    assert errors == []
