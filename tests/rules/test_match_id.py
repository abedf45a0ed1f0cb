"""GNU Backgammon Match IDs: gnubg's own vectors, round trips, bad input, and gnubg live.

The golden vectors in ``golden/match_ids.json`` were collected from GNU
Backgammon 1.07 (``gnubg -t -q -p``): each lists the exact commands run after
``set player 0 human``, ``set player 1 human``, ``set automatic game off`` and
``set automatic roll off``, and the ``gnubg.matchid()`` shown afterwards.
"""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path
from typing import Any, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidMatchState, InvalidNotation
from rules.match_id import (
    MAX_MATCH_LENGTH,
    MAX_SCORE,
    GameState,
    MatchInfo,
    Resignation,
    decode_match_id,
    encode_match_id,
)
from rules.position import Color
from tests.rules.gnubg import oracle

GOLDEN = json.loads((Path(__file__).parent / "golden" / "match_ids.json").read_text())["vectors"]

GNUBG_SCRIPT = """
import json, os
import gnubg

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set automatic game off")
gnubg.command("set automatic roll off")
with open(os.environ["TAVLA_ORACLE_IN"]) as handle:
    cases = json.load(handle)
out = []
for case in cases:
    for command in case["commands"]:
        gnubg.command(command)
    try:
        out.append({"position_id": gnubg.positionid(), "match_id": gnubg.matchid()})
    except Exception as error:
        out.append({"error": str(error)})
with open(os.environ["TAVLA_ORACLE_OUT"], "w") as handle:
    json.dump(out, handle)
"""
"""Runs each case's gnubg commands and reports the Position ID and Match ID after them."""


def run_gnubg_commands(cases: list[list[str]], folder: Path) -> list[dict[str, str]]:
    """All cases in one gnubg process; shared with the XGID tests."""
    script = folder / "show_ids.py"
    script.write_text(GNUBG_SCRIPT)
    return oracle.run_script(script, [{"commands": commands} for commands in cases], timeout=120)


def info_from_json(data: dict[str, Any]) -> MatchInfo:
    def color(name: Optional[str]) -> Optional[Color]:
        return None if name is None else Color.parse(name)

    return MatchInfo(
        cube_value=data["cube_value"],
        cube_owner=color(data["cube_owner"]),
        on_roll=Color.parse(data["on_roll"]),
        crawford=data["crawford"],
        game_state=GameState[data["game_state"]],
        turn=Color.parse(data["turn"]),
        double_offered=data["double_offered"],
        resignation=Resignation[data["resignation"]],
        dice=None if data["dice"] is None else tuple(data["dice"]),
        match_length=data["match_length"],
        score=tuple(data["score"]),
        jacoby=data["jacoby"],
    )


def raw_match_id(
    cube_log2: int = 0,
    owner: int = 3,
    on_roll: int = 1,
    crawford: int = 0,
    state: int = 1,
    turn: int = 1,
    double: int = 0,
    resign: int = 0,
    die1: int = 0,
    die2: int = 0,
    length: int = 0,
    score0: int = 0,
    score1: int = 0,
    jacoby_off: int = 0,
    unused: int = 0,
) -> str:
    """A Match ID from raw field values, written independently of rules.match_id."""
    value = (
        cube_log2
        | owner << 4
        | on_roll << 6
        | crawford << 7
        | state << 8
        | turn << 11
        | double << 12
        | resign << 13
        | die1 << 15
        | die2 << 18
        | length << 21
        | score0 << 36
        | score1 << 51
        | jacoby_off << 66
        | unused << 67
    )
    return base64.b64encode(value.to_bytes(9, "little")).decode()


# -- golden vectors -----------------------------------------------------------


@pytest.mark.parametrize("vector", GOLDEN, ids=[v["note"] for v in GOLDEN])
def test_golden_vector_decodes_and_encodes(vector: dict[str, Any]) -> None:
    expected = info_from_json(vector["info"])
    assert decode_match_id(vector["match_id"]) == expected
    assert encode_match_id(expected) == vector["match_id"]


def test_golden_vectors_cover_the_fields() -> None:
    infos = [info_from_json(v["info"]) for v in GOLDEN]
    assert len(infos) >= 40
    assert {info.is_money for info in infos} == {True, False}
    assert {info.cube_owner for info in infos} == {None, Color.WHITE, Color.BLACK}
    assert {info.dice is None for info in infos} == {True, False}
    assert {info.double_offered for info in infos} == {True, False}
    assert set(Resignation) == {info.resignation for info in infos}
    assert {GameState.PLAYING, GameState.OVER, GameState.RESIGNED, GameState.DROPPED} <= {
        info.game_state for info in infos
    }
    assert {info.crawford for info in infos} == {True, False}
    assert {info.jacoby for info in infos if info.is_money} == {True, False}
    assert len({info.match_length for info in infos}) >= 10
    assert len({info.score for info in infos}) >= 15


