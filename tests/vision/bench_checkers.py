"""How well the camera reads the checkers: the foreign positions (../shared/foreign_positions), read with the
board's outer corners as a referee taps them, scored as the referee uses a reading.

    .venv/bin/python tests/vision/bench_checkers.py [--show] [--why] [--jitter PX] [--rendered N [--no-foreign]]

Prints, before (the classical look alone) and after (with the stack counter), boards read exactly, wrong readings
marked sure (the worst outcome), the share asked, the same per case (stacks of 6-15, a checker on the bar, borne-
off checkers, dice or the cube among the checkers; the boards with thrown dice beside the same boards just before
the throw; each rendered board again with a player's hand over one of its points, apart from "all") and the CPU
time a 1280x720 frame takes on one core (after); and of the asked boards those whose reading gives ranges (what the
picture shows for certain, which the referee judges plays by), and the boards whose ranges do not hold the true
position (must be 0). ``--why`` breaks the asked boards down by their kind of doubt.
``--show`` also lists every board that was not read right and sure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.vision.hand_boards import board_with_hand  # noqa: E402
from vision import DiceReader  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.checkers import CheckerReading, read_position  # noqa: E402
from vision.sources import load_image  # noqa: E402
from vision.synth.board_render import render_board  # noqa: E402

FOREIGN = ROOT / ".." / "shared" / "foreign_positions"
REPEATS = 3


@dataclass(frozen=True)
class Case:
    name: str
    truth: dict[str, object]
    reading: CheckerReading
    ms: float

    @property
    def held(self) -> bool:
        """Whether the reading's ranges, where it gives them, hold the true position."""
        t = self.truth
        ranges = self.reading.ranges
        return ranges is None or ranges.holds(t["points"], tuple(t["bar"]), tuple(t["off"]))  # type: ignore[arg-type]

    @property
    def exact(self) -> bool:
        t = self.truth
        r = self.reading
        return list(r.points) == t["points"] and list(r.bar) == t["bar"] and list(r.off) == t["off"]


def cases_of(case: Case, label: dict[str, object]) -> list[str]:
    """The kinds of board this one is, for the per-case lines."""
    pos = case.truth
    kinds = ["all"]
    if int(str(pos["max_on_a_point"])) > 5:
        kinds.append("stacks of 6-15")
    if pos["bar"] != [0, 0]:
        kinds.append("bar")
    if pos["off"] != [0, 0]:
        kinds.append("borne off")
    if label.get("dice") or label.get("doubling_cube"):
        kinds.append("dice/cube among checkers")
    if len(kinds) == 1:
        kinds.append("none of these")
    return kinds


WHY = (
    ("colour clustering", ("not told apart", "lighter is not clear", "two colours on one point")),
    ("tops off their places", ("off the rim", "not one checker apart", "on the frame")),
    ("a top where a die lies", ("where a die lies",)),
    ("a full row read other than its tops", ("taller or shorter",)),
    ("hidden layers: counted, a missed top not ruled out", ("by the stack counter",)),
    ("hidden layers: completion held back", ("hidden under others",)),
)


def why(case: Case) -> str:
    """The kind of doubt that made a board asked, the first that applies in this order: the colours, tops off a
    checker's places, a die, a full row the counter reads other than five where the tops add up, hidden layers
    the counter counted but a missed top is not ruled out, a completion of hidden layers held back, then a side
    short or over 15 because higher layers stand on two places or more (stacks of six or more, or borne off),
    or because a checker was missed or found twice. "Held back": a completion proposed but not sure (a place
    shows a checker's colour where one could have been missed, or the other side stays short)."""
    text = " ".join(case.reading.doubts)
    for kind, words in WHY:
        if any(w in text for w in words):
            return kind
    points = case.truth["points"]
    assert isinstance(points, list)
    for side, sign in ((0, 1), (1, -1)):
        off = case.truth["off"]
        assert isinstance(off, list)
        places = sum(p * sign > 5 for p in points) + (off[side] > 1)
        if places >= 2 and f"the {('bottom', 'top')[side]} player has" in text:
            return "hidden layers on two places or more"
    return "a checker missed or found twice"


def boxes(dice: DiceReader, image: NDArray[np.uint8], calibration: Calibration) -> list[tuple[int, int, int, int]]:
    """The dice in the picture, as the command finds them."""
    return [d.box for d in dice.dice(image, calibration)]


