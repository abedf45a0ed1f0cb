"""The referee judging a play from the camera's reading of the checkers (app.referee.handlers.camera)."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from app.__main__ import main
from app.record.session import Session
from app.referee import events as ev
from app.referee.engine import Stage
from app.referee.handlers.camera import fits, seen_counts
from app.referee.rulings import ClockCommand
from app.referee.setup import Devices
from app.sim.board_camera import BoardCamera
from app.table import live
from app.table.camera import LiveCamera
from app.table.checkers import BoardLayout, ThrowSeen, dice_at_press, read_checkers, reading_order, seen_event
from app.table.dice import Image
from app.table.live import LiveStation
from rules.play import Step, apply_steps
from rules.position import Aside, Color, Position
from rules.registry import VARIANTS, find_variant
from rules.steprules import Landing
from rules.variant import Variant
from tests.app.table import Table, force, make_setup
from vision import DiceReader
from vision.checkers import CheckerReading, Ranges
from vision.sources import Frame
from vision.synth.board_render import Spot

W, B = Color.WHITE, Color.BLACK
CAMERA_ONLY = Devices(camera=True, board=False, clock=True)
LAYOUTS = [BoardLayout(colour, right) for colour in ("light", "dark") for right in (True, False)]


def seen(position: Position, sure: bool = True) -> ev.CheckersSeen:
    white, black = seen_counts(position)
    return ev.CheckersSeen(white, black, sure, () if sure else ("a checker hidden under others",))


def after(*steps: tuple[int, int]) -> Position:
    return apply_steps(Position.start(W), [Step(a, b) for a, b in steps]).with_turn(W)


def camera_table() -> Table:
    table = Table(devices=CAMERA_ONLY)
    table.send(ev.DiceObserved((3, 1)))
    table.press(B)
    return table


def test_a_reading_that_matches_one_legal_play_is_that_play() -> None:
    table = camera_table()
    table.send(seen(after((8, 5), (6, 5))))
    pressed = table.press(W)
    assert pressed.codes == ["play_ok"] and pressed.rulings[0].params["play"] == "8/5 6/5"
    assert pressed.commands == (ClockCommand(B),)
    assert table.referee.stage is Stage.ROLL and table.referee.camera is None


def test_a_reading_no_legal_play_reaches_is_ruled_as_the_sensing_board_rules_it() -> None:
    wrong = after((13, 8))
    by_camera = camera_table()
    by_camera.send(seen(wrong))
    by_board = Table()
    by_board.open_with(3, 1)
    by_board.board(wrong)
    camera_rulings, board_rulings = by_camera.press(W).rulings, by_board.press(W).rulings
    assert [r.code for r in camera_rulings] == ["illegal_play", "choose"]
    assert camera_rulings == board_rulings
    assert by_camera.referee.stage is Stage.ILLEGAL
    assert by_camera.send(ev.AcceptIllegal(B)).codes == ["illegal_accepted"]
    assert by_camera.referee.position.same_board(wrong)


def test_an_unchanged_board_is_an_unfinished_play() -> None:
    table = camera_table()
    table.send(seen(Position.start(W)))
    assert table.press(W).codes == ["unfinished_play", "choose"]


def test_an_unsure_reading_is_asked_with_the_candidates_never_guessed() -> None:
    table = camera_table()
    table.send(seen(after((8, 5), (6, 5)), sure=False))
    asked = table.press(W)
    assert asked.codes == ["play_asked_unsure"] and asked.commands == (ClockCommand(None),)
    options = asked.rulings[0].params["options"]
    assert options[0] == "8/5 6/5" and 1 < len(options) <= 6  # the nearest first, its neighbours with it
    assert table.referee.stage is Stage.PLAY and table.referee.asked is not None
    assert table.press(W).codes == []  # both clocks stand still: a press changes nothing
    assert table.send(ev.ManualPlay("13/8")).codes == ["manual_illegal"]  # still asked
    picked = table.send(ev.ManualPlay("24/23 13/10"))  # the players may type a play the camera did not offer
    assert picked.codes == ["play_ok"] and picked.commands == (ClockCommand(B),)
    assert table.referee.asked is None


def test_a_sure_reading_no_legal_position_can_be_is_asked_as_an_unsure_one() -> None:
    table = camera_table()
    white, black = seen_counts(after((8, 5), (6, 5)))
    crowded = (white[0], *white[1:6], white[6] + 1, *white[7:])  # sixteen white checkers
    table.send(ev.CheckersSeen(crowded, black))
    assert table.press(W).codes == ["play_asked_unsure"]


def test_a_reading_sent_outside_a_play_judges_nothing() -> None:
    table = Table(devices=CAMERA_ONLY)
    table.send(seen(after((8, 5), (6, 5))))  # before the opening throw
    table.send(ev.DiceObserved((3, 1)))
    table.press(B)
    assert table.referee.camera is None
    assert table.press(W).codes == ["enter_play"]


def test_the_sensing_board_judges_and_a_camera_that_agrees_changes_nothing() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.send(seen(after((8, 5), (6, 5))))
    assert table.press().codes == ["play_ok"]


def test_a_camera_sure_of_another_board_than_the_sensing_board_calls_the_director() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.send(seen(after((13, 10), (6, 5))))
    pressed = table.press()
    assert pressed.codes == ["device_fault_camera_disagrees", "director_called"]
    assert pressed.commands[-1] == ClockCommand(None) and table.referee.stage is Stage.HALTED
    assert [f.fault for f in table.referee.device_faults] == ["camera_disagrees"]
    assert not table.referee.irregularities  # no player is blamed for the devices' disagreement
    table.send(ev.DirectorOverride("resume"))
    assert table.press().codes == ["play_ok"]  # the board, which the director checked, judges the press again


def test_an_unsure_camera_defers_to_the_sensing_board() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.send(seen(after((13, 10), (6, 5)), sure=False))
    assert table.press().codes == ["play_ok"]


def test_the_demo_plays_a_rendered_game_judged_from_the_camera(tmp_path: Path) -> None:
    """``python -m app demo --checkers-from camera``: every board a player leaves is drawn and read at the press,
    the reading journaled beside the ruling; a play is taken only as the camera read it or as the players typed it
    when asked, and the journal folds back into the same referee. Each kept throw photo gains the board after
    its play."""
    journal = tmp_path / "camera.sqlite"
    out = io.StringIO()
    photos = tmp_path / "photos"
    arguments = ["--length", "1", "--seed", "3", "--journal", str(journal), "--keep-photos", str(photos)]
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--checkers-from", "camera", *arguments]) == 0
    text = out.getvalue()
    assert "board(s) drawn and read by the checker reader" in text and "Final score" in text
    boards = sorted(photos.glob("*_board.json"))
    assert boards and f"{len(boards)} with the board after the play" in text
    for path in boards:  # each beside its throw, labelled with the position the referee settled on
        record = json.loads(path.read_text(encoding="utf-8"))
        assert (photos / f"{record['throw']}.jpg").is_file() and cv2.imread(str(path.with_suffix(".jpg"))) is not None
        position = Position.from_json(record["position"])
        if record["camera"] is not None and record["camera"]["sure"]:
            white, black = seen_counts(position)
            assert (record["camera"]["white"], record["camera"]["black"]) == (list(white), list(black))
    session = Session.open(journal)
    assert session.resumed is not None and session.resumed.mismatches == ()
    entries = [e.payload for e in session.journal.entries() if e.kind == "event"]
    kinds = [e["event"]["kind"] for e in entries]
    assert "manual_play" not in kinds[: kinds.index("checkers_seen")]  # the camera, not the tablet, from the start
    from_camera = asked = 0
    for before, entry in zip(entries, entries[1:]):
        codes = [r["code"] for r in entry["reaction"]["rulings"]]
        if entry["event"]["kind"] == "clock_pressed" and before["event"]["kind"] == "checkers_seen":
            from_camera += "play_ok" in codes
            asked += "play_asked" in codes or "play_asked_unsure" in codes
        if entry["event"]["kind"] == "manual_play" and "play_ok" in codes:
            assert before["event"]["kind"] == "clock_pressed"  # a play is typed only when the camera asked for it
            assert any(r["code"].startswith("play_asked") for r in before["reaction"]["rulings"])
    assert from_camera >= 5 and asked >= 1
    session.close()


def test_a_live_station_reads_the_checkers_from_its_camera_just_before_the_press(tmp_path: Path) -> None:
    """``python -m app --read-checkers light-right``: a press that ends a play goes to the referee after the camera's
    reading of the board; a press that ends nothing (the clock not running for the presser) reads nothing."""
    played = after((8, 5), (6, 5))
    board_camera = BoardCamera(1, lambda referee: played)
    image, calibration = board_camera.picture(played)
    camera = LiveCamera("a rendered board", lambda task: None, lambda image, observation: None, lambda up, why: None)
    camera._picture, camera.calibration = image, calibration  # the camera's latest picture of the board
    station = LiveStation(checkers=board_camera.layout)
    station.live_camera = camera
    session = Session.open_or_create(tmp_path / "live.sqlite", make_setup(devices=CAMERA_ONLY))
    station.session = session
    try:
        for event in (ev.DiceObserved((3, 1)), ev.ClockPressed(B)):
            session.submit(event)
        assert station.read_checkers(B) is None  # Black's clock is not running: the press ends no play
        station._submit(ev.ClockPressed(W))
        last_two = [entry.payload for entry in session.journal.entries()][-2:]
        assert [p["event"]["kind"] for p in last_two] == ["checkers_seen", "clock_pressed"]
        rulings = last_two[1]["reaction"]["rulings"]
        taken = rulings[0]["code"] == "play_ok" and rulings[0]["params"]["play"] == "8/5 6/5"
        asked = rulings[0]["code"].startswith("play_asked") and "8/5 6/5" in rulings[0]["params"]["options"]
        assert taken or asked, rulings
    finally:
        session.close()
        station.close()


@dataclass
class HandOverBoard:
    """A live station whose camera saw the board White left after a 3-1 (8/5 6/5), then a hand over it."""

    station: LiveStation
    camera: LiveCamera
    session: Session
    image: Image

    def show(self, at: float, hand: bool = False) -> None:
        """The camera's picture at ``at`` seconds, with a hand over the middle of the board or without."""
        picture = self.image.copy()
        if hand:
            h, w = picture.shape[:2]
            cv2.ellipse(picture, (w // 2, h // 2), (w // 8, h // 10), 20, 0, 360, (120, 150, 190), -1)
        self.camera._show(Frame(picture, at, f"camera:{at}"))

    def journaled(self) -> list[str]:
        return [entry.payload.get("event", {}).get("kind", entry.kind) for entry in self.session.journal.entries()]


@contextlib.contextmanager
def hand_over_board(tmp_path: Path) -> Iterator[HandOverBoard]:
    played = after((8, 5), (6, 5))
    board_camera = BoardCamera(1, lambda referee: played)
    image, calibration = board_camera.picture(played)
    camera = LiveCamera("a rendered board", lambda task: None, lambda image, observation: None, lambda up, why: None)
    camera.calibration = calibration
    station = LiveStation(checkers=board_camera.layout)
    station.live_camera = camera
    session = Session.open_or_create(tmp_path / "live.sqlite", make_setup(devices=CAMERA_ONLY))
    station.session = session
    for event in (ev.DiceObserved((3, 1)), ev.ClockPressed(B)):
        session.submit(event)
    table = HandOverBoard(station, camera, session, image)
    table.show(0.0)
    table.show(0.1, hand=True)
    try:
        yield table
    finally:
        station.close()
        session.close()


def test_a_press_waits_for_the_hand_to_leave_the_board_and_what_came_after_it_waits_behind_it(tmp_path: Path) -> None:
    with hand_over_board(tmp_path) as table:
        table.show(0.2)  # the hand has just left the board: the picture changed a moment ago
        table.station._submit(ev.ClockPressed(W))
        table.station._submit(ev.LinkChanged("clock", True, "the clock answered again"))
        waiting = table.journaled()
        assert waiting[-1] == "clock_pressed" and waiting.count("clock_pressed") == 1  # only Black's press so far
        table.station.pump()
        assert table.journaled() == waiting  # the board has stood still only a moment: the press waits
        table.show(0.6)
        table.station.pump()
        assert table.journaled()[len(waiting) :] == ["checkers_seen", "clock_pressed", "link_status"]
        rulings = list(table.session.journal.entries())[-2].payload["reaction"]["rulings"]
        assert rulings[0]["code"] in ("play_ok", "play_asked", "play_asked_unsure")


def test_a_board_still_moving_when_the_wait_ends_is_asked_never_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "PRESS_WAIT_S", 0.0)
    with hand_over_board(tmp_path) as table:  # the hand is over the board at the press
        table.station._submit(ev.ClockPressed(W))
        table.station.pump()
        seen_entry, press_entry = list(table.session.journal.entries())[-2:]
        assert seen_entry.payload["event"]["sure"] is False
        assert seen_entry.payload["event"]["doubts"][0] == live.MOVING_AT_PRESS
        assert not seen_entry.payload["event"].get("white_low")  # nothing is taken for certain under a hand
        assert press_entry.payload["reaction"]["rulings"][0]["code"] == "play_asked_unsure"


def test_a_press_held_when_the_station_closes_is_journaled_not_lost(tmp_path: Path) -> None:
    with hand_over_board(tmp_path) as table:
        table.station._submit(ev.ClockPressed(W))
        before = table.journaled()
        table.station.close()
        assert table.journaled()[len(before) :] == ["checkers_seen", "clock_pressed"]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda lay: f"{lay.white_colour}-{lay.home_right}")
