"""Which camera the station reads when several give pictures, and the choice remembered for the next start.

The door finds the cameras (:func:`vision.cameras.survey`) and starts with the one chosen last time, if it is
still there; the set-up screen's chooser (:mod:`app.ui.camera_chooser`) switches between them. The choice is kept
in the station's settings file in its data folder (:func:`app.ui.folder.data_folder`); a settings file that
cannot be read or written loses the choice, never the start. No Kivy here: the controller holds it headless.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from app.record.whole_files import write_whole
from vision.cameras import FoundCamera

SETTINGS_FILE = "settings.json"
"""The station's settings in its data folder: a JSON object (``{"camera": "2"}``)."""

NO_CAMERA = "none"
"""The remembered choice of no camera (the dice typed), as ``python -m app --camera none`` names it."""


def read_settings(folder: Path) -> dict[str, object]:
    """The station's settings (empty when there are none or they cannot be read: the defaults serve)."""
    try:
        settings = json.loads((folder / SETTINGS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return settings if isinstance(settings, dict) else {}


def write_setting(folder: Path, key: str, value: str) -> str | None:
    """Keep ``key`` in the settings, the others as they were (written whole, then renamed: a power cut leaves the
    old file or the new one); why not, or None."""
    settings = read_settings(folder) | {key: value}
    path = folder / SETTINGS_FILE
    try:
        write_whole(path, json.dumps(settings, ensure_ascii=False, indent=1).encode("utf-8"))
    except OSError as error:
        return f"{path}: {error.strerror or error}"
    return None


class CameraChoice:
    """The cameras found at the start, the one the station reads (None: no camera) and where the choice is kept
    (``folder`` None: nowhere, it lasts until the app closes)."""

    def __init__(self, found: Sequence[FoundCamera], chosen: str | None, folder: Path | None) -> None:
        self.found = list(found)
        self.chosen = chosen
        self.folder = folder
        self.unsaved: str | None = None
        """Why the last choice will not be remembered at the next start (None: it will be)."""

    @classmethod
    def at_start(cls, found: Sequence[FoundCamera], folder: Path | None) -> CameraChoice:
        """The first camera found, or where several are found the one chosen last time (or none) if it is still
        there: a single camera is always read, so a choice of none is never a trap with no chooser to undo it."""
        chosen = found[0].spec if found else None
        if len(found) > 1 and folder is not None:
            remembered = read_settings(folder).get("camera")
            if remembered == NO_CAMERA:
                chosen = None
            elif any(camera.spec == remembered for camera in found):
                chosen = str(remembered)
        return cls(found, chosen, folder)

    @property
    def offered(self) -> bool:
        """Whether a person has a choice to make: two cameras or more."""
        return len(self.found) > 1

    def remember(self, chosen: str | None) -> str | None:
        """``chosen`` is read from now on and at the next start; why it will not be remembered, or None."""
        self.chosen = chosen
        if self.folder is None:
            self.unsaved = "no data folder"
        else:
            self.unsaved = write_setting(self.folder, "camera", NO_CAMERA if chosen is None else chosen)
        return self.unsaved
