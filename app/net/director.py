"""The director's station: every board's stream taken in order, once, and the tournament's results table.

Each board's events arrive with their journal sequence numbers. The director
keeps, per board, the highest number it holds without a gap; an entry at or
below it, or one already waiting, is a duplicate and is dropped (counted); an
entry further on is a gap: it waits, the gap is counted, and the
acknowledgement (the number held without a gap) tells the station where to
send again from. Each entry must also follow the previous one's hash, so the
head hash in the results table is the same one the board's result sheet
prints.
"""

from __future__ import annotations

import csv
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
        self, broker: BrokerConfig, prefix: str, results: Path | None = None, clock: Callable[[], float] = time.time
    ) -> None:
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
        self._ack_due: set[str] = set()
        self._stopping = threading.Event()
        self._acker: threading.Thread | None = None
        self._written: tuple[tuple[str, str], ...] = ()
        self.client = make_client(broker, "tavla-director-" + prefix.replace("/", "-"))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.broker = broker

    def start(self) -> "Director":
        connect(self.client, self.broker, persistent=True)
        self._acker = threading.Thread(target=self._ack_loop, name="director-acks", daemon=True)
        self._acker.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._acker is not None:
            self._acker.join(timeout=5)
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
            if feed.snapshot.get("result"):
                # a finished board's row moves with its result and with every entry taken after it (after an
                # outage the result can come before the entries held up behind it); written only when it changed
                self._write_results()
            return True

    def receive(self, feed: BoardFeed, data: dict[str, Any]) -> None:
        """One event message of ``feed``'s board (checked against :data:`app.net.schemas.EVENT_MESSAGE`): taken
        once, in order, whatever order and how often it comes."""
        seq = data["seq"]
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
                feed.chain_breaks += 1
                log.error("director: board %s entry %d does not follow entry %d", feed.board, feed.held + 1, feed.held)
            feed.held += 1
            feed.head = entry["hash"]
            feed.received += 1
            self._ack_due.add(feed.board)
            for ruling in entry["payload"].get("reaction", {}).get("rulings", []):
                if ruling["code"] not in ("debug", "hint"):
                    feed.recent.append({"seq": entry["seq"], "at": entry.get("at"), **ruling})

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
        message = DirectorMessage(
            message.kind, message.id or uuid.uuid4().hex[:12], message.text, message.color, message.ms
        )
        self.client.publish(self.topics.inbox(board), message.to_json(), qos=1)
        with self._lock:
            feed = self.boards.setdefault(board, BoardFeed(board))
            record = {
                "id": message.id,
                "type": message.kind,
                "text": message.text,
                "color": message.color,
                "ms": message.ms,
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

    def results_csv(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=RESULT_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.results())
        return out.getvalue()

    def results_json(self) -> str:
        return json.dumps({"tournament": self.prefix, "results": self.results()}, ensure_ascii=False, indent=1)

    def _write_results(self) -> None:
        if self.results_dir is None:
            return
        texts = (("results.csv", self.results_csv()), ("results.json", self.results_json()))
        if texts == self._written:
            return
        self._written = texts
        self.results_dir.mkdir(parents=True, exist_ok=True)
        for name, text in texts:
            temporary = self.results_dir / (name + ".tmp")
            temporary.write_text(text, encoding="utf-8")
            temporary.replace(self.results_dir / name)


def _board_order(name: str) -> tuple[int, str]:
    return (int(name), "") if name.isdigit() else (1 << 30, name)
