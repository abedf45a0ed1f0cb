"""Learning the match dice: the set-up step's confirmed throws and every unsure throw the players confirm or
correct during the match reach the dice set's profile, which is saved at once and reloaded for the next match;
the referee's rulings and the journal's replay are untouched."""

from __future__ import annotations

import queue
from dataclasses import replace
from pathlib import Path
from typing import Callable

import cv2
import numpy as np
import pytest

from app.record.library import DiceSets
from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from app.referee.setup import MatchSetup
from app.sim.camera import SimulatedCamera
from app.sim.station import SimStation
from app.table.dice import Shot
from app.table.learning import KeepLearning, MatchDice, assign
from app.table.live import LiveStation
from app.ui.controller import Controller
from app.ui.labels import why_text
from rules.position import Color
from tests.app.test_livecamera import drain
from vision import Calibration, DieReading
from vision.adapt import DiceProfile, model_digest
from vision.crop_reader import CLASS_COCKED, CLASS_NOT_DIE
from vision.reader import DEFAULT_HEAD
from vision.train.heldout import throw_video

NAME = "kulüp kırmızı"


def die(value: int | None, zone: str = "right_half", x: int = 100) -> DieReading:
    return DieReading(value, (x, 100, x + 30, 130), False, 0.9 if value else 0.4, zone)  # type: ignore[arg-type]


def test_which_die_showed_which_value_is_learned_only_when_it_is_clear() -> None:
    read = (die(3, x=100), die(5, x=200))
    assert assign(read, (5, 3), opening=False) == (3, 5)  # confirmed: each die as read, whatever the order
    assert assign(read, (6, 3), opening=False) == (3, 6)  # one value corrected: the other die kept its own
    assert assign(read, (4, 4), opening=False) == (4, 4)  # a double: both dice show it
    assert assign(read, (6, 2), opening=False) is None  # both corrected: which is which is a guess
    assert assign((die(None), die(None, x=200)), (6, 2), opening=False) is None
    assert assign((die(3),), (3, 3), opening=False) is None  # not two dice found
    opening = (die(2, "wrong_half", 100), die(2, "right_half", 200))  # White's die lies in White's half
    assert assign(opening, (6, 1), opening=True) == (1, 6)


def test_a_dice_set_needs_a_file_name(tmp_path: Path) -> None:
    dice = MatchDice(DiceSets(tmp_path))
    assert "name the dice set" in str(dice.use("../elsewhere"))
    assert dice.profile is None


@pytest.mark.parametrize("language", ["en", "tr"])
def test_a_dice_set_learned_with_an_earlier_model_is_refused_in_the_screen_s_language(
    tmp_path: Path, language: str
) -> None:
    """A station updated to a new dice model: a dice set learned before cannot be read with it (its features
    came from the old model); the set-up screen says so, by name, and the reader keeps reading as trained. The
    learning step learns it again under the same name."""
    sets = DiceSets(tmp_path)
    old = DiceProfile(NAME, model="0123456789abcdef")
    old.add(np.ones((2, 64), np.float32), np.zeros((2, 8), np.float32), np.array([0, 5], np.int64))
    old.save(sets.path(NAME))
    dice = MatchDice(sets)
    refused = dice.use(NAME)
    problem = why_text(refused, language) if refused is not None else ""
    assert NAME in problem and ("again" in problem if language == "en" else "yeniden" in problem)
    assert dice.profile is None and dice.name == ""
    assert dice.use("a new set") is None and dice.name == "a new set"  # a new set is learned with this model
    # the learning step starts the set again under its name; the first confirmation replaces the old examples
    assert dice.use(NAME, relearn=True) is None and dice.name == NAME and dice.confirmed == 0
    picture = np.random.default_rng(0).integers(0, 256, (240, 320, 3), dtype=np.uint8)
    assert dice.confirm(picture, (die(3), die(5, x=200)), [3, 5]) is None
    again = MatchDice(sets)
    assert again.use(NAME) is None and again.confirmed == 2


