"""The position type: construction, sanity flags, pips, JSON form."""

from __future__ import annotations

import json

import pytest

from rules.errors import InvalidPosition, RulesError
from rules.position import BAR, OFF, Color, Position, Status, check_sides, counts_from_mapping


def test_standard_start() -> None:
    start = Position.start()
    assert start.white == start.black
    assert start.white[24] == 2 and start.white[13] == 5 and start.white[8] == 3 and start.white[6] == 5
    assert start.pips(Color.WHITE) == start.pips(Color.BLACK) == 167
    assert start.status() == Status.VALID
    assert start.winner() is None


def test_positions_are_immutable_and_hashable() -> None:
    start = Position.start()
    assert hash(start) == hash(Position.start())
    assert {start: 1}[Position.start()] == 1
    with pytest.raises(AttributeError):
        start.turn = Color.BLACK  # type: ignore[misc]
    assert start != start.with_turn(Color.BLACK)
    assert start.same_board(start.with_turn(Color.BLACK))


def test_mover_and_opponent_follow_the_turn() -> None:
    position = Position.build({6: 15}, {13: 15}, "black")
    assert position.mover == position.black
    assert position.opponent == position.white


def test_build_fills_borne_off_checkers() -> None:
    position = Position.build({6: 5}, {BAR: 1, 1: 2})
    assert position.white[OFF] == 10
    assert position.black[OFF] == 12
    assert position.black[BAR] == 1


@pytest.mark.parametrize(
    ("white", "black", "flag"),
    [
        ({6: 16, OFF: 0}, {6: 15}, Status.TOO_MANY_WHITE),
        ({6: 14, OFF: 0}, {6: 15}, Status.TOO_FEW_WHITE),
        ({6: 15}, {6: 16, OFF: 0}, Status.TOO_MANY_BLACK),
        ({6: 15}, {6: 3, OFF: 0}, Status.TOO_FEW_BLACK),
        ({6: 15}, {19: 15}, Status.SHARED_POINT),
        ({OFF: 15}, {OFF: 15}, Status.BOTH_FINISHED),
        ({6: 16, 5: -1, OFF: 0}, {6: 15}, Status.NEGATIVE_COUNT),
    ],
)
def test_each_problem_is_its_own_flag(white: dict[int, int], black: dict[int, int], flag: Status) -> None:
    status = check_sides(counts_from_mapping(white), counts_from_mapping(black))
    assert flag in status
    with pytest.raises(InvalidPosition) as caught:
        Position(counts_from_mapping(white), counts_from_mapping(black))
    assert flag in caught.value.status


def test_every_problem_is_reported_at_once() -> None:
    white = counts_from_mapping({6: 14, OFF: 0})
    black = counts_from_mapping({19: 16, OFF: 0})
    status = check_sides(white, black)
    assert status == Status.TOO_FEW_WHITE | Status.TOO_MANY_BLACK | Status.SHARED_POINT
    with pytest.raises(InvalidPosition, match="fewer than 15.*more than 15.*same point.*6"):
        Position(white, black)


def test_wrong_shape_is_refused() -> None:
    assert check_sides((0,) * 25, (0,) * 26) == Status.BAD_SHAPE
    with pytest.raises(RulesError):
        Position((0,) * 25, (0,) * 26)


def test_unchecked_positions_can_be_diagnosed() -> None:
    broken = Position.unchecked(counts_from_mapping({6: 14, OFF: 0}), Position.start().black)
    assert broken.status() == Status.TOO_FEW_WHITE


def test_json_round_trip_and_documented_form() -> None:
    position = Position.build({BAR: 1, 6: 4, 1: 2}, {23: 2, 13: 5}, "black")
    data = position.to_json()
    assert data["turn"] == "black"
    assert data["white"] == {"points": [2, 0, 0, 0, 0, 4] + [0] * 18, "bar": 1, "off": 8}
    assert Position.from_json(json.loads(json.dumps(data))) == position


def test_json_off_may_be_left_out() -> None:
    data = {"white": {"points": [0] * 5 + [15] + [0] * 18}, "black": {"points": [0] * 12 + [15] + [0] * 11}}
    assert Position.from_json(data).white[6] == 15


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"white": {"points": [0] * 23}, "black": {"points": [0] * 24}},
        {"white": {"points": ["a"] * 24}, "black": {"points": [0] * 24}},
        {"white": {"points": [0] * 24, "off": 15}, "black": {"points": [0] * 24, "off": 15}},
        {"white": {"points": [1] * 24}, "black": {"points": [0] * 24}},
        {"turn": "green", "white": {"points": [0] * 24}, "black": {"points": [0] * 24}},
    ],
)
def test_bad_json_gives_a_clear_error(data: object) -> None:
    with pytest.raises(ValueError):
        Position.from_json(data)  # type: ignore[arg-type]


def test_mirroring_swaps_colours() -> None:
    position = Position.build({BAR: 1, 6: 4}, {24: 2, 13: 5}, "white")
    mirrored = position.mirrored()
    assert mirrored.white == position.black and mirrored.black == position.white
    assert mirrored.turn is Color.BLACK
    assert mirrored.mirrored() == position


def test_diagram_shows_both_sides() -> None:
    text = str(Position.start())
    assert "2O" in text and "5X" in text and "to move: white" in text


def test_colour_names_in_english_and_turkish() -> None:
    assert Color.parse("beyaz") is Color.WHITE
    assert Color.parse("Siyah") is Color.BLACK
    with pytest.raises(ValueError):
        Color.parse("red")
