"""Learning the match dice: the station's dice reader, the dice set it has learned, and the throws people
confirm, at set-up and all through the match.

A match is played with one pair of dice under one lamp for an hour. Before it the referee throws them about ten
times and the players confirm each reading; during it every unsure throw people confirm or correct is a
confirmed throw too. Each one goes into the dice set's profile at once (:class:`vision.adapt.AdaptedClassifier`)
and is saved in the station's data folder, so the next match with the same dice starts from it. Nothing here
changes a ruling: the referee sees the camera's events as they were read, and learning only changes how later
throws are read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, Sequence, Union

from app.record.library import DiceSets
from app.record.session import Session
from app.referee import events as ev
from app.referee.rulings import Reaction
from app.table.dice import Image, Shot, die_crops
from app.table.why import Why
from vision import DiceReader, DieReading, Reader, ThrowObservation, VisionError
from vision.adapt import AdaptedClassifier, DiceProfile, FeatureReader, LearnedWithAnotherModel, Said, examples
from vision.crop_reader import OnnxModel
from vision.reader import DEFAULT_HEAD
from vision.verdict import Boxes

LEARNING_THROWS = 10
"""Throws confirmed at set-up before the reader knows a pair of dice well."""

TOOK_EFFECT = {"dice", "opening_won", "opening_tie"}
"""The rulings by which a throw's dice took effect."""


@dataclass(frozen=True)
class PracticeThrow:
    """A settled throw of the learning step: the picture and every die the reader found in it, left to right."""

    image: Image
    dice: tuple[DieReading, ...]
    not_dice: Boxes = ()
    """What the reader found and called not a die (``ThrowObservation.not_dice``): learned as such with the dice."""

    @classmethod
    def of(cls, image: Image, observation: ThrowObservation) -> PracticeThrow:
        """The learning step's throw as the reader read it."""
        return cls(image, observation.dice, observation.not_dice)

    def crops(self) -> list[Image]:
        """Each die's part of the picture, for the players to count its pips."""
        return die_crops(self.image, self.dice)

    def proposed(self) -> list[int | None]:
        """What each die starts as on the screen: its reading (an unreadable one starts at 1, to be picked)."""
        return [die.value if die.value is not None else 1 for die in self.dice]


class MatchDice:
    """The station's dice reader and the dice set it reads with (``sets``: where the station keeps them).

    The camera's thread reads with one copy of the second stage and the tablet's main thread learns with
    another, both bound to the same profile, so a confirmation never waits for a throw being read and the
    next throw is read with what it taught."""

    def __init__(self, sets: DiceSets | None = None) -> None:
        self.sets = sets if sets is not None else DiceSets()
        self.profile: DiceProfile | None = None
        """The dice set in use (None: none chosen, the second stage as trained)."""
        blank = DiceProfile("")
        self._reading = AdaptedClassifier(FeatureReader(OnnxModel(DEFAULT_HEAD)), blank)
        self._learning = AdaptedClassifier(FeatureReader(OnnxModel(DEFAULT_HEAD)), blank)

    @property
    def name(self) -> str:
        """The dice set in use ("" for none)."""
        return self.profile.name if self.profile is not None else ""

    @property
    def confirmed(self) -> int:
        """Dice confirmed so far in the set in use (what was learned as not a die is not counted)."""
        return self.profile.dice if self.profile is not None else 0

    def reader(self) -> Reader:
        """A reader for the camera (made in its thread): it reads with the dice set in use."""
        return DiceReader(classifier=self._reading)

    def use(self, name: str, relearn: bool = False) -> Why | None:
        """Read with the dice set ``name`` from now on (learned before, or new); why not, for the screen. A set
        learned with another dice model (before an update) is learned again from the dice pictures it keeps,
        and saved so; one saved before they were kept is refused, or with ``relearn`` (the learning step)
        started again from nothing under its name: its old examples are replaced at the first confirmation."""
        try:
            path = self.sets.path(name)
            profile = DiceProfile.load(path) if path.is_file() else DiceProfile(name.strip())
            if relearn and not self._learning.can_read_with(profile):
                profile = DiceProfile(profile.name)
            learned_elsewhere = not self._reading.learned_here(profile)
            for classifier in (self._reading, self._learning):
                classifier.use(profile)  # the first learns it again here, in place, if need be
            if learned_elsewhere:
                try:
                    profile.save(path)  # learned again with this model: not again at the next match
                except OSError:
                    pass  # it reads as learned all the same; the next confirmation's save says what is wrong
        except LearnedWithAnotherModel as error:
            return Why("dice_set_other_model", {"name": error.name})
        except (ValueError, VisionError) as error:
            return Why.said(str(error))
        self.profile = profile
        return None

    def forget(self) -> None:
        """Read with no dice set: the second stage as trained."""
        self.profile = None
        blank = DiceProfile("")
        for classifier in (self._reading, self._learning):
            classifier.use(blank)

    def confirm(
        self,
        image: Image,
        dice: tuple[DieReading, ...],
        values: Sequence[Said],
        not_dice: Boxes = (),
    ) -> Why | None:
        """People said what each die found is (its value, "cocked", None: not a die): learned at once and
        saved, with what the reader itself called not a die when people said which two are the dice
        (:func:`vision.adapt.examples`); why not."""
        if self.profile is None:
            return Why("dice_set_first")
        if not dice and not values:
            return None  # nothing found, nothing said: nothing to learn
        try:
            self._learning.confirm(*examples(image, dice, values, not_dice))
            self.profile.save(self.sets.path(self.profile.name))
        except (VisionError, ValueError, OSError) as error:
            return Why.said(str(error))
        return None


