"""The screens are sized in dp and sp, so they scale to another display's density."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


def test_the_screens_scale_with_the_display_density() -> None:
    """Sizes are in dp and sp: at twice the density a touch target is twice as many pixels."""
    root = Path(__file__).resolve().parents[2]
    code = "from app.ui.widgets import target; print(target())"
    sizes = []
    for density in ("1", "2"):
        env = {**os.environ, "KIVY_METRICS_DENSITY": density, "KIVY_NO_ARGS": "1", "KIVY_LOG_MODE": "PYTHON"}
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=root, timeout=120
        )
        assert done.returncode == 0, done.stderr[-2000:]
        sizes.append(float(done.stdout.split()[-1]))
    assert sizes[1] == 2 * sizes[0]
    raw = [
        f"{path.name}:{n}"
        for path in (root / "app" / "ui").glob("*_screen.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\b(font_size|height|width|padding|spacing)=\d", line)
    ]
    assert raw == []  # no size in raw pixels left on a screen
