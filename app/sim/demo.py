"""The headless demo: a whole simulated match refereed, journaled and exported, no screen.

``python -m app demo [--variant V] [--length N] [--seed S] [--export match.mat]``
``python -m app demo --chouette N [--games G]``: a chouette of N players (docs/rules.md section 2)

Two simulated players (:class:`app.sim.world.World`) play at a simulated table
that runs the real chain (:class:`app.sim.table.SimulatedTable`): checkers are
moved on the device package's board simulator and the clock is pressed on
its clock simulator, both over pty pairs, and the drivers' reports become the
referee's events; every throw is drawn as a camera picture and read by the
vision package's dice reader (:class:`app.sim.camera.SimulatedCamera`). Every
event goes through a :class:`app.record.session.Session` (journal first, then
effect) and every ruling is printed. What happens next is derived from the
journaled state only: kill the demo at any moment and run the same command on
the same ``--journal`` and it resumes exactly where it stopped.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

from app.record.export import ExportError, journal_json, mat_text, result_sheet
from app.record.journal import JournalError
from app.record.session import Session, pin_record
from app.referee.engine import Referee
from app.referee.events import Event
from app.referee.i18n import render
from app.referee.rulings import Level, Reaction
from app.referee.setup import ClockSettings, Devices, MatchSetup, Mode
from app.sim.board_camera import BoardCamera
from app.sim.camera import SimulatedCamera, typed_dice
from app.sim.table import Camera, SimulatedTable, TableError
from app.sim.world import Temper, World
from app.table.throw_photos import ThrowPhotos
from rules.registry import find_variant
from vision import VisionError

DEMO_PIN = "2468"
"""The demo director's PIN (printed by the demo; a real match sets its own)."""
DEMO_PIN_SALT = bytes(range(16))
"""A fixed salt, so the same demo command on one tablet gives the same set-up and a restarted demo recognises its
journal."""


STALL_LIMIT = 2000
"""Events without a play made or a stage changed before the demo gives up (it never should)."""

CHOUETTE_NAMES = ("Ayşe", "Mehmet", "Deniz", "Ece", "Can", "Elif", "Emre", "Zeynep")
"""The demo chouette's players, box first."""

_MARK = {Level.OK: "ok  ", Level.INFO: "info", Level.WARNING: "WARN", Level.ERROR: "RULE"}


def add_demo_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser("demo", help="a whole simulated match refereed without a screen")
    parser.add_argument("--variant", default="backgammon", help="any variant name (tavla, uzun, nackgammon, ...)")
    parser.add_argument("--length", type=int, default=5, help="match length in points (0: a money session)")
    parser.add_argument("--games", type=int, default=3, help="games of a money session before the demo stops")
    parser.add_argument("--seed", type=int, default=1, help="the same seed plays the same match")
    parser.add_argument("--journal", help="the journal file; an existing one of the same demo is resumed")
    parser.add_argument("--export", help="write the record here: .mat, .json (journal) or .txt/.html (result sheet)")
    parser.add_argument(
        "--keep-photos",
        metavar="DIR",
        help="keep each throw's picture in DIR with what its dice showed, as a station keeps them",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "tr"),
        default=argparse.SUPPRESS,
        help="language of the rulings (default en; also taken before the command)",
    )
    parser.add_argument("--players", nargs=2, default=["Ayşe", "Mehmet"], metavar=("WHITE", "BLACK"))
    parser.add_argument("--casual", action="store_true", help="casual mode (aids) instead of tournament mode")
    parser.add_argument("--no-board", action="store_true", help="no sensing board: plays are entered on the tablet")
    parser.add_argument(
        "--checkers-from",
        choices=("board", "tablet", "camera"),
        default="board",
        help="where the referee learns the plays: the sensing board (default), typed on the tablet (as --no-board),"
        " or the camera reading the checkers at each clock press (no sensing board)",
    )
    parser.add_argument("--no-camera", action="store_true", help="no camera: the dice are typed on the tablet")
    parser.add_argument("--reserve", type=int, help="clock reserve per player in seconds (default 2 min per point)")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds to wait between events (to watch it)")
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="print only the games' results and the final score (and a progress line on stderr every few seconds)",
    )
    parser.add_argument(
        "--chouette",
        type=int,
        metavar="N",
        help="a chouette of N players (3 to 8: the box and the line) for --games games",
    )


