"""The camera tools without a screen: the live camera calibrated again mid-match, a resumed match keeping the
director's corners, the board found from its markers, the throw drawn for a person, the dice faces counted for
the fairness picture; and every screen label in English."""

from __future__ import annotations

import queue
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from app.record.dice_counts import face_counts, thrown
from app.record.export import result_sheet
from app.referee import events as ev
from app.referee.setup import Mode
from app.table.camera import Image, LiveCamera
from app.table.dice import shot
from app.table.fairness import fairness_image
from app.table.live import LiveStation
from app.table.view import throw_picture
from app.ui.controller import Controller
from app.ui.labels import _LABELS, label
from rules.position import Color
from tests.app.table import Table
from tests.app.test_livecamera import Task, drain
from tests.vision.test_markers import TRUE_CORNERS, photographed
from vision import Calibration, DieReading, ThrowObservation
from vision.annotate import DOUBT, VOID
from vision.train.heldout import throw_video

PIN = "2468"


def frames_folder(tmp_path: Path, throws: int) -> tuple[Path, list[tuple[float, float]]]:
    """A folder of a rendered throw's frames, repeated ``throws`` times (a camera watching several throws)."""
    video = throw_video(2, size=(960, 540))
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, frame in enumerate(video.frames * throws):
        cv2.imwrite(str(folder / f"{i:04d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return folder, [(float(x), float(y)) for x, y in video.corners]


def test_the_live_camera_reads_on_the_new_corners_once_calibrated_again(tmp_path: Path) -> None:
    folder, corners = frames_folder(tmp_path, 6)
    tasks: queue.Queue[Task] = queue.Queue()
    throws: list[ThrowObservation] = []
    links: list[tuple[bool, str]] = []

    def throw(image: Image, observation: ThrowObservation) -> None:
        throws.append(observation)

    camera = LiveCamera(str(folder), tasks.put, throw, lambda up, detail: links.append((up, detail))).start()
    moved = Calibration.from_corners([(x + 5, y - 3) for x, y in corners])
    try:
        camera.arm(Calibration.from_corners(corners))
        drain(tasks, lambda: len(throws) >= 1)
        camera.recalibrate(moved)
        drain(tasks, lambda: any("set again" in detail for _, detail in links))
        drain(tasks, lambda: not camera.alive)  # it reads on to the end of the pictures
    finally:
        camera.close()
    assert links[0] == (True, f"{folder}: corners tapped") and (True, f"{folder}: corners set again") in links
    assert camera.calibration == moved and len(throws) >= 2  # still one event per throw, on the new board
    assert camera.frame_rate is not None and camera.frame_rate > 0


def test_a_resumed_match_reads_on_the_corners_the_director_set_again(tmp_path: Path) -> None:
    folder, corners = frames_folder(tmp_path, 1)
    tasks: queue.Queue[Task] = queue.Queue()
    controller = Controller(tmp_path, LiveStation(camera=str(folder), post=tasks.put), language="en", post=tasks.put)
    moved = Calibration.from_corners([(x + 5, y - 3) for x, y in corners])
    try:
        assert controller.camera_picture() is not None
        assert controller.start(("A", "B"), "backgammon", 3, Mode.TOURNAMENT, 10, 12, PIN) is None
        assert controller.recalibrate("1111", moved).codes == ["pin_refused"]
        assert controller.calibration is None  # a wrong PIN changes nothing
        assert controller.recalibrate(PIN, moved, "markers").codes == ["calibrated"]
        calibration = controller.board_calibration()
        assert calibration is not None and calibration is controller.calibration
        assert np.allclose(calibration.corners, moved.corners, atol=0.06)  # journaled to 0.1 px
        controller.send(ev.ManualDice((3, 1)))  # the match goes on
    finally:
        controller.close()
    again = Controller(tmp_path, LiveStation(camera=str(folder), post=tasks.put), language="en", post=tasks.put)
    try:
        assert again.resume(tmp_path / "match.sqlite") is None
        session = again.session
        assert session is not None and session.resumed is not None and session.resumed.mismatches == ()
        assert again.calibration is not None
        assert np.allclose(again.calibration.corners, moved.corners, atol=0.06)  # journaled to 0.1 px
    finally:
        again.close()


def test_the_opening_throw_is_drawn_with_no_die_in_a_wrong_half() -> None:
    table = Table()
    calibration = Calibration.from_corners([(100.0, 50.0), (1180.0, 50.0), (1180.0, 670.0), (100.0, 670.0)])
    image = np.full((720, 1280, 3), 90, np.uint8)
    dice = (
        DieReading(5, (900, 300, 930, 330), False, 0.99, "right_half"),
        DieReading(2, (300, 300, 330, 330), False, 0.99, "wrong_half"),
    )
    taken = shot(image, ThrowObservation("valid", None, dice), table.referee, calibration)
    assert taken.thrower is None and taken.event.values == (5, 2)
    drawn = throw_picture(taken)
    red = np.all(drawn == np.array(VOID, np.uint8), axis=2)
    assert not red.any()  # one die in each player's half is the opening, not a die in the wrong half


def test_the_faces_of_the_match_are_counted_for_the_sheet_and_the_picture() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    table.send(ev.DiceObserved((6, 6)))
    table.move((24, 18), (24, 18), (13, 7), (13, 7))
    table.press()
    assert thrown(table.referee) == [(3, 1), (6, 6)]
    assert face_counts(thrown(table.referee)) == (1, 0, 1, 0, 0, 2)
    sheet = result_sheet(table.referee, "1:abc", "en")
    assert "Dice faces: 1: 1  2: 0  3: 1  4: 0  5: 0  6: 2  (2 throws" in sheet
    assert "Zar yüzleri: 1: 1" in result_sheet(table.referee, "1:abc", "tr")
    assert fairness_image(table.referee).shape == (300, 720, 3)


def test_an_unsure_throw_is_drawn_as_unsure_in_amber() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    calibration = Calibration.from_corners([(100.0, 50.0), (1180.0, 50.0), (1180.0, 670.0), (100.0, 670.0)])
    image = np.full((720, 1280, 3), 90, np.uint8)
    dice = (  # Black (top) throws into its right-hand half, the picture's left; one value hard to read
        DieReading(5, (300, 300, 330, 330), False, 0.80, "wrong_half"),
        DieReading(2, (400, 400, 430, 430), False, 0.99, "wrong_half"),
    )
    taken = shot(image, ThrowObservation("valid", None, dice), table.referee, calibration)
    assert isinstance(taken.event, ev.ThrowQuestioned) and taken.thrower is Color.BLACK
    head = throw_picture(taken)[:60, :700]
    sure = throw_picture(replace(taken, event=ev.DiceObserved((5, 2), thrower=taken.thrower)))[:60, :700]
    amber = np.array(DOUBT, np.uint8)
    assert np.all(head == amber, axis=2).sum() > 200 and not np.all(sure == amber, axis=2).any()


def test_every_screen_label_reads_in_english_too() -> None:
    """A Turkish label missing in English showed its key ("event_hint" on the English set-up screen, "sure" on a
    take or drop asking for a second tap). The set-up
    check's advice is the one exception: in English the screen shows vision's own words."""
    missing = {key for key in _LABELS["tr"] if key not in _LABELS["en"] and not key.startswith("advice_")}
    assert missing == set()
    assert label("event_hint", "en") == "Club night" and label("sure", "en") == "Sure? Tap again:"


def test_the_director_finds_the_board_from_its_markers_or_is_told_which_is_missing(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0000.png"), photographed())
    tasks: queue.Queue[Task] = queue.Queue()
    controller = Controller(tmp_path, LiveStation(camera=str(folder), post=tasks.put), language="en", post=tasks.put)
    try:
        found = controller.find_markers()
        assert isinstance(found, Calibration)
        assert np.abs(np.array(found.corners) - TRUE_CORNERS).max() < 3.0
        assert controller.start(("A", "B"), "backgammon", 3, Mode.TOURNAMENT, 10, 12, PIN) is None
        reaction = controller.recalibrate(PIN, found, "markers")
        assert "from the corner markers" in controller.text(reaction.rulings[0])
    finally:
        controller.close()
    covered = photographed()
    covered[:160, :480] = (40, 90, 40)  # a hand over the top-left marker
    (folder / "0000.png").unlink()
    cv2.imwrite(str(folder / "0000.png"), covered)
    controller = Controller(
        tmp_path / "again", LiveStation(camera=str(folder), post=tasks.put), language="en", post=tasks.put
    )
    try:
        problem = controller.find_markers()
        assert isinstance(problem, str) and "marker(s) 0 not seen" in problem
    finally:
        controller.close()