def assign(dice: tuple[DieReading, ...], settled: tuple[int, int], opening: bool) -> tuple[int, int] | None:
    """Which of the two dice found showed which of the values that took effect, or None when that cannot be
    told (not two dice found; a correction of both values of two different dice): nothing is learned from a
    guess. The opening throw's values are White's die (in the bottom player's half) and Black's."""
    if len(dice) != 2:
        return None
    first, second = settled
    zones = [die.zone for die in dice]
    if opening and sorted(str(zone) for zone in zones) == ["right_half", "wrong_half"]:
        return (first, second) if zones[0] == "right_half" else (second, first)
    orders = sorted({(first, second), (second, first)})
    agree = {order: sum(die.value == value for die, value in zip(dice, order)) for order in orders}
    best = max(agree.values())
    winners = [order for order, count in agree.items() if count == best]
    if len(winners) > 1:
        return None
    return winners[0]


Answer = Union[ev.ThrowConfirmed, ev.ThrowCorrected, ev.RethrowCalled]
ANSWERED = {"throw_confirmed", "throw_corrected", "rethrow_called"}
"""The rulings by which the referee took a player's answer."""


def told(
    shot: Shot, answers: Sequence[Answer], settled: tuple[int, int] | None, cocked_void: bool, shown: bool = True
) -> dict[int, Said]:
    """What the answers that settled a questioned throw say each found die is (by its place in ``shot.dice``),
    and only that: the marks every answer agrees on (cocked, struck out as not a die); the values that took
    effect (``settled``) on the two dice left, when it is clear which showed which (:func:`assign`); the dice
    the reader called cocked, when everyone confirmed the throw void because of them (``cocked_void``). A plain
    rethrow says nothing of the dice. Marks made on another throw's pictures (``shown`` False: dice thrown
    while the question waited replaced them on the screen), or beyond the dice found, say nothing of these."""
    marks = [(set(a.cocked) if isinstance(a, ev.RethrowCalled) else set(), set(a.struck)) for a in answers]
    if not shown:
        marks = [(set(), set())] * len(marks)
    cocked: set[int] = set.intersection(*(c for c, _ in marks)) if marks else set()
    struck: set[int] = set.intersection(*(s for _, s in marks)) if marks else set()
    found = range(len(shot.dice))
    if any(index not in found for index in struck | cocked):
        return {}
    said: dict[int, Said] = {index: None for index in struck}
    if settled is not None:
        left = [index for index in found if index not in struck]
        values = assign(tuple(shot.dice[i] for i in left), settled, opening=shot.thrower is None)
        said.update(zip(left, values or ()))
        return said
    if cocked_void and answers and all(isinstance(answer, ev.ThrowConfirmed) for answer in answers):
        cocked |= {index for index in found if shot.dice[index].cocked and index not in struck}
    said.update((index, "cocked") for index in cocked)
    return said


