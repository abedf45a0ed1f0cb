"""The station keeps every throw's picture, and once the throw is settled, what its dice showed, in the real photo
sets' format: the values people gave where they answered, the camera's where its call was sure; nothing it
cannot say whole; and never at the cost of the match or its journal."""

from __future__ import annotations

import json
import queue
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from app.record.library import DiceSets
from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from app.referee.setup import Mode
from app.sim.station import SimStation
from app.table import throw_photos
from app.table.learning import MatchDice
from app.table.live import LiveStation
from app.table.throw_photos import ThrowPhotos
from app.ui.controller import Controller
from app.ui.labels import why_text
from rules.position import Color
from tests.app.test_camera_tools import frames_folder
from tests.app.test_learning import NAME, THIRD, UNSURE, Table, ask
from tests.app.test_livecamera import Task, drain
from tests.vision.bench_detector import scenes_of
from vision import DieReading
from vision.scoring import labelled_dice
from vision.train.crop_data import real_scenes


class KeptTable(Table):
    """A match whose camera throws are kept by a :class:`ThrowPhotos` in ``folder / "throws"``."""

    def __init__(self, folder: Path, photos: ThrowPhotos | None = None) -> None:
        dice = MatchDice(DiceSets(folder))
        assert dice.use(NAME) is None
        super().__init__(folder, dice)
        self.said: list[str] = []
        self.photos = photos or ThrowPhotos(folder / "throws", lambda why: self.said.append(str(why)))
        self.session.listeners.append(self.photos.listener(self.session, lambda: self.last))

    def sure(self, values: tuple[int, int]) -> None:
        """A throw the camera read surely, submitted as the station does."""
        self.last = self.camera.shoot(ev.DiceObserved(values), self.session.referee)
        assert isinstance(self.last.event, ev.DiceObserved), "the camera was sure of it"
        self.session.submit(self.last.event)

    def kept(self) -> dict[str, dict[str, object]]:
        """Every photo's record, by name."""
        folder = self.photos.folder
        return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}


def labels(folder: Path, name: str) -> list[tuple[int, float, float]]:
    """A label file's dice: value and box centre in pixels of its photo."""
    image = cv2.imread(str(folder / f"{name}.jpg"))
    assert image is not None, "the photo is a JPEG"
    h, w = image.shape[:2]
    return sorted((value, xc * w, yc * h) for value, xc, yc, _, _ in labelled_dice(folder / f"{name}.txt"))