def _show(case: Case) -> None:
    """One line for a board not read right and sure, and the reading beside the truth when it is wrong."""
    reading, truth = case.reading, case.truth
    if case.exact and reading.sure:
        return
    verdict = "SURE AND WRONG" if reading.sure else ("asked, right" if case.exact else "asked")
    if not case.held:
        verdict += ", RANGES NOT HOLDING THE TRUTH"
    print(f"{case.name}: {verdict}: {'; '.join(reading.doubts[:3])}")
    if not case.exact:
        print(f"   read  {list(reading.points)} bar {list(reading.bar)} off {list(reading.off)}")
        print(f"   truth {truth['points']} bar {truth['bar']} off {truth['off']}")


def read_timed(
    image: NDArray[np.uint8], calibration: Calibration, bottom: str, dice: DiceReader
) -> tuple[CheckerReading, float, CheckerReading]:
    """The reading and its CPU time, the fastest of a few (the machine is shared), and the reading "before": the
    classical look alone, without the stack counter."""
    ms = float("inf")
    reading = None
    for _ in range(REPEATS):
        start = time.process_time()
        reading = read_position(image, calibration, bottom, lambda: boxes(dice, image, calibration))  # type: ignore[arg-type]
        ms = min(ms, (time.process_time() - start) * 1000)
    assert reading is not None
    before = read_position(image, calibration, bottom, lambda: boxes(dice, image, calibration), learned=False)  # type: ignore[arg-type]
    return reading, ms, before


Rows = dict[str, list[Case]]


def add(rows: tuple[Rows, Rows], kinds: list[str], after: Case, before: Case) -> None:
    for kind in kinds:
        rows[0].setdefault(kind, []).append(before)
        rows[1].setdefault(kind, []).append(after)


def foreign(args: argparse.Namespace, dice: DiceReader) -> tuple[tuple[Rows, Rows], list[float]]:
    """The foreign positions, each read with the corners from its label (moved by ``--jitter``): before, after."""
    rng = np.random.default_rng(1)
    rows: tuple[Rows, Rows] = ({}, {})
    times: list[float] = []
    for path in sorted(FOREIGN.glob("p*[0-9].json")):
        label = json.loads(path.read_text())
        image = load_image(str(path.with_suffix(".jpg")))
        truth = label["position"]
        corners = np.asarray(label["board_corners_px"], np.float64)
        calibration = Calibration.from_corners(corners + rng.uniform(-args.jitter, args.jitter, corners.shape))
        reading, ms, classical = read_timed(image, calibration, truth["bottom_colour"], dice)
        times.append(ms)
        case = Case(path.stem, truth, reading, ms)
        old = Case(path.stem, truth, classical, 0)
        add(rows, cases_of(case, label), case, old)
        if args.show:
            _show(case)
        before = path.with_name(f"{path.stem}_before.jpg")
        if before.is_file():  # the same board just before the throw: no dice on it
            calm_image = load_image(str(before))
            bottom = truth["bottom_colour"]
            calm = Case(before.stem, truth, read_position(calm_image, calibration, bottom), 0)
            calm_old = Case(before.stem, truth, read_position(calm_image, calibration, bottom, learned=False), 0)
            add(rows, ["the same, before the throw"], calm, calm_old)
            add(rows, ["with the dice thrown"], case, old)
            if args.show:
                _show(calm)
    return rows, times


def rendered(args: argparse.Namespace, dice: DiceReader) -> tuple[tuple[Rows, Rows], list[float]]:
    """The project's own whole boards (``vision/synth/board_render.py``), read with their true corners (moved by
    ``--jitter``): before, after."""
    rng = np.random.default_rng(2)
    rows: tuple[Rows, Rows] = ({}, {})
    times: list[float] = []
    for index in range(args.rendered):
        image, board = render_board(index)
        corners = np.asarray(board.corners, np.float64)
        calibration = Calibration.from_corners(corners + rng.uniform(-args.jitter, args.jitter, corners.shape))
        reading, ms, classical = read_timed(image, calibration, board.bottom_colour, dice)
        times.append(ms)
        truth: dict[str, object] = {"points": list(board.points), "bar": list(board.bar), "off": list(board.off)}
        case = Case(f"rendered {index}", truth, reading, ms)
        kinds = ["all"]
        if board.tallest > 5:
            kinds.append("stacks of 6-15")
        if sum(board.bar):
            kinds.append("bar")
        if sum(board.off):
            kinds.append("borne off")
            if board.off_placement == "pile":
                kinds.append("borne off in one pile")
        if board.dice or board.cube:
            kinds.append("dice/cube among checkers")
        if len(kinds) == 1:
            kinds.append("none of these")
        add(rows, kinds, case, Case(case.name, truth, classical, 0))
        if args.show:
            _show(case)
        image, _, calibration = board_with_hand(index)  # the same board, a player's hand still over a point
        reading, _, classical = read_timed(image, calibration, board.bottom_colour, dice)
        hand = Case(f"rendered {index} with a hand", truth, reading, 0)
        add(rows, ["a hand over the board (not in all)"], hand, Case(hand.name, truth, classical, 0))
        if args.show:
            _show(hand)
    return rows, times