def test_a_reading_in_the_pictures_order_is_each_sides_own_counts(variant: Variant, layout: BoardLayout) -> None:
    position = variant.position_type.start()
    points, bar, off, pins = reading_order(position, layout)
    seen = seen_event(CheckerReading(points, bar, off, True), layout, position.RULES.facing)
    assert (seen.white, seen.black) == seen_counts(position) and seen.sure and not pins
    certain = CheckerReading(points, bar, off, False, ("a doubt",), ranges=Ranges.exact(points, bar, off))
    seen = seen_event(certain, layout, position.RULES.facing)
    assert seen.ranges == (seen_counts(position), seen_counts(position)) and not seen.sure


def test_the_starting_position_reads_as_the_checker_command_prints_it() -> None:
    points, bar, off, _ = reading_order(Position.start(), BoardLayout("light", home_right=True))
    assert points == (5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2)  # docs/checkers.md
    assert bar == off == (0, 0)


def test_a_reading_no_board_can_hold_goes_to_the_referee_as_an_unsure_one() -> None:
    points = (16,) + (0,) * 23
    seen = seen_event(CheckerReading(points, (0, 0), (0, 0), True), BoardLayout(), Position.RULES.facing)
    assert not seen.sure and max(seen.white) == 15 and "a count the board cannot hold" in seen.doubts


