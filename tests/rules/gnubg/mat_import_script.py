"""Runs inside GNU Backgammon's embedded Python (``gnubg -t -q -p``): imports .mat files.

Reads cases from the JSON file named by TAVLA_ORACLE_IN ({"id", "path",
"settings": [gnubg commands to run first]}) and writes to TAVLA_ORACLE_OUT,
for each, what gnubg made of the file: ``gnubg.match()`` (players, games,
every recorded action with the board before it). Between files it prints
"@@BEGIN id" / "@@END id" markers, flushing C's and Python's buffers, so the
caller can attribute every WARNING gnubg prints on standard output to a file.
"""

import ctypes
import json
import os
import sys

import gnubg  # type: ignore[import-not-found]  # only inside gnubg

_LIBC = ctypes.CDLL(None)


def _mark(text):
    _LIBC.fflush(None)
    sys.stdout.flush()
    print(text, flush=True)


def main():
    with open(os.environ["TAVLA_ORACLE_IN"]) as handle:
        cases = json.load(handle)
    out = []
    for case in cases:
        for command in case.get("settings", []):
            gnubg.command(command)
        _mark("@@BEGIN %s" % case["id"])
        gnubg.command("import mat %s" % case["path"])
        _mark("@@END %s" % case["id"])
        out.append({"id": case["id"], "match": gnubg.match(0, 1)})
    with open(os.environ["TAVLA_ORACLE_OUT"], "w") as handle:
        json.dump(out, handle, default=str)


main()
