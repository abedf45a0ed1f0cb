"""Chouette: box, captain, a cube per member, the line's rotation and the ledger (docs/rules.md section 2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.chouette import Chouette, ChouetteGame, CubeMove, MemberCube
from rules.cube import CubeRule, CubeRules
from rules.cubeful import Move, OpeningThrow, Roll
from rules.errors import IllegalAction, IllegalCubeAction
from rules.game import Game, Phase
from rules.notation import parse_play
from rules.position import Color, Position

PLAYERS = ("Box", "Cap", "Deniz", "Ece")


def team_to_roll(session: Chouette) -> Chouette:
    """The box (White) wins the opening 3-1 and plays it; the team is to roll."""
    session = session.apply(OpeningThrow(3, 1))
    return session.apply(Move(parse_play(session.game.game.position, (3, 1), "8/5 6/5")))


def box_to_roll(session: Chouette) -> Chouette:
    session = team_to_roll(session).apply(Roll((6, 5)))
    return session.apply(Move(parse_play(session.game.game.position, (6, 5), "24/13")))


def cube(member: str, move: CubeMove, by: str) -> MemberCube:
    return MemberCube(member, move, by)


def test_a_chouette_has_three_to_eight_players_with_distinct_names() -> None:
    for count in (3, 8):
        assert len(Chouette.new(tuple(f"P{i}" for i in range(count))).players) == count
    for count in (2, 9):
        with pytest.raises(ValueError, match="3 to 8"):
            Chouette.new(tuple(f"P{i}" for i in range(count)))
    with pytest.raises(ValueError, match="distinct"):
        Chouette.new(("A", "B", "A"))


def test_the_first_player_is_the_box_and_the_second_the_captain() -> None:
    session = Chouette.new(PLAYERS)
    assert (session.box, session.captain, session.line) == ("Box", "Cap", ("Cap", "Deniz", "Ece"))
    assert session.game.members == ("Cap", "Deniz", "Ece") and session.game.captain == "Cap"
    assert session.ledger == (0, 0, 0, 0)


def test_each_member_doubles_the_box_on_its_own_cube_and_the_box_answers_each() -> None:
    session = team_to_roll(Chouette.new(PLAYERS))
    session = session.apply(cube("Cap", CubeMove.DOUBLE, "Cap")).apply(cube("Deniz", CubeMove.DOUBLE, "Deniz"))
    with pytest.raises(IllegalAction, match="waiting for an answer"):
        session.apply(Roll((6, 5)))
    session = session.apply(cube("Cap", CubeMove.TAKE, "Box")).apply(cube("Deniz", CubeMove.DROP, "Box"))
    game = session.game
    assert (game.cube_of("Cap").value, game.cube_of("Cap").owner) == (2, Color.WHITE)  # the box took it
    assert game.cube_of("Ece").value == 1
    assert game.settled == (None, 1, None)  # the box paid Deniz one point; Deniz is out
    assert not game.over
    with pytest.raises(IllegalAction, match="out of this game"):
        session.apply(cube("Deniz", CubeMove.DOUBLE, "Deniz"))


def test_the_box_doubles_members_on_its_turn_and_each_answers_alone() -> None:
    session = box_to_roll(Chouette.new(PLAYERS))
    for member in ("Cap", "Deniz", "Ece"):
        session = session.apply(cube(member, CubeMove.DOUBLE, "Box"))
    session = session.apply(cube("Cap", CubeMove.DROP, "Cap"))
    session = session.apply(cube("Deniz", CubeMove.TAKE, "Deniz")).apply(cube("Ece", CubeMove.TAKE, "Ece"))
    game = session.game
    assert game.settled == (-1, None, None)
    assert game.acting_captain == "Deniz"  # the captain dropped: the next member still in moves
    assert [game.cube_of(m).value for m in ("Deniz", "Ece")] == [2, 2]


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (MemberCube("Cap", CubeMove.DOUBLE, "Box"), CubeRule.NOT_YOUR_TURN),  # the team's turn
        (MemberCube("Cap", CubeMove.TAKE, "Cap"), CubeRule.NO_OFFER),
    ],
)
def test_cube_rules_hold_on_each_members_cube(action: MemberCube, rule: CubeRule) -> None:
    session = team_to_roll(Chouette.new(PLAYERS))
    with pytest.raises(IllegalCubeAction) as error:
        session.apply(action)
    assert error.value.rule is rule


def test_only_the_box_and_the_member_act_on_a_members_cube() -> None:
    session = team_to_roll(Chouette.new(PLAYERS))
    with pytest.raises(IllegalAction, match="has no say"):
        session.apply(cube("Cap", CubeMove.DOUBLE, "Deniz"))
    with pytest.raises(IllegalAction, match="not on the team"):
        session.apply(cube("Box", CubeMove.DOUBLE, "Box"))
    doubled = session.apply(cube("Cap", CubeMove.DOUBLE, "Cap"))
    with pytest.raises(IllegalCubeAction) as error:
        doubled.apply(cube("Cap", CubeMove.TAKE, "Cap"))
    assert error.value.rule is CubeRule.NOT_DOUBLED


def test_beavers_and_raccoons_work_cube_by_cube() -> None:
    session = team_to_roll(Chouette.new(PLAYERS, CubeRules(money=True, raccoons=True)))
    session = session.apply(cube("Ece", CubeMove.DOUBLE, "Ece")).apply(cube("Ece", CubeMove.BEAVER, "Box"))
    session = session.apply(cube("Ece", CubeMove.RACCOON, "Ece"))
    assert (session.game.cube_of("Ece").value, session.game.cube_of("Ece").owner) == (8, Color.BLACK)
    assert session.game.cube_of("Cap").value == 1


def test_an_opening_tie_doubles_every_cube_automatically() -> None:
    session = Chouette.new(PLAYERS).apply(OpeningThrow(4, 4))
    assert [session.game.cube_of(m).value for m in ("Cap", "Deniz", "Ece")] == [2, 2, 2]


def test_captain_wins_captain_becomes_box_and_the_old_box_goes_to_the_end() -> None:
    session = team_to_roll(Chouette.new(PLAYERS))
    for member in ("Cap", "Deniz", "Ece"):
        session = session.apply(cube(member, CubeMove.DOUBLE, member))
    for member in ("Cap", "Deniz", "Ece"):
        session = session.apply(cube(member, CubeMove.DROP, "Box"))
    assert len(session.finished) == 1 and session.finished[0].over
    assert (session.box, session.line) == ("Cap", ("Deniz", "Ece", "Box"))
    assert session.ledger == (-3, 1, 1, 1)
    assert sum(session.ledger) == 0
    assert session.game.box == "Cap" and session.game.members == ("Deniz", "Ece", "Box")


def test_box_wins_box_stays_and_the_captain_goes_to_the_end() -> None:
    session = box_to_roll(Chouette.new(PLAYERS))
    for member in ("Cap", "Deniz", "Ece"):
        session = session.apply(cube(member, CubeMove.DOUBLE, "Box"))
    session = session.apply(cube("Cap", CubeMove.DROP, "Cap")).apply(cube("Deniz", CubeMove.DROP, "Deniz"))
    session = session.apply(cube("Ece", CubeMove.DROP, "Ece"))
    assert (session.box, session.line) == ("Box", ("Deniz", "Ece", "Cap"))
    assert session.ledger == (3, -1, -1, -1)
    assert session.balance("Box") == 3


def test_a_game_played_out_settles_every_member_by_its_own_cube() -> None:
    """The team bears off its last checker: each member still in wins its cube's worth."""
    session = Chouette.new(PLAYERS)
    start = Position.build({6: 15}, {1: 1, 2: 5}, Color.BLACK)
    game = ChouetteGame(
        replace(Game.new(start=start), phase=Phase.ROLL),
        "Box",
        Color.WHITE,
        session.game.members,
        session.game.cubes,
        session.game.settled,
    )
    session = replace(session, game=game)
    session = session.apply(cube("Cap", CubeMove.DOUBLE, "Cap")).apply(cube("Cap", CubeMove.TAKE, "Box"))
    session = session.apply(cube("Deniz", CubeMove.DOUBLE, "Deniz")).apply(cube("Deniz", CubeMove.DROP, "Box"))
    session = session.apply(Roll((6, 6)))
    session = session.apply(Move(parse_play(session.game.game.position, (6, 6), "2/off(4)")))
    session = session.apply(Roll((5, 3)))
    session = session.apply(Move(parse_play(session.game.game.position, (5, 3), "6/1 6/3")))
    session = session.apply(Roll((2, 1)))
    session = session.apply(Move(parse_play(session.game.game.position, (2, 1), "2/off 1/off")))
    settled = session.finished[-1].settled
    # Cap: a gammon on a cube the box took at 2 -> 4; Deniz was paid 1 on its drop; Ece: cube never
    # turned, so the Jacoby rule counts the gammon single -> 1.
    assert settled == (4, 1, 1)
    assert session.ledger == (-6, 4, 1, 1)
    assert (session.box, session.line) == ("Cap", ("Deniz", "Ece", "Box"))
