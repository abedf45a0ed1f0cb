"""The second stage's training crops: real dice cut where the detector finds them, the detector's false peaks,
procedural clutter, recoloured dice and rendered scenes (slanted, painted; numpy and OpenCV only, so tests run
without torch).

Every die the detector finds is cut from the full frame at 48 px; what it finds where no die is becomes "not a
die". A crop is labelled with the reader's classes: 0-5 for the values 1-6, cocked, not a die.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.detector import COCKED_LOOK_MARGIN, SIZE_REF, DetectorNet, decode
from vision.errors import VisionError
from vision.reader import CLASS_COCKED, CLASS_NOT_DIE, CROP, CROP_MARGIN, crop_square
from vision.rectify import View, board_view, photo_view
from vision.slant import slant
from vision.synth import render
from vision.train.blender_set import load_training_patches
from vision.train.dataset import TRAIN_DICE
from vision.train.detector_data import (
    Die,
    board_with_cube,
    casino_crops,
    casino_scene,
    real_scene,
    rendered_label,
    scene_dice,
    scene_paths,
    station_paths,
)

Crop = tuple[NDArray[np.uint8], int]
Image = NDArray[np.uint8]
MATCH = 0.6  # a detection within this many die sides of a labelled centre is that die
LOOK_TOUCHING = 0.6  # flat dice against a checker or the other die, as often as a leaning die has its support


def box(x: float, y: float, side: float) -> tuple[int, int, int, int]:
    h = side / 2
    return int(round(x - h)), int(round(y - h)), int(round(x + h)), int(round(y + h))


def jittered(
    rng: np.random.Generator,
    image: Image,
    die: Die,
    n: int,
    move: float = 0.12,
    scale: tuple[float, float] = (0.85, 1.2),
    margin: float = CROP_MARGIN,
) -> list[Crop]:
    """``n`` crops round a labelled die, its centre moved by up to ``move`` of a side and its size scaled within
    ``scale`` (by default -15..+20 %: the detector's centre and size are never exact), ``margin`` times the box."""
    out = []
    cls = CLASS_COCKED if die.cocked else die.value - 1
    for _ in range(n):
        dx, dy = rng.uniform(-move, move, 2) * die.side
        s = die.side * float(rng.uniform(*scale))
        out.append((crop_square(image, box(die.x + dx, die.y + dy, s), CROP, margin), cls))
    return out


def detections_in_frame(net: DetectorNet, image: Image, view: View) -> list[tuple[float, float, float]]:
    """The detector's dice as (x, y, side) in frame pixels, at a low peak threshold so that weak false peaks
    become negatives too."""
    found = decode(net.run(view.warp(image)), threshold=0.2)
    scale = float(view.to_view[0, 0])
    out = []
    for d in found:
        cx, cy = view.to_frame(np.array([d.centre]))[0]
        out.append((float(cx), float(cy), d.side / scale))
    return out


def detection_crops(
    image: Image, dice: list[Die], found: list[tuple[float, float, float]], positives: bool
) -> list[Crop]:
    """A crop at each detection (x, y, side in ``image`` pixels): "not a die" where it matches no labelled die,
    and, with ``positives``, the die's class where it does (the detector's own framing)."""
    crops: list[Crop] = []
    for x, y, side in found:
        near = [d for d in dice if np.hypot(x - d.x, y - d.y) < MATCH * max(side, d.side)]
        if near and positives:
            cls = CLASS_COCKED if near[0].cocked else near[0].value - 1
            crops.append((crop_square(image, box(x, y, side), CROP), cls))
        elif not near and side >= 8:
            crops.append((crop_square(image, box(x, y, side), CROP), CLASS_NOT_DIE))
    return crops


def scene_crops(rng: np.random.Generator, net: DetectorNet, image: Image, dice: list[Die], per_die: int) -> list[Crop]:
    """Positives round each labelled die and at each detection that matches one; every detection that matches
    no die is "not a die". The photo is read at both scales the reader uses."""
    crops: list[Crop] = []
    for die in dice:
        crops += jittered(rng, image, die, per_die)
    for zoom in (0.5, 1.0):
        crops += detection_crops(image, dice, detections_in_frame(net, image, photo_view(image.shape, zoom)), True)
    return crops


OBLIQUE_TILTS = (0.35, 0.8)
"""The camera's tilt from straight down for the second stage's slanted desk scenes (radians; 20-46 degrees): a
die seen this way shows one or two side faces nearly as large as its top, the webcam set's dice and a board
camera's dice near the frame's edge."""


def desk_crops(
    rng: np.random.Generator,
    net: DetectorNet,
    scenes: int,
    tilts: tuple[float, float] = render.TABLE_TILTS,
    paint: Callable[[np.random.Generator], render.Paint] | None = None,
    varied_pips: bool = False,
) -> list[Crop]:
    """Crops of ``scenes`` rendered desk scenes (``render.table_scene``, the camera ``tilts`` from straight down,
    the dice painted by ``paint`` when given, their pips ``varied_pips`` as there), two round each die and one
    at each of the detector's finds."""
    crops: list[Crop] = []
    for _ in range(scenes):
        colours = paint(rng) if paint is not None else None
        scene = render.table_scene(
            rng, (640, 480), cocked_rate=0.15, dice_pool=TRAIN_DICE, tilts=tilts, paint=colours, varied_pips=varied_pips
        )
        crops += scene_crops(rng, net, scene.image, scene_dice(scene), 2)
    return crops


def oblique_crops(rng: np.random.Generator, net: DetectorNet, scenes: int) -> list[Crop]:
    """Crops of desk scenes seen at a slant (``OBLIQUE_TILTS``): the top face told from side faces showing more
    pips. Why: without them a 1 or a 2 seen from the side is read as the side face's value or left unreadable, on
    real webcam photos the reader never trained on and on renders alike."""
    return desk_crops(rng, net, scenes, tilts=OBLIQUE_TILTS)


def painted(rng: np.random.Generator) -> render.Paint:
    """A die's body, pip and (two in five) marbling colours as club dice come: dark, light or strongly coloured
    bodies, pips of any strong colour, the pips apart from the body by colour, not always by brightness."""

    def strong() -> render.Colour:
        hsv = np.array([[[rng.integers(0, 180), rng.integers(150, 256), rng.integers(90, 256)]]], np.uint8)
        b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
        return int(b), int(g), int(r)

    def any_body() -> render.Colour:
        pick = rng.random()
        if pick < 0.35:
            b, g, r = rng.integers(10, 80, 3)
            return int(b), int(g), int(r)
        return strong() if pick < 0.7 else render.random_colour(rng)

    def pip_colour() -> render.Colour:
        pick = rng.random()
        if pick < 0.5:
            return strong()
        return (235, 235, 235) if pick < 0.75 else (20, 20, 20)

    def apart(a: render.Colour, b: render.Colour) -> bool:
        return float(np.linalg.norm(np.subtract(a, b, dtype=np.float32))) > 110

    while True:
        body, pip = any_body(), pip_colour()
        if apart(body, pip):
            break
    vein = None
    if rng.random() < 0.4:
        while True:
            vein = any_body()
            if apart(vein, pip):
                break
    return body, pip, vein


def painted_crops(rng: np.random.Generator, net: DetectorNet, scenes: int) -> list[Crop]:
    """Crops of desk scenes whose dice are painted as club dice come (``painted``): dark or marbled bodies with
    red or blue pips. Why: the rendered presets and the real crops' recolouring keep the pips apart from the
    body by brightness, and without these a second stage reads the tray set's dark marbled dice with red pips,
    left out, at 64 %."""
    return desk_crops(rng, net, scenes, paint=painted)


def varied_painted_crops(rng: np.random.Generator, net: DetectorNet, scenes: int) -> list[Crop]:
    """``painted_crops`` whose dice have pips of any size and spacing (``render.table_scene(varied_pips=...)``):
    not the recipe's: they teach the tray set's marbled dice and cost the plain white ones, which a club's dice
    more often are (``python -m tests.vision.bench_adapt --set webcam_white_dice --head HEAD``)."""
    return desk_crops(rng, net, scenes, paint=painted, varied_pips=True)


def blender_desk_crops(rng: np.random.Generator, net: DetectorNet, folders: list[Path]) -> list[Crop]:
    """Crops of the patches of Blender desk scenes (``python -m vision.train.blender_set --desk``, and
    ``--precision``, named ``desk_precision_*``): dice shaded by a path tracer, seen from the side. Why: the white
    dice the webcam set left out still misreads are 1s and 2s seen from the side, soft round dice that this
    package's renderer draws with sharp edges and flat shading; translucent precision dice show their far pips
    through the near faces, which it does not draw at all. Not the recipe's: 743 round-dice scenes moved neither
    real set left out beyond one training run's spread, and 450 precision-dice scenes neither the casino dice
    left out nor the tray set's (``python -m tests.vision.bench_adapt --set SET --head HEAD``)."""
    crops: list[Crop] = []
    for folder in folders:
        for scene in sorted(Path(folder).glob("desk_*.json")):
            for patch in load_training_patches(scene):
                raw = cv2.imread(str(patch.image))
                if raw is None:
                    raise VisionError(f"cannot read {patch.image}")
                dice = [rendered_label(d) for d in patch.dice]
                crops += scene_crops(rng, net, np.asarray(raw, np.uint8), dice, 2)
    return crops


def patch_dice(target: NDArray[np.float32]) -> list[Die]:
    """The dice a rendered patch's target map holds (cells with a centre and a die there)."""
    dice = []
    rows, cols = np.nonzero(target[0] == 1.0)
    for r, c in zip(rows, cols):
        if target[6, r, c] <= 0:
            continue
        side = SIZE_REF * float(np.exp(target[3, r, c]))
        x, y = (c + 0.5 + target[4, r, c]) * 8, (r + 0.5 + target[5, r, c]) * 8
        dice.append(Die(x, y, side, int(target[1, r, c]) + 1, bool(target[2, r, c] > 0.5)))
    return dice


def first_cube_patch(cache_file: Path, patches: int) -> int:
    """rendered_SEED_TABLE_BOARD_CUBE: the last 2 x CUBE patches are centred on a doubling cube, which is "not a
    die" whatever a cache's own targets say of it."""
    parts = cache_file.stem.split("_")
    return patches - 2 * int(parts[4]) if len(parts) == 5 and parts[4].isdigit() else patches


def rendered_crops(rng: np.random.Generator, net: DetectorNet, cache: Path, limit: int) -> list[Crop]:
    """Crops of the detector's rendered training patches (desk scenes, whole boards with a doubling cube, cube
    scenes): the dice from the patches' targets, the detector's unmatched peaks as negatives."""
    crops: list[Crop] = []
    files = sorted(cache.glob("rendered_*.npz"))
    per_file = max(1, limit // max(1, len(files)))
    for f in files:
        data = np.load(f)
        x, t = data["x"], data["t"]
        first_cube = first_cube_patch(f, len(x))
        for i in rng.permutation(len(x))[:per_file]:
            image = np.ascontiguousarray(x[i])
            dice = patch_dice(t[i])
            if i >= first_cube:
                crops += [(crop_square(image, box(d.x, d.y, d.side), CROP), CLASS_NOT_DIE) for d in dice]
                crops += scene_crops_view(rng, net, image, [])
            else:
                crops += scene_crops_view(rng, net, image, dice)
    return crops


def board_throw(
    rng: np.random.Generator, net: DetectorNet
) -> tuple[Image, list[Die], list[tuple[float, float, float]], Calibration]:
    """One whole rendered board throw (training dice presets and seeds; two in three with a cocked die, on a
    checker, the rim or the other die; flat dice against a checker or each other, ``LOOK_TOUCHING``), its thrown
    dice, what the detector finds on the rectified board (x, y, side in frame pixels, at a low threshold),
    exactly as the reader finds it, and the board's calibration (its true corners, as if tapped)."""
    style = render.random_board_style(rng, TRAIN_DICE)
    cam = render.board_camera(rng, (1280, 720) if rng.random() < 0.6 else (1920, 1080))
    kind = str(rng.choice(["valid", "cocked", "cocked"]))
    thrower = str(rng.choice(["bottom", "top"]))
    image, scene, dice3d, _ = board_with_cube(rng, style, cam, render.ThrowSpec(kind, thrower, LOOK_TOUCHING), 0.3)
    assert scene.corners is not None
    calibration = Calibration.from_corners(scene.corners)
    view = board_view(calibration)
    found = []
    for peak in decode(net.run(view.warp(image)), threshold=0.2):
        x0, y0, x1, y1 = view.box_to_frame(peak.centre, peak.side)
        found.append(((x0 + x1) / 2, (y0 + y1) / 2, float(max(x1 - x0, y1 - y0))))
    dice = []
    for d, d3 in zip(scene.dice, dice3d):
        corners = cam.project(d3.corners())
        side = float(np.median(np.ptp(corners, axis=0)) / 1.25)
        dice.append(Die(float(d.top_centre[0]), float(d.top_centre[1]), side, d.value, d.cocked))
    return image, dice, found, calibration


def found_at(die: Die, found: list[tuple[float, float, float]]) -> tuple[float, float, float] | None:
    """The detection that is ``die`` (None: the detector missed it)."""
    return next((f for f in found if np.hypot(f[0] - die.x, f[1] - die.y) < MATCH * max(f[2], die.side)), None)


def board_crops(rng: np.random.Generator, net: DetectorNet, n: int) -> list[Crop]:
    """Crops of ``n`` whole rendered board throws (``board_throw``), cut from the full frame exactly where and as
    the reader cuts them: each peak that matches a thrown die is that die (or cocked), each that matches none is
    "not a die" (checkers, points, the cube and the frame: the false peaks of whole boards, which patches of a
    board rarely show). A thrown die the detector misses is cut at its true place."""
    crops: list[Crop] = []
    for _ in range(n):
        image, dice, found, _ = board_throw(rng, net)
        crops += detection_crops(image, dice, found, positives=True)
        for die in dice:  # a cocked die twice more: few throws show one, and accepting one is the worst call
            crops += jittered(rng, image, die, 2 if die.cocked else 0)
            if found_at(die, found) is None:
                crops += jittered(rng, image, die, 1)
    return crops


def look_crops(
    rng: np.random.Generator, net: DetectorNet, boards: int
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.float32]]:
    """The cocked look's crops (``COCKED_LOOK_MARGIN`` times a die's box), labelled 1 cocked, 0 flat, and the
    slant a flat die shows where each was cut (``vision.slant``): ``boards`` whole rendered throws, each die cut
    round the detector's own box (a leaning die's box is about 1.4 times a flat one's, so the look learns from
    the crops it will read), at its true box where missed. Only whole boards: the slant needs the board's
    corners, which desk scenes and photos do not have."""
    crops: list[Crop] = []
    slants: list[NDArray[np.float32]] = []
    for _ in range(boards):
        image, dice, found, calibration = board_throw(rng, net)
        cuts = []  # (die as found, crops of it, how far its crops move and scale)
        for die in dice:
            at = found_at(die, found)
            if at is None:
                cuts.append((die, 2 if die.cocked else 1, 0.12, (0.85, 1.2)))
            else:
                cuts.append(
                    (Die(at[0], at[1], at[2], die.value, die.cocked), 3 if die.cocked else 2, 0.06, (0.92, 1.08))
                )
        where = slant(calibration, image.shape, np.array([[seen.x, seen.y] for seen, _, _, _ in cuts]))
        for (seen, n, move, scale), die_slant in zip(cuts, where):
            crops += [
                (crop, int(seen.cocked)) for crop, _ in jittered(rng, image, seen, n, move, scale, COCKED_LOOK_MARGIN)
            ]
            slants += [die_slant] * n
    x, y = stacked(crops)
    return x, y, np.array(slants, np.float32).reshape(-1, 2)


def scene_crops_view(rng: np.random.Generator, net: DetectorNet, image: Image, dice: list[Die]) -> list[Crop]:
    """A rendered patch is already at the detector's scale: read it as it is."""
    crops: list[Crop] = []
    for die in dice:
        crops += jittered(rng, image, die, 1)
    found = [(d.centre[0], d.centre[1], d.side) for d in decode(net.run(image), threshold=0.2)]
    return crops + detection_crops(image, dice, found, positives=False)


def real_crops(
    rng: np.random.Generator,
    net: DetectorNet,
    leave_out: str | None,
    per_die: int,
    limit: int = 0,
    stations: Sequence[Path] = (),
) -> list[Crop]:
    """Crops of the real sets but ``leave_out``: a whole set, or one split of one (``webcam_white_dice/Valid``:
    the shipped model learns from every set but keeps that split to be measured on), and of
    the throws people labelled in each of ``stations``' folders. ``limit``: at most that many photos a set and
    crops, 0 all."""
    crops: list[Crop] = []
    for image, dice in real_scenes(leave_out, limit, stations):
        crops += scene_crops(rng, net, image, dice, per_die)
    return crops


def real_scenes(
    leave_out: str | None, limit: int = 0, stations: Sequence[Path] = ()
) -> Iterator[tuple[Image, list[Die]]]:
    """Every labelled real photo (and casino crop, in a border) of the sets but ``leave_out``, a whole set or one
    split of one, then of each station folder's throws people labelled (``station_paths``); ``limit``: at most
    that many a set, 0 all."""
    for name in ("webcam_white_dice", "tray_mixed_dice"):
        if name == leave_out:
            continue
        paths = [p for p in scene_paths(name) if not leave_out or f"{Path(leave_out)}{os.sep}" not in p]
        for path in paths[: limit or None]:
            scene = real_scene(path, name)
            if scene is not None:
                yield scene
    if leave_out != "casino_dice_crops":
        for crop, value in casino_crops()[: limit or None]:
            image, die = casino_scene(crop, value)
            yield image, [die]
    for folder in stations:
        for path in station_paths(folder)[: limit or None]:
            scene = real_scene(path, "station")
            if scene is not None:
                yield scene


GLYPHS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789<>^?!@#$%&*+=/o.:"


def clutter_crop(rng: np.random.Generator) -> Image:
    """One procedural "not a die" crop: the everyday things a camera over a table sees and a pip counter
    mistakes for dice: keys with a glyph (or a dot) on them, cables, barcodes and printed labels, stripes, round
    buttons and checkers' edges, plain texture; each at a random scale and angle, in random colours."""
    size = CROP * 2

    def paint() -> tuple[int, int, int]:  # mostly muted, as things on a table are
        grey = float(rng.uniform(0, 255))
        c = grey + (rng.uniform(0, 255, 3) - grey) * rng.uniform(0, 0.7)
        return (int(c[0]), int(c[1]), int(c[2]))

    canvas = np.empty((size, size, 3), np.float32)
    canvas[:] = paint()
    canvas += rng.normal(0, rng.uniform(0, 12), (size, size, 1))
    kind = int(rng.integers(7))
    ink, face = paint(), paint()
    if kind == 0:  # keys: rounded squares, each with a glyph or a dot off centre
        pitch = int(rng.integers(28, 60))
        for y in range(-pitch, size + pitch, pitch):
            shift = int(rng.integers(0, pitch))
            for x in range(-pitch + shift, size + pitch, pitch):
                k = pitch - int(rng.integers(3, 8))
                cv2.rectangle(canvas, (x, y), (x + k, y + k), face, -1, cv2.LINE_AA)
                if rng.random() < 0.8:
                    g = str(rng.choice(list(GLYPHS)))
                    gx, gy = x + int(rng.integers(2, max(3, k // 2))), y + int(rng.integers(k // 3, k))
                    cv2.putText(canvas, g, (gx, gy), cv2.FONT_HERSHEY_SIMPLEX, k / 60, ink, 1 + k // 30, cv2.LINE_AA)
    elif kind == 1:  # cables: thick curves
        for _ in range(int(rng.integers(1, 4))):
            pts = np.cumsum(rng.normal(0, 20, (6, 2)), axis=0) + rng.uniform(0, size, 2)
            cv2.polylines(canvas, [pts.astype(np.int32)], False, ink, int(rng.integers(4, 18)), cv2.LINE_AA)
    elif kind == 2:  # barcodes and labels with print
        x0, y0 = int(rng.integers(0, size // 2)), int(rng.integers(0, size // 2))
        cv2.rectangle(canvas, (x0, y0), (x0 + size // 2, y0 + size // 2), face, -1)
        x = x0 + 3
        while x < x0 + size // 2 - 3:
            w = int(rng.integers(1, 4))
            if rng.random() < 0.5:
                cv2.rectangle(canvas, (x, y0 + 4), (x + w - 1, y0 + size // 3), ink, -1)
            x += w
        text = "".join(rng.choice(list(GLYPHS), 4))
        cv2.putText(canvas, text, (x0, y0 + size // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ink, 1, cv2.LINE_AA)
    elif kind == 3:  # stripes and grids (wood grain, cloth, board points)
        step = int(rng.integers(4, 24))
        for x in range(0, size, step):
            cv2.line(canvas, (x, 0), (x + int(rng.integers(-20, 20)), size), ink, int(rng.integers(1, 4)), cv2.LINE_AA)
    elif kind == 4:  # round things: buttons, checkers' rims, coins, with holes or marks
        for _ in range(int(rng.integers(1, 5))):
            c = (int(rng.integers(0, size)), int(rng.integers(0, size)))
            r = int(rng.integers(6, 40))
            cv2.circle(canvas, c, r, face, -1, cv2.LINE_AA)
            cv2.circle(canvas, c, r, ink, int(rng.integers(1, 4)), cv2.LINE_AA)
            for _ in range(int(rng.integers(0, 5))):
                cv2.circle(
                    canvas,
                    (c[0] + int(rng.integers(-r // 2, r // 2 + 1)), c[1] + int(rng.integers(-r // 2, r // 2 + 1))),
                    max(1, r // 6),
                    ink,
                    -1,
                    cv2.LINE_AA,
                )
    elif kind == 5:  # plain discs a shade off the surface (tokens, counters): round, die-sized, no pips
        for _ in range(int(rng.integers(1, 3))):
            c = (int(rng.integers(size // 4, 3 * size // 4)), int(rng.integers(size // 4, 3 * size // 4)))
            shade = tuple(float(v) for v in canvas[c[1], c[0]] + rng.uniform(-40, 40))
            cv2.circle(canvas, c, int(rng.integers(14, 34)), shade, -1, cv2.LINE_AA)
            if rng.random() < 0.5:  # a speck of dirt or a printed dot
                cv2.circle(canvas, (c[0] + int(rng.integers(-9, 10)), c[1] + int(rng.integers(-9, 10))), 1, ink, -1)
    else:  # a few scattered specks on texture: what a die is not, although it has dots
        for _ in range(int(rng.integers(1, 8))):
            c = (int(rng.integers(0, size)), int(rng.integers(0, size)))
            cv2.circle(canvas, c, int(rng.integers(1, 6)), ink, -1, cv2.LINE_AA)
    m = cv2.getRotationMatrix2D((size / 2, size / 2), float(rng.uniform(0, 360)), float(rng.uniform(0.6, 1.6)))
    turned = cv2.warpAffine(canvas, m, (size, size), borderMode=cv2.BORDER_REFLECT)
    half = CROP // 2
    out = turned[half : half + CROP, half : half + CROP]
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def recoloured(c: NDArray[np.float32], rng: np.random.Generator) -> NDArray[np.float32]:
    """The crop's light and dark mapped onto a random die colour and a random pip colour of clearly other
    brightness: white dice with black pips become red dice with yellow pips, black dice with red pips, and so
    on, with their shading kept."""
    grey = c.mean(axis=2, keepdims=True)
    lo, hi = np.percentile(grey, 0.5), np.percentile(grey, 99.5)  # a one's pip is under 2 % of a crop
    g = np.clip((grey - lo) / max(hi - lo, 1.0), 0, 1)
    while True:
        body, pip = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
        if abs(body.mean() - pip.mean()) > 70:
            break
    body_is_light = body.mean() > pip.mean() if rng.random() < 0.5 else True  # painted dice mostly keep it
    body_map = np.broadcast_to(body, c.shape)
    if rng.random() < 0.3:  # marbled: the body swirls between its colour and another, the pips stay
        swirl = render.marbling(rng, c.shape[:2])[..., None]
        while True:  # the second colour on the body's side of the pips: pips still stand out everywhere
            other = rng.uniform(0, 255, 3)
            if (other.mean() - pip.mean()) * np.sign(body.mean() - pip.mean()) > 50:
                break
        body_map = body + (other - body) * swirl
    light, dark = (body_map, pip) if body_is_light else (pip, body_map)
    return np.asarray(dark + (light - dark) * g, np.float32)


def colour(x: NDArray[np.uint8], rng: np.random.Generator) -> NDArray[np.uint8]:
    """Per crop: recolouring, channel order, colour cast, inversion (white pips on dark dice read as dark on
    light), blur, noise; what changes between dice sets and cameras and never changes a die's value."""
    out = x.copy()
    for i in range(len(out)):
        c = out[i][:, :, rng.permutation(3)]
        f = c.astype(np.float32)
        if rng.random() < 0.5:
            f = recoloured(f, rng)
        f = f * rng.uniform(0.8, 1.2, 3)
        if rng.random() < 0.15:
            f = 255.0 - f
        if rng.random() < 0.3:
            k = int(rng.choice([3, 5]))
            f = cv2.GaussianBlur(f, (k, k), 0)
        f = f + rng.normal(0, rng.uniform(0, 6), f.shape)
        out[i] = np.clip(f, 0, 255).astype(np.uint8)
    return out


def stacked(crops: list[Crop]) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    if not crops:  # a real set not beside the repository, say
        return np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack([c for c, _ in crops]), np.array([k for _, k in crops], np.int64)
