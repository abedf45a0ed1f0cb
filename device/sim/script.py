"""The simulators' little command language, for people at a terminal and for scripts.

One command a line; ``#`` starts a comment. Both devices: ``fault corrupt|drop|duplicate RATE``,
``fault split on|off``, ``fault off``, ``unplug``, ``replug``, ``reboot``,
``sleep SECONDS``, ``status``, ``quit``. Clock: ``press white|black``,
``flag white|black``, ``times``. Board: ``lift POINT COLOUR``, ``place POINT
COLOUR``, ``move FROM TO COLOUR``, ``hold POINT COLOUR`` (lift and keep it in
the hand), ``sensor POINT fail|ok``, ``snapshot``. Points: 1..24, ``bar`` or
``off``; colours: white/black (beyaz/siyah).
"""

from __future__ import annotations

import time

from device.messages import BAR_POINT, OFF_POINT, Side
from device.sim.base import SimulatedDevice
from device.sim.board import BoardSimulator
from device.sim.clock import ClockSimulator

HELP = __doc__ or ""


class ScriptError(ValueError):
    """A command line the simulator cannot carry out; the message says why."""


def parse_side(word: str) -> Side:
    key = word.strip().lower()
    if key in ("white", "w", "beyaz", "0"):
        return Side.WHITE
    if key in ("black", "b", "siyah", "1"):
        return Side.BLACK
    raise ScriptError(f"unknown colour {word!r}: white or black")


def parse_point(word: str) -> int:
    key = word.strip().lower()
    if key == "bar":
        return BAR_POINT
    if key == "off":
        return OFF_POINT
    try:
        point = int(key)
    except ValueError:
        raise ScriptError(f"unknown point {word!r}: 1..24, bar or off") from None
    if not 1 <= point <= 24:
        raise ScriptError(f"point {point} is not on the board: 1..24, bar or off")
    return point


def _arity(words: list[str], count: int, usage: str) -> None:
    if len(words) != count:
        raise ScriptError(f"usage: {usage}")


def run_line(device: SimulatedDevice, line: str) -> str | None:
    """Carry out one line; returns a reply to print, or None to quit. Raises ScriptError."""
    words = line.split("#", 1)[0].split()
    if not words:
        return ""
    verb = words[0].lower()
    try:
        return _run(device, verb, words)
    except ScriptError:
        raise
    except ValueError as error:
        raise ScriptError(str(error)) from error


def _run(device: SimulatedDevice, verb: str, words: list[str]) -> str | None:
    if verb in ("quit", "exit"):
        return None
    if verb == "help":
        return HELP
    if verb == "sleep":
        _arity(words, 2, "sleep SECONDS")
        time.sleep(float(words[1]))
        return "ok"
    if verb == "unplug":
        device.unplug()
        return "unplugged"
    if verb == "replug":
        device.replug()
        return f"plugged in: {device.port} -> {device.pty_path}"
    if verb == "reboot":
        device.reboot()
        return "rebooted"
    if verb == "status":
        state = "plugged in" if device.plugged else "unplugged"
        link = device.endpoint.link
        return (
            f"{state}, port {device.port} -> {device.pty_path}, host "
            f"{'present' if device.endpoint.host_present(device._ms()) else 'absent'}, "
            f"{link.pending()} events waiting, {link.retransmits} retransmits, {link.bad_frames} bad frames"
        )
    if verb == "fault":
        if len(words) == 2 and words[1].lower() == "off":
            device.faults.clear()
            return "faults off"
        _arity(words, 3, "fault corrupt|drop|duplicate RATE | fault split on|off | fault off")
        name = words[1].lower()
        if name == "split":
            device.faults.set("split", 1.0 if words[2].lower() in ("on", "1", "yes") else 0.0)
        else:
            device.faults.set(name, float(words[2]))
        return f"fault {name} {words[2]}"
    if isinstance(device, ClockSimulator):
        return _clock(device, verb, words)
    if isinstance(device, BoardSimulator):
        return _board(device, verb, words)
    raise ScriptError(f"unknown command {verb!r} (try help)")


def _clock(clock: ClockSimulator, verb: str, words: list[str]) -> str:
    if verb == "press":
        _arity(words, 2, "press white|black")
        return "accepted" if clock.press(parse_side(words[1])) else "ignored"
    if verb == "flag":
        _arity(words, 2, "flag white|black")
        clock.let_flag_fall(parse_side(words[1]))
        return "flag fell"
    if verb == "times":
        report = clock.times()
        running = report.running.name.lower() if report.running is not None else "none"
        return (
            f"{report.state.name.lower()}, running {running}, white {report.white_ms / 1000:.1f} s, "
            f"black {report.black_ms / 1000:.1f} s, delay left {report.delay_left_ms / 1000:.1f} s"
        )
    raise ScriptError(f"unknown clock command {verb!r} (try help)")


def _board(board: BoardSimulator, verb: str, words: list[str]) -> str:
    if verb in ("lift", "hold"):
        _arity(words, 3, f"{verb} POINT COLOUR")
        board.lift(parse_point(words[1]), parse_side(words[2]))
        return "lifted" if verb == "lift" else "lifted and held"
    if verb == "place":
        _arity(words, 3, "place POINT COLOUR")
        board.place(parse_point(words[1]), parse_side(words[2]))
        return "placed"
    if verb == "move":
        _arity(words, 4, "move FROM TO COLOUR")
        board.move(parse_point(words[1]), parse_point(words[2]), parse_side(words[3]))
        return "moved"
    if verb == "sensor":
        _arity(words, 3, "sensor POINT fail|ok")
        board.fail_sensor(parse_point(words[1]), words[2].lower() == "fail")
        return "sensor " + words[2].lower()
    if verb == "snapshot":
        white, black = board.side_counts(Side.WHITE), board.side_counts(Side.BLACK)
        return (
            f"white points {list(white.points)} bar {white.bar} off {white.off}\n"
            f"black points {list(black.points)} bar {black.bar} off {black.off}"
        )
    raise ScriptError(f"unknown board command {verb!r} (try help)")
