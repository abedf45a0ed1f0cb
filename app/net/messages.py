"""The director's few messages to a board, checked at the edge.

Only three kinds reach a station: a message to the players, "director on
the way", and a time correction (which the station journals as the referee's
``TimeCorrected`` event, so it is part of the match record like any other decision).
Anything else is refused with the reason, for the station's log (the shape of each is declared in
:mod:`app.net.schemas`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from app.net.schemas import parse
from app.referee.events import TimeCorrected
from rules.position import Color


@dataclass(frozen=True)
class DirectorMessage:
    """One message from the director: ``kind`` is one of :data:`app.net.topics.MESSAGE_TYPES`; ``by`` the
    account on the director's page that sent it (a station journals it with a time correction)."""

    kind: str
    id: str = ""
    text: str = ""
    color: str | None = None
    ms: int | None = None
    by: str = "director"

    def to_json(self) -> bytes:
        data: dict[str, Any] = {"type": self.kind, "id": self.id, "by": self.by}
        if self.kind == "message":
            data["text"] = self.text
        if self.kind == "time":
            data.update(color=self.color, ms=self.ms)
        return dumps(data)

    def time_correction(self) -> TimeCorrected:
        """The referee's event for a time correction (the broker let only the director's account send it)."""
        if self.kind != "time" or self.color is None or self.ms is None:
            raise ValueError("not a time correction")
        return TimeCorrected(Color.parse(self.color), self.ms, self.by)


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def loads(payload: bytes) -> Any:
    """JSON from a message; ValueError naming the problem."""
    try:
        return json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"not JSON ({error})") from None


def parse_director_message(payload: bytes) -> DirectorMessage:
    """The message in ``payload`` (checked against :data:`app.net.schemas.DIRECTOR_MESSAGE`); ValueError with
    the reason for anything a board must not act on."""
    data = parse("inbox", payload)
    kind, ident, by = data["type"], data.get("id", ""), data.get("by", "director")
    if kind == "message":
        return DirectorMessage(kind, ident, text=data["text"].strip(), by=by)
    if kind == "time":
        return DirectorMessage(kind, ident, color=data["color"], ms=data["ms"], by=by)
    return DirectorMessage(kind, ident, by=by)
