"""All the dice-reading figures in one run: ``.venv/bin/python -m tests.vision.bench_vision``.

1. per-die value accuracy on the real Valid photos (never trained on), both backends;
2. the held-out rendered throws (unseen seeds, dice presets and boards): verdicts per kind;
3. latency per 1280x720 frame on one core (detection + reading + verdict);
4. settle-to-verdict on rendered throw videos;
5. the fairness monitor's false alarm rate and power on simulated dice;
6. what the ``cocked_from`` setting trades (valid throws voided against cocked throws accepted).
Options shrink the run (``--quick``) or pick parts (``--only real,heldout,latency,video,cocked,fairness``);
``--only blender --blender-dir DIR`` reads the Blender-rendered held-out set (``vision.train.blender_set``);
``--only train`` reads the real Train photos (for choosing between models: Valid never chooses).
``--model A.onnx --model B.onnx`` measures a candidate side by side with the shipped model in one run.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from tests.progress import tracked
from vision.calibration import Calibration, detect_board
from vision.errors import CalibrationError
from vision.fairness import FairnessMonitor
from vision.pipeline import COCKED_SURE, DiceReader
from vision.reader import DEFAULT_MODEL, OnnxReader
from vision.scoring import Score, read_labels
from vision.settle import watch
from vision.sources import Frame, load_image
from vision.train.blender_set import BlenderScene, load_set
from vision.train.heldout import KINDS, heldout_throw, throw_video
from vision.verdict import ThrowObservation

ROOT = Path(__file__).resolve().parents[2]
REAL_VALID = ROOT / ".." / "shared" / "real_dice" / "webcam_white_dice" / "Valid"
FramePair = tuple[np.ndarray, np.ndarray | None]  # a frame and the frame before the throw, if known


def bench_real(reader: DiceReader, backend: str, folder: Path = REAL_VALID) -> None:
    """Per-die figures on labelled real photos (Valid, or Train with ``--only train``: models are chosen on
    Train and the rendered sets, never on Valid)."""
    score = Score()
    paths = sorted(folder.glob("*.jpg"))
    for path in tracked(paths, f"real {folder.name} photos"):
        image = load_image(path)
        labels = read_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
        score.add(path.name, labels, reader.read_all(image).dice)
    print(f"real {folder.name} photos ({len(paths)} frames), {backend}: {score.summary()}")
    for err in score.errors[:15]:
        print("   ", err)


def bench_heldout(reader: DiceReader, per_kind: int, with_reference: bool) -> list[FramePair]:
    frames: list[FramePair] = []
    auto_fail = 0
    rows = []
    for kind in KINDS:
        voided = values_right = 0
        reasons: dict[str, int] = {}
        for i in tracked(range(per_kind), f"held-out {kind} throws"):
            throw = heldout_throw(i * len(KINDS) + KINDS.index(kind), kind, with_reference=with_reference)
            if len(frames) < 40:
                frames.append((throw.image, throw.reference))
            try:
                cal = detect_board(throw.image)
                err = float(np.abs(np.array(cal.corners) - throw.corners).max())
                if err > 25:
                    raise CalibrationError(f"corners off by {err:.0f} px")
            except CalibrationError:
                auto_fail += 1
                cal = Calibration.from_corners(throw.corners)  # the manual fallback
            obs = reader.read(throw.image, cal, throw.thrower, reference=throw.reference)
            if obs.verdict == "void":
                voided += 1
                reasons[str(obs.reason)] = reasons.get(str(obs.reason), 0) + 1
            elif kind == "valid" and obs.values is not None and sorted(obs.values) == sorted(throw.values):
                values_right += 1
        rows.append(_kind_row(kind, voided, per_kind, values_right, reasons))
    how = (
        "settled frames with the board before the throw as background (the watch path)"
        if with_reference
        else "single frames, no background frame (the read path)"
    )
    print(
        f"held-out rendered throws, {how} ({per_kind} a kind, 1280x720; automatic calibration failed on "
        f"{auto_fail}, manual corners used there):"
    )
    print("\n".join(rows))
    return frames


def _kind_row(kind: str, voided: int, total: int, values_right: int, reasons: dict[str, int]) -> str:
    """One kind's line of a held-out table: how many throws were voided, why, and (valid throws) values right."""
    extra = f", values right on {values_right}/{total}" if kind == "valid" else ""
    return (
        f"  {kind:10s}: voided {voided}/{total} ({100 * voided / total:.1f} %){extra}; "
        f"reasons {dict(sorted(reasons.items()))}"
    )


