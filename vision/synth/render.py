"""Procedural dice scenes drawn with OpenCV: the volume of the training data.

Dice are true 3-D cubes seen through a pinhole camera (each visible face is a
pip texture warped onto its projected quad), so flat and cocked dice, side
strips and perspective look as a camera sees them, and the ground truth
(value on top, cocked or not, box, where on the board) is exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Vec = NDArray[np.float64]
Colour = tuple[int, int, int]  # BGR
Paint = tuple[Colour, Colour, Colour | None]  # a die's body, pips and marbling vein (None: a plain body)

# local face normals of the cube and the value printed on each (opposites sum to 7)
FACE_NORMALS: dict[int, tuple[float, float, float]] = {
    1: (0, 0, 1),
    6: (0, 0, -1),
    2: (1, 0, 0),
    5: (-1, 0, 0),
    3: (0, 1, 0),
    4: (0, -1, 0),
}
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
}

DIE_COLOURS: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = [
    # (body BGR, pip BGR)
    ((238, 240, 242), (20, 20, 20)),
    ((215, 235, 245), (25, 25, 30)),
    ((250, 250, 250), (30, 30, 160)),
    ((40, 40, 180), (240, 240, 240)),
    ((30, 30, 30), (235, 235, 235)),
    ((60, 140, 40), (240, 240, 240)),
    ((170, 90, 30), (240, 240, 240)),
    ((40, 190, 230), (20, 20, 20)),
    ((225, 225, 215), (60, 30, 20)),
    ((120, 40, 120), (230, 230, 230)),
    ((200, 210, 225), (35, 35, 35)),
    ((20, 20, 110), (220, 220, 220)),
]


@dataclass
class DieTruth:
    """Ground truth of one rendered die."""

    value: int
    cocked: bool
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in image pixels (whole visible die)
    top_centre: tuple[float, float]  # image position of the upper face's centre
    world_xy: tuple[float, float]  # where the die stands on the table, mm


@dataclass
class Scene:
    image: Image
    dice: list[DieTruth]
    corners: NDArray[np.float64] | None = None  # board playing area corners in the image (tl, tr, br, bl)
    board_mm: tuple[float, float] = (0.0, 0.0)
    extra: dict[str, object] = field(default_factory=dict)


def rot_x(a: float) -> Vec:
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], dtype=np.float64)


def rot_y(a: float) -> Vec:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]], dtype=np.float64)


def rot_z(a: float) -> Vec:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], dtype=np.float64)


def rotation_to_top(value: int) -> Vec:
    """A rotation putting the face with ``value`` on top (+z)."""
    return {
        1: np.eye(3),
        6: rot_x(np.pi),
        2: rot_y(-np.pi / 2),
        5: rot_y(np.pi / 2),
        3: rot_x(np.pi / 2),
        4: rot_x(-np.pi / 2),
    }[value]


class Camera:
    """A pinhole camera looking at the table plane z = 0 (millimetres)."""

    def __init__(self, position: Vec, target: Vec, focal: float, size: tuple[int, int], roll: float = 0.0):
        self.size = size
        forward = target - position
        forward = forward / np.linalg.norm(forward)
        up_hint = np.array([0.0, 1.0, 0.0])  # image "up" points towards +y of the world
        right = np.cross(forward, up_hint)
        if np.linalg.norm(right) < 1e-6:
            right = np.array([1.0, 0.0, 0.0])
        right = right / np.linalg.norm(right)
        down = np.cross(forward, right)
        rot = np.stack([right, down, forward])  # world -> camera
        rot = np.array([[np.cos(roll), -np.sin(roll), 0], [np.sin(roll), np.cos(roll), 0], [0, 0, 1]]) @ rot
        self.rot = rot
        self.position = position
        w, h = size
        self.k = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]], dtype=np.float64)

    def project(self, points: Vec) -> Vec:
        cam = (points - self.position) @ self.rot.T
        uv = cam @ self.k.T
        return np.asarray(uv[:, :2] / uv[:, 2:3], dtype=np.float64)

    def plane_homography(self) -> Vec:
        """Table plane (x, y mm) -> image pixels."""
        m = self.k @ np.column_stack([self.rot[:, 0], self.rot[:, 1], -self.rot @ self.position])
        return np.asarray(m / m[2, 2], dtype=np.float64)


# ---------------------------------------------------------------- textures


def _noise(rng: np.random.Generator, h: int, w: int, scale: int) -> NDArray[np.float32]:
    small = rng.standard_normal((max(2, h // scale), max(2, w // scale))).astype(np.float32)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC), dtype=np.float32)


def surface_texture(rng: np.random.Generator, kind: str, h: int, w: int, base: tuple[int, int, int]) -> Image:
    """Felt, leather, wood or plain cloth, as a top-view texture."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    if kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        warp = _noise(rng, h, w, 60) * rng.uniform(8, 25)
        freq = rng.uniform(0.03, 0.12)
        angle = rng.uniform(0, np.pi)
        coord = xx * np.cos(angle) + yy * np.sin(angle) + warp
        grain = np.sin(coord * freq) ** 8 * rng.uniform(8, 30) + _noise(rng, h, w, 3) * 3
        img -= grain[..., None]
    elif kind == "felt":
        img += (_noise(rng, h, w, 2) * 6 + _noise(rng, h, w, 40) * 6)[..., None]
    elif kind == "leather":
        img += (_noise(rng, h, w, 4) * 7 + _noise(rng, h, w, 25) * 8)[..., None]
        cracks = (np.abs(_noise(rng, h, w, 12)) < 0.05).astype(np.float32) * 15
        img -= cracks[..., None]
    else:
        img += (_noise(rng, h, w, 30) * 5)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def random_colour(rng: np.random.Generator, light: bool | None = None) -> tuple[int, int, int]:
    if light is None:
        light = bool(rng.random() < 0.5)
    lo, hi = (150, 245) if light else (20, 140)
    return (int(rng.integers(lo, hi)), int(rng.integers(lo, hi)), int(rng.integers(lo, hi)))