def figures(group: list[Case]) -> str:
    """boards, exact, sure and right, sure and wrong, the share asked, asked with ranges, ranges not holding."""
    if not group:
        return f"{'-':>5} {'':>5} {'':>6} {'':>6} {'':>6} {'':>6} {'':>4}"
    n = len(group)
    exact = sum(c.exact for c in group)
    right = sum(c.exact and c.reading.sure for c in group)
    wrong = sum(not c.exact and c.reading.sure for c in group)
    asked = sum(not c.reading.sure for c in group)
    ranged = sum(not c.reading.sure and c.reading.ranges is not None for c in group)
    out = sum(not c.held for c in group)
    return f"{n:5d} {exact:5d} {right:6d} {wrong:6d} {100 * asked / n:5.0f}% {ranged:6d} {out:4d}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--show", action="store_true", help="list every board not read right and sure")
    ap.add_argument(
        "--jitter", type=float, default=0.0, metavar="PX", help="move each tapped corner up to PX pixels (a hasty tap)"
    )
    ap.add_argument("--rendered", type=int, default=0, metavar="N", help="also read N boards of the project's own")
    ap.add_argument("--why", action="store_true", help="break the asked boards down by their kind of doubt")
    ap.add_argument("--no-foreign", action="store_true", help="read only the rendered boards")
    args = ap.parse_args()
    dice = DiceReader(threads=1)
    cv2.setNumThreads(1)
    sets: list[tuple[str, Rows, list[float]]] = []
    if not args.no_foreign:
        if not any(FOREIGN.glob("p*[0-9].json")):
            print(f"no foreign positions at {FOREIGN}")
            return 1
        (old, new), times = foreign(args, dice)
        sets += [("foreign, before", old, []), ("foreign, after", new, times)]
    if args.rendered:
        (old, new), times = rendered(args, dice)
        sets += [("rendered, before", old, []), ("rendered, after", new, times)]
    head = f"{'boards':>5} {'exact':>5} {'sure+ok':>6} {'WRONG':>6} {'asked':>6} {'ranged':>6} {'OUT':>4}"
    print(f"{'':28}" + " | ".join(f"{name:^44}" for name, _, _ in sets))
    print(f"{'case':28}" + " | ".join(f"{head:44}" for _ in sets))
    cases = ("all", "stacks of 6-15", "bar", "borne off", "borne off in one pile", "dice/cube among checkers")
    hand = "a hand over the board (not in all)"
    for kind in (*cases, "none of these", "with the dice thrown", "the same, before the throw", hand):
        if not any(kind in rows for _, rows, _ in sets):
            continue
        print(f"{kind:28}" + " | ".join(f"{figures(rows.get(kind, [])):44}" for _, rows, _ in sets))
    if args.why:
        print("why boards were asked (each board once, by its first kind of doubt):")
        for name, rows, _ in sets:
            asked = [c for c in rows.get("all", []) if not c.reading.sure]
            kinds: dict[str, int] = {}
            for c in asked:
                kinds[why(c)] = kinds.get(why(c), 0) + 1
            n = len(rows.get("all", []))
            for kind, k in sorted(kinds.items(), key=lambda kv: -kv[1]):
                print(f"  {name:17} {kind:40} {k:4d} {100 * k / n:5.1f}% of boards")
    for name, _, times in [s for s in sets if s[2]]:
        times.sort()
        print(f"{name}: ms per 1280x720 frame, one core: median {times[len(times) // 2]:.0f}, slowest {times[-1]:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
