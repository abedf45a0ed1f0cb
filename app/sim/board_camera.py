"""The camera over the simulated table reading the checkers: each board a player leaves is drawn by the
whole-board renderer (:mod:`vision.synth.board_render`) and read by the real checker reader.

At a table without a sensing board the station reads the settled picture when the mover presses the clock
(:mod:`app.table.checkers`); here the picture is the board the simulated player left, drawn on one board scene
per seed (its colours, frame, lamp and camera, fixed as a station's are) with its four corners tapped from the
drawing, as a referee taps them at set-up. What the reader says is what the referee gets: a reading it doubts is
asked, never guessed.

Each play is seen twice, as a station sees it: the throw (the board before the play, the dice where they fell, read
by the dice reader) and the press (the board the mover left, the dice still where they fell): the look for the dice
at the press starts from the throw's picture (:func:`app.table.checkers.dice_at_press`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import cv2

from app.referee import events as ev
from app.referee.engine import Referee
from app.table.checkers import BoardLayout, ThrowSeen, dice_at_press, read_checkers, reading_order
from app.table.dice import Image
from rules.position import Position
from rules.steprules import Landing
from vision import Calibration, Reader
from vision.synth.board_render import Setting, Spot, render_board

SCENES = 400_000
"""Board scenes for the simulated camera start here among the renderer's indices: apart from its test boards (from
0), the stack counter's training boards (from 100,000) and its check (from 200,000)."""


class BoardCamera:
    """Draws the board ``board_of(referee)`` says the mover left and reads it; ``reader`` finds the dice in the
    picture (a pale die can pass for a checker's top), or None to read without; ``layout``: how the board lies
    under the camera (White's colour and home side), by default one of the four chosen by the seed."""

    def __init__(
        self,
        seed: int,
        board_of: Callable[[Referee], Position],
        reader: Reader | None = None,
        layout: BoardLayout | None = None,
    ) -> None:
        self.scene = SCENES + seed
        self.layout = layout or BoardLayout("light" if seed % 2 else "dark", home_right=seed % 4 < 2)
        self.board_of = board_of
        self.reader = reader
        self.read_ms: list[float] = []
        """The CPU time each reading at the press took (the checker reader and its look for the dice), milliseconds."""
        self.last: tuple[Image, ev.CheckersSeen] | None = None
        """The last picture read and what it became."""

    def picture(self, position: Position, spots: tuple[Spot, ...] | None = None) -> tuple[Image, Calibration]:
        """``position`` drawn on this camera's board (``spots``: the dice lying on it; None: at random), and the
        board's corners as tapped."""
        image, calibration, _ = self._drawn(position, spots)
        return image, calibration

    def _drawn(self, position: Position, spots: tuple[Spot, ...] | None) -> tuple[Image, Calibration, tuple[Spot, ...]]:
        points, bar, off, pins = reading_order(position, self.layout)
        setting = Setting(points, bar, off, self.layout.home_right, self.layout.white_colour, pins, spots)
        image, truth = render_board(self.scene, setting)
        return image, Calibration.from_corners(list(truth.corners)), truth.spots

    def seen(self, referee: Referee) -> ev.CheckersSeen:
        """The reading of the board the mover leaves now, as the station sends it just before the press."""
        position = self.board_of(referee)
        reader = self.reader
        dice = None
        if reader is None:
            image, calibration = self.picture(position)
        else:
            thrown, calibration, spots = self._drawn(referee.position, None)
            throw = ThrowSeen(thrown, tuple(d.box for d in reader.dice(thrown, calibration)))
            image, calibration, _ = self._drawn(position, spots)
            dice = dice_at_press(reader, image, calibration, throw)
        threads = cv2.getNumThreads()
        cv2.setNumThreads(1)  # a tablet's one core: the figure the benchmark prints
        started = time.process_time()
        try:
            pins = position.RULES.landing is Landing.PIN
            event, _ = read_checkers(image, calibration, self.layout, position.RULES.facing, dice, pins)
        finally:
            cv2.setNumThreads(threads)
        self.read_ms.append((time.process_time() - started) * 1000)
        self.last = (image, event)
        return event

    def picture_read(self) -> Image | None:
        """The last picture read (the board as the mover left it at the press), None before the first."""
        return self.last[0] if self.last is not None else None
