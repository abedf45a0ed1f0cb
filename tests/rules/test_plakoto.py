"""Plakoto: pinning instead of hitting, the mother rule, scoring 1/2, no cube (docs/rules.md section 3)."""

from __future__ import annotations

import json

import pytest

from rules.__main__ import plays_for_request
from rules.cubeful import CubefulGame
from rules.errors import IllegalPlay, InvalidPosition
from rules.game import FirstMove, Game, GameEnd, Phase, game_result
from rules.judge import Violation, judge
from rules.movegen import legal_plays, legal_results
from rules.plakoto import PLAKOTO_VARIANT, PlakotoPosition
from rules.play import Step
from rules.position import Aside, Color, Position, Status
from rules.registry import find_variant
from rules.variant import Opening, ResultKind
from tests.rules.random_variants import plakoto_cases
from tests.rules.reference import PLAKOTO, reference_results
from tests.rules.variant_checks import self_play

WHITE_BLOT_RACE = PlakotoPosition.build({24: 14, 18: 1}, {24: 14, 12: 1})
"""Black's lone checker on its 12-point is White's 13-point, five pips from White's 18."""


def pinned_black_on_13() -> Position:
    """White has just pinned Black's checker on White's 13-point (Black's 12) with one checker."""
    return PlakotoPosition.build({24: 13, 23: 1, 13: 1}, {24: 14, 12: 1}, Color.BLACK, Aside(black_pinned=(12,)))


def plays(position: Position, dice: tuple[int, int]) -> set[str]:
    return {play.notation() for play in legal_plays(position, dice)}


def results_by_notation(position: Position, dice: tuple[int, int]) -> dict[str, Position]:
    return {play.notation(): after for after, play in legal_results(position, dice).items()}


def test_start_names_opening_and_no_cube() -> None:
    start = PlakotoPosition.start()
    assert start.white[24] == start.black[24] == 15
    assert find_variant("Plakoto") is PLAKOTO_VARIANT is find_variant("πλακωτό")
    assert PLAKOTO_VARIANT.opening is Opening.THROW_AGAIN
    assert not PLAKOTO_VARIANT.cube
    game = Game.new(variant=PLAKOTO_VARIANT).opening_throw(5, 2)
    assert game.phase is Phase.ROLL and game.position.turn is Color.WHITE  # throws both dice again
    cubeful = CubefulGame.new(variant=PLAKOTO_VARIANT).opening_throw(5, 2)
    assert not cubeful.may_double(Color.WHITE)


def test_landing_on_a_lone_checker_pins_it() -> None:
    after = results_by_notation(WHITE_BLOT_RACE, (5, 1))["24/23 18/13*"]
    assert after.pinned(Color.BLACK) == (12,)
    assert after.white[13] == 1 and after.black[12] == 1  # both stand on the point: nothing is hit
    assert after.black[25] == 0
    assert after.status() == Status.VALID


def test_a_checker_may_pin_and_go_on_which_leaves_no_pin() -> None:
    after = results_by_notation(WHITE_BLOT_RACE, (5, 1))["18/13*/12"]
    assert after.pinned(Color.BLACK) == ()


def test_the_pinned_checker_is_frozen_and_its_point_closed_to_its_side() -> None:
    position = pinned_black_on_13()
    for dice in [(1, 2), (6, 6), (5, 6), (4, 4)]:
        for play in legal_plays(position, dice):
            assert all(step.source != 12 for step in play.steps), (dice, play)
    # 24/12 would land on the point where White's single checker pins Black's: closed to Black.
    assert plays(position, (6, 6)) == {"24/18(4)"}
    # Where White's checker stands alone and unpinned, Black may land and pin it.
    free = PlakotoPosition.build({24: 13, 23: 1, 13: 1}, {24: 15}, Color.BLACK)
    assert any(after.pinned(Color.WHITE) == (13,) for after in legal_results(free, (6, 6)))


