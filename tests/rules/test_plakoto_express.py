"""Plakoto Express: numbers of a double the mover cannot play pass to the opponent (docs/rules.md section 3)."""

from __future__ import annotations

import random

import pytest

from rules.__main__ import plays_for_request
from rules.errors import IllegalAction, IllegalPlay
from rules.game import FirstMove, Game, Phase
from rules.judge import Violation, judge_numbers
from rules.movegen import numbers_results
from rules.plakoto import PLAKOTO_EXPRESS_VARIANT, PlakotoExpressPosition
from rules.play import Step
from rules.position import Color, Position
from rules.registry import find_variant, variant_of
from tests.rules.random_variants import random_plakoto
from tests.rules.reference import PLAKOTO, reference_sequence_results
from tests.rules.variant_checks import self_play


def _game(position: Position) -> Game:
    return Game.new(FirstMove.PREVIOUS_WINNER, position.turn, start=position, variant=PLAKOTO_EXPRESS_VARIANT)


def test_names_and_own_position_type() -> None:
    assert find_variant("plakoto express") is PLAKOTO_EXPRESS_VARIANT is find_variant("express")
    assert variant_of(PlakotoExpressPosition.start()) is PLAKOTO_EXPRESS_VARIANT
    assert not PLAKOTO_EXPRESS_VARIANT.cube


def test_unplayable_numbers_of_a_double_pass_to_the_opponent_who_plays_them_first() -> None:
    # White can play two sixes (8/2 twice); Black's 7-point blocks White's 18, so the rest pass on.
    position = PlakotoExpressPosition.build({24: 13, 8: 2}, {24: 13, 7: 2}, Color.WHITE)
    game = _game(position).roll(6, 6)
    game = game.play([Step(8, 2), Step(8, 2)])
    assert game.phase is Phase.PASSED and game.pending == (6, 6)
    assert game.position.turn is Color.BLACK
    with pytest.raises(IllegalAction):
        game.roll(3, 1)  # the passed numbers come before Black's own roll
    assert {play.notation() for play in game.legal_plays()} == {"24/12", "24/18(2)"}  # 7/1 lands on White's 24
    game = game.play([Step(24, 18), Step(18, 12)])
    assert game.phase is Phase.ROLL and game.pending == () and game.position.turn is Color.BLACK
    assert game.turns[-1].passed == (6, 6) and game.turns[-1].color is Color.BLACK


def test_passed_numbers_the_opponent_cannot_play_either_are_lost() -> None:
    position = PlakotoExpressPosition.build({24: 13, 7: 2}, {24: 13, 7: 2}, Color.WHITE)
    game = _game(position).roll(6, 6)
    assert [play.steps for play in game.legal_plays()] == [()]
    game = game.play([])
    assert game.phase is Phase.PASSED and game.pending == (6, 6, 6, 6)
    assert [play.steps for play in game.legal_plays()] == [()]
    game = game.play([])
    assert game.phase is Phase.ROLL and game.pending == () and game.position.turn is Color.BLACK


def test_only_doubles_pass_numbers_on() -> None:
    # No six can be played, only the five: the lost six is not passed on.
    position = PlakotoExpressPosition.build({24: 13, 7: 2}, {24: 11, 12: 2, 7: 2}, Color.WHITE)
    game = _game(position).roll(6, 5)
    assert all(len(play.steps) == 1 for play in game.legal_plays())
    game = game.play([Step(24, 19)])
    assert game.phase is Phase.ROLL and game.pending == () and game.position.turn is Color.BLACK


def test_passed_numbers_must_be_played_as_far_as_possible() -> None:
    position = PlakotoExpressPosition.build({24: 13, 7: 2}, {24: 14, 8: 1}, Color.BLACK)
    assert {len(play.steps) for play in numbers_results(position, (5, 5, 5)).values()} == {3}
    short = numbers_results(position, (5,))
    after_one = next(after for after in short)
    with pytest.raises(IllegalPlay) as error:
        judge_numbers(position, (5, 5, 5), after_one)
    assert error.value.violations == (Violation.MUST_PLAY_MORE,)
    assert error.value.unfinished


def test_passed_numbers_agree_with_the_reference_on_5000_positions() -> None:
    rng = random.Random(53)
    for _ in range(5000):
        position = random_plakoto(rng, PlakotoExpressPosition)
        numbers = (rng.randint(1, 6),) * rng.randint(1, 4)
        expected = reference_sequence_results(position, numbers, PLAKOTO)
        assert set(numbers_results(position, numbers)) == expected, (position.to_json(), numbers)


def test_self_play_of_1000_games() -> None:
    games = self_play(PLAKOTO_EXPRESS_VARIANT, 1000, seed=54)
    assert sum(1 for game in games for turn in game.turns if turn.passed) > 100


def test_the_cli_lists_plays_of_passed_numbers() -> None:
    position = PlakotoExpressPosition.build({24: 13, 7: 2}, {24: 14, 8: 1}, Color.BLACK)
    request = {"id": 3, "variant": "plakoto express", "position": position.to_json(), "passed": [5, 5, 5]}
    answer = plays_for_request(request)
    expected = {play.notation() for play in numbers_results(position, (5, 5, 5)).values()}
    assert {move["move"] for move in answer["moves"]} == expected and len(expected) > 1
    assert "error" in plays_for_request({**request, "passed": [7]})