def marbling(rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.float32]:
    """Smooth swirling veins in 0..1, as in marbled (gemini) dice: blurred noise folded through a sine."""
    raw = rng.normal(0, 1, shape).astype(np.float32)
    noise = np.asarray(cv2.GaussianBlur(raw, (0, 0), float(rng.uniform(3, 8))), np.float32)
    return np.asarray(0.5 + 0.5 * np.sin(noise / max(float(noise.std()), 1e-6) * rng.uniform(2, 5)), np.float32)


def face_texture(
    value: int,
    body: Colour,
    pip: Colour,
    pip_radius: float,
    style: int,
    size: int = 96,
    vein: Colour | None = None,
    seed: int = 0,
    spread: float = 1.0,
) -> tuple[Image, Image]:
    """The face of a die with its pips, and its mask (rounded corners); with ``vein``, the body marbled into
    that colour (each face its own swirl, from ``seed``)."""
    tex = np.zeros((size, size, 3), np.uint8)
    tex[:] = body
    if vein is not None:
        swirl = marbling(np.random.default_rng(seed), (size, size))[..., None]
        base, other = np.asarray(body, np.float32), np.asarray(vein, np.float32)
        tex[:] = np.clip(base + (other - base) * swirl, 0, 255).astype(np.uint8)
    mask = np.zeros((size, size), np.uint8)
    r = int(size * 0.12)
    cv2.rectangle(mask, (r, 0), (size - 1 - r, size - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (size - 1, size - 1 - r), 255, -1)
    for cx, cy in ((r, r), (size - 1 - r, r), (r, size - 1 - r), (size - 1 - r, size - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    rad = max(2, int(round(pip_radius * size)))
    for px, py in PIP_LAYOUT[value]:
        centre = (int((0.5 + (px - 0.5) * spread) * size), int((0.5 + (py - 0.5) * spread) * size))
        if style == 1 and value == 1:
            cv2.circle(tex, centre, int(rad * 1.6), (30, 30, 170), -1, cv2.LINE_AA)
        elif style == 2:
            cv2.circle(tex, centre, rad, pip, -1, cv2.LINE_AA)
            dark = tuple(int(c * 0.7) for c in body)
            cv2.circle(tex, centre, rad + 1, dark, 1, cv2.LINE_AA)
        else:
            cv2.circle(tex, centre, rad, pip, -1, cv2.LINE_AA)
    return tex, mask


# ---------------------------------------------------------------- drawing


def warp_quad(canvas: NDArray[np.float32], tex: Image, mask: Image, quad: Vec, shade: float) -> None:
    """Paint ``tex`` (with alpha ``mask``) onto ``canvas`` inside the image quad (tl, tr, br, bl)."""
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    s = tex.shape[0]
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    dst = (quad - np.array([x0, y0])).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    size = (x1 - x0, y1 - y0)
    col = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_AREA).astype(np.float32) * shade
    alpha = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255.0
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - alpha) + col * alpha


def fill_poly(
    canvas: NDArray[np.float32], pts: Vec, colour: tuple[float, float, float], alpha: float = 1.0, blur: int = 0
) -> None:
    h, w = canvas.shape[:2]
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - blur - 2, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(axis=0)).astype(int) + blur + 3, [w, h])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((pts - [x0, y0]) * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    if blur > 0:
        k = blur * 2 + 1
        mask = cv2.GaussianBlur(mask, (k, k), 0)
    a = (mask * alpha)[..., None]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + np.array(colour, np.float32) * a


@dataclass
class Die3D:
    size: float
    rotation: Vec
    centre: Vec
    body: tuple[int, int, int]
    pip: tuple[int, int, int]
    pip_radius: float
    style: int
    cocked: bool
    vein: Colour | None = None  # marbled (gemini) dice: the body swirls into this colour
    pip_spread: float = 1.0  # the pips' places drawn this much farther from the face's middle than PIP_LAYOUT's

    def corners(self) -> Vec:
        half = self.size / 2
        pts = np.array([[x, y, z] for x in (-half, half) for y in (-half, half) for z in (-half, half)])
        return np.asarray(pts @ self.rotation.T + self.centre, dtype=np.float64)

    def top_value(self) -> int:
        best, value = -2.0, 1
        for v, n in FACE_NORMALS.items():
            up = float((self.rotation @ np.array(n, np.float64))[2])
            if up > best:
                best, value = up, v
        return value

    def face_quads(self) -> list[tuple[int, Vec, Vec]]:
        """(value, world normal, 4 world corners tl, tr, br, bl) for every face."""
        half = self.size / 2
        out = []
        for v, n in FACE_NORMALS.items():
            nv = np.array(n, np.float64)
            # two in-plane axes
            a = np.array([0.0, 0.0, 1.0]) if abs(nv[2]) < 0.5 else np.array([1.0, 0.0, 0.0])
            u = np.cross(a, nv)
            u = u / np.linalg.norm(u)
            w = np.cross(nv, u)
            c = nv * half
            local = np.array(
                [c - u * half - w * half, c + u * half - w * half, c + u * half + w * half, c - u * half + w * half]
            )
            world = local @ self.rotation.T + self.centre
            out.append((v, self.rotation @ nv, world))
        return out


def draw_die(canvas: NDArray[np.float32], cam: Camera, die: Die3D, light: Vec, ambient: float) -> None:
    for value, normal, quad in die.face_quads():
        centre = quad.mean(axis=0)
        if float(np.dot(normal, cam.position - centre)) <= 0:
            continue
        shade = ambient + (1 - ambient) * max(0.0, float(np.dot(normal, light)))
        swirl_seed = value * 1000 + sum(die.vein or ())  # every face its own swirl, the same each time it is drawn
        tex, mask = face_texture(
            value, die.body, die.pip, die.pip_radius, die.style, vein=die.vein, seed=swirl_seed, spread=die.pip_spread
        )
        # dark edge line between faces: slightly shrink the mask
        warp_quad(canvas, tex, mask, cam.project(quad), min(1.15, shade))


def shadow_polygon(points: Vec, light: Vec) -> Vec:
    """Project 3-D points along the light onto z = 0."""
    t = points[:, 2] / max(light[2], 0.2)
    ground = points[:, :2] - light[None, :2] * t[:, None]
    hull = cv2.convexHull(ground.astype(np.float32))
    return np.asarray(hull.reshape(-1, 2), dtype=np.float64)


@dataclass
class Checker3D:
    centre: Vec  # x, y on the table, z of the bottom
    radius: float
    height: float
    colour: tuple[int, int, int]

    def outline(self, z: float, n: int = 28) -> Vec:
        ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
        return np.column_stack(
            [
                self.centre[0] + self.radius * np.cos(ang),
                self.centre[1] + self.radius * np.sin(ang),
                np.full(n, self.centre[2] + z),
            ]
        )


def draw_checker(canvas: NDArray[np.float32], cam: Camera, checker: Checker3D, light: Vec) -> None:
    bottom = cam.project(checker.outline(0))
    top = cam.project(checker.outline(checker.height))
    hull = cv2.convexHull(np.vstack([bottom, top]).astype(np.float32)).reshape(-1, 2)
    side = (checker.colour[0] * 0.7, checker.colour[1] * 0.7, checker.colour[2] * 0.7)
    fill_poly(canvas, hull.astype(np.float64), side)
    shade = 0.6 + 0.4 * max(0.0, float(light[2]))
    fill_poly(canvas, top, (checker.colour[0] * shade, checker.colour[1] * shade, checker.colour[2] * shade))
    inner = cam.project(
        Checker3D(checker.centre, checker.radius * 0.75, checker.height, checker.colour).outline(checker.height)
    )
    r0, r1, r2 = (min(255.0, c * shade * 1.12 + 8) for c in checker.colour)
    ring = (r0, r1, r2)
    fill_poly(canvas, inner, ring, alpha=0.5)


# ---------------------------------------------------------------- dice placement


def make_die(
    rng: np.random.Generator,
    x: float,
    y: float,
    size: float,
    value: int,
    colours: tuple[tuple[int, int, int], tuple[int, int, int]],
    tilt: float = 0.0,
    base_z: float = 0.0,
    pip_radius: float | None = None,
    style: int | None = None,
) -> Die3D:
    rotation = rot_z(rng.uniform(0, 2 * np.pi)) @ rotation_to_top(value)
    cocked = tilt > 0
    if cocked:
        axis_angle = rng.uniform(0, 2 * np.pi)
        tilt_rot = rot_z(axis_angle) @ rot_x(tilt) @ rot_z(-axis_angle)
        rotation = tilt_rot @ rotation
    die = Die3D(
        size,
        rotation,
        np.array([x, y, 0.0]),
        colours[0],
        colours[1],
        pip_radius if pip_radius is not None else float(rng.uniform(0.07, 0.11)),
        style if style is not None else int(rng.integers(0, 3)),
        cocked,
    )
    low = die.corners()[:, 2].min()
    die.centre = np.array([x, y, base_z - low])
    return die


def die_truth(cam: Camera, die: Die3D) -> DieTruth:
    pts = cam.project(die.corners())
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    top = max(die.face_quads(), key=lambda f: f[1][2])
    tc = cam.project(top[2].mean(axis=0, keepdims=True))[0]
    return DieTruth(
        die.top_value(),
        die.cocked,
        (int(x0), int(y0), int(np.ceil(x1)), int(np.ceil(y1))),
        (float(tc[0]), float(tc[1])),
        (float(die.centre[0]), float(die.centre[1])),
    )


def finish(rng: np.random.Generator, canvas: NDArray[np.float32], strength: float = 1.0) -> Image:
    """Light, colour cast, vignette, blur, noise and JPEG: the camera."""
    h, w = canvas.shape[:2]
    gain = rng.uniform(0.65, 1.25)
    cast = np.array([rng.uniform(0.9, 1.1), 1.0, rng.uniform(0.9, 1.1)], np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    grad = 1 + strength * rng.uniform(0, 0.25) * ((xx / w - 0.5) * gx + (yy / h - 0.5) * gy)
    img = canvas * gain * cast * grad[..., None]
    r = rng.random()
    if r < 0.25 * strength:
        k = int(rng.integers(1, 3)) * 2 + 1
        img = cv2.GaussianBlur(img, (k, k), 0)
    elif r < 0.4 * strength:
        length = int(rng.integers(3, 9))
        kern = np.zeros((length, length), np.float32)
        kern[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kern = np.asarray(cv2.warpAffine(kern, rot, (length, length)), np.float32)
        kern /= max(float(kern.sum()), 1e-6)
        img = cv2.filter2D(img, -1, kern)
    img = img + rng.standard_normal(img.shape).astype(np.float32) * rng.uniform(1, 6) * strength
    np.clip(img, 0, 255, out=img)
    out = img.astype(np.uint8)
    if rng.random() < 0.6:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 95))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return np.asarray(out, dtype=np.uint8)


def random_light(rng: np.random.Generator) -> Vec:
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    return np.asarray(light / np.linalg.norm(light), dtype=np.float64)


def draw_shadows(canvas: NDArray[np.float32], cam: Camera, objects: list[Vec], light: Vec, darkness: float) -> None:
    hom = cam.plane_homography()
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.float32)
    for pts in objects:
        poly = shadow_polygon(pts, light)
        img_poly = cv2.perspectiveTransform(poly.reshape(-1, 1, 2), hom).reshape(-1, 2)
        cv2.fillPoly(mask, [np.round(img_poly * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), max(1.0, w / 400)), np.float32)
    canvas *= (1 - darkness * mask)[..., None]


