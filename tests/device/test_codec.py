"""The wire format and the pure codec: round trips, resynchronisation, splits, fuzzing."""

from __future__ import annotations

import typing
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st

from device import codec, wire
from device.codec import Decoder, FrameError
from device.messages import (
    BoardSnapshot,
    ButtonPressed,
    CheckerLifted,
    CheckerPlaced,
    ClockState,
    ConfigureBoard,
    DelayMode,
    DeviceError,
    DeviceKind,
    DisplayText,
    ErrorCode,
    FlagFell,
    Heartbeat,
    Hello,
    HelloRequest,
    Message,
    SensorHealth,
    SetTime,
    Side,
    SideCounts,
    SnapshotReason,
    StartClock,
    StopClocks,
    TimeReport,
)
from tests.device.helpers import legacy_frame

u32 = st.integers(0, 0xFFFFFFFF)
sides = st.sampled_from(list(Side))
counts = st.builds(SideCounts, st.tuples(*[st.integers(0, 15)] * 24), st.integers(0, 15), st.integers(0, 15))
text = st.text(max_size=20)
messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(
        Hello,
        st.sampled_from(list(DeviceKind)),
        st.integers(0, 255),
        st.integers(0, 255),
        text,
        text,
        st.integers(0, 0xFFFF),
    ),
    st.builds(HelloRequest, st.integers(0, 0xFFFF)),
    st.builds(Heartbeat, u32),
    st.builds(DeviceError, st.sampled_from(list(ErrorCode)), st.integers(0, 255), text),
    st.builds(SetTime, sides, u32, u32, st.sampled_from(list(DelayMode))),
    st.builds(StartClock, sides),
    st.just(StopClocks()),
    st.builds(DisplayText, text),
    st.builds(ButtonPressed, sides, st.booleans(), st.none() | sides, u32, u32),
    st.builds(FlagFell, sides, u32, u32),
    st.builds(TimeReport, st.sampled_from(list(ClockState)), st.none() | sides, u32, u32, u32),
    st.builds(ConfigureBoard, st.integers(0, 0xFFFF)),
    st.builds(BoardSnapshot, st.integers(0, 0xFFFF), st.sampled_from(list(SnapshotReason)), counts, counts),
    st.builds(CheckerLifted, st.integers(0, 25), sides),
    st.builds(CheckerPlaced, st.integers(0, 25), sides),
    st.builds(SensorHealth, st.booleans(), st.lists(st.integers(0, 25), max_size=10).map(tuple)),
)


def test_crc_is_the_standard_crc32() -> None:
    data = b"123456789"
    assert wire.crc32(data) == zlib.crc32(data) == 0xCBF43926
    assert wire.crc32_portable(data) == 0xCBF43926  # the firmware's fallback agrees


@settings(deadline=None)
@given(messages, st.integers(1, 7))
def test_a_frame_holds_no_zero_between_its_delimiters(message: Message, seq: int) -> None:
    frame = codec.encode(message, seq)
    assert frame[0] == frame[-2] == frame[-1] == 0 and 0 not in frame[1:-2]


@settings(deadline=None)
@given(messages)
def test_every_message_round_trips(message: Message) -> None:
    assert codec.decode_all(codec.encode(message, seq=7)) == [message]


def test_frame_split_at_every_boundary_decodes_the_same() -> None:
    stream = b"".join(codec.encode(m, i + 1) for i, m in enumerate(SAMPLE))
    for cut in range(len(stream) + 1):
        decoder = Decoder()
        assert decoder.feed(stream[:cut]) + decoder.feed(stream[cut:]) == SAMPLE, cut
    # and one byte at a time
    decoder = Decoder()
    assert [m for b in stream for m in decoder.feed(bytes((b,)))] == SAMPLE


SAMPLE: list[Message] = [
    SetTime(Side.WHITE, 14 * 60_000, 12_000),
    ButtonPressed(Side.BLACK, True, Side.WHITE, 100, 200),
    BoardSnapshot(9, SnapshotReason.SETTLED, SideCounts((1,) * 15 + (0,) * 9, 0, 0), SideCounts.empty()),
    CheckerLifted(13, Side.WHITE),
]


def test_garbage_between_frames_costs_nothing_but_itself() -> None:
    frames = [codec.encode(m, i + 1) for i, m in enumerate(SAMPLE)]
    noisy = b"\xff\x13garbage" + frames[0] + b"\x01\x02\x03" + frames[1] + b"\x00\x00\x7f" + frames[2] + frames[3]
    out = Decoder().feed(noisy)
    assert [m for m in out if not isinstance(m, FrameError)] == SAMPLE
    assert all(isinstance(m, FrameError) for m in out if m not in SAMPLE)


def test_damaged_bytes_are_repaired_in_place() -> None:
    frame = bytearray(codec.encode(SAMPLE[2], 1))  # the long one: a board snapshot
    for index in range(4, len(frame) - 1, 9):  # one byte in nine, substitute copy included
        frame[index] ^= 0x5A
    assert Decoder().feed(bytes(frame)) == [SAMPLE[2]]