def test_the_dice_at_the_press_are_where_the_throw_left_them_or_where_they_were_moved_to() -> None:
    """The look for the dice at the press reads only what changed since the throw's picture: a die still where it
    fell is where the throw's reading put it, and one pushed aside while the checkers moved is found where it lies."""
    reader = DiceReader(threads=1)
    camera = BoardCamera(3, lambda referee: Position.start(W))
    stays, pushed, pushed_to = Spot(250, 400, 0.3, 5), Spot(760, 400, 0.9, 2), Spot(640, 395, 1.2, 2)
    thrown, calibration = camera.picture(Position.start(W), (stays, pushed))
    throw = ThrowSeen(thrown, tuple(d.box for d in reader.dice(thrown, calibration)))
    assert len(throw.boxes) == 2
    image, calibration = camera.picture(after((8, 5), (6, 5)), (stays, pushed_to))

    def centres(boxes: list[tuple[int, int, int, int]]) -> list[tuple[float, float]]:
        board = calibration.to_board(np.asarray([((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in boxes]))
        return [(float(x), float(y)) for x, y in board]

    def near(found: list[tuple[float, float]], spot: Spot) -> bool:
        return any(np.hypot(x - spot.x, y - spot.y) < 20 for x, y in found)

    at_press = centres(dice_at_press(reader, image, calibration, throw)())
    assert near(at_press, stays) and near(at_press, pushed_to), at_press
    whole = centres(dice_at_press(reader, image, calibration, None)())  # no throw seen: the whole board is read
    assert near(whole, stays) and near(whole, pushed_to) and not near(whole, pushed), whole


def test_a_plakoto_pin_is_drawn_under_its_pinner_and_the_reader_never_takes_it_for_sure() -> None:
    """A pinned checker lies at the rim under the pinner: two colours on one point, which the reader doubts, so
    a play that pins or keeps a pin is asked rather than judged from counts that cannot show the pin."""
    kind = find_variant("plakoto").position_type
    white, black = [0] * 26, [0] * 26
    white[24], white[20], white[18], white[10] = 4, 5, 5, 1
    black[24], black[22], black[19], black[15] = 3, 5, 5, 2  # Black's 15 is White's 10: two pin White's there
    pinned = kind(white, black, W, Aside(white_pinned=(10,)))
    camera = BoardCamera(2, lambda referee: pinned)
    points, _, _, pins = reading_order(pinned, camera.layout)
    assert pins == (camera.layout.index(10),) and points[pins[0]] == -2
    image, calibration = camera.picture(pinned, spots=())  # no dice or cube on the board: the pin is read
    seen, reading = read_checkers(image, calibration, camera.layout, pinned.RULES.facing)
    assert not reading.sure and not seen.sure
    assert any("two colours on one point" in doubt for doubt in reading.doubts), reading.doubts
    assert seen.ranges is None  # without the look for dice a die could pass for a top
    pins = pinned.RULES.landing is Landing.PIN
    seen, _ = read_checkers(image, calibration, camera.layout, pinned.RULES.facing, lambda: [], pins)
    assert seen.ranges is not None and fits(seen_counts(pinned), seen.ranges)
    (white_low, black_low), (white_high, black_high) = seen.ranges
    assert (white_low[10], white_high[10], black_low[15], black_high[15]) == (1, 1, 2, 2)  # the pin, certain
    seen, _ = read_checkers(image, calibration, camera.layout, pinned.RULES.facing, lambda: [], pins=False)
    assert seen.ranges is None  # where no variant pins, two colours on a point are a misread colour


def ranged(position: Position, wide: dict[tuple[int, int], tuple[int, int]] | None = None) -> ev.CheckersSeen:
    """An unsure reading of ``position`` whose ranges are its counts, but (side 0 White / 1 Black, slot) -> (fewest,
    most) where ``wide`` says: a row of five whose layers the picture cannot count, say."""
    white, black = seen_counts(position)
    low, high = [list(white), list(black)], [list(white), list(black)]
    for (side, slot), (lo, hi) in (wide or {}).items():
        low[side][slot], high[side][slot] = lo, hi
    return ev.CheckersSeen(
        white,
        black,
        False,
        ("a checker hidden under others",),
        tuple(low[0]),
        tuple(high[0]),
        tuple(low[1]),
        tuple(high[1]),
    )


STACKS = {(0, 13): (5, 15), (0, 6): (5, 15), (1, 13): (5, 15), (1, 6): (5, 15)}  # the starting rows of five


def test_an_unsure_reading_whose_ranges_only_one_legal_play_fits_is_that_play() -> None:
    """The rows of five may hide layers, but only 8/5 6/5 leaves what shows, and White's fifteen fix its two rows:
    Black's rows, which a play of White's does not touch, stay as they were."""
    table = camera_table()
    played = after((8, 5), (6, 5))
    table.send(ranged(played, {**STACKS, (0, 6): (4, 15)}))
    pressed = table.press(W)
    assert pressed.codes == ["play_ok"] and pressed.rulings[0].params["play"] == "8/5 6/5"
    assert table.referee.position.same_board(played)


def test_ranges_two_legal_plays_fit_are_asked_with_those_two() -> None:
    table = camera_table()
    one, other = after((24, 21), (24, 23)), after((24, 20))
    counts = list(zip(*seen_counts(one))), list(zip(*seen_counts(other)))
    wide = {
        (side, slot): (min(a[side], b[side]), max(a[side], b[side]))
        for slot, (a, b) in enumerate(zip(*counts))
        for side in (0, 1)
        if a[side] != b[side]
    }
    table.send(ranged(one, wide))
    asked = table.press(W)
    assert asked.codes == ["play_asked_unsure"]
    assert sorted(asked.rulings[0].params["options"]) == ["24/20", "24/23 24/21"]


def test_an_illegal_play_read_with_ranges_is_asked_never_ruled() -> None:
    """Only a sure reading rules a play illegal: one the ranges alone show is asked, the players may type it."""
    table = camera_table()
    table.send(ranged(after((13, 8)), STACKS))
    assert table.press(W).codes == ["play_asked_unsure"]
    assert table.referee.stage is Stage.PLAY


def test_an_illegal_play_hidden_in_two_uncounted_stacks_beside_a_legal_one_is_asked() -> None:
    """24/21 24/23 played, and a checker moved from the 13-point's row of six to the 6-point's as well: both rows
    show five tops, so the picture fits the legal play alone. White's fifteen cannot fix two rows of unknown
    height, so the camera does not take it."""
    white = [0] * 26
    white[24], white[13], white[8], white[6] = 2, 6, 2, 5
    before = Position(white, seen_counts(Position.start())[1], W)
    table = Table(force(Table(devices=CAMERA_ONLY).referee, before, (3, 1)))
    cheated = apply_steps(before, [Step(24, 21), Step(24, 23), Step(13, 6)]).with_turn(W)
    table.send(ranged(cheated, {(0, 13): (5, 15), (0, 6): (5, 15)}))
    asked = table.press(W)
    assert asked.codes == ["play_asked_unsure"] and asked.rulings[0].params["options"] == ["24/23 24/21"]


def test_a_hit_is_taken_from_ranges_only_where_the_picture_shows_the_hit() -> None:
    """Black's rows may hide layers, and Black's side is not fixed by its fifteen; a hit changes Black's blot and
    bar, so those must be certain; where the bar could hold more the play is asked."""
    white, black = [0] * 26, [0] * 26
    white[24], white[13], white[8], white[6] = 2, 5, 3, 5
    black[24], black[13], black[8], black[6], black[22] = 1, 6, 2, 5, 1  # Black's 22 is White's 3
    before = Position(white, black, W)
    played = apply_steps(before, [Step(8, 3), Step(6, 3)]).with_turn(W)  # 5-3 makes White's 3 point, hitting
    black_rows = {(1, 13): (5, 15), (1, 6): (5, 15)}
    for bar_most, codes in ((1, ["play_ok"]), (15, ["play_asked_unsure"])):
        table = Table(force(Table(devices=CAMERA_ONLY).referee, before, (5, 3)))
        table.send(ranged(played, {**black_rows, (1, 25): (1, bar_most)}))
        assert table.press(W).codes == codes


def test_a_reading_journaled_without_ranges_reads_as_before() -> None:
    """A journal written before readings carried ranges still reads: the reading has none and is asked."""
    old = {"kind": "checkers_seen", "white": list(seen_counts(after((8, 5), (6, 5)))[0])}
    old["black"] = list(seen_counts(after((8, 5), (6, 5)))[1])
    old |= {"sure": False, "doubts": ["a checker hidden under others"]}
    event = ev.event_from_dict(old)
    assert isinstance(event, ev.CheckersSeen) and event.ranges is None
    table = camera_table()
    table.send(event)
    assert table.press(W).codes == ["play_asked_unsure"]
    with_ranges = ranged(after((8, 5), (6, 5)), STACKS)
    assert ev.event_from_dict(ev.event_to_dict(with_ranges)) == with_ranges


def test_ranges_that_contradict_themselves_are_refused_at_the_edge() -> None:
    white, black = seen_counts(after((8, 5), (6, 5)))
    with pytest.raises(ValueError, match="range"):
        ev.CheckersSeen(white, black, False, (), (1,) * 26, (0,) * 26, black, black)
    with pytest.raises(ValueError, match="26 counts"):
        ev.CheckersSeen(white, black, False, (), white, white, (), ())