def draw_clutter(rng: np.random.Generator, canvas: NDArray[np.float32]) -> None:
    """Cables, pens, a laptop corner: things on a table that are not dice."""
    h, w = canvas.shape[:2]
    for _ in range(int(rng.integers(0, 3))):
        kind = rng.random()
        colour = random_colour(rng, light=bool(rng.random() < 0.3))
        if kind < 0.5:
            pts = np.cumsum(rng.normal(0, w / 12, (6, 2)), axis=0) + rng.uniform(0, [w, h])
            cv2.polylines(canvas, [pts.astype(np.int32)], False, colour, int(rng.integers(3, 12)), cv2.LINE_AA)
        elif kind < 0.8:
            c = rng.uniform(0, [w, h])
            cv2.circle(canvas, (int(c[0]), int(c[1])), int(rng.uniform(4, w / 20)), colour, -1, cv2.LINE_AA)
        else:
            x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
            cv2.rectangle(canvas, (x, y), (x + int(rng.uniform(20, w / 3)), y + int(rng.uniform(5, 30))), colour, -1)


# ---------------------------------------------------------------- scenes


TABLE_TILTS = (0.0, 0.45)  # a desk photo's camera, from straight down to 26 degrees off (radians)


VARIED_PIP_SPREAD = (0.82, 1.12)
VARIED_PIP_RADIUS = (0.065, 0.13)
"""Pip spacing (times PIP_LAYOUT's from the middle) and radius (of the face) of ``table_scene``'s varied pips.
Why: real dice differ (the tray set's big pips near the middle), and a second stage that knew one layout read
rendered dice with pips 0.85 as far out and 0.12 large asking twice as often, and 4s as 5s."""
SIX_PIP_STEP = PIP_LAYOUT[6][2][1] - PIP_LAYOUT[6][0][1]  # a six's pips apart in a column, at spread 1


