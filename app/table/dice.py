"""The one place a settled throw becomes a referee event.

A camera, live or simulated, reads a throw as the bottom player (White) sees it: a vision
``ThrowObservation``. Who threw it is the table's business: the opening throw is one die each (the die
in White's half is White's); any other throw belongs to whoever's right-hand half the dice lie in (the
mover's when they are split, the waiting player's when both lie in theirs: an early or out-of-turn throw).
The verdict itself, its reasons and their order, is vision's (:func:`vision.verdict.judged_for`), asked for
that thrower; this module only turns its answer into the referee's :class:`app.referee.events.DiceObserved`
and hands it to the session.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Referee, Stage
from rules.position import Color
from vision import DieReading, ThrowObservation
from vision.verdict import Thrower, judged_for, seen_by

Image = NDArray[np.uint8]

SEAT: dict[Color, Thrower] = {Color.WHITE: "bottom", Color.BLACK: "top"}
"""Where each player sits in the camera's picture."""


@dataclass(frozen=True)
class Shot:
    """One throw as the camera saw it: the picture, what the reader found, the event it became, who threw."""

    image: Image
    dice: tuple[DieReading, ...]
    event: ev.DiceObserved
    thrower: Color | None

    def crops(self, margin: float = 0.6) -> list[Image]:
        """Each die's part of the picture (with some board around it), left to right."""
        height, width = self.image.shape[:2]
        out = []
        for die in self.dice:
            x0, y0, x1, y1 = die.box
            pad = int(max(x1 - x0, y1 - y0) * margin)
            out.append(self.image[max(y0 - pad, 0):min(y1 + pad, height), max(x0 - pad, 0):min(x1 + pad, width)])
        return out


def hand_over(image: Image, observation: ThrowObservation, session: Session) -> Shot:
    """A settled throw made the referee's event and handed to the session (journaled, then ruled on)."""
    taken = shot(image, observation, session.referee)
    session.submit(taken.event)
    return taken


def shot(image: Image, observation: ThrowObservation, referee: Referee) -> Shot:
    """The settled throw in ``image`` (``observation``: as the bottom player sees it), ready for the referee."""
    event, thrower = throw_event(observation, referee)
    return Shot(image, observation.dice, event, thrower)


def throw_event(observation: ThrowObservation, referee: Referee) -> tuple[ev.DiceObserved, Color | None]:
    """The referee's event for a settled throw (read as the bottom player sees it), and who threw it (None for
    the opening throw, or when no die was seen)."""
    dice = observation.dice
    if referee.stage is Stage.OPENING:
        opening = judged_for(dice, SEAT[Color.WHITE], calibrated=True, opening=True)
        if not opening.valid:
            return _void(opening), None
        white = next(d.value for d in dice if d.zone == "right_half")
        black = next(d.value for d in dice if d.zone == "wrong_half")
        assert white is not None and black is not None
        return ev.DiceObserved((white, black), confidences=_confidences(opening)), None
    mover = referee.mover
    waiting = mover.other
    thrower = mover
    if dice and all(d.zone == "right_half" for d in seen_by(dice, SEAT[waiting])):
        thrower = waiting  # the waiting player threw (too early, or out of turn)
    judged = judged_for(dice, SEAT[thrower], calibrated=True)
    seen = thrower if dice else None
    values = judged.values
    if values is None:
        return _void(judged), seen
    # the thrower named even when it is the mover: a mover throwing twice is told from an early throw
    return ev.DiceObserved(values, confidences=_confidences(judged), thrower=seen), seen


def _void(observation: ThrowObservation) -> ev.DiceObserved:
    return ev.DiceObserved(None, void=ev.VoidReason(observation.reason or "unreadable"),
                           confidences=_confidences(observation))


def _confidences(observation: ThrowObservation) -> tuple[float, ...]:
    return tuple(float(d.confidence) for d in observation.dice if d.confidence is not None)
