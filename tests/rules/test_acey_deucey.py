"""Acey-deucey: an empty start, entering from off the board, the 1-2 throw, Oscar (docs/rules.md section 3)."""

from __future__ import annotations

import json

import pytest

from rules.__main__ import plays_for_request
from rules.acey import ACEY_DEUCEY_VARIANT, AceyDeuceyPosition
from rules.cubeful import CubefulGame
from rules.errors import IllegalAction
from rules.game import Bonus, FirstMove, Game, Phase, game_result
from rules.judge import judge
from rules.movegen import legal_plays, legal_results
from rules.position import Aside, Color, Position
from rules.registry import find_variant
from rules.variant import ResultKind
from tests.rules.random_variants import acey_cases
from tests.rules.reference import ACEY, reference_results
from tests.rules.variant_checks import agree_with_reference, self_play

START = AceyDeuceyPosition.start()


def plays(position: Position, dice: tuple[int, int]) -> set[str]:
    return {play.notation() for play in legal_plays(position, dice)}


def _game(position: Position) -> Game:
    return Game.new(FirstMove.PREVIOUS_WINNER, position.turn, start=position, variant=ACEY_DEUCEY_VARIANT)


def test_empty_start_with_every_checker_to_enter() -> None:
    assert all(count == 0 for count in START.white + START.black)
    assert START.waiting(Color.WHITE) == START.waiting(Color.BLACK) == 15
    assert START.pips(Color.WHITE) == 15 * 25
    assert find_variant("Acey Deucey") is ACEY_DEUCEY_VARIANT and ACEY_DEUCEY_VARIANT.cube


def test_checkers_enter_into_the_opponents_home_and_may_move_on_at_once() -> None:
    assert plays(START, (6, 5)) == {"bar/14", "bar/20 bar/19"}
    one_in = AceyDeuceyPosition.build({18: 1}, {}, Color.WHITE, Aside(white_waiting=14, black_waiting=15))
    assert plays(one_in, (3, 1)) == {"18/14", "bar/22 18/17", "bar/24 18/15", "bar/21", "bar/24 bar/22"}


def test_a_hit_checker_enters_before_anything_else_moves() -> None:
    # Black holds White's 19- and 20-points (its own 6 and 5): nothing enters with 6-5.
    black = {6: 2, 5: 2}
    aside = Aside(white_waiting=5, black_waiting=11)
    hit = AceyDeuceyPosition.build({25: 1, 13: 9}, black, Color.WHITE, aside)
    assert plays(hit, (6, 5)) == {""}
    waiting_only = AceyDeuceyPosition.build({13: 10}, black, Color.WHITE, aside)
    assert plays(waiting_only, (6, 5)) == {"13/2", "13/8 13/7"}
    # With an open entry point the hit checker comes in first, then the rest may move.
    assert "bar/22 13/7" in plays(hit, (6, 3))


def test_a_one_two_is_played_then_a_named_double_then_another_throw() -> None:
    game = _game(START).roll(1, 2)
    assert game.bonus is Bonus.ONE_TWO
    game = game.play("bar/24 bar/23")
    assert game.phase is Phase.NAME_DOUBLE and game.position.turn is Color.WHITE
    with pytest.raises(IllegalAction):
        game.roll(3, 3)
    game = game.name_double(6)
    assert game.dice == (6, 6) and game.bonus is Bonus.NAMED_DOUBLE
    game = game.play("bar/19(4)")
    assert game.phase is Phase.ROLL and game.position.turn is Color.WHITE
    assert game.bonus is Bonus.THROW_AGAIN and not game.before_roll
    assert game.position.waiting(Color.WHITE) == 9
    game = game.roll(4, 3)
    assert game.bonus is Bonus.NONE
    game = game.play(game.legal_plays()[0])
    assert game.position.turn is Color.BLACK and game.before_roll


def test_no_cube_action_before_the_extra_throw() -> None:
    cubeful = CubefulGame.new(variant=ACEY_DEUCEY_VARIANT).opening_throw(2, 1)
    assert cubeful.game.bonus is Bonus.ONE_TWO  # an opening 1-2 is a 1-2 throw too
    cubeful = cubeful.play("bar/24 bar/23").name_double(5).play("bar/20(4)")
    assert cubeful.game.phase is Phase.ROLL and cubeful.to_act is Color.WHITE
    assert not cubeful.may_double(Color.WHITE)