def largest_pip_radius(spread: float) -> float:
    """The largest varied pip at ``spread``: at least a fifth of a six's step between its pips, so that a six's
    pips never touch."""
    return min(VARIED_PIP_RADIUS[1], 0.4 * SIX_PIP_STEP * spread)


def table_scene(
    rng: np.random.Generator,
    size: tuple[int, int] = (640, 480),
    n_dice: int | None = None,
    cocked_rate: float = 0.2,
    dice_pool: list[int] | None = None,
    tilts: tuple[float, float] = TABLE_TILTS,
    paint: Paint | None = None,
    varied_pips: bool = False,
) -> Scene:
    """Dice on a plain surface (no board), as in desk photos: the crop classifier's main diet. ``tilts``: the
    range of the camera's tilt from straight down (radians); ``paint``: the dice's colours (else a preset of
    ``dice_pool``, or random ones); ``varied_pips``: painted dice's pips of any size and spacing club dice have
    (``VARIED_PIP_SPREAD``, ``VARIED_PIP_RADIUS``)."""
    w, h = size
    surface = str(rng.choice(["wood", "felt", "leather", "plain"]))
    base = random_colour(rng)
    die_size = float(rng.uniform(13, 20))
    height = float(rng.uniform(180, 420))
    tilt = float(rng.uniform(*tilts))
    target = np.array([0.0, 0.0, 0.0])
    pos = np.array([rng.uniform(-40, 40), -np.tan(tilt) * height, height])
    focal = float(rng.uniform(0.7, 1.1)) * w
    cam = Camera(pos, target, focal, size, roll=float(rng.uniform(-0.3, 0.3)))
    # texture of the visible table plane
    extent = 1.4 * height * max(w, h) / focal + 200
    res = 3.0  # px per mm
    tex_size = int(min(extent * res, 900))
    scale = tex_size / extent
    tex = surface_texture(rng, surface, tex_size, tex_size, base).astype(np.float32)
    world_to_tex = np.array([[scale, 0, tex_size / 2], [0, scale, tex_size / 2], [0, 0, 1]])
    hom = cam.plane_homography() @ np.linalg.inv(world_to_tex)
    canvas = np.asarray(
        cv2.warpPerspective(tex, hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT), dtype=np.float32
    )
    draw_clutter(rng, canvas)
    light = random_light(rng)
    ambient = float(rng.uniform(0.35, 0.7))
    pool = dice_pool if dice_pool is not None else list(range(len(DIE_COLOURS)))
    colours = DIE_COLOURS[int(rng.choice(pool))]
    if rng.random() < 0.3:
        colours = (random_colour(rng), random_colour(rng))
    if paint is not None:
        colours = (paint[0], paint[1])
    n = n_dice if n_dice is not None else int(rng.integers(1, 6))
    dice, checkers = table_dice(rng, cam, n, die_size, colours, cocked_rate)
    if paint is not None:
        for d in dice:
            d.vein = paint[2]
            if varied_pips:
                d.pip_spread = float(rng.uniform(*VARIED_PIP_SPREAD))
                d.pip_radius = min(float(rng.uniform(*VARIED_PIP_RADIUS)), largest_pip_radius(d.pip_spread))
    inv = np.linalg.inv(cam.plane_homography())
    if rng.random() < 0.4:  # a few checkers around
        for _ in range(int(rng.integers(1, 5))):
            u, v = rng.uniform(0, w), rng.uniform(0, h)
            pw = inv @ np.array([u, v, 1.0])
            x, y = pw[0] / pw[2], pw[1] / pw[2]
            if any(np.hypot(x - d.centre[0], y - d.centre[1]) < die_size * 2.5 for d in dice):
                continue
            checkers.append(Checker3D(np.array([x, y, 0.0]), die_size * 1.3, die_size * 0.45, random_colour(rng)))
    draw_shadows(
        canvas,
        cam,
        [d.corners() for d in dice] + [np.vstack([c.outline(0), c.outline(c.height)]) for c in checkers],
        light,
        rng.uniform(0.2, 0.5),
    )
    order: list[tuple[float, object]] = [(float(np.linalg.norm(d.centre - cam.position)), d) for d in dice]
    order += [(float(np.linalg.norm(c.centre - cam.position)), c) for c in checkers]
    for _, obj in sorted(order, key=lambda t: -t[0]):
        if isinstance(obj, Die3D):
            draw_die(canvas, cam, obj, light, ambient)
        else:
            assert isinstance(obj, Checker3D)
            draw_checker(canvas, cam, obj, light)
    image = finish(rng, canvas)
    return Scene(image, [die_truth(cam, d) for d in dice])


