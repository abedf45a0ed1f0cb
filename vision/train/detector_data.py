"""Training patches for the dice detector, built for diversity rather than volume.

Sources, each turned into 128 px patches with dice of 16-64 px and per-cell targets at the detector's stride:
- rendered desk scenes (``render.table_scene``) with random dice and pip colours, surfaces, light, blur,
  noise and JPEG, cocked dice, checkers, cables and coins;
- rendered whole boards rectified exactly as the reader rectifies them (``vision.rectify.board_view``), half
  of them with dice of any colour, some the colour of the board's points (``any_colour_dice``);
- a doubling cube (numerals 2-64 on its faces) drawn into rendered scenes: never a die;
- the real scene sets in ``../shared/real_dice`` (``webcam_white_dice``, ``tray_mixed_dice``) and real die
  crops (``casino_dice_crops`` and dice cut from the scene sets) pasted onto rendered surfaces.
Any real set can be left out whole (leave one set out).
"""

from __future__ import annotations

import glob
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.detector import SIZE_REF
from vision.rectify import STRIDE, board_view
from vision.scoring import labelled_dice
from vision.synth import render
from vision.train.dataset import TRAIN_DICE

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "real_dice"
REAL_SETS = ("webcam_white_dice", "tray_mixed_dice", "casino_dice_crops")
PATCH = 128
CELLS = PATCH // STRIDE
SIZE_RANGE = (16.0, 64.0)
Image = NDArray[np.uint8]


@dataclass(frozen=True)
class Die:
    x: float
    y: float
    side: float
    value: int  # 1..6 (the upper face; for a cocked die the face most up)
    cocked: bool


def targets(dice: list[Die]) -> NDArray[np.float32]:
    """Per-cell targets (CELLS x CELLS): heat (Gaussian), then value (-1: none), cocked, log side, offset x, y,
    and a weight (1 on the 3 x 3 cells round each centre, where value, cocked, side and offset are learned)."""
    t = np.zeros((7, CELLS, CELLS), np.float32)
    t[1] = -1
    gy, gx = np.mgrid[0:CELLS, 0:CELLS].astype(np.float32) + 0.5
    for d in dice:
        cx, cy = d.x / STRIDE, d.y / STRIDE
        sigma = max(0.6, d.side / STRIDE / 4)
        t[0] = np.maximum(t[0], np.exp(-((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * sigma**2)))
        ci, cj = int(np.floor(cy)), int(np.floor(cx))
        if 0 <= ci < CELLS and 0 <= cj < CELLS:
            t[0, ci, cj] = 1.0
        for i in range(ci - 1, ci + 2):
            for j in range(cj - 1, cj + 2):
                if 0 <= i < CELLS and 0 <= j < CELLS and t[6, i, j] == 0:
                    t[1, i, j] = d.value - 1
                    t[2, i, j] = float(d.cocked)
                    t[3, i, j] = np.log(d.side / SIZE_REF)
                    t[4, i, j] = cx - (j + 0.5)
                    t[5, i, j] = cy - (i + 0.5)
                    t[6, i, j] = 1.0
    return t


def camera(rng: np.random.Generator, image: Image) -> Image:
    """Light, colour cast, blur, noise and JPEG on a finished patch (real and rendered alike)."""
    x: NDArray[Any] = image.astype(np.float32)
    if rng.random() < 0.3:
        x = x[..., rng.permutation(3)]  # other dice and table colours
    x = x * rng.uniform(0.6, 1.3) * rng.uniform(0.88, 1.12, 3) + rng.uniform(-25, 25)
    if rng.random() < 0.3:
        x = 255 * (np.clip(x, 0, 255) / 255) ** rng.uniform(0.7, 1.5)
    r = rng.random()
    if r < 0.2:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.5, 1.4))
    elif r < 0.3:
        n = int(rng.integers(3, 7))
        k: NDArray[Any] = np.zeros((n, n), np.float32)
        k[n // 2] = 1.0 / n
        k = cv2.warpAffine(k, cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), rng.uniform(0, 180), 1), (n, n))
        x = cv2.filter2D(x, -1, np.asarray(k / max(float(k.sum()), 1e-6), np.float32))
    x = x + rng.standard_normal(x.shape).astype(np.float32) * rng.uniform(0, 6)
    out = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        out = np.asarray(cv2.imdecode(enc, cv2.IMREAD_COLOR), np.uint8)
    return np.asarray(out, np.uint8)