def test_a_dice_set_learned_with_an_earlier_model_is_learned_again_from_its_dice_pictures(tmp_path: Path) -> None:
    """A station updated to a new dice model: a dice set that kept its dice pictures is learned again from them
    when it is chosen, saved so, and read with at once; nobody throws the dice again."""
    sets = DiceSets(tmp_path)
    rng = np.random.default_rng(3)
    old = DiceProfile(NAME, model="0123456789abcdef")
    crops = rng.integers(0, 256, (2, 48, 48, 3), dtype=np.uint8)
    old.add(np.ones((2, 64), np.float32), np.zeros((2, 8), np.float32), np.array([0, 5], np.int64), crops)
    old.save(sets.path(NAME))
    dice = MatchDice(sets)
    assert dice.use(NAME) is None and dice.name == NAME and dice.confirmed == 2
    saved = DiceProfile.load(sets.path(NAME))
    assert saved.model == model_digest(DEFAULT_HEAD) and np.array_equal(saved.crops, crops)
    assert not np.array_equal(saved.features, old.features)  # the new model's own features of the same dice


@pytest.fixture(scope="module")
def practised(tmp_path_factory: pytest.TempPathFactory) -> tuple[Controller, Path]:
    """The learning step through the controller with the simulated camera: three throws, the third with one
    die struck out as not a die."""
    folder = tmp_path_factory.mktemp("learn")
    controller = Controller(folder, SimStation(match_dice=MatchDice(DiceSets(folder))))
    assert controller.learn_dice(NAME) is None
    for n in range(3):
        controller.sim_practice()
        throw = controller.practice
        assert throw is not None and len(throw.dice) == 2, "the simulated camera found both dice"
        values = throw.proposed()
        if n == 2:
            values[1] = None
        assert controller.confirm_practice(values) is None
        assert controller.practice is None  # the next throw, please
    return controller, folder


def test_each_confirmed_throw_of_the_learning_step_is_learned_and_kept(practised: tuple[Controller, Path]) -> None:
    controller, folder = practised
    assert controller.practiced == 3 and controller.match_dice.confirmed == 5  # the one struck out is no die
    saved = DiceProfile.load(DiceSets(folder).path(NAME))
    assert saved.name == NAME and saved.examples == 6
    assert list(saved.labels).count(CLASS_NOT_DIE) == 1  # the die struck out, learned as "not a die"


def test_a_dice_set_is_listed_and_reused_by_the_next_match(practised: tuple[Controller, Path]) -> None:
    _, folder = practised
    later = MatchDice(DiceSets(folder))
    assert later.sets.names() == [NAME]
    assert later.use(NAME) is None and later.confirmed == 5


class Table:
    """A match whose camera throws are submitted as the station does, and whose unsure throws people answer."""

    def __init__(self, folder: Path, dice: MatchDice) -> None:
        self.path = folder / "match.sqlite"
        self.session = Session.create(self.path, MatchSetup(dice_profile=dice.name))
        self.camera = SimulatedCamera(1, reader=dice.reader())
        self.last: Shot | None = None
        self.shots: list[Shot] = []
        """Every questioned throw's shot, in order."""
        self.learner = KeepLearning(self.session, dice, lambda: self.last)
        self.session.listeners.append(self.learner)

    def unsure_opening(self, values: tuple[int, int]) -> Shot:
        """An opening throw the camera read, asked of the players (as an unsure call is)."""
        taken = self.camera.shoot(ev.DiceObserved(values), self.session.referee)
        event = ev.ThrowQuestioned(values, None, ("low_confidence",), (0.6, 0.6), None)
        self.last = replace(taken, event=event)
        self.session.submit(event)
        assert self.session.referee.stage is Stage.QUESTION and len(taken.dice) == 2, "the camera found both dice"
        return self.last


