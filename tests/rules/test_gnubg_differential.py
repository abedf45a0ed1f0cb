"""Our legal plays against GNU Backgammon's on thousands of random positions.

GNU Backgammon lists every legal move of a position and roll (``hint`` at
0-ply); its results are computed from its own parse of its moves. For each
case the sets of resulting positions must be equal, and so must the notation
of each (the canonical notation is GNU Backgammon's).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.gnubg_id import encode_position_id
from rules.movegen import legal_results
from tests.rules.gnubg import oracle
from tests.rules.random_positions import KINDS, random_position, random_roll

CASES_PER_KIND = 440  # 2,200 positions in all


def _cases() -> list[tuple[str, object, tuple[int, int]]]:
    rng = random.Random(2026)
    rows = []
    for kind in KINDS:
        made = 0
        while made < CASES_PER_KIND:
            position = random_position(rng, kind)
            if position.winner() is not None:
                continue
            rows.append((kind, position, random_roll(rng)))
            made += 1
    return rows


@pytest.mark.usefixtures("gnubg_available")
def test_legal_results_and_notation_agree_with_gnubg() -> None:
    cases = _cases()
    requests = [
        {"id": index, "position_id": encode_position_id(position), "dice": list(dice)}
        for index, (_, position, dice) in enumerate(cases)
    ]
    answers = oracle.legal_moves(requests)
    assert len(answers) == len(cases)
    mismatches: list[str] = []
    checked = Counter[str]()
    for (kind, position, dice), request, answer in zip(cases, requests, answers):
        assert answer["board_id"] == request["position_id"], "gnubg read another board"
        ours = {
            encode_position_id(after): play.notation()
            for after, play in legal_results(position, dice).items()
            if play.steps
        }
        theirs = {move["after_id"]: move["move"] for move in answer["moves"]}
        if ours != theirs:
            mismatches.append(
                f"{kind} {request['position_id']} {dice}: only ours {sorted(set(ours.items()) - set(theirs.items()))}"
                f" only gnubg {sorted(set(theirs.items()) - set(ours.items()))}"
            )
        checked[kind] += 1
    assert not mismatches, f"{len(mismatches)} disagreements, first: " + "\n".join(mismatches[:5])
    assert sum(checked.values()) >= 2000
    assert set(checked) == set(KINDS)
