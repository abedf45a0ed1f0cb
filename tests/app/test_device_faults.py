"""Device faults are the device's, never a player's irregularity: a late or repeated board reading, an impossible
clock time, a throw the camera cannot name a thrower for. Each is journaled as its own ruling and ignored."""

from __future__ import annotations

import queue
from dataclasses import replace

import pytest

from app.referee import events as ev
from app.referee.engine import Referee, Stage
from app.referee.i18n import render
from app.referee.rulings import ClockCommand, Level
from app.referee.setup import ClockSettings
from app.sim.world import snapshot_of
from app.table.devices import BoardReadings, device_event, drain, layout_counts
from app.table.dice import throw_event
from device import messages as dm
from device.driver import LinkState, LinkStatus
from rules.position import Color, Position
from tests.app.table import Table
from vision.verdict import ThrowObservation

W, B = Color.WHITE, Color.BLACK
SETTLED = dm.SnapshotReason.SETTLED


def snapshot(
    number: int, position: Position, reason: dm.SnapshotReason = dm.SnapshotReason.SETTLED
) -> dm.BoardSnapshot:
    """What the sensing board sends for ``position``, numbered ``number``."""
    seen = snapshot_of(position)
    return dm.BoardSnapshot(number, reason, *layout_counts(seen.white, seen.black, position))


def faults_only(referee: Referee) -> list[tuple[str, str]]:
    return [(fault.device, fault.fault) for fault in referee.device_faults]


# --------------------------------------------------------------- the sensing board


def test_a_late_board_reading_is_the_boards_fault_not_checkers_moved_out_of_turn() -> None:
    table = Table()
    table.open_with(3, 1)
    before = table.referee.position
    after = table.move((8, 5), (6, 5))
    table.press()
    assert table.referee.stage is Stage.ROLL and table.referee.mover is B
    late = replace(snapshot_of(before), late=True)  # the board before the play, sent again
    reaction = table.send(late)
    assert reaction.codes == ["device_fault_board_late"] and reaction.rulings[0].level is Level.WARNING
    assert reaction.rulings[0].params == {"device": "board"}
    assert table.referee.irregularities == () and faults_only(table.referee) == [("board", "board_late")]
    assert table.referee.board is not None and table.referee.board.same_board(after)  # the reading is ignored
    assert render(reaction.rulings[0]).startswith("Device fault: the sensing board sent an old reading again")
    assert render(reaction.rulings[0], "tr").startswith("Cihaz arızası: algılayıcı tahta")
    assert table.send(snapshot_of(before)).codes == ["board_moved_out_of_turn"]  # a real move still is


def test_board_readings_tell_late_and_repeated_numbers_from_new_ones_and_start_again_at_boot() -> None:
    readings = BoardReadings()
    position = Table().referee.position
    assert not readings.late(snapshot(7, position))
    assert readings.late(snapshot(7, position))  # the same reading twice
    assert readings.late(snapshot(6, position))  # an older one after a newer one
    assert not readings.late(snapshot(8, position))
    assert not readings.late(snapshot(1, position, dm.SnapshotReason.BOOT))  # the board restarted its numbers
    assert not readings.late(snapshot(2, position))
    readings.last = 0xFFFF
    assert not readings.late(snapshot(0, position)) and readings.late(snapshot(0xFFFF, position))  # wraps round


def hello_link(boot_id: int, restarted: bool = False) -> LinkStatus:
    hello = dm.Hello(dm.DeviceKind.BOARD, 2, 0, "board-1.0", "BOARD7", boot_id)
    return LinkStatus(dm.DeviceKind.BOARD, LinkState.CONNECTED, "/dev/ttyUSB1", "board BOARD7", hello, restarted)


def test_board_readings_go_on_across_a_reconnect_of_the_same_boot_and_start_again_for_a_new_one() -> None:
    readings = BoardReadings()
    position = Table().referee.position
    device_event(hello_link(3), position, readings)
    assert not readings.late(snapshot(40, position))
    device_event(hello_link(3), position, readings)  # the cable came back: the same boot
    assert readings.late(snapshot(40, position))  # a frame repeated across the reconnect
    device_event(hello_link(4), position, readings)  # the board booted again while unplugged
    assert not readings.late(snapshot(3, position))
    device_event(hello_link(4, restarted=True), position, readings)
    assert not readings.late(snapshot(1, position))


def test_a_repeated_board_frame_through_the_station_path_is_journaled_as_the_boards_fault() -> None:
    table = Table()
    table.open_with(3, 1)
    messages: queue.Queue[object] = queue.Queue()
    readings = BoardReadings()
    mid_play = table.referee.position
    messages.put(snapshot(10, mid_play))
    drain(messages, lambda: table.referee.position, table.send, _no_refusal, readings)
    after = table.move((8, 5), (6, 5))
    messages.put(snapshot(11, after))
    drain(messages, lambda: table.referee.position, table.send, _no_refusal, readings)
    table.press()
    messages.put(snapshot(10, mid_play))  # the frame of reading 10 delivered again after the play
    drain(messages, lambda: table.referee.position, table.send, _no_refusal, readings)
    sent = table.sent[-1]
    assert isinstance(sent, ev.BoardSeen) and sent.late
    assert table.reactions[-1].codes == ["device_fault_board_late"]
    assert table.referee.irregularities == ()
    assert ev.event_from_dict(ev.event_to_dict(sent)) == sent  # the journal keeps it as it came


