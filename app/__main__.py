"""``python -m app``: the tablet app; ``python -m app demo``: the headless demo.

python -m app                 the Kivy app (set-up, play, director, history)
python -m app --sim           the same with simulated clock, board and camera (the real chain)
python -m app --camera SOURCE the dice camera: an index (0, 1, ...), a video file or an image folder;
                              by default the first video device that gives pictures; "none": the dice are typed
python -m app --clock PORT    a clock on PORT (a path, a pyserial URL, usb:VID:PID[:SERIAL]);
                              by default any Raspberry Pi Pico on USB that introduces itself as one
python -m app demo ...        a whole simulated match without a screen
python -m app verify FILE     check a journal's seals and head file and replay it, read-only
python -m app salvage FILE NEW  copy a damaged journal's entries up to the first bad one into NEW
python -m app key backup FILE  write this tablet's journal key to FILE (keep it off the tablet)
python -m app key restore FILE put a lost journal key back from its backup
python -m app export FILE OUT write a journal's match as .mat, .json, .txt or .html
python -m app director --broker HOST:PORT   the tournament director's page (every board live over MQTT)
python -m app director broker FOLDER        everything the tournament's Mosquitto needs (TLS, accounts, ACL)
python -m app director create|register|draw|assign|result|show ...   the tournament's draw and rounds
python -m app publish FILE --broker HOST:PORT --board N   publish a station's journal to the tournament
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from app.ui.camera_choice import CameraChoice

# Before numpy is first imported, which reads it once: the tablet's numbers are small (a dice set's fit, a crop's
# colours), and BLAS's own threads only fight the camera's for the cores: a fit of 2,000 dice took 0.18 s on one
# thread and 0.57 s on BLAS's threads beside one busy core, 5.5 s with both busy (tests/vision/bench_profile.py).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


EXTRAS = {
    "kivy": ("app", "Kivy, the tablet's screens"),
    "cv2": ("vision", "OpenCV, the camera's reader"),
    "numpy": ("vision", "numpy, the camera's reader"),
    "serial": ("devices", "pyserial, the clock and the sensing board"),
    "paho": ("net", "paho-mqtt, the tournament's network"),
    "fastjsonschema": ("net", "fastjsonschema, the tournament's message checks"),
    "cryptography": ("net", "cryptography, the tournament's certificates"),
}
"""The extra that brings each third-party package a command may need (pyproject.toml)."""


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except ModuleNotFoundError as error:  # a part installed without its extra: say which, not a traceback
        top = (error.name or "").split(".")[0]
        if top not in EXTRAS:
            raise
        extra, what = EXTRAS[top]
        print(
            f"app: this needs {what}, which is not installed: .venv/bin/pip install -e '.[{extra}]'"
            f" (Türkçe: bu komut için '{extra}' eki kurulmalı)",
            file=sys.stderr,
        )
        return 2


def _main(argv: Sequence[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description="tavla referee companion")
    parser.add_argument("--sim", action="store_true", help="simulated clock, sensing board and dice")
    parser.add_argument("--journal", help="journal file of the app (resumed if it exists)")
    parser.add_argument(
        "--lang",
        choices=("tr", "en"),
        default=None,
        help="language of the screens and rulings (default: tr for the app, en for demo and export);"
        " before or after the command",
    )
    parser.add_argument(
        "--camera",
        help="the dice camera: an index (0), a video file or an image folder; by default the first video device"
        ' that gives pictures; "none" to type the dice',
    )
    parser.add_argument("--clock", help="the clock's port (default: look for it on USB)")
    parser.add_argument("--board", help="the sensing board's port (default: look for it on USB)")
    parser.add_argument(
        "--read-checkers",
        choices=("light-right", "light-left", "dark-right", "dark-left"),
        help="the camera also reads the checkers at each clock press (plays judged without a sensing board):"
        " White's colour and the side of the picture White's home board lies on (White sits at its bottom);"
        " with --sim, the simulated table has no sensing board and its camera reads the checkers",
    )
    parser.add_argument(
        "--no-throw-photos",
        action="store_true",
        help="keep no throw's picture (kept by default in the match's folder, throws/, with what its dice showed)",
    )
    subparsers = parser.add_subparsers(dest="command")
    from app.sim.demo import add_demo_parser

    add_demo_parser(subparsers)
    verify = subparsers.add_parser("verify", help="check a journal's seals and head and replay it (read-only)")
    verify.add_argument("journal")
    verify.add_argument("--head", help="the head recorded on a result sheet or an export (entry:seal)")
    salvage = subparsers.add_parser("salvage", help="copy a damaged journal's entries up to the first bad one")
    salvage.add_argument("journal")
    salvage.add_argument("out", help="the new journal file (must not exist)")
    salvage.add_argument(
        "--unchecked-from-other-key",
        action="store_true",
        help="the director's choice: copy a journal another tablet's key sealed, its seals unchecked (noted in it)",
    )
    keys = subparsers.add_parser("key", help="back up this tablet's journal key, or restore it from a backup")
    keys.add_argument("action", choices=("backup", "restore"))
    keys.add_argument("file", help="the backup file (backup: a new file; restore: the backup to read)")
    exporter = subparsers.add_parser("export", help="write a journal's match as .mat, .json, .txt or .html")
    exporter.add_argument("journal")
    exporter.add_argument("out")
    exporter.add_argument("--lang", choices=("tr", "en"), default=argparse.SUPPRESS)
    from app.net.cli import add_net_parsers

    add_net_parsers(subparsers)
    args = parser.parse_args(argv)
    if args.lang is None:
        args.lang = "en" if args.command in ("demo", "export") else "tr"
    args.data = _station_folder(station=args.command is None)
    try:
        code = _run(args)
        sys.stdout.flush()  # a reader gone early is found here, not at interpreter exit
        return code
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _run(args: argparse.Namespace) -> int:
    if args.command in ("director", "publish"):
        from app.net.cli import run_net

        return run_net(args)
    if args.command == "demo":
        from app.sim.demo import run_demo

        return run_demo(args)
    if args.command in ("verify", "salvage"):
        return _audit_command(args)
    if args.command == "key":
        return _key_command(args)
    if args.command == "export":
        return _journal_command(args)
    return _station(args)


def _station_folder(station: bool) -> Path | None:
    """The station's data folder (Kivy's), which holds the journal key's default place (a key found in the XDG
    configuration folder is moved into it once) and, for the ``station`` (the app), its matches and dice sets
    (moved from the XDG data folder once). What cannot be moved stays where it was, and is said. None without
    Kivy or without the folder: the key and the matches stay in the XDG folders."""
    from app.record.devicekey import KEY_ENV, xdg_key_path
    from app.record.library import DATA_ENV, move_data, xdg_data_home

    if os.environ.get(DATA_ENV):  # a folder named by the user is used as it is
        return Path(os.environ[DATA_ENV])
    try:
        from app.ui.folder import data_folder

        folder = data_folder()
    except (ImportError, OSError) as error:
        print(f"app: the station's data folder: {error}; the XDG folders are used", file=sys.stderr)
        return None
    problems = move_data(xdg_data_home(), folder) if station else []
    if not os.environ.get(KEY_ENV):  # a key named by the user stays where it is
        key = xdg_key_path()
        problems += move_data(key.parent, folder, (key.name, key.name + ".id"))
    os.environ[DATA_ENV] = str(folder)  # the key's place, and the library the key's first start looks at
    for problem in problems:
        print(f"app: {problem}", file=sys.stderr)
    return folder


def _station(args: argparse.Namespace) -> int:
    """The tablet app at the live table (devices on USB, the camera named) or, with ``--sim``, the simulated one:
    the screens get one table and never know which."""
    from app.record.library import DiceSets, MatchLibrary
    from app.table.learning import MatchDice
    from app.table.table import Table
    from app.ui.main import on_main_loop, run_app

    match_dice = MatchDice(DiceSets(args.data))
    table: Table
    cameras = None
    layout = None
    if args.read_checkers:
        from app.table.checkers import BoardLayout

        colour, home = args.read_checkers.split("-")
        layout = BoardLayout("light" if colour == "light" else "dark", home_right=home == "right")
    if args.sim:
        from app.sim.station import SimStation

        table = SimStation(match_dice=match_dice, checkers=layout)
    else:
        from app.table.live import LiveStation

        camera, cameras = _camera(args.camera, args.data)
        table = LiveStation(args.clock, args.board, camera, on_main_loop, match_dice=match_dice, checkers=layout)
    return run_app(
        table,
        MatchLibrary(args.data),
        journal=args.journal,
        language=args.lang,
        keep_photos=not args.no_throw_photos,
        cameras=cameras,
    )


def _camera(named: str | None, data: Path | None) -> tuple[str | None, CameraChoice | None]:
    """The camera the station reads: the one named, else of the video devices that give pictures the one chosen
    on the set-up screen last time (if still there), else the first (said on the terminal, with the others
    found), else none and the dice are typed; and the cameras found, for the set-up screen's chooser."""
    if named is not None:
        return (None if named.lower() == "none" else named), None
    from app.ui.camera_choice import CameraChoice
    from vision.cameras import survey

    choice = CameraChoice.at_start(survey(), data)
    if not choice.found:
        print("app: no camera gives pictures; the dice are typed (--camera SOURCE to name one)")
        return None, choice
    specs = [camera.spec for camera in choice.found]
    others = f" (found: {', '.join(specs)}; chosen on the set-up screen)" if choice.offered else ""
    print(f"app: reading the dice from camera {choice.chosen or 'none'}{others}")
    return choice.chosen, choice


