"""Why the table could not do something, as a code and its values: the screens put it in words.

The table speaks to the screens in codes and data, never sentences, so the words live in one room
(:mod:`app.ui.labels`) in both languages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class Why:
    """A reason by its code (a label of the screens) and the values its words name; the code "said" carries a
    system's own message (an operating system's, a library's) in ``values["text"]`` as it came."""

    code: str
    values: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def said(cls, text: str) -> Why:
        """A system's own message, shown as it is."""
        return cls("said", {"text": text})

    def __str__(self) -> str:
        """The reason as a log line reads it (the screens word it with :func:`app.ui.labels.why_text`)."""
        return self.values["text"] if self.code == "said" else f"{self.code} {dict(self.values)}"
