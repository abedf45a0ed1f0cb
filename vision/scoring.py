"""Scoring a reader against labelled photos (YOLO text labels, one die a line: class xc yc w h, class =
pips - 1). The labels box the pip pattern only, so a die is matched by where its centre falls, not by box
overlap: a label matches the read die whose box holds the label's centre (the nearest if several)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from vision.verdict import DieReading


@dataclass(frozen=True)
class Label:
    value: int
    centre: tuple[float, float]


KNOWN_LABEL_ERRORS = {"five_1": (0.725, 0.434375)}
"""Labels that mark no die (``shared/real_dice/README``): in ``webcam_white_dice/Train/five_1.txt`` a 1 is
labelled on empty wood, so that photo holds one die, not two."""


def label_error(path: Path | str, xc: float, yc: float) -> bool:
    """Whether the label centred at ``(xc, yc)`` (normalised) in the photo at ``path`` is a known error."""
    known = KNOWN_LABEL_ERRORS.get(Path(path).stem)
    return known is not None and abs(xc - known[0]) < 1e-3 and abs(yc - known[1]) < 1e-3


def read_labels(path: Path, width: int, height: int) -> list[Label]:
    """The dice labelled in a YOLO text file, in pixels of a ``width`` x ``height`` photo (known errors left
    out)."""
    labels = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        c, xc, yc, _, _ = (float(v) for v in parts)
        if not label_error(path, xc, yc):
            labels.append(Label(int(c) + 1, (xc * width, yc * height)))
    return labels


@dataclass
class Score:
    labels: int = 0
    correct: int = 0
    wrong: int = 0
    unreadable: int = 0
    missed: int = 0
    invented: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.labels if self.labels else 0.0

    def add(self, name: str, labels: list[Label], dice: tuple[DieReading, ...]) -> None:
        used: set[int] = set()
        for lab in labels:
            self.labels += 1
            inside = [
                i
                for i, d in enumerate(dice)
                if i not in used and d.box[0] <= lab.centre[0] <= d.box[2] and d.box[1] <= lab.centre[1] <= d.box[3]
            ]
            if not inside:
                self.missed += 1
                self.errors.append(f"{name}: missed the {lab.value} at {lab.centre[0]:.0f},{lab.centre[1]:.0f}")
                continue
            best = min(
                inside,
                key=lambda i: (dice[i].centre[0] - lab.centre[0]) ** 2 + (dice[i].centre[1] - lab.centre[1]) ** 2,
            )
            used.add(best)
            got = dice[best].value
            if got == lab.value and not dice[best].cocked:
                self.correct += 1
            elif got is None:
                self.unreadable += 1
                self.errors.append(f"{name}: the {lab.value} unreadable (confidence {dice[best].confidence:.2f})")
            else:
                self.wrong += 1
                self.errors.append(f"{name}: read the {lab.value} as {got}{' cocked' if dice[best].cocked else ''}")
        for i, d in enumerate(dice):
            if i not in used:
                self.invented += 1
                self.errors.append(f"{name}: invented a {d.value} at {list(d.box)}")

    def summary(self) -> str:
        return (
            f"{self.correct}/{self.labels} dice right ({100 * self.accuracy:.2f} %), {self.wrong} wrong, "
            f"{self.unreadable} unreadable, {self.missed} missed, {self.invented} invented"
        )
