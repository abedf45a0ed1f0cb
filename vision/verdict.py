"""What the referee app receives: each die read, and the throw's verdict (RULES.md section 5).

A throw is valid when exactly two dice lie flat, readable, inside the thrower's right-hand half. Otherwise it
is void (both dice are thrown again) with the first reason that applies, in this order: ``dice_count`` (not
exactly two dice), ``cocked``, ``off_board``, ``wrong_half``, ``unreadable``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Verdict = Literal["valid", "void"]
Reason = Literal["cocked", "wrong_half", "off_board", "dice_count", "unreadable"]
ZoneName = Literal["right_half", "wrong_half", "off_board"]


@dataclass(frozen=True)
class DieReading:
    """One die. ``value`` is None when the reader is not sure (confidence below the threshold): never a guess.
    ``box`` is x0, y0, x1, y1 in pixels of the input image; ``zone`` is None without calibration."""

    value: int | None
    box: tuple[int, int, int, int]
    cocked: bool
    confidence: float
    zone: ZoneName | None = None
    cocked_probability: float = 0.0

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    def to_json(self) -> dict[str, object]:
        return {"value": self.value, "box": list(self.box), "cocked": self.cocked,
                "confidence": round(self.confidence, 4)}


@dataclass(frozen=True)
class ThrowObservation:
    """The reading of one settled throw (or one image). ``values`` is the pair when the throw is valid."""

    verdict: Verdict | None  # None for --all readings, which judge nothing
    reason: Reason | None
    dice: tuple[DieReading, ...]
    thrower: Literal["bottom", "top"] = "bottom"
    timestamp: float | None = None
    source: str | None = None
    extra: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def values(self) -> tuple[int, int] | None:
        if self.verdict != "valid":
            return None
        a, b = (d.value for d in self.dice)
        assert a is not None and b is not None
        return (a, b)

    @property
    def valid(self) -> bool:
        return self.verdict == "valid"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"image": self.source, "verdict": self.verdict, "reason": self.reason,
                                  "dice": [d.to_json() for d in self.dice]}
        if self.timestamp is not None:
            out["time"] = round(self.timestamp, 3)
        return out


def judge(dice: tuple[DieReading, ...], calibrated: bool) -> tuple[Verdict, Reason | None]:
    """The verdict on a throw: see the module docstring for the order of reasons."""
    if len(dice) != 2:
        return "void", "dice_count"
    if any(d.cocked for d in dice):
        return "void", "cocked"
    if calibrated:
        if any(d.zone == "off_board" for d in dice):
            return "void", "off_board"
        if any(d.zone == "wrong_half" for d in dice):
            return "void", "wrong_half"
    if any(d.value is None for d in dice):
        return "void", "unreadable"
    return "valid", None
