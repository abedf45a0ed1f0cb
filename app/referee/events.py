"""Everything the referee consumes, as small immutable values that go into the journal.

Devices, the camera and the touch screen all speak to the referee in these
events (docs/design.md, the flow of one turn). Each event checks its own fields
when it is made, so a garbled device frame or a wrong tap becomes a clear
``ValueError`` at the edge instead of a crash inside the referee, and each
event turns into plain JSON and back (:func:`event_to_dict`,
:func:`event_from_dict`) so the journal can hold it.
Each class is named for what the referee sees (``ClockFlag``, ``BoardSeen``,
``DoubleOffered``), not after the device message or rules action behind it;
``kind`` is its name in the journal, which never changes, so every journal
written before still reads.
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, TypeGuard, Union

from rules.position import BAR, SLOTS, Color
from rules.variant import ResultKind


class VoidReason(enum.Enum):
    """Why the camera voided a throw (docs/rules.md section 5: both dice are thrown again)."""

    COCKED = "cocked"
    WRONG_HALF = "wrong_half"
    OFF_BOARD = "off_board"
    DICE_COUNT = "dice_count"
    UNREADABLE = "unreadable"


def _die(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise ValueError(f"a die shows 1 to 6, not {value!r}")
    return value


def _pair(values: Any) -> tuple[int, int]:
    if not isinstance(values, (tuple, list)) or len(values) != 2:
        raise ValueError(f"two dice are expected, got {values!r}")
    return (_die(values[0]), _die(values[1]))


def _color(value: Any) -> Color:
    if isinstance(value, Color):
        return value
    if isinstance(value, str):
        return Color.parse(value)
    raise ValueError(f"a colour is 'white' or 'black', not {value!r}")


def _counts(value: Any, name: str) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or len(value) != SLOTS:
        raise ValueError(f"{name}: 26 counts are expected (off, points 1-24, bar), got {value!r}")
    if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 15 for n in value):
        raise ValueError(f"{name}: every count must be a whole number from 0 to 15, got {list(value)}")
    return tuple(value)


MAX_FOUND = 8
"""The most things the camera may have found in one throw that an answer can name."""


def _marks(event: Any, *names: str) -> None:
    """An answer's marks on the found dice: each a distinct place among them, no die marked twice."""
    seen: set[int] = set()
    for name in names:
        value = getattr(event, name)
        if not isinstance(value, (tuple, list)) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < MAX_FOUND for i in value
        ):
            raise ValueError(f"{name}: the found dice by their places 0 to {MAX_FOUND - 1}, not {value!r}")
        if seen & set(value) or len(set(value)) != len(value):
            raise ValueError(f"{name}: each found die is marked once, not {value!r}")
        seen |= set(value)
        object.__setattr__(event, name, tuple(sorted(value)))


class Event:
    """Base of every input event; ``kind`` names it in the journal."""

    kind: ClassVar[str] = ""


@dataclass(frozen=True)
class DiceObserved(Event):
    """The camera's verdict on a throw: two values, or void with the reason.

    For the opening throw the two values are (White's die, Black's die).
    ``thrower`` is the side whose half the dice landed in, when the camera
    can tell.
    """

    kind: ClassVar[str] = "dice_observed"
    values: tuple[int, int] | None
    void: VoidReason | None = None
    confidences: tuple[float, ...] = ()
    thrower: Color | None = None

    def __post_init__(self) -> None:
        _check_reading(self)


@dataclass(frozen=True)
class ThrowQuestioned(Event):
    """A throw the camera is not sure of: its reading (two values, or void with the reason) and its doubts
    (``vision.sureness.DOUBTS``: ``low_confidence``, ``borderline_cocked``, ``leans_on_nothing``, ``near_bar``,
    ``near_frame``, ``near_picture_edge``, ``third_object``, ``die_unseen``). It never takes effect by itself: the
    players, or the director, answer it."""

    kind: ClassVar[str] = "throw_questioned"
    values: tuple[int, int] | None
    void: VoidReason | None = None
    doubts: tuple[str, ...] = ()
    confidences: tuple[float, ...] = ()
    thrower: Color | None = None

    def __post_init__(self) -> None:
        _check_reading(self)
        doubts = tuple(self.doubts) if isinstance(self.doubts, (tuple, list)) else None
        if not doubts or not all(isinstance(d, str) and d.isidentifier() and len(d) <= 40 for d in doubts):
            raise ValueError(f"a questioned throw names its doubts (short words), not {self.doubts!r}")
        object.__setattr__(self, "doubts", doubts)


