"""The fairness monitor as a picture: each die's face counts as bars against the band a fair die stays in.

A p-value convinces a statistician; a director and two players see at a glance a bar sticking out of the
grey band. The picture serves the director's screen and the result sheet.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.fairness import FACES, FaceCounts

BAR, OUT, BAND, INK = (170, 120, 40), (40, 40, 220), (215, 215, 215), (40, 40, 40)


def fairness_picture(
    dice: tuple[FaceCounts, ...], size: tuple[int, int] = (720, 300), titled: bool = True
) -> NDArray[np.uint8]:
    """One panel per die, bars for faces 1-6 (red when outside the 99 % band), the band in grey; ``titled``: each
    panel headed in English (the app says it in its own language beside the picture instead)."""
    width, height = size
    picture = np.full((height, width, 3), 255, np.uint8)
    if not dice:
        return picture
    panel = width // len(dice)
    top, bottom = 40, height - 34
    tallest = max(max(max(d.counts), d.band()[1]) for d in dice) or 1.0
    scale = (bottom - top) / tallest
    for i, die in enumerate(dice):
        left = i * panel + 16
        slot = (panel - 32) / len(FACES)
        low, high = die.band()
        right = left + round(slot * 6)
        cv2.rectangle(picture, (left, round(bottom - high * scale)), (right, round(bottom - low * scale)), BAND, -1)
        expected = round(bottom - die.throws / 6 * scale)
        cv2.line(picture, (left, expected), (right, expected), (150, 150, 150), 1)
        outside = die.outside()
        for f, (face, count) in enumerate(zip(FACES, die.counts)):
            x0 = round(left + f * slot + slot * 0.2)
            x1 = round(left + (f + 1) * slot - slot * 0.2)
            colour = OUT if face in outside else BAR
            cv2.rectangle(picture, (x0, round(bottom - count * scale)), (x1, bottom), colour, -1)
            cv2.putText(
                picture,
                str(face),
                ((x0 + x1) // 2 - 5, bottom + 20),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.55,
                INK,
                1,
                cv2.LINE_AA,
            )
        if not titled:
            continue
        named = f", face{'s' if len(outside) > 1 else ''} {', '.join(map(str, outside))} outside" if outside else ""
        title = f"{die.name}: {die.throws} throws{named}"
        cv2.putText(picture, title, (left, 26), cv2.FONT_HERSHEY_SIMPLEX, 0.55, OUT if outside else INK, 1, cv2.LINE_AA)
    return picture
