"""What saving a dice profile costs, in the format of version 1 (everything in one JSON, as text), of version
2 (a small JSON and the examples' float32 arrays beside it, written atomically) and of the current one (the same
and each die's crop, the crops new since the last save in a file of their own):
``.venv/bin/python -m tests.vision.bench_profile [--dice 200 2000] [--repeat 20]``.

Every confirmation saves the profile, so the time is paid at each tap of "Confirm"; the size is what the
tablet keeps per dice set. The figures print side by side (docs/vision.md keeps the last ones measured).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from unittest import mock

import numpy as np

from vision.adapt import DiceProfile
from vision.reader import CLASSES, CROP

FEATURES = 64  # the second stage's feature width


def version_1(profile: DiceProfile, path: Path) -> None:
    """The profile as version 1 wrote it: one JSON, every number as text (what older tablets kept)."""
    data = {
        "version": 1,
        "name": profile.name,
        "features": profile.features.tolist(),
        "base": profile.base.tolist(),
        "labels": profile.labels.tolist(),
    }
    path.write_text(json.dumps(data))


def profile_of(dice: int, seed: int = 0, crops: bool = False) -> DiceProfile:
    """A profile of ``dice`` confirmed dice with features and logits like the second stage's (not fitted: the
    fit is not what is measured), and with ``crops``, a crop for each (noise: as many bytes as a die's)."""
    rng = np.random.default_rng(seed)
    return DiceProfile(
        "kulüp kırmızı",
        features=np.abs(rng.normal(0, 1, (dice, FEATURES))).astype(np.float32),
        labels=rng.integers(0, len(CLASSES), dice).astype(np.int64),
        base=rng.normal(0, 3, (dice, len(CLASSES))).astype(np.float32),
        crops=rng.integers(0, 256, (dice if crops else 0, CROP, CROP, 3), dtype=np.uint8),
    )


def one_more_throw(profile: DiceProfile) -> None:
    """Two more confirmed dice, as a confirmation adds them (no fit: it is not what is measured)."""
    profile.features = np.concatenate([profile.features, profile.features[:2]])
    profile.base = np.concatenate([profile.base, profile.base[:2]])
    profile.labels = np.concatenate([profile.labels, profile.labels[:2]])
    profile.crops = np.concatenate([profile.crops, profile.crops[:2]])


def saving(profile: DiceProfile, folder: Path, old: bool, repeat: int) -> tuple[int, float]:
    """Bytes on disk and the median milliseconds of one save (with crops: of the save after each of ``repeat``
    more confirmed throws, the profile saved once before)."""
    path = folder / "set.json"
    times = []
    if profile.relearnable:
        profile.save(path)
    for _ in range(repeat):
        if profile.relearnable:
            one_more_throw(profile)
        start = time.perf_counter()
        version_1(profile, path) if old else profile.save(path)
        times.append(1000 * (time.perf_counter() - start))
    size = sum(p.stat().st_size for p in folder.iterdir())
    return size, float(np.median(times))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dice", type=int, nargs="+", default=[200, 2000])
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    print(
        "| dice | version 1 (one JSON): size | save | version 2 (JSON + npz, atomic): size | save | of it fsync "
        "| version 3 (and the crops): size | save after a throw |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for dice in args.dice:
        profile = profile_of(dice)
        row = [f"{dice}"]
        for old in (True, False):
            with tempfile.TemporaryDirectory() as folder:
                size, ms = saving(profile, Path(folder), old, args.repeat)
            row += [f"{size / 1024:.0f} KB", f"{ms:.1f} ms"]
        with tempfile.TemporaryDirectory() as folder, mock.patch("os.fsync"):  # the same save, not waiting for the disk
            _, unsynced = saving(profile, Path(folder), False, args.repeat)
        row.append(f"{ms - unsynced:.1f} ms")
        with tempfile.TemporaryDirectory() as folder:
            size, ms = saving(profile_of(dice, crops=True), Path(folder), False, args.repeat)
        row += [f"{size / 1024:.0f} KB", f"{ms:.1f} ms"]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