@dataclass(frozen=True)
class Settled:
    """A camera throw settled: what each die found is (by its place in ``shot.dice``), as far as that is known,
    and who said so: "people" (the players or the director answered the question it raised, :func:`told`) or
    "camera" (a sure call: the reading itself, which nobody questioned)."""

    shot: Shot
    said: dict[int, Said]
    by: Literal["people", "camera"]


def camera_said(shot: Shot) -> dict[int, Said]:
    """What a sure call says each die is: its value, or "cocked"; a die it could not read says nothing."""
    return {
        index: "cocked" if die.cocked else die.value
        for index, die in enumerate(shot.dice)
        if die.cocked or die.value is not None
    }


class ThrowFollower:
    """Follows the session's camera throws to their settling, for whatever learns from them or keeps them. Called
    with every event the session took and its reaction: :attr:`arrived` is the camera's throw that event
    brought (None for any other event), and the call returns the throws it settled.

    A sure call is settled as it arrives; a questioned one when the referee has taken the answers that end the
    question (``last_shot`` is the camera's last throw: its picture and dice)."""

    def __init__(self, session: Session, last_shot: Callable[[], Shot | None]) -> None:
        self.session = session
        self.last_shot = last_shot
        self.arrived: Shot | None = None
        self.pending: Shot | None = None
        """The questioned throw waiting for its answers."""
        self.answers: list[Answer] = []
        """The answers the referee took to it so far."""
        self.asked_at = -1
        """The event number that raised the question waiting (the referee's ``Question.at``)."""
        self._seen: Shot | None = None

    def __call__(self, event: ev.Event, reaction: Reaction) -> list[Settled]:
        self.arrived = None
        shot = self.last_shot() if isinstance(event, (ev.DiceObserved, ev.ThrowQuestioned)) else None
        read = shot if shot is not None and shot.event == event else None  # this event is that shot's reading
        if read is not None and read is not self._seen:
            self._seen = self.arrived = read
        sure = self.arrived if isinstance(event, ev.DiceObserved) else None
        settled = [Settled(sure, camera_said(sure), "camera")] if sure is not None else []
        answered = self._answered(event, reaction, read)
        return settled + ([answered] if answered is not None else [])

    def _answered(self, event: ev.Event, reaction: Reaction, read: Shot | None) -> Settled | None:
        referee = self.session.referee
        question = referee.question
        if isinstance(event, ev.ThrowQuestioned):
            if question is not None and question.at == self.asked_at:
                return None  # dice thrown while the question waits: the question is still about the first throw
            asked = question is not None and read is not None
            self.pending = read if asked else None
            self.answers = []
            self.asked_at = question.at if question is not None and asked else -1
            return None
        if self.pending is None:
            return None
        codes = {ruling.code for ruling in reaction.rulings}
        if isinstance(event, (ev.ThrowConfirmed, ev.ThrowCorrected, ev.RethrowCalled)) and codes & ANSWERED:
            self.answers.append(event)
        if question is not None:
            return None  # it still waits (another answer, or the director)
        shot, self.pending = self.pending, None
        answers, self.answers = self.answers, []
        settled = referee.last_throw if codes & TOOK_EFFECT else None
        cocked_void = any(r.code == "void_throw" and r.params.get("reason") == "cocked" for r in reaction.rulings)
        return Settled(shot, told(shot, answers, settled, cocked_void, shown=self.last_shot() is shot), "people")


class KeepLearning:
    """Listens to the session: an unsure throw the players (or the director) settled teaches its dice to the
    dice set in use, as far as the answers say what each die is (:func:`told`). ``last_shot`` is the camera's
    last throw (its picture and dice). A sure call teaches nothing: the reader would learn its own readings."""

    def __init__(self, session: Session, dice: MatchDice, last_shot: Callable[[], Shot | None]) -> None:
        self.dice = dice
        self.follow = ThrowFollower(session, last_shot)
        self.learned = 0
        """Throws learned during this match."""

    def __call__(self, event: ev.Event, reaction: Reaction) -> None:
        for settled in self.follow(event, reaction):
            if settled.by != "people" or not settled.said:
                continue
            said, shot = settled.said, settled.shot
            places = sorted(said)
            dice = tuple(shot.dice[index] for index in places)
            if self.dice.confirm(shot.image, dice, [said[index] for index in places], shot.not_dice) is None:
                self.learned += 1
