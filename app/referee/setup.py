"""The match set-up: who plays what, under which rules, with which devices.

It is the first entry of every journal, so replaying a journal needs nothing
else. Defaults follow docs/rules.md section 5 (2 minutes per point of match
length, a 12-second delay per move; the "legal moves" policy).
"""

from __future__ import annotations

import datetime
import enum
from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

from rules.chouette import MAX_PLAYERS, MIN_PLAYERS, Chouette
from rules.cube import CubeRules
from rules.game import FirstMove
from rules.match import Match, MatchHeader
from rules.registry import find_variant
from rules.variant import Variant


class Mode(enum.Enum):
    """Tournament: no aids at all. Casual: legal plays, pip counts and shot odds are shown."""

    TOURNAMENT = "tournament"
    CASUAL = "casual"


class Policy(enum.Enum):
    """The director's policy for an illegal or unfinished play (docs/rules.md section 5)."""

    LEGAL_MOVES = "legal_moves"
    """The opponent chooses: accept the play as made, or have it corrected."""
    ALWAYS_CORRECT = "always_correct"
    """Every illegal play is corrected; nobody may accept one."""


@dataclass(frozen=True)
class ClockSettings:
    """Reserve per player and simple delay per move, in seconds; reserve 0 means no clock."""

    reserve_s: int
    delay_s: int = 12

    @classmethod
    def for_match(cls, length: int, team: bool = False) -> "ClockSettings":
        """Federation defaults: 2 min per point and 12 s (team or doubles events: 2.5 min and 18 s)."""
        if length == 0:
            return cls(0, 0)
        return cls(length * 150, 18) if team else cls(length * 120, 12)


@dataclass(frozen=True)
class Devices:
    """Which devices the referee relies on: with a sensing board plays are judged from the board."""

    camera: bool = False
    board: bool = False
    clock: bool = False


@dataclass(frozen=True)
class MatchSetup:
    players: tuple[str, str] = ("White", "Black")
    variant: str = "backgammon"
    length: int = 5
    mode: Mode = Mode.TOURNAMENT
    policy: Policy = Policy.LEGAL_MOVES
    crawford: bool = True
    clock: ClockSettings = field(default_factory=lambda: ClockSettings(600))
    devices: Devices = Devices()
    pin_hash: str = ""
    event: str = ""
    round: str = ""
    table: str = ""
    """The table (board) number in the hall, for the result sheet and the match record's site."""
    date: str = ""
    max_cube: int | None = 64
    beavers: bool = True
    raccoons: bool = False
    automatic_doubles: int = 0
    jacoby: bool = True
    first_move: str = "opening_roll"
    chouette: tuple[str, ...] = ()
    """A chouette's players in order (the box first, then the line); empty for a match between two."""
    dice_profile: str = ""
    """The dice set whose looks the camera's reader learned and goes on learning in this match ("" for none:
    the reader as shipped)."""

    def __post_init__(self) -> None:
        if self.chouette:
            self._check_chouette()
        if len(self.players) != 2 or not all(isinstance(p, str) and p.strip() for p in self.players):
            raise ValueError("two player names are needed")
        object.__setattr__(self, "players", (self.players[0].strip(), self.players[1].strip()))
        if self.players[0] == self.players[1]:
            raise ValueError("the two players need different names")
        find_variant(self.variant)
        if isinstance(self.length, bool) or not isinstance(self.length, int) or not 0 <= self.length <= 99:
            raise ValueError("the match length is 0 (money) to 99 points")
        FirstMove(self.first_move)
        if self.date:
            datetime.date.fromisoformat(self.date)

    def _check_chouette(self) -> None:
        """A chouette is money play of standard backgammon among 3 to 8 named players (docs/rules.md section 2)."""
        names = tuple(str(name).strip() for name in self.chouette)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise ValueError(f"a chouette has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
        if not all(names) or len(set(names)) != len(names):
            raise ValueError("every chouette player needs a name of its own")
        if self.length != 0:
            raise ValueError("a chouette is played for money: its length is 0, not a match length")
        if find_variant(self.variant).name != "backgammon":
            raise ValueError(f"a chouette is played as backgammon (the rules core has no {self.variant} chouette)")
        object.__setattr__(self, "chouette", names)
        object.__setattr__(self, "players", names[:2])  # the first box and captain name the two colours

    @property
    def is_chouette(self) -> bool:
        return bool(self.chouette)

    def cube_rules(self, money: bool = False) -> CubeRules:
        return CubeRules(
            max_value=self.max_cube,
            beavers=self.beavers,
            raccoons=self.raccoons,
            automatic_doubles=self.automatic_doubles,
            jacoby=self.jacoby,
            money=money,
        )

    def new_chouette(self) -> Chouette:
        """The rules core's chouette session for this set-up (the first player is the box)."""
        return Chouette.new(self.chouette, self.cube_rules(money=True))

    @property
    def variant_rules(self) -> Variant:
        return find_variant(self.variant)

    def new_match(self) -> Match:
        """The rules core's match for this set-up, before the first opening throw."""
        header = MatchHeader(
            self.players,
            event=self.event,
            round=self.round,
            site=f"table {self.table}" if self.table else "",
            date=datetime.date.fromisoformat(self.date) if self.date else None,
        )
        cube = self.cube_rules()
        return Match.new(
            self.length,
            header,
            crawford=self.crawford,
            cube=cube,
            first_move=FirstMove(self.first_move),
            variant=self.variant_rules,
        )

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = list(self.players)
        data["chouette"] = list(self.chouette)
        data["mode"] = self.mode.value
        data["policy"] = self.policy.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MatchSetup":
        values = dict(data)
        values["players"] = tuple(values.get("players", ("White", "Black")))
        values["chouette"] = tuple(values.get("chouette", ()))
        values["mode"] = Mode(values.get("mode", "tournament"))
        values["policy"] = Policy(values.get("policy", "legal_moves"))
        values["clock"] = ClockSettings(**values.get("clock", {"reserve_s": 0}))
        values["devices"] = Devices(**values.get("devices", {}))
        return cls(**values)
