"""What every training set shares: which dice presets rendered training scenes may use (the rest are held out
for the benchmark, ``vision.train.heldout``), and the labels of the real photos."""

from __future__ import annotations

from vision.scoring import fixed_value

TRAIN_DICE = list(range(9))  # DIE_COLOURS presets the training scenes use; the rest are held out


def label_rows(path: str) -> list[tuple[int, float, float, float, float]]:
    """The YOLO labels beside a real photo: class (pips - 1), centre and size, normalised; the known label
    errors fixed (``vision.scoring.LABEL_FIXES``)."""
    rows = []
    with open(path[:-4] + ".txt") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) != 5:
                continue
            c, xc, yc, bw, bh = (float(v) for v in parts)
            value = fixed_value(path, int(c) + 1, xc, yc)
            if value is not None:
                rows.append((value - 1, xc, yc, bw, bh))
    return rows
