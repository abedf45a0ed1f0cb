"""What every training set shares: which dice presets rendered training scenes may use (the rest are held out
for the benchmark, ``vision.train.heldout``). The real photos' labels: ``vision.scoring.labelled_dice``."""

from __future__ import annotations

TRAIN_DICE = list(range(9))  # DIE_COLOURS presets the training scenes use; the rest are held out
