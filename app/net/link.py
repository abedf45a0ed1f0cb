"""The station's link to the tournament, as the set-up screen takes it: a join code (typed, pasted or scanned), or
by hand the broker, this board, its password, the CA file and the tournament's prefix.

The tablet app referees with or without it: the link publishes the journal the session writes (the
station keeps playing when the broker or the network is gone, and catches up), and hands the director's
few messages back to the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.net.client import BrokerConfig
from app.net.join import decode, write_ca
from app.net.station import Deliver, Station, StationConfig, Submit
from app.net.topics import board_id, tournament_prefix

DEFAULT_TOURNAMENT = "tavla/tournament"


@dataclass(frozen=True)
class TournamentLink:
    """``broker`` is HOST:PORT; the board's number is also its user name at the broker; ``ca`` (a file) turns
    TLS on. Construction refuses what cannot work, naming it, so the set-up screen can say so."""

    broker: str
    board: str
    password: str = ""
    ca: str = ""
    tournament: str = DEFAULT_TOURNAMENT

    def __post_init__(self) -> None:
        BrokerConfig.parse_address(self.broker)
        board_id(self.board)
        tournament_prefix(self.tournament)
        if self.ca and not Path(self.ca).is_file():
            raise ValueError(f"{self.ca}: no such CA certificate file")

    @classmethod
    def from_join_code(cls, text: str, folder: str | Path) -> "TournamentLink":
        """The link a join code describes, its CA written into the station's data ``folder`` for TLS;
        :class:`app.net.join.JoinCodeError` (Turkish and English) when the code cannot be used."""
        code = decode(text)
        return cls(code.broker, code.board, code.password, str(write_ca(code, folder)), code.prefix)

    def config(self) -> StationConfig:
        host, port = BrokerConfig.parse_address(self.broker)
        broker = BrokerConfig(host, port, self.board, self.password or None, self.ca or None)
        return StationConfig(broker, self.board, self.tournament)

    def start(self, journal: str | Path | None, deliver: Deliver | None, submit: Submit | None) -> Station:
        """Start publishing ``journal`` (None: only listening for the director until the first match starts;
        connecting in the background, never blocking on an absent broker)."""
        return Station(journal, self.config(), deliver=deliver, submit=submit).start()