def test_a_named_double_that_cannot_be_played_in_full_gives_no_extra_throw() -> None:
    # Black holds White's 19 and 18 (its own 6 and 7): of a named 6-6 only 23/17/11/5 can be played.
    position = AceyDeuceyPosition.build({}, {6: 2, 7: 2}, Color.WHITE, Aside(white_waiting=15, black_waiting=11))
    game = _game(position).roll(2, 1).play("bar/24 bar/23").name_double(6)
    assert [play.notation() for play in game.legal_plays()] == ["23/5"]
    game = game.play(game.legal_plays()[0])
    assert game.phase is Phase.ROLL and game.position.turn is Color.BLACK and game.bonus is Bonus.NONE


def test_a_one_two_not_played_in_full_earns_nothing() -> None:
    # Black holds White's 24, 23 and 22: the 1 and the 2 cannot both be played.
    position = AceyDeuceyPosition.build(
        {10: 1}, {1: 2, 2: 2, 3: 2}, Color.WHITE, Aside(white_waiting=14, black_waiting=9)
    )
    game = _game(position).roll(1, 2)
    assert {len(play.steps) for play in game.legal_plays()} == {2}
    blocked = AceyDeuceyPosition.build({}, {1: 2, 2: 2, 3: 2}, Color.WHITE, Aside(white_waiting=15, black_waiting=9))
    game = _game(blocked).roll(1, 2)
    assert [play.steps for play in game.legal_plays()] == [()]
    game = game.play([])
    assert game.phase is Phase.ROLL and game.position.turn is Color.BLACK


def test_oscar_is_the_last_checker_still_to_come_home() -> None:
    position = AceyDeuceyPosition.build({6: 10, 2: 4, 13: 1}, {20: 15}, Color.WHITE)
    assert isinstance(position, AceyDeuceyPosition)
    assert position.oscar(Color.WHITE) == 13 and position.oscar(Color.BLACK) is None
    waiting = AceyDeuceyPosition.build({6: 14}, {20: 15}, Color.WHITE, Aside(white_waiting=1))
    assert isinstance(waiting, AceyDeuceyPosition) and waiting.oscar(Color.WHITE) == 25


def test_a_loser_with_checkers_still_to_enter_is_backgammoned() -> None:
    position = AceyDeuceyPosition.build({}, {6: 14}, Color.BLACK, Aside(black_waiting=1))
    result = game_result(position)
    assert result is not None and (result.winner, result.kind) == (Color.WHITE, ResultKind.BACKGAMMON)


def test_judge_reads_checkers_off_the_board_as_still_to_enter() -> None:
    after = next(a for a, p in legal_results(START, (6, 5)).items() if p.notation() == "bar/20 bar/19")
    # A sensing board shows one heap beside the board: 13 White checkers there.
    snapshot = AceyDeuceyPosition.unchecked((13, *after.white[1:]), (15, *after.black[1:]), Color.BLACK)
    assert judge(START, (6, 5), snapshot).notation() == "bar/20 bar/19"


def test_json_form_keeps_waiting_checkers_and_the_cli_answers() -> None:
    data = START.to_json()
    assert data["white"]["waiting"] == 15 and data["white"]["off"] == 0
    assert AceyDeuceyPosition.from_json(json.loads(json.dumps(data))) == START
    answer = plays_for_request({"id": 1, "variant": "acey-deucey", "position": data, "dice": [6, 5]})
    assert sorted(move["move"] for move in answer["moves"]) == ["bar/14", "bar/20 bar/19"]


def test_generator_agrees_with_the_reference_on_5000_positions() -> None:
    waiting = 0
    for position, dice in acey_cases(55, 5000, AceyDeuceyPosition):
        expected = reference_results(position, dice, ACEY)
        assert set(legal_results(position, dice)) == expected, (position.to_json(), dice)
        waiting += bool(position.waiting(position.turn))
    assert waiting > 2000


def test_the_reference_agrees_on_ordinary_boards_too() -> None:
    assert agree_with_reference(ACEY_DEUCEY_VARIANT, ACEY, 500, seed=56) == 500


def test_self_play_of_1000_games() -> None:
    games = self_play(ACEY_DEUCEY_VARIANT, 1000, seed=57)
    bonus_turns = sum(1 for game in games for turn in game.turns if sorted(turn.dice) == [1, 2])
    assert bonus_turns > 500
