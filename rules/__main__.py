"""Command line of the rules core: ``python -m rules`` (also installed as ``tavla``).

Subcommands:
  plays   JSON lines in, JSON lines out: the legal plays of each position and
          roll (the stable contract used to check the engine from outside);
  list    the legal plays of one position and roll, for people;
  judge   is BEFORE -> AFTER a legal play of the roll? Names the rule if not;
  show    a position as a diagram with pip counts;
  demo    a whole game between two random players, judged turn by turn.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, Iterable, Sequence, TextIO

from rules.errors import IllegalPlay, RulesError
from rules.game import Game, GameEnd, Phase
from rules.gnubg_id import decode_position_id, encode_position_id
from rules.judge import judge
from rules.movegen import legal_results, numbers_results
from rules.position import Color, Position
from rules.registry import find_variant
from rules.selfplay import add_selfplay_parser, run_selfplay
from rules.variant import Variant


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


def _position_arg(text: str, variant: Variant, turn: Color = Color.WHITE) -> Position:
    """A position of the variant, given as a Position ID (``turn`` on roll) or in the JSON form."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"the position is not valid JSON: {error}") from None
        return variant.position_type.from_json(data)
    if not variant.gnubg_ids:
        raise ValueError(f"give {variant.name} positions in the JSON form (see README), not as Position IDs")
    return variant.position_type(*decode_position_id(text, turn))


def _result_label(position: Position, variant: Variant) -> str:
    return encode_position_id(position) if variant.gnubg_ids else json.dumps(position.to_json())


def _dice_arg(values: Sequence[str]) -> tuple[int, int]:
    digits = "".join(values).replace("-", "").replace(",", "").replace(" ", "")
    if len(digits) != 2 or not digits.isdigit():
        raise ValueError(f"dice must be two numbers like '3 1' or '31', got {' '.join(values)!r}")
    return (int(digits[0]), int(digits[1]))


def cmd_list(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    position = _position_arg(args.position, variant)
    write = variant.write_play
    dice = _dice_arg(args.dice)
    results = legal_results(position, dice)
    print(position)
    print(f"pips: to move {position.pips(position.turn)}, other {position.pips(position.turn.other)}")
    print(f"{dice[0]}-{dice[1]}: {len(results)} distinct result(s)")
    for text, after in sorted((write(position, play) or "(no move)", after) for after, play in results.items()):
        print(f"  {text:<28} -> {_result_label(after, variant)}")
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    before = _position_arg(args.before, variant)
    after = _position_arg(args.after, variant, Color.BLACK)
    write = variant.write_play
    dice = _dice_arg(args.dice)
    try:
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
    print(f"{variant.name}: {game.position.turn.name.lower()} wins the opening throw"
          f" after {game.opening_ties} tie(s)")
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
        print(f"{len(game.turns):>3}. {mover.name.lower():<5} {dice[0]}-{dice[1]}: {text:<26}"
              f" ({len(options)} legal)  {where}")
    result = game.result
    assert result is not None
    print(game.position)
    if result.winner is None:
        print(f"a draw ({result.how.value.replace('_', ' ')})")
    else:
        how = "" if result.how is GameEnd.BORNE_OFF else f" ({result.how.value.replace('_', ' ')})"
        print(f"{result.winner.name.lower()} wins a {result.kind.name.lower()}{how}: {result.points} point(s)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tavla", description="The tavla rules core.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_selfplay_parser(sub)
    sub.add_parser("plays", help="JSON lines: legal plays of each position and roll")
    p_list = sub.add_parser("list", help="legal plays of a position and a roll")
    p_list.add_argument("position", help="Position ID (player on roll to move) or the JSON form")
    p_list.add_argument("dice", nargs="+", help="the roll, e.g. '3 1'")
    p_judge = sub.add_parser("judge", help="is BEFORE -> AFTER a legal play of the roll?")
    p_judge.add_argument("before", help="Position ID (player on roll to move) or the JSON form")
    p_judge.add_argument("dice", nargs=2, help="the roll, e.g. '3 1'")
    p_judge.add_argument("after", help="Position ID as shown with the opponent on roll, or the JSON form")
    p_show = sub.add_parser("show", help="draw a position")
    p_show.add_argument("position", help="Position ID or the JSON form")
    for command in (p_list, p_judge, p_show):
        command.add_argument("--variant", default="backgammon", help="any variant name, e.g. 'uzun tavla'")
    p_demo = sub.add_parser("demo", help="a whole random game, judged turn by turn")
    p_demo.add_argument("--seed", type=int, default=1)
    p_demo.add_argument("--variant", default="backgammon", help="backgammon (tavla) or uzun (uzun tavla)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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
