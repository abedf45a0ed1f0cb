"""What the referee says and does: rulings for people, commands for the clock.

A ruling is a code plus plain parameters, never a finished sentence, so the
same journal entry reads in Turkish or English (:mod:`app.referee.i18n`) and tests
can assert on the code. Its level is the colour of the banner.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from rules.position import Color


class Level(enum.Enum):
    """How the banner looks: green accepted, blue information, amber warning, red a broken rule."""

    OK = "ok"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Ruling:
    """One thing the referee announces. ``params`` holds JSON values only."""

    code: str
    level: Level
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "level": self.level.value, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Ruling":
        return cls(str(data["code"]), Level(data["level"]), dict(data.get("params", {})))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ruling):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))


@dataclass(frozen=True)
class ClockCommand:
    """Run ``run``'s clock (the other one stops), or stop both when ``run`` is None."""

    run: Color | None

    def to_dict(self) -> dict[str, Any]:
        return {"run": None if self.run is None else self.run.name.lower()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ClockCommand":
        run = data.get("run")
        return cls(None if run is None else Color.parse(run))


@dataclass(frozen=True)
class Reaction:
    """The referee's answer to one event."""

    rulings: tuple[Ruling, ...] = ()
    commands: tuple[ClockCommand, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "rulings": [ruling.to_dict() for ruling in self.rulings],
            "commands": [command.to_dict() for command in self.commands],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Reaction":
        return cls(
            tuple(Ruling.from_dict(r) for r in data.get("rulings", [])),
            tuple(ClockCommand.from_dict(c) for c in data.get("commands", [])),
        )

    @property
    def codes(self) -> list[str]:
        return [ruling.code for ruling in self.rulings]


def color_name(color: Color) -> str:
    return color.name.lower()