def table_dice(
    rng: np.random.Generator,
    cam: Camera,
    n: int,
    die_size: float,
    colours: tuple[tuple[int, int, int], tuple[int, int, int]],
    cocked_rate: float,
) -> tuple[list[Die3D], list[Checker3D]]:
    """About ``n`` dice lying apart where ``cam`` sees the table, a few cocked, and the checkers they lean on.

    A cocked die rests on something, as on any real table: a checker, or a flat die of the same pair under its
    raised side (one more die than ``n``); a die tilted on nothing teaches a model a die no camera sees."""
    w, h = cam.size
    inv = np.linalg.inv(cam.plane_homography())
    dice: list[Die3D] = []
    checkers: list[Checker3D] = []

    def clear(x: float, y: float) -> bool:
        apart = all(np.hypot(x - d.centre[0], y - d.centre[1]) >= die_size * 1.6 for d in dice)
        return apart and all(np.hypot(x - c.centre[0], y - c.centre[1]) >= c.radius + die_size for c in checkers)

    def seen(die: Die3D) -> bool:
        u, v = cam.project(die.centre[None, :])[0]
        return bool(0.05 * w < u < 0.95 * w and 0.05 * h < v < 0.95 * h)

    for _ in range(n * 6):  # where the visible table is: die positions sampled inside the image
        if len(dice) >= n:
            break
        u, v = rng.uniform(0.08, 0.92) * w, rng.uniform(0.08, 0.92) * h
        pw = inv @ np.array([u, v, 1.0])
        x, y = pw[0] / pw[2], pw[1] / pw[2]
        if not clear(x, y):
            continue
        value = int(rng.integers(1, 7))
        if rng.random() >= cocked_rate:
            dice.append(make_die(rng, x, y, die_size, value, colours))
            continue
        die, support = cocked_die(rng, x, y, die_size, value, colours)
        if support is None:
            under = die_under(rng, die, int(rng.integers(1, 7)), colours, checkers)
            if under is not None and clear(*under.centre[:2]) and seen(under):
                dice += [die, under]
                continue
            support = checker_under(rng, die)  # no room for a die under it
        dice.append(die)
        checkers.append(support)
    return dice, checkers


SUPPORT_RADIUS = 1.3  # a checker beside a die (what a die leans on, or lies against): this many die sizes


def support_checker(rng: np.random.Generator, at: Vec, size: float) -> Checker3D:
    """A checker at ``at`` (board millimetres) of the size a die of ``size`` leans on or lies against."""
    return Checker3D(np.array([at[0], at[1], 0.0]), SUPPORT_RADIUS * size, size * 0.45, random_colour(rng))


