"""What makes a game a variant: its board, its opening, its scoring and its notation.

A variant is data plus a Position subclass whose ``RULES`` tell the one move
search how checkers step. Adding a variant means writing one module that
defines both and listing it in :mod:`rules.registry`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable

from rules.play import Play
from rules.position import Color, Position


class Opening(enum.Enum):
    """What the winner of the opening throw (one die each, ties again) does."""

    USE_OPENING_DICE = "use_opening_dice"
    """Plays the two opening numbers as its first roll (tournament tavla)."""
    THROW_AGAIN = "throw_again"
    """Throws both dice again for its first move (uzun tavla, plakoto)."""


class ResultKind(enum.IntEnum):
    """How a game was won; the value is the points before the cube."""

    SINGLE = 1
    GAMMON = 2
    """Gammon; "mars" in Turkish."""
    BACKGAMMON = 3
    """Backgammon; "katmerli mars" in Turkish."""


@dataclass(frozen=True)
class Variant:
    """One game of the tavla family."""

    name: str
    aliases: tuple[str, ...]
    position_type: type[Position]
    opening: Opening
    cube: bool
    result_kind: Callable[[Position, Color], ResultKind]
    """The kind of win for ``winner`` once it has borne off all 15."""
    write_play: Callable[[Position, Play], str]
    """Canonical notation of a play made from ``position``."""
    white_numbering: bool = False
    """Notation numbers points from White's side for both players (uzun tavla)."""
    gnubg_ids: bool = False
    """Whether GNU Backgammon Position IDs describe this variant's positions."""

    def start(self, turn: Color = Color.WHITE) -> Position:
        return self.position_type.start(turn)
