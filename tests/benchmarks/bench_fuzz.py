"""Fuzzing every parser that reads outside input: inputs run and crashes (an error that is not the declared one).

    .venv/bin/python -m tests.benchmarks.bench_fuzz                  # 200,000+ inputs, a few minutes
    .venv/bin/python -m tests.benchmarks.bench_fuzz --scale 0.1      # a quick look

Each parser gets valid inputs mutated at random (bytes replaced, dropped, repeated, numbers made thousands of
digits long, nesting made deep). Declared errors: ``python -m rules plays`` answers every line (no exception
at all), ``.mat`` import raises only MatImportError, the ID parsers only RulesError, journal events only
ValueError, images only ImageReadError, the device decoder only yields messages or FrameErrors. The hypothesis
tests in the suite check the same properties on fewer inputs.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
import typing
from pathlib import Path
from typing import Callable, TypeVar

import cv2
import numpy as np

from app.referee.events import event_from_dict
from device import wire
from device.codec import Decoder, FrameError
from device.messages import Message
from rules.__main__ import answer_line
from rules.errors import MatImportError, RulesError
from rules.gnubg_id import decode_position_id
from rules.mat import read_mat
from rules.match_id import decode_match_id
from rules.xgid import decode_xgid
from tests.progress import tracked
from vision.errors import ImageReadError
from vision.sources import load_image

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
SPICE = ["9" * 5000, "[" * 3000, "{" * 3000, "\x00", "\udcff", "-1", "1e999", "NaN", "\n", "é", " " * 100]


def _mutate(items: list[T], rng: random.Random, fresh: Callable[[], list[T]], edits: int) -> list[T]:
    """``items`` with up to ``edits`` of: one replaced, one dropped, ``fresh()`` put in, a run repeated."""
    for _ in range(rng.randint(1, edits)):
        at = rng.randrange(len(items) + 1)
        roll = rng.random()
        if roll < 0.3 and items:
            items[min(at, len(items) - 1)] = fresh()[0]
        elif roll < 0.55 and items:
            del items[min(at, len(items) - 1)]
        elif roll < 0.8:
            items[at:at] = fresh()
        else:
            start = rng.randrange(len(items) + 1)
            items[at:at] = items[start : start + rng.randint(1, 40)]
    return items


def mutate(text: str, rng: random.Random) -> str:
    def fresh() -> list[str]:
        return [rng.choice(SPICE)] if rng.random() < 0.5 else [chr(rng.randrange(32, 127))]

    return "".join(_mutate(list(text), rng, fresh, 6))


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    def fresh() -> list[int]:
        return [rng.randrange(256)] * rng.choice([1, 4, 300])

    mutated: list[int] = _mutate(list(data), rng, fresh, 8)
    return bytes(mutated)


def plays(text: str) -> None:
    json.loads(answer_line(text))  # must answer with one JSON line, whatever comes in


def run(
    name: str,
    seeds: list[str],
    check: Callable[[str], None],
    declared: tuple[type[BaseException], ...],
    count: int,
    rng: random.Random,
) -> tuple[int, dict[str, int]]:
    crashes: dict[str, int] = {}
    for _ in tracked(range(count), name):
        text = mutate(rng.choice(seeds), rng)
        try:
            check(text)
        except declared:
            pass
        except Exception as error:  # a crash: counted by kind, with an example printed once
            key = f"{type(error).__name__}: {str(error)[:80]}"
            if key not in crashes:
                print(f"  {name} crash {key!r} on {text[:120]!r}")
            crashes[key] = crashes.get(key, 0) + 1
    return count, crashes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full number of inputs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    def n(full: int) -> int:
        return max(1, int(full * args.scale))

    mat = (ROOT / "tests" / "rules" / "golden" / "gnubg_match.mat.txt").read_text(encoding="utf-8")
    vectors = json.loads((ROOT / "tests" / "rules" / "golden" / "xgids.json").read_text(encoding="utf-8"))["vectors"]
    xgids = [vector["xgid"] for vector in vectors]
    match_ids = [vector["match_id"] for vector in vectors if "match_id" in vector]
    start = "4HPwATDgc/ABMA"
    events = [
        json.dumps(e)
        for e in (
            {"kind": "dice_observed", "values": [3, 1], "void": None, "confidences": [0.9, 0.8], "thrower": "white"},
            {"kind": "board_snapshot", "white": [0] * 26, "black": [0] * 26},
            {"kind": "director_override", "command": "resume", "argument": "", "proof": "ab" * 32},
            {"kind": "clock_pressed", "by": "black", "white_ms": 1000, "black_ms": 2000},
            {"kind": "member_cube", "member": "A", "move": "double", "by": "B"},
        )
    ]
    table: list[tuple[str, int, dict[str, int]]] = []
    began = time.perf_counter()
    suites: list[tuple[str, list[str], Callable[[str], None], tuple[type[BaseException], ...], int]] = [
        (
            "rules plays (JSON lines)",
            [
                json.dumps({"id": 1, "position_id": start, "dice": [3, 1]}),
                json.dumps(
                    {
                        "id": "u",
                        "variant": "uzun",
                        "dice": [3, 3],
                        "position": {"white": [0] * 24 + [15, 0], "black": [0] * 12 + [15] + [0] * 13},
                    }
                ),
            ],
            plays,
            (),
            n(60_000),
        ),
        (".mat import", [mat], lambda text: None if read_mat(text, "f.mat") else None, (MatImportError,), n(8_000)),
        ("XGID", xgids, lambda text: None if decode_xgid(text) else None, (RulesError,), n(40_000)),
        ("Match ID", match_ids, lambda text: None if decode_match_id(text) else None, (RulesError,), n(40_000)),
        (
            "Position ID",
            [start, "27YBAAAA/n8ACA"],
            lambda text: None if decode_position_id(text) else None,
            (RulesError,),
            n(40_000),
        ),
        (
            "journal events",
            events,
            lambda text: None if event_from_dict(json.loads(text)) else None,
            (ValueError, RecursionError),
            n(30_000),
        ),
    ]
    for name, seeds, check, declared, count in suites:
        ran, crashes = run(name, seeds, check, declared, count, rng)
        table.append((name, ran, crashes))
    table.append(fuzz_images(rng, n(3_000)))
    table.append(fuzz_device(rng, n(30_000)))
    total = sum(ran for _, ran, _ in table)
    crashed = sum(sum(found.values()) for _, _, found in table)
    print(f"\n{'parser':<28}{'inputs':>10}{'crashes':>9}")
    for name, ran, found in table:
        print(f"{name:<28}{ran:>10,}{sum(found.values()):>9}")
    print(f"{'all':<28}{total:>10,}{crashed:>9}   ({time.perf_counter() - began:.0f} s)")


def fuzz_images(rng: random.Random, count: int) -> tuple[str, int, dict[str, int]]:
    """Image files: every format the reader takes, mutated, read through load_image from a file."""
    picture = np.full((48, 64, 3), 120, np.uint8)
    seeds = [cv2.imencode(ext, picture)[1].tobytes() for ext in (".png", ".jpg", ".bmp", ".ppm", ".webp", ".tif")]
    crashes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "throw.img"
        for _ in tracked(range(count), "image decoding"):
            path.write_bytes(mutate_bytes(rng.choice(seeds), rng))
            try:
                load_image(path)
            except ImageReadError:
                pass
            except Exception as error:
                key = f"{type(error).__name__}: {str(error)[:80]}"
                crashes[key] = crashes.get(key, 0) + 1
    return "images (load_image)", count, crashes


def fuzz_device(rng: random.Random, count: int) -> tuple[str, int, dict[str, int]]:
    """The serial decoder: valid frames mutated; it may only yield messages and FrameErrors."""
    declared = (FrameError, *typing.get_args(Message))
    hello = wire.encode_frame(wire.HELLO, wire.pack_payload("BBBSSHH", (1, 1, 0, "f", "s", 1, 1)))
    crashes: dict[str, int] = {}
    for _ in tracked(range(count), "device frames"):
        try:
            for item in Decoder().feed(mutate_bytes(hello * rng.randint(1, 3), rng)):
                if not isinstance(item, declared):
                    raise TypeError(f"undeclared item {item!r}")
        except Exception as error:
            key = f"{type(error).__name__}: {str(error)[:80]}"
            crashes[key] = crashes.get(key, 0) + 1
    return "device frames", count, crashes


if __name__ == "__main__":
    main()
