"""Perft-style golden file: (position, roll) -> distinct results, as GNU Backgammon counts.

The file was made by GNU Backgammon (tests/rules/gnubg/make_perft_golden.py),
so this check runs without it, fast, on every machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.gnubg_id import decode_position_id, encode_position_id
from rules.movegen import legal_results
from tests.rules.gnubg.make_perft_golden import digest

GOLDEN = Path(__file__).with_name("golden") / "perft.jsonl"
ROWS = [json.loads(line) for line in GOLDEN.read_text().splitlines()]


def test_golden_file_covers_the_opening_and_many_positions() -> None:
    assert len(ROWS) >= 600
    assert sum(1 for row in ROWS if row["position_id"] == "4HPwATDgc/ABMA") == 21


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row['position_id']}-{row['dice'][0]}{row['dice'][1]}")
def test_counts_and_results_match_golden(row: dict[str, object]) -> None:
    position = decode_position_id(str(row["position_id"]))
    results = legal_results(position, row["dice"])  # type: ignore[arg-type]
    after_ids = [encode_position_id(after) for after, play in results.items() if play.steps]
    assert len(after_ids) == row["results"]
    assert digest(after_ids) == row["digest"]


def test_opening_roll_counts() -> None:
    """Well-known counts from the start: 3-1 has 16 distinct plays, 6-6 has 11... (from gnubg)."""
    start = {tuple(row["dice"]): row["results"] for row in ROWS if row["position_id"] == "4HPwATDgc/ABMA"}
    assert start[(1, 3)] == 16
    assert start[(6, 6)] == 11
    assert start[(1, 1)] == 42
