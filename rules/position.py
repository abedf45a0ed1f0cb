"""The position: where the 30 checkers stand and whose turn it is.

Each side is kept in its own numbering, as players count: a tuple of 26
counts where index 0 is borne off, 1..24 are the points (24 farthest from
home, 1..6 the home board) and 25 is the bar. Moving a checker from point p
with a die d lands on p - d; anything at 0 or below is off. The same point is
numbered 25 - p by the other side.

Positions are immutable and hashable, so they can key the set of legal
results of a roll and be compared with a board snapshot.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar, Iterable, Mapping, NamedTuple, Union

from rules.errors import InvalidPosition
from rules.steprules import STANDARD, Rules, tavla_facing

OFF = 0
BAR = 25
CHECKERS = 15
SLOTS = 26
HOME_POINTS = range(1, 7)

Counts = tuple[int, ...]
"""26 checker counts of one side: [0] off, [1..24] points, [25] bar."""

PointKey = Union[int, str]


class Color(enum.IntEnum):
    """The two sides. White moves counterclockwise, Black clockwise (tavla)."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> "Color":
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @classmethod
    def parse(cls, text: Union[str, "Color"]) -> "Color":
        """Accept "white"/"black", "w"/"b", Turkish "beyaz"/"siyah", or a Color."""
        if isinstance(text, Color):
            return text
        key = str(text).strip().lower()
        if key in ("white", "w", "beyaz", "0"):
            return cls.WHITE
        if key in ("black", "b", "siyah", "1"):
            return cls.BLACK
        raise ValueError(f"unknown colour {text!r}: expected 'white' or 'black'")


class Aside(NamedTuple):
    """What the 26 counts cannot say: plakoto's pinned checkers, acey-deucey's checkers still to enter.

    Pinned points are in the pinned side's own numbering. Waiting checkers
    have not entered the board yet: they count toward the 15 but stand
    nowhere. Most variants have neither, and share :data:`NO_ASIDE`.
    """

    white_pinned: tuple[int, ...] = ()
    black_pinned: tuple[int, ...] = ()
    white_waiting: int = 0
    black_waiting: int = 0

    def pinned(self, color: "Color") -> tuple[int, ...]:
        return self.white_pinned if color is Color.WHITE else self.black_pinned

    def waiting(self, color: "Color") -> int:
        return self.white_waiting if color is Color.WHITE else self.black_waiting

    def swapped(self) -> "Aside":
        """The same state with the colours exchanged."""
        return Aside(self.black_pinned, self.white_pinned, self.black_waiting, self.white_waiting)

    @classmethod
    def of_sides(
        cls, color: "Color", pinned: tuple[int, ...], waiting: int, other_pinned: tuple[int, ...], other_waiting: int
    ) -> "Aside":
        """Built from one side's state and the other's, whichever colour ``color`` is."""
        if color is Color.WHITE:
            return cls(pinned, other_pinned, waiting, other_waiting)
        return cls(other_pinned, pinned, other_waiting, waiting)


NO_ASIDE = Aside()


class Status(enum.IntFlag):
    """Problems a position can have; VALID when there are none.

    The referee sanity-checks every board snapshot with these flags, so each
    problem is reported on its own rather than as one vague failure.
    """

    VALID = 0
    BAD_SHAPE = enum.auto()
    NEGATIVE_COUNT = enum.auto()
    TOO_MANY_WHITE = enum.auto()
    TOO_FEW_WHITE = enum.auto()
    TOO_MANY_BLACK = enum.auto()
    TOO_FEW_BLACK = enum.auto()
    SHARED_POINT = enum.auto()
    BOTH_FINISHED = enum.auto()
    BAD_PIN = enum.auto()
    FOREIGN_ASIDE = enum.auto()


_STATUS_TEXT = {
    Status.BAD_SHAPE: "each side needs 26 counts (off, points 1-24, bar)",
    Status.NEGATIVE_COUNT: "a checker count is negative",
    Status.TOO_MANY_WHITE: "White has more than 15 checkers",
    Status.TOO_FEW_WHITE: "White has fewer than 15 checkers",
    Status.TOO_MANY_BLACK: "Black has more than 15 checkers",
    Status.TOO_FEW_BLACK: "Black has fewer than 15 checkers",
    Status.SHARED_POINT: "White and Black checkers stand on the same point",
    Status.BOTH_FINISHED: "both sides have borne off every checker",
    Status.BAD_PIN: "a pinned checker must stand alone under at least one opposing checker",
    Status.FOREIGN_ASIDE: "pinned or not-yet-entered checkers, which this variant does not have",
}


def describe_status(status: Status) -> list[str]:
    """One English sentence per problem flag, in a stable order."""
    return [text for flag, text in _STATUS_TEXT.items() if flag in status]


_TAVLA_FACING = tavla_facing()


