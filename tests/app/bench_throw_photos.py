"""What keeping every throw's picture costs a station: the headless demo's match played twice, the same seed, one
run keeping no photos (the reference) and one keeping them, side by side in one run.

    .venv/bin/python -m tests.app.bench_throw_photos [--length 3] [--seed 1]

Printed: each run's wall time; the time the station spends keeping a throw (its JPEG written when the camera
reads it, its label once the throw is settled: both on the thread that journals), median and 95th percentile;
the photos kept and labelled, and their size on disk.
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from app.sim.demo import add_demo_parser, run_demo
from app.table.throw_photos import ThrowPhotos


def demo(arguments: list[str]) -> float:
    parser = argparse.ArgumentParser()
    add_demo_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["demo", "--quiet", *arguments])
    args.lang = "en"
    start = time.perf_counter()
    assert run_demo(args, io.StringIO()) == 0, "the demo finished its match"
    return time.perf_counter() - start


def timed(spent: list[float], method: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    return wrapper


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--length", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    common = ["--length", str(args.length), "--seed", str(args.seed)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "photos"
        reference = demo([*common, "--journal", str(Path(tmp) / "reference.sqlite")])
        kept: list[float] = []
        labelled: list[float] = []
        keep, label = ThrowPhotos.keep, ThrowPhotos.write_label
        ThrowPhotos.keep = timed(kept, keep)  # type: ignore[method-assign]
        ThrowPhotos.write_label = timed(labelled, label)  # type: ignore[method-assign]
        try:
            keeping = demo([*common, "--journal", str(Path(tmp) / "kept.sqlite"), "--keep-photos", str(folder)])
        finally:
            ThrowPhotos.keep, ThrowPhotos.write_label = keep, label  # type: ignore[method-assign]
        photos = sorted(folder.glob("*.jpg"))
        size = sum(p.stat().st_size for p in folder.iterdir())
        print(f"demo, {args.length}-point match, seed {args.seed}: {len(photos)} throws")
        print(f"  keeping no photos (reference): {reference:.1f} s")
        print(f"  keeping them:                  {keeping:.1f} s")
        for what, spent in (("picture kept", kept), ("label written", labelled)):
            ms = np.array(spent) * 1000
            print(f"  {what}: median {np.median(ms):.1f} ms, 95th percentile {np.percentile(ms, 95):.1f} ms")
        labels = len(list(folder.glob("*.txt")))
        print(f"  {len(photos)} photos, {labels} with their label file; {size / 1e6:.1f} MB on disk")
        print(f"  ({size / max(len(photos), 1) / 1e3:.0f} KB a throw)")


if __name__ == "__main__":
    main()
