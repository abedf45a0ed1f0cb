"""XGIDs: gnubg's reading of them, round trips, bad input, and gnubg live.

The golden vectors in ``golden/xgids.json`` were collected from GNU
Backgammon 1.07 (``gnubg -t -q -p``): after ``set player 0 human``, ``set
player 1 human``, ``set automatic game off`` and ``set automatic roll off``,
each case ran ``new session`` and ``set xgid <xgid>`` and recorded
``gnubg.positionid()`` and ``gnubg.matchid()``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidNotation, InvalidPosition, RulesError
from rules.gnubg_id import encode_position_id
from rules.match_id import GameState, MatchInfo, Resignation, encode_match_id
from rules.position import Color, Position
from rules.xgid import decode_xgid, encode_xgid, gnubg_xgid_view
from tests.rules.random_positions import random_position
from tests.rules.test_match_id import run_gnubg_commands

GOLDEN = json.loads((Path(__file__).parent / "golden" / "xgids.json").read_text())["vectors"]
START = "-b----E-C---eE---c-e----B-"


def xgid(*fields: object, board: str = START) -> str:
    return "XGID=" + ":".join(str(field) for field in (board, *fields))


def gnubg_ids(text: str) -> tuple[str, str]:
    """The Position ID and Match ID gnubg shows after ``set xgid text``, by our code."""
    position, info = gnubg_xgid_view(*decode_xgid(text))
    return encode_position_id(position), encode_match_id(info)


# -- golden vectors -----------------------------------------------------------


@pytest.mark.parametrize("vector", GOLDEN, ids=[v["note"] for v in GOLDEN])
def test_golden_vector_reads_as_gnubg_reads_it(vector: dict[str, Any]) -> None:
    assert gnubg_ids(vector["xgid"]) == (vector["position_id"], vector["match_id"])
    position, info = decode_xgid(vector["xgid"])
    if info.on_roll is Color.BLACK and not info.double_offered:
        assert gnubg_xgid_view(position, info) == (position, info), "bottom on roll: no relabelling"
    again = encode_xgid(position, info)
    assert decode_xgid(again) == (position, info)
    assert (again == vector["xgid"]) is vector["canonical"]


def test_golden_vectors_cover_the_fields() -> None:
    decoded = [decode_xgid(v["xgid"])[1] for v in GOLDEN]
    assert len(decoded) >= 30
    assert {info.on_roll for info in decoded} == {Color.WHITE, Color.BLACK}
    assert {info.cube_owner for info in decoded} == {None, Color.WHITE, Color.BLACK}
    assert {info.is_money for info in decoded} == {True, False}
    assert {info.double_offered for info in decoded} == {True, False}
    assert {info.dice is None for info in decoded} == {True, False}
    assert {info.crawford for info in decoded} == {True, False}
    assert {info.jacoby for info in decoded if info.is_money} == {True, False}


# -- orientation and field meanings ---------------------------------------------


def test_bottom_uppercase_player_is_black() -> None:
    board = "a-----D-C---eE---c-e----BA"  # a White checker and a Black checker on the bar
    position, info = decode_xgid(xgid(1, 1, 1, 52, 3, 1, 0, 7, 10, board=board))
    assert position.black == (0, 0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1)
    assert position.white == (1, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    assert position.turn is Color.BLACK
    assert info == MatchInfo(
        cube_value=2,
        cube_owner=Color.BLACK,
        on_roll=Color.BLACK,
        turn=Color.BLACK,
        dice=(5, 2),
        match_length=7,
        score=(1, 3),
    )


def test_top_player_on_roll_and_cube() -> None:
    position, info = decode_xgid(xgid(2, -1, -1, "00", 0, 0, 0, 0, 10))
    assert position == Position.start(Color.WHITE)
    assert (info.on_roll, info.turn, info.cube_owner, info.cube_value) == (Color.WHITE,) * 3 + (4,)


@pytest.mark.parametrize("dice", ["D", "B", "R"])
def test_pending_doubles_are_double_offered(dice: str) -> None:
    _, info = decode_xgid(xgid(1, 0, -1, dice, 0, 0, 0, 0, 10))
    assert info.double_offered and info.dice is None
    assert (info.on_roll, info.turn) == (Color.WHITE, Color.BLACK)


def test_money_rules_field() -> None:
    for field, jacoby in ((0, False), (1, True), (2, False), (3, True)):
        _, info = decode_xgid(xgid(0, 0, 1, "00", 0, 0, field, 0, 10))
        assert info.jacoby is jacoby and not info.crawford
    _, match = decode_xgid(xgid(0, 0, 1, "00", 6, 2, 1, 7, 10))
    assert match.crawford and not match.jacoby


def test_prefix_and_whitespace_are_optional() -> None:
    expected = decode_xgid(xgid(0, 0, 1, 52, 0, 0, 0, 0, 10))
    assert decode_xgid(f"{START}:0:0:1:52:0:0:0:0:10") == expected
    assert decode_xgid(f"  xgid={START}:0:0:1:52:0:0:0:0:10\n") == expected


def test_maximum_cube_is_written_as_asked() -> None:
    position, info = decode_xgid(xgid(0, 0, 1, "00", 0, 0, 0, 5, 8))
    assert encode_xgid(position, info).endswith(":10")
    assert encode_xgid(position, info, max_cube_log2=8).endswith(":5:8")


# -- round trips --------------------------------------------------------------


@st.composite
def xgid_states(draw: st.DrawFn) -> tuple[Position, MatchInfo]:
    """Any position and match state an XGID can carry."""
    on_roll = draw(st.sampled_from(Color))
    position = random_position(random.Random(draw(st.integers(0, 2**32)))).with_turn(on_roll)
    length = draw(st.one_of(st.just(0), st.integers(1, 64)))
    top = length if length else 10_000
    score = (draw(st.integers(0, top)), draw(st.integers(0, top)))
    crawford = length >= 2 and length - 1 in score and draw(st.booleans())
    double = not crawford and draw(st.booleans())
    return position, MatchInfo(
        cube_value=1 if crawford else 1 << draw(st.integers(0, 12)),
        cube_owner=draw(st.sampled_from([None, Color.WHITE, Color.BLACK])),
        on_roll=on_roll,
        crawford=crawford,
        turn=on_roll.other if double else on_roll,
        double_offered=double,
        dice=None if double else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))),
        match_length=length,
        score=score,
        jacoby=not length and draw(st.booleans()),
    )


@given(xgid_states())
def test_decode_inverts_encode(state: tuple[Position, MatchInfo]) -> None:
    text = encode_xgid(*state)
    assert decode_xgid(text) == state
    assert encode_xgid(*decode_xgid(text)) == text


# -- malformed input ----------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "10 fields"),
        (f"XGID={START}:0:0:1:00:0:0:0:7", "10 fields"),
        (f"XGID={START}:0:0:1:00:0:0:0:7:10:1", "10 fields"),
        (xgid(0, 0, 1, "00", 0, 0, 0, 0, 10, board=START[:-1]), "26 characters"),
        (xgid(0, 0, 1, "00", 0, 0, 0, 0, 10, board=START[:-1] + "P"), "not '-', A-O"),
        (xgid(0, 0, 1, "00", 0, 0, 0, 0, 10, board=START[:-1] + "1"), "not '-', A-O"),
        (xgid(0, 0, 1, "00", 0, 0, 0, 0, 10, board="A" + START[1:]), "top player's bar"),
        (xgid(0, 0, 1, "00", 0, 0, 0, 0, 10, board=START[:-1] + "a"), "bottom player's bar"),
        (xgid(0, 0, 1, "00", 0, 0, 0, 0, 10, board=START[:-1] + "A"), "16 checkers"),
        (xgid("x", 0, 1, "00", 0, 0, 0, 0, 10), "cube field 'x'"),
        (xgid(0, 0, 1, "00", "1.0", 0, 0, 7, 10), "bottom score field"),
        (xgid(0, 0, 1, "00", 0, 0, 0, "", 10), "match length field"),
        (xgid(0, 2, 1, "00", 0, 0, 0, 0, 10), "cube position 2"),
        (xgid(0, 0, 0, "00", 0, 0, 0, 0, 10), "turn 0"),
        (xgid(0, 0, 1, "07", 0, 0, 0, 0, 10), "dice '07'"),
        (xgid(0, 0, 1, "0", 0, 0, 0, 0, 10), "dice '0'"),
        (xgid(0, 0, 1, "521", 0, 0, 0, 0, 10), "dice '521'"),
        (xgid(0, 0, 1, "DD", 0, 0, 0, 0, 10), "dice 'DD'"),
        (xgid(-1, 0, 1, "00", 0, 0, 0, 0, 10), "cube field is negative"),
        (xgid(0, 0, 1, "00", -2, 0, 0, 0, 10), "bottom score field is negative"),
        (xgid(0, 0, 1, "00", 0, 0, 0, 0, -1), "maximum cube field is negative"),
        (xgid(13, 0, 1, "00", 0, 0, 0, 0, 10), "above gnubg's 4096"),
        (xgid(0, 0, 1, "00", 0, 0, 2, 7, 10), "0 or 1"),
        (xgid(0, 0, 1, "00", 0, 0, 4, 0, 10), "0 to 3"),
        (xgid(0, 0, 1, "00", 0, 0, 1, 7, 10), "Crawford game needs"),
        (xgid(0, 0, 1, "00", 0, 0, 1, 1, 10), "Crawford game needs"),
        (xgid(1, 1, 1, "00", 2, 0, 1, 3, 10), "cube stays at 1"),
        (xgid(0, 0, 1, "D", 2, 0, 1, 3, 10), "cube stays at 1"),
        (xgid(0, 0, 1, "00", 0, 0, 0, 65, 10), "match length 65"),
        (xgid(0, 0, 1, "00", 9, 0, 0, 7, 10), "passes the match length"),
        (xgid(0, 0, 1, "00", "9" * 5000, 0, 0, 7, 10), "5000 digits: out of range"),
    ],
)
def test_malformed_xgids_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidNotation, match=message):
        decode_xgid(text)


def test_board_with_both_sides_borne_off_is_an_invalid_position() -> None:
    with pytest.raises(InvalidPosition):
        decode_xgid(xgid(0, 0, 1, "00", 0, 0, 0, 0, 10, board="-" * 26))


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(game_state=GameState.OVER), "game in play"),
        (dict(resignation=Resignation.SINGLE, turn=Color.WHITE), "resignation"),
        (dict(turn=Color.WHITE), "decides next"),
        (dict(on_roll=Color.WHITE, turn=Color.WHITE), "to move"),
    ],
)
def test_states_an_xgid_cannot_carry_are_refused(change: dict[str, Any], message: str) -> None:
    info = dataclasses.replace(MatchInfo(on_roll=Color.BLACK, turn=Color.BLACK), **change)
    with pytest.raises(RulesError, match=message):
        encode_xgid(Position.start(Color.BLACK), info)


def test_impossible_boards_are_not_encoded() -> None:
    start = Position.start(Color.BLACK)
    crowded = Position.unchecked((0, *start.white[1:25], 1), start.black, Color.BLACK)
    with pytest.raises(InvalidPosition):
        encode_xgid(crowded, MatchInfo(on_roll=Color.BLACK, turn=Color.BLACK))


# -- live against gnubg -------------------------------------------------------


def random_xgid(rng: random.Random) -> str:
    """A random XGID gnubg can read, sometimes without prefix or with the low die first."""
    on_roll = rng.choice(list(Color))
    length = rng.choice([0, 0, 1, 3, 5, 7, 9, 13, 25])
    if length:
        score = (rng.randrange(length), rng.randrange(length))
        if rng.random() < 0.3:
            score = (length - 1, score[1])
    else:
        score = (rng.randrange(30), rng.randrange(30))
    crawford = length >= 2 and length - 1 in score and rng.random() < 0.5
    double = not crawford and rng.random() < 0.2
    owner = None if crawford else rng.choice([None, Color.WHITE, Color.BLACK])
    info = MatchInfo(
        cube_value=1 if crawford else 1 << rng.randint(1, 6) if owner is not None else rng.choice([1, 2]),
        cube_owner=owner,
        on_roll=on_roll,
        crawford=crawford,
        turn=on_roll.other if double else on_roll,
        double_offered=double,
        dice=None if double or rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6)),
        match_length=length,
        score=score,
        jacoby=not length and rng.random() < 0.5,
    )
    text = encode_xgid(random_position(rng).with_turn(on_roll), info)
    if rng.random() < 0.2:
        text = text.removeprefix("XGID=")
    if info.dice and rng.random() < 0.3:
        text = text.replace(":%d%d:" % info.dice, ":%d%d:" % info.dice[::-1], 1)
    return text


@pytest.mark.usefixtures("gnubg_available")
def test_xgids_read_as_live_gnubg_reads_them(tmp_path: Path) -> None:
    rng = random.Random(1107)
    texts = [random_xgid(rng) for _ in range(80)]
    answers = run_gnubg_commands([["new session", "set xgid " + text] for text in texts], tmp_path)
    assert len(answers) == len(texts)
    mismatches = [
        f"{text}: ours {gnubg_ids(text)} gnubg {answer}"
        for text, answer in zip(texts, answers)
        if gnubg_ids(text) != (answer.get("position_id"), answer.get("match_id"))
    ]
    assert not mismatches, f"{len(mismatches)} disagreements:\n" + "\n".join(mismatches[:5])
    decoded = [decode_xgid(text)[1] for text in texts]
    assert sum(info.on_roll is Color.WHITE for info in decoded) >= 20
    assert sum(info.double_offered for info in decoded) >= 5
