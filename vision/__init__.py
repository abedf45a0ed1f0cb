"""Dice reading for the referee: camera frames in, one verdict per throw out (docs/rules.md section 5).

Flow: a frame source (``vision.sources``) -> settle detection (``vision.settle``) -> OpenCV proposes die
regions (``vision.detect``) -> the ONNX model reads each crop as 1-6, cocked or not a die
(``vision.reader``, onnxruntime or cv2.dnn) -> each die is placed on the calibrated board
(``vision.calibration``) -> the verdict (``vision.verdict``). Imports numpy, OpenCV and onnxruntime only.

The API the referee app uses::

    from vision import DiceReader, Calibration, detect_board, open_source, watch

    reader = DiceReader()                       # models/dice.onnx, onnxruntime, one thread
    cal = detect_board(first_frame)             # or Calibration.from_corners([(x, y), ...]) by hand
    obs = reader.read(frame, cal, thrower="bottom")
    obs.verdict, obs.reason, obs.values         # "valid", None, (6, 3) | "void", "cocked", None
    for d in obs.dice:                          # DieReading: value (None = unreadable), box, cocked,
        ...                                     # confidence, zone ("right_half"/"wrong_half"/"off_board")
    for obs in watch(open_source(0).frames(), reader, cal, thrower="top"):
        ...                                     # one ThrowObservation per settled throw
    reader.read(frame, cal, reference=before)   # the board just before the throw, if the caller has it:
                                                # far fewer false regions and faster (watch does this)

``ThrowObservation`` and ``DieReading`` are frozen dataclasses. ``verdict`` is "valid" or "void" (None from
``read_all``, which reads any number of dice and judges nothing); ``reason`` is one of "dice_count",
"cocked", "off_board", "wrong_half", "unreadable" in that order of precedence. A die the model is not sure
of has ``value`` None and voids the throw as "unreadable": the reader never guesses. Without calibration the
whole image is the throwing area (no half or off-board rulings).

Thrower and halves: players sit on opposite long sides of the board; the bottom player's right-hand half is
the image's right of the bar, the top player's is the image's left.

Bad input raises ``VisionError`` subclasses (``ImageReadError``, ``CalibrationError``, ``ModelError``,
``SourceError``) with a message a person can act on.

``DetectorReader`` (``vision.detector``) is the same reader with a learned detector in place of the proposer:
``models/detector.onnx`` finds the dice on the board rectified to a fixed die size (``vision.rectify``), or on
the whole photo, and ``models/detector_head.onnx`` reads each one from a crop of the full frame
(``python -m vision read --reader detector``). It is experimental, not the default: models/MODEL_CARD.md
compares the two. Both satisfy ``Reader``. ``vision.adapt`` learns the match dice from confirmed throws for it.

``FairnessMonitor`` runs chi-square tests per die and for the pair on the valid throws of a match or session.
"""

from vision.calibration import Calibration, detect_board, parse_corners
from vision.detector import DetectorReader
from vision.errors import CalibrationError, ImageReadError, ModelError, SourceError, VisionError
from vision.fairness import FairnessMonitor, FairnessReport
from vision.pipeline import DiceReader, Reader
from vision.settle import SettleDetector, watch
from vision.sources import Frame, FrameSource, load_image, open_source
from vision.verdict import DieReading, ThrowObservation

__all__ = [
    "Calibration",
    "CalibrationError",
    "DetectorReader",
    "DiceReader",
    "DieReading",
    "FairnessMonitor",
    "FairnessReport",
    "Frame",
    "FrameSource",
    "ImageReadError",
    "ModelError",
    "Reader",
    "SettleDetector",
    "SourceError",
    "ThrowObservation",
    "VisionError",
    "detect_board",
    "load_image",
    "open_source",
    "parse_corners",
    "watch",
]
