"""Matches and money sessions: score, Crawford, resignations, game value, the end (docs/rules.md section 2)."""

from __future__ import annotations

import datetime
from dataclasses import replace

import pytest

from rules.cube import Cube, CubeRule, CubeRules
from rules.cubeful import (
    AcceptResignation,
    CubefulGame,
    Double,
    Drop,
    Ending,
    Move,
    OpeningThrow,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from rules.errors import IllegalAction, IllegalCubeAction
from rules.game import Game, Phase, ResultKind
from rules.match import Match, MatchEnd, MatchHeader, TimeOut
from rules.notation import parse_play
from rules.position import Color, Position
from rules.selfplay import random_match

WHITE, BLACK = Color.WHITE, Color.BLACK


def to_black_roll(match: Match) -> Match:
    """The opening 3-1 for White, played; Black is to roll."""
    match = match.apply(OpeningThrow(3, 1))
    return replace(match, games=match.games[:-1] + (match.game.play("8/5 6/5"),))


def black_wins_a_drop(match: Match) -> Match:
    """Black doubles at once and White drops: Black wins the cube's value."""
    match = to_black_roll(match)
    return match.apply(Double(BLACK)).apply(Drop(WHITE))


def white_wins_a_drop(match: Match) -> Match:
    match = match.apply(OpeningThrow(1, 3))
    game = match.game.play("8/5 6/5")
    return replace(match, games=match.games[:-1] + (game,)).apply(Double(WHITE)).apply(Drop(BLACK))


def black_resigns(match: Match) -> Match:
    """Black resigns a single game on its first turn: White wins the cube's value."""
    return to_black_roll(match).apply(Resign(BLACK, ResultKind.SINGLE)).apply(AcceptResignation(WHITE))


def test_a_new_match_is_ready_for_its_opening_throw() -> None:
    match = Match.new(5, MatchHeader(("Ayşe", "Mehmet")))
    assert match.score == (0, 0) and not match.over and match.length == 5
    assert match.game.game.phase is Phase.OPENING
    assert (match.away(WHITE), match.away(BLACK)) == (5, 5)
    assert not match.is_crawford and not match.post_crawford


def test_the_score_adds_each_games_points_and_a_new_game_starts() -> None:
    match = black_wins_a_drop(Match.new(5))
    assert match.score == (0, 1)
    assert len(match.games) == 2 and match.games[0].over and not match.game.actions
    assert match.scores_before() == [(0, 0), (0, 1)]


def test_the_crawford_game_follows_the_first_time_a_player_is_one_point_short() -> None:
    match = Match.new(3)
    match = black_wins_a_drop(match)
    assert not match.is_crawford
    match = black_wins_a_drop(match)
    assert match.score == (0, 2) and match.is_crawford
    crawford_game = to_black_roll(match)
    with pytest.raises(IllegalCubeAction) as error:
        crawford_game.apply(Double(BLACK))
    assert error.value.rule is CubeRule.CRAWFORD
    with pytest.raises(IllegalCubeAction):
        crawford_game.game.double(BLACK)
    # Black resigns the Crawford game; White trails 1-2 and the cube is back: post-Crawford.
    after = black_resigns(match)
    assert after.score == (1, 2) and not after.is_crawford and after.post_crawford
    assert to_black_roll(after).game.may_double(BLACK)


def test_there_is_only_one_crawford_game() -> None:
    match = black_wins_a_drop(black_wins_a_drop(Match.new(3)))
    assert match.is_crawford
    match = black_resigns(match)  # White wins the Crawford game: 1-2
    assert match.post_crawford
    match = white_wins_a_drop(match)  # 2-2: both are one point short, and no second Crawford game
    assert match.score == (2, 2) and not match.is_crawford and match.post_crawford


def test_a_jump_to_one_point_short_makes_the_crawford_game_too() -> None:
    match = to_black_roll(Match.new(5))
    match = match.apply(Double(BLACK)).apply(Take(WHITE)).apply(Roll((6, 5)))
    match = match.apply(Move(parse_play(match.game.position, (6, 5), "24/13")))
    match = match.apply(Double(WHITE)).apply(Take(BLACK)).apply(Roll((2, 1)))
    match = match.apply(Move(parse_play(match.game.position, (2, 1), "6/4 6/5")))
    match = match.apply(Double(BLACK)).apply(Drop(WHITE))
    assert match.score == (0, 4) and match.is_crawford


def test_without_the_crawford_rule_there_is_no_crawford_game() -> None:
    match = black_wins_a_drop(black_wins_a_drop(Match.new(3, crawford=False)))
    assert match.score == (0, 2) and not match.is_crawford
    assert to_black_roll(match).game.may_double(BLACK)


def test_a_one_point_match_has_no_crawford_game_and_ends_at_once() -> None:
    match = black_wins_a_drop(Match.new(1))
    assert match.over and match.result is not None
    assert (match.result.winner, match.result.end) == (BLACK, MatchEnd.POINTS)
    assert len(match.games) == 1


def test_the_match_ends_when_a_player_reaches_the_length() -> None:
    match = Match.new(2, crawford=False)
    match = black_wins_a_drop(match)
    match = to_black_roll(match).apply(Double(BLACK)).apply(Drop(WHITE))
    assert match.over and match.score == (0, 2) and match.away(BLACK) == 0
    with pytest.raises(IllegalAction, match="the match is over"):
        match.apply(OpeningThrow(3, 1))


def test_a_match_lost_on_time_is_an_ending_of_its_own() -> None:
    match = to_black_roll(Match.new(7)).lose_on_time(BLACK)
    assert match.over and match.result is not None
    assert (match.result.winner, match.result.end) == (WHITE, MatchEnd.TIME)
    assert match.score == (0, 0) and not match.game.over
    assert match.actions()[-1] == TimeOut(BLACK)
    with pytest.raises(IllegalAction):
        match.lose_on_time(WHITE)
    with pytest.raises(IllegalAction, match="money session"):
        Match.money_session().lose_on_time(WHITE)


def test_a_money_session_keeps_running_totals_and_never_ends() -> None:
    session = Match.money_session(MatchHeader(("Ali", "Veli")))
    assert session.is_money and session.rules.cube.money
    for _ in range(3):
        session = black_wins_a_drop(session)
    session = white_wins_a_drop(session)
    assert session.score == (1, 3) and not session.over
    assert session.net(BLACK) == 2 and session.net(WHITE) == -2
    assert session.away(WHITE) == 0


def test_a_match_is_the_fold_of_its_journal() -> None:
    played = random_match(Match.new(5, cube=CubeRules(raccoons=True)), seed=12)
    assert played.over
    assert Match.replay(Match.new(5, cube=CubeRules(raccoons=True)), played.actions()) == played


def test_resignation_levels_are_worth_their_points_times_the_cube() -> None:
    for level, points in ((ResultKind.SINGLE, 2), (ResultKind.GAMMON, 4), (ResultKind.BACKGAMMON, 6)):
        game = CubefulGame.new().opening_throw(3, 1).play("8/5 6/5").double(BLACK).take(WHITE)
        game = game.roll(6, 5).play("24/13").resign(WHITE, level).accept_resignation(BLACK)
        assert game.outcome is not None
        assert (game.outcome.winner, game.outcome.kind, game.outcome.points) == (BLACK, level, points)
        assert game.outcome.ending is Ending.RESIGNED and game.game.phase is Phase.OVER


def test_a_declined_resignation_lets_play_go_on() -> None:
    game = CubefulGame.new().opening_throw(3, 1).play("8/5 6/5").resign(BLACK, ResultKind.GAMMON)
    assert game.to_act is WHITE and game.resignation == Resign(BLACK, ResultKind.GAMMON)
    with pytest.raises(IllegalAction, match="waiting for White's answer"):
        game.roll(6, 5)
    with pytest.raises(IllegalAction, match="resignation is waiting"):
        game.double(BLACK)
    game = game.reject_resignation(WHITE)
    assert game.resignation is None and not game.over
    assert game.roll(6, 5).rolled


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ([Resign(WHITE, ResultKind.SINGLE)], "only on its own turn"),
        ([Roll((6, 5)), Resign(BLACK, ResultKind.SINGLE)], "has rolled"),
        ([AcceptResignation(WHITE)], "no resignation"),
        ([Resign(BLACK, ResultKind.SINGLE), AcceptResignation(BLACK)], "the opponent answers"),
        ([Resign(BLACK, ResultKind.SINGLE), RejectResignation(BLACK)], "the opponent answers"),
    ],
)
def test_illegal_resignations_are_refused(actions: list[object], message: str) -> None:
    game = CubefulGame.new().opening_throw(3, 1).play("8/5 6/5")
    with pytest.raises(IllegalAction, match=message):
        for action in actions:
            game = game.apply(action)  # type: ignore[arg-type]


