"""The detector's and second stage's training data: what is labelled a die, and what must never be."""

from __future__ import annotations

import cv2
import numpy as np

from vision.crop_reader import CLASS_NOT_DIE, CROP
from vision.synth import render
from vision.train.crop_data import OBLIQUE_TILTS, clutter_crop, colour, painted, recoloured
from vision.train.dataset import TRAIN_DICE
from vision.train.detector_data import GOLD_PIPS, any_colour_dice, cube_patches, targets


def test_a_doubling_cube_scene_teaches_that_the_cube_is_no_die() -> None:
    """The cube scenes once labelled the cube a die showing one, and the detector learned to find cubes."""
    rng = np.random.default_rng(0)
    for patch, dice in cube_patches(rng, 3):
        assert dice == []
        assert targets(dice)[0].max() == 0.0  # no die centre anywhere in the heat map
        assert patch.shape[:2] == (128, 128)


def test_clutter_crops_are_crops_of_the_reader_size_and_vary() -> None:
    rng = np.random.default_rng(1)
    crops = np.stack([clutter_crop(rng) for _ in range(12)])
    assert crops.shape == (12, CROP, CROP, 3) and crops.dtype == np.uint8
    assert len({c.tobytes() for c in crops}) == 12
    assert CLASS_NOT_DIE == 7


def test_recolouring_keeps_a_die_s_pattern_of_light_and_dark() -> None:
    """A white die with black pips, recoloured, still shows its pips where they were (darker or lighter, but
    apart from the face): the value cannot change."""
    face = np.full((1, CROP, CROP, 3), 230, np.uint8)
    face[0, 20:28, 20:28] = 20  # one pip in the middle
    rng = np.random.default_rng(2)
    for _ in range(20):
        out = colour(face, rng)[0].astype(np.float32).mean(axis=2)
        pip, rest = out[22:26, 22:26].mean(), out[4:12, 4:12].mean()
        assert abs(pip - rest) > 20


def test_marbled_recolouring_keeps_the_pips_apart_from_every_vein() -> None:
    """Marbled dice swirl between two colours; a pip must stand out against each of them, or the value
    would be taught from a face where it cannot be seen."""
    face = np.full((CROP, CROP, 3), 230, np.float32)
    face[20:28, 20:28] = 20
    around = np.ones((CROP, CROP), bool)  # the face but the pip and its blurred edge
    around[18:30, 18:30] = False
    rng = np.random.default_rng(3)
    marbled = 0
    for _ in range(60):
        out = recoloured(face, rng)
        grey = out.mean(axis=2)
        pip = grey[22:26, 22:26].mean()
        marbled += out[around].std(axis=0).max() > 5
        assert np.all(np.abs(grey[around] - pip) > 20)
    assert 5 < marbled < 40  # about three in ten


def test_flat_dice_are_rendered_against_a_checker_or_each_other_and_never_into_them() -> None:
    """A leaning die has its support beside it; flat dice must lie against things too, or a model learns that
    a neighbour means a leaning die. However the dice are turned, nothing overlaps."""
    against_checker = against_die = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        style = render.random_board_style(rng)
        cam = render.board_camera(rng, (640, 360))
        _, dice, checkers = render.board_scene(rng, style, cam, render.ThrowSpec("valid", "bottom", touching=1.0))
        first, second = dice
        gap = float(np.hypot(*(first.centre[:2] - second.centre[:2])))
        assert gap > np.sqrt(2) * first.size  # beyond both half-diagonals
        against_die += gap < 1.75 * first.size
        for die in dice:
            base = die.corners()[np.argsort(die.corners()[:, 2])[:4], :2]  # the face it lies on
            t = np.linspace(0.0, 1.0, 25)[:, None]
            footprint = np.vstack([a + t * (b - a) for a in base for b in base])  # its edges (and diagonals)
            for checker in checkers:
                clearance = np.hypot(*(footprint - checker.centre[:2]).T).min() - checker.radius
                assert clearance > -1e-6, "a checker drawn into a die"
                against_checker += clearance < 0.15 * die.size
    assert against_checker >= 20 and against_die >= 10


