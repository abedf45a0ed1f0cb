"""Nackgammon: GNU Backgammon's start, standard rules (docs/rules.md section 3)."""

from __future__ import annotations

import random

import pytest

from rules.family import NACKGAMMON_VARIANT, NackgammonPosition
from rules.game import Game, Phase
from rules.gnubg_id import encode_position_id
from rules.movegen import legal_results
from rules.registry import find_variant
from tests.rules.gnubg import oracle
from tests.rules.reference import TAVLA
from tests.rules.variant_checks import agree_with_reference, self_play


def test_start() -> None:
    start = NackgammonPosition.start()
    assert {p: n for p, n in enumerate(start.white) if n} == {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
    assert find_variant("nack") is NACKGAMMON_VARIANT
    assert NACKGAMMON_VARIANT.gnubg_ids


def _positions_from_play(count: int, seed: int) -> list[tuple[NackgammonPosition, tuple[int, int]]]:
    """Positions nackgammon games really reach, from random play."""
    rng = random.Random(seed)
    cases: list[tuple[NackgammonPosition, tuple[int, int]]] = []
    while len(cases) < count:
        game = Game.new(variant=NACKGAMMON_VARIANT)
        while game.phase is Phase.OPENING:
            game = game.opening_throw(rng.randint(1, 6), rng.randint(1, 6))
        while game.phase is not Phase.OVER and len(cases) < count:
            if game.phase is Phase.ROLL:
                game = game.roll(rng.randint(1, 6), rng.randint(1, 6))
            assert game.dice is not None
            if rng.random() < 0.3:
                cases.append((game.position, game.dice))  # type: ignore[arg-type]
            game = game.play(rng.choice(game.legal_plays()).steps)
    return cases


@pytest.mark.usefixtures("gnubg_available")
def test_legal_plays_agree_with_gnubg_set_variation_nackgammon() -> None:
    cases = _positions_from_play(400, seed=7)
    requests = [{"id": i, "position_id": encode_position_id(p), "dice": list(d)} for i, (p, d) in enumerate(cases)]
    answers = oracle.legal_moves(requests, variation="nackgammon")
    for (position, dice), answer in zip(cases, answers):
        results = legal_results(position, dice)
        ours = {encode_position_id(a): play.notation() for a, play in results.items() if play.steps}
        assert ours == {m["after_id"]: m["move"] for m in answer["moves"]}, (encode_position_id(position), dice)


def test_generator_agrees_with_the_reference_on_5000_positions() -> None:
    assert agree_with_reference(NACKGAMMON_VARIANT, TAVLA, 5000, seed=43) == 5000


def test_self_play_of_1000_games() -> None:
    assert len(self_play(NACKGAMMON_VARIANT, 1000, seed=44)) == 1000
