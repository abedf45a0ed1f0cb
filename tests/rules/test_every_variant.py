"""Every registered variant passes the same checks the moment it is registered.

For each variant of ``rules.registry``: its start position is a valid, even board of its own type; random
games from the start reach their end with every board valid; every position met survives the JSON form
(and GNU Backgammon's Position ID where the variant has one); and every play made survives the variant's
notation: written, parsed back, it is the same play.
"""

from __future__ import annotations

import random

import pytest

from rules.game import Game, Phase
from rules.gnubg_id import decode_position_id, encode_position_id
from rules.notation import parse_play
from rules.position import Color, Position, Status
from rules.registry import VARIANTS, find_variant
from rules.variant import Variant
from tests.rules.variant_checks import random_game, self_play

GAMES = 3


def played(variant: Variant, seed: int) -> list[tuple[Position, tuple[int, ...], Game]]:
    """Every position met in a random game of ``variant``, with the numbers to play there and the game."""
    return [
        (game.position, game.pending if game.phase is Phase.PASSED else (game.dice or ()), game)
        for game in random_game(variant, random.Random(seed))
        if game.phase is not Phase.OVER
    ]


@pytest.fixture(params=VARIANTS, ids=lambda variant: variant.name)
def variant(request: pytest.FixtureRequest) -> Variant:
    chosen: Variant = request.param
    return chosen


def test_it_is_found_by_each_of_its_names(variant: Variant) -> None:
    for name in (variant.name, *variant.aliases):
        assert find_variant(f" {name.title()} ") is variant


def test_the_start_is_a_valid_even_board_of_its_own_type(variant: Variant) -> None:
    game = Game.new(variant=variant)
    start = game.position
    assert type(start) is variant.position_type and start.status() == Status.VALID
    assert start.pips(Color.WHITE) == start.pips(Color.BLACK)
    assert game.phase is Phase.OPENING and start.turn is Color.WHITE


def test_random_games_reach_their_end(variant: Variant) -> None:
    assert len(self_play(variant, GAMES, seed=17)) == GAMES


def test_every_position_survives_the_json_form_and_the_position_id(variant: Variant) -> None:
    kind = variant.position_type
    for position, _, _ in played(variant, seed=5):
        assert kind.from_json(position.to_json()) == position
        if variant.gnubg_ids:  # the ID is the board as the side on roll sees it
            position_id = encode_position_id(position)
            assert encode_position_id(decode_position_id(position_id)) == position_id


def test_every_play_survives_the_notation(variant: Variant) -> None:
    checked = 0
    for position, numbers, game in played(variant, seed=9):
        if len(numbers) != 2 or game.phase is not Phase.PLAY:
            continue  # numbers passed on (Plakoto Express) are played on the board, never typed
        for play in game.legal_plays()[:4]:
            text = variant.write_play(position, play)
            if not text:
                continue  # nothing to play
            assert parse_play(position, numbers, text) == play, (text, position.to_json(), numbers)
            checked += 1
    assert checked > 0
