"""Where the station keeps its matches: one folder per match under the user's data folder, never a temp folder.

A closed window, a crash or a power cut must not lose a match from view: the app resumes the last one from
here and lists the past ones with their exports. The data folder follows the XDG base directory rules
(``$XDG_DATA_HOME``, else ``~/.local/share``; ``%APPDATA%`` on Windows).
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from pathlib import Path

JOURNAL = "match.sqlite"
APP_FOLDER = "tavla-referee"


def data_home() -> Path:
    """The user's data folder for this app (created on first use)."""
    if os.name == "nt" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / APP_FOLDER


@dataclass(frozen=True)
class PastMatch:
    folder: Path
    modified: datetime.datetime
    exports: tuple[str, ...]  # the files written by an export (.mat, .json, result sheets)

    @property
    def journal(self) -> Path:
        return self.folder / JOURNAL


class MatchLibrary:
    """The station's matches: ``<root>/matches/<started>/match.sqlite`` and its ``export/`` folder."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or data_home()) / "matches"

    def new_folder(self, now: datetime.datetime | None = None) -> Path:
        """A fresh folder for a new match, named by when it started (made unique if two start in a second)."""
        stamp = (now or datetime.datetime.now()).strftime("%Y-%m-%d_%H-%M-%S")
        self.root.mkdir(parents=True, exist_ok=True)
        folder, n = self.root / stamp, 1
        while folder.exists():
            n += 1
            folder = self.root / f"{stamp}_{n}"
        folder.mkdir()
        return folder

    def tidy(self) -> None:
        """Remove the folders of matches never started (no journal was written)."""
        if self.root.is_dir():
            for folder in self.root.iterdir():
                if folder.is_dir() and not any(folder.iterdir()):
                    folder.rmdir()

    def matches(self) -> list[PastMatch]:
        """Every match with a journal, newest first."""
        if not self.root.is_dir():
            return []
        found = []
        for folder in self.root.iterdir():
            journal = folder / JOURNAL
            if folder.is_dir() and journal.is_file() and journal.stat().st_size > 0:
                exports = tuple(sorted(p.name for p in (folder / "export").glob("*") if p.is_file()))
                modified = datetime.datetime.fromtimestamp(journal.stat().st_mtime)
                found.append(PastMatch(folder, modified, exports))
        return sorted(found, key=lambda match: (match.modified, match.folder.name), reverse=True)

    def last(self) -> PastMatch | None:
        """The match played most recently (to resume after the window was closed)."""
        past = self.matches()
        return past[0] if past else None


PROFILE_SUFFIX = ".json"


class DiceSets:
    """The dice sets whose looks the reader has learned: ``<root>/dice/<name>.json``, one per set, reused from
    match to match (a club plays with the same few pairs under the same lamps)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or data_home()) / "dice"

    def names(self) -> list[str]:
        """Every dice set learned so far, by name."""
        if not self.root.is_dir():
            return []
        return sorted(p.name[: -len(PROFILE_SUFFIX)] for p in self.root.glob(f"*{PROFILE_SUFFIX}") if p.is_file())

    def path(self, name: str) -> Path:
        """Where the set ``name`` is kept (the folder made); ValueError for a name that is no file name."""
        clean = name.strip()
        if not clean or len(clean) > 60 or clean.startswith(".") or any(c in clean for c in '/\\:*?"<>|'):
            raise ValueError(f"{name!r}: name the dice set with letters and digits (at most 60, no / \\ : * ?)")
        self.root.mkdir(parents=True, exist_ok=True)
        return self.root / f"{clean}{PROFILE_SUFFIX}"