def centres(dice: list[DieReading], values: list[int]) -> list[tuple[int, float, float]]:
    return sorted((v, (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2) for d, v in zip(dice, values))


def close(a: list[tuple[int, float, float]], b: list[tuple[int, float, float]]) -> bool:
    return [v for v, _, _ in a] == [v for v, _, _ in b] and np.allclose([p[1:] for p in a], [p[1:] for p in b], atol=1)


def test_a_corrected_throw_is_labelled_with_what_people_said_and_a_sure_one_with_the_camera_s_reading(
    tmp_path: Path,
) -> None:
    table = KeptTable(tmp_path)
    white = Color.WHITE
    shot = ask(table, (6, 2), THIRD, (DieReading(None, (40, 40, 70, 70), False, 0.5),))
    for player in Color:  # the camera found a third thing; both players say it is none and give the values
        table.session.submit(ev.ThrowCorrected(player, (6, 2), (2,)))
    assert table.session.referee.stage is Stage.PLAY
    table.sure((3, 1) if table.session.referee.mover is white else (1, 3))
    records = table.kept()
    assert len(records) == 2 and table.photos.kept == 2 and table.photos.labelled == 2
    (asked, asked_record), (surely, sure_record) = records.items()
    assert asked_record["event"] == "ThrowQuestioned" and asked_record["label"]["by"] == "people"  # type: ignore[index]
    dice = list(shot.dice[:2])
    opening_white = next(i for i, d in enumerate(dice) if d.zone == "right_half")
    values = [6, 2] if opening_white == 0 else [2, 6]
    assert close(labels(table.photos.folder, asked), centres(dice, values))
    assert sure_record["label"]["by"] == "camera"  # type: ignore[index]
    sure_shot = table.last
    assert sure_shot is not None and close(
        labels(table.photos.folder, surely), centres(list(sure_shot.dice), [d.value or 0 for d in sure_shot.dice])
    )
    kinds = {seq: event["kind"] for seq, _, event, _ in table.session.history()}
    assert [kinds[int(r["journal_seq"])] for r in records.values()] == ["throw_questioned", "dice_observed"]  # type: ignore[call-overload]


def test_dice_thrown_while_a_question_waits_stay_unlabelled_and_the_question_s_throw_gets_its_label(
    tmp_path: Path,
) -> None:
    table = KeptTable(tmp_path)
    asked = ask(table, (6, 2), UNSURE)
    table.session.submit(ev.ThrowCorrected(Color.WHITE, (6, 2)))
    stray = table.camera.shoot(ev.DiceObserved((1, 1)), table.session.referee)
    table.last = replace(stray, event=ev.ThrowQuestioned((1, 1), None, ("low_confidence",), (0.6, 0.6), None))
    table.session.submit(table.last.event)  # thrown while the question waits: the question is still the first's
    table.session.submit(ev.ThrowCorrected(Color.BLACK, (6, 2)))
    assert table.session.referee.stage is Stage.PLAY
    (first, first_record), (_, stray_record) = table.kept().items()
    assert table.photos.kept == 2 and table.photos.labelled == 1 and stray_record["label"] is None
    white = next(i for i, d in enumerate(asked.dice) if d.zone == "right_half")
    values = [6, 2] if white == 0 else [2, 6]
    assert first_record["label"]["by"] == "people"  # type: ignore[index]
    assert close(labels(table.photos.folder, first), centres(list(asked.dice), values))


def test_a_throw_nobody_can_label_whole_keeps_its_picture_without_a_label_file(tmp_path: Path) -> None:
    (tmp_path / "throws").mkdir()
    (tmp_path / "throws" / "x_00009.jpg.partial").write_bytes(b"\xff\xd8")  # a write cut off by a power cut
    table = KeptTable(tmp_path)
    ask(table, (4, 4), UNSURE)
    for player in Color:
        table.session.submit(ev.RethrowCalled(player))  # thrown again for no reason given: nothing said of the dice
    ask(table, (3, 3), ev.ThrowQuestioned(None, ev.VoidReason.COCKED, ("borderline_cocked",), (), None), cocked=0)
    for player in Color:
        table.session.submit(ev.ThrowConfirmed(player))  # the cocked call confirmed: YOLO has no class for it
    records = table.kept()
    assert len(records) == 2 and table.photos.labelled == 0
    assert not list(table.photos.folder.glob("*.txt")) and not list(table.photos.folder.glob("*.partial"))
    rethrown, cocked = records.values()
    assert rethrown["label"] == {"by": "people", "dice": [], "whole": False}
    said = cocked["label"]["dice"]  # type: ignore[index]
    assert [d["is"] for d in said] == ["cocked"] and said[0]["box"] == cocked["dice"][0]["box"]  # type: ignore[index]


def test_keeping_photos_never_stops_the_match_or_touches_its_journal(tmp_path: Path) -> None:
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    said: list[str] = []
    table = KeptTable(tmp_path, ThrowPhotos(blocked / "throws", lambda why: said.append(str(why))))
    for _ in range(2):
        ask(table, (5, 3), UNSURE)
        for player in Color:
            table.session.submit(ev.RethrowCalled(player))
    assert table.photos.kept == 0 and len(said) == 1 and str(blocked) in said[0]  # said once, not each throw
    table.session.close()
    again = Session.open(table.path)
    assert again.resumed is not None and again.resumed.mismatches == ()
    again.close()


@pytest.mark.parametrize("language, words", [("en", "nearly full"), ("tr", "dolmak üzere")])
def test_a_nearly_full_disk_keeps_its_room_for_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, words: str
) -> None:
    said: list[str] = []
    photos = ThrowPhotos(tmp_path / "throws", lambda why: said.append(why_text(why, language)))
    monkeypatch.setattr(throw_photos, "FREE_MIN", 1 << 62)
    table = KeptTable(tmp_path, photos)
    table.sure((5, 3))
    assert photos.kept == 0 and not list(photos.folder.glob("*")) and len(said) == 1 and words in said[0]
    assert table.session.referee.stage is not Stage.OPENING  # the throw took effect all the same


def test_the_set_up_throws_are_kept_labelled_by_the_players(tmp_path: Path) -> None:
    controller = Controller(tmp_path, SimStation(match_dice=MatchDice(DiceSets(tmp_path))))
    assert controller.learn_dice(NAME) is None
    for struck in (False, True):
        controller.sim_practice()
        throw = controller.practice
        assert throw is not None and len(throw.dice) == 2
        values: list[int | None] = list(throw.proposed())
        if struck:
            values[1] = None
        assert controller.confirm_practice(values) is None
    folder = tmp_path / "throws_simulated"  # rendered throws stay apart from a real camera's
    names = sorted(p.stem for p in folder.glob("practice_*.txt"))
    photos = controller.throw_photos
    assert photos is not None and len(names) == 2 and photos.labelled == 2
    assert [len(labels(folder, name)) for name in names] == [2, 1]  # the die struck out is no die
    record = json.loads((folder / f"{names[1]}.json").read_text(encoding="utf-8"))
    assert record["practice"] == NAME and record["label"]["by"] == "people"
    assert [d["is"] for d in record["label"]["dice"]][1] is None


