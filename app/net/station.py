"""The station's publisher: the journal, entry by entry, to the tournament's broker; the director's few messages back.

It reads the journal file (:class:`app.net.tail.JournalTail`), folds it into
the board's state (:class:`app.net.snapshot.BoardState`) and publishes:

- ``status`` (retained): ``online``; the broker publishes ``offline`` as the
  station's last will when the connection dies without a goodbye.
- ``snapshot`` (retained, QoS 1): the whole board, at most every
  ``snapshot_every`` seconds, whenever the station (re)connects and at once
  when both players confirm the result (the director takes a result from the
  snapshot), with how many messages from the broker it set aside.
- ``events`` (QoS 1): every journal entry with its sequence number and hashes.

The director acknowledges the highest sequence number it holds without a
gap; the station keeps that number beside the journal
(:class:`app.net.acks.AckStore`). On every (re)connection, and whenever
acknowledgements stall, it sends again from there: nothing is lost, and the
director drops what it already has (idempotent by board and sequence
number). With no broker at all nothing changes for the match: the journal is
written as before and waits.

A station linked before its first match starts without a journal: it only
listens, so the director's assignment reaches the players before there is
anything to publish; :meth:`Station.follow` moves it to each match's journal.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from app.net.acks import AckStore, acks_path
from app.net.client import BrokerConfig, connect, make_client
from app.net.messages import DirectorMessage, dumps, parse_director_message
from app.net.schemas import parse
from app.net.snapshot import BoardState
from app.net.tail import JournalTail
from app.net.topics import Topics, board_id, tournament_prefix
from app.record.export import redact
from app.record.journal import Entry, JournalError
from app.referee.events import Event
from app.referee.setup import MatchSetup

log = logging.getLogger("app.net.station")

GAP_REWIND_EVERY = 2.0
"""Seconds between two resends for gaps the director reports (entries already on their way fill many)."""

Deliver = Callable[[DirectorMessage], None]


@dataclass(frozen=True)
class Assignment:
    """The match the draw gave this board, as the director sent it: the two players confirm it on the screen
    before a journal is started with :attr:`setup`."""

    match: str
    setup: MatchSetup
    message: str
    """The director's message id (the station's status names it: the director's page sees it arrived)."""


Submit = Callable[[Event], object]


@dataclass(frozen=True)
class StationConfig:
    """One board's place in the tournament network."""

    broker: BrokerConfig
    board: str
    prefix: str = "tavla/tournament"
    snapshot_every: float = 1.0
    resend_after: float = 15.0
    """Seconds without an acknowledgement, with entries unacknowledged, before they are sent again; the wait
    doubles (up to a minute) while the director stays silent, so a director that is only slow is not flooded.
    (A director that misses an entry says so at once: this is the last resort, for acknowledgements lost.)"""
    window: int = 400
    """Entries sent beyond the last acknowledged one before waiting for the director."""
    poll: float = 0.5
    """Seconds between looks at the journal when nobody calls :meth:`Station.notify`."""

    def __post_init__(self) -> None:
        board_id(self.board)
        tournament_prefix(self.prefix)


def entry_message(board: str, entry: Entry) -> dict[str, Any]:
    """One journal entry as the event stream carries it, without the director PIN's record and proofs (with the
    tablet's key, or a copy of it, they would test PIN guesses; the director's page needs neither)."""
    return {
        "board": board,
        "seq": entry.seq,
        "kind": entry.kind,
        "at": entry.at,
        "prev": entry.prev,
        "hash": entry.hash,
        "payload": redact(entry.payload),
    }