def shared_points(
    white: Counts, black: Counts, facing: tuple[int, ...] = _TAVLA_FACING, aside: Aside = NO_ASIDE
) -> list[int]:
    """White's point numbers that hold checkers of both colours, pins apart (``facing``: the geometry)."""
    pins = set(aside.white_pinned) | {facing[p] for p in aside.black_pinned}
    return [p for p in range(1, 25) if white[p] > 0 and black[facing[p]] > 0 and p not in pins]


def _pins_sound(white: Counts, black: Counts, facing: tuple[int, ...], aside: Aside) -> bool:
    """Each pinned checker stands alone under opposing checkers, and no point is pinned both ways."""
    white_pins, black_pins = aside.white_pinned, aside.black_pinned
    if {facing[p] for p in white_pins} & set(black_pins):
        return False
    for own, other, pins in ((white, black, white_pins), (black, white, black_pins)):
        for point in pins:
            if not (isinstance(point, int) and 1 <= point <= 24) or own[point] != 1 or other[facing[point]] < 1:
                return False
    return len(set(white_pins)) == len(white_pins) and len(set(black_pins)) == len(black_pins)


def check_sides(
    white: Counts, black: Counts, facing: tuple[int, ...] = _TAVLA_FACING, aside: Aside = NO_ASIDE
) -> Status:
    """Every problem of a pair of sides, as flags (VALID if none)."""
    status = Status.VALID
    if len(white) != SLOTS or len(black) != SLOTS:
        return Status.BAD_SHAPE
    if min(white) < 0 or min(black) < 0 or min(aside.white_waiting, aside.black_waiting) < 0:
        status |= Status.NEGATIVE_COUNT
    if aside.white_pinned or aside.black_pinned:
        if not _pins_sound(white, black, facing, aside):
            status |= Status.BAD_PIN
    for counts, waiting, too_many, too_few in (
        (white, aside.white_waiting, Status.TOO_MANY_WHITE, Status.TOO_FEW_WHITE),
        (black, aside.black_waiting, Status.TOO_MANY_BLACK, Status.TOO_FEW_BLACK),
    ):
        total = sum(counts) + waiting
        if total > CHECKERS:
            status |= too_many
        elif total < CHECKERS:
            status |= too_few
    if shared_points(white, black, facing, aside):
        status |= Status.SHARED_POINT
    if white[OFF] == CHECKERS and black[OFF] == CHECKERS:
        status |= Status.BOTH_FINISHED
    return status


def entering_from_bar(counts: Counts, waiting: int) -> Counts:
    """The counts with checkers still to enter (acey-deucey) counted on the bar, where they enter from."""
    return (*counts[:BAR], counts[BAR] + waiting) if waiting else counts


def counts_from_mapping(points: Mapping[PointKey, int], *, fill_off: bool = True) -> Counts:
    """Build 26 counts from {point: n}; keys 1..24, "bar" or 25, "off" or 0.

    When ``fill_off`` is set and "off" is not given, the borne-off count is
    whatever makes 15, as GNU Backgammon assumes.
    """
    counts = [0] * SLOTS
    off_given = False
    for key, n in points.items():
        index = _slot_index(key)
        if index == OFF:
            off_given = True
        counts[index] += int(n)
    if fill_off and not off_given:
        counts[OFF] = CHECKERS - sum(counts)
    return tuple(counts)


def _slot_index(key: PointKey) -> int:
    if isinstance(key, str):
        word = key.strip().lower()
        if word == "bar":
            return BAR
        if word == "off":
            return OFF
        key = int(word)
    if not 0 <= key <= 25:
        raise ValueError(f"point {key} is not on the board (0 off, 1-24, 25 bar)")
    return key


class _Board(NamedTuple):
    white: Counts
    black: Counts
    turn: Color
    aside: Aside = NO_ASIDE