def test_jacoby_bit_is_bit_66_set_when_the_rule_is_off() -> None:
    assert raw_match_id(jacoby_off=1).endswith("E")
    assert decode_match_id(raw_match_id(jacoby_off=1)).jacoby is False
    assert decode_match_id(raw_match_id(jacoby_off=0)).jacoby is True


# -- the value type -----------------------------------------------------------


def test_dice_are_kept_high_die_first() -> None:
    assert MatchInfo(dice=(2, 5)).dice == (5, 2)
    assert MatchInfo(dice=(2, 5)) == MatchInfo(dice=(5, 2))
    assert decode_match_id(raw_match_id(die1=2, die2=5)).dice == (5, 2)


def test_plain_ints_become_enums() -> None:
    info = MatchInfo(on_roll=1, turn=0, cube_owner=1, game_state=3, resignation=2)  # type: ignore[arg-type]
    assert info.on_roll is Color.BLACK and info.turn is Color.WHITE and info.cube_owner is Color.BLACK
    assert info.game_state is GameState.RESIGNED and info.resignation is Resignation.GAMMON


def test_a_finished_game_keeps_its_cube_beside_the_next_crawford_flag() -> None:
    info = MatchInfo(
        cube_value=2, cube_owner=Color.BLACK, crawford=True, game_state=GameState.OVER, match_length=7, score=(6, 3)
    )
    assert decode_match_id(encode_match_id(info)) == info


def test_mirrored_swaps_the_colours() -> None:
    info = MatchInfo(
        cube_value=4,
        cube_owner=Color.WHITE,
        on_roll=Color.BLACK,
        turn=Color.WHITE,
        double_offered=True,
        match_length=9,
        score=(2, 7),
    )
    mirrored = info.mirrored()
    assert mirrored.score == (7, 2) and mirrored.cube_owner is Color.BLACK
    assert mirrored.on_roll is Color.WHITE and mirrored.turn is Color.BLACK
    assert mirrored.mirrored() == info


@pytest.mark.parametrize(
    "fields, message",
    [
        (dict(cube_value=3), "power of two"),
        (dict(cube_value=8192), "power of two"),
        (dict(cube_value=0), "power of two"),
        (dict(dice=(0, 4)), "dice"),
        (dict(dice=(7, 1)), "dice"),
        (dict(dice=(3, 2, 1)), "not a pair"),
        (dict(double_offered=True, dice=(3, 1)), "before rolling"),
        (dict(match_length=65), "match length"),
        (dict(match_length=-1), "match length"),
        (dict(score=(-1, 0)), "score"),
        (dict(score=(0, MAX_SCORE + 1)), "score"),
        (dict(score=(1, 2, 3)), "pair"),
        (dict(match_length=7, score=(8, 3)), "passes the match length"),
        (dict(crawford=True), "Crawford"),
        (dict(crawford=True, match_length=7, score=(5, 5)), "Crawford"),
        (dict(crawford=True, match_length=1), "Crawford"),
        (dict(crawford=True, match_length=7, score=(6, 2), cube_value=2), "cube stays at 1"),
        (dict(crawford=True, match_length=7, score=(6, 2), double_offered=True), "cube stays at 1"),
    ],
)
def test_impossible_states_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidMatchState, match=message):
        MatchInfo(**fields)


# -- round trips --------------------------------------------------------------


@st.composite
def match_infos(draw: st.DrawFn) -> MatchInfo:
    """Any state MatchInfo accepts, over the whole range of every field."""
    length = draw(st.one_of(st.just(0), st.integers(1, MAX_MATCH_LENGTH)))
    top = length if length else MAX_SCORE
    score = (draw(st.integers(0, top)), draw(st.integers(0, top)))
    state = draw(st.sampled_from(GameState))
    cube_value = 1 << draw(st.integers(0, 12))
    double = draw(st.booleans())
    dice = None if double else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    crawford_possible = length >= 2 and length - 1 in score
    if state is GameState.PLAYING and (cube_value > 1 or double):
        crawford_possible = False
    return MatchInfo(
        cube_value=cube_value,
        cube_owner=draw(st.sampled_from([None, Color.WHITE, Color.BLACK])),
        on_roll=draw(st.sampled_from(Color)),
        crawford=crawford_possible and draw(st.booleans()),
        game_state=state,
        turn=draw(st.sampled_from(Color)),
        double_offered=double,
        resignation=draw(st.sampled_from(Resignation)),
        dice=dice,
        match_length=length,
        score=score,
        jacoby=draw(st.booleans()),
    )


@given(match_infos())
def test_decode_inverts_encode(info: MatchInfo) -> None:
    text = encode_match_id(info)
    assert len(text) == 12
    assert decode_match_id(text) == info


@given(st.binary(min_size=9, max_size=9))
def test_every_match_id_decodes_to_itself_or_is_refused(data: bytes) -> None:
    text = base64.b64encode(data).decode()
    try:
        info = decode_match_id(text)
    except InvalidNotation as error:
        assert text in str(error)
    else:
        assert encode_match_id(info) == text


