"""Runs inside GNU Backgammon's embedded Python (``gnubg -t -q -p``).

Reads cases from the JSON file named by the environment variable
TAVLA_ORACLE_IN ({"id", "position_id", "dice"} each) and writes, to
TAVLA_ORACLE_OUT, every legal move GNU Backgammon lists with the Position ID
of its result (opponent on roll), computed from gnubg's own parse of the move.
"""

import json
import os

import gnubg  # type: ignore[import-not-found]  # only inside gnubg


def after_id(board, pairs):
    opponent, mover = [list(side) for side in board]
    for source, dest in pairs:
        mover[source - 1] -= 1
        if dest > 0:
            mover[dest - 1] += 1
            facing = 24 - dest
            if opponent[facing] == 1:
                opponent[facing] = 0
                opponent[24] += 1
    return gnubg.positionid((mover, opponent))


def main():
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("set evaluation chequerplay evaluation plies 0")
    gnubg.command("set variation " + os.environ.get("TAVLA_ORACLE_VARIATION", "standard"))
    gnubg.command("new session")
    with open(os.environ["TAVLA_ORACLE_IN"]) as handle:
        cases = json.load(handle)
    out = []
    for case in cases:
        gnubg.command("set board " + case["position_id"])
        gnubg.command("set dice %d %d" % tuple(case["dice"]))
        entry = {"id": case["id"], "board_id": gnubg.positionid()}
        try:
            hints = gnubg.hint(100000)["hint"]
        except Exception as error:  # gnubg raises when there is no move
            entry["moves"] = []
            entry["error"] = str(error)
        else:
            board = gnubg.board()
            entry["moves"] = [
                {"move": h["move"], "after_id": after_id(board, gnubg.parsemove(h["move"]))} for h in hints
            ]
        out.append(entry)
    with open(os.environ["TAVLA_ORACLE_OUT"], "w") as handle:
        json.dump(out, handle)


main()
