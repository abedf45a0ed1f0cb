"""A board's state as the director sees it: a fold of the journal turned into plain JSON.

The station does not trust its screen for what it tells the director: it
folds the journal's entries through the referee (the state *is* the fold of
the journal) and describes the result. The snapshot carries the position as
XGID and as GNU Backgammon Position ID / Match ID where the variant has the
standard board (other variants: the checker counts only), so any
backgammon program can open the director's view of a board.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from app.record.export import result_summary
from app.record.journal import Entry
from app.referee.engine import Referee, Stage
from app.referee.events import event_from_dict
from app.referee.setup import MatchSetup
from rules.errors import RulesError
from rules.gnubg_id import encode_position_id
from rules.match_id import GameState, MatchInfo, encode_match_id
from rules.position import Color
from rules.xgid import encode_xgid

RECENT_RULINGS = 12
"""Rulings kept for the director's view of one board."""

STANDARD_BOARD = ("backgammon", "nackgammon", "longgammon", "eureika", "turkish")
"""Variants on the standard board and geometry: their positions have an XGID and gnubg IDs."""

FLAG_CODES = ("flag_fell",)
CALL_CODES = ("director_called",)


def _color(color: Color | None) -> str | None:
    return None if color is None else color.name.lower()


@dataclass
class BoardState:
    """The referee folded from one journal, entry by entry, with what the director wants beside it."""

    referee: Referee | None = None
    seq: int = 0
    head: str = ""
    at: str = ""
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECENT_RULINGS))
    flag: str | None = None
    problem: str | None = None

    def add(self, entry: Entry) -> None:
        """Fold one journal entry (in order); a state that cannot be folded is reported, not raised."""
        self.seq, self.head, self.at = entry.seq, entry.hash, entry.at
        if self.problem is not None:
            return
        try:
            if entry.kind == "setup":
                self.referee = Referee.start(MatchSetup.from_dict(entry.payload["setup"]))
            elif entry.kind == "event" and self.referee is not None:
                self.referee, _ = self.referee.handle(event_from_dict(entry.payload["event"]))
        except (KeyError, TypeError, ValueError) as error:
            self.problem = f"entry {entry.seq} cannot be folded: {error}"
            return
        if entry.kind != "event":
            return
        for ruling in entry.payload.get("reaction", {}).get("rulings", []):
            code = ruling.get("code")
            if code in ("debug", "hint"):
                continue
            self.recent.append({"seq": entry.seq, "at": entry.at, **ruling})
            if code in FLAG_CODES:
                self.flag = ruling.get("params", {}).get("player")

    def snapshot(self, board: str) -> dict[str, Any]:
        """The retained snapshot: everything the director's page shows for this board."""
        data: dict[str, Any] = {
            "board": board,
            "seq": self.seq,
            "head": self.head,
            "at": self.at,
            "recent": list(self.recent),
            "problem": self.problem,
        }
        referee = self.referee
        if referee is None:
            return data
        data.update(describe(referee))
        data["flag"] = self.flag
        return data


def describe(referee: Referee) -> dict[str, Any]:
    """Players, score, cube, clocks, turn, stage and position of one referee state."""
    setup = referee.setup
    stage = referee.stage
    position = referee.position
    data: dict[str, Any] = {
        "players": list(referee.side_names()),
        "variant": setup.variant,
        "length": referee.match.length if referee.chouette is None else 0,
        "score": list(referee.match.score) if referee.chouette is None else [0, 0],
        "game": referee.game_number,
        "stage": stage.value,
        "turn": _color(referee.to_act),
        "dice": list(referee.dice) if referee.dice else None,
        "clock": {
            "running": _color(referee.clock),
            "times_ms": list(referee.times) if referee.times else None,
            "reserve_ms": setup.clock.reserve_s * 1000,
        },
        "called": stage is Stage.HALTED,
        "over": stage is Stage.OVER,
        "board": {"white": list(position.white), "black": list(position.black)},
    }
    if referee.chouette is None:
        cube = referee.match.game.cube
        data["cube"] = {"value": cube.value, "owner": _color(cube.owner), "offered": _color(cube.offered_by)}
        if referee.match.over:
            data["result"] = result_summary(referee)
    else:
        data["cube"] = None
    data.update(position_ids(referee))
    return data


def position_ids(referee: Referee) -> dict[str, str | None]:
    """XGID, Position ID and Match ID of the game in progress; None for boards they cannot describe."""
    none: dict[str, str | None] = {"xgid": None, "position_id": None, "match_id": None}
    if referee.chouette is not None or referee.setup.variant not in STANDARD_BOARD:
        return none
    match = referee.match
    game = match.game
    position = game.game.position
    length = match.length
    try:
        info = MatchInfo(
            cube_value=game.cube.value,
            cube_owner=game.cube.owner,
            on_roll=position.turn,
            crawford=game.cube.crawford,
            game_state=GameState.OVER if game.over else GameState.PLAYING,
            turn=referee.to_act if referee.to_act is not None else position.turn,
            double_offered=game.cube.offered_by is not None,
            dice=referee.dice if game.cube.offered_by is None else None,
            match_length=length if length <= 64 else 0,
            score=match.score,
        )
        return {
            "xgid": encode_xgid(position, info),
            "position_id": encode_position_id(position),
            "match_id": encode_match_id(info),
        }
    except (RulesError, ValueError):
        return none
