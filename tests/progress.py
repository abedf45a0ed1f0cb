"""Progress on stderr for the long-running benchmarks and tools: what is being measured, and how far it got.

A line at most every few seconds (never one per item), so a run of minutes shows it is alive and how long is
left, while the figures on stdout stay clean to paste into the README or the model card.
"""

from __future__ import annotations

import sys
import time
from typing import Callable, Iterable, Iterator, TextIO, TypeVar

T = TypeVar("T")


class Progress:
    """Counts items done of ``total`` and reports on ``out`` when ``every_s`` seconds passed since the last line."""

    def __init__(
        self,
        what: str,
        total: int | None = None,
        every_s: float = 2.0,
        out: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what, self.total, self.every_s, self.clock = what, total, every_s, clock
        self.out = out if out is not None else sys.stderr
        self.done = 0
        self.started = self.last = clock()
        self.say(f"{what}: started" + (f" ({total})" if total is not None else ""))

    def say(self, text: str) -> None:
        self.out.write(f"  .. {text}\n")
        self.out.flush()

    def step(self, count: int = 1, note: str = "") -> None:
        """``count`` more items done; a line when it is time for one."""
        self.done += count
        now = self.clock()
        if now - self.last < self.every_s:
            return
        self.last = now
        elapsed = now - self.started
        if self.total:
            text = f"{self.done}/{self.total} ({100 * self.done // self.total}%), {elapsed:.0f} s"
            if self.done:
                text += f", ~{elapsed / self.done * (self.total - self.done):.0f} s left"
        else:
            text = f"{self.done} done, {elapsed:.0f} s"
        self.say(f"{self.what}: {text}" + (f", {note}" if note else ""))

    def finish(self) -> None:
        self.say(f"{self.what}: {self.done} done in {self.clock() - self.started:.1f} s")


def tracked(items: Iterable[T], what: str, total: int | None = None, every_s: float = 2.0) -> Iterator[T]:
    """``items`` as they are, with a progress line on stderr every few seconds and one at the end."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    progress = Progress(what, total, every_s)
    for item in items:
        yield item
        progress.step()
    progress.finish()
