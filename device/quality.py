"""How good a serial line is: the share of damaged frames over the last seconds.

Parity repairs most damaged frames, so a noisy cable loses no events;
it still deserves a warning before it gets worse. The host counts every frame
it receives as clean, repaired (damaged, put right by the parity) or lost
(damaged beyond repair), in one-second buckets over a sliding window, and
calls the line noisy when more than ``NOISY_FRACTION`` of the frames in the
window arrived damaged. "Nothing gets through" is the session's business
(no good frame, or no acknowledgement, for its silence time).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

NOISY_FRACTION = 0.01
"""More damaged frames than this share makes a noisy line."""
MIN_DAMAGED = 2
"""One stray frame (the half frame in the buffer when a port opens) is not a noisy line."""


@dataclass(frozen=True)
class Quality:
    """Frames counted over the window."""

    clean: int = 0
    repaired: int = 0
    lost: int = 0

    @property
    def frames(self) -> int:
        return self.clean + self.repaired + self.lost

    @property
    def damaged_fraction(self) -> float:
        return (self.repaired + self.lost) / self.frames if self.frames else 0.0

    @property
    def lost_fraction(self) -> float:
        return self.lost / self.frames if self.frames else 0.0

    @property
    def noisy(self) -> bool:
        return self.repaired + self.lost >= MIN_DAMAGED and self.damaged_fraction > NOISY_FRACTION

    def describe(self) -> str:
        return (
            f"{100 * self.damaged_fraction:.1f} % of {self.frames} frames damaged, "
            f"{100 * self.lost_fraction:.1f} % lost"
        )


class QualityWindow:
    """Clean, repaired and lost frames per second over the last ``window_ms``."""

    def __init__(self, window_ms: int = 10_000, bucket_ms: int = 1000) -> None:
        self.window_ms = window_ms
        self.bucket_ms = bucket_ms
        self._buckets: deque[list[int]] = deque()  # [bucket start, clean, repaired, lost]

    def record(self, now_ms: int, clean: int = 0, repaired: int = 0, lost: int = 0) -> None:
        if not (clean or repaired or lost):
            return
        start = now_ms - now_ms % self.bucket_ms
        if not self._buckets or self._buckets[-1][0] != start:
            self._buckets.append([start, 0, 0, 0])
        bucket = self._buckets[-1]
        bucket[1] += clean
        bucket[2] += repaired
        bucket[3] += lost

    def quality(self, now_ms: int) -> Quality:
        while self._buckets and self._buckets[0][0] <= now_ms - self.window_ms:
            self._buckets.popleft()
        return Quality(
            sum(b[1] for b in self._buckets), sum(b[2] for b in self._buckets), sum(b[3] for b in self._buckets)
        )

    def clear(self) -> None:
        self._buckets.clear()
