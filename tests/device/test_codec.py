"""The wire format and the pure codec: round trips, resynchronisation, splits, fuzzing."""

from __future__ import annotations

import typing
import zlib

import pytest
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
from tests.device.helpers import legacy_frame, second_protocol_frame

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


def _packets(frame: bytes) -> list[bytes]:
    """A frame's packets, each with its leading zero."""
    return [b"\x00" + block for block in frame[1:-1].split(b"\x00")]


@settings(deadline=None)
@given(messages, st.integers(1, 7))
def test_a_frame_is_short_packets_between_zeros(message: Message, seq: int) -> None:
    frame = codec.encode(message, seq)
    assert frame[0] == frame[-1] == 0
    assert all(0 < len(block) <= wire.PACKET_MAX for block in frame[1:-1].split(b"\x00"))


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


def test_lost_added_and_damaged_bytes_cost_only_their_packets() -> None:
    packets = _packets(codec.encode(SAMPLE[2], 1))  # the long one: a board snapshot
    spoilt = []
    for i, packet in enumerate(packets):  # two packets in three spoilt, a third each way
        if i % 3 == 0:
            packet = packet[:4] + packet[5:]  # a byte lost
        elif i % 3 == 1:
            packet = packet[:3] + bytes((packet[3] % 255 + 1,)) + packet[4:]  # a byte damaged
        spoilt.append(packet)
    spoilt[4] = spoilt[4][:2] + b"\x17" + spoilt[4][2:]  # and a byte added
    assert Decoder().feed(b"".join(spoilt) + b"\x00") == [SAMPLE[2]]


@settings(max_examples=100, deadline=None)
@given(messages, st.data())
def test_a_frame_decodes_from_any_of_its_packets_that_hold_its_length(message: Message, data: st.DataObject) -> None:
    packets = _packets(codec.encode(message, 5))
    size = len(codec.encode_payload(message)) + wire.HEADER_SIZE + wire.CRC_SIZE
    need = -(-size // wire.ROW) + 1  # rows that hold at least n bytes, even with the short last row among them
    kept = sorted(data.draw(st.sets(st.integers(0, len(packets) - 1), min_size=need, max_size=need)))
    assert Decoder().feed(b"".join(packets[i] for i in kept) + b"\x00") == [message]


def test_a_frame_beyond_repair_is_an_error_and_the_next_one_survives() -> None:
    first, second = (codec.encode(m, i + 1) for i, m in enumerate(SAMPLE[:2]))
    out = Decoder().feed(b"".join(_packets(first)[-3:]) + b"\x00" + second)  # too few packets, then a good frame
    assert out == [FrameError(ErrorCode.DAMAGED), SAMPLE[1]]


def test_the_packets_of_a_repeat_join_those_kept_from_the_first_try() -> None:
    packets = _packets(wire.encode_frame(wire.SNAPSHOT, codec.encode_payload(SAMPLE[2]), 1, wire.FLAG_RELIABLE, 2))
    half = len(packets) // 5  # each try brings a fifth of the packets: too few alone
    decoder = Decoder()
    first = decoder.feed(b"".join(packets[:half]) + b"\x00" + packets[-1] + b"\x00")  # its last row: a NAK is due
    assert first == [FrameError(ErrorCode.DAMAGED)]
    assert decoder.feed(b"".join(packets[half : 2 * half]) + b"\x00") == [SAMPLE[2]]


def test_rows_of_a_later_frame_never_complete_an_earlier_one() -> None:
    # Two presses alike but for their sequence numbers share every row but the first and the CRC's;
    # the first frame's partial rows must not be completed by the third's when the second came between.
    payload = codec.encode_payload(SAMPLE[1])
    first, second, third = (
        _packets(wire.encode_frame(wire.BUTTON, payload, seq, wire.FLAG_RELIABLE, tag))
        for seq, tag in ((5, 1), (6, 2), (7, 1))
    )
    stream = first[0] + first[3] + first[4] + b"".join(second) + third[1] + third[2] + b"\x00"  # rows 1, 2 alike
    frames = [f for f in Decoder().feed_frames(stream) if not isinstance(f, FrameError)]
    assert [f.seq for f in frames] == [6]


def test_a_repeat_of_a_decoded_frame_is_delivered_again() -> None:
    frame = codec.encode(SAMPLE[0], 4)  # the link acknowledges it again: its first ACK may have been lost
    assert Decoder().feed(frame + frame) == [SAMPLE[0], SAMPLE[0]]


def test_a_corrupted_delimiter_costs_nothing() -> None:
    frames = [bytearray(codec.encode(m, i + 1)) for i, m in enumerate(SAMPLE)]
    frames[0][-1] = 0x33  # the closing zero of the first frame: its last packet and the next one's first are lost
    frames[1][9] = 0x34  # a zero between two packets
    frames[3][0] = 0x44  # the opening zero of the fourth
    assert Decoder().feed(b"".join(bytes(f) for f in frames)) == SAMPLE


def test_a_truncated_frame_does_not_swallow_the_next() -> None:
    first, second = codec.encode(SAMPLE[0], 1), codec.encode(SAMPLE[1], 2)
    out = Decoder().feed(first[:40] + second)  # lost its tail
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


def test_another_frame_version_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    good = codec.encode(StopClocks(), 1)
    assert Decoder().feed(good) == [StopClocks()]
    monkeypatch.setattr(wire, "FRAME_VERSION", wire.FRAME_VERSION + 1)
    newer = codec.encode(StopClocks(), 1)
    monkeypatch.undo()
    assert Decoder().feed(newer) == [FrameError(ErrorCode.VERSION)]


@pytest.mark.parametrize("frame", [legacy_frame(wire.HEARTBEAT, b"\x01\x00\x00\x00"), second_protocol_frame()])
def test_a_device_of_an_older_protocol_is_told_apart(frame: bytes) -> None:
    [error] = Decoder().feed(frame)
    assert error == FrameError(ErrorCode.VERSION) and "new firmware" in error.text


def test_fields_that_do_not_fit_are_refused_when_encoding() -> None:
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