class Position(_Board):
    """Both sides' checkers and the side to move; immutable and hashable.

    The constructor refuses impossible positions with :class:`InvalidPosition`
    naming every problem; :meth:`unchecked` builds one without checks for
    sensor snapshots that are to be diagnosed, and for the move generator,
    whose results are valid by construction. (A tuple underneath, because the
    generator makes hundreds of thousands of them a second.) ``aside`` holds
    what only some variants have: pinned checkers (plakoto) and checkers
    still to enter (acey-deucey).
    """

    __slots__ = ()

    RULES: ClassVar[Rules] = STANDARD
    """How checkers step in this game; variants subclass Position and change it."""
    HAS_ASIDE: ClassVar[bool] = False
    """Whether this variant's positions may pin checkers or hold checkers back to enter."""

    def __new__(
        cls, white: Iterable[int], black: Iterable[int], turn: Color = Color.WHITE, aside: Aside = NO_ASIDE
    ) -> "Position":
        white_counts = tuple(int(n) for n in white)
        black_counts = tuple(int(n) for n in black)
        aside = _normal_aside(aside)
        facing = cls.RULES.facing
        status = check_sides(white_counts, black_counts, facing, aside)
        if aside != NO_ASIDE and not cls.HAS_ASIDE:
            status |= Status.FOREIGN_ASIDE
        if status != Status.VALID:
            problems = describe_status(status)
            if Status.SHARED_POINT in status:
                points = ", ".join(map(str, shared_points(white_counts, black_counts, facing, aside)))
                problems.append(f"shared points (White's numbering): {points}")
            raise InvalidPosition("impossible position: " + "; ".join(problems), status)
        return tuple.__new__(cls, (white_counts, black_counts, Color(turn), aside))

    @classmethod
    def unchecked(cls, white: Counts, black: Counts, turn: Color = Color.WHITE, aside: Aside = NO_ASIDE) -> "Position":
        """A position built without validation; call :meth:`status` before trusting it."""
        return tuple.__new__(
            cls,
            (
                white if type(white) is tuple else tuple(white),
                black if type(black) is tuple else tuple(black),
                turn if type(turn) is Color else Color(turn),
                aside,
            ),
        )

    @classmethod
    def from_sides(cls, mover: Counts, opponent: Counts, turn: Color, aside: Aside = NO_ASIDE) -> "Position":
        """Build from the side to move and the other side, without validation."""
        if turn is Color.WHITE:
            return cls.unchecked(mover, opponent, turn, aside)
        return cls.unchecked(opponent, mover, turn, aside)

    @classmethod
    def build(
        cls,
        white: Mapping[PointKey, int],
        black: Mapping[PointKey, int],
        turn: Union[Color, str] = Color.WHITE,
        aside: Aside = NO_ASIDE,
    ) -> "Position":
        """Build from {point: count} maps in each side's own numbering.

        Missing checkers are taken as borne off (or, where ``aside`` says
        some are still to enter, as those first). ``Position.build({6: 5},
        {6: 5})`` is a bear-off race with ten checkers off on each side.
        """
        sides = []
        for points, waiting in ((white, aside.white_waiting), (black, aside.black_waiting)):
            counts = list(counts_from_mapping(points))
            if "off" not in points and OFF not in points:
                counts[OFF] -= waiting
            sides.append(tuple(counts))
        return cls(sides[0], sides[1], Color.parse(turn), aside)

    @classmethod
    def start(cls, turn: Color = Color.WHITE) -> "Position":
        """The standard tavla/backgammon starting position."""
        side = counts_from_mapping({24: 2, 13: 5, 8: 3, 6: 5})
        return cls(side, side, turn)

    def status(self) -> Status:
        status = check_sides(self.white, self.black, self.RULES.facing, self.aside)
        if self.aside != NO_ASIDE and not self.HAS_ASIDE:
            status |= Status.FOREIGN_ASIDE
        return status

    def read_snapshot(self, after: "Position") -> "Position":
        """``after`` (a board seen after this position's play) completed with what a board cannot show.

        A sensing board sees checkers, not pins; variants where the
        position before tells what the checkers mean (plakoto: who pins
        whom) override this.
        """
        return after

    def step_rules(self, dice: tuple[int, int]) -> Rules:
        """The step rules for the side to move and this roll (variants may vary them by turn)."""
        return self.RULES

    def side(self, color: Color) -> Counts:
        return self.white if color is Color.WHITE else self.black

    @property
    def mover(self) -> Counts:
        """The counts of the side to move, in its own numbering."""
        return self.white if self.turn is Color.WHITE else self.black

    @property
    def opponent(self) -> Counts:
        """The counts of the side not to move, in its own numbering."""
        return self.black if self.turn is Color.WHITE else self.white

    def pinned(self, color: Color) -> tuple[int, ...]:
        """The points (own numbering) where ``color`` has a pinned checker (plakoto)."""
        return self.aside.pinned(color)

    def waiting(self, color: Color) -> int:
        """How many of ``color``'s checkers are still to enter the board (acey-deucey)."""
        return self.aside.waiting(color)

    def with_turn(self, turn: Color) -> "Position":
        return type(self).unchecked(self.white, self.black, turn, self.aside)

    def same_board(self, other: "Position") -> bool:
        """Whether the checkers stand the same (pins and waiting checkers too), whoever is to move."""
        return self.white == other.white and self.black == other.black and self.aside == other.aside

    def mirrored(self) -> "Position":
        """The same game with the colours exchanged (for symmetry checks)."""
        return type(self).unchecked(self.black, self.white, self.turn.other, self.aside.swapped())

    def pips(self, color: Color) -> int:
        """Pip count: the sum of the distances home, the bar and checkers still to enter counting 25."""
        counts = self.side(color)
        return sum(point * counts[point] for point in range(1, SLOTS)) + BAR * self.waiting(color)

    def winner(self) -> Color | None:
        """The side that has borne off all 15 checkers, if any."""
        if self.white[OFF] == CHECKERS:
            return Color.WHITE
        if self.black[OFF] == CHECKERS:
            return Color.BLACK
        return None

    def to_json(self) -> dict[str, Any]:
        """The documented JSON form (see README): own numbering per side."""
        return {
            "turn": self.turn.name.lower(),
            "white": _side_json(self.white, self.pinned(Color.WHITE), self.waiting(Color.WHITE)),
            "black": _side_json(self.black, self.pinned(Color.BLACK), self.waiting(Color.BLACK)),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Position":
        """Parse the JSON form; raises InvalidPosition or ValueError on bad input."""
        if not isinstance(data, Mapping):
            raise ValueError("a position must be a JSON object")
        turn = Color.parse(data.get("turn", "white"))
        white, white_pinned, white_waiting = _side_from_json(data, "white")
        black, black_pinned, black_waiting = _side_from_json(data, "black")
        return cls(white, black, turn, Aside(white_pinned, black_pinned, white_waiting, black_waiting))

    def __str__(self) -> str:
        return render(self)


def _normal_aside(aside: Aside) -> Aside:
    """Pins sorted, so that equal states compare and hash equal."""
    if aside == NO_ASIDE:
        return NO_ASIDE
    return Aside(tuple(sorted(aside.white_pinned)), tuple(sorted(aside.black_pinned)), *aside[2:])


def _side_json(counts: Counts, pinned: tuple[int, ...], waiting: int) -> dict[str, Any]:
    side: dict[str, Any] = {"points": list(counts[1:25]), "bar": counts[BAR], "off": counts[OFF]}
    if pinned:
        side["pinned"] = list(pinned)
    if waiting:
        side["waiting"] = waiting
    return side


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _side_from_json(data: Mapping[str, Any], name: str) -> tuple[Counts, tuple[int, ...], int]:
    side = data.get(name)
    if not isinstance(side, Mapping):
        raise ValueError(f"'{name}' must be an object with 'points', 'bar' and 'off'")
    points = side.get("points")
    if not isinstance(points, list) or len(points) != 24:
        raise ValueError(f"'{name}.points' must list 24 counts (own points 1..24)")
    bar = side.get("bar", 0)
    waiting = side.get("waiting", 0)
    pinned = side.get("pinned", [])
    if not all(_whole(v) for v in [*points, bar, waiting]):
        raise ValueError(f"'{name}' counts must be whole numbers")
    if not isinstance(pinned, list) or not all(_whole(p) for p in pinned):
        raise ValueError(f"'{name}.pinned' must list point numbers (own numbering)")
    on_board = sum(points) + bar + waiting
    off = side.get("off", CHECKERS - on_board)
    if not _whole(off):
        raise ValueError(f"'{name}.off' must be a whole number")
    return (off, *points, bar), tuple(pinned), waiting


def render(position: Position) -> str:
    """A text diagram from White's side: O is White, X is Black.

    Points are labelled in White's numbering; the bar and borne-off counts are
    printed beneath.
    """
    white, black = position.white, position.black
    facing = position.RULES.facing

    white_pins = set(position.pinned(Color.WHITE))

    def cell(point: int) -> str:
        w, b = white[point], black[facing[point]]
        if w and point not in white_pins:
            return f"{w:>2}O"
        if b:
            return f"{b:>2}X"
        return "  ."

    top = " ".join(cell(p) for p in range(13, 25))
    bottom = " ".join(cell(p) for p in range(12, 0, -1))
    return "\n".join(
        [
            " " + " ".join(f"{p:>3}" for p in range(13, 25)),
            " " + top,
            " " + bottom,
            " " + " ".join(f"{p:>3}" for p in range(12, 0, -1)),
            f" bar: O {white[BAR]} X {black[BAR]}   off: O {white[OFF]} X {black[OFF]}"
            f"   to move: {position.turn.name.lower()}",
            *_aside_lines(position),
        ]
    )


def _aside_lines(position: Position) -> list[str]:
    """Pins (in White's numbering, the pinner shown on the point) and checkers still to enter."""
    lines = []
    facing = position.RULES.facing
    white_pins = position.pinned(Color.WHITE)
    black_pins = [facing[p] for p in position.pinned(Color.BLACK)]
    if white_pins or black_pins:
        lines.append(
            " pinned (under the pinner): O on "
            + (", ".join(map(str, white_pins)) or "-")
            + "; X on "
            + (", ".join(map(str, sorted(black_pins))) or "-")
        )
    if position.waiting(Color.WHITE) or position.waiting(Color.BLACK):
        lines.append(f" to enter: O {position.waiting(Color.WHITE)} X {position.waiting(Color.BLACK)}")
    return lines
