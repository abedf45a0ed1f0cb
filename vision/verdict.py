"""What the referee app receives: each die read, and the throw's verdict (docs/rules.md section 5).

A throw is valid when exactly two dice lie flat, readable, inside the thrower's right-hand half. Otherwise it
is void (both dice are thrown again) with the first reason that applies, in the order of :data:`REASONS`:
``dice_count`` (not exactly two dice), ``cocked``, ``off_board``, ``wrong_half``, ``unreadable``. The opening
throw (one die each) is judged the same way, with one die in each half instead of both in the thrower's.
The order is written here only: the referee app asks :func:`judged_for` for either thrower.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

Verdict = Literal["valid", "void"]
Reason = Literal["cocked", "wrong_half", "off_board", "dice_count", "unreadable"]
ZoneName = Literal["right_half", "wrong_half", "off_board"]
Thrower = Literal["bottom", "top"]

Boxes = tuple[tuple[int, int, int, int], ...]
"""Boxes in pixels of the input image: x0, y0, x1, y1."""

REASONS: tuple[Reason, ...] = ("dice_count", "cocked", "off_board", "wrong_half", "unreadable")
"""Why a throw is void, in the order the first that applies is given."""


@dataclass(frozen=True)
class DieReading:
    """One die. ``value`` is None when the reader is not sure (confidence below the threshold): never a guess.
    ``box`` is x0, y0, x1, y1 in pixels of the input image; ``zone`` is None without calibration.
    ``crop_box`` is the box the second stage read it from, not clipped to the image (None: ``box``): a die
    learned later is cut from the same square it was read from."""

    value: int | None
    box: tuple[int, int, int, int]
    cocked: bool
    confidence: float
    zone: ZoneName | None = None
    cocked_probability: float = 0.0
    crop_box: tuple[int, int, int, int] | None = None

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "box": list(self.box),
            "cocked": self.cocked,
            "confidence": round(self.confidence, 4),
        }


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
    unread: Boxes = ()
    """Parts of the board the throw changed, each the size of a die, that no die read explains, as boxes (x0,
    y0, x1, y1, image pixels; read on a board with the frame before the throw, none otherwise): a die the reader
    missed leaves one, a die off the board none."""
    changed_dice: float = field(default=0.0, compare=False)
    """How much of the board the throw changed, in die areas (the station's die, with its shadow; 0 without the
    frame before the throw): two touching dice read as one changed the board by more than one die."""
    not_dice: Boxes = field(default=(), compare=False)
    """What the detector found and the second stage called not a die, as the boxes it was read from (x0, y0, x1,
    y1, image pixels, not clipped to the image): a throw people confirm teaches these as "not a die" too
    (``vision.adapt.examples``). Not part of the verdict, nor of the JSON."""

    @property
    def values(self) -> tuple[int, int] | None:
        if self.verdict != "valid":
            return None
        a, b = (d.value for d in self.dice)
        assert a is not None and b is not None
        return (a, b)

    @property
    def unread_changes(self) -> int:
        return len(self.unread)

    @property
    def valid(self) -> bool:
        return self.verdict == "valid"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "image": self.source,
            "verdict": self.verdict,
            "reason": self.reason,
            "dice": [d.to_json() for d in self.dice],
        }
        if self.timestamp is not None:
            out["time"] = round(self.timestamp, 3)
        if self.unread:
            out["unread"] = [list(box) for box in self.unread]
        return out


def judge(dice: tuple[DieReading, ...], calibrated: bool, opening: bool = False) -> tuple[Verdict, Reason | None]:
    """The verdict on a throw: the first of :data:`REASONS` that applies, or valid.

    ``opening``: the opening throw, one die into each player's right-hand half (zones as one player sees them:
    one die in ``right_half``, the other in ``wrong_half``)."""
    zones = {d.zone for d in dice}
    halves = zones != {"right_half", "wrong_half"} if opening else "wrong_half" in zones
    broken: dict[Reason, bool] = {
        "dice_count": len(dice) != 2,
        "cocked": any(d.cocked for d in dice),
        "off_board": calibrated and "off_board" in zones,
        "wrong_half": calibrated and halves,
        "unreadable": any(d.value is None for d in dice),
    }
    reason = next((reason for reason in REASONS if broken[reason]), None)
    return ("valid", None) if reason is None else ("void", reason)


def seen_by(dice: tuple[DieReading, ...], thrower: Thrower) -> tuple[DieReading, ...]:
    """The dice, zoned as the bottom player sees them, as ``thrower`` sees them: for the top player the halves
    swap (off the board stays off)."""
    if thrower == "bottom":
        return dice
    swap: dict[ZoneName, ZoneName] = {"right_half": "wrong_half", "wrong_half": "right_half"}
    return tuple(replace(d, zone=swap.get(d.zone, d.zone) if d.zone is not None else None) for d in dice)


def judged_for(
    dice: tuple[DieReading, ...],
    thrower: Thrower,
    calibrated: bool,
    opening: bool = False,
    unread: Boxes = (),
    changed_dice: float = 0.0,
) -> ThrowObservation:
    """The throw ``dice`` (zoned as the bottom player sees them) make when ``thrower`` threw them, judged
    (``unread``: the reading's changed parts no die explains, ``changed_dice``: how much of the board the throw
    changed; neither depends on who threw)."""
    seen = seen_by(dice, thrower)
    verdict, reason = judge(seen, calibrated, opening)
    return ThrowObservation(verdict, reason, seen, thrower, unread=unread, changed_dice=changed_dice)