def patches(
    rng: np.random.Generator,
    image: Image,
    dice: list[Die],
    n: int,
    scale_to: tuple[float, float] = SIZE_RANGE,
    empty_share: float = 0.25,
) -> list[tuple[Image, list[Die]]]:
    """``n`` patches of ``image``, scaled so its dice measure a random size in ``scale_to``; most patches hold a
    die, ``empty_share`` of them lie anywhere (surfaces, checkers, clutter, board points)."""
    out = []
    sides = [d.side for d in dice]
    for _ in range(n):
        if sides:
            s = float(np.exp(rng.uniform(*np.log(scale_to)))) / float(np.median(sides))
        else:
            s = float(rng.uniform(0.5, 1.2))
        s = min(s, 4.0)
        interpolation = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
        small: NDArray[Any] = cv2.resize(image, None, fx=s, fy=s, interpolation=interpolation)
        h, w = small.shape[:2]
        if h < PATCH or w < PATCH:
            pad_y, pad_x = max(0, PATCH - h), max(0, PATCH - w)
            small = cv2.copyMakeBorder(small, 0, pad_y, 0, pad_x, cv2.BORDER_REFLECT)
            h, w = small.shape[:2]
        if dice and rng.random() > empty_share:
            d = dice[int(rng.integers(len(dice)))]
            x0 = int(d.x * s - rng.uniform(0.15, 0.85) * PATCH)
            y0 = int(d.y * s - rng.uniform(0.15, 0.85) * PATCH)
        else:
            x0, y0 = int(rng.integers(0, w - PATCH + 1)), int(rng.integers(0, h - PATCH + 1))
        x0, y0 = min(max(x0, 0), w - PATCH), min(max(y0, 0), h - PATCH)
        crop = small[y0 : y0 + PATCH, x0 : x0 + PATCH]
        inside = [
            Die(d.x * s - x0, d.y * s - y0, d.side * s, d.value, d.cocked)
            for d in dice
            if -0.3 * d.side * s < d.x * s - x0 < PATCH + 0.3 * d.side * s
            and -0.3 * d.side * s < d.y * s - y0 < PATCH + 0.3 * d.side * s
        ]
        out.append((np.ascontiguousarray(crop), inside))
    return out


# ---------------------------------------------------------------- the doubling cube