def demo_setup(args: argparse.Namespace) -> MatchSetup:
    """The demo's set-up; ValueError with the reason for a set-up that cannot be played."""
    variant = find_variant(args.variant)
    if args.checkers_from != "board":
        args.no_board = True
    if args.checkers_from == "camera" and args.no_camera:
        raise ValueError("the camera reads the checkers: --checkers-from camera needs the camera (drop --no-camera)")
    chouette: tuple[str, ...] = ()
    length = args.length
    if args.chouette is not None:
        if not 3 <= args.chouette <= len(CHOUETTE_NAMES):
            raise ValueError(f"a chouette has 3 to {len(CHOUETTE_NAMES)} players, not {args.chouette}")
        chouette, length = CHOUETTE_NAMES[: args.chouette], 0
    clock = ClockSettings.for_match(length)
    if args.reserve is not None:
        clock = ClockSettings(args.reserve, clock.delay_s or 12)
    return MatchSetup(
        players=(args.players[0], args.players[1]),
        variant=variant.name,
        length=length,
        mode=Mode.CASUAL if args.casual else Mode.TOURNAMENT,
        clock=clock,
        devices=Devices(camera=not args.no_camera, board=not args.no_board, clock=True),
        pin_hash=pin_record(DEMO_PIN, DEMO_PIN_SALT),
        event="tavla referee demo",
        round=f"seed {args.seed}",
        date=datetime.date(2026, 1, 1).isoformat(),
        chouette=chouette,
    )


ASKED = frozenset({"play_asked", "play_asked_unsure"})
"""The rulings that leave a play the camera read to the players."""

PROGRESS_EVERY_S = 5.0
"""How often a quiet demo says on stderr how far the match has got."""


def progress_line(referee: Referee) -> str:
    """Where the match is: the game, the score (or the chouette's games) and the events so far."""
    if referee.chouette is not None:
        where = f"{len(referee.chouette.finished)} chouette game(s) finished"
    else:
        score = referee.match.score
        where = f"score {score[0]}-{score[1]}"
    return f"demo: game {referee.game_number}, {where}, {referee.events} events so far"


def print_reaction(referee: Referee, reaction: Reaction, language: str, out: TextIO, quiet: bool) -> None:
    for ruling in reaction.rulings:
        if quiet and ruling.code not in (
            "game_over",
            "game_drawn",
            "match_over",
            "new_game",
            "chouette_settled",
            "ledger",
        ):
            continue
        text = render(ruling, language, referee.setup.players)
        out.write(f"[{referee.events:5d}] {_MARK[ruling.level]} {text}\n")


