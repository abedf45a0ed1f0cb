"""The director's web server: the standard library's HTTP server in front of :class:`app.net.director.Director`.

Nothing but the login page is served without a login (:mod:`app.net.auth`), unless the tournament chose a
public view: ``/scores``, live scores for spectators, no controls, no journal detail. Logged in: GET ``/`` the
page, ``/api/boards``, ``/api/board/<board>`` (its rulings in words, Turkish and English), ``/api/actions`` (the
director's journal), ``/results.csv`` and ``/results.json``; with a tournament book ``/api/tournament`` (brackets,
standings and the book's actions), ``/sheet.html?lang=tr|en`` (the printable bracket sheet),
``/tournament.csv`` and ``/tournament.json``; POST ``/api/send`` one of the allowed messages to a board,
``/api/confirm`` a result confirmed, ``/api/tournament`` a tournament action (register, withdraw, draw, assign,
result, correct: each through the book, with who took it), ``/api/logout``. Every POST is JSON (anything
else: 415, so no HTML form or ``text/plain`` post from another site gets in), comes from the page's own origin,
and carries the session's CSRF token in ``X-CSRF-Token``; every action is written to the director's journal
before it is carried out. With a certificate the page is served over HTTPS (the handshake on the request's own
thread). Anything else gets a clear error, never a crash.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import socket
import ssl
import threading
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from app.net.actions import DirectorJournal
from app.net.auth import Accounts, Session, same_token
from app.net.bracket_sheet import bracket_sheet
from app.net.director import Director
from app.net.messages import dumps, parse_director_message
from app.net.page import LOGIN_PAGE, PAGE, SCORES_PAGE
from app.net.topics import board_id
from app.net.tournament import results_csv, results_json
from app.net.tournament_text import page_state
from app.record.journal import JournalError
from app.referee.i18n import LANGUAGES, render
from app.referee.rulings import Ruling

log = logging.getLogger("app.net.web")

MAX_BODY = 10_000
PAGE_ACTIONS = ("register", "withdraw", "draw", "assign", "result", "correct")
"""The tournament actions the page may take (the book's creation is the terminal's, ``director create``)."""
BOOK_ACTIONS = 30
"""The book's latest actions shown on the page."""
COOKIE = "tavla_director"
HANDSHAKE_TIMEOUT = 10.0
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; "
    "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'",
    "Cache-Control": "no-store",
}


class HttpError(Exception):
    """A request refused: its status and the reason the caller reads."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


def tls_context(certfile: str, keyfile: str) -> ssl.SSLContext:
    """A server context for the page with the tournament's own certificate; ValueError naming a bad file."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as error:
        raise ValueError(f"cannot load the page's certificate {certfile} / {keyfile}: {error}") from None
    return context