def _check_reading(event: DiceObserved | ThrowQuestioned) -> None:
    """A camera's reading: two values or void with a known reason, confidences, who threw when known."""
    if event.void is None and event.values is None:
        raise ValueError("a throw that is not void needs two values")
    if event.values is not None:
        object.__setattr__(event, "values", _pair(event.values))
    if event.void is not None and not isinstance(event.void, VoidReason):
        object.__setattr__(event, "void", VoidReason(event.void))
    object.__setattr__(event, "confidences", tuple(float(c) for c in event.confidences))
    if event.thrower is not None:
        object.__setattr__(event, "thrower", _color(event.thrower))


@dataclass(frozen=True)
class ManualDice(Event):
    """Dice typed on the tablet (camera off or out of order)."""

    kind: ClassVar[str] = "manual_dice"
    values: tuple[int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", _pair(self.values))


@dataclass(frozen=True)
class BoardSeen(Event):
    """Where the sensing board sees every checker: 26 counts per side in its own numbering.

    ``late`` says the board sent this reading after a later one, or sent it twice
    (:class:`app.table.devices.BoardReadings`): the board's fault, never a move. The board's own reading
    numbers stay out of the journal: they start again whenever the board boots, the match does not."""

    kind: ClassVar[str] = "board_snapshot"
    white: tuple[int, ...]
    black: tuple[int, ...]
    late: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "white", _counts(self.white, "white"))
        object.__setattr__(self, "black", _counts(self.black, "black"))
        if not isinstance(self.late, bool):
            raise ValueError(f"late is true or false, not {self.late!r}")


@dataclass(frozen=True)
class CheckersSeen(Event):
    """Where the camera over the board sees every checker, read from the settled picture at the clock press:
    26 counts per side in the owner's numbering, as :class:`BoardSeen`. ``sure`` is false when the reader
    doubts its reading (``doubts`` says why). The ``*_low``/``*_high`` counts (the same numbering, all four or
    none) say what the picture shows for certain where it cannot show everything: the fewest and the most
    checkers of each side at each place (a row of five may hide layers, a pile off all but its top). A station
    sends it just before the press it belongs to."""

    kind: ClassVar[str] = "checkers_seen"
    white: tuple[int, ...]
    black: tuple[int, ...]
    sure: bool = True
    doubts: tuple[str, ...] = ()
    white_low: tuple[int, ...] = ()
    white_high: tuple[int, ...] = ()
    black_low: tuple[int, ...] = ()
    black_high: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "white", _counts(self.white, "white"))
        object.__setattr__(self, "black", _counts(self.black, "black"))
        if not isinstance(self.sure, bool):
            raise ValueError(f"sure is true or false, not {self.sure!r}")
        doubts = tuple(self.doubts) if isinstance(self.doubts, (tuple, list)) else None
        if doubts is None or len(doubts) > 20 or not all(isinstance(d, str) and len(d) <= 200 for d in doubts):
            raise ValueError(f"a reading's doubts are a few short texts, not {self.doubts!r}")
        object.__setattr__(self, "doubts", doubts)
        names = ("white_low", "white_high", "black_low", "black_high")
        given = [getattr(self, name) for name in names]
        if all(isinstance(value, (tuple, list)) and not value for value in given):
            for name in names:
                object.__setattr__(self, name, ())
            return
        for name, value in zip(names, given):
            object.__setattr__(self, name, _counts(value, name))
        for side in ("white", "black"):
            low, high = getattr(self, f"{side}_low"), getattr(self, f"{side}_high")
            if any(lo > hi for lo, hi in zip(low, high)):
                raise ValueError(f"{side}: a range's fewest exceed its most ({list(low)} against {list(high)})")

    @property
    def ranges(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]] | None:
        """((White's fewest, Black's fewest), (White's most, Black's most)), or None for a reading without them."""
        if not self.white_low:
            return None
        return (self.white_low, self.black_low), (self.white_high, self.black_high)


