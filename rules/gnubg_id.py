"""GNU Backgammon's Position ID, both directions.

The Position ID is 80 bits in base64 (14 characters): for the side *not* on
roll and then the side on roll, points 1..24 and the bar in that side's own
numbering, each as that many 1-bits followed by a 0-bit; borne-off checkers
are implied (15 minus those on the board). Bits are packed least significant
first. The Match ID lives in :mod:`rules.match_id`.
"""

from __future__ import annotations

import base64
import binascii

from rules.errors import InvalidNotation
from rules.position import CHECKERS, OFF, SLOTS, Color, Counts, Position

POSITION_ID_LENGTH = 14
_POSITION_BYTES = 10


def pack_bits(bits: list[int], size: int) -> bytes:
    """Bits, least significant first within each byte, into ``size`` bytes."""
    data = bytearray(size)
    for index, bit in enumerate(bits):
        if bit:
            data[index >> 3] |= 1 << (index & 7)
    return bytes(data)


def unpack_bits(data: bytes) -> list[int]:
    return [(byte >> bit) & 1 for byte in data for bit in range(8)]


def b64_decode(text: str, size: int, what: str) -> bytes:
    """Decode GNU Backgammon's unpadded base64, or raise InvalidNotation."""
    cleaned = text.strip()
    padded = cleaned + "=" * (-len(cleaned) % 4)
    try:
        data = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise InvalidNotation(f"{what} {text!r} is not base64: {error}") from None
    if len(data) != size:
        raise InvalidNotation(f"{what} {text!r} must decode to {size} bytes, got {len(data)}")
    return data


def encode_position_id(position: Position) -> str:
    """The Position ID as GNU Backgammon shows it with ``position.turn`` on roll."""
    bits: list[int] = []
    for counts in (position.opponent, position.mover):
        for slot in range(1, SLOTS):  # points 1..24, then the bar (25)
            bits.extend([1] * counts[slot])
            bits.append(0)
    return base64.b64encode(pack_bits(bits, _POSITION_BYTES)).decode("ascii")[:POSITION_ID_LENGTH]


def decode_position_id(position_id: str, turn: Color = Color.WHITE) -> Position:
    """The position a Position ID describes, with ``turn`` the side on roll.

    Raises InvalidNotation for text that is no Position ID and InvalidPosition
    for an ID of an impossible board (more than 15 checkers, shared points).
    """
    text = position_id.strip()
    if len(text) != POSITION_ID_LENGTH:
        raise InvalidNotation(f"a Position ID has {POSITION_ID_LENGTH} characters, {text!r} has {len(text)}")
    bits = unpack_bits(b64_decode(text, _POSITION_BYTES, "Position ID"))
    sides: list[Counts] = []
    index = 0
    for _ in range(2):
        counts = [0] * SLOTS
        for slot in range(1, SLOTS):
            while index < len(bits) and bits[index]:
                counts[slot] += 1
                index += 1
            if index >= len(bits):
                raise InvalidNotation(f"Position ID {text!r} runs out of bits")
            index += 1  # the 0-bit that ends this point
        on_board = sum(counts)
        if on_board > CHECKERS:
            raise InvalidNotation(f"Position ID {text!r} holds {on_board} checkers for one side")
        counts[OFF] = CHECKERS - on_board
        sides.append(tuple(counts))
    if any(bits[index:]):
        raise InvalidNotation(f"Position ID {text!r} has stray bits after the board")
    opponent, mover = sides
    if turn is Color.WHITE:
        return Position(mover, opponent, turn)
    return Position(opponent, mover, turn)
