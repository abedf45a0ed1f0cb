"""What saving a dice profile costs, in the format of version 1 (everything in one JSON, as text), of version
2 (a small JSON and the examples' float32 arrays beside it, written atomically) and of the current one (the same
and each die's crop, the crops new since the last save in a file of their own), and what its fit costs, as it
was (float64) and as it is (float32), with numpy's BLAS on its own threads and on one:
``.venv/bin/python -m tests.vision.bench_profile [--dice 200 1000 2000] [--repeat 20]``.

Every confirmation refits and saves the profile, so both times are paid at each tap of "Confirm"; the size is
what the tablet keeps per dice set. The figures print side by side (docs/vision-learning.md keeps the last ones
measured). Run it beside a busy core (the camera's, in the app: ``--busy``) to see what BLAS's threads cost.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

import numpy as np

from vision.adapt import RIDGE, STEPS, DiceProfile, FeatureReader, normalised
from vision.crop_reader import CLASSES, CROP, OnnxModel, softmax
from vision.reader import DEFAULT_HEAD


@functools.cache
def feature_width() -> int:
    """The shipped second stage's feature width (96 since 2026-12-06, 64 before): what a profile keeps a die."""
    features = FeatureReader(OnnxModel(DEFAULT_HEAD)).logits_and_features(np.zeros((1, CROP, CROP, 3), np.uint8))[1]
    return int(features.shape[1])


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
        features=np.abs(rng.normal(0, 1, (dice, feature_width()))).astype(np.float32),
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


def fit_in_float64(profile: DiceProfile) -> None:
    """The reference for ``DiceProfile.fit``: the same descent, in float64."""
    x = normalised(profile.features)
    n, d = x.shape
    w = np.zeros((len(CLASSES), d), np.float64)
    onehot = np.eye(len(CLASSES))[profile.labels]
    for _ in range(STEPS):
        p = softmax(np.asarray(profile.base + x @ w.T, np.float32)).astype(np.float64)
        w -= 0.5 * (((p - onehot) / n).T @ x + RIDGE * w)
    profile.weights = w.astype(np.float32)


def fitting(dice: int, repeat: int) -> str:
    """Median milliseconds of one fit of ``dice`` examples, as it was and as it is ("old / new")."""
    profile = profile_of(dice)
    times: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(repeat):
        for old in (True, False):
            start = time.perf_counter()
            fit_in_float64(profile) if old else profile.fit()
            times[old].append(1000 * (time.perf_counter() - start))
    return f"{np.median(times[True]):.0f} / {np.median(times[False]):.0f} ms"


def fits_in_child(dice: list[int], repeat: int, one_thread: bool) -> list[str]:
    """``fitting`` in a fresh interpreter: BLAS reads its thread count once, when numpy is first imported."""
    env = {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}
    if one_thread:
        env["OPENBLAS_NUM_THREADS"] = "1"
    code = f"from tests.vision.bench_profile import fitting; print('\\n'.join(fitting(d, {repeat}) for d in {dice!r}))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def busy(stop: float) -> None:
    """A core kept busy until ``stop`` (time.time()), as the camera's thread keeps one in the app."""
    while time.time() < stop:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dice", type=int, nargs="+", default=[200, 1000, 2000])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--busy", action="store_true", help="one core kept busy while the fits are timed")
    args = ap.parse_args()
    worker = None
    if args.busy:
        worker = multiprocessing.Process(target=busy, args=(time.time() + 3600,), daemon=True)
        worker.start()
    fits = {one: fits_in_child(args.dice, max(3, args.repeat // 4), one) for one in (False, True)}
    if worker is not None:
        worker.terminate()
    print("| dice | fit, old / new: BLAS's threads | one thread |")
    print("|---|---|---|")
    for i, dice in enumerate(args.dice):
        print(f"| {dice} | {fits[False][i]} | {fits[True][i]} |")
    print()
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