@dataclass(frozen=True)
class CheckerMoved(Event):
    """A checker of ``color`` at ``point`` (owner's numbering: 0 off, 25 bar): what lifts and placements share."""

    color: Color
    point: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "color", _color(self.color))
        if isinstance(self.point, bool) or not isinstance(self.point, int) or not 0 <= self.point <= BAR:
            raise ValueError(f"a point is 0 (off) to 25 (bar), not {self.point!r}")


@dataclass(frozen=True)
class LiftSeen(CheckerMoved):
    """A checker of ``color`` left ``point``."""

    kind: ClassVar[str] = "checker_lifted"


@dataclass(frozen=True)
class PlaceSeen(CheckerMoved):
    """A checker of ``color`` was put down on ``point``."""

    kind: ClassVar[str] = "checker_placed"


@dataclass(frozen=True)
class ClockPressed(Event):
    """``by`` pressed its clock button; the clock's remaining times come along when known."""

    kind: ClassVar[str] = "clock_pressed"
    by: Color
    white_ms: int | None = None
    black_ms: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "by", _color(self.by))
        for name in ("white_ms", "black_ms"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"{name} must be a whole number of milliseconds, not {value!r}")


@dataclass(frozen=True)
class ClockFlag(Event):
    """``color``'s time ran out."""

    kind: ClassVar[str] = "flag_fell"
    color: Color

    def __post_init__(self) -> None:
        object.__setattr__(self, "color", _color(self.color))


@dataclass(frozen=True)
class LinkChanged(Event):
    """A device (``clock``, ``board``, ``camera``) connected or lost its link."""

    kind: ClassVar[str] = "link_status"
    device: str
    up: bool
    detail: str = ""

    def __post_init__(self) -> None:
        if self.device not in ("clock", "board", "camera"):
            raise ValueError(f"unknown device {self.device!r}: clock, board or camera")


@dataclass(frozen=True)
class LinkNoisy(Event):
    """A device's cable turned noisy (``noisy``) or clean again; the shares of damaged and lost frames in %."""

    kind: ClassVar[str] = "link_quality"
    device: str
    noisy: bool
    damaged_percent: float = 0.0
    lost_percent: float = 0.0

    def __post_init__(self) -> None:
        if self.device not in ("clock", "board"):
            raise ValueError(f"unknown device {self.device!r}: clock or board")
        for name in ("damaged_percent", "lost_percent"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
                raise ValueError(f"{name} must be a percentage, got {value!r}")
            object.__setattr__(self, name, float(value))


@dataclass(frozen=True)
class Touch(Event):
    """A player's tap naming an action of theirs."""

    by: Color

    def __post_init__(self) -> None:
        object.__setattr__(self, "by", _color(self.by))


@dataclass(frozen=True)
class DoubleOffered(Touch):
    """``by`` offers the cube (the rules core's ``Double``)."""

    kind: ClassVar[str] = "double"


@dataclass(frozen=True)
class DoubleTaken(Touch):
    """``by`` takes the cube offered."""

    kind: ClassVar[str] = "take"


@dataclass(frozen=True)
class DoubleDropped(Touch):
    """``by`` drops the cube offered (and loses the game at its value)."""

    kind: ClassVar[str] = "drop"


@dataclass(frozen=True)
class Beavered(Touch):
    """``by`` takes the cube offered and redoubles at once, keeping it."""

    kind: ClassVar[str] = "beaver"


@dataclass(frozen=True)
class Raccooned(Touch):
    """``by`` answers a beaver with another redouble."""

    kind: ClassVar[str] = "raccoon"


@dataclass(frozen=True)
class ResignationOffered(Touch):
    """``by`` offers to lose the game at ``level`` (1 single, 2 mars, 3 katmerli mars)."""

    kind: ClassVar[str] = "resign"
    level: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        ResultKind(self.level)


@dataclass(frozen=True)
class DoubleNamed(Touch):
    """Acey-deucey: after playing a 1-2 in full, the player names the double it plays next."""

    kind: ClassVar[str] = "name_double"
    number: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        _die(self.number)


@dataclass(frozen=True)
class ResignationAccepted(Touch):
    """``by`` accepts the resignation offered."""

    kind: ClassVar[str] = "accept_resignation"


@dataclass(frozen=True)
class ResignationRejected(Touch):
    """``by`` rejects the resignation offered."""

    kind: ClassVar[str] = "reject_resignation"


@dataclass(frozen=True)
class AcceptIllegal(Touch):
    """The opponent of a flagged play lets it stand as played."""

    kind: ClassVar[str] = "accept_illegal"


@dataclass(frozen=True)
class CorrectIllegal(Touch):
    """The opponent of a flagged play has it corrected: the player plays the same dice again."""

    kind: ClassVar[str] = "correct_illegal"


@dataclass(frozen=True)
class ThrowConfirmed(Touch):
    """``by`` confirms the camera's reading of the questioned throw with one tap."""

    kind: ClassVar[str] = "throw_confirmed"
    struck: tuple[int, ...] = ()
    """The things the camera found (by their place among its pictures, left to right, from 0) that ``by``
    struck out as not a die."""

    def __post_init__(self) -> None:
        super().__post_init__()
        _marks(self, "struck")


@dataclass(frozen=True)
class ThrowCorrected(Touch):
    """``by`` corrects the questioned throw to ``values`` (for the opening throw: White's die, Black's die)."""

    kind: ClassVar[str] = "throw_corrected"
    values: tuple[int, int] = (1, 1)
    struck: tuple[int, ...] = ()
    """As for :class:`ThrowConfirmed`: the found things struck out as not a die."""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "values", _pair(self.values))
        _marks(self, "struck")


