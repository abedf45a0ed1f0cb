"""A tournament day in the hall, for the day's test and the hall benchmark: stations wait online for their match,
each plays the match its inbox brings as a short real match, and an assigner puts every playable match on a free
board as soon as the book has the result that made it playable.

A board's match is a real session (its own journal, the referee ruling on every event): the opening roll, one or
two plays, a resignation of a backgammon (3 points, so any 1-point match ends) and both players confirming the
result sheet, with the station started on the journal first and told of each entry, as the tablet does. Who
resigns is drawn from the match id, so a day is the same day each time it is played. The station of a board's
previous journal is stopped before the next one starts (one broker account per board); before its first match a
board's station only listens, so it is online and hears its inbox.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from app.net.director import Director
from app.net.messages import DirectorMessage
from app.net.station import Station, StationConfig
from app.record.session import Session
from app.referee.events import (
    Event,
    ManualDice,
    ManualPlay,
    ResignationAccepted,
    ResignationOffered,
    ResultConfirmed,
)
from app.referee.setup import MatchSetup
from tests.net.broker import Broker

OPENING: tuple[Event, ...] = (ManualDice((6, 5)), ManualPlay("8/3 8/2"), ManualDice((4, 3)), ManualPlay("24/20 6/3"))
"""The opening roll and black's play, then white's roll and play: after two events black is on roll, after four
white (a resignation is offered on one's own turn, before rolling)."""


@dataclass
class Played:
    """One match as a board played it."""

    board: str
    match: str
    path: Path
    winner: str
    received: float
    """time.time() when the board's station got the assignment from its inbox."""
    confirmed: float = 0.0
    """time.time() when the second player confirmed the result sheet."""


@dataclass
class Day:
    """The hall's boards, their stations and what they played; :meth:`start` then :meth:`stop`."""

    hall: Broker
    prefix: str
    boards: list[str]
    folder: Path
    seed: int = 1
    workers: int = 4
    stations: dict[str, Station] = field(default_factory=dict)
    played: list[Played] = field(default_factory=list)
    received: list[tuple[str, str, float]] = field(default_factory=list)
    """(board, match, time) of every assignment a station took from its inbox."""
    gate: threading.Event = field(default_factory=threading.Event)
    """Cleared, the players hold their confirmation of the result sheet (the test stops the director meanwhile)."""

    def __post_init__(self) -> None:
        self._queue: queue.Queue[tuple[str, DirectorMessage, float] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._count = 0
        self.gate.set()

    def start(self) -> "Day":
        self.folder.mkdir(parents=True, exist_ok=True)
        for board in self.boards:  # one after the other, as tablets come online: no storm of TLS handshakes
            station = self.stations[board] = self._station(board, None)  # no match yet: it only listens
            deadline = time.monotonic() + 30
            while not station.connected and time.monotonic() < deadline:
                time.sleep(0.01)
        for i in range(self.workers):
            thread = threading.Thread(target=self._work, name=f"hall-board-{i}", daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        self.gate.set()
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join(timeout=20)
        for station in self.stations.values():
            station.stop()

    def online(self) -> bool:
        return all(s.connected for s in self.stations.values())

    def _station(self, board: str, path: Path | None) -> Station:
        config = StationConfig(self.hall.config(board), board, self.prefix)
        return Station(path, config, deliver=lambda message: self._deliver(board, message)).start()

    def _deliver(self, board: str, message: DirectorMessage) -> None:
        """The station's network thread: a match from the inbox goes to a worker (the station is replaced there)."""
        if message.kind == "match":
            now = time.time()
            with self._lock:
                self.received.append((board, str((message.setup or {}).get("match")), now))
            self._queue.put((board, message, now))

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            board, message, received = item
            setup = dict(message.setup or {})
            match = str(setup.pop("match"))
            self._play(board, match, MatchSetup.from_dict(setup), received)

    def _play(self, board: str, match: str, setup: MatchSetup, received: float) -> None:
        loser = random.Random(f"{self.seed}:{match}").choice(("white", "black"))
        winner = setup.players[0] if loser == "black" else setup.players[1]
        with self._lock:
            self._count += 1
            path = self.folder / f"board{board}-{self._count}.sqlite"
        session = Session.create(path, setup)  # the players confirmed the match on the screen
        self.stations[board].stop()
        station = self.stations[board] = self._station(board, path)
        played = Played(board, match, path, winner, received)
        session.listeners.append(lambda event, reaction: station.notify())
        for event in OPENING[: 2 if loser == "black" else 4]:
            session.submit(event)
        session.submit(ResignationOffered(by=loser, level=3))  # type: ignore[arg-type]
        session.submit(ResignationAccepted(by="black" if loser == "white" else "white"))  # type: ignore[arg-type]
        self.gate.wait()
        session.submit(ResultConfirmed(by="white"))  # type: ignore[arg-type]
        session.submit(ResultConfirmed(by="black"))  # type: ignore[arg-type]
        played.confirmed = time.time()
        session.close()
        with self._lock:
            self.played.append(played)


class Assigner:
    """The director at the desk: each playable match goes to a free board as soon as the book has what made it
    playable (a board is free once the book holds the result of the match it was given)."""

    def __init__(self, boards: list[str], director: Director, every: float = 0.01) -> None:
        self.boards, self.director, self.every = boards, director, every
        self.on_board: dict[str, str] = {}
        """board -> the match it was given last."""
        self.assigned: dict[str, float] = {}
        """match -> time.time() when it was assigned."""
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, director: Director | None = None) -> "Assigner":
        self.director = director or self.director
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="hall-assigner", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=20)

    def _run(self) -> None:
        seen = -1
        while not self._stopping.is_set():
            book = self.director.book
            assert book is not None
            with self.director.lock:
                decided = sum(1 for m in book.tournament.matches.values() if m.result is not None)
            if decided != seen:
                seen = decided
                self.assign()
            self._stopping.wait(self.every)

    def assign(self) -> None:
        book = self.director.book
        assert book is not None
        with self.director.lock:
            tournament = book.tournament
            free = [
                b
                for b in self.boards
                if b not in self.on_board or tournament.matches[self.on_board[b]].result is not None
            ]
            waiting = [m.id for m in tournament.playable() if m.id not in self.assigned]
            for board, match in zip(free, waiting):
                self.director.act({"do": "assign", "match": match, "board": board}, "director")
                self.on_board[board] = match
                self.assigned[match] = time.time()
