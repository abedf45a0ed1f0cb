"""The held-out rendered test set and test videos: seeds, dice presets and boards the training never used.

Training renders with seeds below 1,000,000 and the first nine dice presets; these scenes use seeds from
``HELDOUT_SEED`` on and the three remaining presets, with fresh random boards, surfaces and checkers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from numpy.typing import NDArray

from vision.calibration import BOARD_MM, Calibration, Thrower
from vision.leaning import Checker
from vision.synth import render
from vision.train.dataset import TRAIN_DICE

HELDOUT_SEED = 1_000_000
HELDOUT_DICE = [i for i in range(len(render.DIE_COLOURS)) if i not in TRAIN_DICE]
KINDS = ("valid", "cocked", "wrong_half", "off_board")
TOUCHING = "touching"
"""A valid throw whose flat dice lie against a checker or each other (``render.ThrowSpec.touching`` 1.0): the
KINDS' flat dice keep clear of both while a cocked die leans on a checker, so a reader that takes a neighbour
for a leaning die is only caught here. Its indices start at ``TOUCHING_FROM``, clear of the KINDS' own."""
TOUCHING_FROM = 200_000
MATCH_SEEDS = 900_000
"""Held-out matches (:func:`heldout_match_throw`) are seeded by ``(HELDOUT_SEED, MATCH_SEEDS, match[, throw])``:
apart from every single throw's seed."""


def heldout_index(kind: str, i: int) -> int:
    """The index of the ``i``-th held-out throw of ``kind`` (the KINDS interleaved; TOUCHING apart)."""
    return TOUCHING_FROM + i if kind == TOUCHING else i * len(KINDS) + KINDS.index(kind)


@dataclass(frozen=True)
class HeldoutThrow:
    image: NDArray[np.uint8]
    kind: str  # valid | cocked | wrong_half | off_board | touching
    thrower: Thrower
    dice: tuple[render.DieTruth, ...]  # each die: its value, whether cocked, and where it lies in ``image``
    corners: NDArray[np.float64]  # the board's true outer corners (for the manual-calibration fallback)
    reference: NDArray[np.uint8] | None = None  # the board just before the throw, as settle detection keeps it
    checkers: tuple[Checker, ...] = ()  # where the checkers lie (board millimetres), as the referee's position says

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice)


def heldout_throw(
    index: int, kind: str, size: tuple[int, int] = (1280, 720), with_reference: bool = False
) -> HeldoutThrow:
    """One held-out throw; ``with_reference`` renders the empty board first and the dice onto it (what the
    ``watch`` path sees: the last still frame before the throw, then the settled frame)."""
    rng = np.random.default_rng(HELDOUT_SEED + index)
    style = render.random_board_style(rng, HELDOUT_DICE)
    cam = render.board_camera(rng, size)
    thrower: Thrower = "bottom" if index % 2 == 0 else "top"
    return _throw(rng, style, cam, kind, thrower, with_reference)


def heldout_match_throw(
    match: int, throw: int, kind: str, size: tuple[int, int] = (1280, 720), with_reference: bool = True
) -> HeldoutThrow:
    """Throw ``throw`` of held-out match ``match``: one pair of dice, one board and one camera all match long,
    as at a real table, and each throw its own place for the dice, checkers and light. The players take turns
    (the bottom player throws first). Seeded apart from :func:`heldout_throw`'s throws."""
    table = np.random.default_rng((HELDOUT_SEED, MATCH_SEEDS, match))
    style = render.random_board_style(table, HELDOUT_DICE)
    cam = render.board_camera(table, size)
    thrower: Thrower = "bottom" if throw % 2 == 0 else "top"
    rng = np.random.default_rng((HELDOUT_SEED, MATCH_SEEDS, match, throw))
    return _throw(rng, style, cam, kind, thrower, with_reference)


def _throw(
    rng: np.random.Generator,
    style: render.BoardStyle,
    cam: render.Camera,
    kind: str,
    thrower: Thrower,
    with_reference: bool,
) -> HeldoutThrow:
    spec = render.ThrowSpec("valid", thrower, 1.0) if kind == TOUCHING else render.ThrowSpec(kind, thrower)
    if not with_reference:
        scene, _, drawn = render.board_scene(rng, style, cam, spec)
        assert scene.corners is not None
        return HeldoutThrow(
            scene.image, kind, thrower, tuple(scene.dice), scene.corners, checkers=on_board(cam, scene.corners, drawn)
        )
    empty, _, checkers = render.board_scene(rng, style, cam, spec, dice_override=[])
    scene, _, supports = render.board_scene(
        rng,
        style,
        cam,
        spec,
        checkers_override=[],
        background=empty.image,
        camera_effects=False,
        drawn_checkers=checkers,
    )
    noisy = np.clip(scene.image + rng.normal(0, 2.0, scene.image.shape), 0, 255).astype(np.uint8)
    assert scene.corners is not None
    lying = on_board(cam, scene.corners, [*checkers, *supports])  # a die's support: in the position too
    return HeldoutThrow(noisy, kind, thrower, tuple(scene.dice), scene.corners, empty.image, lying)