def test_judge_names_a_moved_pinned_checker() -> None:
    position = pinned_black_on_13()
    black = list(position.black)
    black[12] -= 1
    black[11] += 1
    black[24] -= 1
    black[23] += 1
    moved = PlakotoPosition.unchecked(position.white, tuple(black), Color.WHITE)
    with pytest.raises(IllegalPlay) as error:
        judge(position, (1, 1), moved)
    assert error.value.violations == (Violation.PINNED_MOVED,)


def test_the_pinner_may_stack_and_the_pin_holds_until_the_last_pinner_leaves() -> None:
    position = PlakotoPosition.build(
        {24: 12, 19: 1, 16: 1, 13: 1}, {24: 14, 12: 1}, Color.WHITE, Aside(black_pinned=(12,))
    )
    results = results_by_notation(position, (6, 3))
    stacked = results["24/21 19/13"]
    assert stacked.white[13] == 2 and stacked.pinned(Color.BLACK) == (12,)
    released = results["24/18 13/10"]
    assert released.white[13] == 0 and released.pinned(Color.BLACK) == ()
    assert released.black[12] == 1  # free again where it stood
    # With two pinners, one leaving keeps the pin.
    two = PlakotoPosition.build({24: 12, 16: 1, 13: 2}, {24: 14, 12: 1}, Color.WHITE, Aside(black_pinned=(12,)))
    assert results_by_notation(two, (3, 1))["16/12"].pinned(Color.BLACK) == (12,)
    assert results_by_notation(two, (3, 1))["13/12 13/10"].pinned(Color.BLACK) == ()


def test_no_bearing_off_while_an_own_checker_is_pinned() -> None:
    # White is all home, but its checker on the 1-point is pinned under Black's 24-point checkers.
    position = PlakotoPosition.build(
        {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}, {24: 2, 13: 13}, Color.WHITE, Aside(white_pinned=(1,))
    )
    assert plays(position, (6, 5)) == {""}  # nothing can move: no bear-off, and the 1-point is closed
    assert all(after.white[0] == 1 for after in legal_results(position, (2, 1)))
    white = list(position.white)
    white[6] -= 1
    white[5] -= 1
    white[0] += 2
    borne = PlakotoPosition.unchecked(tuple(white), position.black, Color.BLACK)
    with pytest.raises(IllegalPlay) as error:
        judge(position, (6, 5), borne)
    assert error.value.violations == (Violation.PINNED_BEAR_OFF,)


def test_judge_reads_the_pins_of_a_board_snapshot() -> None:
    """A sensing board sees checkers only; the pins follow from the position before."""
    expected = results_by_notation(WHITE_BLOT_RACE, (5, 1))["24/23 18/13*"]
    snapshot = PlakotoPosition.unchecked(expected.white, expected.black, Color.BLACK)
    assert snapshot.status() & Status.SHARED_POINT
    play = judge(WHITE_BLOT_RACE, (5, 1), snapshot)
    assert play.notation() == "24/23 18/13*"
    assert WHITE_BLOT_RACE.read_snapshot(snapshot) == expected


def test_impossible_pins_are_refused() -> None:
    side = (0, *([0] * 23), 15, 0)
    with pytest.raises(InvalidPosition) as error:
        PlakotoPosition(side, side, Color.WHITE, Aside(white_pinned=(5,)))
    assert Status.BAD_PIN in error.value.status
    with pytest.raises(InvalidPosition) as error:
        Position.build({24: 14, 13: 1}, {24: 14, 12: 1}, Color.WHITE, Aside(black_pinned=(12,)))
    assert Status.FOREIGN_ASIDE in error.value.status


def _game(position: Position) -> Game:
    return Game.new(FirstMove.PREVIOUS_WINNER, position.turn, start=position, variant=PLAKOTO_VARIANT)


