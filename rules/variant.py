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


class GameEnd(enum.Enum):
    """How a game came to its end on the board."""

    BORNE_OFF = "borne_off"
    """A side bore off all 15 checkers."""
    LAST_THROW_DRAW = "last_throw_draw"
    """Uzun tavla's last-throw rule: both finished with the same number of throws."""
    MOTHER_PINNED = "mother_pinned"
    """Plakoto: a mother pinned while the pinner has no checker on its own 24-point."""
    BOTH_MOTHERS_PINNED = "both_mothers_pinned"
    """Plakoto: both mothers pinned, a draw."""


class ResultKind(enum.IntEnum):
    """How a game was won; the value is the points before the cube."""

    SINGLE = 1
    GAMMON = 2
    """Gammon; "mars" in Turkish."""
    BACKGAMMON = 3
    """Backgammon; "katmerli mars" in Turkish."""


@dataclass(frozen=True)
class BoardEnd:
    """A game decided by a variant's own rule: the winner (None for a draw), the kind and why."""

    winner: Color | None
    kind: ResultKind
    how: GameEnd


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
    board_ending: Callable[[Position], BoardEnd | None] | None = None
    """A variant's own way to end a game before the last checker is off (plakoto's mother rule)."""
    passes_unplayed: bool = False
    """Numbers of a double the mover cannot play pass to the opponent (Plakoto Express)."""
    one_two_bonus: bool = False
    """A 1-2 throw earns a named double and another throw (acey-deucey)."""

    def start(self, turn: Color = Color.WHITE) -> Position:
        return self.position_type.start(turn)
