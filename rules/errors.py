"""The exceptions of the rules core.

Every error derives from :class:`RulesError`, itself a :class:`ValueError`, so
callers that only care "was this input acceptable?" can catch one type, while
the referee can tell a malformed note from an illegal play from an impossible
board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover - imports for type checkers only
    from rules.cube import CubeRule
    from rules.judge import Violation
    from rules.play import Play
    from rules.position import Status


class RulesError(ValueError):
    """Base class of every error raised by :mod:`rules`."""


class InvalidPosition(RulesError):
    """A position that cannot occur on a real board (wrong checker count, ...)."""

    def __init__(self, message: str, status: "Status") -> None:
        super().__init__(message)
        self.status = status


class InvalidNotation(RulesError):
    """Text that is not a play, a position ID, a match ID or an XGID."""


class AmbiguousPlay(InvalidNotation):
    """Notation that fits more than one legal play (e.g. a hidden intermediate hit)."""

    def __init__(self, message: str, candidates: Sequence["Play"]) -> None:
        super().__init__(message)
        self.candidates = tuple(candidates)


class IllegalPlay(RulesError):
    """A play that breaks a rule; names the rules broken and the legal alternatives."""

    def __init__(
        self,
        message: str,
        violations: "Sequence[Violation]" = (),
        legal: "Sequence[Play]" = (),
        unfinished: bool = False,
    ) -> None:
        super().__init__(message)
        self.violations = tuple(violations)
        self.legal = tuple(legal)
        self.unfinished = unfinished
        """True when the board can still become a legal play: the player is not done."""


class InvalidDice(RulesError):
    """Dice that no pair of six-sided dice can show."""


class IllegalAction(RulesError):
    """An action the game does not allow now (rolling twice, playing before rolling, ...)."""


class InvalidMatchState(RulesError):
    """A cube, score or turn state that no match can be in (Crawford game with a cube, ...)."""


class IllegalCubeAction(IllegalAction):
    """A double, take, drop, beaver or raccoon the rules forbid now; ``rule`` names the rule."""

    def __init__(self, message: str, rule: "CubeRule") -> None:
        super().__init__(message)
        self.rule = rule


class MatImportError(RulesError):
    """A Jellyfish .mat file that cannot be read: says which file, which line and why."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


class MatExportError(RulesError):
    """A match a Jellyfish .mat file cannot hold (a variant or a rule the format lacks)."""