def run_demo(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout  # looked up now: the caller may have redirected it since the import
    try:
        setup = demo_setup(args)
    except ValueError as error:
        print(f"demo: {error}", file=sys.stderr)
        return 2
    journal_path = Path(args.journal) if args.journal else Path(tempfile.mkdtemp(prefix="tavla-demo-")) / "match.sqlite"
    try:
        session = Session.open_or_create(journal_path, setup)
    except JournalError as error:
        print(f"demo: {error}", file=sys.stderr)
        return 2
    if session.resumed is not None:
        out.write(f"Resuming {journal_path} after event {session.resumed.events}")
        out.write(
            f" ({len(session.resumed.mismatches)} ruling(s) differ on replay)\n"
            if session.resumed.mismatches
            else " (replay agrees with every journaled ruling)\n"
        )
    elif setup.is_chouette:
        box, *line = setup.chouette
        out.write(
            f"{setup.variant} chouette of {len(setup.chouette)}, seed {args.seed}: {box} is the box (White);"
            f" the line {', '.join(line)} (captain {line[0]}, Black)\n"
        )
    else:
        kind = f"{setup.length}-point match" if setup.length else "money session"
        white, black = setup.players
        out.write(f"{setup.variant}, {kind}, seed {args.seed}: {white} (White) - {black} (Black)\n")
        out.write(f"Journal: {journal_path}  (director PIN for this demo: {DEMO_PIN})\n")
    out.flush()
    from_camera = args.checkers_from == "camera"
    world = World(
        args.seed, Temper(), sensing_board=not args.no_board, director_pin=DEMO_PIN, camera_reads_checkers=from_camera
    )

    heard = [time.monotonic()]

    def show(event: Event, reaction: Reaction) -> None:
        print_reaction(session.referee, reaction, args.lang, out, args.quiet)
        out.flush()
        if args.quiet and time.monotonic() - heard[0] >= PROGRESS_EVERY_S:  # a quiet run still shows it is alive
            heard[0] = time.monotonic()
            print(progress_line(session.referee), file=sys.stderr, flush=True)
        if args.pace:
            time.sleep(args.pace)

    session.listeners.append(show)
    asked = [0]

    def count_asked(event: Event, reaction: Reaction) -> None:
        asked[0] += sum(code in ASKED for code in reaction.codes)

    session.listeners.append(count_asked)
    camera: Camera = typed_dice if args.no_camera else SimulatedCamera(args.seed)
    photos = (
        ThrowPhotos(
            Path(args.keep_photos), lambda why: print(f"demo: throw photos no longer kept: {why}", file=sys.stderr)
        )
        if args.keep_photos
        else None
    )
    board_camera = (
        BoardCamera(args.seed, world.board_left, camera.reader)
        if from_camera and isinstance(camera, SimulatedCamera)
        else None
    )
    if photos is not None and isinstance(camera, SimulatedCamera):
        board = board_camera.picture_read if board_camera is not None else None  # the dice scene has no checkers
        session.listeners.append(photos.listener(session, lambda: camera.last, board))
    checkers = board_camera.seen if board_camera is not None else None
    try:
        with SimulatedTable(session, camera, world.think_ms, not args.no_board, checkers=checkers) as table:
            stalled = play(session, world, table, args.games)
    except (TableError, VisionError) as error:
        print(f"demo: {error}", file=sys.stderr)
        session.close()
        return 1
    if stalled is not None:
        print(
            f"demo: no progress in {STALL_LIMIT} events at {stalled} (a bug: please report it with the"
            f" journal {journal_path})",
            file=sys.stderr,
        )
        session.close()
        return 1
    referee = session.referee
    chouette = referee.chouette
    if chouette is not None:
        ledger = ", ".join(f"{name} {chouette.balance(name):+d}" for name in chouette.players)
        out.write(
            f"Ledger after {len(chouette.finished)} game(s): {ledger} (sums to {sum(chouette.ledger)});"
            f" box {chouette.box}, line {', '.join(chouette.line)}; {referee.events} events,"
            f" {len(referee.irregularities)} irregularities recorded\n"
        )
    else:
        score = referee.match.score
        out.write(
            f"Final score: {setup.players[0]} {score[0]} - {setup.players[1]} {score[1]};"
            f" {len(referee.match.finished_games)} game(s), {referee.events} events,"
            f" {len(referee.irregularities)} irregularities recorded\n"
        )
    out.write(f"Journal: {journal_path} ({len(session.journal)} entries, head {session.journal.head[:16]}...)\n")
    if isinstance(camera, SimulatedCamera):
        out.write(
            f"Camera: {camera.shots} throw(s) drawn and read by the dice reader in this run;"
            f" devices: {table.messages} message(s) from the clock and board simulators over pty pairs\n"
        )
    if board_camera is not None:
        reads = board_camera.read_ms
        median = sorted(reads)[len(reads) // 2] if reads else 0.0
        out.write(
            f"Checkers: {len(reads)} board(s) drawn and read by the checker reader at the clock press in this run,"
            f" {asked[0]} play(s) asked of the players; median {median:.0f} ms CPU a reading\n"
        )
    if photos is not None:
        out.write(
            f"Throw photos: {photos.kept} kept in {photos.folder}, {photos.labelled} with their dice labelled,"
            f" {photos.boards} with the board after the play\n"
        )
    status = 0
    if args.export:
        status = export(session, Path(args.export), args.lang, out)
    session.close()
    return status


def play(session: Session, world: World, table: SimulatedTable, games: int = 3) -> tuple[object, ...] | None:
    """Play the match to its end (a money session: ``games`` games) at the simulated table; where it got stuck
    if it stopped making progress."""
    progress: tuple[object, ...] | None = None
    since = 0
    while not finished(session.referee, games):
        referee = session.referee
        marker = (referee.game_number, len(referee.game_boards), referee.stage)
        progress, since = marker, (since + 1 if marker == progress else 0)
        if since > STALL_LIMIT:
            return marker
        table.carry_out(world.next_event(referee, session.last_event))
    return None


def finished(referee: Referee, games: int) -> bool:
    if referee.chouette is not None:
        return len(referee.chouette.finished) >= games
    match = referee.match
    return match.over or (match.is_money and len(match.finished_games) >= games)


def export(session: Session, path: Path, language: str, out: TextIO) -> int:
    referee = session.referee
    suffix = path.suffix.lower()
    try:
        if suffix == ".mat":
            text = mat_text(referee)
        elif suffix == ".json":
            import json

            text = json.dumps(journal_json(session.journal, referee), ensure_ascii=False, indent=1)
        elif suffix in (".txt", ".html", ".htm"):
            text = result_sheet(referee, str(session.journal.last), language, as_html=suffix != ".txt")
        else:
            print(f"demo: cannot export to {path}: use .mat, .json, .txt or .html", file=sys.stderr)
            return 2
    except ExportError as error:
        print(f"demo: {error}", file=sys.stderr)
        return 1
    path.write_text(text, encoding="utf-8")
    out.write(f"Exported: {path}\n")
    return 0