def cocked_die(
    rng: np.random.Generator,
    x: float,
    y: float,
    size: float,
    value: int,
    colours: tuple[tuple[int, int, int], tuple[int, int, int]],
) -> tuple[Die3D, Checker3D | None]:
    """A die leaning on a checker (returned as its support), or (None) on something its caller puts where it
    leans (:func:`leaning_towards`): the other die (:func:`die_under`) or, where that has no room, a checker."""
    tilt = float(rng.uniform(0.25, 0.75))  # 14..43 degrees
    die = make_die(rng, x, y, size, value, colours, tilt=tilt)
    return die, checker_under(rng, die) if rng.random() < 0.6 else None


def checker_under(rng: np.random.Generator, leaning: Die3D) -> Checker3D:
    """The checker a leaning die rests on, on the side it leans towards."""
    at = leaning.centre[:2] + leaning_towards(leaning) * (SUPPORT_RADIUS + 0.35) * leaning.size
    return support_checker(rng, at, leaning.size)


def leaning_towards(die: Die3D) -> Vec:
    """The unit direction (on the table) of the side a leaning die rests on its support (its lowest edge is
    away from it)."""
    corners = die.corners()
    high = corners[np.argsort(corners[:, 2])[-4:]].mean(axis=0)
    d = high[:2] - die.centre[:2]
    return np.asarray(d / max(float(np.linalg.norm(d)), 1e-6), np.float64)


def die_under(
    rng: np.random.Generator,
    leaning: Die3D,
    value: int,
    colours: tuple[tuple[int, int, int], tuple[int, int, int]],
    clear_of: Sequence[Checker3D],
) -> Die3D | None:
    """A flat die lying where ``leaning`` rests on it, its near side just under the leaning die's edge and
    clear of the checkers ``clear_of`` (None: a die there would lie on one)."""
    d = leaning_towards(leaning)
    reach = float(((leaning.corners()[:, :2] - leaning.centre[:2]) @ d).max())  # how far it leans out that way
    die = make_die(rng, 0.0, 0.0, leaning.size, value, colours, pip_radius=0.09, style=0)
    back = float((-(die.corners()[:, :2] - die.centre[:2]) @ d).max())  # the flat die's extent back towards it
    at = leaning.centre[:2] + d * (reach - 0.05 * leaning.size + back)
    if any(np.hypot(*(at - c.centre[:2])) < c.radius + 0.75 * die.size for c in clear_of):
        return None
    die.centre = np.array([at[0], at[1], die.centre[2]])
    return die


def checker_against(rng: np.random.Generator, die: Die3D, others: list[Die3D]) -> Checker3D | None:
    """A checker (of a leaning die's support's size) lying against the flat ``die`` on a random side clear of
    the ``others`` (None: no such side found)."""
    radius = SUPPORT_RADIUS * die.size
    footprint = die.corners()[:, :2] - die.centre[:2]
    for _ in range(10):
        angle = float(rng.uniform(0, 2 * np.pi))
        d = np.array([np.cos(angle), np.sin(angle)])
        reach = float((footprint @ d).max())  # the die's extent that way
        c = die.centre[:2] + d * (reach + radius + die.size * float(rng.uniform(0.0, 0.1)))
        if all(np.hypot(*(c - o.centre[:2])) > radius + 0.75 * o.size for o in others):
            return support_checker(rng, c, die.size)
    return None


def beside_die(
    rng: np.random.Generator, other: Die3D, checkers: list[Checker3D], at: tuple[float, float], side: float
) -> tuple[float, float]:
    """Where a flat die lies against ``other`` (never into it, however both are turned) and clear of the
    ``checkers``, in the half ``side`` (+1 right of the bar, -1 left); ``at`` where there is no room."""
    size = other.size
    for _ in range(20):
        angle = float(rng.uniform(0, 2 * np.pi))
        gap = size * float(rng.uniform(1.45, 1.7))  # beyond both half-diagonals: the dice cannot overlap
        x, y = other.centre[0] + gap * np.cos(angle), other.centre[1] + gap * np.sin(angle)
        inside = side * x > BAR_W / 2 + size and abs(x) < BOARD_W / 2 - size and abs(y) < BOARD_H / 4
        if inside and all(np.hypot(x - c.centre[0], y - c.centre[1]) > c.radius + 0.75 * size for c in checkers):
            return float(x), float(y)
    return at


# ---------------------------------------------------------------- the board


@dataclass
class BoardStyle:
    field_kind: str
    field: tuple[int, int, int]
    frame: tuple[int, int, int]
    table_kind: str
    table: tuple[int, int, int]
    point_a: tuple[int, int, int]
    point_b: tuple[int, int, int]
    checker_a: tuple[int, int, int]
    checker_b: tuple[int, int, int]
    dice: tuple[tuple[int, int, int], tuple[int, int, int]]
    die_size: float


BOARD_W, BOARD_H, BAR_W, FRAME_W = 480.0, 400.0, 30.0, 22.0  # playing area (mm) incl. bar, frame width


