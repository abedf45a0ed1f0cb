"""What learning the match dice buys on the simulated camera: per-die accuracy of the dice reader on held-back
throws before and after the learning step's confirmed throws, for a few boards and dice.

    .venv/bin/python -m tests.app.bench_learning [--boards 3] [--learn 10] [--test 100]

Each board (a simulated camera seed: its own board, dice colours and camera) gets a fresh dice set. The
learning step's throws are confirmed with the truth: each true die is matched to the thing found nearest it
(within one die side), unmatched finds are struck out as not a die. A die counts as read right when the thing
found on it has its value; false finds are counted apart. The same held-back throws are scored before and after.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from app.record.library import DiceSets
from app.sim.camera import SimulatedCamera
from app.table.learning import MatchDice
from vision import DieReading


def throw(camera: SimulatedCamera, number: int) -> tuple[np.ndarray, list[tuple[float, float, int]]]:
    """A throw of two dice into the bottom player's half: the picture and each die's centre and value."""
    rng = np.random.default_rng([camera.seed, 29, number])
    values = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    dice = camera.dice(rng, "valid", values, "bottom")
    centres = [camera.view.project(die.centre[None])[0] for die in dice]
    image = camera.frame(rng, dice)
    return image, [(float(c[0]), float(c[1]), v) for c, v in zip(centres, values)]


def matched(found: tuple[DieReading, ...], truth: list[tuple[float, float, int]]) -> list[int | None]:
    """The true value of each thing found (None: no true die under it)."""
    out: list[int | None] = []
    free = list(truth)
    for die in found:
        cx, cy = die.centre
        side = max(die.box[2] - die.box[0], die.box[3] - die.box[1])
        near = [t for t in free if np.hypot(t[0] - cx, t[1] - cy) <= side]
        if near:
            best = min(near, key=lambda t: np.hypot(t[0] - cx, t[1] - cy))
            free.remove(best)
            out.append(best[2])
        else:
            out.append(None)
    return out


def score(camera: SimulatedCamera, numbers: range) -> tuple[int, int, int]:
    """(dice read right, dice thrown, false finds) over the throws ``numbers``."""
    right = total = false = 0
    for n in numbers:
        image, truth = throw(camera, n)
        found = camera.reader.read(image, camera.calibration, "bottom", reference=camera.before).dice
        values = matched(found, truth)
        total += len(truth)
        right += sum(1 for die, value in zip(found, values) if value is not None and die.value == value)
        false += values.count(None)
    return right, total, false


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--learn", type=int, default=10)
    parser.add_argument("--test", type=int, default=100)
    args = parser.parse_args()
    held_back = range(1000, 1000 + args.test)
    print("board  before (right/dice, false finds)  after  learned dice  learning ms per throw")
    sums = np.zeros(4)
    for board in range(1, args.boards + 1):
        with tempfile.TemporaryDirectory() as folder:
            dice = MatchDice(DiceSets(Path(folder)))
            camera = SimulatedCamera(board, reader=dice.reader())
            assert dice.use(f"board {board}") is None
            before = score(camera, held_back)
            spent = 0.0
            for n in range(args.learn):
                image, truth = throw(camera, n)
                found = camera.reader.read(image, camera.calibration, "bottom", reference=camera.before).dice
                start = time.perf_counter()
                assert dice.confirm(image, found, matched(found, truth)) is None
                spent += time.perf_counter() - start
            after = score(camera, held_back)
        sums += (before[0], after[0], before[1], 0)
        print(
            f"{board:5d}  {before[0]}/{before[1]} = {before[0] / before[1]:.1%}, {before[2]}"
            f"  {after[0]}/{after[1]} = {after[0] / after[1]:.1%}, {after[2]}"
            f"  {dice.confirmed}  {1000 * spent / args.learn:.0f}"
        )
    print(f"all    {sums[0] / sums[2]:.1%}  ->  {sums[1] / sums[2]:.1%}")


if __name__ == "__main__":
    main()
