"""Uzun tavla (long nardy): every rule of docs/rules.md section 4 and the seed's tables and diagrams.

Points in notation are numbered from White's side for both players, as the
seed's diagrams are; positions keep each side in its own numbering (head 24,
home 1..6). Black's own point q is White's point q + 12 (mod 24).
"""

from __future__ import annotations

import random

import pytest

from rules.errors import IllegalPlay
from rules.game import Game, GameResult, Phase
from rules.judge import Violation, judge
from rules.movegen import legal_plays, legal_results
from rules.notation import parse_play
from rules.play import Step, apply_steps
from rules.position import OFF, Color, Position, Status
from rules.registry import find_variant
from rules.uzun import UZUN_VARIANT, UzunPosition
from rules.variant import ResultKind
from tests.rules.random_uzun import random_uzun_position
from tests.rules.reference import UZUN, reference_results

WHITE_TO_BLACK = {p: (p + 11) % 24 + 1 for p in range(1, 25)}
"""White's point number -> Black's own number (and back: the map is its own inverse)."""


def uzun(white: dict[int, int], black_in_white_numbering: dict[int, int], turn: str = "white") -> UzunPosition:
    """A position from White's-numbering maps (as the seed's diagrams show them)."""
    black = {WHITE_TO_BLACK[p]: n for p, n in black_in_white_numbering.items()}
    return UzunPosition.build(white, black, turn)  # type: ignore[arg-type, return-value]


def texts(position: Position, dice: tuple[int, int]) -> set[str]:
    return {UZUN_VARIANT.write_play(position, play) for play in legal_plays(position, dice)}


def results_of(position: Position, dice: tuple[int, int], *plays: str) -> set[Position]:
    return {apply_steps(position, parse_play(position, dice, text).steps) for text in plays}


def test_setup_and_pip_count() -> None:
    start = UzunPosition.start()
    assert start.white[24] == 15 and start.black[24] == 15
    assert start.pips(Color.WHITE) == start.pips(Color.BLACK) == 360
    assert find_variant("Uzun Tavla") is UZUN_VARIANT
    assert find_variant("long nardy") is UZUN_VARIANT
    assert "15O" in str(start).replace(" ", "") and "15X" in str(start).replace(" ", "")


def test_black_head_is_whites_twelve_point() -> None:
    """A White checker on 12 and Black's head share a point: impossible. Black's own 1 is White's 13."""
    beside = UzunPosition.build({12: 1, 24: 14}, {1: 15})
    assert beside.status() == Status.VALID
    shared = UzunPosition.unchecked(beside.white, UzunPosition.start().black)
    assert shared.status() == Status.SHARED_POINT


SEED_TABLE = {
    1: ["24/23/22/21/20"],
    2: ["24/22/20/18/16"],
    3: ["24/18 24/18", "24/15 24/21"],
    4: ["24/16 24/16"],
    5: ["24/19/14/9/4"],
    6: ["24/18 24/18"],
}


@pytest.mark.parametrize("die", sorted(SEED_TABLE))
def test_whites_first_turn_doubles_match_the_seed_table(die: int) -> None:
    start = UzunPosition.start()
    dice = (die, die)
    assert set(legal_results(start, dice)) == results_of(start, dice, *SEED_TABLE[die])


@pytest.mark.parametrize("die", sorted(SEED_TABLE))
def test_blacks_first_turn_doubles_match_the_seed_table(die: int) -> None:
    """Black moving first: the same table, each point p of White's numbering becoming p - 12."""
    start = UzunPosition.start(Color.BLACK)
    dice = (die, die)
    in_black_numbering = [
        " ".join("/".join(str(WHITE_TO_BLACK[int(p)]) for p in m.split("/")) for m in row.split())
        for row in SEED_TABLE[die]
    ]
    assert set(legal_results(start, dice)) == results_of(start, dice, *in_black_numbering)
    # the same plays mirror White's exactly
    assert {r.mirrored() for r in legal_results(start, dice)} == set(legal_results(UzunPosition.start(), dice))


def test_six_six_first_turn_loses_two_sixes() -> None:
    assert texts(UzunPosition.start(), (6, 6)) == {"24/18 24/18"}


def test_only_one_checker_leaves_the_head_after_the_first_turn() -> None:
    position = uzun({24: 13, 20: 2}, {12: 15}, "white")
    for play in legal_plays(position, (6, 6)):
        assert sum(1 for step in play.steps if step.source == 24) <= 1
    for play in legal_plays(position, (3, 3)):
        assert sum(1 for step in play.steps if step.source == 24) <= 1


