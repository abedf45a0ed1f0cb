"""The director's station: every board's stream taken in order, once, and the tournament's results table.

Each board's events arrive with their journal sequence numbers. The director
keeps, per board, the highest number it holds without a gap; an entry at or
below it, or one already waiting, is a duplicate and is dropped (counted); an
entry further on is a gap: it waits, the gap is counted, and the
acknowledgement (the number held without a gap) tells the station where to
send again from. Each entry must also follow the previous one's hash, so the
head hash in the results table is the same one the board's result sheet
prints.

With a tournament book (:class:`app.net.tournament_book.TournamentBook`) the director also runs the draw: an
assignment sends the match's set-up to the board's inbox, and a board whose journal reaches a result both
players confirmed has it written into the book by itself (as "board N", with the head hash and the match's
start and end), so the winner advances. A board's next match is a new journal (its entry 1 differs): the feed
starts again, and the earlier match keeps its own row in the book. A result already in the book for that match
and head is not taken again, so a restarted director that is sent every journal again takes nothing twice.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
import io
import json
import logging
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from app.net import schemas
from app.net.client import BrokerConfig, connect, make_client
from app.net.messages import DirectorMessage, dumps
from app.net.topics import Topics, board_id
from app.net.tournament import BYE, Tournament, TournamentError, results_csv, results_json
from app.net.tournament_book import TournamentBook
from app.record.journal import JournalError

log = logging.getLogger("app.net.director")

ACK_EVERY = 0.5
"""Seconds between acknowledgements to one board (the station sends up to its window meanwhile)."""

LATENCIES = 1_000_000
"""Latency samples kept (the benchmark's 60,000 entries fit many times over)."""

RECENT = 30
"""Recent entries kept per board for the page."""

RESULT_FIELDS = (
    "board",
    "white",
    "black",
    "variant",
    "length",
    "score_white",
    "score_black",
    "winner",
    "end",
    "games",
    "seq",
    "head",
    "confirmed",
)


def _parse_time(text: str) -> float | None:
    try:
        return datetime.datetime.fromisoformat(text).timestamp()
    except (TypeError, ValueError, OverflowError, OSError):
        return None


@dataclass
class BoardFeed:
    """What the director holds of one board."""

    board: str
    status: str = "unknown"
    station_saw: dict[str, Any] = field(default_factory=dict)
    snapshot: dict[str, Any] = field(default_factory=dict)
    held: int = 0
    """The highest sequence number held with nothing missing before it."""
    head: str = ""
    """The hash of entry ``held``."""
    waiting: dict[int, dict[str, Any]] = field(default_factory=dict)
    received: int = 0
    duplicates: int = 0
    gaps: int = 0
    chain_breaks: int = 0
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECENT))
    sent: list[dict[str, Any]] = field(default_factory=list)
    confirmed: bool = False
    set_aside: int = 0
    """Messages from this board that did not fit their schema (never acted on)."""
    last_set_aside: str = ""
    first: str = ""
    """The hash of entry 1 of the journal held: a different entry 1 is the board's next match."""
    first_at: str = ""
    earlier: set[str] = field(default_factory=set)
    """The entry-1 hashes of the board's journals before :attr:`first`: a late copy of their entries is no news."""
    agreed: tuple[int, str] | None = None
    """(entry, time) of the latest "both players confirmed the result" in this journal."""
    taken: str = ""
    """The head whose result was looked up in the tournament book (taken, or found there already)."""
    match: str = ""
    """The tournament's match this journal's result went to."""
    assigned: DirectorMessage | None = None
    """The latest match sent to this board while no journal began after it: sent again, with its id, whenever the
    board comes online (a station's session is clean, so an assignment sent while it was away never reached it)."""
    assigned_first: str = ""
    """The entry-1 hash of the journal held when :attr:`assigned` was sent (a different one: the match began)."""
    journal: str = ""
    """The entry-1 hash of the journal the station said, coming online, it publishes."""

    def summary(self) -> dict[str, Any]:
        snap = self.snapshot
        return {
            "board": self.board,
            "status": self.status,
            "held": self.held,
            "head": self.head,
            "received": self.received,
            "duplicates": self.duplicates,
            "gaps": self.gaps,
            "waiting": len(self.waiting),
            "chain_breaks": self.chain_breaks,
            "set_aside": self.set_aside,
            "station_set_aside": snap.get("set_aside", 0),
            "last_set_aside": self.last_set_aside,
            "players": snap.get("players"),
            "score": snap.get("score"),
            "length": snap.get("length"),
            "cube": snap.get("cube"),
            "clock": snap.get("clock"),
            "turn": snap.get("turn"),
            "stage": snap.get("stage"),
            "flag": snap.get("flag"),
            "called": bool(snap.get("called")),
            "over": bool(snap.get("over")),
            "result": snap.get("result"),
            "confirmed": self.confirmed,
            "snapshot_seq": snap.get("seq"),
            "problem": snap.get("problem"),
            "on_the_way": any(m["type"] == "on_the_way" and m["at_seq"] >= self.call_seq() for m in self.sent),
            "agreed": self.agreed is not None,
            "match": self.match,
            "station_saw": self.station_saw,
        }

    def call_seq(self) -> int:
        """The entry of the latest "call the director" seen, so an earlier "on the way" does not count."""
        for ruling in reversed(self.snapshot.get("recent") or []):
            if ruling.get("code") == "director_called":
                return int(ruling.get("seq", 0))
        return 0


