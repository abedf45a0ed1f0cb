"""Regenerate tests/rules/golden/perft.jsonl from GNU Backgammon (not from our code).

    .venv/bin/python -m tests.rules.gnubg.make_perft_golden

Each line: a Position ID (player on roll to move), a roll, the number of
distinct resulting positions GNU Backgammon lists, and a digest of their
sorted Position IDs, so a count that agrees by luck is still caught.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from rules.gnubg_id import encode_position_id
from rules.position import Position
from tests.rules.gnubg import oracle
from tests.rules.random_positions import random_cases

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "perft.jsonl"


def digest(after_ids: list[str]) -> str:
    return hashlib.sha1(" ".join(sorted(after_ids)).encode()).hexdigest()[:16]


def cases() -> list[dict[str, object]]:
    """Every roll from the start, then seeded random positions of every kind."""
    start = encode_position_id(Position.start())
    rows: list[dict[str, object]] = [{"position_id": start, "dice": [a, b]} for a in range(1, 7) for b in range(a, 7)]
    rows += [{"position_id": encode_position_id(p), "dice": list(d)} for p, d in random_cases(20261129, 600)]
    for index, row in enumerate(rows):
        row["id"] = index
    return rows


def main() -> None:
    rows = cases()
    answers = oracle.legal_moves(rows)
    with GOLDEN.open("w") as handle:
        for row, answer in zip(rows, answers):
            after_ids = [move["after_id"] for move in answer["moves"]]
            record = {
                "position_id": row["position_id"],
                "dice": row["dice"],
                "results": len(after_ids),
                "digest": digest(after_ids),
            }
            handle.write(json.dumps(record) + "\n")
    print(f"wrote {len(rows)} cases to {GOLDEN}")


if __name__ == "__main__":
    main()