def test_two_checkers_off_the_head_mid_game_break_the_head_rule() -> None:
    position = uzun({24: 13, 20: 2}, {12: 15})
    after = apply_steps(position, [Step(24, 18), Step(24, 18), Step(20, 14), Step(20, 14)])
    with pytest.raises(IllegalPlay) as caught:
        judge(position, (6, 6), after)
    assert caught.value.violations == (Violation.HEAD_RULE,)
    assert judge(UzunPosition.start(), (6, 6), apply_steps(UzunPosition.start(), [Step(24, 18)] * 2)).steps


def test_a_single_checker_holds_a_point() -> None:
    """The seed's diagram: from 14 the 5 is blocked by one Black checker on 9, the 4 reaches 10."""
    position = uzun({14: 1, 24: 14}, {9: 1, 12: 14})
    for play in legal_plays(position, (5, 4)):
        assert all(step.dest != 9 for step in play.steps)
    assert "24/19 14/10" in texts(position, (5, 4))
    with pytest.raises(IllegalPlay) as caught:
        parse_play(position, (5, 4), "14/9 24/20")
    assert Violation.BLOCKED_POINT in caught.value.violations


def _holds(position: Position, points: range) -> bool:
    return all(position.white[p] for p in points)


def test_six_in_a_row_forbidden_with_no_black_checker_past() -> None:
    """The seed's diagram: White holds 20..16; 24/21 would make 21..16 with no Black checker beyond."""
    position = uzun({24: 5, 20: 2, 19: 2, 18: 2, 17: 2, 16: 2}, {12: 15})
    assert not any(_holds(after, range(16, 22)) for after in legal_results(position, (3, 3)))
    after = apply_steps(position, [Step(24, 21), Step(20, 17), Step(19, 16), Step(18, 15)])
    with pytest.raises(IllegalPlay) as caught:
        judge(position, (3, 3), after)
    assert caught.value.violations == (Violation.SIX_PRIME,)


def test_six_in_a_row_allowed_once_a_black_checker_is_past() -> None:
    """The same with a Black checker on 14, beyond the block: 24/21 is allowed."""
    position = uzun({24: 5, 20: 2, 19: 2, 18: 2, 17: 2, 16: 2}, {14: 1, 12: 14})
    assert any(_holds(after, range(16, 22)) for after in legal_results(position, (3, 3)))
    after = apply_steps(position, [Step(24, 21), Step(20, 17), Step(19, 16), Step(18, 15)])
    assert judge(position, (3, 3), after).steps


def test_five_in_a_row_is_always_allowed() -> None:
    position = uzun({24: 5, 20: 2, 19: 2, 18: 2, 17: 2, 15: 2}, {12: 15})  # 16 open: 21 makes 21..17 only
    assert any(after.white[21] for after in legal_results(position, (3, 1)))


def test_wrap_around_block_on_blacks_path() -> None:
    """3, 2, 1, 24, 23, 22 follow each other on Black's path (12 -> 1, then 24 -> 13)."""
    white = {24: 5, 23: 1, 22: 1, 2: 2, 1: 2, 5: 4}
    blocked = uzun(white, {12: 15})
    assert not any(
        _holds(after, range(1, 4)) and after.white[22] and after.white[23] and after.white[24]
        for after in legal_results(blocked, (2, 1))
    )
    open_ = uzun(white, {15: 1, 12: 14})  # a Black checker past the block
    assert any(
        _holds(after, range(1, 4)) and after.white[22] and after.white[23] and after.white[24]
        for after in legal_results(open_, (2, 1))
    )


def test_wrap_around_block_on_whites_path_across_13_12() -> None:
    """Mirrored: Black may not hold 15, 14, 13, 12, 11, 10 (White's numbering) with no White checker past."""
    white = {24: 5, 23: 1, 22: 1, 2: 2, 1: 2, 5: 4}
    blocked = uzun(white, {12: 15}).mirrored()
    block = [WHITE_TO_BLACK[p] for p in (15, 14, 13, 12, 11, 10)]
    assert not any(all(after.black[q] for q in block) for after in legal_results(blocked, (2, 1)))
    open_ = uzun(white, {15: 1, 12: 14}).mirrored()
    assert any(all(after.black[q] for q in block) for after in legal_results(open_, (2, 1)))