class Director:
    """The director's view of a tournament: subscribes to every board, acknowledges, keeps the results."""

    def __init__(
        self,
        broker: BrokerConfig,
        prefix: str,
        results: Path | None = None,
        clock: Callable[[], float] = time.time,
        book: TournamentBook | None = None,
    ) -> None:
        self.book = book
        self.book_problem = ""
        """Why the latest board result could not be written into the book (for the page)."""
        self.topics = Topics(prefix)
        self.prefix = prefix
        self.results_dir = results
        self.clock = clock
        self.boards: dict[str, BoardFeed] = {}
        self.latencies: deque[tuple[float, float]] = deque(maxlen=LATENCIES)
        """(append time, seconds from journal append to arrival here) of the latest entries' first arrivals."""
        self.connected = False
        self.set_aside_elsewhere = 0
        """Messages that failed where no board could be named (counted, logged)."""
        self._lock = threading.RLock()
        self.lock = self._lock
        """Held while the book or a board's feed changes: a reader of :attr:`book` takes it too."""
        self._ack_due: set[str] = set()
        self._stopping = threading.Event()
        self._acker: threading.Thread | None = None
        self._writer: threading.Thread | None = None
        self._results_due = threading.Event()
        self._written: dict[str, str] = {}
        self._rows_written: dict[str, tuple[Any, ...]] = {}
        """What each finished board's results row was made of when last written (its result, entry, head, the
        director's confirmation): the results are made again only when one changes, not for every message."""
        """Each results file's text as last written: a file is written again only when its text changed."""
        self._book_texts: tuple[Tournament | None, tuple[tuple[str, str], ...]] = (None, ())
        """The book's state the tournament export was made from, and the export (a book's every action makes a
        new state: the export is made again only then, not for every message of a finished board)."""
        self.client = make_client(broker, "tavla-director-" + prefix.replace("/", "-"))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.broker = broker

    def start(self) -> "Director":
        connect(self.client, self.broker, persistent=True)
        self._acker = threading.Thread(target=self._ack_loop, name="director-acks", daemon=True)
        self._acker.start()
        if self.results_dir is not None:
            self._writer = threading.Thread(target=self._results_loop, name="director-results", daemon=True)
            self._writer.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._results_due.set()
        if self._acker is not None:
            self._acker.join(timeout=5)
        if self._writer is not None:
            self._writer.join(timeout=30)  # the results as they stand are written before it ends
        self.client.disconnect()
        self.client.loop_stop()

    # ------------------------------------------------------------ receiving

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, properties: Any) -> None:
        if reason.is_failure:
            log.warning("director: the broker refused the connection: %s", reason)
            return
        client.subscribe(f"{self.prefix}/board/+/+", qos=1)
        self.connected = True
        with self._lock:
            self._ack_due.update(self.boards)  # tell every station again where we are
        log.info("director: connected")

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, properties: Any
    ) -> None:
        self.connected = False

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            self.take(message.topic, bytes(message.payload))
        except Exception:  # the network thread must outlive anything: the message is set aside, never re-delivered
            log.exception("director: a message on %s could not be taken: set aside", message.topic)
            with self._lock:
                self.set_aside_elsewhere += 1

    def take(self, topic: str, payload: bytes) -> bool:
        """One message from the broker, checked against its schema first; False if it was set aside."""
        place = self.topics.parse(topic)
        if place is None:
            return False  # not a board's topic: the subscription never brings one
        board, leaf = place
        if leaf not in ("events", "snapshot", "status"):
            return False  # a board's inbox (the director's own messages)
        data: dict[str, Any] | None = None
        reason = None
        if payload:  # an empty retained message clears the topic
            try:
                data = schemas.parse(leaf, payload)
            except ValueError as error:
                reason = str(error)
        if data is not None and leaf == "events" and data["board"] != board:
            reason = f"board: {data['board']!r} under board {board}'s topic"
        with self._lock:
            feed = self.boards.get(board) or self.boards.setdefault(board, BoardFeed(board))
            if reason is not None:
                feed.set_aside += 1
                feed.last_set_aside = f"{leaf}: {reason}"[:300]
                log.warning("director: %s from board %s set aside: %s", leaf, board, reason)
                return False
            if data is None:
                return True
            if leaf == "events":
                self.receive(feed, data)
            elif leaf == "snapshot":
                feed.snapshot = data
                seq = data["seq"]
                if seq > feed.held:
                    self._ack_due.add(board)  # a director that restarted tells the board where it stands
            else:
                feed.status = data["state"]
                if isinstance(data.get("inbox"), dict):
                    feed.station_saw = data["inbox"]
                elif data["state"] == "online":  # the station has just connected (its first status names no message)
                    feed.journal = str(data.get("journal") or "")
                    if feed.assigned is not None and feed.journal and feed.journal != feed.assigned_first:
                        feed.assigned = None  # it publishes a journal begun after the assignment: the match began
                    elif feed.assigned is not None:
                        # the assignment it may have missed, with the same id, so a station that had it acts once
                        self.client.publish(self.topics.inbox(board), feed.assigned.to_json(), qos=1)
                        log.info("director: board %s online: its assignment %s sent again", board, feed.assigned.id)
            if self.book is not None and feed.agreed is not None and feed.taken != feed.head:
                self._take_result(feed)
            row = (feed.snapshot.get("result"), feed.held, feed.head, feed.confirmed)
            if row[0] and self._rows_written.get(board) != row:
                # a finished board's row moves with its result and with every entry taken after it (after an
                # outage the result can come before the entries held up behind it); written only when it changed
                self._rows_written[board] = row
                self._write_results()
            return True

    def receive(self, feed: BoardFeed, data: dict[str, Any]) -> None:
        """One event message of ``feed``'s board (checked against :data:`app.net.schemas.EVENT_MESSAGE`): taken
        once, in order, whatever order and how often it comes."""
        seq = data["seq"]
        if seq == 1 and data["hash"] in feed.earlier:
            feed.duplicates += 1  # a late copy from a match this board finished (the broker may hold it long)
            return
        if seq == 1 and feed.first and data["hash"] != feed.first:
            log.info("director: board %s starts a new journal (its next match)", feed.board)
            self._new_journal(feed)
        if seq <= feed.held or seq in feed.waiting:
            feed.duplicates += 1
            self._ack_due.add(feed.board)
            return
        if seq > feed.held + 1 and not feed.waiting:
            feed.gaps += 1
            self._ack_due.add(feed.board)
        feed.waiting[seq] = data
        sent_at = _parse_time(data["at"])
        if sent_at is not None:
            self.latencies.append((sent_at, self.clock() - sent_at))
        while feed.held + 1 in feed.waiting:
            entry = feed.waiting.pop(feed.held + 1)
            if feed.held and entry.get("prev") != feed.head:
                # never taken: a late entry of the board's earlier journal, or a forged one; the station is told
                # what is held and sends this journal's entry again
                feed.chain_breaks += 1
                self._ack_due.add(feed.board)
                log.error("director: board %s entry %d does not follow entry %d", feed.board, feed.held + 1, feed.held)
                break
            feed.held += 1
            feed.head = entry["hash"]
            feed.received += 1
            if feed.held == 1:
                feed.first, feed.first_at = entry["hash"], entry["at"]
                if feed.assigned is not None and feed.first != feed.assigned_first:
                    feed.assigned = None  # the assigned match began: its journal is the board's from now on
            self._ack_due.add(feed.board)
            for ruling in entry["payload"].get("reaction", {}).get("rulings", []):
                if ruling["code"] not in ("debug", "hint"):
                    feed.recent.append({"seq": entry["seq"], "at": entry.get("at"), **ruling})
                if ruling["code"] == "result_agreed":
                    feed.agreed = (entry["seq"], entry["at"])

    @staticmethod
    def _new_journal(feed: BoardFeed) -> None:
        """The board's next match: what was held of the previous journal is let go (its result is in the book)."""
        feed.earlier.add(feed.first)
        feed.held, feed.head, feed.first, feed.first_at = 0, "", "", ""
        feed.snapshot = {}  # the previous match's: its result must not stand beside this journal's entries
        feed.waiting.clear()
        feed.recent.clear()
        feed.confirmed, feed.agreed, feed.taken, feed.match = False, None, "", ""

    # ------------------------------------------------------------ the tournament

    def _take_result(self, feed: BoardFeed) -> None:
        """A confirmed result into the book, once the board's snapshot shows the journal as far as it is held (so
        the result read is this journal's, not an earlier match's); never twice for one match and head."""
        snap = feed.snapshot
        result = snap.get("result")
        if not result or snap.get("seq") != feed.held or snap.get("head") != feed.head or feed.agreed is None:
            return
        assert self.book is not None
        feed.taken = feed.head
        names = [str(n) for n in result["players"]]
        tournament = self.book.tournament
        mine = [m for m in tournament.matches.values() if m.board == feed.board and _names(tournament, m) == set(names)]
        done = [m for m in mine if m.result is not None and m.result.head == feed.head]
        if done:
            feed.match = done[0].id
            return  # in the book already: a journal sent again after a restart
        waiting = [m for m in mine if m.result is None]
        if not waiting or result.get("winner") not in names:
            self.book_problem = f"board {feed.board}: {' - '.join(names)} is no match of the draw waiting on this board"
            log.warning("director: %s; its result is not taken", self.book_problem)
            return
        match = waiting[0]
        first, second = tournament.players_of(match)
        by_name = dict(zip(names, result["score"]))
        action = {
            "do": "result",
            "match": match.id,
            "winner": first if tournament.name(first) == result["winner"] else second,
            "score": [by_name[tournament.name(first)], by_name[tournament.name(second)]],
            "head": feed.head,
            "started": feed.first_at,
            "ended": feed.agreed[1],
        }
        try:
            self.book.do(action, by=f"board {feed.board}")
        except (TournamentError, JournalError) as error:
            self.book_problem = f"board {feed.board}: {error}"
            log.error("director: the result of %s is not taken: %s", match.id, error)
            return
        feed.match = match.id
        self.book_problem = ""
        self._write_results()
        log.info("director: %s won by %s on board %s", match.id, result["winner"], feed.board)

    def act(self, action: dict[str, Any], by: str) -> Tournament:
        """A director's action on the tournament (register, withdraw, draw, result, correct), through the book;
        an assignment also sends the match's set-up to its board. :class:`TournamentError` if refused."""
        if self.book is None:
            raise TournamentError("no tournament book: start the director with --book")
        with self._lock:
            if action.get("do") == "assign":
                board = board_id(str(action.get("board", "")))
                self.book.tournament.station_setup(str(action.get("match", "")))  # two players known, or refused
                tournament = self.book.do({"do": "assign", "match": action["match"], "board": board}, by)
                self.send(board, DirectorMessage("match", setup=tournament.station_setup(action["match"]), by=by))
                feed = self.boards[board]
                if feed.agreed is not None and not feed.match:  # the board played it before it was assigned
                    feed.taken = ""
                    self._take_result(feed)
                self._write_results()
                return self.book.tournament
            tournament = self.book.do(action, by)
            self._write_results()
            return tournament

    def _ack_loop(self) -> None:
        """Acknowledge at most every ``ACK_EVERY`` seconds per board: what each holds without a gap, and whether
        something after it is missing (the station then sends again from there)."""
        while not self._stopping.wait(ACK_EVERY):
            if not self.connected:
                continue
            with self._lock:
                due = [(board, self.boards[board].held, bool(self.boards[board].waiting)) for board in self._ack_due]
                self._ack_due.clear()
            for board, held, gap in due:
                self.client.publish(self.topics.ack(board), dumps({"seq": held, "gap": gap}), qos=1)

    # ------------------------------------------------------------ the director acts

    def send(self, board: str, message: DirectorMessage) -> dict[str, Any]:
        """Send one of the allowed messages to a board; what was sent, for the page."""
        board_id(board)
        message = dataclasses.replace(message, id=message.id or uuid.uuid4().hex[:12])
        self.client.publish(self.topics.inbox(board), message.to_json(), qos=1)
        with self._lock:
            feed = self.boards.setdefault(board, BoardFeed(board))
            if message.kind == "match":
                feed.assigned, feed.assigned_first = message, feed.first or feed.journal
            record = {
                "id": message.id,
                "type": message.kind,
                "text": message.text,
                "color": message.color,
                "ms": message.ms,
                "setup": message.setup,
                "at_seq": feed.held,
            }
            feed.sent.append(record)
        return record

    def can_confirm(self, board: str) -> bool:
        """Whether ``board`` has a finished match whose result the director can confirm."""
        with self._lock:
            feed = self.boards.get(board)
            return feed is not None and bool(feed.snapshot.get("result"))

    def scores(self) -> list[dict[str, Any]]:
        """The spectators' view: players, score and state of every board, nothing of the journals."""
        with self._lock:
            rows = []
            for name in sorted(self.boards, key=_board_order):
                feed = self.boards[name]
                snap = feed.snapshot
                result = snap.get("result") or {}
                rows.append(
                    {
                        "board": name,
                        "players": snap.get("players"),
                        "score": snap.get("score"),
                        "length": snap.get("length"),
                        "over": bool(snap.get("over")),
                        "winner": result.get("winner"),
                        "confirmed": feed.confirmed,
                        "online": feed.status == "online",
                    }
                )
            return rows

    def confirm(self, board: str) -> bool:
        """The director confirms a finished board's result; False if there is none to confirm."""
        with self._lock:
            feed = self.boards.get(board)
            if feed is None or not feed.snapshot.get("result"):
                return False
            feed.confirmed = True
            self._write_results()
            return True

    # ------------------------------------------------------------ views

    def table(self) -> list[dict[str, Any]]:
        with self._lock:
            return [self.boards[b].summary() for b in sorted(self.boards, key=_board_order)]

    def board(self, board: str) -> dict[str, Any] | None:
        with self._lock:
            feed = self.boards.get(board)
            if feed is None:
                return None
            return {**feed.summary(), "snapshot": feed.snapshot, "recent": list(feed.recent), "sent": feed.sent}

    def results(self) -> list[dict[str, Any]]:
        """One row per finished board, with the head hash the director holds for it."""
        rows = []
        with self._lock:
            for name in sorted(self.boards, key=_board_order):
                feed = self.boards[name]
                result = feed.snapshot.get("result")
                if not result:
                    continue
                players = result.get("players") or ["", ""]
                rows.append(
                    {
                        "board": name,
                        "white": players[0],
                        "black": players[1],
                        "variant": result.get("variant"),
                        "length": result.get("length"),
                        "score_white": result["score"][0],
                        "score_black": result["score"][1],
                        "winner": result.get("winner"),
                        "end": result.get("end"),
                        "games": len(result.get("games", [])),
                        "seq": feed.held,
                        "head": feed.head,
                        "confirmed": feed.confirmed,
                    }
                )
        return rows

    def results_csv(self, rows: list[dict[str, Any]] | None = None) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=RESULT_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.results() if rows is None else rows)
        return out.getvalue()

    def results_json(self, rows: list[dict[str, Any]] | None = None) -> str:
        rows = self.results() if rows is None else rows
        return json.dumps({"tournament": self.prefix, "results": rows}, ensure_ascii=False, indent=1)

    def _write_results(self) -> None:
        """The results files are to be written again: by the writer thread once started, so a result or an action
        never waits for the export (a 250-match tournament's takes tens of milliseconds; a burst of results and
        assignments would queue behind it), else at once."""
        if self.results_dir is None:
            return
        if self._writer is not None:
            self._results_due.set()
        else:
            self._write_files()

    def _results_loop(self) -> None:
        """Write the results whenever they changed, the latest state each time; once more when stopping."""
        while True:
            self._results_due.wait()
            self._results_due.clear()
            try:
                self._write_files()
            except OSError as error:  # a full disk: the page still serves the results from memory
                log.error("director: the results files cannot be written: %s", error)
            if self._stopping.is_set():
                return

    def _write_files(self) -> None:
        assert self.results_dir is not None
        with self._lock:  # the texts are made outside the lock: a book's state is never changed, only replaced
            rows = self.results()
            tournament = self.book.tournament if self.book is not None else None
        texts = self._result_texts(rows, tournament)
        changed = [(name, text) for name, text in texts if self._written.get(name) != text]
        if changed:
            self.results_dir.mkdir(parents=True, exist_ok=True)
        for name, text in changed:
            self._written[name] = text
            temporary = self.results_dir / (name + ".tmp")
            temporary.write_text(text, encoding="utf-8")
            temporary.replace(self.results_dir / name)

    def _result_texts(self, rows: list[dict[str, Any]], tournament: Tournament | None) -> tuple[tuple[str, str], ...]:
        texts: tuple[tuple[str, str], ...] = (
            ("results.csv", self.results_csv(rows)),
            ("results.json", self.results_json(rows)),
        )
        if tournament is not None:  # every match its own row, keyed by its id, whichever board played it
            if self._book_texts[0] is not tournament:
                exported = (("tournament.csv", results_csv(tournament)), ("tournament.json", results_json(tournament)))
                self._book_texts = (tournament, exported)
            texts += self._book_texts[1]
        return texts


def _names(tournament: Tournament, match: Any) -> set[str]:
    return {tournament.name(p) for p in tournament.players_of(match) if p not in (None, BYE)}


def _board_order(name: str) -> tuple[int, str]:
    return (int(name), "") if name.isdigit() else (1 << 30, name)