def test_unsure_throws_confirmed_or_corrected_in_the_match_are_learned(tmp_path: Path) -> None:
    dice = MatchDice(DiceSets(tmp_path))
    assert dice.use(NAME) is None
    table = Table(tmp_path, dice)
    table.unsure_opening((4, 4))
    table.session.submit(ev.ThrowConfirmed(Color.WHITE))
    assert dice.confirmed == 0  # one of the two players answered: it has not taken effect yet
    table.session.submit(ev.ThrowConfirmed(Color.BLACK))
    assert dice.confirmed == 2 and table.learner.learned == 1
    shot = table.unsure_opening((4, 4))
    for player in Color:
        table.session.submit(ev.RethrowCalled(player))
    assert dice.confirmed == 2  # thrown again: nothing is known of those dice
    shot = table.unsure_opening((6, 2))
    table.session.submit(ev.ThrowCorrected(Color.WHITE, (6, 2)))
    stray = table.camera.shoot(ev.DiceObserved((1, 1)), table.session.referee)  # dice thrown while it waits
    table.last = replace(stray, event=ev.ThrowQuestioned((1, 1), None, ("low_confidence",), (0.6, 0.6), None))
    table.session.submit(table.last.event)
    table.session.submit(ev.ThrowCorrected(Color.BLACK, (6, 2)))
    assert dice.confirmed == 4 and table.learner.learned == 2
    white = next(index for index, d in enumerate(shot.dice) if d.zone == "right_half")
    saved = DiceProfile.load(dice.sets.path(NAME))
    assert saved.examples == 4 and int(saved.labels[2 + white]) == 6 - 1 and int(saved.labels[3 - white]) == 2 - 1
    table.session.close()
    again = Session.open(table.path)  # learning changed no ruling: the journal replays exactly
    assert again.resumed is not None and again.resumed.mismatches == ()
    assert again.referee.setup.dice_profile == NAME and again.referee.stage is Stage.PLAY
    again.close()


def ask(
    table: Table,
    values: tuple[int, int],
    event: ev.ThrowQuestioned,
    extra: tuple[DieReading, ...] = (),
    cocked: int = -1,
) -> Shot:
    """An opening throw of ``values`` the camera found (with ``extra`` things beside; the die at ``cocked`` read
    as cocked), questioned as ``event``."""
    taken = table.camera.shoot(ev.DiceObserved(values), table.session.referee)
    found = tuple(d for d in taken.dice if d.zone != "off_board")  # the board's surroundings drawn in: left out
    assert len(found) == 2, "the camera found both dice"
    found = tuple(replace(d, cocked=place == cocked) for place, d in enumerate(found))
    table.last = replace(taken, dice=found + extra, event=event)
    table.shots.append(table.last)
    table.session.submit(event)
    assert table.session.referee.stage is Stage.QUESTION
    return table.last


def answer(table: Table, *answers: ev.Event) -> list[int]:
    """The players' answers; the classes learned from them."""
    profile = table.learner.dice.profile
    assert profile is not None
    before = profile.examples
    for event in answers:
        table.session.submit(event)
    assert table.session.referee.question is None, "the question is settled"
    return [int(label) for label in profile.labels[before:]]


UNSURE = ev.ThrowQuestioned((4, 4), None, ("borderline_cocked",), (0.6, 0.6), None)
THIRD = ev.ThrowQuestioned(None, ev.VoidReason.DICE_COUNT, ("third_object",), (0.9, 0.9, 0.5), None)


def practise_answers(table: Table) -> list[list[int]]:
    """Questioned opening throws answered in every way that voids them, and one corrected with a found thing
    struck out: what each taught."""
    white, black = Color.WHITE, Color.BLACK
    taught = []
    ask(table, (4, 4), UNSURE)
    taught.append(answer(table, ev.RethrowCalled(white), ev.RethrowCalled(black)))
    ask(table, (4, 4), UNSURE)
    taught.append(answer(table, ev.RethrowCalled(white, cocked=(1,)), ev.RethrowCalled(black, cocked=(1,))))
    ask(table, (4, 4), UNSURE)
    taught.append(answer(table, ev.RethrowCalled(white, cocked=(0,)), ev.RethrowCalled(black)))
    ask(table, (3, 3), ev.ThrowQuestioned(None, ev.VoidReason.COCKED, ("borderline_cocked",), (), None), cocked=0)
    taught.append(answer(table, ev.ThrowConfirmed(white), ev.ThrowConfirmed(black)))
    coin = DieReading(None, (40, 40, 70, 70), False, 0.5)
    ask(table, (5, 5), THIRD, (coin,))
    taught.append(answer(table, ev.RethrowCalled(white, struck=(2,)), ev.RethrowCalled(black, struck=(2,))))
    ask(table, (6, 2), THIRD, (coin,))
    taught.append(answer(table, ev.ThrowCorrected(white, (6, 2), (2,)), ev.ThrowCorrected(black, (6, 2), (2,))))
    assert table.session.referee.stage is Stage.PLAY  # the corrected opening throw took effect
    return taught


