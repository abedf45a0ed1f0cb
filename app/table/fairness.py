"""The fairness monitor's picture of a match: each face's count against the band a fair die stays in.

The director's screen shows it and the exports keep it beside the result sheet (``fairness.png``), so a loaded
die is seen at a glance rather than read from a p-value. The throws are the match's own
(:mod:`app.record.dice_counts`); vision draws them.
"""

from __future__ import annotations

from pathlib import Path

import cv2

from app.record.dice_counts import thrown
from app.referee.engine import Referee
from app.table.dice import Image
from vision.fairness import FairnessMonitor
from vision.fairness_picture import fairness_picture


def fairness_image(referee: Referee, size: tuple[int, int] = (720, 300), titled: bool = True) -> Image:
    """Both dice's faces together (the referee orders a throw's dice, so they cannot be told apart);
    ``titled=False`` leaves out vision's English heading for a screen that says it in its own language."""
    monitor = FairnessMonitor(distinguishable=False)
    monitor.extend(thrown(referee))
    return fairness_picture(monitor.face_counts(), size, titled)


def write_fairness_picture(referee: Referee, path: Path) -> Path:
    """The picture as a PNG at ``path``; OSError when it cannot be written."""
    if not cv2.imwrite(str(path), fairness_image(referee)):
        raise OSError(f"{path}: the fairness picture could not be written")
    return path