def test_the_kept_throws_people_labelled_read_as_a_real_photo_set(tmp_path: Path) -> None:
    """The bench reads a station's folder as it reads the real sets: the throws people labelled, each die where
    it lies with its value."""
    table = KeptTable(tmp_path)
    ask(table, (6, 2), UNSURE)
    for player in Color:
        table.session.submit(ev.ThrowCorrected(player, (6, 2)))
    table.sure((4, 1) if table.session.referee.mover is Color.WHITE else (1, 4))
    scenes = scenes_of(str(table.photos.folder))
    assert len(scenes) == 1, "only the throw people labelled"
    _, image, dice = scenes[0]
    assert image.shape[:2] == (720, 1280) and sorted(d.value for d in dice) == [2, 6]
    found = table.shots[0].dice
    assert np.allclose(sorted(d.x for d in dice), sorted((f.box[0] + f.box[2]) / 2 for f in found[:2]), atol=1)
    assert len(scenes_of(str(table.photos.folder), camera_labels=True)) == 2  # and the sure calls too, when asked for
    *_, (trained_image, trained_dice) = real_scenes("tray_mixed_dice", limit=1, stations=[table.photos.folder])
    assert np.array_equal(trained_image, image) and trained_dice == dice  # the second stage's training reads it so too


def test_a_live_station_keeps_each_throw_its_camera_reads(tmp_path: Path) -> None:
    """A real camera source (a folder of a rendered throw's frames, read twice) through the station: each throw
    it read and the match took is kept, named by the journal entry it became."""
    frames, corners = frames_folder(tmp_path, 2)
    tasks: queue.Queue[Task] = queue.Queue()
    controller = Controller(tmp_path, LiveStation(camera=str(frames), post=tasks.put), language="en", post=tasks.put)
    try:
        assert controller.camera_picture() is not None
        for x, y in corners:
            controller.tap_corner(x, y)
        assert controller.start(("A", "B"), "backgammon", 3, Mode.CASUAL, 10, 12, "") is None
        photos = controller.throw_photos
        assert photos is not None
        drain(tasks, lambda: photos.kept >= 2)
        session = controller.session
        assert session is not None
        kinds = {seq: event["kind"] for seq, _, event, _ in session.history()}
    finally:
        controller.close()
    folder = tmp_path / "throws"
    records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]
    assert len(records) == 2 and all((folder / f"{p.stem}.jpg").is_file() for p in folder.glob("*.json"))
    assert all(kinds[r["journal_seq"]] in {"dice_observed", "throw_questioned"} for r in records)
    assert all(r["size"] == [960, 540] and r["corners"] is not None and len(r["dice"]) >= 1 for r in records)


@pytest.mark.parametrize("switched_off_at_set_up", [False, True])
def test_a_station_told_to_keep_no_photos_keeps_none(tmp_path: Path, switched_off_at_set_up: bool) -> None:
    """``--no-throw-photos``, or the set-up screen's switch the players turned off."""
    if switched_off_at_set_up:
        controller = Controller(tmp_path, SimStation(match_dice=MatchDice(DiceSets(tmp_path))))
        assert controller.photos_possible and controller.photos_on, "kept unless the players say no"
        controller.photos_on = False
    else:
        controller = Controller(tmp_path, SimStation(match_dice=MatchDice(DiceSets(tmp_path))), keep_photos=False)
        assert not controller.photos_possible
    assert controller.learn_dice(NAME) is None
    controller.sim_practice()
    assert controller.practice is not None and controller.confirm_practice(controller.practice.proposed()) is None
    assert controller.start(("A", "B"), "backgammon", 1, Mode.CASUAL, 10, 12, "") is None
    try:
        controller.sim_step()
        assert controller.last_shot is not None, "a throw was read"
    finally:
        controller.close()
    assert controller.practiced == 1 and not any(tmp_path.glob("throws*"))


@pytest.mark.parametrize("language, words", [("en", "no longer kept"), ("tr", "artık saklanmıyor")])
def test_photos_that_cannot_be_kept_are_said_on_the_play_screen_s_banner_and_learning_goes_on(
    tmp_path: Path, language: str, words: str
) -> None:
    (tmp_path / "throws_simulated").write_text("")  # where the photos would go is a file
    controller = Controller(tmp_path, SimStation(match_dice=MatchDice(DiceSets(tmp_path))), language=language)
    assert controller.learn_dice(NAME) is None
    for _ in range(2):
        controller.sim_practice()
        assert controller.practice is not None
        assert controller.confirm_practice(controller.practice.proposed()) is None
    banner = controller.banner
    assert banner is not None and banner.code == "photos_not_kept" and words in controller.text(banner)
    assert [r.code for r in controller.log] == ["photos_not_kept"]  # once, and in the history
    assert controller.practiced == 2 and controller.match_dice.confirmed == 4  # the dice were learned all the same