def test_a_settled_throw_teaches_what_the_reader_called_not_a_die_too(tmp_path: Path) -> None:
    dice = MatchDice(DiceSets(tmp_path))
    assert dice.use(NAME) is None
    table = Table(tmp_path, dice)
    taken = table.camera.shoot(ev.DiceObserved((5, 3)), table.session.referee)
    event = ev.ThrowQuestioned((5, 3), None, ("low_confidence",), (0.6, 0.6), None)
    table.last = replace(taken, event=event, not_dice=((20, 20, 60, 60),))  # a find the second stage dropped
    table.session.submit(event)
    for player in Color:
        table.session.submit(ev.ThrowConfirmed(player))
    saved = DiceProfile.load(dice.sets.path(NAME))
    assert table.learner.learned == 1 and saved.examples == 3 and dice.confirmed == 2
    assert sorted(int(label) for label in saved.labels) == [3 - 1, 5 - 1, CLASS_NOT_DIE]


def test_what_people_say_a_die_is_when_they_void_a_throw_is_learned_and_nothing_more(tmp_path: Path) -> None:
    dice = MatchDice(DiceSets(tmp_path))
    assert dice.use(NAME) is None
    table = Table(tmp_path, dice)
    plain, cocked, disagreed, void_confirmed, struck, corrected = practise_answers(table)
    assert plain == []  # a rethrow for no reason given says nothing of the dice
    assert cocked == [CLASS_COCKED]  # both players say the second die is cocked
    assert disagreed == []  # one says cocked, the other gives no reason: nothing is sure
    assert void_confirmed == [CLASS_COCKED]  # the reader's "cocked", confirmed: that die only
    assert struck == [CLASS_NOT_DIE]  # the third thing struck out; the rethrow says nothing of the dice
    assert sorted(corrected) == [2 - 1, 6 - 1, CLASS_NOT_DIE]  # both dice and the thing struck out
    assert table.learner.learned == 4
    saved = DiceProfile.load(dice.sets.path(NAME))
    assert saved.examples == 6 and dice.confirmed == 4  # the two things struck out are learned, not counted as dice
    table.session.close()
    again = Session.open(table.path)  # the marks changed no ruling: the journal replays exactly
    assert again.resumed is not None and again.resumed.mismatches == ()
    answers = [ev.event_from_dict(data) for _, _, data, _ in again.history() if data["kind"] == "rethrow_called"]
    assert ev.RethrowCalled(Color.WHITE, cocked=(1,)) in answers and ev.RethrowCalled(Color.BLACK) in answers
    again.close()


def test_marks_made_on_another_throw_s_pictures_teach_nothing(tmp_path: Path) -> None:
    dice = MatchDice(DiceSets(tmp_path))
    assert dice.use(NAME) is None
    table = Table(tmp_path, dice)
    ask(table, (4, 4), UNSURE)
    stray = table.camera.shoot(ev.DiceObserved((1, 1)), table.session.referee)  # thrown while the question waits
    table.last = replace(stray, event=ev.ThrowQuestioned((1, 1), None, ("low_confidence",), (0.6, 0.6), None))
    table.session.submit(table.last.event)  # the screen shows this throw's pictures now
    cocked = [ev.RethrowCalled(player, cocked=(0,)) for player in Color]
    assert answer(table, *cocked) == [] and dice.confirmed == 0


def test_the_journal_replayed_with_the_same_pictures_teaches_the_same_dice(tmp_path: Path) -> None:
    dice = MatchDice(DiceSets(tmp_path / "live"))
    assert dice.use(NAME) is None
    table = Table(tmp_path, dice)
    practise_answers(table)
    events = [ev.event_from_dict(data) for _, _, data, _ in table.session.history()]
    table.session.close()
    again = MatchDice(DiceSets(tmp_path / "replayed"))
    assert again.use(NAME) is None
    session = Session.create(tmp_path / "replayed.sqlite", MatchSetup(dice_profile=NAME))
    pictures = iter(table.shots)  # the journal keeps no pictures: each question's throw, in order
    shown: list[Shot] = []
    session.listeners.append(KeepLearning(session, again, lambda: shown[-1] if shown else None))
    for event in events:
        if isinstance(event, ev.ThrowQuestioned):
            shown.append(next(pictures))
        session.submit(event)
    session.close()
    live, replayed = (DiceProfile.load(d.sets.path(NAME)) for d in (dice, again))
    assert replayed.examples == live.examples == 6
    assert np.array_equal(replayed.labels, live.labels) and np.array_equal(replayed.features, live.features)


