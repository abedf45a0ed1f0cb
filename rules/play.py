"""Plays: the single-checker steps of one turn and their canonical notation.

A :class:`Step` moves one checker by one die, in the mover's own numbering
(25 is the bar, 0 is off). A :class:`Play` is the steps of one turn. The
canonical text is GNU Backgammon's: steps sorted by source point, one
checker's consecutive steps joined ("24/14"), intermediate points kept only
where they hit ("13/7*/4"), and repeats counted ("8/5(2)").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

from rules.errors import IllegalPlay, InvalidDice
from rules.position import BAR, OFF, Position
from rules.searchspace import frame_of, into_search, out_of_search, position_after
from rules.steprules import Landing

Dice = tuple[int, int]


class Step(NamedTuple):
    """One checker moved by one die: source, destination (0 = off), whether it hit."""

    source: int
    dest: int
    hit: bool = False


def check_dice(dice: Sequence[int]) -> Dice:
    """Return the dice as a pair, or raise InvalidDice."""
    if len(dice) != 2:
        raise InvalidDice(f"a roll is two dice, got {len(dice)}: {list(dice)}")
    first, second = dice
    for die in (first, second):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise InvalidDice(f"a die shows 1 to 6, got {die!r}")
    return (first, second)


def point_name(point: int) -> str:
    """'bar', 'off' or the point number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


@dataclass(frozen=True, slots=True)
class Play:
    """The steps of one turn. The empty play is the turn lost ("yanar")."""

    steps: tuple[Step, ...] = ()

    @property
    def hits(self) -> frozenset[int]:
        """Points (mover's numbering) where an opposing blot was hit."""
        return frozenset(step.dest for step in self.steps if step.hit)

    def notation(self) -> str:
        """Canonical GNU Backgammon notation; empty for the empty play."""
        return format_steps(self.steps)

    def __str__(self) -> str:
        return self.notation() or "(no move)"

    def __len__(self) -> int:
        return len(self.steps)


def join_chains(steps: Sequence[Step], keep: frozenset[int] | set[int] = frozenset()) -> list[list[int]]:
    """One checker's consecutive steps joined into a chain of points, farthest source first.

    Intermediate points are dropped unless in ``keep`` (GNU Backgammon keeps
    the points where a blot was hit).
    """
    ordered = sorted(steps, key=lambda step: (step.source, step.dest), reverse=True)
    chains: list[list[int]] = []
    for step in ordered:
        for chain in chains:
            if chain[-1] == step.source and chain[-1] != OFF:
                if chain[-1] not in keep:
                    chain.pop()
                chain.append(step.dest)
                break
        else:
            chains.append([step.source, step.dest])
    return chains


def format_steps(steps: Sequence[Step]) -> str:
    """GNU Backgammon's text for a list of steps."""
    hit_points = {step.dest for step in steps if step.hit}
    chains = join_chains(steps, hit_points)
    groups: dict[tuple[int, ...], int] = {}
    for chain in chains:
        groups[tuple(chain)] = groups.get(tuple(chain), 0) + 1
    texts: list[str] = []
    unmarked = set(hit_points)  # each hit is starred once, where first written
    for chain_points, count in groups.items():
        names = [point_name(chain_points[0])]
        for point in chain_points[1:]:
            names.append(point_name(point) + ("*" if point in unmarked else ""))
            unmarked.discard(point)
        texts.append("/".join(names) + (f"({count})" if count > 1 else ""))
    return " ".join(texts)


def apply_steps(position: Position, steps: Sequence[Step]) -> Position:
    """Carry out the steps for the side to move; the other side moves next.

    Checks each step mechanically (a checker is there and free to move, the
    landing point is not closed) but not the rules of the turn as a whole;
    that is what :func:`rules.judge.judge` is for.
    """
    rules = position.RULES
    frame = frame_of(position)
    me, opp = into_search(position.mover, position.opponent, frame, rules)
    closed_at = 1 if rules.landing is Landing.BLOCK else 2
    for step in steps:
        if not 1 <= step.source <= BAR or not OFF <= step.dest < step.source:
            raise IllegalPlay(f"step {point_name(step.source)}/{point_name(step.dest)} goes nowhere legal")
        if step.source in frame.my_pinned:
            raise IllegalPlay(f"the checker on {step.source} is pinned")
        if me[step.source] <= 0:
            raise IllegalPlay(f"no checker on {point_name(step.source)} to move")
        me[step.source] -= 1
        if step.dest != OFF:
            facing = rules.facing[step.dest]
            if opp[facing] >= closed_at:
                raise IllegalPlay(f"point {step.dest} is closed")
            if opp[facing] == 1 and not me[step.dest] and rules.landing is Landing.HIT:
                opp[facing] = 0
                opp[BAR] += 1
        me[step.dest] += 1
    return position_after(position, out_of_search(me + opp, frame, rules))