class DirectorServer(ThreadingHTTPServer):
    """Serves one director's page; :meth:`start` runs it on a thread, :meth:`stop` ends it."""

    daemon_threads = True

    def __init__(
        self,
        director: Director,
        accounts: Accounts,
        journal: DirectorJournal,
        host: str = "127.0.0.1",
        port: int = 8080,
        public: bool = False,
        tls: ssl.SSLContext | None = None,
        join: Path | None = None,
    ) -> None:
        super().__init__((host, port), _Handler)
        self.join = join
        """``director broker``'s ``join/`` folder: a board's join code QR at ``/join/<board>.png`` (None: none)."""
        self.director = director
        self.accounts = accounts
        self.journal = journal
        self.public = public
        self.tls = tls
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"{'https' if self.tls else 'http'}://{host!s}:{port}/"

    def finish_request(self, request: Any, client_address: Any) -> None:
        if self.tls is not None:
            try:
                request.settimeout(HANDSHAKE_TIMEOUT)
                request = self.tls.wrap_socket(request, server_side=True)
                request.settimeout(None)
            except (ssl.SSLError, OSError) as error:
                log.info("page: TLS handshake with %s failed: %s", client_address[0], error)
                return
        super().finish_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        try:
            request.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        request.close()

    def start(self) -> "DirectorServer":
        self._thread = threading.Thread(target=self.serve_forever, name="director-http", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


class _Handler(BaseHTTPRequestHandler):
    server: DirectorServer

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)

    # ------------------------------------------------------------ answers

    def _send(self, status: int, body: bytes, kind: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in HEADERS.items():
            self.send_header(name, value)
        if self.server.tls is not None:
            self.send_header("Strict-Transport-Security", "max-age=86400")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _json(self, data: Any, status: int = 200, extra: dict[str, str] | None = None) -> None:
        self._send(status, dumps(data), "application/json; charset=utf-8", extra)

    def _error(self, status: int, text: str) -> None:
        self._send(status, text.encode("utf-8"), "text/plain; charset=utf-8")

    def _redirect(self, where: str) -> None:
        self._send(303, b"", "text/plain; charset=utf-8", {"Location": where})

    def _cookie(self, token: str, max_age: int | None = None) -> str:
        parts = [f"{COOKIE}={token}", "Path=/", "HttpOnly", "SameSite=Strict"]
        if self.server.tls is not None:
            parts.append("Secure")
        if max_age is not None:
            parts.append(f"Max-Age={max_age}")
        return "; ".join(parts)

    # ------------------------------------------------------------ who asks

    @property
    def _address(self) -> str:
        return str(self.client_address[0])

    def _token(self) -> str | None:
        try:
            cookie = SimpleCookie(self.headers.get("Cookie", ""))
        except CookieError:
            return None
        morsel = cookie.get(COOKIE)
        return morsel.value if morsel is not None else None

    def _session(self) -> Session | None:
        return self.server.accounts.session(self._token())

    def _logged_in(self) -> Session:
        session = self._session()
        if session is None:
            raise HttpError(401, "log in first (/login)")
        return session

    # ------------------------------------------------------------ GET

    def do_GET(self) -> None:
        try:
            self._get(self.path.split("?", 1)[0])
        except HttpError as error:
            self._error(error.status, str(error))
        except JournalError as error:
            self._error(500, f"the director's journal cannot be read: {error}")

    def _get(self, path: str) -> None:
        director = self.server.director
        if path == "/":
            if self._session() is not None:
                self._send(200, PAGE.encode("utf-8"), "text/html; charset=utf-8")
            else:
                self._redirect("/scores" if self.server.public else "/login")
        elif path == "/login":
            self._send(200, LOGIN_PAGE.encode("utf-8"), "text/html; charset=utf-8")
        elif path in ("/scores", "/api/scores") and self.server.public:
            if path == "/scores":
                self._send(200, SCORES_PAGE.encode("utf-8"), "text/html; charset=utf-8")
            else:
                self._json({"tournament": director.prefix, "boards": director.scores()})
        elif path == "/api/session":
            session = self._logged_in()
            self._json({"user": session.user, "csrf": session.csrf})
        elif path == "/api/boards":
            self._logged_in()
            self._json({"tournament": director.prefix, "connected": director.connected, "boards": director.table()})
        elif path.startswith("/api/board/"):
            self._logged_in()
            board = director.board(unquote(path[len("/api/board/") :]))
            if board is None:
                raise HttpError(404, "no such board")
            players = (board.get("snapshot") or {}).get("players") or ["White", "Black"]
            for ruling in board["recent"]:
                ruling["text"] = in_words(ruling, (str(players[0]), str(players[1])))
            self._json(board)
        elif path == "/api/tournament":
            self._logged_in()
            book = director.book
            if book is None:
                self._json({"book": False})
                return
            with director.lock:
                state = page_state(book.tournament)
                actions = book.actions()[-BOOK_ACTIONS:]
            self._json({"book": True, **state, "actions": actions[::-1], "problem": director.book_problem})
        elif path in ("/sheet.html", "/tournament.csv", "/tournament.json"):
            self._logged_in()
            if director.book is None:
                raise HttpError(404, "no tournament book: start the director with --book")
            with director.lock:
                tournament = director.book.tournament
                if path == "/sheet.html":
                    language = parse_qs(urlsplit(self.path).query).get("lang", ["en"])[0]
                    if language not in LANGUAGES:
                        raise HttpError(400, f"a sheet is in {' or '.join(LANGUAGES)}")
                    body, kind = bracket_sheet(tournament, language), "text/html; charset=utf-8"
                elif path == "/tournament.csv":
                    body, kind = results_csv(tournament), "text/csv; charset=utf-8"
                else:
                    body, kind = results_json(tournament), "application/json; charset=utf-8"
            self._send(200, body.encode("utf-8"), kind)
        elif path.startswith("/join/") and path.endswith(".png"):
            self._join_qr(self._logged_in(), unquote(path[len("/join/") : -len(".png")]))
        elif path == "/api/actions":
            self._logged_in()
            self._json({"actions": self.server.journal.recent()})
        elif path == "/results.csv":
            self._logged_in()
            self._send(200, director.results_csv().encode("utf-8"), "text/csv; charset=utf-8")
        elif path == "/results.json":
            self._logged_in()
            self._send(200, director.results_json().encode("utf-8"), "application/json; charset=utf-8")
        else:
            raise HttpError(404, "not found")

    def _join_qr(self, session: Session, board: str) -> None:
        """A board's join code as its QR, to show on the director's screen to the tablet's camera; journaled, as
        it holds the board's password."""
        folder = self.server.join
        if folder is None:
            raise HttpError(404, "no join codes: start the director with --join (director broker's join/ folder)")
        try:
            board = board_id(board)
        except ValueError as error:
            raise HttpError(400, str(error)) from None
        path = folder / f"{board}.png"
        if not path.is_file():
            raise HttpError(404, f"no join code for board {board}")
        self.server.journal.record(session.user, "join code shown", self._address, board=board)
        self._send(200, path.read_bytes(), "image/png")

    # ------------------------------------------------------------ POST

    def do_POST(self) -> None:
        try:
            self._post(self.path.split("?", 1)[0])
        except HttpError as error:
            self._error(error.status, str(error))
        except JournalError as error:  # journaled first: an action that cannot be journaled is not carried out
            log.error("page: the director's journal cannot be written: %s", error)
            self._error(500, f"the director's journal cannot be written, nothing was done: {error}")

    def _body(self) -> dict[str, Any]:
        kind = self.headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            raise HttpError(415, "the page's requests are JSON (Content-Type: application/json)")
        if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            raise HttpError(403, "a request from another site")
        origin = self.headers.get("Origin")
        if origin is not None:
            scheme = "https" if self.server.tls is not None else "http"
            if origin != f"{scheme}://{self.headers.get('Host', '')}":
                raise HttpError(403, "a request from another site")
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            raise HttpError(400, "a request's length is a number") from None
        if not 0 < length <= MAX_BODY:
            raise HttpError(400, f"a request body of 1 to {MAX_BODY:,} bytes is expected")
        try:
            data = json.loads(self.rfile.read(length))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise HttpError(400, "the request is not JSON") from None
        if not isinstance(data, dict):
            raise HttpError(400, "the request is a JSON object")
        return data

    def _post(self, path: str) -> None:
        data = self._body()
        if path == "/api/login":
            self._login(data)
            return
        session = self._logged_in()
        if not same_token(self.headers.get("X-CSRF-Token"), session.csrf):
            raise HttpError(403, "the request lacks this session's CSRF token (reload the page)")
        director, journal = self.server.director, self.server.journal
        if path == "/api/logout":
            journal.record(session.user, "logout", self._address)
            self.server.accounts.logout(self._token() or "")
            self._json({"user": None}, extra={"Set-Cookie": self._cookie("", max_age=0)})
            return
        if path == "/api/tournament":
            self._tournament(session, data)
            return
        board = data.pop("board", None)
        if not isinstance(board, str):
            raise HttpError(400, "the request names a board")
        if path == "/api/send":
            try:
                message = dataclasses.replace(parse_director_message(dumps(data)), by=session.user)
            except ValueError as error:
                raise HttpError(400, str(error)) from None
            if message.kind == "match":
                raise HttpError(400, "a board gets its match by an assignment from the draw")
            if board not in director.boards:
                raise HttpError(404, f"no board {board}")
            journal.record(session.user, "send", self._address, board=board, message=json.loads(message.to_json()))
            self._json(director.send(board, message))
        elif path == "/api/confirm":
            if not director.can_confirm(board):
                raise HttpError(400, f"board {board} has no result to confirm")
            journal.record(session.user, "confirm", self._address, board=board, head=director.boards[board].head)
            director.confirm(board)
            self._json({"board": board, "confirmed": True})
        else:
            raise HttpError(404, "not found")

    def _tournament(self, session: Session, data: dict[str, Any]) -> None:
        """One tournament action, journaled by the director's journal (from where) and the book (who, when)."""
        director = self.server.director
        if director.book is None:
            raise HttpError(404, "no tournament book: start the director with --book")
        kind = data.get("do")
        if kind not in PAGE_ACTIONS:
            raise HttpError(400, f"a tournament action is one of {', '.join(PAGE_ACTIONS)}")
        action = {k: v for k, v in data.items() if k not in ("by", "at")}
        if kind == "draw" and action.get("seed") in (None, ""):
            action["seed"] = random.SystemRandom().randrange(1 << 31)
        self.server.journal.record(session.user, f"tournament {kind}", self._address, tournament=action)
        try:
            director.act(action, session.user)
        except ValueError as error:  # TournamentError and a bad board name: refused, nothing written to the book
            raise HttpError(400, str(error)) from None
        self._json({"done": kind})

    def _login(self, data: dict[str, Any]) -> None:
        user, password = data.get("user"), data.get("password")
        if not isinstance(user, str) or not isinstance(password, str) or len(user) > 64 or len(password) > 1024:
            raise HttpError(400, "a login names a user and a password")
        accounts = self.server.accounts
        wait = accounts.blocked(self._address, user)
        if wait > 0:
            raise HttpError(429, f"too many failed logins: try again in {wait:.0f} s")
        token = accounts.login(self._address, user, password)
        if token is None:
            self.server.journal.record(user[:64], "login refused", self._address)
            raise HttpError(401, "wrong user or password")
        self.server.journal.record(user, "login", self._address)
        session = accounts.session(token)
        assert session is not None
        self._json({"user": session.user, "csrf": session.csrf}, extra={"Set-Cookie": self._cookie(token)})


def in_words(ruling: dict[str, Any], players: tuple[str, str]) -> dict[str, str]:
    """A board's ruling as the players' screen says it, in each language; its code where it cannot be read."""
    try:
        parsed = Ruling.from_dict(ruling)
    except (KeyError, TypeError, ValueError):
        return {language: str(ruling.get("code", "?")) for language in LANGUAGES}
    return {language: render(parsed, language, players) for language in LANGUAGES}
