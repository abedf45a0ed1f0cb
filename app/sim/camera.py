"""The camera over the simulated table: every throw drawn as a camera image and read by the real dice reader.

The simulated players' throws become pictures with the vision package's own
scene renderer (a board seen from above, dice as 3-D cubes, sensor noise),
and :class:`vision.DiceReader` reads them exactly as it reads a real camera's
frames: it looks where the picture changed from the board before the throw,
finds the dice there with the learned detector, reads each with its second
stage and places it on the board calibrated from its four corners. What the
reader says is what the referee gets, misreads and voided throws included.
A void throw the players intend (a cocked die, leaning on the other die,
dice in the wrong half or off the board) is drawn as such.

White sits at the bottom of the image, Black at the top. In the opening
throw each player throws one die into their own right-hand half; the die in
the bottom player's half is White's.

Each picture is a pure function of the seed and the journal's event count,
so a resumed demo sees the same throws as one that never stopped.
"""

from __future__ import annotations

import copy

import numpy as np

from app.referee import events as ev
from app.referee.engine import Referee, Stage
from app.table.dice import SEAT, Image, Shot, shot
from app.table.learning import PracticeThrow
from vision import Calibration, DiceReader, Reader
from vision.synth import render
from vision.verdict import Thrower

FRAME_SIZE = (1280, 720)


