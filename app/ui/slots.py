"""Where the action buttons go, so that no tap meant for one stage lands on the next stage's consequence.

A second tap on "Küp çevir" must not take the double for the opponent: a consequential action (take,
drop, beaver, resign, accept a resignation) never takes a slot that held a button before the stage
changed; an unchanged set of buttons keeps its places. Pure logic, tested without a screen.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

T = TypeVar("T")


def place(actions: Sequence[tuple[str, T, bool]], previous: Sequence[str | None]) -> list[tuple[str, T, bool] | None]:
    """The slots (in the grid's order) for ``actions`` (text, handler, consequential); None is an empty slot.

    ``previous`` is the texts the slots showed before (None for an empty slot). When the texts are the same
    as before, every button keeps its slot.
    """
    shown = [text for text in previous if text is not None]
    if shown == [text for text, _, _ in actions]:
        by_text = {action[0]: action for action in actions}
        return [None if text is None else by_text[text] for text in previous]
    used = {index for index, text in enumerate(previous) if text is not None}
    slots: list[tuple[str, T, bool] | None] = []
    for action in actions:
        if action[2]:
            while len(slots) in used:
                slots.append(None)  # leave the place of an earlier button empty
        slots.append(action)
    return slots