def _no_refusal(device: str, message: str, error: str) -> None:
    raise AssertionError(f"refused {message}: {error}")


# --------------------------------------------------------------- the clock


def test_a_clock_time_no_match_could_give_is_refused_but_the_press_counts() -> None:
    table = Table()  # 600 s reserve each
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    times = table.referee.times
    reaction = table.send(ev.ClockPressed(W, 10**12, 590_000))
    assert reaction.codes == ["device_fault_clock_time", "play_ok"]
    fault = reaction.rulings[0]
    assert fault.params == {"device": "clock", "white_s": 10**9, "black_s": 590, "limit_s": 600}
    assert table.referee.times == times  # not adopted
    assert reaction.commands == (ClockCommand(B),) and table.referee.stage is Stage.ROLL  # the play was judged
    assert table.referee.irregularities == () and faults_only(table.referee) == [("clock", "clock_time")]
    assert "at most 600 s" in render(fault) and "en çok 600 sn" in render(fault, "tr")
    table.send(ev.ClockPressed(B, 580_000, 590_000))
    assert table.referee.times == (580_000, 590_000)  # a possible time is taken again


def test_the_reserve_and_a_longer_time_the_director_set_bound_the_clock() -> None:
    table = Table()
    table.open_with(3, 1)
    assert table.send(ev.ClockPressed(B, 600_000, 600_001)).codes[-1] == "device_fault_clock_time"
    table.send(ev.TimeCorrected(B, 900_000))
    table.send(ev.ClockPressed(B, 600_000, 899_000))
    assert table.referee.times == (600_000, 899_000) and len(table.referee.device_faults) == 1


def test_without_a_time_control_a_clock_may_show_up_to_a_day() -> None:
    table = Table(clock=ClockSettings(0, 0))
    table.open_with(3, 1)
    table.send(ev.ClockPressed(B, 3_600_000, 3_600_000))
    assert table.referee.times == (3_600_000, 3_600_000)
    assert table.send(ev.ClockPressed(B, 24 * 3_600_000 + 1, 0)).codes[-1] == "device_fault_clock_time"


def test_an_impossible_time_from_the_clock_device_reaches_the_referee_as_the_clocks_fault() -> None:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    press = dm.ButtonPressed(dm.Side.WHITE, True, dm.Side.BLACK, 0xFFFFFFFF, 600_000)
    event = device_event(press, table.referee.position)
    assert isinstance(event, ev.ClockPressed)
    reaction = table.send(event)
    assert "device_fault_clock_time" in reaction.codes and "play_ok" in reaction.codes
    with pytest.raises(ValueError):  # a negative time is malformed: refused at the edge, never adopted
        ev.ClockPressed(W, -1, 600_000)


# --------------------------------------------------------------- the camera


def doubled() -> Table:
    table = Table()
    table.open_with(3, 1)
    table.move((8, 5), (6, 5))
    table.press()
    table.send(ev.DoubleOffered(B))
    assert table.referee.stage is Stage.DOUBLE
    return table


@pytest.mark.parametrize("reason", [ev.VoidReason.DICE_COUNT, ev.VoidReason.UNREADABLE])
def test_a_throw_nobody_can_be_named_for_while_a_double_waits_blames_nobody(reason: ev.VoidReason) -> None:
    table = doubled()
    reaction = table.send(ev.DiceObserved(None, void=reason))
    assert reaction.codes == ["device_fault_thrower_unknown"]
    assert reaction.rulings[0].params == {"device": "camera", "reason": reason.value}
    assert table.referee.irregularities == () and faults_only(table.referee) == [("camera", "thrower_unknown")]
    assert table.referee.stage is Stage.DOUBLE  # the double still waits
    assert "nobody is blamed" in render(reaction.rulings[0]) and "kimse suçlanmaz" in render(reaction.rulings[0], "tr")


def test_a_named_thrower_before_the_answer_is_still_that_players_irregularity() -> None:
    table = doubled()
    assert table.send(ev.DiceObserved(None, void=ev.VoidReason.COCKED, thrower=B)).codes == ["throw_before_answer"]
    assert [(i.code, i.color) for i in table.referee.irregularities] == [("throw_before_answer", B)]
    assert table.referee.device_faults == ()


def test_a_camera_that_saw_no_die_while_a_double_waits_is_the_cameras_fault() -> None:
    table = doubled()
    event, thrower = throw_event(ThrowObservation(None, None, ()), table.referee)
    assert thrower is None
    assert table.send(event).codes == ["device_fault_thrower_unknown"]
    assert table.referee.irregularities == ()
