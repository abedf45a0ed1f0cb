"""Reference firmware of the checker-sensing board (MicroPython).

Sensing: every place a checker can lie has a linear Hall sensor under it (a
"slot"; 6 slots along each point, 3 in each colour's bar area, 5 in each
bear-off tray). White checkers carry a magnet north side up, black ones south
side up, so a slot reads a positive field for white, negative for black, and
the strength grows with the checkers stacked on it. The firmware converts a
slot's reading to (colour, count), sums the slots of each place, debounces
the counts, reports each difference as lift/place events at once and a full
snapshot once nothing has changed for ``settle_ms``. A sensor reading at the
rail is broken: its place is reported in SENSORS and the slot counts as
empty.

Places ("cells"): 0..23 are board points 1..24, 24/25 the white/black bar
areas, 26/27 the white/black bear-off trays.
"""

try:
    import wire
except ImportError:  # on the host
    from device import wire

POINT_SLOTS = 6
BAR_SLOTS = 3
OFF_SLOTS = 5
CELLS = 28
WHITE_BAR, BLACK_BAR, WHITE_OFF, BLACK_OFF = 24, 25, 26, 27
FIELD_PER_CHECKER = 100  # sensor units one checker adds (calibrated per board)
NOISE = 30  # below this a slot is empty
RAIL = 2000  # at or beyond this the sensor is broken (stuck at a supply rail)
SCAN_MS = 20
STABLE_SCANS = 3  # a count must read the same this many scans before it counts
DEFAULT_SETTLE_MS = 300


def slots_of(cell):
    if cell < 24:
        return POINT_SLOTS
    if cell < 26:
        return BAR_SLOTS
    return OFF_SLOTS


def cell_point(cell):
    """Protocol point number of a cell: 1..24, 25 the bar, 0 off."""
    if cell < 24:
        return cell + 1
    if cell < 26:
        return 25
    return 0


def read_slot(value):
    """A slot's reading to (white, black) checkers; None for a broken sensor."""
    if value >= RAIL or value <= -RAIL:
        return None
    if -NOISE < value < NOISE:
        return (0, 0)
    count = (abs(value) + FIELD_PER_CHECKER // 2) // FIELD_PER_CHECKER
    if count == 0:
        count = 1
    return (count, 0) if value > 0 else (0, count)


class BoardApp:
    def __init__(self, hal):
        self.hal = hal
        self.runtime = None
        self.settle_ms = DEFAULT_SETTLE_MS
        self.counts = [[0, 0] for _ in range(CELLS)]  # accepted (white, black) per cell
        self._candidate = [[0, 0] for _ in range(CELLS)]
        self._seen = [0] * CELLS
        self.faulty = []
        self._last_scan = -SCAN_MS
        self._changed_at = -1
        self._snapshot_id = 0

    def attach(self, runtime):
        self.runtime = runtime
        counts, faulty = self.scan()
        self.counts = counts
        self._candidate = [list(c) for c in counts]
        self.faulty = faulty
        if faulty:
            self.runtime.emit(wire.SENSORS, (0, bytes(faulty)))
        self.send_snapshot(2)  # BOOT

    def scan(self):
        """Read every sensor: ((white, black) per cell, sorted points with a broken sensor)."""
        counts = []
        broken = []
        for cell in range(CELLS):
            white = black = 0
            for slot in range(slots_of(cell)):
                reading = read_slot(self.hal.read_slot(cell, slot))
                if reading is None:
                    point = cell_point(cell)
                    if point not in broken:
                        broken.append(point)
                    continue
                white += reading[0]
                black += reading[1]
            counts.append([white, black])
        broken.sort()
        return counts, broken

    def side_values(self, colour):
        points = [self.counts[cell][colour] for cell in range(24)]
        bar = self.counts[WHITE_BAR if colour == 0 else BLACK_BAR][colour]
        off = self.counts[WHITE_OFF if colour == 0 else BLACK_OFF][colour]
        return points + [bar, off]

    def send_snapshot(self, reason):
        self._snapshot_id = (self._snapshot_id + 1) & 0xFFFF
        values = [self._snapshot_id, reason] + self.side_values(0) + self.side_values(1)
        self.runtime.emit(wire.SNAPSHOT, tuple(values))

    def handle(self, msg_type, values, now):
        if msg_type == wire.REQUEST_SNAPSHOT:
            self.send_snapshot(0)  # REQUESTED
        elif msg_type == wire.CONFIGURE_BOARD:
            self.settle_ms = values[0]
        else:
            self.runtime.refuse(msg_type, "not a board command")

    def tick(self, now):
        if now - self._last_scan < SCAN_MS:
            return
        self._last_scan = now
        counts, faulty = self.scan()
        if faulty != self.faulty:
            self.faulty = faulty
            self.runtime.emit(wire.SENSORS, (0 if faulty else 1, bytes(faulty)))
        for cell in range(CELLS):
            reading = counts[cell]
            if reading != self._candidate[cell]:
                self._candidate[cell] = reading
                self._seen[cell] = 1
                continue
            if reading == self.counts[cell]:
                continue
            self._seen[cell] += 1
            if self._seen[cell] >= STABLE_SCANS:
                self._accept(cell, reading, now)
        if self._changed_at >= 0 and now - self._changed_at >= self.settle_ms:
            self._changed_at = -1
            self.send_snapshot(1)  # SETTLED

    def _accept(self, cell, reading, now):
        point = cell_point(cell)
        for colour in (0, 1):
            diff = reading[colour] - self.counts[cell][colour]
            for _ in range(-diff):
                self.runtime.emit(wire.LIFTED, (point, colour))
            for _ in range(diff):
                self.runtime.emit(wire.PLACED, (point, colour))
        self.counts[cell] = list(reading)
        self._changed_at = now