def test_an_answer_journaled_before_it_could_mark_dice_still_reads() -> None:
    old = {"kind": "rethrow_called", "by": "black"}
    assert ev.event_from_dict(old) == ev.RethrowCalled(Color.BLACK, cocked=(), struck=())
    marked = ev.RethrowCalled(Color.WHITE, cocked=[1], struck=[2, 0])  # type: ignore[arg-type]
    assert ev.event_from_dict(ev.event_to_dict(marked)) == marked and marked.struck == (0, 2)
    for bad in ({"cocked": (1,), "struck": (1,)}, {"struck": (9,)}, {"cocked": (True,)}, {"struck": (1, 1)}):
        with pytest.raises(ValueError):
            ev.RethrowCalled(Color.WHITE, **bad)
    assert ev.event_from_dict({"kind": "throw_confirmed", "by": "white"}) == ev.ThrowConfirmed(Color.WHITE)


def test_the_live_camera_reads_throws_for_the_learning_step_before_the_match(tmp_path: Path) -> None:
    video = throw_video(0, size=(960, 540))
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, frame in enumerate(video.frames):
        cv2.imwrite(str(folder / f"{i:04d}.png"), frame)
    tasks: queue.Queue[Callable[[], None]] = queue.Queue()
    controller = Controller(
        tmp_path,
        LiveStation(camera=str(folder), post=tasks.put, match_dice=MatchDice(DiceSets(tmp_path))),
        post=tasks.put,
    )
    try:
        assert controller.live_camera is not None and controller.live_camera.picture(wait_s=10.0) is not None
        controller.calibration = Calibration.from_corners([(float(x), float(y)) for x, y in video.corners])
        assert controller.learn_dice(NAME) is None  # the camera reads throws now, for the learning step
        drain(tasks, lambda: controller.practice is not None)
        throw = controller.practice
        assert throw is not None and controller.session is None  # no match yet: the referee heard nothing
        truth = list(video.values)
        answers: list[int | None] = []
        for found in throw.dice:  # the players say what each thing shows, striking out what is no die
            answers.append(truth.pop(truth.index(found.value)) if found.value in truth else None)
        assert not truth, f"the reader did not read both dice {video.values}: {[d.value for d in throw.dice]}"
        assert controller.confirm_practice(answers) is None
        saved = DiceProfile.load(DiceSets(tmp_path).path(NAME))
        assert controller.practiced == 1 and saved.examples == len(throw.dice)
        assert list(saved.labels).count(CLASS_NOT_DIE) == answers.count(None)
    finally:
        controller.close()


def test_a_resumed_match_reads_and_learns_with_its_own_dice_set(practised: tuple[Controller, Path]) -> None:
    _, folder = practised  # the set learned there: five dice and a thing struck out
    path = folder / "resumed" / "match.sqlite"
    path.parent.mkdir()
    Session.create(path, MatchSetup(dice_profile=NAME)).close()
    controller = Controller(path.parent, LiveStation(match_dice=MatchDice(DiceSets(folder))))
    try:
        assert controller.match_dice.name == ""  # nothing chosen on this tablet's set-up screen
        assert controller.resume(path) is None
        assert controller.match_dice.name == NAME and controller.match_dice.confirmed == 5
        session = controller.session
        assert session is not None and controller.keep_learning in session.listeners
    finally:
        controller.close()


def test_a_throw_with_nothing_found_teaches_nothing_and_a_miscount_is_refused(
    practised: tuple[Controller, Path],
) -> None:
    controller, _ = practised
    before = controller.match_dice.confirmed
    controller.sim_practice()
    throw = controller.practice
    assert throw is not None
    assert controller.match_dice.confirm(throw.image, (), []) is None  # an empty throw, confirmed: no harm
    problem = controller.confirm_practice([3])  # one answer for two dice found
    assert problem is not None and "say each one" in problem and controller.practice is throw
    assert controller.match_dice.confirmed == before
    controller.skip_practice()
