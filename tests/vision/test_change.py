"""What the throw changed: the parts of the view the detector reads when the frame before the throw is known."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.change import CHANGE_LEVEL, CONTEXT, Change, change, components, grown, unread_parts

DIE = 26.0


def _board(seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).integers(70, 110, (768, 960, 3)).astype(np.uint8)


def _with_die(view: np.ndarray, x: int, y: int, colour: tuple[int, int, int] = (235, 235, 235)) -> np.ndarray:
    out = view.copy()
    out[y - 13 : y + 13, x - 13 : x + 13] = colour
    return out


def test_a_die_thrown_onto_the_board_is_a_changed_part_with_context_round_it() -> None:
    before = _board()
    after = _with_die(before, 400, 300)
    moved = change(after, before, DIE, 16)
    assert len(moved.regions) == 1
    x0, y0, x1, y1 = moved.regions[0]
    assert all(v % 16 == 0 for v in (x0, y0)) and x0 < 387 and y0 < 287 and x1 > 413 and y1 > 313
    assert 400 - x0 >= 13 + CONTEXT * DIE - 16  # the detector sees the die's surroundings too
    assert (x1 - x0) * (y1 - y0) < 960 * 768 / 10  # and not the whole board
    assert moved.share((400.0, 300.0), DIE) > 0.9
    assert moved.share((700.0, 600.0), DIE) == 0.0


def test_sensor_noise_alone_changes_nothing() -> None:
    before = _board()
    noise = np.random.default_rng(2).normal(0, 2.0, before.shape)
    after = np.clip(before + noise, 0, 255).astype(np.uint8)
    assert change(after, before, DIE, 16).regions == ()


def test_a_red_die_on_a_brown_point_of_the_same_brightness_is_seen() -> None:
    before = np.zeros((768, 960, 3), np.uint8)
    before[:] = (40, 70, 120)  # brown (BGR)
    after = _with_die(before, 500, 500, (40, 40, 160))  # red with about the same grey level
    assert len(change(after, before, DIE, 16).regions) == 1


def test_two_dice_far_apart_are_two_parts_and_two_close_ones_one() -> None:
    before = _board()
    apart = _with_die(_with_die(before, 150, 150), 800, 600)
    assert len(change(apart, before, DIE, 16).regions) == 2
    close = _with_die(_with_die(before, 300, 300), 360, 330)
    assert len(change(close, before, DIE, 16).regions) == 1


def test_a_change_of_light_over_the_whole_board_reads_the_whole_view() -> None:
    before = _board()
    after = np.clip(before.astype(np.int16) + 60, 0, 255).astype(np.uint8)
    assert change(after, before, DIE, 16).regions == ((0, 0, 960, 768),)


def test_views_of_different_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="same view"):
        change(_board(), _board()[:100], DIE, 16)


def test_a_change_no_die_read_explains_is_counted_unless_it_is_small_or_off_the_board() -> None:
    """A die the reader missed leaves a changed part where no die was read; a die thrown beyond the board
    leaves, at most, a part of itself at the view's edge; a speck is not a die."""
    before = _board()
    after = _with_die(_with_die(before, 400, 300), 700, 500)
    moved = change(after, before, DIE, 16)
    assert unread_parts(moved, [(400.0, 300.0, DIE), (700.0, 500.0, DIE)], DIE) == []  # both dice read
    [(x0, y0, x1, y1)] = unread_parts(moved, [(400.0, 300.0, DIE)], DIE)  # one missed: where it lies
    assert x0 <= 700 <= x1 and y0 <= 500 <= y1 and x1 - x0 <= 2 * DIE and y1 - y0 <= 2 * DIE
    assert len(unread_parts(moved, [], DIE)) == 2
    beyond = _with_die(before, 950, 300)  # half a die in view, at the board's edge
    speck = before.copy()
    speck[600:606, 200:206] = 240
    for after in (beyond, speck):
        assert unread_parts(change(after, before, DIE, 16), [], DIE) == []


