"""The director's few messages to a board, checked at the edge.

Only three kinds reach a station: a message to the players, "director on
the way", and a time correction (which the station journals as the referee's
``TimeCorrected`` event, so it is part of the match record like any other decision).
Anything else is refused with the reason, for the station's log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from app.net.topics import MESSAGE_TYPES
from app.referee.events import TimeCorrected
from rules.position import Color

MAX_TEXT = 500
MAX_TIME_MS = 24 * 3600 * 1000


@dataclass(frozen=True)
class DirectorMessage:
    """One message from the director: ``kind`` is one of :data:`MESSAGE_TYPES`."""

    kind: str
    id: str = ""
    text: str = ""
    color: str | None = None
    ms: int | None = None

    def to_json(self) -> bytes:
        data: dict[str, Any] = {"type": self.kind, "id": self.id}
        if self.kind == "message":
            data["text"] = self.text
        if self.kind == "time":
            data.update(color=self.color, ms=self.ms)
        return dumps(data)

    def time_correction(self, by: str = "director") -> TimeCorrected:
        """The referee's event for a time correction (the broker let only the director's account send it)."""
        if self.kind != "time" or self.color is None or self.ms is None:
            raise ValueError("not a time correction")
        return TimeCorrected(Color.parse(self.color), self.ms, by)


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def loads(payload: bytes) -> Any:
    """JSON from a message; ValueError naming the problem."""
    try:
        return json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"not JSON ({error})") from None


def parse_director_message(payload: bytes) -> DirectorMessage:
    """The message in ``payload``; ValueError with the reason for anything a board must not act on."""
    data = loads(payload)
    if not isinstance(data, dict):
        raise ValueError("a director message is a JSON object")
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        raise ValueError(f"the director may send only {', '.join(MESSAGE_TYPES)}, not {kind!r}")
    ident = data.get("id", "")
    if not isinstance(ident, str) or len(ident) > 64:
        raise ValueError("a message id is a short string")
    allowed = {"type", "id"} | {"message": {"text"}, "on_the_way": set(), "time": {"color", "ms"}}[kind]
    unknown = set(data) - allowed
    if unknown:
        raise ValueError(f"{kind}: unknown fields {sorted(unknown)}")
    if kind == "message":
        text = data.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
            raise ValueError(f"a message to the players is 1 to {MAX_TEXT} characters of text")
        return DirectorMessage(kind, ident, text=text.strip())
    if kind == "time":
        color, ms = data.get("color"), data.get("ms")
        if color not in ("white", "black"):
            raise ValueError(f"a time correction names 'white' or 'black', not {color!r}")
        if isinstance(ms, bool) or not isinstance(ms, int) or not 0 <= ms <= MAX_TIME_MS:
            raise ValueError(f"a time correction gives the remaining milliseconds (0 to {MAX_TIME_MS}), not {ms!r}")
        return DirectorMessage(kind, ident, color=color, ms=ms)
    return DirectorMessage(kind, ident)