def random_board_style(rng: np.random.Generator, dice_pool: list[int] | None = None) -> BoardStyle:
    field_kind = str(rng.choice(["felt", "leather", "wood"]))
    field = random_colour(rng)
    frame = random_colour(rng, light=False)
    table = random_colour(rng)
    # keep the board distinguishable from the table (a referee sets that up)
    while abs(sum(table) - sum(frame)) < 150:
        table = random_colour(rng)
    pool = dice_pool if dice_pool is not None else list(range(len(DIE_COLOURS)))
    return BoardStyle(
        field_kind,
        field,
        frame,
        str(rng.choice(["wood", "plain", "felt"])),
        table,
        random_colour(rng),
        random_colour(rng),
        (230, 235, 240),
        (30, 30, 40),
        DIE_COLOURS[int(rng.choice(pool))],
        float(rng.uniform(14, 19)),
    )


def board_camera(rng: np.random.Generator, size: tuple[int, int] = (1280, 720)) -> Camera:
    """A camera over the board, the long side of the board across the image, players at top and bottom."""
    w, h = size
    tilt = float(rng.uniform(0.0, 0.3))
    height = float(rng.uniform(600, 750))
    pos = np.array([rng.uniform(-30, 30), -np.tan(tilt) * height + rng.uniform(-20, 20), height])
    target = np.array([rng.uniform(-15, 15), rng.uniform(-15, 15), 0.0])
    # choose the focal length so that the board (plus frame) fills about 80 % of the image height
    need = (BOARD_H + 2 * FRAME_W) * 1.06
    focal = float(h * height / need * rng.uniform(0.97, 1.03))
    return Camera(pos, target, focal, size, roll=float(rng.uniform(-0.04, 0.04)))


def board_texture(rng: np.random.Generator, style: BoardStyle, res: float) -> tuple[Image, Vec]:
    """Top view of table + board; returns the texture and world->texture matrix."""
    tw, th = (BOARD_W + 2 * FRAME_W) * 1.7, (BOARD_H + 2 * FRAME_W) * 1.7
    W, H = int(tw * res), int(th * res)
    tex = surface_texture(rng, style.table_kind, H, W, style.table)
    w2t = np.array([[res, 0, W / 2], [0, -res, H / 2], [0, 0, 1]])  # world y up -> texture rows down

    def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        a = w2t @ np.array([x0, y0, 1.0])
        b = w2t @ np.array([x1, y1, 1.0])
        return int(min(a[0], b[0])), int(min(a[1], b[1])), int(max(a[0], b[0])), int(max(a[1], b[1]))

    fx0, fy0, fx1, fy1 = rect(
        -BOARD_W / 2 - FRAME_W, -BOARD_H / 2 - FRAME_W, BOARD_W / 2 + FRAME_W, BOARD_H / 2 + FRAME_W
    )
    tex[fy0:fy1, fx0:fx1] = surface_texture(rng, "wood", fy1 - fy0, fx1 - fx0, style.frame)
    for sign in (-1, 1):
        x0 = BAR_W / 2 if sign > 0 else -BOARD_W / 2
        x1 = BOARD_W / 2 if sign > 0 else -BAR_W / 2
        ax0, ay0, ax1, ay1 = rect(x0, -BOARD_H / 2, x1, BOARD_H / 2)
        tex[ay0:ay1, ax0:ax1] = surface_texture(rng, style.field_kind, ay1 - ay0, ax1 - ax0, style.field)
        pw = (x1 - x0) / 6
        for i in range(6):
            for top in (True, False):
                px0 = x0 + i * pw
                base_y = BOARD_H / 2 if top else -BOARD_H / 2
                tip_y = base_y - 0.4 * BOARD_H if top else base_y + 0.4 * BOARD_H
                tri = np.array([[px0, base_y], [px0 + pw, base_y], [px0 + pw / 2, tip_y]])
                tt = (w2t @ np.column_stack([tri, np.ones(3)]).T).T[:, :2]
                colour = style.point_a if (i + int(top)) % 2 else style.point_b
                cv2.fillPoly(tex, [np.round(tt).astype(np.int32)], colour, cv2.LINE_AA)
    return tex, w2t


def board_corners_world() -> Vec:
    """The board's outer corners, frame included (tl, tr, br, bl as the bottom player sees them, y up)."""
    x, y = BOARD_W / 2 + FRAME_W, BOARD_H / 2 + FRAME_W
    return np.array([[-x, y, 0], [x, y, 0], [x, -y, 0], [-x, -y, 0]], np.float64)


@dataclass
class ThrowSpec:
    """What to render: where the dice go and whether one is cocked."""

    kind: str  # valid | cocked | wrong_half | off_board
    thrower: str  # bottom | top
    touching: float = 0.0
    """The chance that a flat die lies against a checker or the other die, as thrown dice often do (a leaning
    die has its support beside it: without flat ones beside something, a model learns that a neighbour means
    a leaning die)."""


def with_checker(
    rng: np.random.Generator, checkers: list[Checker3D], added: Checker3D, style: BoardStyle
) -> list[Checker3D]:
    """The board's checkers with ``added`` (a die's support, in one of the board's two colours) in place of
    those it would overlap."""
    added.colour = style.checker_a if rng.random() < 0.5 else style.checker_b
    kept = [c for c in checkers if np.hypot(*(c.centre[:2] - added.centre[:2])) > 2 * c.radius]
    return [*kept, added]


