"""A random but legal match player, and the ``selfplay`` command that writes its match.

Both players pick at random among what the rules allow: legal plays, doubles
when the cube may be turned, takes, drops, beavers and raccoons, and now and
then a resignation that the opponent accepts or declines. Everything goes
through the rules core, so the match it writes is a test of the cube, the
match and the .mat writer, reproducible from its seed::

    python -m rules selfplay --length 7 --seed 3 --out match.mat
"""

from __future__ import annotations

import argparse
import datetime
import random
import sys
from dataclasses import dataclass
from typing import Any

from rules.cube import CubeRules
from rules.cubeful import (
    AcceptResignation,
    Action,
    Beaver,
    Double,
    Drop,
    Move,
    OpeningThrow,
    Raccoon,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from rules.game import Phase, ResultKind
from rules.mat import check_writable, write_mat
from rules.match import Match, MatchHeader
from rules.registry import find_variant


@dataclass(frozen=True, slots=True)
class Temperament:
    """How often the random players use the cube and resign (chances per opportunity)."""

    double: float = 0.03
    take: float = 0.6
    beaver: float = 0.15
    raccoon: float = 0.3
    resign: float = 0.005
    accept_resignation: float = 0.5


def random_action(match: Match, rng: random.Random, temperament: Temperament = Temperament()) -> Action:
    """One legal action for whoever must act in the game in progress, chosen at random."""
    state = match.game
    cube = state.cube
    if state.game.phase is Phase.OPENING:
        return OpeningThrow(rng.randint(1, 6), rng.randint(1, 6))
    if cube.offered_by is not None:
        doubled = cube.offered_by.other
        if cube.rules.money and cube.rules.beavers and rng.random() < temperament.beaver:
            try:
                cube.beaver(doubled)
            except ValueError:
                pass
            else:
                return Beaver(doubled)
        return Take(doubled) if rng.random() < temperament.take else Drop(doubled)
    if state.resignation is not None:
        answering = state.resignation.by.other
        if rng.random() < temperament.accept_resignation:
            return AcceptResignation(answering)
        return RejectResignation(answering)
    mover = state.position.turn
    if state.game.phase is Phase.PLAY:
        return Move(rng.choice(state.game.legal_plays()))
    if cube.raccoon_by is mover and cube.rules.raccoons and rng.random() < temperament.raccoon:
        try:
            cube.raccoon(mover)
        except ValueError:
            pass
        else:
            return Raccoon(mover)
    if rng.random() < temperament.resign:
        return Resign(mover, rng.choice(list(ResultKind)))
    if state.may_double(mover) and rng.random() < temperament.double:
        return Double(mover)
    return Roll((rng.randint(1, 6), rng.randint(1, 6)))


def random_match(
    start: Match,
    seed: int,
    *,
    games: int | None = None,
    temperament: Temperament = Temperament(),
) -> Match:
    """Play ``start`` out at random: to its end, or for ``games`` games (a money session's stop)."""
    rng = random.Random(seed)
    match = start
    while not match.over and (games is None or len(match.finished_games) < games):
        match = match.apply(random_action(match, rng, temperament))
    return match


def add_selfplay_parser(subparsers: Any) -> None:
    """Register ``selfplay`` on the command line's subcommands."""
    parser = subparsers.add_parser("selfplay", help="a random but legal match, written as a Jellyfish .mat file")
    parser.add_argument("--length", type=int, default=7, help="match length in points; 0 for a money session")
    parser.add_argument("--seed", type=int, default=1, help="the random seed: the same seed gives the same match")
    parser.add_argument("--games", type=int, default=5, help="games of a money session (--length 0)")
    parser.add_argument("--out", help="the .mat file to write (default: standard output)")
    parser.add_argument("--players", nargs=2, default=["White", "Black"], metavar=("WHITE", "BLACK"))
    parser.add_argument("--variant", default="backgammon", help="backgammon or nackgammon")
    parser.add_argument("--date", type=datetime.date.fromisoformat, help="event date, YYYY-MM-DD (default: today)")
    parser.add_argument("--event", default="tavla selfplay", help="event name for the header")
    parser.add_argument("--no-crawford", action="store_true", help="play the match without the Crawford rule")


def run_selfplay(args: argparse.Namespace) -> int:
    """Play the match and write it; a summary goes to standard error."""
    header = MatchHeader(
        players=(args.players[0], args.players[1]),
        event=args.event,
        date=args.date or datetime.date.today(),
        round=f"seed {args.seed}",
    )
    start = Match.new(
        args.length,
        header,
        crawford=not args.no_crawford,
        cube=CubeRules(raccoons=args.length == 0, automatic_doubles=0),
        variant=find_variant(args.variant),
    )
    check_writable(start)
    match = random_match(start, args.seed, games=args.games if args.length == 0 else None)
    text = write_mat(match)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    names = header.players
    kind = f"{args.length}-point match" if args.length else "money session"
    print(
        f"{kind}, seed {args.seed}: {len(match.finished_games)} game(s),"
        f" {names[0]} {match.score[0]} - {names[1]} {match.score[1]}" + (f" -> {args.out}" if args.out else ""),
        file=sys.stderr,
    )
    return 0
