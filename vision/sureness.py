"""Sure or unsure: the doubts in one reading, so that no doubtful call takes effect without a person.

The reader's verdict is automatic only when nothing about it is in doubt (docs/rules.md section 5). A doubt
is a die value read with too little confidence, a cocked probability near the reader's decision, a die whose
centre lies near a line that changes the verdict (the bar, the frame's inner edge: the thrower's half ends
there) or near the picture's edge (part of it may be cut off), or a third object read as a die. The
thresholds are a :class:`Sureness` setting: strict for tournaments, looser for casual play.

A void throw that some die voids beyond doubt (a surely cocked die, a die surely off the board or in the wrong
half) stays sure whatever else is doubtful: it is thrown again either way; so does a throw with a die not seen
(``dice_count``: a die off the board is not seen either), unless something the size of a die changed on the
board where no die was read (``ThrowObservation.unread_changes``): then a die may have been missed, and the
throw is a ``die_unseen`` question. Where the station knows where the checkers lie, a die called cocked with
nothing within reach to lean on (``vision.leaning``) does not void the throw by itself either: it is a
``leans_on_nothing`` question; and where a sensing board says where they lie (its own snapshot, not the referee's
position, which may lag the board by a play), a die read flat with nothing within reach is flat beyond doubt, so
a borderline cocked probability is no doubt about it. A die the reader could not read at all (value None, the
throw void as ``unreadable``) is a ``low_confidence`` doubt: the reader never guesses, and the players read the
die on the tablet's picture rather than lose a good throw to a rethrow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence, get_args

from vision.calibration import RESTS_ON_MM, Calibration
from vision.errors import VisionError
from vision.leaning import Checker, leans_on_nothing
from vision.verdict import DieReading, ThrowObservation

Doubt = Literal[
    "third_object",
    "die_unseen",
    "low_confidence",
    "borderline_cocked",
    "leans_on_nothing",
    "near_bar",
    "near_frame",
    "near_picture_edge",
]

DOUBTS: tuple[Doubt, ...] = get_args(Doubt)
"""Every doubt, in the order a reading lists them."""


@dataclass(frozen=True)
class Sureness:
    """What makes a call sure. ``min_confidence``: a flat die's value read below it is in doubt;
    ``cocked_band``: a cocked probability from the first to below the second is in doubt (the reader decides
    at 0.5); ``edge_mm``: a die centre this close (board millimetres) to where the bar or the frame starts
    to void a throw is in doubt; ``picture_margin``: a die box this many die sides from the picture's edge is
    in doubt."""

    name: str
    min_confidence: float
    cocked_band: tuple[float, float]
    edge_mm: float
    picture_margin: float

    def __post_init__(self) -> None:
        low, high = self.cocked_band
        if not 0.0 <= self.min_confidence <= 1.0:
            raise VisionError(f"min_confidence must lie in [0, 1], not {self.min_confidence}")
        if not 0.0 <= low <= high <= 1.0:
            raise VisionError(f"the cocked band must be two probabilities, low to high, not {self.cocked_band}")
        if self.edge_mm < 0 or self.picture_margin < 0:
            raise VisionError("edge_mm and picture_margin cannot be negative")


COCKED_SURE_FROM = 0.75
"""Both settings' cocked band ends here: a die the cocked look calls cocked from here voids the throw with no
question, below it the players are asked; the lowest top that lets at most 0.1 % of throws on held-out matches
80-159 be called wrong unasked (``python -m tests.vision.bench_match --first 80 --matches 40 --throws 40 --tops
0.6,0.75,0.9``), since a good throw lost unasked is worse than a tap."""
TOURNAMENT = Sureness(
    "tournament", min_confidence=0.95, cocked_band=(0.12, COCKED_SURE_FROM), edge_mm=8.0, picture_margin=0.5
)
"""The strict default, since a tournament would rather ask than be wrong: its band's floor is the highest that lets
no wrong dice count on held-out matches 80-159 (``python -m tests.vision.bench_match --first 80 --matches 40 --throws
40 --tops 0.75 --lows 0.08,0.12,0.2``)."""
CASUAL = Sureness("casual", min_confidence=0.8, cocked_band=(0.2, COCKED_SURE_FROM), edge_mm=4.0, picture_margin=0.2)
"""Fewer questions for a friendly game: its looser floors and margins ask about a third as often as the tournament
setting on rendered throws (``python -m tests.vision.bench_sureness --throws 400``)."""
SETTINGS: dict[str, Sureness] = {s.name: s for s in (TOURNAMENT, CASUAL)}


def die_doubts(
    die: DieReading,
    calibration: Calibration | None = None,
    image_shape: tuple[int, ...] | None = None,
    sureness: Sureness = TOURNAMENT,
) -> tuple[Doubt, ...]:
    """The doubts about one die, in :data:`DOUBTS` order (a die that could not be read at all is in doubt)."""
    found: set[Doubt] = set()
    low, high = sureness.cocked_band
    if low <= die.cocked_probability < high:
        found.add("borderline_cocked")
    if die.value is None or (not die.cocked and die.confidence < sureness.min_confidence):
        found.add("low_confidence")
    if calibration is not None:
        bar, frame = _edge_distances(die, calibration)
        if bar < sureness.edge_mm:
            found.add("near_bar")
        if frame < sureness.edge_mm:
            found.add("near_frame")
    if image_shape is not None:
        height, width = image_shape[:2]
        x0, y0, x1, y1 = die.box
        margin = sureness.picture_margin * max(x1 - x0, y1 - y0)
        if min(x0, y0, width - x1, height - y1) < margin:
            found.add("near_picture_edge")
    return tuple(d for d in DOUBTS if d in found)


def doubts(
    observation: ThrowObservation,
    calibration: Calibration | None = None,
    image_shape: tuple[int, ...] | None = None,
    sureness: Sureness = TOURNAMENT,
    checkers: Sequence[Checker] | None = None,
    sensed: bool = False,
) -> tuple[Doubt, ...]:
    """The doubts about a judged throw, in :data:`DOUBTS` order; empty when the call is sure. ``checkers``:
    where the checkers lie on the calibrated board (``vision.leaning``; None when not known); ``sensed``: a
    sensing board saw them lie there (they are where it says, not where the play typed last puts them)."""
    if observation.verdict is None:
        raise VisionError("only a judged throw can be sure or unsure (read_all judges nothing)")
    dice = observation.dice
    if len(dice) > 2:
        return ("third_object",)
    per_die = [die_doubts(d, calibration, image_shape, sureness) for d in dice]
    if calibration is not None and checkers is not None:
        per_die = [
            _leaning(d, own, [o for o in dice if o is not d], calibration, checkers, sensed)
            for d, own in zip(dice, per_die)
        ]
    if observation.verdict == "void":
        if any(_surely_voids(d, own, sureness) for d, own in zip(dice, per_die)):
            return ()
        if observation.reason == "dice_count" and not observation.unread_changes:
            return ()  # thrown again either way: a die off the board is not seen either
    found = {d for own in per_die for d in own}
    if observation.reason == "dice_count":
        found.add("die_unseen")  # something changed on the board where no die was read: a die missed?
    return tuple(d for d in DOUBTS if d in found)


def _leaning(
    die: DieReading,
    own: tuple[Doubt, ...],
    others: Sequence[DieReading],
    calibration: Calibration,
    checkers: Sequence[Checker],
    sensed: bool,
) -> tuple[Doubt, ...]:
    """A die's doubts once it is known what it could lean on: called cocked with nothing within reach, it is
    asked about; read flat with nothing within reach of the checkers a sensing board saw, it cannot be tilted,
    and a borderline cocked probability is no doubt (the referee's position alone may lag the board by a play:
    a checker it does not show yet could hold a cocked die up)."""
    if die.cocked:
        return (*own, "leans_on_nothing") if leans_on_nothing(die, others, calibration, checkers) else own
    if sensed and "borderline_cocked" in own and leans_on_nothing(die, others, calibration, checkers):
        return tuple(d for d in own if d != "borderline_cocked")
    return own


def _surely_voids(die: DieReading, own: tuple[Doubt, ...], sureness: Sureness) -> bool:
    """The die voids the throw beyond doubt: surely cocked (and with something to lean on, where that is
    known), or surely off the board or in the wrong half."""
    if die.cocked and die.cocked_probability >= sureness.cocked_band[1] and "leans_on_nothing" not in own:
        return True
    placed = not {"near_bar", "near_frame", "near_picture_edge"} & set(own)
    return placed and die.zone in ("off_board", "wrong_half")


def _edge_distances(die: DieReading, calibration: Calibration) -> tuple[float, float]:
    """How far (board millimetres) the die's centre lies from where the bar, and the frame, start to void."""
    bar, across, along = calibration.edges_mm(die.centre)
    return abs(bar + RESTS_ON_MM), min(abs(across + RESTS_ON_MM), abs(along + RESTS_ON_MM))
