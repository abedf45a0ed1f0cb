"""A whole tournament day over the real Mosquitto (TLS, a password per board, the tournament's access rules):
32 players, a main draw and a consolation, 46 matches on 16 boards, played to the end by the stations alone.

Each station hears its assignment in its inbox, plays a short real match into a new journal and both players
confirm the result sheet; the director writes the result into the book by itself, the winner advances and the
next match goes to a free board as soon as it is playable. On the way: a board sends a poisoned event message
(set aside, counted against it, nothing else disturbed), the page refuses a wrong password and a cross-site post
(nothing written), and the director is stopped in round 2 while boards play on and started again on the same
book: the registrations, the draw and every result stand, and the results played meanwhile are taken, once.
"""

from __future__ import annotations

import csv
import http.client
import io
import json
from pathlib import Path
from typing import Any, Iterator

import paho.mqtt.client as mqtt
import pytest

from app.net.actions import DirectorJournal
from app.net.auth import Accounts
from app.net.client import connect, make_client
from app.net.director import Director
from app.net.topics import Topics
from app.net.tournament import Bracket, results_csv, results_json
from app.net.tournament_book import TournamentBook
from app.net.web import DirectorServer
from tests.net.broker import Mosquitto, available
from tests.net.conftest import PREFIX, wait_for
from tests.net.hall_day import Assigner, Day

PLAYERS = [f"Oyuncu {i:02d}" for i in range(1, 33)]
BOARDS = [str(b) for b in range(1, 17)]
PASSWORD = "uzun-bir-parola"
ROUND_TWO = {(Bracket.MAIN, 2), (Bracket.CONSOLATION, 1)}


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Mosquitto]:
    problem = available()
    if problem:
        pytest.fail(problem)  # .ci/setup installs Mosquitto: a missing broker is a broken set-up, not a pass
    with Mosquitto(tmp_path / "broker", PREFIX, BOARDS) as mosquitto:
        yield mosquitto


class Page:
    """The director's page and one browser of it (its cookie and CSRF token kept)."""

    def __init__(self, director: Director, folder: Path) -> None:
        self.journal = DirectorJournal(folder / "director-journal.sqlite", PREFIX)
        self.server = DirectorServer(director, Accounts({"director": PASSWORD}), self.journal, "127.0.0.1", 0)
        self.server.start()
        self.cookie = self.csrf = ""

    def request(self, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, bytes]:
        host, port = self.server.server_address[:2]
        connection = http.client.HTTPConnection(str(host), int(port), timeout=20)
        try:
            sent = {"Content-Type": "application/json", "Cookie": self.cookie, **headers}
            connection.request(method, path, None if body is None else json.dumps(body).encode(), sent)
            response = connection.getresponse()
            cookie = response.getheader("Set-Cookie")
            if cookie:
                self.cookie = cookie.split(";", 1)[0]
            return response.status, response.read()
        finally:
            connection.close()

    def login(self, password: str) -> int:
        status, answer = self.request("POST", "/api/login", {"user": "director", "password": password})
        if status == 200:
            self.csrf = json.loads(answer)["csrf"]
        return status

    def stop(self) -> None:
        self.server.stop()
        self.journal.close()


def _poison(hall: Mosquitto, board: str) -> None:
    """Board ``board``'s own account publishes an event message whose sequence number is a word."""
    client = make_client(hall.config(board), "tavla-poisoner")
    connect(client, hall.config(board), persistent=False)
    try:
        wait_for(client.is_connected, 20, "the poisoner connected")
        payload = json.dumps(
            {"board": board, "seq": "bir", "kind": "event", "at": "", "prev": "", "hash": "", "payload": {}}
        )
        info = client.publish(Topics(PREFIX).events(board), payload, qos=1)
        info.wait_for_publish(timeout=10)
        assert info.rc == mqtt.MQTT_ERR_SUCCESS
    finally:
        client.disconnect()
        client.loop_stop()