@dataclass(frozen=True)
class RethrowCalled(Touch):
    """``by`` calls for the questioned throw to be thrown again (a die cocked or off the surface after all).

    ``cocked`` names the found dice ``by`` says are cocked and ``struck`` the found things struck out as not a
    die (each by its place among the camera's pictures, left to right, from 0); a rethrow for another reason
    names none. They change no ruling, but they say what those dice are, so the match dice are learned from
    them."""

    kind: ClassVar[str] = "rethrow_called"
    cocked: tuple[int, ...] = ()
    struck: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        _marks(self, "cocked", "struck")


@dataclass(frozen=True)
class ResultConfirmed(Touch):
    """``by`` confirms the finished match's result (the score on the result sheet) with a deliberate tap."""

    kind: ClassVar[str] = "result_confirmed"


CUBE_MOVES = ("double", "take", "drop", "beaver", "raccoon")


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a player's name, not {value!r}")
    return value.strip()


@dataclass(frozen=True)
class MemberCubeMoved(Event):
    """A chouette cube action tapped on the tablet, naming whose cube and who acts.

    ``member`` is the team member whose cube it is; ``by`` is that member or
    the box (docs/rules.md section 2: only those two have a say on it). ``move``
    is one of :data:`CUBE_MOVES`.
    """

    kind: ClassVar[str] = "member_cube"
    member: str
    move: str
    by: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "member", _name(self.member, "member"))
        object.__setattr__(self, "by", _name(self.by, "by"))
        if self.move not in CUBE_MOVES:
            raise ValueError(f"a cube action is one of {', '.join(CUBE_MOVES)}, not {self.move!r}")


@dataclass(frozen=True)
class CallDirector(Event):
    """Someone called the director: both clocks stop (docs/rules.md section 5)."""

    kind: ClassVar[str] = "call_director"
    by: Color | None = None

    def __post_init__(self) -> None:
        if self.by is not None:
            object.__setattr__(self, "by", _color(self.by))


@dataclass(frozen=True)
class ManualPlay(Event):
    """A play typed or tapped on the tablet, in the variant's notation ("8/5 6/5")."""

    kind: ClassVar[str] = "manual_play"
    text: str


