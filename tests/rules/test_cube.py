"""The doubling cube (docs/rules.md section 2): every rule, and the error that names it."""

from __future__ import annotations

import pytest

from rules.cube import Cube, CubeRule, CubeRules
from rules.cubeful import CubefulGame, Ending
from rules.errors import IllegalAction, IllegalCubeAction, RulesError
from rules.game import Phase, ResultKind
from rules.position import Color
from rules.registry import find_variant

WHITE, BLACK = Color.WHITE, Color.BLACK
MONEY = CubeRules(money=True)


def black_to_roll(rules: CubeRules = CubeRules(), crawford: bool = False) -> CubefulGame:
    """White has played the opening 3-1; Black is to roll."""
    return CubefulGame.new(rules, crawford=crawford).opening_throw(3, 1).play("8/5 6/5")


def test_the_cube_starts_centred_at_one() -> None:
    cube = Cube()
    assert (cube.value, cube.owner, cube.centred, cube.turned) == (1, None, True, False)


def test_either_side_may_double_a_centred_cube_on_its_turn_before_rolling() -> None:
    game = black_to_roll()
    assert game.may_double(BLACK)
    assert not game.may_double(WHITE)
    doubled = game.double(BLACK)
    assert doubled.cube.offered_by is BLACK and doubled.cube.value == 1
    assert doubled.to_act is WHITE


def test_a_take_doubles_the_value_and_gives_the_taker_the_cube() -> None:
    game = black_to_roll().double(BLACK).take(WHITE)
    assert (game.cube.value, game.cube.owner, game.cube.offered_by) == (2, WHITE, None)
    assert game.to_act is BLACK  # the doubler goes on to roll
    assert game.roll(6, 5).rolled


def test_only_the_owner_may_redouble() -> None:
    game = black_to_roll().double(BLACK).take(WHITE).roll(6, 5).play("24/13")
    assert game.position.turn is WHITE and game.may_double(WHITE)
    redoubled = game.double(WHITE).take(BLACK)
    assert (redoubled.cube.value, redoubled.cube.owner) == (4, BLACK)
    with pytest.raises(IllegalCubeAction) as error:
        redoubled.roll(2, 1).play("6/4 6/5").roll(6, 5).play("13/2").double(WHITE)
    assert error.value.rule is CubeRule.NOT_OWNER
    assert "Black owns the cube" in str(error.value)


def test_a_drop_ends_the_game_and_the_dropper_pays_the_value_before_the_double() -> None:
    game = black_to_roll().double(BLACK).take(WHITE).roll(6, 5).play("24/13").double(WHITE).drop(BLACK)
    assert game.over and game.game.phase is Phase.OVER
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.ending, game.outcome.points, game.outcome.cube) == (
        WHITE,
        Ending.DROPPED,
        2,
        2,
    )


@pytest.mark.parametrize(
    ("make", "rule"),
    [
        (lambda: black_to_roll().double(WHITE), CubeRule.NOT_YOUR_TURN),
        (lambda: black_to_roll().roll(6, 5).double(BLACK), CubeRule.AFTER_ROLL),
        (lambda: black_to_roll(crawford=True).double(BLACK), CubeRule.CRAWFORD),
        (lambda: black_to_roll().double(BLACK).double(BLACK), CubeRule.OFFER_PENDING),
        (lambda: black_to_roll().take(WHITE), CubeRule.NO_OFFER),
        (lambda: black_to_roll().drop(WHITE), CubeRule.NO_OFFER),
        (lambda: black_to_roll().double(BLACK).take(BLACK), CubeRule.NOT_DOUBLED),
        (lambda: black_to_roll().double(BLACK).drop(BLACK), CubeRule.NOT_DOUBLED),
        (lambda: black_to_roll().double(BLACK).beaver(WHITE), CubeRule.MONEY_ONLY),
        (lambda: black_to_roll(CubeRules(money=True, beavers=False)).double(BLACK).beaver(WHITE), CubeRule.BEAVERS_OFF),
        (lambda: black_to_roll(MONEY).double(BLACK).beaver(WHITE).raccoon(BLACK), CubeRule.RACCOONS_OFF),
        (
            lambda: black_to_roll(CubeRules(money=True, raccoons=True)).double(BLACK).take(WHITE).raccoon(BLACK),
            CubeRule.NO_BEAVER,
        ),
        (
            lambda: black_to_roll(CubeRules(money=True, raccoons=True)).double(BLACK).beaver(WHITE).raccoon(WHITE),
            CubeRule.NO_BEAVER,
        ),
    ],
)
def test_every_illegal_cube_action_names_its_rule(make: object, rule: CubeRule) -> None:
    with pytest.raises(IllegalCubeAction) as error:
        make()  # type: ignore[operator]
    assert error.value.rule is rule
    assert rule.value in str(error.value)
    assert isinstance(error.value, IllegalAction) and isinstance(error.value, RulesError)


