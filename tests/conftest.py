"""Every test (and every app or demo it starts) seals journals with one test key, never the user's own, and keeps
its station data in a folder of its own, never the user's."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from app.record.devicekey import KEY_ENV
from app.record.library import DATA_ENV

_folder = Path(tempfile.gettempdir()) / f"tavla-test-key-{os.getuid() if hasattr(os, 'getuid') else 0}"
_folder.mkdir(mode=0o700, exist_ok=True)
os.environ[KEY_ENV] = str(_folder / "device.key")
os.environ[DATA_ENV] = str(_folder / "data")
