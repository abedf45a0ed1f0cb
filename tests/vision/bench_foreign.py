"""The reader before and after, side by side: ``.venv/bin/python -m tests.vision.bench_foreign --before DIR``.

Reads the throws of a scene builder the project did not write, never trained on (``shared/foreign_renders``, and
the boards of ``shared/foreign_positions`` where dice were thrown, among stacks, the bar and borne-off checkers),
and a sample of the project's own held-out renders (``--own N`` throws, the sureness bench's mix) as the watch path
does (the frame before the throw given, the board's tapped corners), and scores each throw as the referee uses it:
a question to the players, or an automatic call that is right or wrong (a needless rethrow, a void throw counted,
wrong values). "before" is the reader of the checkout at ``--before`` (a worktree of an earlier commit), run in its
own process on its own code with the board it assumes; "after" is this tree's, with the board set-up measures (the
outer and playing-field corners, the board's size as entered, the die's size). ``--blender DIR`` adds the project's
Blender held-out set (``vision.train.blender_set``) as a third world, read as the foreign throws are (the frame
before is ``NAME_empty.png``; a valid throw's dice count, any other kind is void). Also prints the reliability of the
cocked probability on the foreign (and Blender) dice and both readers' latency on a settled 1280x720 frame (the
reader having read a frame on that calibration before, as a station has); ``--pairs N`` times both again throw by
throw in turn, N passes, for a ratio a shared machine does not move. Prints figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Mapping

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
FOREIGN = ROOT.parent / "shared" / "foreign_renders"
POSITIONS = ROOT.parent / "shared" / "foreign_positions"
KINDS = ("valid",) * 7 + ("cocked", "wrong_half", "off_board")  # the sureness bench's mix, seven valid in ten
SETTING_NAMES = ("tournament", "casual")
SETS = ("own", "blender", "foreign", "positions")  # the project's renderer, its Blender set, the foreign scenes


def foreign_throws() -> list[tuple[str, Path, dict[str, Any]]]:
    """(set, folder, label) of every foreign throw: the renders, and the positions where dice were thrown (those
    with the frame before the throw)."""
    renders = [("foreign", FOREIGN, json.loads(p.read_text())) for p in sorted(FOREIGN.glob("r*.json"))]
    positions = [
        ("positions", POSITIONS, json.loads(p.read_text()))
        for p in sorted(POSITIONS.glob("p*.json"))
        if p.with_name(p.stem + "_before.jpg").exists()
    ]
    return renders + positions


def blender_label(path: Path) -> dict[str, Any]:
    """One scene of the project's Blender set (``vision.train.blender_set``) as a foreign label, so that it is
    read exactly as the foreign throws are: the frame before is ``NAME_empty.png``; a valid throw's dice count,
    any other kind is void. Raises SystemExit naming the scene when its truth lacks what set-up measures."""
    try:
        meta = json.loads(path.read_text())
        board = meta["board_mm"]
        label = {
            "image": f"{path.stem}.png",
            "before": f"{path.stem}_empty.png",
            "case": str(meta["kind"]),
            "expected_verdict": "valid" if meta["kind"] == "valid" else str(meta["kind"]),
            "thrower": str(meta["thrower"]),
            "dice": [
                {
                    "value": int(d["value"]),
                    "cocked": bool(d["cocked"]),
                    "centre_px": [(d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2],
                }
                for d in meta["dice"]
            ],
            "board_corners_px": meta["corners"],
            "field_corners_px": meta["playing_corners"],
            "checkers_px": meta["checkers_px"],
            "board_mm": {k: float(board[k]) for k in ("field_w", "field_h", "bar_w")},
            "style": {"die_mm": float(meta["die_mm"])},
        }
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(
            f"{path}: not a Blender scene with its board's measures ({type(exc).__name__}: {exc}); render it with "
            "python -m vision.train.blender_set"
        ) from exc
    return label


def blender_scenes(folder: Path) -> list[str]:
    """The names of the complete scenes of the Blender set in ``folder``: taken once a run, so that both readers
    read the same scenes of a set still rendering."""
    if not folder.is_dir():
        raise SystemExit(f"no Blender set at {folder} (render one with python -m vision.train.blender_set)")
    return [
        p.stem
        for p in sorted(folder.glob("*.json"))
        if p.with_suffix(".png").is_file() and p.with_name(f"{p.stem}_empty.png").is_file()
    ]


def blender_throws(folder: Path | None, names: list[str] | None = None) -> list[tuple[str, Path, dict[str, Any]]]:
    """(set, folder, label) of the scenes ``names`` (default: every complete one) of the Blender set in ``folder``
    (none without a folder)."""
    if folder is None:
        return []
    chosen = blender_scenes(folder) if names is None else names
    return [("blender", folder, blender_label(folder / f"{name}.json")) for name in chosen]


def truth_of(label: dict[str, Any]) -> list[int] | None:
    """The dice that count (sorted), or None when the throw is void."""
    if label["expected_verdict"] != "valid":
        return None
    return sorted(int(d["value"]) for d in label["dice"])


def _scored(observation: Any, truth: list[int] | None, asked: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """Each setting's outcome. A settled frame with no die read is no call: the watch path reports no throw
    (``vision.watch``) and the players type the dice, so it counts with the questions."""
    if not observation.dice:
        return {name: "asked" for name in SETTING_NAMES}
    values = observation.values
    got = None if values is None else sorted(values)
    return {name: "asked" if asked[name] else ("right" if got == truth else "wrong") for name in SETTING_NAMES}


def _dice_of(observation: Any) -> list[list[float]]:
    return [[d.centre[0], d.centre[1], d.cocked_probability, d.value or 0] for d in observation.dice]


def read(
    own: int, measured: bool, blender: Path | None = None, scenes: list[str] | None = None
) -> tuple[list[dict[str, Any]], dict[str, list[tuple[float, bool]]]]:
    """Every throw read and judged with the reader of the checkout this process imports (the API both share:
    corners, the frame before, the checkers where they lie), with each throw's reading time (ms); ``measured``:
    on the board set-up measures (the outer and field corners, the board's size as entered, the die's size),
    which only this tree's reader knows. The Blender set's ``scenes`` (default: all) in ``blender`` are read as
    the foreign throws are. Also every foreign and Blender die's cocked probability with whether it is truly
    cocked, per set."""
    from vision import Calibration, DiceReader, load_image
    from vision.leaning import Checker, both_ways_round
    from vision.sureness import SETTINGS, doubts
    from vision.train.heldout import heldout_throw

    reader = DiceReader(threads=1)
    out: list[dict[str, Any]] = []
    cocked: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for which, folder, label in foreign_throws() + blender_throws(blender, scenes):
        image = load_image(folder / label["image"])
        before = load_image(folder / label.get("before", label["image"].replace(".jpg", "_before.jpg")))
        thrower = label.get("thrower", "bottom")
        corners = [tuple(p) for p in label["board_corners_px"]]
        board: Any = None
        if measured:
            from vision.calibration import Board

            mm = label["board_mm"]
            board = Board.from_field(
                field_mm=(mm["field_w"], mm["field_h"]),
                outer_px=corners,
                field_px=[tuple(p) for p in label["field_corners_px"]],
                bar_mm=mm["bar_w"],
                die_mm=label["style"]["die_mm"],  # what set-up measures from its throws (calibration.die_mm_of)
            )
        cal = Calibration.from_corners(corners, board) if measured else Calibration.from_corners(corners)
        # a station reads throw after throw on one calibration: what a reader makes once a calibration (its view's
        # maps) is made here, on the throw played backwards, so the time is a settled frame's alone
        reader.read(before, cal, thrower, reference=image)
        start, start_cpu = time.perf_counter(), time.process_time()
        observation = reader.read(image, cal, thrower, reference=before)
        took, took_cpu = 1000 * (time.perf_counter() - start), 1000 * (time.process_time() - start_cpu)
        at = cal.to_board_mm(np.array([c[:2] for c in label["checkers_px"]], np.float64).reshape(-1, 2))
        placed = [Checker(float(x), float(y)) for x, y in at]
        checkers = both_ways_round(placed, board) if measured else both_ways_round(placed)
        asked = {n: doubts(observation, cal, image.shape, SETTINGS[n], checkers) for n in SETTING_NAMES}
        out.append(
            {
                "set": which,
                "name": label["image"],
                "case": label["case"],
                "calls": _scored(observation, truth_of(label), asked),
                "doubts": asked,
                "dice": _dice_of(observation),
                "ms": took,
                "cpu_ms": took_cpu,
            }
        )
        for die in observation.dice:
            truth = min(
                label["dice"],
                key=lambda t: np.hypot(t["centre_px"][0] - die.centre[0], t["centre_px"][1] - die.centre[1]),
            )
            cocked[which].append((die.cocked_probability, bool(truth["cocked"])))
    for index in range(own):
        throw = heldout_throw(index, KINDS[index % len(KINDS)], with_reference=True)
        cal = Calibration.from_corners(throw.corners)
        observation = reader.read(throw.image, cal, throw.thrower, reference=throw.reference)
        checkers = both_ways_round(throw.checkers)
        asked = {n: doubts(observation, cal, throw.image.shape, SETTINGS[n], checkers) for n in SETTING_NAMES}
        truth = sorted(throw.values) if throw.kind == "valid" else None
        calls = _scored(observation, truth, asked)
        out.append({"set": "own", "name": str(index), "case": throw.kind, "calls": calls, "doubts": asked})
    return out, dict(cocked)


def serve_latency() -> None:
    """Times throws as asked on stdin (their index in :func:`foreign_throws`), one line of (wall, CPU) ms each: the
    reader of the checkout this process imports, on the first-guess board both checkouts know, after one read on
    the throw's calibration (played backwards)."""
    from vision import Calibration, DiceReader, load_image

    reader = DiceReader(threads=1)
    throws = foreign_throws()
    print(len(throws), flush=True)
    for line in sys.stdin:
        _, folder, label = throws[int(line)]
        image = load_image(folder / label["image"])
        before = load_image(folder / label["image"].replace(".jpg", "_before.jpg"))
        cal = Calibration.from_corners([tuple(p) for p in label["board_corners_px"]])
        reader.read(before, cal, "bottom", reference=image)
        start, start_cpu = time.perf_counter(), time.process_time()
        reader.read(image, cal, "bottom", reference=before)
        took = [1000 * (time.perf_counter() - start), 1000 * (time.process_time() - start_cpu)]
        print(json.dumps(took), flush=True)


