"""``python -m app``: the tablet app; ``python -m app demo``: the headless demo.

  python -m app                 the Kivy app (set-up, play, director, history)
  python -m app --sim           the same with simulated clock, board and camera (the real chain)
  python -m app --camera SOURCE the dice camera: an index (0, 1, ...), a video file or an image folder;
                                without it (and without --sim) the dice are typed
  python -m app --clock PORT    a clock on PORT (a path, a pyserial URL, usb:VID:PID[:SERIAL]);
                                by default any Raspberry Pi Pico on USB that introduces itself as one
  python -m app demo ...        a whole simulated match without a screen
  python -m app verify FILE     check a journal's hash chain and replay it
  python -m app export FILE OUT write a journal's match as .mat, .json, .txt or .html
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description="tavla referee companion")
    parser.add_argument("--sim", action="store_true", help="simulated clock, sensing board and dice")
    parser.add_argument("--journal", help="journal file of the app (resumed if it exists)")
    parser.add_argument("--lang", choices=("tr", "en"), default="tr")
    parser.add_argument("--camera", help="the dice camera: an index (0), a video file or an image folder")
    parser.add_argument("--clock", help="the clock's port (default: look for it on USB)")
    parser.add_argument("--board", help="the sensing board's port (default: look for it on USB)")
    subparsers = parser.add_subparsers(dest="command")
    from app.sim.demo import add_demo_parser, run_demo

    add_demo_parser(subparsers)
    verify = subparsers.add_parser("verify", help="check a journal's hash chain and replay it")
    verify.add_argument("journal")
    exporter = subparsers.add_parser("export", help="write a journal's match as .mat, .json, .txt or .html")
    exporter.add_argument("journal")
    exporter.add_argument("out")
    exporter.add_argument("--lang", choices=("tr", "en"), default="en")
    args = parser.parse_args(argv)
    if args.command == "demo":
        return run_demo(args)
    if args.command in ("verify", "export"):
        return _journal_command(args)
    from app.ui.main import run_app

    return run_app(sim=args.sim, journal=args.journal, language=args.lang, clock_port=args.clock,
                   board_port=args.board, camera=args.camera)


def _journal_command(args: argparse.Namespace) -> int:
    from app.record.journal import JournalError
    from app.record.session import Session
    from app.sim.demo import export

    try:
        session = Session.open(args.journal)
    except (JournalError, ValueError) as error:
        print(f"{args.journal}: {error}", file=sys.stderr)
        return 1
    resumed = session.resumed
    assert resumed is not None
    if args.command == "verify":
        chouette = session.referee.chouette
        if chouette is not None:
            standing = "ledger " + ", ".join(f"{name} {chouette.balance(name):+d}" for name in chouette.players)
        else:
            score = session.referee.match.score
            standing = f"score {score[0]}-{score[1]}"
        print(f"{args.journal}: {len(session.journal)} entries, hash chain intact, {resumed.events} events replayed,"
              f" {len(resumed.mismatches)} ruling(s) differ on replay; {standing}")
        return 1 if resumed.mismatches else 0
    return export(session, Path(args.out), args.lang, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