class SimulatedCamera:
    """Renders each throw the simulated players make and reads it with the dice reader."""

    def __init__(self, seed: int, reader: Reader | None = None, size: tuple[int, int] = FRAME_SIZE) -> None:
        self.seed = seed
        rng = np.random.default_rng([seed, 7])
        self.style = render.random_board_style(rng)
        self.view = render.board_camera(rng, size)
        empty, _, _ = render.board_scene(
            rng, self.style, self.view, render.ThrowSpec("valid", "bottom"), dice_override=[], camera_effects=False
        )
        assert empty.corners is not None
        self.corners = [(float(x), float(y)) for x, y in empty.corners]
        self.board_image = empty.image
        self._exposures = [self.noisy(empty.image, rng) for _ in range(3)]
        self.before = self.noisy(empty.image, rng)
        """The board as the camera sees it before a throw (the reader finds the dice by what changed)."""
        self.calibration = Calibration.from_corners(self.corners)
        """As the referee sets it up: the board's four corners tapped on the set-up screen."""
        self.reader: Reader = reader if reader is not None else DiceReader()
        self.last: Shot | None = None
        self.shots = 0

    def __call__(self, intention: ev.DiceObserved, referee: Referee) -> ev.DiceObserved | ev.ThrowQuestioned:
        return self.shoot(intention, referee).event

    def shoot(self, intention: ev.DiceObserved, referee: Referee) -> Shot:
        """Draw the throw ``intention`` describes, read the picture, and say what the reader saw."""
        rng = np.random.default_rng([self.seed, 11, referee.events])
        opening = referee.stage is Stage.OPENING
        thrower = intention.thrower if intention.thrower is not None else referee.mover  # White is 0
        kind = intention.void.value if intention.void is not None else ("opening" if opening else "valid")
        values = intention.values or (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        image = self.frame(rng, self.dice(rng, kind, values, SEAT[thrower]))
        observation = self.reader.read(image, self.calibration, "bottom", reference=self.before)
        self.shots += 1
        self.last = shot(image, observation, referee, self.calibration)
        return self.last

    def practice(self, number: int) -> PracticeThrow:
        """The ``number``-th throw of the learning step before the match: the match dice thrown into the bottom
        player's half, drawn and read (a pure function of the seed and the number)."""
        rng = np.random.default_rng([self.seed, 17, number])
        values = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        image = self.frame(rng, self.dice(rng, "valid", values, "bottom"))
        return PracticeThrow.of(image, self.reader.read(image, self.calibration, "bottom", reference=self.before))

    # ------------------------------------------------------------------ drawing

    def frame(self, rng: np.random.Generator, dice: list[render.Die3D]) -> Image:
        """The board with these dice on it, as the camera delivers it (sensor noise: no two frames alike).

        The dice are the renderer's 3-D cubes, lit from a random direction, without the cast shadows its
        training scenes have (with them the reader splits a die from its shadow in about a third of the
        throws). Only the part of the picture around the dice is drawn (a camera with its principal point
        moved there); the rest is one of a few noisy exposures of the board."""
        image = self._exposures[int(rng.integers(len(self._exposures)))].copy()
        corners = np.vstack([self.view.project(die.corners()) for die in dice])
        height, width = image.shape[:2]
        margin = 4 + self.style.die_size
        x0, y0 = (max(int(v - margin), 0) for v in corners.min(axis=0))
        x1, y1 = (min(int(v + margin), limit) for v, limit in zip(corners.max(axis=0), (width, height)))
        if x1 <= x0 or y1 <= y0:
            return image  # the dice fell out of the picture
        part = copy.copy(self.view)
        part.k = self.view.k.copy()
        part.k[0, 2] -= x0
        part.k[1, 2] -= y0
        part.size = (x1 - x0, y1 - y0)
        canvas = self.board_image[y0:y1, x0:x1].astype(np.float32)
        light = render.random_light(rng)
        for die in sorted(dice, key=lambda d: -float(np.linalg.norm(d.centre - part.position))):
            render.draw_die(canvas, part, die, light, 0.55)
        image[y0:y1, x0:x1] = np.clip(canvas + rng.normal(0.0, 2.0, canvas.shape), 0, 255).astype(np.uint8)
        return image

    def noisy(self, image: Image, rng: np.random.Generator) -> Image:
        """One exposure of ``image``: sensor noise added."""
        return np.asarray(np.clip(image + rng.normal(0.0, 2.0, image.shape), 0, 255), dtype=np.uint8)

    def dice(
        self, rng: np.random.Generator, kind: str, values: tuple[int, int], thrower: Thrower
    ) -> list[render.Die3D]:
        """Two dice where a throw of ``kind`` leaves them (board millimetres, bottom player's right is +x)."""
        size = self.style.die_size
        right = 1.0 if thrower == "bottom" else -1.0
        low, high = render.BAR_W / 2 + size, render.BOARD_W / 2 - size
        placed: list[render.Die3D] = []
        for index, value in enumerate(values):
            side = right
            if kind == "opening":
                side = 1.0 if index == 0 else -1.0  # White's die in White's half, Black's in Black's
            elif kind == "wrong_half" and index == 0:
                side = -right
            for _ in range(60):
                x = side * rng.uniform(low, high)
                y = rng.uniform(-render.BOARD_H / 4, render.BOARD_H / 4)
                if kind == "off_board" and index == 0:
                    x = side * rng.uniform(
                        render.BOARD_W / 2 + render.FRAME_W + 0.8 * size,
                        render.BOARD_W / 2 + render.FRAME_W + 1.6 * size,
                    )  # just off it
                if all(np.hypot(x - d.centre[0], y - d.centre[1]) > 2.4 * size for d in placed):
                    break
            if kind == "cocked" and index == 0:
                die, _ = render.cocked_die(rng, x, y, size, value, self.style.dice)
            elif kind == "cocked" and (under := render.die_under(rng, placed[0], value, self.style.dice, ())):
                die = under  # the cocked die leans on it: a die stays cocked only on something
            else:
                die = render.make_die(rng, x, y, size, value, self.style.dice, pip_radius=0.09, style=0)
            placed.append(die)
        return placed


def typed_dice(intention: ev.DiceObserved, referee: Referee) -> ev.ManualDice:
    """Without a camera the dice are typed on the tablet; a throw that would have been void is simply thrown
    again, and only the dice that count are typed."""
    if intention.values is not None:
        return ev.ManualDice(intention.values)
    rng = np.random.default_rng([referee.events, 13])
    return ev.ManualDice((int(rng.integers(1, 7)), int(rng.integers(1, 7))))