def draw_cube(
    rng: np.random.Generator,
    canvas: NDArray[np.float32],
    cam: render.Camera,
    x: float,
    y: float,
    size: float,
    light: render.Vec,
) -> None:
    """A doubling cube (numerals 2..64 on its faces) standing on the table at x, y (mm): never a die."""
    die = render.make_die(
        rng, x, y, size, int(rng.integers(1, 7)), (render.random_colour(rng), render.random_colour(rng))
    )
    body = render.random_colour(rng, light=bool(rng.random() < 0.6))
    ink = tuple(int(255 - c) for c in body) if rng.random() < 0.5 else render.random_colour(rng)
    numerals = ["2", "4", "8", "16", "32", "64"]
    for k, (_, normal, quad) in enumerate(die.face_quads()):
        centre = quad.mean(axis=0)
        if float(np.dot(normal, cam.position - centre)) <= 0:
            continue
        tex: NDArray[Any] = np.zeros((96, 96, 3), np.uint8)
        tex[:] = body
        text = numerals[k]
        scale = 2.2 if len(text) == 1 else 1.6
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 5)
        cv2.putText(
            tex,
            text,
            ((96 - tw) // 2, (96 + th) // 2),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            (int(ink[0]), int(ink[1]), int(ink[2])),
            5,
            cv2.LINE_AA,
        )
        tex = cv2.warpAffine(
            tex,
            cv2.getRotationMatrix2D((48, 48), float(rng.choice([0, 90, 180, 270])), 1),
            (96, 96),
            borderMode=cv2.BORDER_REPLICATE,
        )
        mask = np.full((96, 96), 255, np.uint8)
        shade = 0.55 + 0.45 * max(0.0, float(np.dot(normal, light)))
        render.warp_quad(canvas, np.asarray(tex, np.uint8), mask, cam.project(quad), shade)


# ---------------------------------------------------------------- rendered scenes


class RenderedDie(Protocol):
    """A rendered die's truth, from this package's renderer or from Blender."""

    @property
    def value(self) -> int: ...
    @property
    def cocked(self) -> bool: ...
    @property
    def box(self) -> tuple[int, int, int, int]: ...
    @property
    def top_centre(self) -> tuple[float, float]: ...


def rendered_label(d: RenderedDie) -> Die:
    """A rendered die as a training label: at its top face's centre, as wide as its picture."""
    return Die(
        d.top_centre[0], d.top_centre[1], float(max(d.box[2] - d.box[0], d.box[3] - d.box[1])), d.value, d.cocked
    )


def scene_dice(scene: render.Scene) -> list[Die]:
    """A rendered scene's dice as training labels (``rendered_label``)."""
    return [rendered_label(d) for d in scene.dice]


def table_patches(rng: np.random.Generator, n: int) -> list[tuple[Image, list[Die]]]:
    scene = render.table_scene(rng, size=(640, 480), dice_pool=TRAIN_DICE, cocked_rate=0.25)
    return patches(rng, scene.image, scene_dice(scene), n)


def board_with_cube(
    rng: np.random.Generator, style: render.BoardStyle, cam: render.Camera, spec: render.ThrowSpec, cube_share: float
) -> tuple[Image, render.Scene, list[render.Die3D], tuple[float, float] | None]:
    """A rendered board throw, with a doubling cube on the board ``cube_share`` of the time; the cube's image
    position (None without one)."""
    scene, dice3d, _ = render.board_scene(rng, style, cam, spec, camera_effects=False)
    canvas = scene.image.astype(np.float32)
    cube = None
    if rng.random() < cube_share:
        for _ in range(50):
            x, y = rng.uniform(-230, 230), rng.uniform(-180, 180)
            if all(np.hypot(x - d.centre[0], y - d.centre[1]) > 45 for d in dice3d):
                draw_cube(rng, canvas, cam, x, y, float(rng.uniform(20, 28)), render.random_light(rng))
                c = cam.project(np.array([[x, y, 12.0]]))[0]
                cube = (float(c[0]), float(c[1]))
                break
    return render.finish(rng, canvas, strength=0.5), scene, dice3d, cube


ANY_COLOUR = 0.5  # the share of training boards whose dice are of any colour, not one of the training presets
LIKE_THE_BOARD = 1 / 3  # of those, the share whose dice take the colour of a point or of the field
GOLD_PIPS = (40, 170, 210)  # BGR


def any_colour_dice(rng: np.random.Generator, style: render.BoardStyle) -> render.BoardStyle:
    """The board's dice recoloured, ``ANY_COLOUR`` of the time: a random body (``LIKE_THE_BOARD`` of the time
    the colour of a point or of the field, slightly off: a detector that learns only the presets' dice misses
    purple dice on purple points) with pips dark on a light body and light on a dark one, gold
    one time in six."""
    if rng.random() >= ANY_COLOUR:
        return style
    if rng.random() < LIKE_THE_BOARD:
        under = (style.point_a, style.point_b, style.field)[int(rng.integers(3))]
        body = tuple(int(np.clip(c + rng.integers(-20, 21), 0, 255)) for c in under)
    else:
        body = render.random_colour(rng)
    light = sum(body) > 3 * 128
    pip = GOLD_PIPS if rng.random() < 1 / 6 else render.random_colour(rng, light=not light)
    return replace(style, dice=((body[0], body[1], body[2]), pip))


def board_patches(rng: np.random.Generator, n: int) -> list[tuple[Image, list[Die]]]:
    """A rendered board, a doubling cube on it half the time, rectified as the reader rectifies it."""
    style = any_colour_dice(rng, render.random_board_style(rng, TRAIN_DICE))
    cam = render.board_camera(rng, (1280, 720) if rng.random() < 0.6 else (1920, 1080))
    kind = str(rng.choice(["valid", "cocked", "cocked", "wrong_half", "off_board"]))
    thrower = str(rng.choice(["bottom", "top"]))
    image, scene, dice3d, _ = board_with_cube(rng, style, cam, render.ThrowSpec(kind, thrower), 0.5)
    assert scene.corners is not None
    view = board_view(Calibration.from_corners(scene.corners))
    rect = view.warp(image)
    dice = []
    for d, d3 in zip(scene.dice, dice3d):
        top = view.to_view_points(np.array([d.top_centre]))[0]
        corners = view.to_view_points(cam.project(d3.corners()))
        side = float(np.median(np.ptp(corners, axis=0)) / 1.25)
        dice.append(Die(float(top[0]), float(top[1]), side, d.value, d.cocked))
    return patches(rng, rect, dice, n, scale_to=(20.0, 34.0), empty_share=0.4)


def cube_patches(rng: np.random.Generator, n: int) -> list[tuple[Image, list[Die]]]:
    """Desk scenes with a doubling cube and no flat die near it: patches centred on the cube."""
    w, h = 640, 480
    cam = render.Camera(
        np.array([rng.uniform(-30, 30), -rng.uniform(0, 150), rng.uniform(250, 450)]),
        np.zeros(3),
        float(rng.uniform(0.7, 1.1)) * w,
        (w, h),
    )
    tex = render.surface_texture(
        rng, str(rng.choice(["wood", "felt", "leather", "plain"])), h, w, render.random_colour(rng)
    ).astype(np.float32)
    render.draw_clutter(rng, tex)
    draw_cube(rng, tex, cam, 0.0, 0.0, float(rng.uniform(18, 28)), render.random_light(rng))
    image = render.finish(rng, tex)
    cx, cy = cam.project(np.array([[0.0, 0.0, 10.0]]))[0]
    # the cube only places the patches: it is no die (training once labelled it a one, and the detector learned
    # to find cubes)
    placed = patches(rng, image, [Die(float(cx), float(cy), 40.0, 1, False)], n, empty_share=0.0, scale_to=(20.0, 60.0))
    return [(patch, []) for patch, _ in placed]


# ---------------------------------------------------------------- real photos


def real_scene(path: str, set_name: str) -> tuple[Image, list[Die]] | None:
    """One labelled real photo: webcam labels box the pip pattern (the die is about 1.3 times it), tray
    labels the upper face."""
    raw = cv2.imread(path)
    if raw is None:
        return None
    image = np.asarray(raw, np.uint8)
    h, w = image.shape[:2]
    webcam = set_name.split("/")[0] == "webcam_white_dice"  # the set, or one split of it
    grow = 1.3 if webcam else 1.0
    labels = labelled_dice(Path(path).with_suffix(".txt"))
    dice = [Die(xc * w, yc * h, max(bw * w, bh * h) * grow, value, False) for value, xc, yc, bw, bh in labels]
    if webcam:  # boxes of a 1 or 2 are smaller than the die: use the photo's median
        med = float(np.median([d.side for d in dice])) if dice else 50.0
        dice = [Die(d.x, d.y, max(d.side, med), d.value, False) for d in dice]
    return image, dice


def scene_paths(set_name: str) -> list[str]:
    """The photos of a real set ("webcam_white_dice") or of one split of it ("webcam_white_dice/Valid")."""
    split = "/" in set_name
    return sorted(glob.glob(str(REAL / set_name / ("*.jpg" if split else "*/*.jpg"))))


def station_paths(folder: str | Path, camera_labels: bool = False) -> list[str]:
    """The photos a station kept (``app.table.throw_photos``) whose label file is whole: those people labelled
    (the players or the director answered the throw, or confirmed a set-up throw), and with ``camera_labels``
    also the sure calls nobody questioned (the reader's own readings: not for measuring it)."""
    paths = []
    for photo in sorted(Path(folder).glob("*.jpg")):
        try:
            record = json.loads(photo.with_suffix(".json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        by = (record.get("label") or {}).get("by")
        if photo.with_suffix(".txt").is_file() and (by == "people" or (camera_labels and by == "camera")):
            paths.append(str(photo))
    return paths


def casino_paths() -> list[Path]:
    """The casino crops, each in the folder of its value (``casino_dice_crops/SPLIT/VALUE/*.jpg``)."""
    return sorted((REAL / "casino_dice_crops").glob("*/*/*.jpg"))


def casino_crops() -> list[tuple[Image, int]]:
    out = []
    for path in casino_paths():
        raw = cv2.imread(str(path))
        if raw is not None:
            out.append((np.asarray(raw, np.uint8), int(path.parent.name)))
    return out


def casino_scene(crop: Image, value: int) -> tuple[Image, Die]:
    """A casino crop (one die filling most of it) scaled to 44 px in a smeared border three times its size, so
    the die covers about 38 px as dice do in the scene sets' photos: how training and the benchmarks read it."""
    small = cv2.resize(crop, (44, 44), interpolation=cv2.INTER_AREA)
    image = np.asarray(cv2.copyMakeBorder(small, 44, 44, 44, 44, cv2.BORDER_REPLICATE), np.uint8)
    return image, Die(66.0, 66.0, 44.0, value, False)


def cut_crops(scenes: list[tuple[Image, list[Die]]]) -> list[tuple[Image, int]]:
    """Die crops cut from real scenes (1.15 die sides), to paste onto other surfaces."""
    out = []
    for image, dice in scenes:
        for d in dice:
            r = int(0.58 * d.side)
            x0, y0 = int(d.x) - r, int(d.y) - r
            if x0 >= 0 and y0 >= 0 and x0 + 2 * r <= image.shape[1] and y0 + 2 * r <= image.shape[0]:
                out.append((image[y0 : y0 + 2 * r, x0 : x0 + 2 * r].copy(), d.value))
    return out


def pasted_patch(rng: np.random.Generator, crops: list[tuple[Image, int]]) -> tuple[Image, list[Die]]:
    """1-3 real die crops pasted with soft edges onto a rendered surface (and sometimes a cube beside them)."""
    surf = render.surface_texture(
        rng, str(rng.choice(["wood", "felt", "leather", "plain"])), PATCH, PATCH, render.random_colour(rng)
    ).astype(np.float32)
    dice: list[Die] = []
    for _ in range(int(rng.integers(1, 4))):
        crop, value = crops[int(rng.integers(len(crops)))]
        side = float(np.exp(rng.uniform(np.log(22), np.log(56))))
        k = int(rng.integers(4))
        crop = np.ascontiguousarray(np.rot90(crop, k))
        size = max(8, int(side * 1.15))
        small = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
        x, y = rng.uniform(size / 2, PATCH - size / 2, 2) if size < PATCH else (PATCH / 2, PATCH / 2)
        if any(np.hypot(x - d.x, y - d.y) < 0.9 * (side + d.side) for d in dice):
            continue
        alpha: NDArray[Any] = np.zeros((size, size), np.float32)
        cv2.circle(alpha, (size // 2, size // 2), int(size * 0.55), 1.0, -1)
        alpha = cv2.GaussianBlur(alpha, (0, 0), size * 0.06)[..., None]
        x0, y0 = int(x - size / 2), int(y - size / 2)
        x1, y1 = min(PATCH, x0 + size), min(PATCH, y0 + size)
        roi = surf[y0:y1, x0:x1]
        a = alpha[: y1 - y0, : x1 - x0]
        roi[:] = roi * (1 - a) + small[: y1 - y0, : x1 - x0] * a
        dice.append(Die(float(x), float(y), side, value, False))
    return np.clip(surf, 0, 255).astype(np.uint8), dice


# ---------------------------------------------------------------- assembling a set


def rendered_set(
    seed: int, n_table: int, n_board: int, n_cube: int, log: object = None
) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    rng = np.random.default_rng(seed)
    items: list[tuple[Image, list[Die]]] = []
    for _ in range(n_table):
        items += table_patches(rng, 4)
    for _ in range(n_board):
        items += board_patches(rng, 6)
    for _ in range(n_cube):
        items += cube_patches(rng, 2)
    return stack(rng, items)


def real_set(
    seed: int, leave_out: str | None, per_photo: int = 6, pasted: int = 3000
) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    """Patches of the real scene sets and pasted real crops, without the set ``leave_out`` (its scenes, and any
    crop cut from them)."""
    rng = np.random.default_rng(seed)
    items: list[tuple[Image, list[Die]]] = []
    scenes = []
    for name in ("webcam_white_dice", "tray_mixed_dice"):
        if name == leave_out:
            continue
        for path in scene_paths(name):
            scene = real_scene(path, name)
            if scene is not None:
                scenes.append(scene)
                items += patches(rng, scene[0], scene[1], per_photo, empty_share=0.15)
    crops = cut_crops(scenes)
    if leave_out != "casino_dice_crops":
        crops += casino_crops() * 3
    if crops:
        items += [pasted_patch(rng, crops) for _ in range(pasted)]
    return stack(rng, items)


def stack(
    rng: np.random.Generator, items: list[tuple[Image, list[Die]]]
) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    if not items:
        return np.zeros((0, PATCH, PATCH, 3), np.uint8), np.zeros((0, 7, CELLS, CELLS), np.float32)
    x = np.stack([camera(rng, im) for im, _ in items])
    t = np.stack([targets(d) for _, d in items])
    return x, t
