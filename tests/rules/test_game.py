"""The game cycle: opening throw, turns, end of game and its value."""

from __future__ import annotations

import random

import pytest

from rules.errors import IllegalAction, IllegalPlay
from rules.game import FirstMove, Game, GameResult, Phase, ResultKind, game_result
from rules.play import Step
from rules.position import BAR, Color, Position


def test_a_tied_opening_throw_is_thrown_again() -> None:
    game = Game.new().opening_throw(4, 4)
    assert game.phase is Phase.OPENING
    assert game.opening_ties == 1


def test_the_higher_opening_die_plays_both_numbers() -> None:
    game = Game.new().opening_throw(2, 5)
    assert game.phase is Phase.PLAY
    assert game.position.turn is Color.BLACK
    assert game.dice == (5, 2)
    game = game.play("13/8 13/11")
    assert game.phase is Phase.ROLL and game.position.turn is Color.WHITE


def test_previous_winner_rolls_first_under_the_house_rule() -> None:
    game = Game.new(FirstMove.PREVIOUS_WINNER, previous_winner=Color.BLACK)
    assert game.phase is Phase.ROLL and game.position.turn is Color.BLACK
    first_game = Game.new(FirstMove.PREVIOUS_WINNER)
    assert first_game.phase is Phase.OPENING


def test_actions_out_of_order_are_refused() -> None:
    game = Game.new()
    with pytest.raises(IllegalAction, match="opening throw"):
        game.roll(3, 1)
    game = game.opening_throw(3, 1)
    with pytest.raises(IllegalAction):
        game.roll(3, 1)
    with pytest.raises(IllegalAction):
        game.opening_throw(3, 1)
    game = game.play("8/5 6/5")
    with pytest.raises(IllegalAction, match="a roll"):
        game.play("8/5 6/5")


def test_plays_are_accepted_as_text_board_or_steps() -> None:
    game = Game.new().opening_throw(3, 1)
    by_text = game.play("8/5 6/5")
    by_steps = game.play([Step(8, 5), Step(6, 5)])
    by_board = game.play(by_text.position)
    assert by_text.position == by_steps.position == by_board.position
    assert by_text.turns[-1].play.notation() == "8/5 6/5"


def test_an_illegal_play_leaves_the_game_unchanged() -> None:
    game = Game.new().opening_throw(3, 1)
    with pytest.raises(IllegalPlay):
        game.play("13/8")
    assert game.phase is Phase.PLAY


@pytest.mark.parametrize(
    ("black", "kind"),
    [
        ({6: 14}, ResultKind.SINGLE),  # one Black checker already off
        ({6: 15}, ResultKind.GAMMON),
        ({6: 14, 19: 1}, ResultKind.BACKGAMMON),  # in White's home board
        ({6: 14, BAR: 1}, ResultKind.BACKGAMMON),
    ],
)
def test_result_kind_when_the_last_checker_comes_off(black: dict[object, int], kind: ResultKind) -> None:
    start = Position.build({1: 1}, black)  # type: ignore[arg-type]
    game = Game(start, Phase.PLAY, dice=(2, 1), cube=4)
    over = game.play("1/off")
    assert over.phase is Phase.OVER
    assert over.result == GameResult(Color.WHITE, kind, 4)
    assert over.result is not None and over.result.points == int(kind) * 4


def test_no_result_while_both_sides_have_checkers() -> None:
    assert game_result(Position.start()) is None


def test_random_games_end_with_a_legal_result() -> None:
    rng = random.Random(8)
    for _ in range(20):
        game = Game.new()
        while game.phase is Phase.OPENING:
            game = game.opening_throw(rng.randint(1, 6), rng.randint(1, 6))
        while game.phase is not Phase.OVER:
            if game.phase is Phase.ROLL:
                game = game.roll(rng.randint(1, 6), rng.randint(1, 6))
            game = game.play(rng.choice(game.legal_plays()))
            assert game.position.status() == 0
            assert len(game.turns) < 1000
        assert game.result is not None
        assert game.result.points in (1, 2, 3)
        loser = game.position.side(game.result.winner.other)
        assert (loser[0] > 0) == (game.result.kind is ResultKind.SINGLE)