# -- malformed input ----------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "12 characters"),
        ("cAkAAAAAAAA", "12 characters"),
        ("cAkAAAAAAAAAA", "12 characters"),
        ("cAkAAAAA!AAA", "not base64"),
        ("cAkAAA AAAAA", "not base64"),
        (raw_match_id(owner=2), "cube owner 2"),
        (raw_match_id(state=5), "game state 5"),
        (raw_match_id(state=7), "game state 7"),
        (raw_match_id(unused=1), "unused bits"),
        (raw_match_id(unused=16), "unused bits"),
        (raw_match_id(die1=7, die2=3), "dice"),
        (raw_match_id(die1=3, die2=7), "dice"),
        (raw_match_id(die1=0, die2=6), "dice"),
        (raw_match_id(cube_log2=13, owner=0), "power of two"),
        (raw_match_id(cube_log2=15), "power of two"),
        (raw_match_id(length=65), "match length"),
        (raw_match_id(length=5, score0=9, score1=2), "passes the match length"),
        (raw_match_id(crawford=1), "Crawford"),
        (raw_match_id(crawford=1, length=7), "Crawford"),
        (raw_match_id(crawford=1, length=1), "Crawford"),
        (raw_match_id(crawford=1, length=7, score0=6, cube_log2=1), "cube stays at 1"),
        (raw_match_id(double=1, turn=0, die1=3, die2=1), "before rolling"),
    ],
)
def test_malformed_match_ids_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidNotation, match=message):
        decode_match_id(text)


def test_surrounding_whitespace_is_ignored() -> None:
    assert decode_match_id("  cAkAAAAAAAAA\n") == decode_match_id("cAkAAAAAAAAA")


# -- live against gnubg -------------------------------------------------------


def random_plan(rng: random.Random) -> tuple[list[str], MatchInfo]:
    """gnubg commands that reach a random match state, and the state they reach."""
    length = rng.choice([0, 0, 0, 1, 3, 5, 7, 9, 11, 17, 25, 64])
    jacoby = length == 0 and rng.random() < 0.5
    commands = [f"set jacoby {'on' if jacoby else 'off'}", f"new match {length}" if length else "new session"]
    if length:
        score = (rng.randrange(length), rng.randrange(length))
        if rng.random() < 0.3:
            score = (length - 1, score[1]) if rng.random() < 0.5 else (score[0], length - 1)
    else:
        score = (rng.randrange(100), rng.randrange(100))
    commands.append(f"set score {score[0]} {score[1]}")
    crawford = length >= 2 and length - 1 in score and rng.random() < 0.6
    if crawford:
        commands.append("set crawford on")
    on_roll = rng.choice(list(Color))
    commands.append(f"set turn {int(on_roll)}")
    cube_value, owner = 1, None
    if not crawford and rng.random() < 0.6:
        owner = rng.choice([None, Color.WHITE, Color.BLACK])
        cube_value = 1 << rng.randint(1, 6) if owner is not None else rng.choice([1, 2])
        commands.append(f"set cube value {cube_value}")
        commands.append("set cube centre" if owner is None else f"set cube owner {int(owner)}")
    may_double = not crawford and owner in (None, on_roll) and (not length or cube_value < length - score[on_roll])
    actions = ["none", "roll", "roll", "resign", "roll+resign"] + ["double", "double+resign"] * may_double
    action = rng.choice(actions)
    turn, dice, double, resignation = on_roll, None, False, Resignation.NONE
    if "roll" in action:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        commands.append(f"set dice {dice[0]} {dice[1]}")
    if "double" in action:
        commands.append("double")
        double, turn = True, on_roll.other
    if "resign" in action:
        resignation = rng.choice([Resignation.SINGLE, Resignation.GAMMON, Resignation.BACKGAMMON])
        commands.append("resign " + {1: "normal", 2: "gammon", 3: "backgammon"}[resignation])
        turn = turn.other
    info = MatchInfo(
        cube_value=cube_value,
        cube_owner=owner,
        on_roll=on_roll,
        crawford=crawford,
        game_state=GameState.PLAYING,
        turn=turn,
        double_offered=double,
        resignation=resignation,
        dice=dice,
        match_length=length,
        score=score,
        jacoby=jacoby,
    )
    return commands, info


@pytest.mark.usefixtures("gnubg_available")
def test_match_ids_agree_with_live_gnubg(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    plans = [random_plan(rng) for _ in range(80)]
    answers = run_gnubg_commands([commands for commands, _ in plans], tmp_path)
    assert len(answers) == len(plans)
    mismatches = []
    for (commands, info), answer in zip(plans, answers):
        theirs = answer.get("match_id")
        if theirs is None or encode_match_id(info) != theirs or decode_match_id(theirs) != info:
            mismatches.append(f"{commands}: ours {encode_match_id(info)} gnubg {answer}")
    assert not mismatches, f"{len(mismatches)} disagreements:\n" + "\n".join(mismatches[:5])
    assert sum(info.double_offered for _, info in plans) >= 5
    assert sum(info.resignation is not Resignation.NONE for _, info in plans) >= 5
    assert sum(info.crawford for _, info in plans) >= 3
