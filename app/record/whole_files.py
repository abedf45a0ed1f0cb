"""Files written whole or not at all: a power cut or a full disk leaves the old file or the new one, never half of
one (a half-written label would teach a wrong die; a half-written setting or assignment would be lost)."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, data: bytes) -> None:
    """``data`` as ``path``: written and flushed under a temporary name beside it, then renamed over it. An
    ``OSError`` reaches the caller with no temporary file left behind."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with open(temporary, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
