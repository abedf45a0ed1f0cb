"""The benchmarks' progress lines: throttled to one every few seconds, with how far and how long is left."""

from __future__ import annotations

import io

from tests.progress import Progress


def test_progress_reports_at_most_every_few_seconds_with_the_time_left() -> None:
    now = [0.0]
    out = io.StringIO()
    progress = Progress("judge", total=100, every_s=2.0, out=out, clock=lambda: now[0])
    for _ in range(50):  # fifty items in one second: no line yet
        now[0] += 0.02
        progress.step()
    assert out.getvalue().splitlines() == ["  .. judge: started (100)"]
    now[0] = 2.0
    progress.step()
    now[0] = 2.5
    progress.step()  # too soon after the last line
    lines = out.getvalue().splitlines()
    assert lines[1:] == ["  .. judge: 51/100 (51%), 2 s, ~2 s left"]
    progress.finish()
    assert out.getvalue().splitlines()[-1] == "  .. judge: 52 done in 2.5 s"
