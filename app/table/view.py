"""What the camera shows, drawn for a person: the settled throw with every die boxed, the live picture with the
board and the thrower's half, the set-up check, and the board found again from its printed markers.

A director trusts the camera only when they can see what it saw. The screens show these pictures and verdicts;
vision draws and measures them, and this module is where the screens reach it.
"""

from __future__ import annotations

from dataclasses import replace

from app.referee import events as ev
from app.table.dice import SEAT, Image, Shot
from rules.position import Color
from vision import Calibration
from vision.annotate import annotate, draw_board
from vision.markers import calibrate_from_markers
from vision.setupcheck import SetupReport, check_frames
from vision.verdict import ThrowObservation


def throw_picture(shot: Shot) -> Image:
    """The settled picture of a throw with the board, the thrower's half and each die boxed with its value."""
    judged = shot.judged if shot.judged is not None else ThrowObservation(None, None, shot.dice)
    if shot.thrower is None and judged.valid:  # the opening throw: each die lies in its own thrower's half
        judged = replace(judged, dice=tuple(replace(die, zone="right_half") for die in judged.dice))
    doubts = shot.event.doubts if isinstance(shot.event, ev.ThrowQuestioned) else ()
    return annotate(shot.image, judged, shot.calibration, doubts)


def live_picture(image: Image, calibration: Calibration | None, thrower: Color | None) -> Image:
    """The camera's picture now, with the board's outline and the half the next throw belongs in."""
    if calibration is None:
        return image.copy()
    return draw_board(image, calibration, SEAT[thrower if thrower is not None else Color.WHITE])


def check_camera(image: Image | None, calibration: Calibration | None, frame_rate: float | None) -> SetupReport:
    """The set-up check (as ``python -m vision check-setup``) on the camera's latest picture."""
    return check_frames([image] if image is not None else [], frame_rate, calibration)


def markers_calibration(image: Image) -> Calibration:
    """The board from its four printed corner markers; CalibrationError says which marker is not seen."""
    return calibrate_from_markers(image)


def corners_text(calibration: Calibration) -> str:
    """The board's corners as the director's "calibrate" override takes them ("x,y x,y x,y x,y")."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in calibration.corners)
