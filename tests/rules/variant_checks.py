"""Checks every variant test module runs: the reference enumerator and self-play."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rules.game import Game, GameEnd, Phase
from rules.movegen import legal_results
from rules.position import OFF, Status
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


def random_game(variant: Variant, rng: random.Random) -> Iterator[Game]:
    """A random game of ``variant`` from its start: the game before each play, and at its end."""
    game = Game.new(variant=variant)
    while game.phase is Phase.OPENING:
        game = game.opening_throw(rng.randint(1, 6), rng.randint(1, 6))
    while game.phase is not Phase.OVER:
        if game.phase is Phase.ROLL:
            game = game.roll(rng.randint(1, 6), rng.randint(1, 6))
        if game.phase is Phase.NAME_DOUBLE:
            game = game.name_double(rng.randint(1, 6))
        yield game
        game = game.play(rng.choice(game.legal_plays()).steps)
    yield game


def self_play(variant: Variant, games: int, seed: int) -> list[Game]:
    """Random games from the variant's start: checkers conserved, boards valid, every game ends.

    A board is valid only with 15 checkers a side (on the board, on the bar,
    borne off or still to enter), so validity after every play is the
    conservation check. Draws (no winner, no points) are allowed only where
    the variant has them.
    """
    rng = random.Random(seed)
    finished = []
    for _ in range(games):
        for game in random_game(variant, rng):
            assert game.position.status() == Status.VALID
            assert type(game.position) is variant.position_type
            assert len(game.turns) < 3000
        result = game.result
        assert result is not None
        if result.winner is None:
            assert result.points == 0 and result.how in DRAWS
        else:
            assert result.points in (1, 2, 3)
            assert result.how is GameEnd.BORNE_OFF or variant.board_ending is not None
            if result.how is GameEnd.BORNE_OFF:
                assert game.position.side(result.winner)[OFF] == 15
        finished.append(game)
    return finished


DRAWS = (GameEnd.LAST_THROW_DRAW, GameEnd.BOTH_MOTHERS_PINNED)
