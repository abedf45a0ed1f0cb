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


_STATUS_TEXT = {
    Status.BAD_SHAPE: "each side needs 26 counts (off, points 1-24, bar)",
    Status.NEGATIVE_COUNT: "a checker count is negative",
    Status.TOO_MANY_WHITE: "White has more than 15 checkers",
    Status.TOO_FEW_WHITE: "White has fewer than 15 checkers",
    Status.TOO_MANY_BLACK: "Black has more than 15 checkers",
    Status.TOO_FEW_BLACK: "Black has fewer than 15 checkers",
    Status.SHARED_POINT: "White and Black checkers stand on the same point",
    Status.BOTH_FINISHED: "both sides have borne off every checker",
}


def describe_status(status: Status) -> list[str]:
    """One English sentence per problem flag, in a stable order."""
    return [text for flag, text in _STATUS_TEXT.items() if flag in status]


_TAVLA_FACING = tavla_facing()


def shared_points(white: Counts, black: Counts, facing: tuple[int, ...] = _TAVLA_FACING) -> list[int]:
    """White's point numbers that hold checkers of both colours (``facing``: the geometry)."""
    return [p for p in range(1, 25) if white[p] > 0 and black[facing[p]] > 0]


def check_sides(white: Counts, black: Counts, facing: tuple[int, ...] = _TAVLA_FACING) -> Status:
    """Every problem of a pair of sides, as flags (VALID if none)."""
    status = Status.VALID
    if len(white) != SLOTS or len(black) != SLOTS:
        return Status.BAD_SHAPE
    if min(white) < 0 or min(black) < 0:
        status |= Status.NEGATIVE_COUNT
    for counts, too_many, too_few in (
        (white, Status.TOO_MANY_WHITE, Status.TOO_FEW_WHITE),
        (black, Status.TOO_MANY_BLACK, Status.TOO_FEW_BLACK),
    ):
        total = sum(counts)
        if total > CHECKERS:
            status |= too_many
        elif total < CHECKERS:
            status |= too_few
    if shared_points(white, black, facing):
        status |= Status.SHARED_POINT
    if white[OFF] == CHECKERS and black[OFF] == CHECKERS:
        status |= Status.BOTH_FINISHED
    return status


def counts_from_mapping(
    points: Mapping[PointKey, int], *, fill_off: bool = True
) -> Counts:
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


class Position(_Board):
    """Both sides' checkers and the side to move; immutable and hashable.

    The constructor refuses impossible positions with :class:`InvalidPosition`
    naming every problem; :meth:`unchecked` builds one without checks for
    sensor snapshots that are to be diagnosed, and for the move generator,
    whose results are valid by construction. (A tuple underneath, because the
    generator makes hundreds of thousands of them a second.)
    """

    __slots__ = ()

    RULES: ClassVar[Rules] = STANDARD
    """How checkers step in this game; variants subclass Position and change it."""

    def __new__(cls, white: Iterable[int], black: Iterable[int], turn: Color = Color.WHITE) -> "Position":
        white_counts = tuple(int(n) for n in white)
        black_counts = tuple(int(n) for n in black)
        facing = cls.RULES.facing
        status = check_sides(white_counts, black_counts, facing)
        if status != Status.VALID:
            problems = describe_status(status)
            if Status.SHARED_POINT in status:
                points = ", ".join(map(str, shared_points(white_counts, black_counts, facing)))
                problems.append(f"shared points (White's numbering): {points}")
            raise InvalidPosition("impossible position: " + "; ".join(problems), status)
        return tuple.__new__(cls, (white_counts, black_counts, Color(turn)))

    @classmethod
    def unchecked(cls, white: Counts, black: Counts, turn: Color = Color.WHITE) -> "Position":
        """A position built without validation; call :meth:`status` before trusting it."""
        return tuple.__new__(
            cls,
            (
                white if type(white) is tuple else tuple(white),
                black if type(black) is tuple else tuple(black),
                turn if type(turn) is Color else Color(turn),
            ),
        )

    @classmethod
    def from_sides(cls, mover: Counts, opponent: Counts, turn: Color) -> "Position":
        """Build from the side to move and the other side, without validation."""
        if turn is Color.WHITE:
            return cls.unchecked(mover, opponent, turn)
        return cls.unchecked(opponent, mover, turn)

    @classmethod
    def build(
        cls,
        white: Mapping[PointKey, int],
        black: Mapping[PointKey, int],
        turn: Union[Color, str] = Color.WHITE,
    ) -> "Position":
        """Build from {point: count} maps in each side's own numbering.

        Missing checkers are taken as borne off. ``Position.build({6: 5},
        {6: 5})`` is a bear-off race with ten checkers off on each side.
        """
        return cls(counts_from_mapping(white), counts_from_mapping(black), Color.parse(turn))

    @classmethod
    def start(cls, turn: Color = Color.WHITE) -> "Position":
        """The standard tavla/backgammon starting position."""
        side = counts_from_mapping({24: 2, 13: 5, 8: 3, 6: 5})
        return cls(side, side, turn)

    def status(self) -> Status:
        return check_sides(self.white, self.black, self.RULES.facing)

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

    def with_turn(self, turn: Color) -> "Position":
        return type(self).unchecked(self.white, self.black, turn)

    def same_board(self, other: "Position") -> bool:
        """Whether the checkers stand the same, whoever is to move."""
        return self.white == other.white and self.black == other.black

    def mirrored(self) -> "Position":
        """The same game with the colours exchanged (for symmetry checks)."""
        return type(self).unchecked(self.black, self.white, self.turn.other)

    def pips(self, color: Color) -> int:
        """Pip count: the sum of the distances home, bar counting 25."""
        counts = self.side(color)
        return sum(point * counts[point] for point in range(1, SLOTS))

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
            "white": _side_json(self.white),
            "black": _side_json(self.black),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Position":
        """Parse the JSON form; raises InvalidPosition or ValueError on bad input."""
        if not isinstance(data, Mapping):
            raise ValueError("a position must be a JSON object")
        turn = Color.parse(data.get("turn", "white"))
        return cls(_side_from_json(data, "white"), _side_from_json(data, "black"), turn)

    def __str__(self) -> str:
        return render(self)


def _side_json(counts: Counts) -> dict[str, Any]:
    return {"points": list(counts[1:25]), "bar": counts[BAR], "off": counts[OFF]}


def _side_from_json(data: Mapping[str, Any], name: str) -> Counts:
    side = data.get(name)
    if not isinstance(side, Mapping):
        raise ValueError(f"'{name}' must be an object with 'points', 'bar' and 'off'")
    points = side.get("points")
    if not isinstance(points, list) or len(points) != 24:
        raise ValueError(f"'{name}.points' must list 24 counts (own points 1..24)")
    bar = side.get("bar", 0)
    values: Iterable[Any] = [*points, bar]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ValueError(f"'{name}' counts must be whole numbers")
    on_board = sum(points) + bar
    off = side.get("off", CHECKERS - on_board)
    if not isinstance(off, int) or isinstance(off, bool):
        raise ValueError(f"'{name}.off' must be a whole number")
    return (off, *points, bar)


def render(position: Position) -> str:
    """A text diagram from White's side: O is White, X is Black.

    Points are labelled in White's numbering; the bar and borne-off counts are
    printed beneath.
    """
    white, black = position.white, position.black
    facing = position.RULES.facing

    def cell(point: int) -> str:
        w, b = white[point], black[facing[point]]
        if w:
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
        ]
    )