def test_pinned_mother_wins_two_points_when_the_pinner_has_left_its_start() -> None:
    # Black has nothing left on its 24-point; its checker on its 7 pins White's mother with a 6.
    position = PlakotoPosition.build({24: 1, 6: 14}, {7: 1, 6: 14}, Color.BLACK)
    game = _game(position).roll(6, 1)
    game = game.play([Step(7, 1, True), Step(6, 5)])
    assert game.phase is Phase.OVER and game.result is not None
    assert (game.result.winner, game.result.kind, game.result.how) == (
        Color.BLACK,
        ResultKind.GAMMON,
        GameEnd.MOTHER_PINNED,
    )
    assert game.result.points == 2


def test_a_pinned_mother_waits_for_the_pinner_to_leave_its_start_then_wins() -> None:
    position = PlakotoPosition.build({24: 1, 6: 14}, {24: 1, 7: 1, 6: 13}, Color.BLACK)
    game = _game(position).roll(6, 1)
    game = game.play([Step(7, 1, True), Step(6, 5)])
    assert game.phase is Phase.ROLL and game.position.pinned(Color.WHITE) == (24,)  # play goes on
    game = game.roll(2, 1).play([Step(6, 4), Step(6, 5)])
    game = game.roll(4, 3)
    game = game.play([Step(24, 20), Step(20, 17)])  # Black's last checker leaves its 24-point
    assert game.result is not None
    assert (game.result.winner, game.result.how, game.result.points) == (Color.BLACK, GameEnd.MOTHER_PINNED, 2)


def test_both_mothers_pinned_is_a_draw() -> None:
    position = PlakotoPosition.build({24: 1, 7: 1, 6: 13}, {24: 1, 7: 1, 6: 13}, Color.BLACK)
    game = _game(position).roll(6, 1).play([Step(7, 1, True), Step(6, 5)])
    assert game.phase is Phase.ROLL
    game = game.roll(6, 2).play([Step(7, 1, True), Step(6, 4)])
    assert game.result is not None
    assert (game.result.winner, game.result.how, game.result.points) == (None, GameEnd.BOTH_MOTHERS_PINNED, 0)


def test_scores_one_or_two_by_borne_off_checkers() -> None:
    single = PlakotoPosition.build({}, {6: 14}, Color.BLACK)
    result = game_result(single)
    assert result is not None and (result.winner, result.kind) == (Color.WHITE, ResultKind.SINGLE)
    double = PlakotoPosition.build({}, {6: 15}, Color.BLACK)
    result = game_result(double)
    assert result is not None and result.kind is ResultKind.GAMMON  # mars, never more: no triple game
    back = PlakotoPosition.build({}, {24: 15}, Color.BLACK)
    result = game_result(back)
    assert result is not None and result.points == 2


def test_json_form_keeps_pins_and_the_cli_answers_plakoto() -> None:
    position = pinned_black_on_13()
    data = position.to_json()
    assert data["black"]["pinned"] == [12]
    assert PlakotoPosition.from_json(json.loads(json.dumps(data))) == position
    answer = plays_for_request({"id": 7, "variant": "plakoto", "position": data, "dice": [6, 6]})
    assert [move["move"] for move in answer["moves"]] == ["24/18(4)"]
    assert answer["moves"][0]["after"]["black"]["pinned"] == [12]


def test_generator_agrees_with_the_reference_on_5000_positions() -> None:
    checked = pins = 0
    for position, dice in plakoto_cases(51, 5000, PlakotoPosition):
        expected = reference_results(position, dice, PLAKOTO)
        assert set(legal_results(position, dice)) == expected, (position.to_json(), dice)
        checked += 1
        pins += bool(position.pinned(Color.WHITE) or position.pinned(Color.BLACK))
    assert checked == 5000 and pins > 2500


def test_self_play_of_1000_games() -> None:
    games = self_play(PLAKOTO_VARIANT, 1000, seed=52)
    endings = {game.result.how for game in games if game.result is not None}
    assert GameEnd.BORNE_OFF in endings and GameEnd.MOTHER_PINNED in endings
    assert all(game.cube == 1 for game in games)
