"""Command line of the rules core: ``python -m rules`` (also installed as ``tavla``).

A position is given wherever one is taken as a GNU Backgammon Position ID,
gnubg's ``PositionID:MatchID`` pair, an XGID, or the JSON form; the two
match-carrying forms also give the side on roll and, when rolled, the dice.

Subcommands:
  plays   JSON lines in, JSON lines out: the legal plays of each position and
          roll (the stable contract used to check the engine from outside);
  list    the legal plays of one position and roll, for people;
  judge   is BEFORE -> AFTER a legal play of the roll? Names the rule if not
          (AFTER may also be the play in notation, e.g. '8/5 6/5');
  show    a position as a diagram with pip counts;
  demo    a whole game between two random players, judged turn by turn.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from dataclasses import dataclass
from typing import Any, Iterable, Sequence, TextIO

from rules.errors import IllegalPlay, RulesError
from rules.game import Game, GameEnd, Phase
from rules.gnubg_id import decode_position_id, encode_position_id
from rules.judge import judge
from rules.match_id import decode_match_id
from rules.movegen import legal_results, numbers_results
from rules.notation import parse_play
from rules.position import Color, Position
from rules.registry import find_variant
from rules.selfplay import add_selfplay_parser, run_selfplay
from rules.variant import Variant
from rules.xgid import decode_xgid


def plays_for_request(request: Any) -> dict[str, Any]:
    """Answer one ``plays`` request (see README); errors become {"error": ...}."""
    if not isinstance(request, dict):
        return {"id": None, "error": "each line must be a JSON object"}
    ident = request.get("id")
    try:
        name = request.get("variant", "backgammon")
        if not isinstance(name, str):
            raise ValueError("'variant' must be a name such as 'backgammon' or 'uzun'")
        variant = find_variant(name)
        position = _request_position(request, variant)
        if "passed" in request:
            passed = request["passed"]
            if not isinstance(passed, list):
                raise ValueError("'passed' must list the numbers passed on, e.g. [6, 6] (Plakoto Express)")
            results = numbers_results(position, passed)
        else:
            dice = request.get("dice")
            if not isinstance(dice, list):
                raise ValueError("'dice' must be a list of two numbers, e.g. [3, 1]")
            results = legal_results(position, dice)
    except (RulesError, ValueError, TypeError) as error:
        return {"id": ident, "error": str(error)}
    moves = []
    for after, play in results.items():
        if not play.steps:
            continue
        move: dict[str, Any] = {"move": variant.write_play(position, play)}
        if variant.gnubg_ids:
            move["after_id"] = encode_position_id(after)
        else:
            move["after"] = after.to_json()
        moves.append(move)
    moves.sort(key=lambda move: move.get("after_id") or json.dumps(move["after"], sort_keys=True))
    return {"id": ident, "moves": moves}


def _request_position(request: dict[str, Any], variant: Variant) -> Position:
    if "position" in request:
        return variant.position_type.from_json(request["position"])
    if "xgid" in request:
        if not isinstance(request["xgid"], str):
            raise ValueError("'xgid' must be a string such as 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'")
        return read_position(request["xgid"], variant).position
    position_id = request.get("position_id")
    if not variant.gnubg_ids:
        raise ValueError(f"{variant.name} positions are given as 'position' (JSON form), not as Position IDs")
    if not isinstance(position_id, str):
        raise ValueError("give 'position_id' (GNU Backgammon Position ID) or 'position' (JSON form)")
    return variant.position_type(*decode_position_id(position_id))


def run_plays(lines: Iterable[str], out: TextIO) -> None:
    """Answer each line; a bad line gets an error line and the batch goes on."""
    for line in lines:
        if not line.strip():
            continue
        out.write(answer_line(line) + "\n")
        out.flush()


def answer_line(line: str) -> str:
    """The JSON answer to one request line, never an exception: a number too long to convert, nesting too deep
    for the parser or anything else malformed becomes ``{"id": ..., "error": ...}``."""
    try:
        request = json.loads(line)
    except (ValueError, RecursionError) as error:  # JSONDecodeError, a 5,000-digit number, 100,000-deep nesting
        return json.dumps({"id": None, "error": f"not JSON: {_short(error)}"})
    try:
        answer = plays_for_request(request)
    except (RecursionError, OverflowError) as error:
        answer = {"id": None, "error": _short(error)}
    try:
        return json.dumps(answer)
    except (ValueError, RecursionError):  # an id that cannot be written back (too deep, too long a number)
        return json.dumps(dict(answer, id=None))


def _short(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 200 else text[:200] + "..."


@dataclass(frozen=True)
class GivenPosition:
    """A position read from the command line, with the dice when its form carries them."""

    position: Position
    dice: tuple[int, int] | None = None


def read_position(text: str, variant: Variant, turn: Color = Color.WHITE) -> GivenPosition:
    """A position of the variant in any form the command line takes.

    A bare Position ID leaves the side on roll to ``turn``; an XGID and gnubg's
    ``PositionID:MatchID`` say it themselves, and the dice if they are rolled.
    """
    text = text.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"the position is not valid JSON: {error}") from None
        return GivenPosition(variant.position_type.from_json(data))
    if not variant.gnubg_ids:
        raise ValueError(f"give {variant.name} positions in the JSON form (see README), not as Position IDs or XGIDs")
    if text.upper().startswith("XGID=") or text.count(":") == 9:
        position, info = decode_xgid(text)
    elif text.count(":") == 1:  # gnubg's "PositionID:MatchID", as its status line and clipboard give it
        position_id, match_id = text.split(":")
        info = decode_match_id(match_id)
        position = decode_position_id(position_id, info.on_roll)
    else:
        return GivenPosition(variant.position_type(*decode_position_id(text, turn)))
    return GivenPosition(variant.position_type(*position), info.dice)


def _position_arg(text: str, variant: Variant, turn: Color = Color.WHITE) -> Position:
    """A position of the variant in any accepted form (``turn`` on roll for a bare Position ID)."""
    return read_position(text, variant, turn).position


def _result_label(position: Position, variant: Variant) -> str:
    return encode_position_id(position) if variant.gnubg_ids else json.dumps(position.to_json())


def _dice_arg(values: Sequence[str]) -> tuple[int, int]:
    digits = "".join(values).replace("-", "").replace(",", "").replace(" ", "")
    if len(digits) != 2 or not digits.isdigit():
        raise ValueError(f"dice must be two numbers like '3 1' or '31', got {' '.join(values)!r}")
    return (int(digits[0]), int(digits[1]))


def _roll(args_dice: Sequence[str], given: GivenPosition) -> tuple[int, int]:
    """The roll typed on the command line, or the one the position's XGID or Match ID carries."""
    if args_dice:
        return _dice_arg(args_dice)
    if given.dice is None:
        raise ValueError("give the roll, e.g. '3 1' (this position's form carries no dice)")
    return given.dice


