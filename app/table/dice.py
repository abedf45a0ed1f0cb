"""The one place a settled throw becomes a referee event.

A camera, live or simulated, reads a throw as the bottom player (White) sees it: a vision
``ThrowObservation``. Who threw it is the table's business: the opening throw is one die each (the die
in White's half is White's); any other throw belongs to whoever's right-hand half the dice lie in (the
mover's when they are split, the waiting player's when both lie in theirs: an early or out-of-turn throw).
The verdict itself, its reasons and their order, is vision's (:func:`vision.verdict.judged_for`), asked for
that thrower; this module only turns its answer into the referee's :class:`app.referee.events.DiceObserved`
for the station to hand to the session.

A call vision is not sure of (:func:`vision.sureness.doubts`: the tournament setting in tournament mode, the
casual one in casual mode) becomes a :class:`app.referee.events.ThrowQuestioned` instead, carrying the
reading and its doubts: the referee lets it take effect only when the players or the director answer it.
Where the camera is calibrated, the referee's position (or a sensing board) tells vision where the checkers lie
(:mod:`app.table.lying`): a die called cocked with nothing to lean on is asked about; on a sensing board's word, a
die read flat there is surely flat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from app.referee import events as ev
from app.referee.engine import Referee, Stage
from app.referee.setup import Mode
from app.table.lying import where_checkers_lie
from rules.position import Color
from vision import Calibration, DieReading, ThrowObservation
from vision.sureness import CASUAL, TOURNAMENT, Sureness, doubts
from vision.verdict import Boxes, Thrower, judged_for, seen_by

Image = NDArray[np.uint8]

SEAT: dict[Color, Thrower] = {Color.WHITE: "bottom", Color.BLACK: "top"}
"""Where each player sits in the camera's picture."""


@dataclass(frozen=True)
class Shot:
    """One throw as the camera saw it: the picture, what the reader found, the event it became, who threw;
    the reading judged for that thrower and the board it was placed on (for drawing it)."""

    image: Image
    dice: tuple[DieReading, ...]
    event: ev.DiceObserved | ev.ThrowQuestioned
    thrower: Color | None
    judged: ThrowObservation | None = None
    calibration: Calibration | None = None
    not_dice: Boxes = ()
    """What the reader found and called not a die (``ThrowObservation.not_dice``): learned as such when people
    settle the throw."""

    def crops(self, margin: float = 0.6) -> list[Image]:
        """Each die's part of the picture (with some board around it), left to right."""
        return die_crops(self.image, self.dice, margin)

    def unread_crops(self, margin: float = 0.6) -> list[Image]:
        """Each part of the board the throw changed where no die was read (a die missed?), as :meth:`crops`."""
        unread = self.judged.unread if self.judged is not None else ()
        return box_crops(self.image, unread, margin)


def die_crops(image: Image, dice: tuple[DieReading, ...], margin: float = 0.6) -> list[Image]:
    """Each die's part of ``image`` with some board around it, for a person to count its pips."""
    return box_crops(image, [die.box for die in dice], margin)


def box_crops(image: Image, boxes: Sequence[tuple[int, int, int, int]], margin: float = 0.6) -> list[Image]:
    """Each box's part of ``image`` with ``margin`` of its longer side round it."""
    height, width = image.shape[:2]
    out = []
    for x0, y0, x1, y1 in boxes:
        pad = int(max(x1 - x0, y1 - y0) * margin)
        out.append(image[max(y0 - pad, 0) : min(y1 + pad, height), max(x0 - pad, 0) : min(x1 + pad, width)])
    return out


def shot(image: Image, observation: ThrowObservation, referee: Referee, calibration: Calibration | None = None) -> Shot:
    """The settled throw in ``image`` (``observation``: as the bottom player sees it), ready for the referee;
    ``calibration``, the board the reader placed the dice on, lets a die near the bar or the frame be doubted."""
    judged, thrower = judged_throw(observation, referee)
    event = _questioned_or_not(judged, thrower, referee, calibration, image.shape)
    return Shot(image, observation.dice, event, thrower, judged, calibration, observation.not_dice)


def sureness_for(referee: Referee) -> Sureness:
    """The thresholds that make a call sure: strict in tournament mode, looser in casual mode."""
    return TOURNAMENT if referee.mode is Mode.TOURNAMENT else CASUAL


def throw_event(
    observation: ThrowObservation,
    referee: Referee,
    calibration: Calibration | None = None,
    image_shape: tuple[int, ...] | None = None,
) -> tuple[ev.DiceObserved | ev.ThrowQuestioned, Color | None]:
    """The referee's event for a settled throw (read as the bottom player sees it), and who threw it (None for
    the opening throw, or when no die was seen): a :class:`ThrowQuestioned` when the call is not sure."""
    judged, thrower = judged_throw(observation, referee)
    return _questioned_or_not(judged, thrower, referee, calibration, image_shape), thrower


def _questioned_or_not(
    judged: ThrowObservation,
    thrower: Color | None,
    referee: Referee,
    calibration: Calibration | None,
    image_shape: tuple[int, ...] | None,
) -> ev.DiceObserved | ev.ThrowQuestioned:
    """The event for a throw already judged for its thrower: a question when the call is not sure."""
    event = _event(judged, thrower)
    lying, sensed = where_checkers_lie(referee) if calibration is not None else (None, False)
    doubted = doubts(judged, calibration, image_shape, sureness_for(referee), lying, sensed)
    if not doubted:
        return event
    return ev.ThrowQuestioned(event.values, event.void, doubted, event.confidences, event.thrower)


def judged_throw(observation: ThrowObservation, referee: Referee) -> tuple[ThrowObservation, Color | None]:
    """The throw judged for whoever threw it, and who that was (None for the opening throw or no die seen)."""
    dice, unread, changed = observation.dice, observation.unread, observation.changed_dice
    if referee.stage is Stage.OPENING:
        return judged_for(dice, SEAT[Color.WHITE], True, opening=True, unread=unread, changed_dice=changed), None
    mover = referee.mover
    waiting = mover.other
    thrower = mover
    if dice and all(d.zone == "right_half" for d in seen_by(dice, SEAT[waiting])):
        thrower = waiting  # the waiting player threw (too early, or out of turn)
    return judged_for(dice, SEAT[thrower], True, unread=unread, changed_dice=changed), thrower if dice else None


def _event(judged: ThrowObservation, thrower: Color | None) -> ev.DiceObserved:
    values = judged.values
    if values is None:
        return _void(judged)
    if thrower is None:  # the opening throw (a valid throw has dice): White's die, Black's die
        white = next(d.value for d in judged.dice if d.zone == "right_half")
        black = next(d.value for d in judged.dice if d.zone == "wrong_half")
        assert white is not None and black is not None
        return ev.DiceObserved((white, black), confidences=_confidences(judged))
    # the thrower named even when it is the mover: a mover throwing twice is told from an early throw
    return ev.DiceObserved(values, confidences=_confidences(judged), thrower=thrower)


def _void(observation: ThrowObservation) -> ev.DiceObserved:
    return ev.DiceObserved(
        None, void=ev.VoidReason(observation.reason or "unreadable"), confidences=_confidences(observation)
    )


def _confidences(observation: ThrowObservation) -> tuple[float, ...]:
    return tuple(float(d.confidence) for d in observation.dice if d.confidence is not None)