def test_a_32_player_double_bracket_played_to_the_end_by_the_stations(hall: Mosquitto, tmp_path: Path) -> None:
    path = tmp_path / "book.sqlite"
    results = tmp_path / "results"
    book = TournamentBook.create(path, {"event": "Moda Kupası", "consolation_rounds": 1, "lengths": [1]}, "director")
    director = Director(hall.config("director"), PREFIX, results, book=book).start()
    page = Page(director, tmp_path)
    day = Day(hall, PREFIX, BOARDS, tmp_path / "boards", seed=7).start()
    assigner = Assigner(BOARDS, director)
    try:
        for name in PLAYERS:
            director.act({"do": "register", "name": name}, "director")
        director.act({"do": "draw", "seed": 11}, "director")
        drawn = book.tournament
        assert len(drawn.matches) == 31 + 15
        wait_for(lambda: director.connected and day.online(), 30, "the director and 16 boards online")

        # the page: a wrong password is refused and journaled; a post from another site changes nothing
        assert page.login("yanlis-parola") == 401
        assert page.login(PASSWORD) == 200
        before = len(book.actions())
        evil = {"Origin": "http://kotu.example", "X-CSRF-Token": page.csrf}
        status, _ = page.request("POST", "/api/tournament", {"do": "withdraw", "player": "p1"}, **evil)
        assert status == 403 and len(book.actions()) == before

        assigner.start()
        wait_for(lambda: len(day.received) >= 16, 30, "round 1 on the boards")
        _poison(hall, "5")
        wait_for(lambda: director.boards["5"].set_aside == 1, 20, "the poisoned message set aside")
        assert "seq" in director.boards["5"].last_set_aside
        status, answer = page.request("GET", "/api/boards")
        assert status == 200 and [b["set_aside"] for b in json.loads(answer)["boards"] if b["board"] == "5"] == [1]

        # round 2: once four of its matches are on their boards, the players hold their confirmations while the
        # director goes down, and confirm with no director
        def second_round_on_boards() -> int:
            return sum((drawn.matches[m].bracket, drawn.matches[m].round) in ROUND_TWO for _, m, _ in day.received)

        wait_for(lambda: second_round_on_boards() >= 4, 60, "round 2 begun")
        day.gate.clear()
        assigner.stop()
        director.stop()
        page.stop()
        taken = {m.id: m.result for m in book.tournament.matches.values() if m.result is not None}
        players = dict(book.tournament.players)
        book.close()
        on_boards = [m for _, m, _ in day.received]
        assert len(taken) < len(on_boards)  # matches whose sheets are not confirmed yet
        day.gate.set()
        wait_for(lambda: len(day.played) == len(on_boards), 30, "the boards' matches confirmed with no director")

        book = TournamentBook.open(path)
        assert book.tournament.players == players
        assert {k: m.places for k, m in book.tournament.matches.items()} == {
            k: m.places for k, m in drawn.matches.items()
        }
        assert {m.id: m.result for m in book.tournament.matches.values() if m.result is not None} == taken
        director = Director(hall.config("director"), PREFIX, results, book=book).start()
        page = Page(director, tmp_path)
        wait_for(lambda: all(book.tournament.matches[m].result for m in on_boards), 30, "the results come meanwhile")
        assigner.start(director)
        wait_for(lambda: book.tournament.finished(), 80, "the day played to the end")

        final = book.tournament
        champion, consolation = final.champion(), final.champion(Bracket.CONSOLATION)
        assert champion is not None and consolation is not None and champion != consolation
        # every match was played once, on a board, and its result is the one its board played
        played = {p.match: p for p in day.played}
        assert len(day.played) == len(played) == len(final.matches) == 46
        assert all(final.name(final.matches[m].result.winner) == p.winner for m, p in played.items())  # type: ignore[union-attr]
        results_taken = [a for a in book.actions() if a["do"] == "result"]
        assert sorted(a["match"] for a in results_taken) == sorted(final.matches)  # 0 lost, 0 doubled
        assert all(a["by"] == f"board {final.matches[a['match']].board}" for a in results_taken)

        # the export: one row per match with its event, round, board, times, players, score and journal head
        files = {results / "tournament.csv": results_csv(final), results / "tournament.json": results_json(final)}
        wait_for(lambda: all(p.read_text(encoding="utf-8") == text for p, text in files.items()), 10, "the export")
        rows = list(csv.DictReader(io.StringIO((results / "tournament.csv").read_text(encoding="utf-8"))))
        assert len(rows) == 46 and len({r["match"] for r in rows}) == 46 and len({r["head"] for r in rows}) == 46
        for row in rows:
            assert row["event"] == "Moda Kupası" and row["board"] in BOARDS and row["round"]
            assert row["started"] < row["ended"] and {row["player1"], row["player2"]} <= set(PLAYERS)
            assert sorted([row["score1"], row["score2"]]) == ["0", "3"] and row["winner"] == played[row["match"]].winner
            assert row["head"] == final.matches[row["match"]].result.head  # type: ignore[union-attr]
        exported = json.loads((results / "tournament.json").read_text(encoding="utf-8"))
        assert [(m["match"], m["head"]) for m in exported["matches"]] == [(r["match"], r["head"]) for r in rows]
        assert page.login(PASSWORD) == 200
        status, answer = page.request("GET", "/tournament.csv")
        assert status == 200 and answer.decode() == (results / "tournament.csv").read_text(encoding="utf-8")
        journaled = [(a["who"], a["action"]) for a in reversed(page.journal.recent(100))]
        assert journaled[:2] == [("director", "login refused"), ("director", "login")]  # kept across the restart
        assert ("director", "tournament withdraw") not in journaled  # the cross-site post never got that far
    finally:
        assigner.stop()
        day.stop()
        director.stop()
        page.stop()
        book.close()
