"""The director's page refuses everyone but its accounts: login, sessions, CSRF, JSON only, HTTPS, a brake on guesses.

The server runs on a loopback port in front of a director that holds one finished board (fed directly, no
broker); the requests are the standard library's, as any script in the hall could send them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import ssl
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np
import pytest

from app.net.actions import DirectorJournal
from app.net.auth import MAX_FAILURES, Accounts
from app.net.cli import page_tls
from app.net.client import BrokerConfig
from app.net.director import Director
from app.net.hall import make_certificates, write_broker_files
from app.net.join import decode, read_qr
from app.net.messages import dumps
from app.net.snapshot import BoardState
from app.net.topics import Topics
from app.net.web import DirectorServer, tls_context
from app.record.session import Session
from app.referee.events import Event
from app.referee.setup import MatchSetup
from tests.net.conftest import PREFIX

PASSWORDS = {"director": "uzun-bir-parola", "deputy": "yardimci-parola"}


class Browser:
    """One client of the page: keeps its cookie, as a browser would."""

    def __init__(self, server: DirectorServer, context: ssl.SSLContext | None = None) -> None:
        self.host, self.port = server.server_address[:2]
        self.context = context
        self.cookie = ""
        self.csrf = ""

    def request(
        self, method: str, path: str, body: Any = None, kind: str = "application/json", **headers: str
    ) -> tuple[int, dict[str, str], bytes]:
        connection = (
            http.client.HTTPSConnection(str(self.host), int(self.port), context=self.context, timeout=20)
            if self.context
            else http.client.HTTPConnection(str(self.host), int(self.port), timeout=20)
        )
        try:
            data = body if isinstance(body, bytes) else None if body is None else json.dumps(body).encode()
            sent = {"Content-Type": kind, **headers} if data is not None else dict(headers)
            if self.cookie:
                sent["Cookie"] = self.cookie
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            answer = response.read()
            cookie = response.getheader("Set-Cookie")
            if cookie:
                self.cookie = cookie.split(";", 1)[0]
            return response.status, {k.lower(): v for k, v in response.getheaders()}, answer
        finally:
            connection.close()

    def login(self, user: str = "director", password: str = PASSWORDS["director"]) -> int:
        status, _, answer = self.request("POST", "/api/login", {"user": user, "password": password})
        if status == 200:
            self.csrf = json.loads(answer)["csrf"]
        return status

    def post(self, path: str, body: Any, **headers: str) -> int:
        return self.request("POST", path, body, **{"X-CSRF-Token": self.csrf, **headers})[0]


@pytest.fixture(scope="module")
def finished_snapshot(recording: tuple[MatchSetup, list[Event]], tmp_path_factory: pytest.TempPathFactory) -> bytes:
    setup, events = recording
    session = Session.create(tmp_path_factory.mktemp("web") / "board.sqlite", setup)
    for event in events:
        session.submit(event)
    state = BoardState()
    for entry in session.journal.entries():
        state.add(entry)
    session.close()
    return dumps(state.snapshot("4"))


def serve(tmp_path: Path, snapshot: bytes, **options: Any) -> tuple[DirectorServer, Director, DirectorJournal]:
    director = Director(BrokerConfig(), PREFIX)
    assert director.take(Topics(PREFIX).snapshot("4"), snapshot)
    journal = DirectorJournal(tmp_path / "director.sqlite", PREFIX)
    server = DirectorServer(director, Accounts(PASSWORDS), journal, "127.0.0.1", 0, **options).start()
    return server, director, journal


@pytest.fixture
def page(tmp_path: Path, finished_snapshot: bytes) -> Iterator[tuple[DirectorServer, Director, DirectorJournal]]:
    server, director, journal = serve(tmp_path, finished_snapshot)
    try:
        yield server, director, journal
    finally:
        server.stop()
        journal.close()


def test_nothing_is_read_or_changed_without_a_login(page: tuple[DirectorServer, Director, DirectorJournal]) -> None:
    server, director, journal = page
    anonymous = Browser(server)
    status, headers, _ = anonymous.request("GET", "/")
    assert status == 303 and headers["location"] == "/login"
    for path in ("/api/boards", "/api/board/4", "/results.csv", "/results.json", "/api/actions", "/api/session"):
        assert anonymous.request("GET", path)[0] == 401, path
    assert anonymous.request("GET", "/scores")[0] == 404  # no public view unless chosen
    assert anonymous.post("/api/send", {"board": "4", "type": "time", "color": "white", "ms": 1000}) == 401
    assert anonymous.post("/api/confirm", {"board": "4"}) == 401
    assert director.boards["4"].sent == [] and not director.boards["4"].confirmed
    assert journal.recent() == []


def test_a_bad_login_is_refused_journaled_and_guessing_is_braked(
    page: tuple[DirectorServer, Director, DirectorJournal],
) -> None:
    server, director, journal = page
    guesser = Browser(server)
    assert guesser.login("director", "parola") == 401
    assert guesser.login("admin", PASSWORDS["director"]) == 401
    assert guesser.request("GET", "/api/boards")[0] == 401
    assert journal.recent()[0]["action"] == "login refused" and journal.recent()[0]["from"] == "127.0.0.1"
    for _ in range(MAX_FAILURES - 2):
        guesser.login("director", "yanlis-parola")
    assert guesser.login() == 429  # even the right password waits now
    assert guesser.request("GET", "/api/boards")[0] == 401


def test_a_cross_site_or_plain_text_post_changes_nothing(
    page: tuple[DirectorServer, Director, DirectorJournal],
) -> None:
    server, director, journal = page
    browser = Browser(server)
    assert browser.login() == 200
    body = {"board": "4", "type": "time", "color": "white", "ms": 1000}
    assert browser.post("/api/send", json.dumps(body).encode(), kind="text/plain") == 415
    assert browser.post("/api/send", b"board=4&type=on_the_way", kind="application/x-www-form-urlencoded") == 415
    assert browser.post("/api/send", b"--x\r\n", kind="multipart/form-data; boundary=x") == 415
    assert browser.post("/api/send", body, Origin="http://evil.example") == 403
    assert browser.post("/api/confirm", {"board": "4"}, **{"Sec-Fetch-Site": "cross-site"}) == 403
    assert browser.request("POST", "/api/confirm", {"board": "4"})[0] == 403  # no CSRF token
    assert browser.request("POST", "/api/confirm", {"board": "4"}, **{"X-CSRF-Token": "guess"})[0] == 403
    assert director.boards["4"].sent == [] and not director.boards["4"].confirmed
    assert [a["action"] for a in journal.recent()] == ["login"]


def test_logged_in_actions_are_carried_out_and_journaled_with_who_did_them(
    page: tuple[DirectorServer, Director, DirectorJournal],
) -> None:
    server, director, journal = page
    deputy = Browser(server)
    assert deputy.login("deputy", PASSWORDS["deputy"]) == 200
    cookie = deputy.request("POST", "/api/login", {"user": "deputy", "password": PASSWORDS["deputy"]})[1]["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie  # plain HTTP: loopback
    deputy.csrf = json.loads(deputy.request("GET", "/api/session")[2])["csrf"]
    assert deputy.post("/api/send", {"board": "4", "type": "time", "color": "black", "ms": 90_000}) == 200
    assert director.boards["4"].sent[-1]["type"] == "time"
    assert deputy.post("/api/confirm", {"board": "4"}) == 200
    assert director.boards["4"].confirmed
    status, _, csv = deputy.request("GET", "/results.csv")
    assert status == 200 and csv.decode().strip().endswith("True")
    actions = journal.recent()
    assert [a["action"] for a in actions[:2]] == ["confirm", "send"]
    assert actions[1]["who"] == "deputy" and actions[1]["message"]["by"] == "deputy"
    assert actions[1]["message"]["ms"] == 90_000 and actions[0]["at"]
    assert deputy.post("/api/logout", {}) == 200
    assert deputy.request("GET", "/api/boards")[0] == 401


def test_the_public_view_shows_scores_and_nothing_else(tmp_path: Path, finished_snapshot: bytes) -> None:
    server, director, journal = serve(tmp_path, finished_snapshot, public=True)
    try:
        spectator = Browser(server)
        status, headers, _ = spectator.request("GET", "/")
        assert status == 303 and headers["location"] == "/scores"
        assert spectator.request("GET", "/scores")[0] == 200
        row = json.loads(spectator.request("GET", "/api/scores")[2])["boards"][0]
        assert row["board"] == "4" and row["winner"] and row["over"]
        assert not {"head", "seq", "recent", "snapshot", "held"} & set(row)
        assert spectator.request("GET", "/api/board/4")[0] == 401
        assert spectator.post("/api/confirm", {"board": "4"}) == 401
    finally:
        server.stop()
        journal.close()


def test_the_page_beyond_localhost_is_https_with_a_secure_cookie(tmp_path: Path, finished_snapshot: bytes) -> None:
    ca, _, certificate, key = make_certificates(PREFIX, ["127.0.0.1"], days=1)
    for name, pem in (("ca.crt", ca), ("server.crt", certificate), ("server.key", key)):
        (tmp_path / name).write_bytes(pem)
    with pytest.raises(ValueError, match="HTTPS"):
        page_tls(_args(None, None), "0.0.0.0")
    tls = page_tls(_args(str(tmp_path / "server.crt"), str(tmp_path / "server.key")), "0.0.0.0")
    server, director, journal = serve(tmp_path, finished_snapshot, tls=tls)
    try:
        assert server.url.startswith("https://")
        browser = Browser(server, ssl.create_default_context(cafile=str(tmp_path / "ca.crt")))
        status, headers, _ = browser.request("POST", "/api/login", {"user": "director", "password": "uzun-bir-parola"})
        assert status == 200 and "Secure" in headers["set-cookie"] and "max-age" in headers["strict-transport-security"]
        with pytest.raises((http.client.HTTPException, OSError)):  # no page over plain HTTP
            plain = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
            plain.request("GET", "/login")
            plain.getresponse()
    finally:
        server.stop()
        journal.close()
    with pytest.raises(ValueError, match="certificate"):
        tls_context(str(tmp_path / "missing.crt"), str(tmp_path / "server.key"))


def test_the_director_needs_a_long_enough_password() -> None:
    with pytest.raises(ValueError, match="at least"):
        Accounts({"director": "kisa"})
    with pytest.raises(ValueError, match="director's page password"):
        Accounts({"deputy": "yardimci-parola"})


def _args(cert: str | None, key: str | None) -> argparse.Namespace:
    return argparse.Namespace(https_cert=cert, https_key=key)


def test_an_action_that_cannot_be_journaled_is_not_carried_out(
    page: tuple[DirectorServer, Director, DirectorJournal],
) -> None:
    server, director, journal = page
    browser = Browser(server)
    assert browser.login() == 200
    journal.close()  # the journal's file gone from under the page (a full disk, a pulled stick)
    assert browser.post("/api/confirm", {"board": "4"}) == 500
    assert not director.boards["4"].confirmed
    assert browser.request("GET", "/api/actions")[0] == 500
    assert browser.request("GET", "/api/boards")[0] == 200  # the rest of the page goes on


def test_the_tournament_on_the_page_takes_only_its_own_actions(tmp_path: Path, finished_snapshot: bytes) -> None:
    from app.net.tournament_book import TournamentBook

    book = TournamentBook.create(tmp_path / "book.sqlite", {"event": "Kupa", "lengths": [3]}, "terminal")
    director = Director(BrokerConfig(), PREFIX, book=book)
    journal = DirectorJournal(tmp_path / "director.sqlite", PREFIX)
    server = DirectorServer(director, Accounts(PASSWORDS), journal, "127.0.0.1", 0).start()
    try:
        anonymous = Browser(server)
        for path in ("/api/tournament", "/sheet.html?lang=tr", "/tournament.csv", "/tournament.json"):
            assert anonymous.request("GET", path)[0] == 401, path
        assert anonymous.post("/api/tournament", {"do": "register", "name": "Ayşe"}) == 401
        deputy = Browser(server)
        assert deputy.login("deputy", PASSWORDS["deputy"]) == 200
        assert deputy.request("POST", "/api/tournament", {"do": "register", "name": "Ayşe"})[0] == 403  # no CSRF
        for name in ("Ayşe", "Mehmet", "Deniz"):
            assert deputy.post("/api/tournament", {"do": "register", "name": name, "rating": None}) == 200
        refused = [
            {"do": "register", "name": "ayşe"},  # already registered
            {"do": "register", "name": "Can", "rating": "çok"},  # a rating is a number
            {"do": "create", "event": "Another"},  # the book is made at the terminal
            {"do": "assign", "match": "main-1-1", "board": "1"},  # no draw yet
        ]
        for action in refused:
            assert deputy.post("/api/tournament", action) == 400, action
        assert deputy.post("/api/tournament", {"do": "draw", "by": "someone else"}) == 200
        playable = book.tournament.playable()[0]
        assert deputy.post("/api/tournament", {"do": "assign", "match": playable.id, "board": "no board!"}) == 400
        assert deputy.post("/api/tournament", {"do": "assign", "match": playable.id, "board": "7"}) == 200
        assert director.boards["7"].sent[-1]["setup"]["match"] == playable.id
        match_message = {"board": "7", "type": "match", "setup": {**director.boards["7"].sent[-1]["setup"]}}
        assert deputy.post("/api/send", match_message) == 400  # a match goes to a board by an assignment only
        actions = book.actions()
        assert [a["do"] for a in actions] == ["create", "register", "register", "register", "draw", "assign"]
        assert actions[-1]["by"] == "deputy" and actions[-2]["by"] == "deputy" and isinstance(actions[-2]["seed"], int)
        status, _, answer = deputy.request("GET", "/api/tournament")
        state = json.loads(answer)
        assert status == 200 and state["drawn"] and state["actions"][0]["do"] == "assign"
        assert {m["id"] for m in state["matches"] if m["playable"]} == {m.id for m in book.tournament.playable()}
        status, headers, answer = deputy.request("GET", "/sheet.html?lang=tr")
        assert status == 200 and "Ana tablo" in answer.decode() and headers["content-type"].startswith("text/html")
        assert deputy.request("GET", "/sheet.html?lang=de")[0] == 400
        assert "Ayşe" in deputy.request("GET", "/tournament.csv")[2].decode()
        assert [a["action"] for a in journal.recent()][:2] == ["tournament assign", "tournament assign"]
    finally:
        server.stop()
        journal.close()
        book.close()


def test_a_boards_rulings_read_in_words(page: tuple[DirectorServer, Director, DirectorJournal]) -> None:
    server, director, _ = page
    director.boards["4"].recent.append({"seq": 9, "code": "director_called", "level": "warning", "params": {}})
    director.boards["4"].recent.append({"seq": 10, "code": "no_such_code", "params": {}})  # no level: its code
    browser = Browser(server)
    browser.login()
    recent = json.loads(browser.request("GET", "/api/board/4")[2])["recent"]
    assert recent[0]["text"]["en"].startswith("The director is called")
    assert recent[0]["text"]["tr"].startswith("Hakem çağrıldı")
    assert recent[1]["text"] == {"tr": "no_such_code", "en": "no_such_code"}


def test_a_boards_join_qr_is_shown_to_the_director_only_and_journaled(tmp_path: Path, finished_snapshot: bytes) -> None:
    files = write_broker_files(tmp_path / "hall", PREFIX, ["4", "5"], ["hall-pc"], days=2)
    server, _, journal = serve(tmp_path, finished_snapshot, join=files.join)
    try:
        anonymous = Browser(server)
        assert anonymous.request("GET", "/join/4.png")[0] == 401
        assert journal.recent() == []
        director = Browser(server)
        assert director.login() == 200
        status, headers, png = director.request("GET", "/join/4.png")
        assert status == 200 and headers["content-type"] == "image/png" and headers["cache-control"] == "no-store"
        picture = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
        code = read_qr(picture)
        assert code is not None and decode(code).board == "4" and decode(code).password == files.passwords["4"]
        assert director.request("GET", "/join/9.png")[0] == 404
        assert director.request("GET", "/join/..%2Fca.key.png")[0] == 400
        shown = journal.recent()[0]
        assert shown["action"] == "join code shown" and shown["board"] == "4" and shown["who"] == "director"
    finally:
        server.stop()
        journal.close()
