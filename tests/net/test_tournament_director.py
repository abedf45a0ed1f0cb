"""The director's side of the draw without a broker: a board's journal fed straight into the director.

A confirmed result (both players confirmed the sheet) goes into the book once the board's snapshot has caught
up with its journal; fed again from entry 1 (a restarted director, a resent stream) it is not taken twice; a
match played before it was assigned is taken at its assignment; an unconfirmed result is not taken; and the
board's next journal starts its feed again without touching the first match's row.
"""

from __future__ import annotations

from pathlib import Path

from app.net.client import BrokerConfig
from app.net.director import Director
from app.net.messages import dumps
from app.net.snapshot import BoardState
from app.net.station import entry_message
from app.net.topics import Topics
from app.net.tournament_book import TournamentBook
from app.record.journal import Journal
from app.record.session import Session
from app.referee.events import Event, ResultConfirmed
from app.referee.setup import MatchSetup
from tests.net.conftest import PREFIX

TOPICS = Topics(PREFIX)


def journal_of(path: Path, setup: MatchSetup, events: list[Event], confirmed: bool = True) -> Path:
    session = Session.create(path, setup)
    for event in events:
        session.submit(event)
    if confirmed:
        for side in ("white", "black"):
            session.submit(ResultConfirmed(by=side))  # type: ignore[arg-type]
    session.close()
    return path


def feed(director: Director, board: str, path: Path) -> None:
    """Every entry of the journal, then its snapshot, as the station publishes them."""
    journal = Journal(path)
    state = BoardState()
    try:
        for entry in journal.entries():
            state.add(entry)
            assert director.take(TOPICS.events(board), dumps(entry_message(board, entry)))
    finally:
        journal.close()
    assert director.take(TOPICS.snapshot(board), dumps(state.snapshot(board)))


def test_confirmed_results_reach_the_book_once(recording: tuple[MatchSetup, list[Event]], tmp_path: Path) -> None:
    setup, events = recording
    book = TournamentBook.create(tmp_path / "book.sqlite", {"event": "Kupa", "lengths": [1]}, "terminal")
    director = Director(BrokerConfig(), PREFIX, book=book)
    for name in ("Ayşe", "Mehmet", "Deniz", "Ece"):
        director.act({"do": "register", "name": name}, "director")
    tournament = director.act({"do": "draw", "seed": 3}, "director")
    first, second = (m.id for m in tournament.playable())
    names = [tournament.name(p) for p in tournament.players_of(tournament.matches[first])]
    played = MatchSetup.from_dict({**setup.to_dict(), "players": names, "table": "1"})

    # played on board 1 before the director put it there: taken when it is assigned
    feed(director, "1", journal_of(tmp_path / "one.sqlite", played, events))
    assert book.tournament.matches[first].result is None and "no match of the draw" in director.book_problem
    director.act({"do": "assign", "match": first, "board": "1"}, "director")
    result = book.tournament.matches[first].result
    assert result is not None and result.head == director.boards["1"].head and result.started and result.ended
    assert book.actions()[-1]["by"] == "board 1" and director.boards["1"].match == first

    # the same journal again from entry 1, as to a restarted director: nothing taken twice
    restarted = Director(BrokerConfig(), PREFIX, book=book)
    feed(restarted, "1", tmp_path / "one.sqlite")
    assert restarted.boards["1"].match == first and not restarted.book_problem
    assert [a["do"] for a in book.actions()].count("result") == 1

    # board 1's next match, unconfirmed: its feed starts again, nothing taken, the first row untouched
    names = [tournament.name(p) for p in tournament.players_of(tournament.matches[second])]
    director.act({"do": "assign", "match": second, "board": "1"}, "director")
    other = MatchSetup.from_dict({**setup.to_dict(), "players": names, "table": "1"})
    feed(director, "1", journal_of(tmp_path / "two.sqlite", other, events, confirmed=False))
    assert director.boards["1"].held == len(events) + 1 and director.boards["1"].head != result.head
    assert book.tournament.matches[second].result is None
    assert book.tournament.matches[first].result == result
