"""Where the station keeps its matches: one folder per match under the station's data folder, never a temp folder.

A closed window, a crash or a power cut must not lose a match from view: the app resumes the last one from
here and lists the past ones with their exports. The station's data folder is the one Kivy gives the app
(``App.user_data_dir``, chosen by the door); a library made without one uses the XDG data folder
(``$XDG_DATA_HOME``, else ``~/.local/share``; ``%APPDATA%`` on Windows), and a station's data found there is
moved into the station's folder once (:func:`move_data`).
"""

from __future__ import annotations

import datetime
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

JOURNAL = "match.sqlite"
APP_FOLDER = "tavla-referee"
DATA_ENV = "TAVLA_DATA_DIR"
"""Names the station's data folder (``python -m app`` names Kivy's); unset, the XDG data folder is used."""


STATION_DATA = ("matches", "dice")
"""What a station keeps in its data folder besides its journal key: its matches (journals, throw photos,
exports) and the dice sets it learned."""


def data_home() -> Path:
    """The station's data folder: the one ``TAVLA_DATA_DIR`` names, else the XDG data folder of this app."""
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV])
    return xdg_data_home()


def xdg_data_home() -> Path:
    """The XDG data folder of this app (created on first use)."""
    if os.name == "nt" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / APP_FOLDER


def move_data(old: Path, new: Path, names: Sequence[str] = STATION_DATA) -> list[str]:
    """Move each of ``names`` (a folder or a file) from ``old`` into ``new``, once: copied whole under a passing
    name, renamed into place, and only then removed from ``old``. What cannot be moved stays in ``old`` untouched
    (tried again at the next start); a name ``new`` already holds is left in both. What went wrong, in words."""
    problems = []
    for name in names:
        source, target = old / name, new / name
        if not source.exists() or source.is_symlink():
            continue
        if target.exists():
            problems.append(f"{source}: not moved, {target} already exists")
            continue
        passing = new / f"{name}.moving"
        try:
            new.mkdir(parents=True, exist_ok=True)
            _remove(passing)  # a move cut short by a power cut: start it again
            if source.is_dir():
                shutil.copytree(source, passing, copy_function=shutil.copy2)
            else:
                shutil.copy2(source, passing)
            os.replace(passing, target)
        except OSError as error:
            try:
                _remove(passing)
            except OSError:
                pass  # the next start removes it before copying again
            problems.append(f"{source}: not moved to {new} ({_reason(error)})")
            continue
        try:
            _remove(source)
        except OSError as error:
            problems.append(f"{source}: copied to {target}, but not removed ({_reason(error)})")
    try:
        old.rmdir()  # only when nothing is left in it
    except OSError:
        pass
    return problems


def _reason(error: OSError) -> str:
    """The system's reason, without its error number (a folder's copy gathers its files' errors: the first)."""
    if isinstance(error, shutil.Error) and error.args and isinstance(error.args[0], list) and error.args[0]:
        return str(error.args[0][0][-1])
    return error.strerror or str(error)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


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
