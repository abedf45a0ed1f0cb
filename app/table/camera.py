"""The physical camera: vision's settle/watch loop on a real source, in a background thread.

The thread opens the source (a camera index, a video file, a folder of images: whatever
:func:`vision.open_source` takes) and keeps its latest picture for the set-up screen's corner taps. Once
the match starts (:meth:`LiveCamera.arm`) it runs :func:`vision.watch` with the tapped calibration or,
without taps, the board's corners found automatically. Every settled throw and every change of the link is
handed to ``post`` (in the app Kivy's ``Clock.schedule_once``), so the referee hears of it on the main
thread and the screen never waits for the dice reader. A source that cannot open, fails or runs out is
reported once, with why; the controller then rules the camera disconnected and the dice are typed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from typing import Callable

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import (
    Calibration,
    CalibrationError,
    DiceReader,
    Frame,
    Reader,
    ThrowObservation,
    VisionError,
    detect_board,
    open_source,
    watch,
)
from vision.settle import SettleDetector
from vision.sources import Camera

Image = NDArray[np.uint8]
Post = Callable[[Callable[[], None]], None]
"""Runs a callable on the main thread (Kivy: ``lambda f: Clock.schedule_once(lambda _: f())``)."""


class LiveCamera:
    """One camera source read in a thread; results reach the caller only through ``post``.

    ``on_throw(image, observation)``: a settled throw (the settled picture, the dice as the bottom player
    sees them); ``on_link(up, detail)``: the camera is reading (and how it is calibrated), or it stopped."""

    def __init__(
        self,
        spec: str | int,
        post: Post,
        on_throw: Callable[[Image, ThrowObservation], None],
        on_link: Callable[[bool, str], None],
        reader: Callable[[], Reader] = DiceReader,
        still_seconds: float = 0.15,
    ) -> None:
        self.spec = spec
        self.post = post
        self.on_throw = on_throw
        self.on_link = on_link
        self.make_reader = reader
        self.still_seconds = still_seconds
        self.failure: str | None = None
        """Why the camera stopped (None while it works)."""
        self._picture: Image | None = None
        self._first = threading.Event()
        self._armed = threading.Event()
        self._stop = threading.Event()
        self._recalibrated = threading.Event()
        self._latest: Frame | None = None
        self._stamps: list[float] = []
        self._motion = SettleDetector(still_seconds)
        """Measures how much of the board each picture changed (the board's region once calibrated)."""
        self._moved_at: float | None = None
        """When the board last moved (a picture's own time), None before it first did."""
        self._calibration: Calibration | None = None
        self.calibration: Calibration | None = None
        """The board the throws are read on (tapped or found), once reading started: a die near the bar or the
        frame is doubted by it."""
        self._thread = threading.Thread(target=self._run, name=f"camera {spec}", daemon=True)

    def start(self) -> LiveCamera:
        self._thread.start()
        return self

    def picture(self, wait_s: float = 0.0) -> Image | None:
        """The camera's latest picture (waiting up to ``wait_s`` for the first), None if it has none."""
        self._first.wait(wait_s)
        return self._picture

    def still_for(self) -> float | None:
        """How long the board has stood still at the latest picture (seconds; the whole stream when nothing has
        moved), None before the first picture: a hand over the board is motion."""
        latest = self._latest
        if latest is None:
            return None
        moved = self._moved_at
        return latest.timestamp - moved if moved is not None else float("inf")

    def arm(self, calibration: Calibration | None) -> None:
        """Start reading throws: with the tapped calibration, or (None) the corners found in the picture. Armed
        already (the match dice were learned first), a new calibration is read with from now on."""
        if self._armed.is_set():
            if calibration is not None and calibration is not self._calibration:
                self.recalibrate(calibration)
            return
        self._calibration = calibration
        self._armed.set()

    def recalibrate(self, calibration: Calibration) -> None:
        """Read the throws from now on with ``calibration`` (the director marked the board again mid-match)."""
        self._calibration = calibration
        self._recalibrated.set()

    @property
    def frame_rate(self) -> float | None:
        """Pictures a second the source delivered lately (None before two pictures, or for one still picture)."""
        stamps = list(self._stamps)
        if len(stamps) < 2 or stamps[-1] <= stamps[0]:
            return None
        return (len(stamps) - 1) / (stamps[-1] - stamps[0])

    def close(self, wait_s: float = 5.0) -> None:
        self._stop.set()
        self._armed.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(wait_s)

    @property
    def alive(self) -> bool:
        return self.failure is None

    # ------------------------------------------------------------ the thread

    def _run(self) -> None:
        source = None
        try:
            source = open_source(self.spec)
            reader = self.make_reader()
            frames = iter(source.frames())
            first = next(frames, None)
            if first is None:
                raise VisionError(f"{self.spec}: gave no picture")
            latest = self._show(first)
            live = isinstance(source, Camera)
            while not self._armed.is_set():  # the set-up screen: a camera keeps its picture fresh, a file waits
                if not live:
                    self._armed.wait(0.1)
                    continue
                frame = next(frames, None)
                if frame is None:
                    raise VisionError(f"{self.spec}: stopped delivering pictures")
                latest = self._show(frame)
            while not self._stop.is_set():  # once, and again each time the director calibrates the camera again
                again = self._recalibrated.is_set()
                self._recalibrated.clear()
                calibration = self.calibration = self._calibrate(latest.image, again)  # judged as White (bottom) sees
                # them: the referee judges them again for whoever threw (app.sim.camera.camera_event)
                self._motion = SettleDetector(self.still_seconds)  # motion measured on this board's region from now
                for observation in watch(
                    self._stream(latest, frames), reader, calibration, "bottom", self.still_seconds
                ):
                    image = self._picture
                    assert image is not None
                    self.post(partial(self.on_throw, image, observation))
                if not self._recalibrated.is_set():
                    break
                assert self._latest is not None
                latest = self._latest
            if not self._stop.is_set():
                self._fail(f"{self.spec}: no more pictures (the video or folder ended, or the camera went silent)")
        except (VisionError, cv2.error, OSError) as error:
            self._fail(str(error))
        except Exception as error:  # a thread that dies silently would leave the referee blind
            self._fail(f"{self.spec}: the dice reader stopped ({type(error).__name__}: {error})")
        finally:
            self._first.set()
            if source is not None:
                source.close()

    def _show(self, frame: Frame) -> Frame:
        motion = self._motion
        if self.calibration is not None and motion.region is None:
            motion.region = self.calibration.region_mask(frame.image.shape)
        if motion.motion(frame.image) > motion.motion_fraction:
            self._moved_at = frame.timestamp
        self._picture = frame.image
        self._latest = frame
        self._stamps = (self._stamps + [frame.timestamp])[-30:]
        self._first.set()
        return frame

    def _stream(self, first: Frame, frames: Iterator[Frame]) -> Iterator[Frame]:
        """The frames from ``first`` on, until closed; the last one handed out is the settled picture."""
        yield first
        for frame in frames:
            if self._stop.is_set() or self._recalibrated.is_set():
                return
            yield self._show(frame)

    def _calibrate(self, image: Image, again: bool = False) -> Calibration | None:
        if self._calibration is not None:
            self._link(True, f"{self.spec}: corners {'set again' if again else 'tapped'}")
            return self._calibration
        try:
            calibration = detect_board(image)
        except CalibrationError as error:
            self._link(True, f"{self.spec}: board corners not found ({error}); the whole picture is the board")
            return None
        self._link(True, f"{self.spec}: corners found automatically")
        return calibration

    def _link(self, up: bool, detail: str) -> None:
        self.post(lambda: self.on_link(up, detail))

    def _fail(self, detail: str) -> None:
        self.failure = detail
        self._link(False, detail)