class Station:
    """Publishes one journal for one board; thread-safe; :meth:`start` then :meth:`stop`."""

    def __init__(
        self,
        journal: str | Path | None,
        config: StationConfig,
        deliver: Deliver | None = None,
        submit: Submit | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.topics = Topics(config.prefix)
        self.journal_path: Path | None = None
        """The journal published (None: listening only, before the first match)."""
        self.tail: JournalTail | None = None
        self.acks: AckStore | None = None
        self.deliver = deliver
        self.submit = submit
        self.clock = clock
        self.state = BoardState()
        self.acked = 0
        self.sent = 0
        self.folded = 0
        self._all_held = False
        self.first_hash = ""
        """The hash of entry 1 of the journal published (its online status names it: the director then knows
        the match it assigned began, and does not send it again)."""
        self._next: list[Path] = []
        """The journals :meth:`follow` queued, taken up by the worker (which alone reads the tail) once the one
        before is all held by the director."""
        if journal is not None:
            self._open(Path(journal))
        self.connected = False
        self.problem: str | None = None
        self.refused: list[str] = []
        """Why director messages were ignored or set aside (the latest few), for the station's screen and the tests."""
        self.set_aside = 0
        """Messages from the broker that did not fit their schema (never acted on)."""
        self.assigned: Assignment | None = None
        """The latest match the director assigned to this board (None until one comes)."""
        self._seen_ids: deque[str] = deque(maxlen=200)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._snapshot_due = True
        self._snapshot_now = False
        """The journal reached a result both players confirmed: the director takes it from the next snapshot,
        so that one is not held back by ``snapshot_every``."""
        self._last_snapshot = float("-inf")
        self._last_progress = clock()
        self._stall = config.resend_after
        self._last_rewind = float("-inf")
        self._thread: threading.Thread | None = None
        self.client = make_client(config.broker, f"tavla-board-{config.board}")
        self.client.will_set(self.topics.status(config.board), self._status("offline"), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    # ------------------------------------------------------------ life cycle

    def start(self) -> "Station":
        connect(self.client, self.config.broker, persistent=False)
        self._thread = threading.Thread(target=self._run, name=f"station-{self.config.board}", daemon=True)
        self._thread.start()
        return self

    def notify(self) -> None:
        """A new entry was journaled: look now (a session listener calls this)."""
        self._wake.set()

    def follow(self, journal: str | Path) -> None:
        """Publish ``journal`` next (the board's next match), once the director acknowledged all of the one
        before (its confirmed result goes first, however long the network was gone); the director then starts
        that board's feed again at its entry 1."""
        path = Path(journal)
        with self._lock:
            if path == self.journal_path or path in self._next:
                return
        JournalTail(path).close()  # refused here, in the caller's thread, if it cannot be read
        with self._lock:
            self._next.append(path)
        self._wake.set()

    def _open(self, path: Path) -> None:
        """Read ``path`` from its start, sending from what the director acknowledged of it (under the lock)."""
        tail, acks = JournalTail(path), AckStore(acks_path(path))
        if self.tail is not None:
            self.tail.close()
        if self.acks is not None:
            self.acks.close()
        self.journal_path, self.tail, self.acks = path, tail, acks
        self.state, self.folded, self._all_held = BoardState(), 0, False
        try:
            first = tail.read(0, 1)
        except JournalError:
            first = []  # the worker says why when it reads on
        self.first_hash = first[0].hash if first else ""
        self.acked = acks.get(self.config.prefix, self.config.board)
        self.sent = self.acked
        self._last_progress, self._stall = self.clock(), self.config.resend_after
        self._snapshot_due, self._last_snapshot = True, float("-inf")

    def stop(self) -> None:
        """Say goodbye (status offline), stop the threads, close the files."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self.connected:
            info = self.client.publish(
                self.topics.status(self.config.board), self._status("offline"), qos=1, retain=True
            )
            try:
                info.wait_for_publish(timeout=2)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()
        if self.tail is not None:
            self.tail.close()
        if self.acks is not None:
            self.acks.close()

    def __enter__(self) -> "Station":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ the worker

    def _run(self) -> None:
        while not self._stopping.is_set():
            wait = self.config.poll
            if self._snapshot_due and self.connected and self.tail is not None and self.problem is None:
                # a snapshot held back by the throttle goes out as soon as it may (none while only listening)
                wait = min(wait, max(0.0, self._last_snapshot + self.config.snapshot_every - self.clock()))
            self._wake.wait(wait)
            self._wake.clear()
            try:
                self.step()
            except JournalError as error:
                if self.problem != str(error):
                    log.error("board %s: %s; publishing stops here", self.config.board, error)
                self.problem = str(error)

    def step(self) -> None:
        """Fold what is new in the journal, send what the director lacks, refresh the snapshot."""
        with self._lock:
            if self._next and (self.tail is None or self._all_held):
                path = self._next.pop(0)
                self._open(path)
                log.info("board %s: publishing its next match's journal %s", self.config.board, path)
        tail = self.tail
        if tail is None:
            return  # listening only: no match yet
        fresh: list[Entry] = []
        while True:
            batch = tail.read(self.folded, 500)
            if not batch:
                break
            for entry in batch:
                self.state.add(entry)
                if entry.seq == 1:
                    self.first_hash = entry.hash
                self._snapshot_now = self._snapshot_now or _agreed(entry)
            self.folded = batch[-1].seq
            fresh.extend(batch)
            self._snapshot_due = True
            if len(fresh) >= self.config.window:
                break
        with self._lock:
            self._all_held = not fresh and self.acked >= self.folded  # the journal read to its end, all held
            if self._all_held and self._next:
                self._wake.set()  # the next match's journal, at once
            if not self.connected:
                return
            now = self.clock()
            if self.sent > self.acked and now - self._last_progress > self._stall:
                log.info(
                    "board %s: no acknowledgement for %.0f s, sending again from %d",
                    self.config.board,
                    now - self._last_progress,
                    self.acked + 1,
                )
                self.sent = self.acked
                self._last_progress = now
                self._stall = min(self._stall * 2, 60.0)
            start, upto = self.sent, min(self.folded, self.acked + self.config.window)
        if upto > start:
            pending = [entry for entry in fresh if start < entry.seq <= upto]
            if not pending or pending[0].seq != start + 1:
                pending = tail.read(start, upto - start)
            for entry in pending:
                self.client.publish(
                    self.topics.events(self.config.board), dumps(entry_message(self.config.board, entry)), qos=1
                )
            if pending:
                with self._lock:
                    if self.sent == start:  # unless a reconnection or the director asked to go back meanwhile
                        self.sent = pending[-1].seq
        now = self.clock()
        if self._snapshot_due and (self._snapshot_now or now - self._last_snapshot >= self.config.snapshot_every):
            self._snapshot_due = self._snapshot_now = False
            self._last_snapshot = now
            self.client.publish(
                self.topics.snapshot(self.config.board),
                dumps({**self.state.snapshot(self.config.board), "set_aside": self.set_aside}),
                qos=1,
                retain=True,
            )

    # ------------------------------------------------------------ callbacks (paho's network thread)

    def _status(self, state: str, **extra: Any) -> bytes:
        return dumps({"board": self.config.board, "state": state, **extra})

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, properties: Any) -> None:
        if reason.is_failure:
            log.warning("board %s: the broker refused the connection: %s", self.config.board, reason)
            return
        board = self.config.board
        client.subscribe([(self.topics.inbox(board), 1), (self.topics.ack(board), 1)])
        journal = {"journal": self.first_hash} if self.first_hash else {}
        client.publish(self.topics.status(board), self._status("online", **journal), qos=1, retain=True)
        with self._lock:
            self.connected = True
            self.sent = self.acked
            self._last_progress = self.clock()
            self._stall = self.config.resend_after
        self._snapshot_due = True
        self._last_snapshot = float("-inf")
        log.info("board %s: connected; sending from entry %d", board, self.acked + 1)
        self._wake.set()

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, properties: Any
    ) -> None:
        with self._lock:
            self.connected = False
        if not self._stopping.is_set():
            log.info("board %s: disconnected (%s); the journal goes on and waits", self.config.board, reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            self.take(message.topic, bytes(message.payload))
        except Exception as error:  # the network thread must outlive anything: the message is set aside
            log.exception("board %s: a message on %s could not be taken: set aside", self.config.board, message.topic)
            self._set_aside(f"{message.topic}: {error!r}")

    def take(self, topic: str, payload: bytes) -> None:
        """One message from the broker: the director's acknowledgement or one of its messages to this board."""
        board = self.config.board
        if topic == self.topics.ack(board):
            self._on_ack(payload)
        elif topic == self.topics.inbox(board):
            self._on_director(payload)

    def _on_ack(self, payload: bytes) -> None:
        try:
            data = parse("ack", payload)
        except ValueError as error:
            self._set_aside(f"acknowledgement: {error}")
            return
        seq, gap = data["seq"], data.get("gap", False)
        with self._lock:
            if seq > self.folded:
                log.warning(
                    "board %s: the director acknowledges entry %d, the journal ends at %d: ignored",
                    self.config.board,
                    seq,
                    self.folded,
                )
                return
            if seq == self.acked:
                now = self.clock()
                if gap and self.sent > seq and now - self._last_rewind > GAP_REWIND_EVERY:
                    log.info(
                        "board %s: the director misses entry %d: sending again from there", self.config.board, seq + 1
                    )
                    self.sent, self._last_rewind = seq, now
                    self._wake.set()
                return
            if seq < self.acked:
                log.warning(
                    "board %s: the director holds only up to entry %d (it had %d): sending again",
                    self.config.board,
                    seq,
                    self.acked,
                )
                self.sent = seq
            self.acked = seq
            self._last_progress = self.clock()
            self._stall = self.config.resend_after
            if self.acks is not None:
                self.acks.set(self.config.prefix, self.config.board, seq)
        self._wake.set()

    def _on_director(self, payload: bytes) -> None:
        try:
            message = parse_director_message(payload)
        except ValueError as error:
            self._set_aside(str(error))
            return
        if message.id and message.id in self._seen_ids:
            return  # QoS 1 may deliver twice: act once
        if message.id:
            self._seen_ids.append(message.id)
        if message.kind == "time":
            if self.submit is None:
                self._refuse("a time correction needs the match's session, and this station publishes without one")
                return
            self.submit(message.time_correction())
        elif message.kind == "match":
            assignment = assignment_of(message)
            if assignment is None:
                self._set_aside(f"match: a set-up this station cannot play: {message.setup}"[:300])
                return
            self.assigned = assignment
            if self.deliver is not None:
                self.deliver(message)
        elif self.deliver is not None:
            self.deliver(message)
        self.client.publish(
            self.topics.status(self.config.board),
            self._status("online", inbox={"id": message.id, "type": message.kind}),
            qos=1,
            retain=True,
        )
        log.info("board %s: director's %s received", self.config.board, message.kind)

    def _refuse(self, reason: str) -> None:
        log.warning("board %s: director message ignored: %s", self.config.board, reason)
        self.refused.append(reason)
        del self.refused[:-20]

    def _set_aside(self, reason: str) -> None:
        log.warning("board %s: message set aside: %s", self.config.board, reason)
        with self._lock:
            self.set_aside += 1
            self.refused.append(reason[:300])
            del self.refused[:-20]
        self._snapshot_due = True  # the director's page shows the count against this board
        self._wake.set()


def _agreed(entry: Entry) -> bool:
    """Whether ``entry`` holds the referee's "both players confirmed the result"."""
    rulings = entry.payload.get("reaction", {}).get("rulings", [])
    return any(isinstance(r, dict) and r.get("code") == "result_agreed" for r in rulings)


def assignment_of(message: DirectorMessage) -> Assignment | None:
    """The match in a ``match`` message, its set-up checked as the station would journal it; None if unplayable."""
    setup = dict(message.setup or {})
    match = str(setup.pop("match", ""))
    try:
        return Assignment(match, MatchSetup.from_dict(setup), message.id)
    except (TypeError, ValueError, KeyError):
        return None