def _audit_command(args: argparse.Namespace) -> int:
    """``verify``: every finding in words, the file opened read-only; ``salvage``: the good entries copied."""
    from app.record.audit import audit, salvage
    from app.record.journal import Head, JournalError

    try:
        if args.command == "salvage":
            kept, stop = salvage(args.journal, args.out, args.unchecked_from_other_key)
            print(f"{args.out}: {kept} entries kept" + (f"; stopped: {stop}" if stop else "; the journal was whole"))
            return 0
        report = audit(args.journal, Head.parse(args.head) if args.head else None)
    except JournalError as error:
        print(f"{args.journal}: {error}", file=sys.stderr)
        return 1
    for finding in report.findings:
        print(f"{args.journal}: {finding}")
    if report.outdated_pin:
        from app.referee.pin import outdated_message

        print(f"{args.journal}: {outdated_message(args.lang)}")
    verdict = "seals and head intact" if report.ok else f"{len(report.findings)} problem(s) found"
    standing = f"; {report.standing}" if report.standing else ""
    print(f"{args.journal}: {report.entries} entries, {verdict}, {report.events} events replayed{standing}")
    return 0 if report.ok else 1


def _key_command(args: argparse.Namespace) -> int:
    """``key backup FILE`` / ``key restore FILE``: the journal key kept safe off the tablet, and put back."""
    from app.record.devicekey import KeyFileError, backup_key, restore_key

    try:
        if args.action == "backup":
            made = backup_key(args.file)
            print(
                f"{args.file}: key {made} written; keep it off the tablet, where only the director reaches it"
                f" / anahtar {made} yazıldı; tabletten uzakta, yalnız başhakemin erişebileceği yerde saklayın"
            )
        else:
            made = restore_key(args.file)
            print(f"{args.file}: key {made} restored / anahtar {made} geri yüklendi")
    except KeyFileError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


def _journal_command(args: argparse.Namespace) -> int:
    from app.record.journal import JournalError
    from app.record.session import Session
    from app.sim.demo import export

    try:
        session = Session.open(args.journal)
    except (JournalError, ValueError) as error:
        print(f"{args.journal}: {error}", file=sys.stderr)
        return 1
    return export(session, Path(args.out), args.lang, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
