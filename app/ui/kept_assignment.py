"""The director's assignments a tablet holds, kept in its data folder so a restart loses none.

An assignment offered but not yet confirmed by both players, or waiting for the match being played, is shown
again after the app restarts; the ids of the assignments already started are kept too, so the director's
sending again (whenever the board comes online) does not offer a started match a second time.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.net.station import Assignment
from app.record.whole_files import write_whole
from app.referee.setup import MatchSetup

log = logging.getLogger("app.ui.kept_assignment")

FILE = "assigned_match.json"
STARTED_KEPT = 50
"""Ids of started assignments remembered (a tournament day assigns a board far fewer)."""


@dataclass
class KeptAssignments:
    """The offered, the waiting, and the ids already started."""

    offered: Assignment | None = None
    waiting: Assignment | None = None
    started: list[str] = field(default_factory=list)

    def knows(self, assignment: Assignment) -> bool:
        """Whether ``assignment`` (by its director's message id) is already offered, waiting or started."""
        if not assignment.message:
            return False
        held = [a.message for a in (self.offered, self.waiting) if a is not None]
        return assignment.message in held or assignment.message in self.started


def _to_json(assignment: Assignment | None) -> dict[str, Any] | None:
    if assignment is None:
        return None
    return {"match": assignment.match, "message": assignment.message, "setup": assignment.setup.to_dict()}


def _of_json(data: Any) -> Assignment | None:
    if data is None:
        return None
    return Assignment(str(data["match"]), MatchSetup.from_dict(data["setup"]), str(data["message"]))


def load(path: Path) -> KeptAssignments:
    """What ``path`` holds; nothing if it is missing or unreadable (logged: the director sends it again)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return KeptAssignments(
            _of_json(data.get("offered")), _of_json(data.get("waiting")), [str(i) for i in data.get("started", [])]
        )
    except FileNotFoundError:
        return KeptAssignments()
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as error:
        log.warning("%s cannot be read (%s): no assignment kept", path, error)
        return KeptAssignments()


def save(path: Path, kept: KeptAssignments) -> None:
    """Write ``kept`` to ``path`` whole or not at all (a new file moved over the old)."""
    data = {"offered": _to_json(kept.offered), "waiting": _to_json(kept.waiting), "started": kept.started}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))
    except OSError as error:  # a full disk: the assignment is still offered; the director sends it again
        log.error("%s cannot be written: %s", path, error)