@dataclass(frozen=True)
class TimeCorrected(Event):
    """The tournament director corrected one side's remaining time from the director's station.

    It comes over the tournament network, where the broker lets only the director's account write to a
    board (TLS, a password per account, an ACL), so it carries no PIN proof: it can only set a time, and
    the journal records who sent it.
    """

    kind: ClassVar[str] = "time_corrected"
    color: Color
    remaining_ms: int
    by: str = "director"

    def __post_init__(self) -> None:
        object.__setattr__(self, "color", _color(self.color))
        if isinstance(self.remaining_ms, bool) or not isinstance(self.remaining_ms, int):
            raise ValueError("a corrected time is a whole number of milliseconds")
        if not 0 <= self.remaining_ms <= 24 * 3600 * 1000:
            raise ValueError("a corrected time is from 0 to 24 hours")
        object.__setattr__(self, "by", _name(self.by, "by"))


OVERRIDE_COMMANDS = ("resume", "void_dice", "set_dice", "undo_play", "policy", "mode", "set_time", "calibrate")
"""What a director may do: resume play, void or correct the dice, take back the last
play, change the illegal-play policy, switch tournament/casual mode, correct a side's
remaining time ("white 540000": colour and milliseconds), calibrate the camera again
("x,y x,y x,y x,y" and how: "taps" or "markers")."""


@dataclass(frozen=True)
class DirectorOverride(Event):
    """A director's decision with the proof made from the PIN when it was typed (:mod:`app.referee.pin`; "" for a wrong
    PIN). The referee checks the proof itself, so no flag written into a journal can authorise an override."""

    kind: ClassVar[str] = "director_override"
    command: str
    argument: str = ""
    proof: str = ""

    def __post_init__(self) -> None:
        if self.command not in OVERRIDE_COMMANDS:
            raise ValueError(f"unknown director command {self.command!r}; known: {', '.join(OVERRIDE_COMMANDS)}")
        if not isinstance(self.argument, str) or len(self.argument) > 200:
            raise ValueError("a director's argument is a short text")
        if not isinstance(self.proof, str) or len(self.proof) > 64:
            raise ValueError("a director's proof is at most 64 hex digits")


InputEvent = Union[
    DiceObserved,
    ManualDice,
    BoardSeen,
    CheckersSeen,
    LiftSeen,
    PlaceSeen,
    ClockPressed,
    ClockFlag,
    LinkChanged,
    LinkNoisy,
    DoubleOffered,
    DoubleTaken,
    DoubleDropped,
    Beavered,
    Raccooned,
    ResignationOffered,
    DoubleNamed,
    ResignationAccepted,
    ResignationRejected,
    AcceptIllegal,
    CorrectIllegal,
    CallDirector,
    ManualPlay,
    TimeCorrected,
    DirectorOverride,
    MemberCubeMoved,
    ThrowQuestioned,
    ThrowConfirmed,
    ThrowCorrected,
    RethrowCalled,
    ResultConfirmed,
]

EVENT_TYPES: dict[str, type[Event]] = {cls.kind: cls for cls in typing.get_args(InputEvent)}
"""Every kind of event the referee handles, by the name the journal gives it."""


def is_input(event: Event) -> TypeGuard[InputEvent]:
    """True for an event of a kind the referee handles (an :data:`InputEvent`)."""
    return EVENT_TYPES.get(event.kind) is type(event)


def _plain(value: Any) -> Any:
    if isinstance(value, Color):
        return value.name.lower()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """The event as JSON-ready data: ``{"kind": ..., field: value, ...}``."""
    assert dataclasses.is_dataclass(event)
    data: dict[str, Any] = {"kind": event.kind}
    for field in dataclasses.fields(event):
        data[field.name] = _plain(getattr(event, field.name))
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event ``data`` describes; ValueError naming the problem for anything malformed."""
    if not isinstance(data, Mapping):
        raise ValueError("an event must be a JSON object")
    kind = data.get("kind")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown event kind {kind!r}")
    assert dataclasses.is_dataclass(cls)
    names = {field.name for field in dataclasses.fields(cls)}
    unknown = set(data) - names - {"kind"}
    if unknown:
        raise ValueError(f"{kind}: unknown fields {sorted(unknown)}")
    arguments = {
        name: tuple(value) if isinstance(value, list) else value for name, value in data.items() if name != "kind"
    }
    try:
        event: Event = cls(**arguments)
    except TypeError as error:
        raise ValueError(f"{kind}: {error}") from None
    return event
