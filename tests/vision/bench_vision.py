"""What ``bench_detector`` does not measure, with the shipped reader and any candidates beside it in one run:
``.venv/bin/python -m tests.vision.bench_vision [--quick] [--only backends,video,cocked,fairness] [--model SPEC]``.

1. backends: per-die figures on the real ``webcam_white_dice/Valid`` photos through onnxruntime and cv2.dnn,
   which must read alike (the tablet may have either);
2. video: settle-to-verdict on rendered throw videos (the ``watch`` loop, as the app runs it);
3. cocked: what the ``cocked_from`` setting trades (valid throws voided against cocked throws accepted);
4. fairness: the fairness monitor's false alarm rate and power on simulated dice (no reader).
``--model DETECTOR[+HEAD[+LOOK]]`` (repeatable, as ``bench_detector --detector``) adds a candidate.
"""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path

import cv2
import numpy as np

from tests.progress import tracked
from tests.vision.bench_detector import detector_reader
from vision import DiceReader
from vision.calibration import Calibration
from vision.crop_reader import Backend
from vision.fairness import FairnessMonitor
from vision.reader import COCKED_SURE
from vision.scoring import Label, Score
from vision.settle import watch
from vision.sources import Frame
from vision.train.detector_data import real_scene, scene_paths
from vision.train.heldout import KINDS, heldout_throw, throw_video

BACKEND_SET = "webcam_white_dice/Valid"  # never trained on by the shipped models
BACKENDS: tuple[Backend, ...] = ("onnxruntime", "opencv")


def reader_for(spec: str | None, backend: Backend | None = None) -> DiceReader:
    """The shipped reader (``spec`` None) or a candidate ``DETECTOR[+HEAD[+LOOK]]``, on one thread."""
    return DiceReader(backend=backend, threads=1) if spec is None else detector_reader(spec, backend=backend)


def bench_backends(spec: str | None) -> None:
    """The same photos through both backends: each one's figures, and on how many photos the two differ."""
    readers = {backend: reader_for(spec, backend) for backend in BACKENDS}
    scores = {backend: Score() for backend in BACKENDS}
    differ = 0
    paths = scene_paths(BACKEND_SET)
    for path in tracked(paths, f"real {BACKEND_SET} photos, both backends"):
        scene = real_scene(path, BACKEND_SET)
        if scene is None:
            continue
        image, dice = scene
        labels = [Label(d.value, (d.x, d.y)) for d in dice]
        readings = {backend: reader.read_all(image).dice for backend, reader in readers.items()}
        for backend, found in readings.items():
            scores[backend].add(Path(path).name, labels, found)
        differ += len({tuple((d.value, d.cocked) for d in found) for found in readings.values()}) > 1
    for backend, score in scores.items():
        print(f"real {BACKEND_SET} ({len(paths)} photos), {backend}: {score.summary()}")
    print(f"  photos the two backends read differently: {differ}/{len(paths)} (target 0)")


def bench_video(reader: DiceReader, videos: int) -> None:
    cv2.setNumThreads(1)
    delays = []
    right = 0
    emitted = 0
    for seed in tracked(range(videos), "rendered throw videos"):
        video = throw_video(seed)
        cal = Calibration.from_corners(video.corners)
        rest_time = video.rest_frame / video.fps
        frames = (Frame(img, i / video.fps, f"v{seed}:{i}") for i, img in enumerate(video.frames))
        for obs in watch(frames, reader, cal, video.thrower):
            t0 = time.perf_counter()
            # the read already happened inside watch; time the same read again (with the frame before the
            # throw as background, as watch does) to charge its cost to the delay
            reader.read(video.frames[-1], cal, reference=video.frames[0])
            compute = time.perf_counter() - t0
            assert obs.timestamp is not None
            delays.append(obs.timestamp - rest_time + compute)
            emitted += 1
            right += obs.values is not None and sorted(obs.values) == sorted(video.values)
    d = np.array(delays) * 1000
    print(
        f"settle-to-verdict on {videos} rendered throw videos (30 fps, still 150 ms): {emitted} observations "
        f"({right} valid and right); delay median {np.median(d):.0f} ms, max {d.max():.0f} ms (target <= 250 ms)"
        if len(d)
        else f"settle-to-verdict: no observation from {videos} videos"
    )


