"""The director's web server: the standard library's HTTP server in front of :class:`app.net.director.Director`.

GET ``/`` the page, ``/api/boards`` every board, ``/api/board/<board>`` one
board, ``/results.csv`` and ``/results.json`` the tournament table; POST
``/api/send`` one of the allowed messages to a board, ``/api/confirm`` a
result confirmed. Anything else gets a clear error, never a crash.
"""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

from app.net.director import Director
from app.net.messages import dumps, parse_director_message
from app.net.page import PAGE

log = logging.getLogger("app.net.web")

MAX_BODY = 10_000


class DirectorServer(ThreadingHTTPServer):
    """Serves one director's page; :meth:`start` runs it on a thread, :meth:`stop` ends it."""

    daemon_threads = True

    def __init__(self, director: Director, host: str = "127.0.0.1", port: int = 8080) -> None:
        super().__init__((host, port), _Handler)
        self.director = director
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"

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

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, data: Any, status: int = 200) -> None:
        self._send(status, dumps(data), "application/json; charset=utf-8")

    def _error(self, status: int, text: str) -> None:
        self._send(status, text.encode("utf-8"), "text/plain; charset=utf-8")

    def do_GET(self) -> None:
        director = self.server.director
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(200, PAGE.encode("utf-8"), "text/html; charset=utf-8")
        elif path == "/api/boards":
            self._json({"tournament": director.prefix, "connected": director.connected, "boards": director.table()})
        elif path.startswith("/api/board/"):
            board = director.board(unquote(path[len("/api/board/") :]))
            if board is None:
                self._error(404, "no such board")
            else:
                self._json(board)
        elif path == "/results.csv":
            self._send(200, director.results_csv().encode("utf-8"), "text/csv; charset=utf-8")
        elif path == "/results.json":
            self._send(200, director.results_json().encode("utf-8"), "application/json; charset=utf-8")
        else:
            self._error(404, "not found")

    def do_POST(self) -> None:
        director = self.server.director
        try:
            length = int(self.headers.get("Content-Length", "0"))
            if not 0 < length <= MAX_BODY:
                raise ValueError("a request body of 1 to 10,000 bytes is expected")
            body = self.rfile.read(length)
            data = json.loads(body)
            if not isinstance(data, dict) or not isinstance(data.get("board"), str):
                raise ValueError("the request names a board")
            board = data.pop("board")
            if self.path == "/api/send":
                message = parse_director_message(dumps(data))
                self._json(director.send(board, message))
            elif self.path == "/api/confirm":
                if not director.confirm(board):
                    raise ValueError(f"board {board} has no result to confirm")
                self._json({"board": board, "confirmed": True})
            else:
                self._error(404, "not found")
        except (ValueError, json.JSONDecodeError) as error:
            self._error(400, str(error))
