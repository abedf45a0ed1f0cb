"""The hall's simulated stations for the tournament tests: each board plays the match the draw gave it.

A match is the recorded demo match (the real chain) played again into a new journal made from the set-up the
director sent, closed by both players confirming the result sheet, and published by a real
:class:`app.net.station.Station` over the broker; a board's next match stops the station of its previous one.
"""

from __future__ import annotations

from pathlib import Path

from app.net.station import Station, StationConfig
from app.record.session import Session
from app.referee.events import CallDirector, Event, ResultConfirmed
from app.referee.setup import MatchSetup
from tests.net.broker import Mosquitto
from tests.net.conftest import PREFIX


class Boards:
    """The hall's stations: each board plays the match it was given into a new journal and publishes it."""

    def __init__(self, hall: Mosquitto, events: list[Event], folder: Path) -> None:
        self.hall, self.events, self.folder = hall, events, folder
        self.stations: dict[str, Station] = {}
        self.played = 0

    def play(self, board: str, setup: MatchSetup, upto: int | None = None, call: bool = False) -> None:
        """Both players confirmed the match; it is played to the end and both confirm the result sheet (or it
        stops after ``upto`` events, where the players may call the director)."""
        self.played += 1
        session = Session.create(self.folder / f"board{board}-{self.played}.sqlite", setup)
        for event in self.events[:upto]:
            session.submit(event)
        if call:
            session.submit(CallDirector())
        if upto is None:
            for side in ("white", "black"):
                session.submit(ResultConfirmed(by=side))  # type: ignore[arg-type]
        path = session.journal.path
        session.close()
        old = self.stations.pop(board, None)
        if old is not None:
            old.stop()
        self.stations[board] = Station(path, StationConfig(self.hall.config(board), board, PREFIX)).start()

    def stop(self) -> None:
        for station in self.stations.values():
            station.stop()
