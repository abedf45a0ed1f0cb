"""Reading plays written by people and programs.

Accepts GNU Backgammon's notation and its everyday variants: "24-18" for
"24/18", 25 or "bar" for the bar, 0 or "off" for borne off, "(2)" repeats,
"*" hits optional, chains "13/7*/4", joined moves "24/13", commas, extra
spaces. A text is read as the board it leads to, and the answer is the
legal play with that result: the parser never returns an illegal play.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Sequence

from rules.errors import AmbiguousPlay, IllegalPlay, InvalidNotation
from rules.judge import Violation, judge
from rules.movegen import legal_results
from rules.play import Play, check_dice
from rules.position import BAR, OFF, SLOTS, Aside, Color, Position, entering_from_bar
from rules.registry import variant_of
from rules.steprules import Landing

_POINT = r"(?:bar|b|off|o|\d{1,2})"
_MOVE = re.compile(rf"^({_POINT})((?:/{_POINT}\*?)+)(?:\((\d)\))?$")
_HOP = re.compile(rf"/({_POINT})(\*?)")


class Chain(NamedTuple):
    """One written move: the points a checker passes, which of them hit, how many times."""

    points: tuple[int, ...]
    hits: frozenset[int]
    times: int


def _point(word: str) -> int:
    if word in ("bar", "b"):
        return BAR
    if word in ("off", "o"):
        return OFF
    value = int(word)
    if value > BAR:
        raise InvalidNotation(f"there is no point {value} (points are 1-24, 25 bar, 0 off)")
    return value


def parse_chains(text: str) -> list[Chain]:
    """Split notation into chains; raises InvalidNotation for text that is no play."""
    cleaned = text.strip().lower().replace("-", "/")
    cleaned = re.sub(r"\s*/\s*", "/", cleaned)
    cleaned = re.sub(r"\s+\*", "*", cleaned)
    cleaned = re.sub(r"\s*\(\s*(\d)\s*\)", r"(\1)", cleaned)
    tokens = [t for t in re.split(r"[\s,;]+", cleaned) if t]
    chains: list[Chain] = []
    for token in tokens:
        match = _MOVE.match(token)
        if not match:
            raise InvalidNotation(f"cannot read {token!r} as a move like '24/18', 'bar/22' or '6/off'")
        points = [_point(match.group(1))]
        hits: set[int] = set()
        for hop in _HOP.finditer(match.group(2)):
            points.append(_point(hop.group(1)))
            if hop.group(2):
                hits.add(points[-1])
        count = int(match.group(3) or 1)
        if not 1 <= count <= 4:
            raise InvalidNotation(f"a move is repeated 1 to 4 times, not {count}")
        if OFF in points[:-1]:
            raise InvalidNotation(f"{token!r}: a borne-off checker cannot move on")
        if BAR in points[1:]:
            raise InvalidNotation(f"{token!r}: a checker cannot move to the bar")
        chains.append(Chain(tuple(points), frozenset(hits), count))
    return chains


def parse_play(position: Position, dice: Sequence[int], text: str) -> Play:
    """The legal play of ``dice`` in ``position`` that ``text`` describes.

    Raises InvalidNotation for unreadable text, AmbiguousPlay when the text
    fits several legal plays, and IllegalPlay (naming the rule) when the text
    describes a play the rules forbid.
    """
    pair = check_dice(dice)
    chains = _own_numbering(position, parse_chains(text))
    results = legal_results(position, pair)
    if not chains:
        for after, play in results.items():
            if not play.steps:
                return play
        raise IllegalPlay("nothing was played, but the roll can be played", legal=_sorted(results))
    for chain in chains:
        if any(b >= a for a, b in zip(chain.points, chain.points[1:])):
            raise IllegalPlay(
                f"{'/'.join(map(str, chain.points))}: a checker moved backwards",
                [Violation.WRONG_DIRECTION],
                _sorted(results),
            )
    waiting = position.waiting(position.turn)
    mover = list(position.mover)
    mover[BAR] += waiting  # checkers still to enter are written as entering from the bar
    for chain in chains:
        mover[chain.points[0]] -= chain.times
        mover[chain.points[-1]] += chain.times
    if min(mover) < 0:
        empty = [p for p in range(SLOTS) if mover[p] < 0]
        names = ", ".join("bar" if p == BAR else str(p) for p in empty)
        raise IllegalPlay(f"there are not enough checkers on {names} for this play", legal=_sorted(results))
    target = tuple(mover)
    written_hits = frozenset().union(*(chain.hits for chain in chains))
    candidates = [
        (after, play)
        for after, play in results.items()
        if entering_from_bar(after.side(position.turn), after.waiting(position.turn)) == target
    ]
    exact = [c for c in candidates if c[1].hits == written_hits]
    if len(exact) == 1:
        return exact[0][1]
    # Stars are optional: a missing one is filled in, a stray one forgiven,
    # but a hidden intermediate hit that could go either way is never guessed.
    covering = [c for c in candidates if written_hits <= c[1].hits] or candidates
    if len(covering) == 1:
        return covering[0][1]
    if len(covering) > 1:
        plays = sorted((play for _, play in covering), key=Play.notation)
        options = ", ".join(p.notation() for p in plays)
        raise AmbiguousPlay(f"{text!r} fits more than one play: {options}", plays)
    left_waiting = min(waiting, target[BAR])
    implied = _implied_board(position, (*target[:BAR], target[BAR] - left_waiting), chains)
    if left_waiting:
        implied = type(position).unchecked(
            implied.white,
            implied.black,
            implied.turn,
            Aside.of_sides(position.turn, (), left_waiting, (), position.waiting(position.turn.other)),
        )
    judge(position, pair, implied)
    raise IllegalPlay(f"{text!r} is not a legal play of {pair[0]}-{pair[1]}", legal=_sorted(results))


def _own_numbering(position: Position, chains: list[Chain]) -> list[Chain]:
    """Chains in the mover's own numbering, for variants written in White's numbering."""
    if not variant_of(position).white_numbering or position.turn is Color.WHITE:
        return chains
    facing = position.RULES.facing

    def own(point: int) -> int:
        return point if point in (OFF, BAR) else facing[point]

    return [Chain(tuple(own(p) for p in c.points), frozenset(own(p) for p in c.hits), c.times) for c in chains]


def _implied_board(position: Position, mover: tuple[int, ...], chains: list[Chain]) -> Position:
    """The board the text leads to, hitting blots where the text lands (where hitting exists)."""
    opponent = list(position.opponent)
    if position.RULES.landing is not Landing.HIT:
        return type(position).from_sides(mover, tuple(opponent), position.turn)
    landed = {p for chain in chains for p in chain.points[1:]} - {OFF}
    for point in sorted(landed):
        facing = position.RULES.facing[point]
        if opponent[facing] == 1:
            opponent[facing] = 0
            opponent[BAR] += 1
    return type(position).from_sides(mover, tuple(opponent), position.turn)


def _sorted(results: dict[Position, Play]) -> list[Play]:
    return sorted(results.values(), key=Play.notation)