def board_scene(
    rng: np.random.Generator,
    style: BoardStyle,
    cam: Camera,
    spec: ThrowSpec,
    dice_override: list[Die3D] | None = None,
    checkers_override: list[Checker3D] | None = None,
    background: Image | None = None,
    camera_effects: bool = True,
    drawn_checkers: Sequence[Checker3D] = (),
) -> tuple[Scene, list[Die3D], list[Checker3D]]:
    """A whole board with checkers and two thrown dice, as the referee camera sees it. ``drawn_checkers``: the
    checkers already on the ``background`` (not drawn again): flat dice keep clear of them as of the others,
    since a die drawn over one would lie on it, and a die on a checker voids the throw."""
    w, h = cam.size
    light = random_light(rng)
    if background is None:
        tex, w2t = board_texture(rng, style, 1.3)
        hom = cam.plane_homography() @ np.linalg.inv(w2t)
        canvas = np.asarray(
            cv2.warpPerspective(
                tex.astype(np.float32), hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
            ),
            dtype=np.float32,
        )
    else:
        canvas = background.astype(np.float32)
    s = style.die_size
    # the thrower's right-hand half: bottom player -> x > 0, top player -> x < 0
    right = 1.0 if spec.thrower == "bottom" else -1.0
    if checkers_override is not None:
        checkers = checkers_override
    else:
        checkers = []
        for i in range(int(rng.integers(4, 14))):
            side = rng.choice([-1, 1])
            col = int(rng.integers(0, 6))
            px0 = (BAR_W / 2 if side > 0 else -BOARD_W / 2) + (col + 0.5) * (BOARD_W / 2 - BAR_W / 2) / 6
            top = rng.random() < 0.5
            r = (BOARD_W / 2 - BAR_W / 2) / 12 * 0.95
            stack = int(rng.integers(1, 4))
            for k in range(stack):
                y = (BOARD_H / 2 - r - 2 * r * k) if top else (-BOARD_H / 2 + r + 2 * r * k)
                colour = style.checker_a if (col + int(top)) % 2 else style.checker_b
                checkers.append(Checker3D(np.array([px0, y, 0.0]), r, 7.0, colour))
    dice: list[Die3D] = []
    if dice_override is not None:
        dice = dice_override
    else:
        half_lo, half_hi = BAR_W / 2 + s, BOARD_W / 2 - s
        leans_on_checker = False
        for i in range(2):
            if i == 1 and dice[0].cocked and not leans_on_checker:
                # the cocked die leans on this one (a die stays cocked only on something the camera sees)
                value = int(rng.integers(1, 7))
                under = die_under(rng, dice[0], value, style.dice, [*checkers, *drawn_checkers])
                if under is not None:
                    dice.append(under)
                    continue
                checkers = with_checker(rng, checkers, checker_under(rng, dice[0]), style)  # no room: a checker
            on_board = [*checkers, *drawn_checkers]  # with the first die's support, if it has one
            for _attempt in range(50):
                x = right * rng.uniform(half_lo, half_hi)
                y = rng.uniform(-BOARD_H / 2 + 0.25 * BOARD_H, BOARD_H / 2 - 0.25 * BOARD_H)
                if spec.kind == "wrong_half" and i == 0:
                    x = -x
                if spec.kind == "off_board" and i == 0:
                    x = right * rng.uniform(BOARD_W / 2 + FRAME_W + s, BOARD_W / 2 + FRAME_W + 60)
                    y = rng.uniform(-BOARD_H / 3, BOARD_H / 3)
                if all((x - d.centre[0]) ** 2 + (y - d.centre[1]) ** 2 > (2.2 * s) ** 2 for d in dice) and all(
                    (x - c.centre[0]) ** 2 + (y - c.centre[1]) ** 2 > (c.radius + s * 1.2) ** 2 for c in on_board
                ):
                    break
            value = int(rng.integers(1, 7))
            support: Checker3D | None = None
            if spec.kind == "cocked" and i == 0:
                die, support = cocked_die(rng, x, y, s, value, style.dice)
                leans_on_checker = support is not None
            else:
                if spec.touching and dice and rng.random() < spec.touching / 2:
                    x, y = beside_die(rng, dice[0], on_board, (x, y), right)
                die = make_die(rng, x, y, s, value, style.dice, pip_radius=0.09, style=0)
                if spec.touching and rng.random() < spec.touching / 2:
                    support = checker_against(rng, die, dice)
            if support is not None:
                checkers = with_checker(rng, checkers, support, style)
            dice.append(die)
    draw_shadows(
        canvas,
        cam,
        [d.corners() for d in dice] + [np.vstack([c.outline(0), c.outline(c.height)]) for c in checkers],
        light,
        0.3,
    )
    order: list[tuple[float, object]] = [(float(np.linalg.norm(d.centre - cam.position)), d) for d in dice]
    order += [(float(np.linalg.norm(c.centre - cam.position)), c) for c in checkers]
    for _, obj in sorted(order, key=lambda t: -t[0]):
        if isinstance(obj, Die3D):
            draw_die(canvas, cam, obj, light, 0.55)
        else:
            assert isinstance(obj, Checker3D)
            draw_checker(canvas, cam, obj, light)
    image = finish(rng, canvas, strength=0.5) if camera_effects else np.clip(canvas, 0, 255).astype(np.uint8)
    corners = cam.project(board_corners_world())
    scene = Scene(
        image,
        [die_truth(cam, d) for d in dice],
        corners,
        (BOARD_W, BOARD_H),
        {"kind": spec.kind, "thrower": spec.thrower},
    )
    return scene, dice, checkers