def test_dice_thrown_onto_a_board_picture_keep_clear_of_its_checkers() -> None:
    """The held-out throws draw the dice onto the board as it was before the throw: a flat die drawn over a
    checker there would lie on it, a void throw counted as valid (and a reader that voids it, as wrong)."""
    for seed in range(30):
        rng = np.random.default_rng(seed)
        style = render.random_board_style(rng)
        cam = render.board_camera(rng, (640, 360))
        spec = render.ThrowSpec("valid", "bottom")
        empty, _, checkers = render.board_scene(rng, style, cam, spec, dice_override=[])
        _, dice, drawn = render.board_scene(
            rng, style, cam, spec, checkers_override=[], background=empty.image, drawn_checkers=checkers
        )
        assert drawn == []  # the board's checkers are in the picture already
        for die in dice:
            gap = min(float(np.hypot(*(die.centre[:2] - c.centre[:2]))) - c.radius for c in checkers)
            assert gap > die.size, (seed, gap)


def under_raised_side(leaning: render.Die3D) -> list[np.ndarray]:
    """Points on the table just below a leaning die's raised side, where what it rests on lies."""
    towards = render.leaning_towards(leaning)
    reach = float(((leaning.corners()[:, :2] - leaning.centre[:2]) @ towards).max())
    return [leaning.centre[:2] + towards * reach * f for f in (0.9, 1.0, 1.1)]


def rests_on_die(leaning: render.Die3D, other: render.Die3D) -> bool:
    """Whether the leaning die's raised side rests on the flat die ``other``."""
    footprint = other.corners()[:, :2]
    low, high = footprint.min(axis=0) - 0.05 * other.size, footprint.max(axis=0) + 0.05 * other.size
    return any(np.all(p >= low) and np.all(p <= high) for p in under_raised_side(leaning))


def test_a_cocked_die_rests_on_a_checker_or_the_other_die() -> None:
    """A die stays tilted only on something: a cocked die drawn with nothing under its raised side (two in five
    were) is a die no camera will see, and the look learned to call such dice cocked rather than to look for
    what a leaning die rests on."""
    on_die = on_checker = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        style = render.random_board_style(rng)
        cam = render.board_camera(rng, (640, 360))
        _, dice, checkers = render.board_scene(rng, style, cam, render.ThrowSpec("cocked", "bottom"))
        leaning, other = dice
        assert leaning.cocked and not other.cocked
        ahead = under_raised_side(leaning)
        under_checker = any(np.hypot(*(p - c.centre[:2])) < c.radius for p in ahead for c in checkers)
        under_die = rests_on_die(leaning, other)
        assert under_checker or under_die, seed
        on_die += under_die and not under_checker
        on_checker += under_checker
    assert on_die >= 8 and on_checker >= 16, (on_die, on_checker)


def test_a_cocked_die_on_a_desk_rests_on_a_checker_or_a_die() -> None:
    """The detector's desk scenes (``render.table_scene``) drew two in five cocked dice tilted on nothing; each
    now rests on a checker or on a flat die under its raised side, as on any real table."""
    on_die = on_checker = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        cam = render.Camera(np.array([0.0, -80.0, 300.0]), np.zeros(3), 560.0, (640, 480))
        dice, checkers = render.table_dice(rng, cam, 4, 16.0, render.DIE_COLOURS[0], cocked_rate=0.5)
        for leaning in (d for d in dice if d.cocked):
            ahead = under_raised_side(leaning)
            under_checker = any(np.hypot(*(p - c.centre[:2])) < c.radius for p in ahead for c in checkers)
            under_die = any(rests_on_die(leaning, d) for d in dice if not d.cocked)
            assert under_checker or under_die, seed
            on_die += under_die and not under_checker
            on_checker += under_checker
    assert on_die >= 5 and on_checker >= 10, (on_die, on_checker)


def test_training_boards_get_dice_of_any_colour_some_the_colour_of_the_board() -> None:
    """Half the boards keep a training preset; the rest get any colour, a third of them nearly a point's or the
    field's colour (the case the detector missed), with dark pips on a light body and light ones on a dark body
    (or gold)."""
    presets = {render.DIE_COLOURS[i] for i in TRAIN_DICE}
    kept = like_board = 0
    for seed in range(300):
        rng = np.random.default_rng(seed)
        style = render.random_board_style(rng, TRAIN_DICE)
        dice = any_colour_dice(rng, style).dice
        if dice == style.dice:
            kept += dice in presets
            continue
        body, pip = dice
        under = (style.point_a, style.point_b, style.field)
        like_board += any(max(abs(a - b) for a, b in zip(body, colour)) <= 20 for colour in under)
        dark_pips, light_pips = max(pip) <= 140, min(pip) >= 150
        assert pip == GOLD_PIPS or (dark_pips if sum(body) > 3 * 128 else light_pips), (body, pip)
    assert 100 < kept < 200 and 30 < like_board < 80


