"""The topics and messages both sides of the tournament network agree on.

Under one tournament prefix (``tavla/<tournament>``)::

    <prefix>/board/<board>/status     retained; "online" from the station, "offline" as its last will
    <prefix>/board/<board>/snapshot   retained; the board's whole state (app.net.snapshot)
    <prefix>/board/<board>/events     QoS 1; one message per journal entry, with its sequence number
    <prefix>/board/<board>/inbox      the director's few messages to that board
    <prefix>/director/ack/<board>     QoS 1; the highest sequence number the director holds without a gap,
                                      and whether it holds later ones (a gap: send again from there)

The broker's access list (:func:`acl_text`) lets a board write only its own
status, snapshot and events and read only its own inbox and acknowledgements;
the director reads every board and writes only inboxes and acknowledgements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BOARD_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")
DIRECTOR_USER = "director"

MESSAGE_TYPES = ("message", "on_the_way", "time", "match")
"""What the director may send a board: a message to the players, "director on the way", a time correction, and
the match the draw gives the board (its set-up, for the two players to confirm before they start)."""


def board_id(text: str) -> str:
    """A board number or name usable in a topic and as the board's broker user name; ValueError otherwise."""
    if not BOARD_PATTERN.fullmatch(text) or text == DIRECTOR_USER:
        raise ValueError(f"a board is named by 1 to 32 letters, digits, '-' or '_' (not 'director'), not {text!r}")
    return text


def tournament_prefix(text: str) -> str:
    """A tournament prefix such as ``tavla/club-night``: no wildcards, no empty levels."""
    levels = text.split("/")
    if not text or any(not level or "+" in level or "#" in level for level in levels):
        raise ValueError(f"a tournament prefix is one or more topic levels without wildcards, not {text!r}")
    return text


@dataclass(frozen=True)
class Topics:
    """Every topic of one tournament."""

    prefix: str

    def board(self, board: str, leaf: str) -> str:
        return f"{self.prefix}/board/{board}/{leaf}"

    def status(self, board: str) -> str:
        return self.board(board, "status")

    def snapshot(self, board: str) -> str:
        return self.board(board, "snapshot")

    def events(self, board: str) -> str:
        return self.board(board, "events")

    def inbox(self, board: str) -> str:
        return self.board(board, "inbox")

    def ack(self, board: str) -> str:
        return f"{self.prefix}/director/ack/{board}"

    def parse(self, topic: str) -> tuple[str, str] | None:
        """(board, leaf) of a board topic of this tournament, or None."""
        head = f"{self.prefix}/board/"
        if not topic.startswith(head):
            return None
        parts = topic[len(head) :].split("/")
        if len(parts) != 2 or not BOARD_PATTERN.fullmatch(parts[0]):
            return None
        return parts[0], parts[1]


def acl_text(prefix: str) -> str:
    """Mosquitto's access list for one tournament: a board's user name is its board id."""
    p = tournament_prefix(prefix)
    return "\n".join(
        [
            f"user {DIRECTOR_USER}",
            f"topic read {p}/board/#",
            f"topic write {p}/board/+/inbox",
            f"topic readwrite {p}/director/#",
            "",
            "# every other user is a board: its own topics only (%u is the user name)",
            f"pattern write {p}/board/%u/status",
            f"pattern write {p}/board/%u/snapshot",
            f"pattern write {p}/board/%u/events",
            f"pattern read {p}/board/%u/inbox",
            f"pattern read {p}/director/ack/%u",
            "",
        ]
    )
