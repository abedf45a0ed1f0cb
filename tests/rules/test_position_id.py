"""GNU Backgammon Position IDs, both directions."""

from __future__ import annotations

import random

import pytest

from rules.errors import InvalidNotation, InvalidPosition
from rules.gnubg_id import decode_position_id, encode_position_id
from rules.position import BAR, Color, Position
from tests.rules.random_positions import random_position


def test_start_position_id() -> None:
    assert encode_position_id(Position.start()) == "4HPwATDgc/ABMA"
    assert decode_position_id("4HPwATDgc/ABMA") == Position.start()


def test_the_side_not_on_roll_is_encoded_first() -> None:
    """A White checker on the bar: the ID with White on roll differs from Black on roll."""
    position = Position.build({BAR: 1, 6: 14}, {13: 15})
    white_on_roll = encode_position_id(position)
    black_on_roll = encode_position_id(position.with_turn(Color.BLACK))
    assert white_on_roll != black_on_roll
    assert decode_position_id(black_on_roll, Color.BLACK) == position.with_turn(Color.BLACK)
    assert decode_position_id(white_on_roll, Color.WHITE) == position


def test_known_ids_from_gnubg() -> None:
    """IDs as GNU Backgammon 1.07 shows them (checked by hand with `set board`)."""
    closed = decode_position_id("sNsBAACwzQ4AAA")
    assert closed.status() == 0
    assert encode_position_id(closed) == "sNsBAACwzQ4AAA"


def test_random_round_trips() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        position = random_position(rng)
        assert decode_position_id(encode_position_id(position), position.turn) == position


@pytest.mark.parametrize("text", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB!A", "//////////////"])
def test_malformed_ids(text: str) -> None:
    with pytest.raises(InvalidNotation):
        decode_position_id(text)


def test_an_id_of_an_impossible_board() -> None:
    both_off = "AAAAAAAAAAAAAA"
    with pytest.raises(InvalidPosition):
        decode_position_id(both_off)
