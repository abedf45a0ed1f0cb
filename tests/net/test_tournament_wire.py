"""A tournament day over the real Mosquitto: eight players, a main draw and a consolation, played to the end.

The director runs the draw on its tournament book; each assignment goes to the board's inbox as the match's
set-up, and a board already online takes it (the station exposes it for the players to confirm). Each match is
the recorded demo match played again into a new journal made from that set-up, closed by both players
confirming the result sheet; the director writes the result into the book by itself and the winner advances.
In round 2 the director is stopped while three boards play on, and started again on the same book: nothing
registered, drawn or decided is lost, the results that came meanwhile are taken, and a journal sent again
from entry 1 adds nothing twice.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Iterator

import pytest

from app.net.director import Director
from app.net.tournament import Bracket, Tournament
from app.net.tournament_book import TournamentBook
from app.referee.events import Event
from app.referee.setup import MatchSetup
from tests.net.broker import Mosquitto, available
from tests.net.conftest import PREFIX, wait_for
from tests.net.hall_boards import Boards

PLAYERS = ["Ayşe", "Mehmet", "Deniz", "Ece", "Can", "Elif", "Okan", "Selin"]
BOARDS = ["1", "2", "3", "4"]


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Mosquitto]:
    problem = available()
    if problem:
        pytest.fail(problem)
    with Mosquitto(tmp_path / "broker", PREFIX, BOARDS) as mosquitto:
        yield mosquitto


def _setup(sent: dict[str, object]) -> MatchSetup:
    setup = dict(sent["setup"])  # type: ignore[call-overload]
    setup.pop("match")
    return MatchSetup.from_dict(setup)


def _decided(book: TournamentBook, matches: list[str]) -> bool:
    return all(book.tournament.matches[m].result is not None for m in matches)


def test_a_double_bracket_played_to_the_end_with_a_director_restart(
    hall: Mosquitto, recording: tuple[MatchSetup, list[Event]], tmp_path: Path
) -> None:
    _, events = recording
    path = tmp_path / "book.sqlite"
    book = TournamentBook.create(path, {"event": "Kulüp Kupası", "consolation_rounds": 1, "lengths": [1]}, "director")
    director = Director(hall.config("director"), PREFIX, book=book).start()
    boards = Boards(hall, events, tmp_path)
    try:
        for name in PLAYERS:
            director.act({"do": "register", "name": name}, "director")
        tournament = director.act({"do": "draw", "seed": 5}, "director")
        first_round = [m.id for m in tournament.playable()]
        assert len(first_round) == 4 and len(tournament.matches) == 10
        wait_for(lambda: director.connected, 20, "the director connected")

        # round 1: the set-up each board was sent makes its journal
        for board, match in zip(BOARDS, first_round):
            director.act({"do": "assign", "match": match, "board": board}, "director")
            sent = director.boards[board].sent[-1]
            assert sent["type"] == "match" and sent["setup"]["match"] == match
            assert sent["setup"]["table"] == board and sent["setup"]["round"] == "R1"
            boards.play(board, _setup(sent))
        wait_for(lambda: _decided(book, first_round), 90, "round 1's results in the book")
        tournament = book.tournament
        assert all(book.tournament.matches[m].result.head for m in first_round)  # type: ignore[union-attr]

        # round 2: the boards online take their next match from the inbox
        second = [m.id for m in tournament.playable()]
        assert len(second) == 4  # two semi-finals, two consolation matches
        on_boards = dict(zip(BOARDS[:3], second[:3]))
        for board, match in on_boards.items():
            director.act({"do": "assign", "match": match, "board": board}, "director")
        for board, match in on_boards.items():
            station = boards.stations[board]
            wait_for(lambda: station.assigned is not None and station.assigned.match == match, 20, "the match sent")
        director.stop()  # the director goes down mid-round; the boards play on
        for board, match in on_boards.items():
            assigned = boards.stations[board].assigned
            assert assigned is not None and assigned.setup.table == board
            boards.play(board, assigned.setup)
        book.close()

        book = TournamentBook.open(path)  # the same file, replayed
        assert [p.name for p in book.tournament.players.values()] == PLAYERS
        assert book.tournament.matches.keys() == tournament.matches.keys() and _decided(book, first_round)
        director = Director(hall.config("director"), PREFIX, tmp_path / "results", book=book).start()
        wait_for(lambda: _decided(book, list(on_boards.values())), 90, "the results played while it was down")
        # board 4's round-1 journal came again from entry 1: taken once
        wait_for(lambda: director.boards.get("4") is not None and director.boards["4"].taken != "", 60, "board 4")
        assert director.boards["4"].match == first_round[3]

        # the rest of the day, on whichever board is free
        while not book.tournament.finished():
            playable = [m.id for m in book.tournament.playable()]
            assert playable, "a match waits for none that is being played"
            for board, match in zip(BOARDS, playable):
                director.act({"do": "assign", "match": match, "board": board}, "director")
                station = boards.stations[board]
                wait_for(lambda: station.assigned is not None and station.assigned.match == match, 20, "sent")
                boards.play(board, station.assigned.setup)  # type: ignore[union-attr]
            wait_for(lambda: _decided(book, playable), 90, f"{playable} decided")

        final: Tournament = book.tournament
        assert final.champion() is not None and final.champion(Bracket.CONSOLATION) is not None
        results = [a for a in book.actions() if a["do"] == "result"]
        assert sorted(a["match"] for a in results) == sorted(final.matches)  # each match once, none twice
        assert all(a["by"].startswith("board ") and a["head"] and a["started"] and a["ended"] for a in results)
        rows = final.rows()
        assert len(rows) == 10 and len({r["head"] for r in rows}) == 10
        assert len([r for r in rows if r["board"] == "1"]) >= 3  # board 1's matches, each its own row

        def written() -> list[tuple[str, str]]:
            text = (tmp_path / "results" / "tournament.csv").read_text(encoding="utf-8")
            return [(r["match"], r["head"]) for r in csv.DictReader(io.StringIO(text))]

        wait_for(lambda: written() == [(r["match"], r["head"]) for r in rows], 10, "tournament.csv written")
    finally:
        boards.stop()
        director.stop()
        book.close()