def test_no_double_before_the_opening_throw_nor_after_the_end() -> None:
    with pytest.raises(IllegalCubeAction, match="before the opening throw") as early:
        CubefulGame.new().double(WHITE)
    assert early.value.rule is CubeRule.NOT_YOUR_TURN
    over = black_to_roll().double(BLACK).drop(WHITE)
    with pytest.raises(IllegalCubeAction) as late:
        over.double(WHITE)
    assert late.value.rule is CubeRule.GAME_OVER
    with pytest.raises(IllegalAction, match="over"):
        over.roll(3, 1)


def test_a_variant_without_a_cube_refuses_every_double() -> None:
    uzun = CubefulGame.new(variant=find_variant("uzun")).opening_throw(3, 1)
    assert uzun.cube.in_use is False and not uzun.may_double(uzun.position.turn)
    with pytest.raises(IllegalCubeAction) as error:
        Cube(in_use=False).double(WHITE, to_move=WHITE, rolled=False)
    assert error.value.rule is CubeRule.NO_CUBE


def test_the_cube_stops_at_64_by_default() -> None:
    cube = Cube(value=64, owner=WHITE)
    with pytest.raises(IllegalCubeAction) as error:
        cube.double(WHITE, to_move=WHITE, rolled=False)
    assert error.value.rule is CubeRule.MAXIMUM and "64" in str(error.value)
    assert Cube(value=32, owner=WHITE).double(WHITE, to_move=WHITE, rolled=False).take(BLACK).value == 64


def test_the_limit_is_an_option_and_may_be_lifted() -> None:
    unlimited = Cube(CubeRules(max_value=None), value=64, owner=WHITE)
    assert unlimited.double(WHITE, to_move=WHITE, rolled=False).take(BLACK).value == 128
    small = Cube(CubeRules(max_value=8), value=8, owner=WHITE)
    assert not small.may_double(WHITE, to_move=WHITE, rolled=False)
    with pytest.raises(ValueError):
        CubeRules(max_value=48)


def test_a_beaver_redoubles_at_once_and_the_beaverer_keeps_the_cube() -> None:
    game = black_to_roll(MONEY).double(BLACK).beaver(WHITE)
    assert (game.cube.value, game.cube.owner, game.cube.offered_by) == (4, WHITE, None)
    assert game.to_act is BLACK
    assert game.roll(3, 3).cube.value == 4


def test_a_beaver_may_not_pass_the_limit() -> None:
    cube = Cube(CubeRules(money=True, max_value=64), value=32, owner=BLACK, offered_by=BLACK)
    with pytest.raises(IllegalCubeAction) as error:
        cube.beaver(WHITE)
    assert error.value.rule is CubeRule.MAXIMUM


def test_a_raccoon_is_the_doublers_answer_to_a_beaver_and_only_at_once() -> None:
    rules = CubeRules(money=True, raccoons=True)
    game = black_to_roll(rules).double(BLACK).beaver(WHITE).raccoon(BLACK)
    assert (game.cube.value, game.cube.owner) == (8, BLACK)
    late = black_to_roll(rules).double(BLACK).beaver(WHITE).roll(6, 5)
    with pytest.raises(IllegalCubeAction) as error:
        late.raccoon(BLACK)
    assert error.value.rule is CubeRule.NO_BEAVER


