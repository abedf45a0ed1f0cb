"""Dice reading for the referee: camera frames in, one verdict per throw out (docs/rules.md section 5).

Flow: a frame source (``vision.sources``) -> settle detection (``vision.settle``) -> the board rectified to a
fixed die size (``vision.rectify``) -> the learned detector finds every die (``vision.reader``,
``models/detector.onnx``) -> its second stage reads each from a crop of the full frame as 1-6, cocked or not a
die (``models/detector_head.onnx``, through ``vision.crop_reader``: onnxruntime or cv2.dnn) -> on a calibrated
board the cocked look makes the cocked call with the slant a flat die shows there (``vision.look``,
``vision.slant``) -> each die is placed on the board (``vision.calibration``) -> the verdict
(``vision.verdict``). Imports numpy, OpenCV and onnxruntime only.

The API the referee app uses::

    from vision import DiceReader, Calibration, detect_board, open_source, watch

    reader = DiceReader()                       # the models in models/, onnxruntime, one thread
    cal = detect_board(first_frame)             # or Calibration.from_corners([(x, y), ...]) by hand
    obs = reader.read(frame, cal, thrower="bottom")
    obs.verdict, obs.reason, obs.values         # "valid", None, (6, 3) | "void", "cocked", None
    for d in obs.dice:                          # DieReading: value (None = unreadable), box, cocked,
        ...                                     # confidence, zone ("right_half"/"wrong_half"/"off_board")
    for obs in watch(open_source(0).frames(), reader, cal, thrower="top"):
        ...                                     # one ThrowObservation per settled throw
    reader.read(frame, cal, reference=before)   # the board just before the throw, if the caller has it:
                                                # only what the throw changed is read (watch does this)

``ThrowObservation`` and ``DieReading`` are frozen dataclasses. ``verdict`` is "valid" or "void" (None from
``read_all``, which reads any number of dice and judges nothing); ``reason`` is one of "dice_count",
"cocked", "off_board", "wrong_half", "unreadable" in that order of precedence. A die the model is not sure
of has ``value`` None and voids the throw as "unreadable": the reader never guesses. Without calibration the
whole image is the throwing area (no half or off-board rulings).

Thrower and halves: players sit on opposite long sides of the board; the bottom player's right-hand half is
the image's right of the bar, the top player's is the image's left.

Bad input raises ``VisionError`` subclasses (``ImageReadError``, ``CalibrationError``, ``ModelError``,
``SourceError``) with a message a person can act on.

``vision.adapt`` learns the match dice from confirmed throws (a correction on the second stage's features);
``vision.sureness`` says which calls are sure and which a person must confirm. ``Reader`` is what ``watch``,
the CLI and the app need of a reader (tests give fixed readings).

``FairnessMonitor`` runs chi-square tests per die and for the pair on the valid throws of a match or session.
"""

from vision.calibration import Calibration, detect_board, parse_corners
from vision.errors import CalibrationError, ImageReadError, ModelError, SourceError, VisionError
from vision.fairness import FairnessMonitor, FairnessReport
from vision.reader import DiceReader
from vision.reader_protocol import Reader
from vision.settle import SettleDetector, watch
from vision.sources import Frame, FrameSource, load_image, open_source
from vision.verdict import DieReading, ThrowObservation

__all__ = [
    "Calibration",
    "CalibrationError",
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