def test_bear_off_six_two_from_five_and_two() -> None:
    """The seed's diagram: no checker on 6, so the six takes the farthest (5); the two takes from 2."""
    position = uzun({5: 3, 4: 2, 2: 3, 1: 2}, {20: 15})
    plays = legal_plays(position, (6, 2))
    assert all(Step(5, OFF) in play.steps for play in plays)
    assert "5/off 2/off" in texts(position, (6, 2))
    assert "5/off 4/2" in texts(position, (6, 2))  # a move inside home instead of bearing off


def test_no_bear_off_with_a_checker_outside_home() -> None:
    position = uzun({7: 1, 5: 3, 2: 3}, {20: 15})
    for play in legal_plays(position, (6, 2)):
        assert all(step.dest != OFF or step.source <= 6 for step in play.steps[:1])


def test_larger_die_when_only_one_can_be_played() -> None:
    """20/14 or 20/15 alone, never both (a Black checker holds 9): the 6 must be played."""
    position = uzun({20: 1, 1: 14}, {9: 1, 12: 14})
    assert texts(position, (6, 5)) == {"20/14"}
    assert texts(position, (5, 6)) == {"20/14"}


def test_the_game_cycle() -> None:
    game = Game.new(variant=UZUN_VARIANT)
    assert game.position == UzunPosition.start()
    game = game.opening_throw(2, 5)
    assert game.phase is Phase.ROLL and game.position.turn is Color.BLACK  # throws both dice again
    game = game.roll(6, 6)
    game = game.play("12/6 12/6")
    assert game.position.black[18] == 2
    assert not UZUN_VARIANT.cube


def test_scoring_single_and_mars() -> None:
    last = uzun({1: 1}, {20: 15})
    game = Game(last.with_turn(Color.WHITE), Phase.PLAY, dice=(1, 2), variant=UZUN_VARIANT)
    assert game.play("1/off").result == GameResult(Color.WHITE, ResultKind.GAMMON)  # mars: 2 points
    some_off = UzunPosition.build({1: 1}, {20: 10})
    game = Game(some_off, Phase.PLAY, dice=(1, 2), variant=UZUN_VARIANT)
    over = game.play("1/off")
    assert over.result == GameResult(Color.WHITE, ResultKind.SINGLE) and over.result.points == 1


def test_last_throw_rule_gives_a_draw_or_not() -> None:
    """Off by default; with it, the starter finishing first gives the other one more throw."""
    board = UzunPosition.build({1: 1}, {1: 2})
    base = Game(board, Phase.PLAY, dice=(1, 2), variant=UZUN_VARIANT, starter=Color.WHITE)
    assert base.play("1/off").phase is Phase.OVER
    with_rule = Game(board, Phase.PLAY, dice=(1, 2), variant=UZUN_VARIANT, starter=Color.WHITE, last_throw=True)
    waiting = with_rule.play("1/off")
    assert waiting.phase is Phase.ROLL and waiting.position.turn is Color.BLACK
    drawn = waiting.roll(1, 1).play("13/off 13/off")
    assert drawn.result is not None and drawn.result.winner is None and drawn.result.points == 0
    lost = UzunPosition.build({1: 1}, {6: 2})
    game = Game(lost, Phase.PLAY, dice=(1, 2), variant=UZUN_VARIANT, starter=Color.WHITE, last_throw=True)
    after = game.play("1/off").roll(2, 1).play(game.play("1/off").roll(2, 1).legal_plays()[0])
    assert after.result is not None and after.result.winner is Color.WHITE


def test_generator_agrees_with_the_reference_on_5000_random_positions() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 5000:
        position = random_uzun_position(rng)
        if position.winner() is not None:
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        first_turn_double = position.mover[24] == 15 and dice[0] == dice[1] and dice[0] in (3, 4, 6)
        expected = reference_results(position, dice, UZUN, head_limit=2 if first_turn_double else 1)
        assert set(legal_results(position, dice)) == expected, (position.to_json(), dice)
        checked += 1


def test_self_play_of_1000_games_keeps_every_invariant() -> None:
    rng = random.Random(1000)
    for _ in range(1000):
        game = Game.new(variant=UZUN_VARIANT)
        while game.phase is Phase.OPENING:
            game = game.opening_throw(rng.randint(1, 6), rng.randint(1, 6))
        while game.phase is not Phase.OVER:
            game = game.roll(rng.randint(1, 6), rng.randint(1, 6))
            plays = game.legal_plays()
            game = game.play(rng.choice(plays).steps)
            position = game.position
            assert position.status() == Status.VALID
            assert sum(position.white) == sum(position.black) == 15
            assert len(game.turns) < 2000
        assert game.result is not None and game.result.points in (1, 2)
