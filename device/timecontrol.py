"""Time controls: how much time each player gets, with the federation defaults.

docs/rules.md section 5: a reserve of 2 minutes per point of the match length and
a 12-second simple delay per move; doubles and team events 2.5 minutes per
point and 18 seconds. Other federations use other figures or a Bronstein
delay or an increment: build a TimeControl directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from device.messages import DelayMode

MINUTE_MS = 60_000


@dataclass(frozen=True)
class TimeControl:
    """Reserve and per-move delay (or increment) for one player."""

    reserve_ms: int
    delay_ms: int
    mode: DelayMode = DelayMode.SIMPLE

    def __post_init__(self) -> None:
        if not 0 <= self.reserve_ms <= 0xFFFFFFFF or not 0 <= self.delay_ms <= 0xFFFFFFFF:
            raise ValueError("reserve and delay must be between 0 and 49 days in milliseconds")


def federation_default(match_length: int, doubles_or_team: bool = False) -> TimeControl:
    """docs/rules.md section 5 defaults for a match to match_length points."""
    if match_length < 1:
        raise ValueError("a clock needs a match length of at least 1 point (money sessions have no default)")
    per_point = MINUTE_MS * 5 // 2 if doubles_or_team else 2 * MINUTE_MS
    delay = 18_000 if doubles_or_team else 12_000
    return TimeControl(per_point * match_length, delay, DelayMode.SIMPLE)