def bench_latency(reader: DiceReader, frames: list[FramePair], label: str) -> None:
    cv2.setNumThreads(1)
    cals: list[Calibration | None] = []
    for f, _ in frames:
        try:
            cals.append(detect_board(f))
        except CalibrationError:
            cals.append(None)
    times = []
    for _ in range(3):
        for (f, ref), cal in zip(frames, cals):
            t0 = time.perf_counter()
            reader.read(f, cal, reference=ref)
            times.append(time.perf_counter() - t0)
    ms = np.array(times) * 1000
    print(
        f"latency per 1280x720 frame, one core, {label} ({len(ms)} reads): median {np.median(ms):.1f} ms, "
        f"p95 {np.percentile(ms, 95):.1f} ms, max {ms.max():.1f} ms (target <= 20 ms)"
    )


def bench_video(reader: DiceReader, videos: int) -> None:
    cv2.setNumThreads(1)
    delays = []
    right = 0
    emitted = 0
    for seed in range(videos):
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


def bench_cocked_tradeoff(model: Path, per_kind: int) -> None:
    """What the ``cocked_from`` setting trades: valid throws voided against cocked throws accepted (watch path,
    true corners), on rendered throws apart from the held-out table's, so the table is not where it is set."""
    cv2.setNumThreads(1)
    throws = {
        kind: [
            heldout_throw(TRADEOFF_FIRST + i * len(KINDS) + KINDS.index(kind), kind, with_reference=True)
            for i in range(per_kind)
        ]
        for kind in ("valid", "cocked")
    }
    print(
        f"cocked_from trade-off, watch path, true corners ({per_kind} valid and {per_kind} cocked throws from "
        f"index {TRADEOFF_FIRST}):"
    )
    model_run = OnnxReader(model, threads=1)  # loaded once; only the setting changes
    for cocked_from in COCKED_SETTINGS:
        reader = DiceReader(classifier=model_run, cocked_from=cocked_from)
        verdicts = {
            kind: [
                reader.read(t.image, Calibration.from_corners(t.corners), t.thrower, reference=t.reference).verdict
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
            f"({100 * cocked_accepted / per_kind:.0f} %){default}"
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


def bench_blender(reader: DiceReader, folder: Path, with_reference: bool, keep_failures: int = 4) -> None:
    """The Blender-rendered held-out set (``python -m vision.train.blender_set``): scenes our OpenCV renderer
    did not make. Manual corners from each scene's truth; sensor noise (sigma 2) on the throw frame, since
    the renderer repaints only the dice's surroundings over the empty board. The first ``keep_failures``
    failures of each kind are saved, annotated, in ``folder/failures/``."""
    scenes = load_set(folder)
    if not scenes:
        print(f"Blender set: no scenes in {folder} (python -m vision.train.blender_set --out {folder})")
        return
    path = "watch" if with_reference else "read"
    failures = folder / "failures"
    failures.mkdir(exist_ok=True)
    rng = np.random.default_rng(11)
    rows = []
    kept = auto_ok = 0
    for kind in KINDS:
        group = [sc for sc in scenes if sc.kind == kind]
        if not group:
            continue
        voided = values_right = kept_kind = 0
        reasons: dict[str, int] = {}
        by_place: dict[str, list[int]] = {}  # where the cocked die leans / the off-board die lies: [voided, all]
        for sc in group:
            image = load_image(sc.image)
            image = np.clip(image + rng.normal(0, 2.0, image.shape), 0, 255).astype(np.uint8)
            reference = load_image(sc.empty) if with_reference else None
            cal = Calibration.from_corners(sc.corners)
            try:
                auto_ok += float(np.abs(np.array(detect_board(image).corners) - sc.corners).max()) <= 25
            except CalibrationError:
                pass
            obs = reader.read(image, cal, sc.thrower, reference=reference)
            right_values = obs.values is not None and sorted(obs.values) == sorted(sc.values)
            if obs.verdict == "void":
                voided += 1
                reasons[str(obs.reason)] = reasons.get(str(obs.reason), 0) + 1
            values_right += kind == "valid" and right_values
            place = {"cocked": str(sc.extra.get("support", "")).split("_")[0], "off_board": sc.dice[0].zone}.get(kind)
            if place:
                by_place.setdefault(place, [0, 0])
                by_place[place][0] += obs.verdict == "void"
                by_place[place][1] += 1
            failed = not right_values if kind == "valid" else obs.verdict != "void"
            if failed and kept_kind < keep_failures:
                kept_kind += 1
                kept += 1
                _save_failure(failures / f"{path}_{sc.name}.png", image, sc, cal, obs)
        places = (
            "; voided by place " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(by_place.items()))
            if by_place
            else ""
        )
        rows.append(_kind_row(kind, voided, len(group), values_right, reasons) + places)
    how = (
        "with the empty board as the frame before the throw (the watch path)"
        if with_reference
        else "single frames, no frame before the throw (the read path)"
    )
    print(
        f"Blender held-out scenes, {how}, manual corners ({len(scenes)} scenes from {folder}; automatic "
        f"corners within 25 px on {auto_ok}; {kept} failures drawn in {failures}):"
    )
    print("\n".join(rows))


def _save_failure(path: Path, image: np.ndarray, scene: BlenderScene, cal: Calibration, obs: ThrowObservation) -> None:
    """The frame with the truth (green boxes, values, zones), the reading (red: cocked, orange: flat, with
    value and confidence), the board's corners and the bar line."""
    out = image.copy()
    corners = np.round(np.array(cal.corners)).astype(np.int32)
    cv2.polylines(out, [corners], True, (255, 255, 0), 1, cv2.LINE_AA)
    top, bottom = cal.bar_line()
    cv2.line(out, (round(top[0]), round(top[1])), (round(bottom[0]), round(bottom[1])), (255, 255, 0), 1)
    for die in scene.dice:
        x0, y0, x1, y1 = die.box
        cv2.rectangle(out, (x0 - 2, y0 - 2), (x1 + 2, y1 + 2), (0, 200, 0), 1)
        label = f"{die.value}{' cocked' if die.cocked else ''} {die.zone}"
        cv2.putText(out, label, (x0, y1 + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 200, 0), 1, cv2.LINE_AA)
    for d in obs.dice:
        x0, y0, x1, y1 = d.box
        colour = (0, 0, 255) if d.cocked else (0, 140, 255)
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, 1)
        label = f"{d.value if d.value is not None else '?'}{' cocked' if d.cocked else ''} {d.confidence:.2f}"
        cv2.putText(out, label, (x0, y0 - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
    title = (
        f"{scene.name}: truth {scene.kind} {list(scene.values)}, thrower {scene.thrower} | read "
        f"{obs.verdict} {obs.reason or ''} {list(obs.values) if obs.values else ''}"
    )
    cv2.putText(out, title, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(out, title, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
    cv2.imwrite(str(path), out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="real,heldout,latency,video,cocked,fairness")
    ap.add_argument(
        "--blender-dir",
        type=Path,
        default=Path("/tmp/blender_set"),
        help="the Blender held-out set for --only blender (python -m vision.train.blender_set)",
    )
    ap.add_argument(
        "--model",
        type=Path,
        action="append",
        default=[],
        help="the model to measure (default models/dice.onnx); repeat it to measure a candidate "
        "side by side with the shipped model in one run",
    )
    args = ap.parse_args()
    parts = set(args.only.split(","))
    cv2.setNumThreads(1)
    models = args.model or [DEFAULT_MODEL]
    for model in models:
        if len(models) > 1:
            print(f"=== model {model}")
        measure(model, parts, args)


def measure(model: Path, parts: set[str], args: argparse.Namespace) -> None:
    reader = DiceReader(model, threads=1)
    if "real" in parts:
        if REAL_VALID.is_dir():
            bench_real(reader, "onnxruntime")
            bench_real(DiceReader(model, backend="opencv"), "cv2.dnn")
        else:
            print(f"real photos not found at {REAL_VALID}")
    if "train" in parts and REAL_VALID.with_name("Train").is_dir():
        bench_real(reader, "onnxruntime", REAL_VALID.with_name("Train"))
    n = 10 if args.quick else 100
    single: list[FramePair] = []
    settled: list[FramePair] = []
    if "heldout" in parts:
        settled = bench_heldout(reader, n, with_reference=True)
        single = bench_heldout(reader, n, with_reference=False)
    if "latency" in parts:
        if not settled:
            settled = [
                (t.image, t.reference) for t in (heldout_throw(i, KINDS[i % 4], with_reference=True) for i in range(20))
            ]
        if not single:
            single = [(t.image, None) for t in (heldout_throw(i, KINDS[i % 4]) for i in range(20))]
        bench_latency(reader, settled, "settled frame with the frame before the throw (watch)")
        bench_latency(reader, single, "single frame without it (read)")
    if "video" in parts:
        bench_video(reader, 3 if args.quick else 10)
    if "cocked" in parts:
        bench_cocked_tradeoff(model, 10 if args.quick else 100)
    if "fairness" in parts:
        bench_fairness(200 if args.quick else 1000)
    if "blender" in parts:
        bench_blender(reader, args.blender_dir, with_reference=True)
        bench_blender(reader, args.blender_dir, with_reference=False)


if __name__ == "__main__":
    main()
