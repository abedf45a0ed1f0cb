"""The learned detector: peak picking, decoding its heads, the rectification geometry, both backends."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.adapt import AdaptedClassifier, DiceProfile, FeatureReader
from vision.calibration import BOARD_MM, DIE_MM, Calibration
from vision.crop_reader import OnnxModel, OnnxReader, every_turn, turned
from vision.errors import ModelError
from vision.look import PLANES, OnnxLook
from vision.reader import (
    CHANNELS,
    DEFAULT_COCKED_LOOK,
    DEFAULT_DETECTOR,
    DEFAULT_HEAD,
    SIZE_REF,
    DetectorNet,
    DiceReader,
    decode,
    peaks,
)
from vision.rectify import ALIGN, DIE_VIEW_PX, STRIDE, board_view, photo_view
from vision.slant import ramp, slant
from vision.sureness import doubts
from vision.train.heldout import heldout_throw

CORNERS = [(210.0, 95.0), (1090.0, 120.0), (1150.0, 660.0), (150.0, 630.0)]  # a board seen at an angle


def test_peaks_are_local_maxima_above_the_threshold_strongest_first() -> None:
    heat = np.zeros((10, 12), np.float32)
    heat[2, 3] = 0.9
    heat[2, 4] = 0.8  # beside a stronger cell: not a peak
    heat[7, 9] = 0.6
    heat[5, 0] = 0.3  # a peak, below the threshold
    heat[0, 11] = 0.95  # on the border
    got = [tuple(p) for p in peaks(heat, 0.35)]
    assert got == [(0, 11), (2, 3), (7, 9)]
    assert [tuple(p) for p in peaks(heat, 0.2)][-1] == (5, 0)


def test_peaks_are_the_cells_no_neighbour_exceeds_whatever_the_map() -> None:
    rng = np.random.default_rng(3)
    for _ in range(100):
        rows, cols = (int(v) for v in rng.integers(1, 20, 2))
        heat = np.round(rng.random((rows, cols)) * 6).astype(np.float32) / 6  # ties between neighbours too
        padded = np.pad(heat, 1, constant_values=-np.inf)
        neighbours = np.max([padded[dy : dy + rows, dx : dx + cols] for dy in range(3) for dx in range(3)], axis=0)
        want = {(int(r), int(c)) for r, c in zip(*np.nonzero((heat >= neighbours) & (heat >= 0.5)))}
        assert {(int(r), int(c)) for r, c in peaks(heat, 0.5)} == want


def _raw(rows: int, cols: int) -> np.ndarray:
    out = np.zeros((CHANNELS, rows, cols), np.float32)
    out[0] = -8.0  # heat logits: nothing anywhere
    return out


def test_decode_reads_centre_side_value_and_cocked_from_the_heads() -> None:
    out = _raw(12, 16)
    out[0, 4, 6] = 3.0
    out[1 + 4, 4, 6] = 5.0  # value 5
    out[7, 4, 6] = -4.0  # flat
    out[8, 4, 6] = np.log(30 / SIZE_REF)
    out[9, 4, 6], out[10, 4, 6] = 0.25, -0.5
    out[0, 9, 12] = 1.0
    out[1 + 1, 9, 12] = 4.0  # value 2
    out[7, 9, 12] = 3.0  # cocked
    dets = decode(out)
    assert len(dets) == 2
    a, b = dets
    assert a.centre == pytest.approx(((6 + 0.5 + 0.25) * STRIDE, (4 + 0.5 - 0.5) * STRIDE))
    assert a.side == pytest.approx(30.0, rel=1e-5)
    assert int(np.argmax(a.values)) + 1 == 5 and a.cocked < 0.05
    assert a.score == pytest.approx(1 / (1 + np.exp(-3.0)), rel=1e-5)
    assert int(np.argmax(b.values)) + 1 == 2 and b.cocked > 0.9
    assert np.allclose(a.values.sum(), 1.0)


def test_two_peaks_on_one_die_give_one_die_but_touching_dice_stay_two() -> None:
    out = _raw(12, 16)
    out[8] = np.log(26 / SIZE_REF)
    out[0, 4, 4] = 2.0
    out[0, 4, 6] = 1.0
    out[9, 4, 6] = -0.5  # its centre 12 px away: less than 0.6 of a 26 px die -> the same die
    out[0, 8, 4] = 1.5  # 32 px away: a second die
    assert len(decode(out)) == 2
    assert len(decode(_raw(5, 5))) == 0


def test_decode_refuses_a_graph_with_other_heads() -> None:
    with pytest.raises(ModelError):
        decode(np.zeros((8, 4, 4), np.float32))


def test_board_view_puts_a_die_at_a_fixed_size_whatever_the_camera() -> None:
    cal = Calibration.from_corners(CORNERS)
    view = board_view(cal)
    assert view.size[0] % ALIGN == 0 and view.size[1] % ALIGN == 0
    # a die-sized square on the board plane (in the canonical board frame) measures DIE_VIEW_PX in the view
    canonical_die = DIE_MM * 1000.0 / BOARD_MM
    inv = np.linalg.inv(cal.homography)
    for bx, by in ((100.0, 100.0), (500.0, 400.0), (900.0, 700.0)):
        square = np.array([[bx, by], [bx + canonical_die, by]], np.float64)
        frame = np.array([inv @ [x, y, 1.0] for x, y in square])
        frame = frame[:, :2] / frame[:, 2:]
        v = view.to_view_points(frame)
        assert np.linalg.norm(v[1] - v[0]) == pytest.approx(DIE_VIEW_PX, rel=1e-6)
    # the board's corners land one margin in from the view's edges, in the same place for any camera
    corners = view.to_view_points(np.array(CORNERS))
    assert corners[0, 0] > 0 and corners[0, 1] > 0
    assert corners[2, 0] < view.size[0] and corners[2, 1] < view.size[1]
    big = Calibration.from_corners([(x * 1.5, y * 1.5) for x, y in CORNERS])  # the same board at 1920x1080
    big_view = board_view(big)
    assert big_view.size == view.size
    assert np.allclose(big_view.to_view_points(np.array(CORNERS) * 1.5), corners, atol=1e-6)


def test_view_maps_back_to_the_frame_exactly() -> None:
    view = board_view(Calibration.from_corners(CORNERS))
    pts = np.array([[300.0, 200.0], [640.0, 360.0], [1000.0, 600.0]])
    assert np.allclose(view.to_frame(view.to_view_points(pts)), pts, atol=1e-6)
    x0, y0, x1, y1 = view.box_to_frame((400.0, 300.0), 26.0)
    centre = view.to_frame(np.array([[400.0, 300.0]]))[0]
    assert x0 < centre[0] < x1 and y0 < centre[1] < y1


def test_the_warped_view_shows_the_board_where_the_geometry_says() -> None:
    throw = heldout_throw(0, "valid")
    view = board_view(Calibration.from_corners(throw.corners))
    warped = view.warp(throw.image)
    assert warped.shape == (view.size[1], view.size[0], 3)
    x, y = view.to_view_points(np.array([[640.0, 360.0]]))[0]
    assert (
        np.array_equal(warped[int(y), int(x)], throw.image[360, 640])
        or np.abs(warped[int(y), int(x)].astype(int) - throw.image[360, 640].astype(int)).max() < 40
    )


def test_the_view_through_its_kept_maps_is_the_warp_pixel_for_pixel() -> None:
    throw = heldout_throw(1, "valid", with_reference=True)
    assert throw.reference is not None
    view = board_view(Calibration.from_corners(throw.corners))
    for v in (view, view.scaled(0.5), view.part(320, 240, 160, 128)):
        assert np.array_equal(v.remapped(throw.image), v.warp(throw.image))
        assert np.array_equal(v.remapped(throw.reference), v.warp(throw.reference))  # the maps kept serve again


@pytest.mark.parametrize(
    ("size", "expect"),
    [((1920, 1080), (1280, 720)), ((1280, 720), (1280, 720)), ((640, 480), (640, 480)), ((300, 200), (304, 208))],
)
def test_photo_view_scales_only_to_keep_the_long_side_within_bounds(
    size: tuple[int, int], expect: tuple[int, int]
) -> None:
    view = photo_view((size[1], size[0], 3))
    assert view.size == expect
    image = np.full((size[1], size[0], 3), 90, np.uint8)
    assert view.warp(image).shape == (expect[1], expect[0], 3)


class OneDie:
    """A stand-in for the graph: one die at the view's centre whose side is ``side`` view pixels at any
    scale (a die far too big for the view at full scale, when ``side`` is large)."""

    def __init__(self, side: float) -> None:
        self.side = side
        self.views: list[tuple[int, ...]] = []

    def run(self, view: np.ndarray) -> np.ndarray:
        self.views.append(view.shape)
        out = _raw(view.shape[0] // STRIDE, view.shape[1] // STRIDE)
        r, c = out.shape[1] // 2, out.shape[2] // 2
        out[0, r, c] = 4.0
        out[1 + 2, r, c] = 6.0  # a 3
        out[7, r, c] = -6.0
        out[8, r, c] = np.log(self.side / SIZE_REF)
        return out


def test_a_photo_of_big_dice_is_read_at_half_scale_and_mapped_back() -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    net = OneDie(36.0)  # 36 px at half scale: a 72 px die in the photo
    dice = DiceReader(net=net, head=None).read_all(image).dice
    assert net.views == [(240, 320, 3)]
    assert len(dice) == 1 and dice[0].value == 3 and not dice[0].cocked
    x0, y0, x1, y1 = dice[0].box
    assert x1 - x0 == pytest.approx(72, abs=2)
    assert (x0 + x1) / 2 == pytest.approx(2 * (20 + 0.5) * STRIDE, abs=1)  # cell 20 of 40 at half scale


def test_a_photo_of_small_dice_is_read_at_full_scale() -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    net = OneDie(14.0)  # too small at half scale: look again at full scale
    dice = DiceReader(net=net, head=None).read_all(image).dice
    assert net.views == [(240, 320, 3), (480, 640, 3)]
    assert len(dice) == 1 and dice[0].box[2] - dice[0].box[0] == pytest.approx(14, abs=2)


class FixedCrops:
    """A second stage with fixed answers: one row of class probabilities (1..6, cocked, not a die) a crop."""

    def __init__(self, *rows: list[float]) -> None:
        self.rows = np.array(rows, np.float32)
        self.seen: list[np.ndarray] = []

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """The same answer for a crop in every turn the reader looks at it."""
        self.seen.append(crops)
        return np.tile(self.rows, (max(1, len(crops) // len(self.rows)), 1))[: len(crops)]


def test_the_second_stage_reads_the_value_from_a_full_resolution_crop() -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    image[150:330, 240:400] = 250  # the die's area, bright: the crop must come from here
    head = FixedCrops([0.02, 0.02, 0.02, 0.02, 0.9, 0.02, 0.0, 0.0])
    dice = DiceReader(net=OneDie(36.0), classifier=head).read_all(image).dice
    assert len(dice) == 1 and dice[0].value == 5  # the second stage's 5, not the detector's 3
    assert dice[0].confidence == pytest.approx(0.9)
    crop = head.seen[0][0]
    assert crop.shape == (48, 48, 3) and crop[24, 24, 0] == 250


def test_the_second_stage_drops_what_is_not_a_die() -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    head = FixedCrops([0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.95])
    assert DiceReader(net=OneDie(36.0), classifier=head).read_all(image).dice == ()


def test_the_second_stage_calls_cocked_and_voids_the_throw() -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    head = FixedCrops([0.0, 0.0, 0.3, 0.0, 0.0, 0.0, 0.7, 0.0])
    dice = DiceReader(net=OneDie(36.0), classifier=head).read_all(image).dice
    assert len(dice) == 1 and dice[0].cocked and dice[0].value == 3
    assert dice[0].cocked_probability == pytest.approx(0.7)


def test_an_unsure_second_stage_leaves_the_value_unread() -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    head = FixedCrops([0.3, 0.3, 0.2, 0.1, 0.05, 0.05, 0.0, 0.0])
    dice = DiceReader(net=OneDie(36.0), classifier=head).read_all(image).dice
    assert len(dice) == 1 and dice[0].value is None and not dice[0].cocked


def test_onnxruntime_and_cv2_dnn_give_the_same_detections() -> None:
    throw = heldout_throw(1, "cocked")
    view = board_view(Calibration.from_corners(throw.corners))
    x = view.warp(throw.image)
    ort = DetectorNet(DEFAULT_DETECTOR, "onnxruntime").run(x)
    dnn = DetectorNet(DEFAULT_DETECTOR, "opencv").run(x)
    assert ort.shape == dnn.shape == (CHANNELS, view.size[1] // STRIDE, view.size[0] // STRIDE)
    assert np.abs(ort - dnn).max() < 1e-3
    a, b = decode(ort), decode(dnn)
    assert len(a) == len(b)
    assert np.allclose([d.centre for d in a], [d.centre for d in b], atol=1e-2)


def test_the_detector_reads_a_frame_the_same_way_every_time() -> None:
    throw = heldout_throw(2, "valid")
    reader = DiceReader()
    cal = Calibration.from_corners(throw.corners)
    first = reader.read(throw.image, cal, throw.thrower)
    for _ in range(3):
        assert reader.read(throw.image, cal, throw.thrower) == first


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (640, 480), (333, 251)])
def test_the_model_reads_photos_of_any_size_at_both_scales(size: tuple[int, int]) -> None:
    """640x360 (half of 1280x720) once failed: its side is no multiple of the graph's deepest stride."""
    image = np.random.default_rng(1).integers(0, 256, (size[1], size[0], 3)).astype(np.uint8)
    reader = DiceReader()
    for view in (photo_view(image.shape), photo_view(image.shape, 0.5)):
        out = reader.net.run(view.warp(image))
        assert out.shape == (CHANNELS, view.size[1] // STRIDE, view.size[0] // STRIDE)
    reader.read_all(image)


def test_a_missing_detector_model_is_a_clear_error(tmp_path: object) -> None:
    with pytest.raises(ModelError, match="not found"):
        DiceReader("/nonexistent/detector.onnx")


class BrightSquares:
    """A stand-in for the graph that finds every bright square (> 200) in whatever view it is given, at its
    centre, 26 px a side, reading 4: where the dice are is then known, and so is how views map back."""

    def __init__(self) -> None:
        self.views: list[tuple[int, ...]] = []

    def run(self, view: np.ndarray) -> np.ndarray:
        self.views.append(view.shape)
        out = _raw(view.shape[0] // STRIDE, view.shape[1] // STRIDE)
        count, _, _, centres = cv2.connectedComponentsWithStats((view[:, :, 0] > 200).astype(np.uint8))
        for cx, cy in centres[1:count]:
            r, c = int(cy // STRIDE), int(cx // STRIDE)
            out[0, r, c] = 6.0
            out[1 + 3, r, c] = 8.0
            out[7, r, c] = -8.0
            out[8, r, c] = np.log(DIE_VIEW_PX / SIZE_REF)
            out[9, r, c] = cx / STRIDE - c - 0.5
            out[10, r, c] = cy / STRIDE - r - 0.5
        return out


def _board_with_squares(cal: Calibration, squares: list[tuple[float, float]]) -> np.ndarray:
    """A dull textured 1280x720 frame with a bright die-sized square at each board position (view pixels)."""
    rng = np.random.default_rng(3)
    image = rng.integers(60, 100, (720, 1280, 3)).astype(np.uint8)
    view = board_view(cal)
    for x, y in squares:
        (fx, fy) = view.to_frame(np.array([[x, y]]))[0]
        image[int(fy) - 10 : int(fy) + 10, int(fx) - 10 : int(fx) + 10] = 240
    return image


def test_with_the_frame_before_only_what_the_throw_changed_is_read() -> None:
    """A die-like thing that lay there before the throw (the cube, say) is not thrown; the new one is read,
    and the detector looks only at the changed part of the board, then maps it back to the frame."""
    cal = Calibration.from_corners(CORNERS)
    before = _board_with_squares(cal, [(200.0, 200.0)])
    after = _board_with_squares(cal, [(200.0, 200.0), (620.0, 420.0)])
    net = BrightSquares()
    reader = DiceReader(net=net, head=None)
    dice = reader.dice(after, cal, reference=before)
    view = board_view(cal)
    assert len(dice) == 1 and dice[0].value == 4
    (x, y) = view.to_view_points(np.array([dice[0].centre]))[0]
    assert (x, y) == pytest.approx((620.0, 420.0), abs=4)
    assert all(h * w < view.size[0] * view.size[1] / 4 for h, w, _ in net.views)  # a part of the view, not all
    without = reader.dice(after, cal)  # a single frame: both are read
    assert len(without) == 2


def test_a_die_the_detector_misses_is_a_change_no_die_read_explains() -> None:
    """A die the stand-in cannot see (grey, not bright) changes the board all the same: the reading says so, and
    a throw with one die read is then a question rather than a rethrow nobody asked for (``vision.sureness``)."""
    cal = Calibration.from_corners(CORNERS)
    before = _board_with_squares(cal, [])
    seen = _board_with_squares(cal, [(620.0, 420.0), (700.0, 300.0)])
    reader = DiceReader(net=BrightSquares(), head=None)
    both = reader.read(seen, cal, reference=before)
    assert both.verdict == "valid" and both.unread_changes == 0
    missed = seen.copy()
    view = board_view(cal)
    (fx, fy) = view.to_frame(np.array([[700.0, 300.0]]))[0]
    missed[int(fy) - 10 : int(fy) + 10, int(fx) - 10 : int(fx) + 10] = 170  # a die too dull for the stand-in
    one = reader.read(missed, cal, reference=before)
    assert one.reason == "dice_count" and len(one.dice) == 1 and one.unread_changes == 1
    x0, y0, x1, y1 = one.unread[0]  # where the missed die lies, in the picture: the question can show it
    assert x0 <= fx <= x1 and y0 <= fy <= y1 and x1 - x0 < 60 and y1 - y0 < 60
    assert one.to_json()["unread"] == [list(one.unread[0])]
    assert reader.read(missed, cal).unread_changes == 0  # a single frame cannot tell what changed


def test_a_die_found_where_the_board_changed_a_little_is_not_counted_but_listed_unread() -> None:
    """A die the colour of the board changes the picture only at its pips and edges: the detector finds it, but
    too little of its square changed to count it (it may have lain there before). It is listed with the unread
    changes, so a throw with one die read is a question; a die that lay there unchanged is not."""
    cal = Calibration.from_corners(CORNERS)
    view = board_view(cal)
    seen = _board_with_squares(cal, [(620.0, 420.0), (700.0, 300.0)])
    (fx, fy) = view.to_frame(np.array([[700.0, 300.0]]))[0]
    before = _board_with_squares(cal, [(700.0, 300.0)])
    before[int(fy) - 4 : int(fy) + 1, int(fx) - 4 : int(fx) + 1] = 80  # a pip: the die's square changed there
    reader = DiceReader(net=BrightSquares(), head=None)
    one = reader.read(seen, cal, reference=before)
    assert one.reason == "dice_count" and len(one.dice) == 1 and one.unread_changes == 1
    x0, y0, x1, y1 = one.unread[0]
    assert x0 <= fx <= x1 and y0 <= fy <= y1 and x1 - x0 < 60 and y1 - y0 < 60
    assert doubts(one, cal, seen.shape) == ("die_unseen",)
    still = reader.read(seen, cal, reference=_board_with_squares(cal, [(700.0, 300.0)]))
    assert still.reason == "dice_count" and still.unread_changes == 0  # it lay there: the other die is off


def _frame_with_dice(centres: list[tuple[float, float]], side: int = 28) -> np.ndarray:
    """A dull textured 1280x720 frame with a bright die ``side`` pixels wide round each frame point."""
    image = np.random.default_rng(3).integers(60, 100, (720, 1280, 3)).astype(np.uint8)
    for x, y in centres:
        image[int(y) - side // 2 : int(y) + side // 2, int(x) - side // 2 : int(x) + side // 2] = 240
    return image


def test_two_touching_dice_read_as_one_peak_are_two_dice() -> None:
    """Two dice side by side make one bright blob, and the stand-in finds one peak at its middle: the throw's
    change round it is two dice large, so the reading splits it, and the second stage reads both halves. A lone
    die stays one."""
    cal = Calibration.from_corners(CORNERS)
    before = _frame_with_dice([])
    head = FixedCrops([0.0, 0.0, 0.0, 0.95, 0.0, 0.0, 0.0, 0.05])
    reader = DiceReader(net=BrightSquares(), classifier=head, cocked_look=None)
    pair = reader.read(_frame_with_dice([(800.0, 400.0), (828.0, 400.0)]), cal, reference=before)
    assert pair.verdict == "valid" and pair.values == (4, 4)
    left, right = sorted(d.centre[0] for d in pair.dice)
    assert left == pytest.approx(800.0, abs=6) and right == pytest.approx(828.0, abs=6)
    apart = reader.read(_frame_with_dice([(800.0, 400.0), (950.0, 300.0)]), cal, reference=before)
    assert apart.verdict == "valid" and len(apart.dice) == 2
    one = reader.read(_frame_with_dice([(800.0, 400.0)]), cal, reference=before)
    assert len(one.dice) == 1 and one.reason == "dice_count"


class DieThenShadow:
    """A second stage that takes the first crops it reads for a die, and the last of a later batch for none."""

    def __init__(self) -> None:
        self.calls = 0

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        self.calls += 1
        out = np.tile(np.array([0.0, 0.0, 0.0, 0.95, 0.0, 0.0, 0.0, 0.05], np.float32), (len(crops), 1))
        if self.calls > 1:
            out[len(crops) // 2 :] = [0.0, 0.0, 0.0, 0.05, 0.0, 0.0, 0.0, 0.95]
        return out


def test_a_blob_is_not_split_where_the_second_stage_sees_no_die_in_a_half() -> None:
    """A half the second stage calls no die (a die's long shadow, say) leaves the one die read."""
    cal = Calibration.from_corners(CORNERS)
    reader = DiceReader(net=BrightSquares(), classifier=DieThenShadow(), cocked_look=None)
    seen = reader.read(_frame_with_dice([(800.0, 400.0), (828.0, 400.0)]), cal, reference=_frame_with_dice([]))
    assert len(seen.dice) == 1 and seen.reason == "dice_count"


def test_a_frame_before_from_another_camera_mode_is_ignored_not_an_error() -> None:
    cal = Calibration.from_corners(CORNERS)
    after = _board_with_squares(cal, [(200.0, 200.0), (620.0, 420.0)])
    reader = DiceReader(net=BrightSquares(), head=None)
    before = np.zeros((480, 640, 3), np.uint8)
    assert len(reader.dice(after, cal, reference=before)) == 2


def test_the_real_reader_reads_a_watched_rendered_throw_and_always_the_same() -> None:
    throw = heldout_throw(0, "valid", with_reference=True)
    cal = Calibration.from_corners(throw.corners)
    reader = DiceReader()
    watched = reader.read(throw.image, cal, throw.thrower, reference=throw.reference)
    assert watched.verdict == "valid" and sorted(watched.values or ()) == sorted(throw.values)
    assert reader.read(throw.image, cal, throw.thrower, reference=throw.reference) == watched


class ByOrientation:
    """A second stage that reads a crop as a 2 when its bright pixel is upper left, else as a 3 with
    less certainty: what every_turn averages is then known."""

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        out = np.full((len(crops), 8), 0.01, np.float32)
        for i, crop in enumerate(crops):
            upper_left = crop[:24, :24, 0].max() > 200
            out[i, 1 if upper_left else 2] = 0.93 if upper_left else 0.6
        return np.asarray(out / out.sum(axis=1, keepdims=True), np.float32)


def test_every_turn_averages_the_quarter_turns_and_mirrors_of_a_crop() -> None:
    crop = np.zeros((1, 48, 48, 3), np.uint8)
    crop[0, 5, 5] = 255
    once = every_turn(ByOrientation(), crop, 1)
    assert int(np.argmax(once[0])) == 1  # as it is: a 2
    all_turns = every_turn(ByOrientation(), crop, 8)
    assert all_turns.shape == (1, 8) and all_turns[0].sum() == pytest.approx(1.0)
    assert int(np.argmax(all_turns[0])) == 2  # upper left in 2 of the 8 turns only: the 3 wins
    with pytest.raises(ValueError):
        every_turn(ByOrientation(), crop, 9)


def test_turned_gives_numpy_s_quarter_turns_then_their_mirrors_in_either_layout() -> None:
    rng = np.random.default_rng(2)
    for shape, rows, cols in (((3, 2, 5, 5), 2, 3), ((2, 6, 6, 4), 1, 2)):
        x = rng.random(shape).astype(np.float32)
        quarter = [np.rot90(x, k, axes=(rows, cols)) for k in range(4)]
        every = quarter + [np.flip(q, axis=cols) for q in quarter]
        for turns in range(1, 9):
            got = turned(x, turns, rows, cols)
            assert got.flags.c_contiguous and np.array_equal(got, np.concatenate(every[:turns]))
    with pytest.raises(ValueError, match="square"):
        turned(np.zeros((1, 3, 4, 5), np.float32), 8, 2, 3)


class ChannelsLast:
    """The cocked look read through ``probabilities`` alone: ``every_turn`` then turns its channels-last inputs."""

    def __init__(self, look: OnnxLook) -> None:
        self.look = look

    def probabilities(self, inputs: np.ndarray) -> np.ndarray:
        return self.look.probabilities(inputs)


def test_the_cocked_look_turned_in_its_graph_s_layout_reads_as_turned_channels_last() -> None:
    look = OnnxLook(DEFAULT_COCKED_LOOK)
    inputs = np.random.default_rng(8).normal(0, 1, (3, 48, 48, PLANES)).astype(np.float32)
    for turns in (1, 3, 8):
        assert np.array_equal(every_turn(look, inputs, turns), every_turn(ChannelsLast(look), inputs, turns))
    with pytest.raises(ModelError, match="planes"):
        look.probabilities(inputs[..., :3])


class TurnedCrops:
    """The same classifier without ``planes``: ``every_turn`` turns the crops themselves and it reads each."""

    def __init__(self, classifier: OnnxReader | AdaptedClassifier) -> None:
        self.classifier = classifier

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        return self.classifier.probabilities(crops)


def pipped_dice(n: int) -> np.ndarray:
    """Light crops, each with a dark pip pattern and a little noise, at random places."""
    rng = np.random.default_rng(4)
    crops = np.full((n, 48, 48, 3), 210, np.uint8)
    for crop in crops:
        for _ in range(int(rng.integers(1, 7))):
            cv2.circle(crop, (int(rng.integers(14, 34)), int(rng.integers(14, 34))), 3, (30, 30, 30), -1)
    return np.clip(crops + rng.normal(0, 6, crops.shape), 0, 255).astype(np.uint8)


def test_the_second_stage_turns_its_input_once_made_as_it_would_turn_the_crops() -> None:
    """``every_turn`` makes the second stage's input once a crop and turns that input: the same probabilities as
    making it from each turned crop (``face_contrast`` does not care how a crop lies), with the match dice learned
    or not, for an eighth of the work."""
    crops = pipped_dice(6)
    head = OnnxReader(DEFAULT_HEAD)
    adapted = AdaptedClassifier(FeatureReader(OnnxModel(DEFAULT_HEAD)), DiceProfile("set"))
    adapted.confirm(crops[:3], np.array([0, 3, 5], np.int64))
    for classifier in (head, adapted):
        for turns in (2, 5, 8):
            once = every_turn(classifier, crops, turns)  # float32 sums in another order: differences near 2e-5
            assert np.allclose(once, every_turn(TurnedCrops(classifier), crops, turns), atol=1e-4)


def test_view_parts_and_scales_map_to_the_same_frame_points() -> None:
    view = board_view(Calibration.from_corners(CORNERS))
    point = np.array([[640.0, 360.0]])
    x, y = view.to_view_points(point)[0]
    part = view.part(160, 96, 320, 256)
    assert part.to_view_points(point)[0] == pytest.approx((x - 160, y - 96))
    assert part.size == (320, 256)
    half = view.scaled(0.5)
    assert half.to_view_points(point)[0] == pytest.approx((x / 2, y / 2))
    assert half.size == (view.size[0] // 2, view.size[1] // 2)


def test_on_a_calibrated_board_the_cocked_look_calls_cocked_and_the_value_is_read_among_the_faces() -> None:
    """The look (flat, cocked) reads a wider crop of the same die; with a calibration it has the cocked call,
    and the second stage's cocked share no longer takes a flat die's confidence away."""
    cal = Calibration.from_corners(CORNERS)
    image = _board_with_squares(cal, [(620.0, 420.0)])
    head = FixedCrops([0.1, 0.0, 0.0, 0.45, 0.0, 0.0, 0.45, 0.0])  # a 4, but 0.45 of it cocked: unreadable alone
    alone = DiceReader(net=BrightSquares(), classifier=head, cocked_look=None).read(image, cal)
    assert alone.dice[0].value is None and alone.verdict == "void"

    flat = DiceReader(net=BrightSquares(), classifier=head, cocked_look=FixedCrops([0.9, 0.1]))
    (die,) = flat.dice(image, cal)
    assert die.value == 4 and not die.cocked
    assert die.confidence == pytest.approx(0.45 / 0.55) and die.cocked_probability == pytest.approx(0.1)

    look = FixedCrops([0.2, 0.8])
    (die,) = DiceReader(net=BrightSquares(), classifier=head, cocked_look=look).dice(image, cal)
    assert die.cocked and die.cocked_probability == pytest.approx(0.8)
    second, wide = head.seen[-1][0], look.seen[-1][0]
    assert second.shape == (48, 48, 3) and wide.shape == (48, 48, PLANES)
    # the same die, seen wider: its bright square is smaller in the look's crop (1.4 times wider)
    assert (wide[:, :, 0] > 0).sum() < 0.7 * (second[:, :, 0] > 200).sum()
    # and beside it the slant a flat die shows there, from the calibration
    (x0, y0, x1, y1) = die.crop_box or die.box
    expected = slant(cal, image.shape, np.array([[(x0 + x1) / 2, (y0 + y1) / 2]]))
    assert np.abs(expected).max() > 0.01
    assert np.allclose(wide[:, :, 3], ramp(expected, 48)[0], atol=1e-5)


def test_without_a_calibration_the_cocked_look_is_not_asked() -> None:
    """A photo is not a camera over a board: a flat die seen obliquely shows a side face, which the look,
    trained for the table, would call cocked. The second stage keeps the call."""
    image = np.full((480, 640, 3), 120, np.uint8)
    look = FixedCrops([0.0, 1.0])
    head = FixedCrops([0.0, 0.0, 0.0, 0.0, 0.95, 0.0, 0.05, 0.0])
    (die,) = DiceReader(net=OneDie(36.0), classifier=head, cocked_look=look).read_all(image).dice
    assert die.value == 5 and not die.cocked and look.seen == []
