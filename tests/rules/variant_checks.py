"""Checks every variant test module runs: the reference enumerator and self-play."""

from __future__ import annotations

import random

from rules.game import Game, Phase
from rules.movegen import legal_results
from rules.position import Status
from rules.variant import Variant
from tests.rules.random_positions import random_cases
from tests.rules.reference import reference_results


def agree_with_reference(variant: Variant, game: str, cases: int, seed: int) -> int:
    """Compare the generator with the reference on random positions of the variant's type."""
    checked = 0
    for base, dice in random_cases(seed, cases):
        position = variant.position_type(*base)
        expected = reference_results(position, dice, game)
        assert set(legal_results(position, dice)) == expected, (position.to_json(), dice)
        checked += 1
    return checked


def self_play(variant: Variant, games: int, seed: int) -> list[Game]:
    """Random games from the variant's start: checkers conserved, boards valid, every game ends."""
    rng = random.Random(seed)
    finished = []
    for _ in range(games):
        game = Game.new(variant=variant)
        while game.phase is Phase.OPENING:
            game = game.opening_throw(rng.randint(1, 6), rng.randint(1, 6))
        while game.phase is not Phase.OVER:
            if game.phase is Phase.ROLL:
                game = game.roll(rng.randint(1, 6), rng.randint(1, 6))
            game = game.play(rng.choice(game.legal_plays()).steps)
            assert game.position.status() == Status.VALID
            assert type(game.position) is variant.position_type
            assert len(game.turns) < 3000
        assert game.result is not None and game.result.points in (1, 2, 3)
        finished.append(game)
    return finished