def cmd_list(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    given = read_position(args.position, variant)
    position = given.position
    write = variant.write_play
    dice = _roll(args.dice, given)
    results = legal_results(position, dice)
    print(position)
    print(f"pips: to move {position.pips(position.turn)}, other {position.pips(position.turn.other)}")
    print(f"{dice[0]}-{dice[1]}: {len(results)} distinct result(s)")
    for text, after in sorted((write(position, play) or "(no move)", after) for after, play in results.items()):
        print(f"  {text:<28} -> {_result_label(after, variant)}")
    return 0


def _after_arg(text: str, before: Position, dice: tuple[int, int], variant: Variant) -> Position:
    """The position after the play: given as a position, or as the play itself in notation."""
    try:
        return _position_arg(text, variant, before.turn.other)
    except (RulesError, ValueError) as as_position:
        try:
            play = parse_play(before, dice, text)
        except IllegalPlay:
            raise
        except (RulesError, ValueError):
            raise as_position from None
    return next(after for after, legal in legal_results(before, dice).items() if legal == play)


def cmd_judge(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    given = read_position(args.before, variant)
    before = given.position
    write = variant.write_play
    dice = _roll(args.dice, given)
    try:
        after = _after_arg(args.after, before, dice, variant)
        play = judge(before, dice, after)
    except IllegalPlay as error:
        print(f"illegal: {error}")
        if error.legal:
            print("legal plays: " + ", ".join(write(before, p) or "(no move)" for p in error.legal))
        return 1
    print(f"legal: {write(before, play) or '(no move)'}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    position = _position_arg(args.position, find_variant(args.variant))
    print(position)
    print(f"pips: to move {position.pips(position.turn)}, other {position.pips(position.turn.other)}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Two random players; every play is listed, judged and printed."""
    rng = random.Random(args.seed)
    variant = find_variant(args.variant)
    game = Game.new(variant=variant)
    while game.phase is Phase.OPENING:
        game = game.opening_throw(rng.randint(1, 6), rng.randint(1, 6))
    print(f"{variant.name}: {game.position.turn.name.lower()} wins the opening throw after {game.opening_ties} tie(s)")
    while game.phase is not Phase.OVER:
        if game.phase is Phase.ROLL:
            game = game.roll(rng.randint(1, 6), rng.randint(1, 6))
        if game.phase is Phase.NAME_DOUBLE:
            game = game.name_double(rng.randint(1, 6))
            print(f"     {game.position.turn.name.lower():<5} names {game.dice} after a 1-2")
        mover = game.position.turn
        dice = (game.pending[0], game.pending[0]) if game.phase is Phase.PASSED else game.dice
        assert dice is not None
        if game.phase is Phase.PASSED:
            print(f"     {mover.name.lower():<5} plays the numbers passed on: {list(game.pending)}")
        options = game.legal_plays()
        choice = rng.choice(options)
        before = game.position
        game = game.play(choice)
        text = variant.write_play(before, choice) or "(no move)"
        where = encode_position_id(game.position) if variant.gnubg_ids else f"pips {game.position.pips(mover)}"
        print(
            f"{len(game.turns):>3}. {mover.name.lower():<5} {dice[0]}-{dice[1]}: {text:<26}"
            f" ({len(options)} legal)  {where}"
        )
    result = game.result
    assert result is not None
    print(game.position)
    if result.winner is None:
        print(f"a draw ({result.how.value.replace('_', ' ')})")
    else:
        how = "" if result.how is GameEnd.BORNE_OFF else f" ({result.how.value.replace('_', ' ')})"
        print(f"{result.winner.name.lower()} wins a {result.kind.name.lower()}{how}: {result.points} point(s)")
    return 0


POSITION_HELP = "a Position ID (the player on roll to move), gnubg's PositionID:MatchID, an XGID, or the JSON form"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tavla", description="The tavla rules core.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_selfplay_parser(sub)
    sub.add_parser("plays", help="JSON lines: legal plays of each position and roll")
    p_list = sub.add_parser("list", help="legal plays of a position and a roll")
    p_list.add_argument("position", help=POSITION_HELP)
    p_list.add_argument("dice", nargs="*", help="the roll, e.g. '3 1' (default: the dice of an XGID or Match ID)")
    p_judge = sub.add_parser("judge", help="is BEFORE -> AFTER a legal play of the roll?")
    p_judge.add_argument("before", help=POSITION_HELP)
    p_judge.add_argument("dice", nargs=2, help="the roll, e.g. '3 1'")
    p_judge.add_argument(
        "after",
        help="the position after (a Position ID as shown with the opponent on roll,"
        " an XGID, PositionID:MatchID or the JSON form), or the play in notation, e.g. '8/5 6/5'",
    )
    p_show = sub.add_parser("show", help="draw a position")
    p_show.add_argument("position", help=POSITION_HELP)
    for command in (p_list, p_judge, p_show):
        command.add_argument("--variant", default="backgammon", help="any variant name, e.g. 'uzun tavla'")
    p_demo = sub.add_parser("demo", help="a whole random game, judged turn by turn")
    p_demo.add_argument("--seed", type=int, default=1)
    p_demo.add_argument("--variant", default="backgammon", help="backgammon (tavla) or uzun (uzun tavla)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = _run(args)
        sys.stdout.flush()  # a reader gone early is found here, not at interpreter exit
        return code
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _run(args: argparse.Namespace) -> int:
    if args.command == "plays":
        run_plays(sys.stdin, sys.stdout)
        return 0
    handlers = {"list": cmd_list, "judge": cmd_judge, "show": cmd_show, "demo": cmd_demo, "selfplay": run_selfplay}
    try:
        return handlers[args.command](args)
    except (RulesError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