COCKED_SETTINGS = (0.7, 0.5, 0.4, 0.3, 0.25, 0.2)  # values of ``cocked_from`` to weigh against each other
TRADEOFF_FIRST = 10_000  # the trade-off reads throws from this index on, apart from the held-out table's


def bench_cocked_tradeoff(reader: DiceReader, per_kind: int) -> None:
    """What the ``cocked_from`` setting trades: valid throws voided against cocked throws accepted (watch path,
    true corners), on rendered throws apart from the held-out table's, so the table is not where it is set."""
    cv2.setNumThreads(1)
    throws = {
        kind: [
            heldout_throw(TRADEOFF_FIRST + i * len(KINDS) + KINDS.index(kind), kind, with_reference=True)
            for i in tracked(range(per_kind), f"{kind} throws for the trade-off")
        ]
        for kind in ("valid", "cocked")
    }
    print(
        f"cocked_from trade-off, watch path, true corners ({per_kind} valid and {per_kind} cocked throws from "
        f"index {TRADEOFF_FIRST}):"
    )
    for cocked_from in COCKED_SETTINGS:
        setting = copy.copy(reader)  # the loaded models shared; only the setting changes
        setting.cocked_from = cocked_from
        verdicts = {
            kind: [
                setting.read(t.image, Calibration.from_corners(t.corners), t.thrower, reference=t.reference).verdict
                for t in group
            ]
            for kind, group in throws.items()
        }
        valid_voided = verdicts["valid"].count("void")
        cocked_accepted = verdicts["cocked"].count("valid")
        default = "  <- the default" if cocked_from == COCKED_SURE else ""
        print(
            f"  cocked_from {cocked_from:.2f}: valid voided {valid_voided}/{per_kind} "
            f"({100 * valid_voided / per_kind:.0f} %), cocked accepted {cocked_accepted}/{per_kind} "
            f"({100 * cocked_accepted / per_kind:.0f} %){default}",
            flush=True,
        )


def bench_fairness(sessions: int) -> None:
    rng = np.random.default_rng(7)
    fair = np.full(6, 1 / 6)
    loaded = np.array([0.14, 0.15, 0.16, 0.16, 0.17, 0.22])  # a six 22 % of the time
    for throws in (200, 500, 1000, 2000):
        alarms = caught = 0
        for _ in range(sessions):
            m_fair = FairnessMonitor()
            m_fair.extend(zip(rng.choice(6, throws, p=fair) + 1, rng.choice(6, throws, p=fair) + 1))
            alarms += m_fair.report().flagged
            m_load = FairnessMonitor()
            m_load.extend(zip(rng.choice(6, throws, p=loaded) + 1, rng.choice(6, throws, p=fair) + 1))
            caught += m_load.report().flagged
        print(
            f"fairness, {throws} throws, alpha 0.001: false alarms {alarms}/{sessions} "
            f"({100 * alarms / sessions:.2f} %), loaded die (six 22 %) caught {caught}/{sessions} "
            f"({100 * caught / sessions:.1f} %)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="a short run: fewer videos, throws and sessions")
    ap.add_argument("--only", default="backends,video,cocked,fairness")
    ap.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="DETECTOR[+HEAD[+LOOK]]",
        help="a candidate measured after the shipped reader in the same run (repeat to compare several)",
    )
    args = ap.parse_args()
    parts = set(args.only.split(","))
    cv2.setNumThreads(1)
    for spec in [None, *args.model]:
        if args.model and parts - {"fairness"}:
            print(f"=== {spec or 'shipped reader'}")
        if "backends" in parts:
            bench_backends(spec)
        reader = reader_for(spec)
        if "video" in parts:
            bench_video(reader, 3 if args.quick else 10)
        if "cocked" in parts:
            bench_cocked_tradeoff(reader, 10 if args.quick else 100)
    if "fairness" in parts:
        bench_fairness(200 if args.quick else 1000)


if __name__ == "__main__":
    main()
