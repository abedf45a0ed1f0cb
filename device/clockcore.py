"""Tournament clock semantics in integer milliseconds: one model for every clock.

The reference firmware, the clock simulator and the software clock all run
this model, so a delay, a handover or a flag fall means the same thing on the
tablet and on the device. Like ``wire.py`` it keeps to the MicroPython subset
(the firmware copies it as ``clockcore.py``) and takes the time as an
argument, so it never reads a clock itself.

Semantics (docs/rules.md section 5):

- Simple delay (the federation default, 12 s): when a side's clock starts,
  the delay runs down first; only then does the reserve run. Unused delay
  is lost when the side presses.
- Bronstein delay: the reserve runs at once; on pressing, the time used this
  turn is given back, up to the delay.
- Increment (Fischer): the reserve runs at once; pressing adds the increment.
- A press by the side whose clock runs hands over to the other side. While
  the clocks are stopped, a press starts the opponent's clock (the lower
  opening thrower starts the other's clock). Presses by the waiting side, or
  while paused or after a flag fall, change nothing.
- The reserve reaching zero is a flag fall: both clocks stop, the flag is
  reported once (:meth:`ClockCore.take_flag`), and nothing runs again until
  the times are set anew.
- Pause keeps the running side and its remaining delay; resume continues
  exactly there. Stop ends the turn of both sides.
"""

STOPPED = 0
RUNNING = 1
PAUSED = 2
FLAGGED = 3

NO_SIDE = 255
"""The value of ``running`` when no clock runs."""

SIMPLE_DELAY = 0
BRONSTEIN = 1
INCREMENT = 2

MAX_MS = 0xFFFFFFFF


class ClockCore:
    """Two reserves, their delays, which side runs, and when it last changed."""

    def __init__(self, now_ms: int = 0) -> None:
        self.reserve = [0, 0]
        self.delay = [0, 0]
        self.mode = [SIMPLE_DELAY, SIMPLE_DELAY]
        self.state = STOPPED
        self.running = NO_SIDE
        self.delay_left = 0
        self.used_this_turn = 0
        self.anchor = now_ms
        self.flagged = NO_SIDE
        self.flag_pending = False

    def advance(self, now_ms: int) -> None:
        """Run the clock forward to now_ms; detects a flag fall at its exact moment."""
        elapsed = now_ms - self.anchor
        self.anchor = now_ms
        if self.state != RUNNING or elapsed <= 0:
            return
        side = self.running
        self.used_this_turn += elapsed
        if self.mode[side] == SIMPLE_DELAY:
            from_delay = min(elapsed, self.delay_left)
            self.delay_left -= from_delay
            elapsed -= from_delay
        if elapsed >= self.reserve[side]:
            self.reserve[side] = 0
            self.state = FLAGGED
            self.flagged = side
            self.flag_pending = True
            self.running = NO_SIDE
            self.delay_left = 0
        else:
            self.reserve[side] -= elapsed

    def set_time(self, side: int, reserve_ms: int, delay_ms: int, mode: int, now_ms: int) -> bool:
        """Set one side's reserve and delay; clears a flag fall once both sides have time."""
        if side not in (0, 1) or mode not in (SIMPLE_DELAY, BRONSTEIN, INCREMENT):
            return False
        if not 0 <= reserve_ms <= MAX_MS or not 0 <= delay_ms <= MAX_MS:
            return False
        self.advance(now_ms)
        self.reserve[side] = reserve_ms
        self.delay[side] = delay_ms
        self.mode[side] = mode
        if self.state == FLAGGED and self.reserve[0] > 0 and self.reserve[1] > 0:
            self.state = STOPPED
            self.flagged = NO_SIDE
        return True

    def _start_turn(self, side: int) -> None:
        self.running = side
        self.state = RUNNING
        self.used_this_turn = 0
        self.delay_left = self.delay[side] if self.mode[side] == SIMPLE_DELAY else 0

    def start(self, side: int, now_ms: int) -> bool:
        """Start side's clock (its delay first); refused after a flag fall."""
        self.advance(now_ms)
        if side not in (0, 1) or self.state == FLAGGED:
            return False
        self._start_turn(side)
        return True

    def stop(self, now_ms: int) -> bool:
        """Stop both clocks (end of game, pass, break); the turn in progress ends."""
        self.advance(now_ms)
        if self.state == FLAGGED:
            return True
        self.state = STOPPED
        self.running = NO_SIDE
        self.delay_left = 0
        return True

    def pause(self, now_ms: int) -> bool:
        """Freeze the running clock where it stands (dispute, director called)."""
        self.advance(now_ms)
        if self.state != RUNNING:
            return self.state == PAUSED
        self.state = PAUSED
        return True

    def resume(self, now_ms: int) -> bool:
        """Continue a paused clock with the delay it had left."""
        self.advance(now_ms)
        if self.state != PAUSED:
            return self.state == RUNNING
        self.state = RUNNING
        return True

    def press(self, side: int, now_ms: int) -> bool:
        """A player presses their button; True when it handed over or started the clock."""
        self.advance(now_ms)
        if side not in (0, 1):
            return False
        other = 1 - side
        if self.state == STOPPED:
            self._start_turn(other)
            return True
        if self.state != RUNNING or self.running != side:
            return False
        mode = self.mode[side]
        if mode == BRONSTEIN:
            self.reserve[side] = min(MAX_MS, self.reserve[side] + min(self.used_this_turn, self.delay[side]))
        elif mode == INCREMENT:
            self.reserve[side] = min(MAX_MS, self.reserve[side] + self.delay[side])
        self._start_turn(other)
        return True

    def take_flag(self) -> int:
        """The side whose flag fell, once; NO_SIDE afterwards and when none fell."""
        if self.flag_pending:
            self.flag_pending = False
            return self.flagged
        return NO_SIDE

    def remaining(self, side: int, now_ms: int) -> int:
        """Reserve of side at now_ms (the running delay not included)."""
        self.advance(now_ms)
        return self.reserve[side]

    def next_event_ms(self) -> int:
        """Milliseconds until the running reserve could reach zero (for sleeping); -1 when idle."""
        if self.state != RUNNING:
            return -1
        return self.delay_left + self.reserve[self.running]
