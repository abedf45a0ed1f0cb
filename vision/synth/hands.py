"""A player's hand and forearm over a rendered board: what a camera sees when a hand is still over the checkers.

A reading must never be sure of a board part of which a hand hides; the benches draw one on rendered boards to
check it. The hand comes in from an edge of the picture (where the player sits or reaches from), a forearm of
skin or a sleeve ending in a palm with four fingers and a thumb, shaded from the side that faces the lamp, and
lies over a point chosen by the caller (most often a point with checkers: the hand that has just moved them).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

SKINS = ((95, 125, 175), (120, 155, 205), (140, 175, 225), (70, 95, 140), (50, 70, 105))
"""Skin tones (BGR), light to dark."""
SLEEVES = ((40, 40, 40), (140, 90, 40), (200, 200, 205), (40, 40, 150), (90, 120, 90))
"""Sleeve colours (BGR): black, blue, white, red, green."""


def draw_hand(image: Image, at: tuple[float, float], width: float, rng: np.random.Generator) -> Image:
    """``image`` with a hand whose palm lies over ``at`` (pixels), its palm ``width`` pixels across, its forearm
    reaching to the nearest top or bottom edge of the picture (or a side edge, one time in four)."""
    h, w = image.shape[:2]
    x, y = at
    if rng.random() < 0.25:
        edge = (-0.2 * w, y) if x < w / 2 else (1.2 * w, y)
    else:
        edge = (x + rng.uniform(-0.2, 0.2) * w, -0.2 * h if y < h / 2 else 1.2 * h)
    towards = math.atan2(y - edge[1], x - edge[0])  # the arm's direction, from the edge to the palm
    skin = SKINS[int(rng.integers(len(SKINS)))]
    sleeve = SLEEVES[int(rng.integers(len(SLEEVES)))] if rng.random() < 0.6 else skin
    shape = np.zeros((h, w), np.uint8)
    colour = np.zeros((h, w, 3), np.uint8)

    def limb(a: tuple[float, float], b: tuple[float, float], thick: float, bgr: tuple[int, int, int]) -> None:
        pa, pb = (round(a[0]), round(a[1])), (round(b[0]), round(b[1]))
        cv2.line(shape, pa, pb, 255, max(1, round(thick)), cv2.LINE_AA)
        cv2.line(colour, pa, pb, bgr, max(1, round(thick)), cv2.LINE_AA)

    wrist = (x - 0.75 * width * math.cos(towards), y - 0.75 * width * math.sin(towards))
    elbow_free = rng.uniform(0.35, 0.6)  # where the sleeve ends along the forearm
    cuff = (wrist[0] + (edge[0] - wrist[0]) * elbow_free, wrist[1] + (edge[1] - wrist[1]) * elbow_free)
    limb(edge, cuff, 1.15 * width, sleeve)
    limb(cuff, wrist, 0.8 * width, skin)
    palm = (round(x), round(y))
    axes = (round(0.6 * width), round(0.5 * width))
    cv2.ellipse(shape, palm, axes, math.degrees(towards), 0, 360, 255, -1, cv2.LINE_AA)
    cv2.ellipse(colour, palm, axes, math.degrees(towards), 0, 360, skin, -1, cv2.LINE_AA)
    spread = rng.uniform(0.12, 0.3)
    for k in range(4):  # the fingers fan out beyond the palm, slightly bent
        angle = towards + (k - 1.5) * spread
        root = (x + 0.45 * width * math.cos(angle), y + 0.45 * width * math.sin(angle))
        length = width * (0.75 if k in (1, 2) else 0.6) * rng.uniform(0.8, 1.1)
        tip = (root[0] + length * math.cos(angle), root[1] + length * math.sin(angle))
        limb(root, tip, 0.2 * width, skin)
    side = 1 if rng.random() < 0.5 else -1  # a left or a right hand
    thumb_angle = towards + side * rng.uniform(0.9, 1.3)
    root = (x + 0.35 * width * math.cos(thumb_angle), y + 0.35 * width * math.sin(thumb_angle))
    tip = (
        root[0] + 0.5 * width * math.cos(thumb_angle - side * 0.5),
        root[1] + 0.5 * width * math.sin(thumb_angle - side * 0.5),
    )
    limb(root, tip, 0.22 * width, skin)

    # shading: brighter on the side that faces the lamp, soft at the edges, with a shadow on the board beside it
    light = rng.uniform(0, 2 * math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = ((xx - x) * math.cos(light) + (yy - y) * math.sin(light)) / max(width, 1.0)
    shade = np.clip(1.0 + 0.12 * np.tanh(across), 0.8, 1.15)[..., None]
    alpha = cv2.GaussianBlur(shape, (0, 0), max(1.0, width / 40)).astype(np.float32)[..., None] / 255.0
    shadow_shift = np.array(
        [[1, 0, -0.15 * width * math.cos(light)], [0, 1, -0.15 * width * math.sin(light)]], np.float32
    )
    shadow = cv2.warpAffine(cv2.GaussianBlur(shape, (0, 0), width / 8), shadow_shift, (w, h))
    out = image.astype(np.float32) * (1.0 - 0.35 * shadow.astype(np.float32)[..., None] / 255.0)
    out = out * (1.0 - alpha) + colour.astype(np.float32) * shade * alpha
    return np.asarray(np.clip(out, 0, 255), np.uint8)