def test_slanted_desk_scenes_show_the_dice_s_side_faces() -> None:
    """The second stage's slanted scenes (``OBLIQUE_TILTS``) are what they are for: each die's top face lies
    further off the middle of the die's picture, with a side face beside it, than under a camera looking straight
    down (where only dice far from the middle of the view show a side)."""

    def top_off_centre(tilts: tuple[float, float]) -> float:
        rng = np.random.default_rng(3)
        shares = []
        for _ in range(12):
            for d in render.table_scene(rng, (640, 480), n_dice=3, cocked_rate=0.0, tilts=tilts).dice:
                side = max(d.box[2] - d.box[0], d.box[3] - d.box[1])
                middle = ((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2)
                shares.append(np.hypot(d.top_centre[0] - middle[0], d.top_centre[1] - middle[1]) / side)
        return float(np.median(shares))

    straight, slanted = top_off_centre((0.0, 0.0)), top_off_centre(OBLIQUE_TILTS)
    assert slanted > 1.5 * straight, (straight, slanted)


def test_painted_dice_keep_their_pips_apart_by_colour_and_some_by_colour_alone() -> None:
    """The painted desk dice are what they are for: every pip apart from the body and from every marbling vein
    (or the value would be taught from a face where it cannot be seen), and many apart by colour only (red pips
    on a black die), which neither the presets nor the recolouring of real crops ever show."""
    rng = np.random.default_rng(4)
    paints = [painted(rng) for _ in range(400)]
    brightness = [abs(sum(body) - sum(pip)) / 3 for body, pip, _ in paints]
    for body, pip, vein in paints:
        for body_colour in (body, vein) if vein is not None else (body,):
            assert np.linalg.norm(np.subtract(body_colour, pip)) > 110, (body_colour, pip)
    assert 100 < sum(b < 70 for b in brightness) < 300  # recoloured crops keep pips 70 apart in brightness
    assert 120 < sum(vein is not None for _, _, vein in paints) < 200  # two in five marbled


def test_a_marbled_die_swirls_between_its_two_colours_round_its_pips() -> None:
    """A marbled face shows both body colours, and its pips are drawn over the swirl in their own colour."""
    body, pip, vein = (30, 30, 30), (40, 40, 200), (160, 90, 20)
    tex, _ = render.face_texture(1, body, pip, 0.1, 0, vein=vein, seed=7)
    corner = tex[15:40, 15:40].reshape(-1, 3).astype(np.float32)  # a one's face: no pip up here
    near_vein = np.linalg.norm(corner - vein, axis=1) < 40
    near_body = np.linalg.norm(corner - body, axis=1) < 40
    assert near_vein.mean() > 0.1 and near_body.mean() > 0.1
    assert np.abs(tex[48, 48].astype(int) - pip).max() <= 2  # the one pip in the middle
    plain, _ = render.face_texture(1, body, pip, 0.1, 0)
    assert np.all(plain[15:40, 15:40] == body)


def test_varied_pips_keep_every_face_its_number_of_pips_apart() -> None:
    """Painted dice may have pips of any size and spacing club dice have, but a face must still show its value:
    the largest pips at the tightest spacing stay apart (a six's two columns of three most of all), and the
    widest spacing keeps them on the face."""
    body, pip = (235, 235, 235), (20, 20, 20)
    for spread in render.VARIED_PIP_SPREAD:
        radius = render.largest_pip_radius(spread)
        for value in range(1, 7):
            tex, mask = render.face_texture(value, body, pip, radius, 0, spread=spread)
            dark = ((tex.max(axis=2) < 128) & (mask > 0)).astype(np.uint8)
            count, _ = cv2.connectedComponents(dark)
            assert count - 1 == value, (spread, radius, value)
    rng = np.random.default_rng(2)
    scene = render.table_scene(rng, paint=painted(rng), varied_pips=True, n_dice=4)
    assert len(scene.dice) == 4
