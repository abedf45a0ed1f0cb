"""Sure or unsure: the doubts in one reading, so that no doubtful call takes effect without a person.

The reader's verdict is automatic only when nothing about it is in doubt (docs/rules.md section 5). A doubt
is a die value read with too little confidence, a cocked probability near the reader's decision, a die whose
centre lies near a line that changes the verdict (the bar, the frame's inner edge: the thrower's half ends
there) or near the picture's edge (part of it may be cut off), or a third object read as a die. The
thresholds are a :class:`Sureness` setting: strict for tournaments, looser for casual play.

A void throw that some die voids beyond doubt (a die surely off the board or in the wrong half) stays sure
whatever else is doubtful: it is thrown again either way; so does a throw with a die not seen (``dice_count``: a
die off the board is not seen either), unless the board changed where no die was read
(``ThrowObservation.unread_changes``) or by more than the dice read and one more
(``ThrowObservation.changed_dice``: two touching dice read as one): then a die may have been missed, and the
throw is a ``die_unseen`` question.

A cocked call is a referee's call on physical evidence: the die's top face not parallel to the board and
something it rests on. The cocked look's probability is not that evidence: on throws drawn by a scene builder
the project did not write, flat dice were called cocked at 0.75 and more as often as cocked ones
(tests/vision/bench_foreign.py), so a die called cocked is a ``borderline_cocked`` question ("a die may be
cocked"), and a ``leans_on_nothing`` one too where the station knows nothing lies within its reach; never an
automatic rethrow. A die against the frame's or the bar's wall (``AGAINST``) may lean on it whatever the look
says: ``near_frame`` or ``near_bar``. A reading much larger than the station's dice (the doubling cube, a checker) is a
``third_object`` question. Where the station knows where the checkers lie, a die called cocked with
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

from vision.calibration import Calibration
from vision.errors import VisionError
from vision.leaning import Checker, die_side_mm, leans_on_nothing
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
"""Both settings' cocked band ends here: a die called cocked with nothing within reach is asked about as
``leans_on_nothing`` alone from here, and with ``borderline_cocked`` too below (a cocked call is a question
either way: the module's note). Away from the renders the look learned from, 0.75 is no proof: of the dice of
shared/foreign_renders it gave 0.75 or more, fewer than half were cocked (``python -m tests.vision.bench_foreign``
prints the reliability diagram and the expected calibration error)."""
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
AGAINST = 0.75
"""A die whose centre lies within this many die sides of the bar's or the frame's wall may lean on it: a die the
look reads flat there is asked about too. On shared/foreign_renders every die leaning on a wall lay within 0.73
(16 dice, two of them read flat at 0.01 and 0.09), and 6 of 190 flat dice."""
NOT_A_DIE_FROM = 2.5
"""A reading whose box is this many of the station's die sides (board millimetres) may be no die: the 190 flat
dice of shared/foreign_renders read on their measured boards at 1.2-2.4 (median 1.6: a box holds the die's sides
and shadow), so a doubling cube from about 27 mm beside 16.5 mm dice reads beyond; a smaller cube does not, and
the size alone cannot tell it."""


def die_doubts(
    die: DieReading,
    calibration: Calibration | None = None,
    image_shape: tuple[int, ...] | None = None,
    sureness: Sureness = TOURNAMENT,
) -> tuple[Doubt, ...]:
    """The doubts about one die, in :data:`DOUBTS` order (a die that could not be read at all is in doubt)."""
    found: set[Doubt] = set()
    low, high = sureness.cocked_band
    if low <= die.cocked_probability < high or die.cocked:
        found.add("borderline_cocked")  # a cocked call is never sure by the look alone (see above)
    if die.value is None or (not die.cocked and die.confidence < sureness.min_confidence):
        found.add("low_confidence")
    if calibration is not None:
        bar, frame = _edge_distances(die, calibration)
        to_bar, across, along = calibration.edges_mm(die.centre)
        against = AGAINST * calibration.board.die_mm  # a die this close may lean on the wall, whatever the look
        if bar < sureness.edge_mm or 0 <= to_bar < against:
            found.add("near_bar")
        if frame < sureness.edge_mm or 0 <= min(across, along) < against:
            found.add("near_frame")
        if die_side_mm(die, calibration) >= NOT_A_DIE_FROM * calibration.board.die_mm:
            found.add("third_object")
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
            _leaning(d, own, [o for o in dice if o is not d], calibration, checkers, sensed, sureness)
            for d, own in zip(dice, per_die)
        ]
    if observation.verdict == "void":
        if any(_surely_voids(d, own) for d, own in zip(dice, per_die)):
            return ()
        if observation.reason == "dice_count" and not observation.unread_changes and not _more_changed(observation):
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
    sureness: Sureness,
) -> tuple[Doubt, ...]:
    """A die's doubts once it is known what it could lean on: called cocked with nothing within reach, the
    question says so (``leans_on_nothing`` alone when the look was sure beyond the band); read flat with
    nothing within reach of the checkers a sensing board saw, it cannot be tilted, and a borderline cocked
    probability is no doubt (the referee's position alone may lag the board by a play: a checker it does not
    show yet could hold a cocked die up)."""
    if die.cocked:
        if not leans_on_nothing(die, others, calibration, checkers):
            return own
        if die.cocked_probability >= sureness.cocked_band[1]:
            own = tuple(d for d in own if d != "borderline_cocked")
        return (*own, "leans_on_nothing")
    if sensed and "borderline_cocked" in own and leans_on_nothing(die, others, calibration, checkers):
        return tuple(d for d in own if d != "borderline_cocked")
    return own


def _more_changed(observation: ThrowObservation) -> bool:
    """Fewer dice read than a throw needs, where the board changed by more than the dice read and one more."""
    return len(observation.dice) < 2 and observation.changed_dice > len(observation.dice) + 1


def _surely_voids(die: DieReading, own: tuple[Doubt, ...]) -> bool:
    """The die voids the throw beyond doubt: surely off the board or in the wrong half (a cocked call needs a
    person: see above)."""
    placed = not {"near_bar", "near_frame", "near_picture_edge"} & set(own)
    return placed and die.zone in ("off_board", "wrong_half")


def _edge_distances(die: DieReading, calibration: Calibration) -> tuple[float, float]:
    """How far (board millimetres) the die's centre lies from where the bar, and the frame, start to void."""
    bar, across, along = calibration.edges_mm(die.centre)
    rests = calibration.board.rests_on_mm
    return abs(bar + rests), min(abs(across + rests), abs(along + rests))