def test_no_resignation_before_the_opening_throw_or_after_the_end() -> None:
    with pytest.raises(IllegalAction, match="before the opening throw"):
        CubefulGame.new().resign(WHITE)
    over = CubefulGame.new().opening_throw(3, 1).play("8/5 6/5").resign(BLACK).accept_resignation(WHITE)
    with pytest.raises(IllegalAction, match="over"):
        over.resign(BLACK)


def bear_off_game(
    white: dict[int, int], black: dict[int, int], rules: CubeRules, cube: Cube | None = None
) -> CubefulGame:
    """A game from a chosen board with White to roll."""
    start = Position.build(white, black, WHITE)
    return CubefulGame(replace(Game.new(start=start), phase=Phase.ROLL), cube or Cube(rules))


@pytest.mark.parametrize(
    ("rules", "owner", "points"),
    [
        (CubeRules(), None, 2),  # match: a gammon is a gammon
        (CubeRules(money=True), None, 1),  # money with Jacoby, cube never turned: counts single
        (CubeRules(money=True, jacoby=False), None, 2),
        (CubeRules(money=True), BLACK, 4),  # the cube was turned (Black owns it at 2): gammon counts
    ],
)
def test_a_gammon_borne_off_counts_by_the_jacoby_rule(rules: CubeRules, owner: Color | None, points: int) -> None:
    value = 2 if owner else 1
    game = bear_off_game({1: 1}, {12: 15}, rules, Cube(rules, value=value, owner=owner))
    game = game.roll(2, 1).play("1/off")
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.kind, game.outcome.ending) == (WHITE, ResultKind.GAMMON, Ending.BORNE_OFF)
    assert game.outcome.points == points
    assert game.game.result is not None and game.game.result.cube == value


def test_a_backgammon_is_three_times_the_cube() -> None:
    game = bear_off_game({1: 1}, {22: 1, 12: 14}, CubeRules(), Cube(value=4, owner=WHITE)).roll(2, 1).play("1/off")
    assert game.outcome is not None and game.outcome.kind is ResultKind.BACKGAMMON and game.outcome.points == 12


def test_the_header_identifies_the_match_and_refuses_bad_names() -> None:
    header = MatchHeader(("Ayşe", "Mehmet"), event="Kulüp", date=datetime.date(2024, 5, 17))
    same = MatchHeader(("Ayşe", "Mehmet"), event="Kulüp", date=datetime.date(2024, 5, 17))
    assert header.record_id == same.record_id != MatchHeader(("Ayşe", "Can")).record_id
    with pytest.raises(ValueError):
        MatchHeader(("Ayşe", ""))
    with pytest.raises(ValueError, match="one line"):
        MatchHeader(("Ayşe", "Mehmet"), event="two\nlines")
    with pytest.raises(ValueError):
        Match.new(-1)