def test_a_die_the_colour_of_the_board_changes_it_in_pieces_and_is_one_unread_part() -> None:
    """A dark red die on a dark red field changes the picture only at its pips and edges, each piece far smaller
    than a die (held-out match 228): the pieces of one die are one part; pieces a die apart stay apart."""
    before = _board()
    after = before.copy()
    for dx in (-6, 6):
        for dy in (-6, 0, 6):
            after[400 + dy - 2 : 400 + dy + 3, 500 + dx - 2 : 500 + dx + 3] = 240  # six pips, no body
    moved = change(after, before, DIE, 16)
    [(x0, y0, x1, y1)] = unread_parts(moved, [], DIE)
    assert x0 <= 500 <= x1 and y0 <= 400 <= y1
    apart = before.copy()
    for x in (200, 240, 280):  # specks over a die side apart: each a speck, not a die
        apart[600:605, x : x + 5] = 240
    assert unread_parts(change(apart, before, DIE, 16), [], DIE) == []


def test_the_parts_of_a_map_are_opencv_s_own_in_its_order() -> None:
    rng = np.random.default_rng(5)
    for _ in range(200):
        h, w = (int(v) for v in rng.integers(5, 80, 2))
        mask = (rng.random((h, w)) < rng.random() * 0.08).astype(np.uint8)
        for _ in range(int(rng.integers(0, 6))):
            y, x, a, b = (int(v) for v in rng.integers(0, 40, 4))
            mask[y : y + a, x : x + b] = 1
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        assert np.array_equal(components(mask), stats[1:count])


def test_a_die_missed_is_found_the_same_wherever_on_the_map_it_lies() -> None:
    # the closing is made near the changed pixels alone: as on the whole map, at the edges too
    for x, y in ((3, 3), (200, 150), (470, 2)):
        mask = np.zeros((384, 480), np.uint8)
        mask[y : y + 10, x : x + 11 : 2] = 1  # a die the board's colour: stripes the closing joins
        whole = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(whole, connectivity=8)
        got = unread_parts(Change(mask, ()), [], 13.0)
        at_edge = [bx == 0 or by == 0 or bx + bw >= 480 or by + bh >= 384 for bx, by, bw, bh, _ in stats[1:count]]
        assert len(got) == at_edge.count(False)
        if got:
            assert got[0] == (x, y, x + 11, y + 10)


def test_a_map_grown_near_its_changed_pixels_is_the_whole_map_dilated() -> None:
    rng = np.random.default_rng(6)
    for _ in range(200):
        h, w = (int(v) for v in rng.integers(1, 120, 2))
        mask = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(0, 4))):  # none, or a few blobs, at the edges too
            y, x, a, b = (int(v) for v in rng.integers(0, 120, 4))
            mask[y : y + a % 9 + 1, x : x + b % 9 + 1] = 1
        reach = int(rng.integers(1, 30))
        square = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1))
        assert np.array_equal(grown(mask, reach), cv2.dilate(mask, square))


def test_a_pixel_changed_when_any_colour_moved_by_the_change_level() -> None:
    before = np.full((64, 64, 3), 100, np.uint8)
    now = before.copy()
    now[20:40, 20:40, 2] = 100 + CHANGE_LEVEL  # red alone, blurred at the edges: below the level there
    now[20:40, 44:60, 1] = 100 + CHANGE_LEVEL - 1  # green, just short of it
    mask = change(now, before, 4.0, 8).mask
    smooth_diff = cv2.absdiff(cv2.GaussianBlur(now, (3, 3), 0), cv2.GaussianBlur(before, (3, 3), 0))
    assert np.array_equal(mask, (smooth_diff.max(axis=2) >= CHANGE_LEVEL).astype(np.uint8))
    assert mask[30, 30] == 1 and mask[30, 50] == 0 and mask.dtype == np.uint8