def test_a_frame_beyond_repair_is_an_error_and_the_next_one_survives() -> None:
    first, second = (bytearray(codec.encode(m, 1)) for m in SAMPLE[:2])
    for index in range(4, len(first) - 1, 2):  # every other byte: more than the parity can repair
        first[index] = first[index] % 255 + 1  # another byte, never a zero
    out = Decoder().feed(bytes(first) + bytes(second))
    assert len(out) == 2 and isinstance(out[0], FrameError) and out[1] == SAMPLE[1]


def test_a_corrupted_delimiter_costs_nothing() -> None:
    frames = [bytearray(codec.encode(m, i + 1)) for i, m in enumerate(SAMPLE)]
    frames[0][-2] = 0x33  # the first closing zero of the first frame: a stray byte joins its end
    frames[1][-1] = 0x34  # the second closing zero of the second: a stray byte between frames
    frames[3][0] = 0x44  # the opening zero of the fourth: a stray byte joins its start
    assert Decoder().feed(b"".join(bytes(f) for f in frames)) == SAMPLE


def test_a_truncated_frame_does_not_swallow_the_next() -> None:
    first, second = codec.encode(SAMPLE[0], 1), codec.encode(SAMPLE[1], 2)
    out = Decoder().feed(first[:-4] + second)  # lost its tail and the closing zero
    assert out[-1] == SAMPLE[1]


def test_runaway_garbage_is_dropped_and_reported() -> None:
    out = Decoder().feed(b"\x01" * 1000 + b"\x00" + codec.encode(SAMPLE[0], 1))
    assert out == [FrameError(ErrorCode.OVERFLOW), SAMPLE[0]]


def test_unknown_type_and_short_payload_are_declared_errors() -> None:
    unknown = wire.encode_frame(0x7E, b"\x01\x02", 1, wire.FLAG_RELIABLE)
    short = wire.encode_frame(wire.SET_TIME, b"\x00\x01", 2, wire.FLAG_RELIABLE)
    bad_enum = wire.encode_frame(wire.START, b"\x05", 3, wire.FLAG_RELIABLE)
    assert Decoder().feed(unknown + short + bad_enum) == [
        FrameError(ErrorCode.UNKNOWN_TYPE, 0x7E),
        FrameError(ErrorCode.PAYLOAD, wire.SET_TIME),
        FrameError(ErrorCode.PAYLOAD, wire.START),
    ]


def test_newer_minor_versions_may_append_fields() -> None:
    payload = codec.encode_payload(SAMPLE[1]) + b"\x09\x09\x09"
    assert Decoder().feed(wire.encode_frame(wire.BUTTON, payload, 1, wire.FLAG_RELIABLE)) == [SAMPLE[1]]


def test_another_frame_version_is_refused() -> None:
    newer = bytes(((wire.FRAME_VERSION + 1) << 4, 1, wire.STOP))
    good = codec.encode(StopClocks(), 1)
    assert Decoder().feed(good) == [StopClocks()]
    body = newer + wire.crc32(newer).to_bytes(4, "little")
    word = wire.rs_encode(body, wire.parity_for(len(body)))
    frame = b"\x00" + bytes((0xEE,)) * 3 + bytes(b or 0xEE for b in word) + b"\x00"
    assert Decoder().feed(frame) == [FrameError(ErrorCode.VERSION)]


def test_a_device_of_the_first_protocol_is_told_apart() -> None:
    [error] = Decoder().feed(legacy_frame(wire.HEARTBEAT, b"\x01\x00\x00\x00"))
    assert error == FrameError(ErrorCode.VERSION) and "new firmware" in error.text


def test_fields_that_do_not_fit_are_refused_when_encoding() -> None:
    import pytest

    with pytest.raises(ValueError, match="does not fit"):
        codec.encode(SetTime(Side.WHITE, -1, 0))
    with pytest.raises(ValueError, match="does not fit"):
        codec.encode(DisplayText("x" * 100))


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_give_only_declared_messages_or_errors(data: bytes) -> None:
    out = Decoder().feed(data)
    for item in out:
        assert isinstance(item, (FrameError, *MESSAGE_TYPES))


MESSAGE_TYPES = typing.get_args(Message)


@settings(max_examples=200, deadline=None)
@given(st.lists(messages, min_size=1, max_size=5), st.lists(st.binary(max_size=30), min_size=6, max_size=6), st.data())
def test_valid_frames_survive_any_garbage_between_them(
    sent: list[Message], garbage: list[bytes], data: st.DataObject
) -> None:
    stream = b"".join(garbage[i] + codec.encode(m, i + 1) for i, m in enumerate(sent)) + garbage[-1]
    pieces = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
    decoder = Decoder()
    out: list[Message | FrameError] = []
    for start, end in zip([0, *pieces], [*pieces, len(stream)]):
        out += decoder.feed(stream[start:end])
    # The leading zero of each frame closes any garbage, so every message comes through, and
    # garbage never passes for a message (it would need a matching CRC-32).
    assert [m for m in out if not isinstance(m, FrameError)] == sent


@settings(max_examples=200, deadline=None)
@given(messages, st.integers(0, 200), st.integers(1, 255))
def test_a_corrupted_byte_never_yields_a_wrong_message(message: Message, where: int, flip: int) -> None:
    frame = bytearray(codec.encode(message, 3))
    index = 1 + where % (len(frame) - 2)
    frame[index] ^= flip
    for item in Decoder().feed(bytes(frame)):
        assert isinstance(item, FrameError) or item == message
