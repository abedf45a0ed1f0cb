"""wire.py's hand-written Reed-Solomon against an independent implementation (reedsolo).

The protocol's code is written out in device/wire.py because the same file
runs on the boards under MicroPython; reedsolo, written by others, says
whether its parity and its restored bytes are the standard ones.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reedsolo import ReedSolomonError, RSCodec

from device import wire


def reference(parity: int) -> RSCodec:
    """The protocol's code in reedsolo's terms: GF(256) over 0x11D, alpha = 2, roots alpha^0 .. alpha^(parity - 1)."""
    return RSCodec(parity, nsize=wire.MAX_CODEWORD, fcr=0, prim=wire.FIELD_POLY, generator=2, c_exp=8)


@st.composite
def codes(draw: st.DrawFn) -> tuple[bytes, int]:
    """A message and a parity size that fit in one codeword."""
    parity = draw(st.integers(1, 200))
    message = draw(st.binary(min_size=1, max_size=wire.MAX_CODEWORD - parity))
    return message, parity


@st.composite
def frames(draw: st.DrawFn) -> tuple[bytes, int]:
    """A frame's body and CRC with the parity the protocol gives it."""
    size = draw(st.integers(wire.HEADER_SIZE + wire.CRC_SIZE, wire.MAX_BODY + wire.CRC_SIZE))
    return draw(st.binary(min_size=size, max_size=size)), wire.frame_parity(size)


@settings(max_examples=150, deadline=None)
@given(st.one_of(codes(), frames()))
def test_parity_is_the_standard_reed_solomon_parity(code: tuple[bytes, int]) -> None:
    message, parity = code
    assert wire.rs_encode(message, parity) == bytes(reference(parity).encode(message))


@settings(max_examples=150, deadline=None)
@given(st.one_of(codes(), frames()), st.data())
def test_erased_bytes_are_restored_as_the_reference_restores_them(code: tuple[bytes, int], data: st.DataObject) -> None:
    message, parity = code
    word = wire.rs_encode(message, parity)
    erasures = sorted(data.draw(st.sets(st.integers(0, len(word) - 1), max_size=parity)))
    damaged = bytearray(word)
    for i in erasures:
        damaged[i] = data.draw(st.integers(0, 255))  # whatever stands in a lost packet's place
    restored = wire.rs_correct(damaged, parity, erasures)
    decoded, whole, _ = reference(parity).decode(bytes(damaged), erase_pos=erasures, only_erasures=True)
    assert restored == bytes(whole) == word
    assert bytes(decoded) == message
    # The receiver restores only the message; the parity it never reads.
    partial = wire.rs_correct(damaged, parity, erasures, len(message))
    assert partial is not None and partial[: len(message)] == message


@settings(max_examples=60, deadline=None)
@given(codes(), st.data())
def test_more_erasures_than_parity_are_refused_by_both(code: tuple[bytes, int], data: st.DataObject) -> None:
    message, parity = code
    word = wire.rs_encode(message, parity)
    erasures = sorted(data.draw(st.sets(st.integers(0, len(word) - 1), min_size=parity + 1, max_size=len(word))))
    damaged = bytes(0 if i in erasures else byte for i, byte in enumerate(word))
    assert wire.rs_correct(damaged, parity, erasures) is None
    with pytest.raises(ReedSolomonError):
        reference(parity).decode(damaged, erase_pos=erasures, only_erasures=True)