def on_board(
    cam: render.Camera, corners: NDArray[np.float64], checkers: Sequence[render.Checker3D]
) -> tuple[Checker, ...]:
    """The rendered checkers where the calibration from ``corners`` puts them (board millimetres)."""
    if not checkers:
        return ()
    board = Calibration.from_corners(corners).to_board_mm(cam.project(np.array([c.centre for c in checkers])))
    scale = BOARD_MM / (render.BOARD_W + 2 * render.FRAME_W)  # world millimetres to a typical board's
    return tuple(Checker(float(x), float(y), c.radius * scale) for (x, y), c in zip(board, checkers))


@dataclass(frozen=True)
class ThrowVideo:
    frames: list[NDArray[np.uint8]]
    fps: float
    rest_frame: int  # the first frame on which the dice lie still
    values: tuple[int, int]
    corners: NDArray[np.float64]
    thrower: Thrower


def throw_video(
    seed: int,
    size: tuple[int, int] = (1280, 720),
    fps: float = 30.0,
    empty_frames: int = 8,
    moving_frames: int = 12,
    still_frames: int = 20,
) -> ThrowVideo:
    """A board, then two dice tumbling in (new place and turn each frame), then the dice at rest."""
    rng = np.random.default_rng(HELDOUT_SEED + 500_000 + seed)
    style = render.random_board_style(rng, HELDOUT_DICE)
    cam = render.board_camera(rng, size)
    thrower: Thrower = "bottom" if seed % 2 == 0 else "top"
    empty, _, checkers = render.board_scene(rng, style, cam, render.ThrowSpec("valid", thrower), dice_override=[])
    still_rng = np.random.default_rng(seed)
    final, dice, _ = render.board_scene(
        still_rng,
        style,
        cam,
        render.ThrowSpec("valid", thrower),
        checkers_override=[],
        background=empty.image,
        camera_effects=False,
        drawn_checkers=checkers,
    )
    frames = [empty.image] * empty_frames
    right = 1.0 if thrower == "bottom" else -1.0
    for i in range(moving_frames):
        moving = []
        for d in dice:
            progress = (i + 1) / (moving_frames + 1)
            x = d.centre[0] + right * (1 - progress) * 120 + rng.normal(0, 5)
            y = d.centre[1] + (1 - progress) * 80 * (1 if i % 2 else -1)
            moving.append(
                render.make_die(
                    rng, x, y, d.size, int(rng.integers(1, 7)), (d.body, d.pip), pip_radius=d.pip_radius, style=d.style
                )
            )
        frame, _, _ = render.board_scene(
            rng,
            style,
            cam,
            render.ThrowSpec("valid", thrower),
            dice_override=moving,
            checkers_override=[],
            background=empty.image,
            camera_effects=False,
        )
        frames.append(frame.image)
    frames += [final.image] * still_frames
    # sensor noise: no two frames are identical, even when nothing moves
    frames = [np.clip(f + rng.normal(0, 2.0, f.shape), 0, 255).astype(np.uint8) for f in frames]
    assert final.corners is not None
    values = (final.dice[0].value, final.dice[1].value)
    return ThrowVideo(frames, fps, empty_frames + moving_frames, values, final.corners, thrower)


def cube_throw(index: int, size: tuple[int, int] = (1280, 720)) -> tuple[HeldoutThrow, tuple[float, float]]:
    """A held-out valid throw with a doubling cube on the board (numerals 2-64; never a die), and where the
    cube is in the image."""
    from vision.train.detector_data import board_with_cube  # here: detector_data -> dataset, as this module

    rng = np.random.default_rng(HELDOUT_SEED + 700_000 + index)
    style = render.random_board_style(rng, HELDOUT_DICE)
    cam = render.board_camera(rng, size)
    thrower: Thrower = "bottom" if index % 2 == 0 else "top"
    image, scene, _, cube = board_with_cube(rng, style, cam, render.ThrowSpec("valid", thrower), 1.0)
    assert scene.corners is not None and cube is not None
    throw = HeldoutThrow(image, "valid", thrower, tuple(scene.dice), scene.corners)
    return throw, cube