def paired_latency(before_dir: Path, passes: int) -> None:
    """Both readers in processes of their own, throw by throw in turn (which goes first alternates): a machine whose
    speed drifts moves both alike, so the ratio taken pair by pair holds where the times themselves do not."""
    sides = {"before": before_dir, "after": ROOT}
    servers = {
        side: subprocess.Popen(
            [sys.executable, __file__, "--serve-latency"],
            env=dict(os.environ, PYTHONPATH=str(tree)),
            cwd=tree,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for side, tree in sides.items()
    }
    streams = {side: (server.stdin, server.stdout) for side, server in servers.items()}
    count = min(int(out.readline()) for _, out in streams.values() if out is not None)
    times: dict[str, list[list[float]]] = {side: [] for side in sides}
    for turn in range(passes):
        for index in range(count):
            for side in ("before", "after") if (index + turn) % 2 == 0 else ("after", "before"):
                into, out = streams[side]
                assert into is not None and out is not None
                into.write(f"{index}\n")
                into.flush()
                times[side].append(json.loads(out.readline()))
    for server in servers.values():
        assert server.stdin is not None
        server.stdin.close()
        server.wait()
    b, a = np.array(times["before"]), np.array(times["after"])
    print(f"latency, throw by throw in turn ({len(a)} pairs, first-guess board, one read on each calibration first):")
    for side, ms in (("before", b), ("after", a)):
        print(
            f"  {side:6}: median {np.median(ms[:, 0]):.1f} ms, p95 {np.percentile(ms[:, 0], 95):.1f} ms; "
            f"CPU time median {np.median(ms[:, 1]):.1f} ms, p95 {np.percentile(ms[:, 1], 95):.1f} ms"
        )
    ratio = a / b
    print(f"  after/before pair by pair: median {np.median(ratio[:, 0]):.3f} (CPU time {np.median(ratio[:, 1]):.3f})")


def reliability(cocked: list[tuple[float, bool]], bins: int = 5) -> tuple[list[str], float]:
    """The reliability diagram's rows (probability band: dice, mean probability, share truly cocked) and the
    expected calibration error."""
    p = np.array([c[0] for c in cocked])
    y = np.array([c[1] for c in cocked], float)
    rows, ece = [], 0.0
    edges = np.linspace(0, 1, bins + 1)
    for lo, hi in zip(edges[:-1], edges[1:]):
        inside = (p >= lo) & ((p < hi) if hi < 1 else (p <= hi))
        if inside.any():
            ece += inside.mean() * abs(p[inside].mean() - y[inside].mean())
            rows.append(
                f"  {lo:.1f}-{hi:.1f}: {int(inside.sum()):4d} dice, mean p {p[inside].mean():.2f}, "
                f"truly cocked {100 * y[inside].mean():5.1f}%"
            )
    return rows, ece


def table(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> None:
    """Per set and case (and all): throws, then wrong automatic calls and questions, before and after, a setting
    a column pair."""
    print(f"{'set':8} {'case':15} {'n':>4}  " + "  ".join(f"{s + ' wrong/asked %':>30}" for s in SETTING_NAMES))
    print(f"{'':8} {'':15} {'':>4}  " + "  ".join(f"{'before':>14} {'after':>15}" for _ in SETTING_NAMES))
    for which in SETS:
        b_rows = [r for r in before if r["set"] == which]
        a_rows = {r["name"]: r for r in after if r["set"] == which}
        if not b_rows:
            continue
        groups: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = defaultdict(list)
        for row in b_rows:
            groups[row["case"]].append((row, a_rows[row["name"]]))
            groups["ALL"].append((row, a_rows[row["name"]]))
        for case, pairs in sorted(groups.items(), key=lambda kv: (kv[0] == "ALL", kv[0])):
            cells = []
            for setting in SETTING_NAMES:
                for side in (0, 1):
                    calls = Counter(pair[side]["calls"][setting] for pair in pairs)
                    n = len(pairs)
                    cells.append(f"{100 * calls['wrong'] / n:6.1f}/{100 * calls['asked'] / n:5.1f}")
            print(
                f"{which:8} {case:15} {len(pairs):4d}  "
                + "  ".join(f"{cells[2 * i]:>14} {cells[2 * i + 1]:>15}" for i in range(len(SETTING_NAMES)))
            )


def why(rows: list[dict[str, Any]]) -> None:
    """Why throws are asked, per set and case and setting: each doubt's count among the asked throws (a throw
    may have several), and how many throws had that doubt alone."""
    for setting in SETTING_NAMES:
        print(f"why asked ({setting}): doubt throws (alone)")
        for which in SETS:
            cases = sorted({r["case"] for r in rows if r["set"] == which})
            for case in cases:
                mine = [r["doubts"][setting] for r in rows if r["set"] == which and r["case"] == case]
                asked = [d for d in mine if d]
                every = Counter(x for d in asked for x in d)
                alone = Counter(d[0] for d in asked if len(d) == 1)
                parts = ", ".join(f"{k} {v} ({alone[k]})" for k, v in every.most_common())
                print(f"  {which:9} {case:15} {len(asked):3d}/{len(mine):3d} asked: {parts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--own", type=int, default=100, help="the project's own held-out renders (default 100)")
    parser.add_argument("--before", type=Path, help="a checkout whose reader is 'before' (required)")
    parser.add_argument("--emit-before", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-latency", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--pairs", type=int, default=0, help="passes of the latency taken throw by throw in turn (default 0: none)"
    )
    parser.add_argument(
        "--blender", type=Path, help="a rendered Blender set (python -m vision.train.blender_set): a third world"
    )
    # the scenes the after reader reads (comma-separated), for the before reader's process
    parser.add_argument("--blender-scenes", help=argparse.SUPPRESS)
    parser.add_argument("--wrong", action="store_true", help="list the throws the after reader calls wrongly")
    parser.add_argument("--why", action="store_true", help="the doubts the after reader's questions raise, per case")
    args = parser.parse_args()
    if args.emit_before:
        scenes = args.blender_scenes.split(",") if args.blender_scenes else None
        print(json.dumps(read(args.own, measured=False, blender=args.blender, scenes=scenes)[0]))
        return
    if args.serve_latency:
        serve_latency()
        return
    if args.before is None:
        parser.error("--before DIR: a checkout of the commit to compare with (git worktree add DIR COMMIT)")
    env = dict(os.environ, PYTHONPATH=str(args.before))
    blender = args.blender.resolve() if args.blender else None
    scenes = blender_scenes(blender) if blender else []
    more = ["--blender", str(blender), "--blender-scenes", ",".join(scenes)] if scenes else []
    done = subprocess.run(
        [sys.executable, __file__, "--emit-before", "--own", str(args.own), *more],
        env=env,
        cwd=args.before,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the before reader failed:\n{done.stderr[-2000:]}")
    before = json.loads(done.stdout.splitlines()[-1])
    after, cocked = read(args.own, measured=True, blender=blender if scenes else None, scenes=scenes)
    counts = Counter(r["set"] for r in after)
    print(
        f"foreign renders: {counts['foreign']}; foreign positions with a throw: {counts['positions']}; own: {args.own}"
        + (f"; Blender set: {counts['blender']} ({blender})" if blender else "")
    )
    table(before, after)
    for which, dice in (
        ("foreign", cocked.get("foreign", []) + cocked.get("positions", [])),
        ("Blender", cocked.get("blender", [])),
    ):
        if not dice:
            continue
        rows, ece = reliability(dice)
        print(f"cocked probability on the {which} dice (after): expected calibration error {ece:.3f}")
        print("\n".join(rows))
        high = [truly for p, truly in dice if p >= 0.75]
        print(f"  from 0.75: {len(high)} dice, truly cocked {100 * np.mean(high) if high else 0:.1f}%")
    print("latency, settled 1280x720 frame with the frame before, one thread (foreign throws):")
    for side, read_rows in (("before", before), ("after", after)):
        foreign = [r for r in read_rows if r["set"] in ("foreign", "positions")]
        ms = [r["ms"] for r in foreign if "ms" in r]
        cpu = [r["cpu_ms"] for r in foreign if "cpu_ms" in r]  # the process's own time: less moved by a busy machine
        print(
            f"  {side:6}: median {np.median(ms):.1f} ms, p95 {np.percentile(ms, 95):.1f} ms; "
            f"CPU time median {np.median(cpu):.1f} ms, p95 {np.percentile(cpu, 95):.1f} ms"
        )
    if args.pairs:
        paired_latency(args.before, args.pairs)
    if args.why:
        why(after)
    if args.wrong:
        for row in after:
            if "wrong" in row["calls"].values():
                print(row["set"], row["name"], row["case"], row["calls"], row.get("dice"))


if __name__ == "__main__":
    main()