def test_an_opening_tie_doubles_the_money_stake_and_the_cube_stays_centred() -> None:
    game = CubefulGame.new(MONEY).opening_throw(4, 4)
    assert (game.cube.value, game.cube.owner, game.cube.automatic) == (2, None, 1)
    game = game.opening_throw(5, 5)  # the limit is 1 by default: no second automatic double
    assert game.cube.value == 2
    assert game.opening_throw(3, 1).game.phase is Phase.PLAY


def test_the_automatic_double_limit_is_an_option() -> None:
    game = CubefulGame.new(CubeRules(money=True, automatic_doubles=3))
    for die in (1, 2, 3, 4):
        game = game.opening_throw(die, die)
    assert game.cube.value == 8
    none = CubefulGame.new(CubeRules(money=True, automatic_doubles=0)).opening_throw(2, 2)
    assert none.cube.value == 1
    assert Cube(MONEY, automatic=1).automatic_refusal() is not None


def test_no_automatic_doubles_in_a_match() -> None:
    game = CubefulGame.new(CubeRules()).opening_throw(6, 6)
    assert game.cube.value == 1
    refusal = Cube(CubeRules()).automatic_refusal()
    assert refusal is not None and refusal.rule is CubeRule.MONEY_ONLY
    with pytest.raises(IllegalCubeAction):
        Cube(CubeRules()).automatic_double()


def test_after_an_automatic_double_either_side_may_still_double() -> None:
    game = CubefulGame.new(MONEY).opening_throw(2, 2).opening_throw(3, 1).play("8/5 6/5")
    assert game.may_double(BLACK)
    assert game.double(BLACK).take(WHITE).cube.value == 4


@pytest.mark.parametrize(
    ("rules", "owner", "value", "points"),
    [
        (MONEY, None, 1, {ResultKind.SINGLE: 1, ResultKind.GAMMON: 1, ResultKind.BACKGAMMON: 1}),
        (MONEY, None, 2, {ResultKind.SINGLE: 2, ResultKind.GAMMON: 2, ResultKind.BACKGAMMON: 2}),
        (MONEY, WHITE, 2, {ResultKind.SINGLE: 2, ResultKind.GAMMON: 4, ResultKind.BACKGAMMON: 6}),
        (
            CubeRules(money=True, jacoby=False),
            None,
            1,
            {ResultKind.SINGLE: 1, ResultKind.GAMMON: 2, ResultKind.BACKGAMMON: 3},
        ),
        (CubeRules(), None, 1, {ResultKind.SINGLE: 1, ResultKind.GAMMON: 2, ResultKind.BACKGAMMON: 3}),
        (CubeRules(), BLACK, 4, {ResultKind.SINGLE: 4, ResultKind.GAMMON: 8, ResultKind.BACKGAMMON: 12}),
    ],
)
def test_game_value_is_the_kind_times_the_cube_with_the_jacoby_rule(
    rules: CubeRules, owner: Color | None, value: int, points: dict[ResultKind, int]
) -> None:
    cube = Cube(rules, value=value, owner=owner)
    assert {kind: cube.points(kind) for kind in ResultKind} == points
    assert cube.jacoby_applies == (rules.money and rules.jacoby and owner is None)


def test_the_jacoby_rule_ends_when_the_cube_is_turned_by_a_beaver() -> None:
    game = black_to_roll(MONEY).double(BLACK).beaver(WHITE)
    assert not game.cube.jacoby_applies
    assert game.cube.points(ResultKind.GAMMON) == 8


def test_the_game_waits_for_the_answer_to_a_double() -> None:
    game = black_to_roll().double(BLACK)
    with pytest.raises(IllegalAction, match="waiting for White's answer"):
        game.roll(6, 5)
    with pytest.raises(IllegalAction, match="waiting"):
        game.resign(BLACK)


def test_cube_rules_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        CubeRules(automatic_doubles=-1)
    with pytest.raises(ValueError):
        CubeRules(max_value=0)
