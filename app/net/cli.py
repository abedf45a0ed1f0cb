"""``python -m app director`` and ``python -m app publish``: the two ends of the tournament network.

  python -m app director --broker HOST:PORT [--tournament PREFIX] [--http HOST:PORT] [--results DIR]
        [--journal FILE] [--book FILE] [--deputy] [--public] [--https-cert FILE --https-key FILE]
  python -m app director create|register|withdraw|draw|assign|result|correct|show|sheet|export ... [--book FILE]
  python -m app publish JOURNAL --broker HOST:PORT --board N [--tournament PREFIX]

The tournament's commands work on the tournament book (:mod:`app.net.tournament_book`) from the terminal, the
same book the director's page runs on; a refused action is said in words and exits 2, and nothing is written.

Credentials: ``--user`` and the password from the environment variable
``TAVLA_MQTT_PASSWORD`` or ``--password-file`` (never on the command line,
where other users of the machine see it); ``--ca`` turns TLS on. The page's
passwords (the director's, and the deputy's with ``--deputy``) come from
``TAVLA_DIRECTOR_PASSWORD`` / ``TAVLA_DEPUTY_PASSWORD`` or are asked for at the terminal.
"""

from __future__ import annotations

import argparse
import getpass
import ipaddress
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from app.net.topics import DIRECTOR_USER, tournament_prefix

if TYPE_CHECKING:
    import ssl

    from app.net.client import BrokerConfig
    from app.net.tournament import Tournament

DEFAULT_PREFIX = "tavla/tournament"
DEFAULT_BOOK = "tournament-book.sqlite"
TERMINAL = "terminal"
"""Who an action taken at the terminal is journaled as."""


def _broker_arguments(parser: argparse.ArgumentParser, user: str | None, required: bool = True) -> None:
    parser.add_argument("--broker", required=required, help="the MQTT broker, HOST:PORT")
    parser.add_argument("--tournament", default=DEFAULT_PREFIX, help=f"topic prefix (default {DEFAULT_PREFIX})")
    parser.add_argument("--user", default=user, help="user name at the broker")
    parser.add_argument("--password-file", help="file holding the password (or set TAVLA_MQTT_PASSWORD)")
    parser.add_argument("--ca", help="CA certificate of the broker: connect with TLS")
    parser.add_argument("--cert", help="client certificate (TLS)")
    parser.add_argument("--key", help="client certificate's key (TLS)")


def add_net_parsers(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    director = subparsers.add_parser(
        "director",
        help="the tournament director's page: every board live; 'director broker' writes the broker's files",
        description="Without a command: run the director's page against the broker (--broker is needed; --book"
        " runs the draw on the page). The commands run a tournament from the terminal on its book: create it,"
        " register the players, draw, assign each round's matches to boards, record or correct results, show the"
        " brackets and standings, print the bracket sheet, export the results.",
    )
    commands = director.add_subparsers(dest="director_command", metavar="COMMAND")
    hall = commands.add_parser(
        "broker",
        help="write everything Mosquitto needs for this tournament into a folder: configuration, CA and server "
        "certificate, one account per board and the director's, the access rules",
    )
    hall.add_argument("folder", help="a new folder for the broker's files")
    hall.add_argument("--boards", required=True, help="the boards, e.g. 1-12 or 1-8,final")
    hall.add_argument(
        "--host", action="append", required=True, help="the hall PC's name or IP as stations reach it (repeatable)"
    )
    hall.add_argument("--port", type=int, default=8883, help="the broker's TLS port (default 8883)")
    hall.add_argument("--bind", help="listen on this address only (default: every address)")
    hall.add_argument("--tournament", default=DEFAULT_PREFIX, help=f"topic prefix (default {DEFAULT_PREFIX})")
    hall.add_argument("--days", type=int, default=30, help="how long the certificates last (default 30)")
    _tournament_parsers(commands)
    _broker_arguments(director, DIRECTOR_USER, required=False)
    director.add_argument(
        "--book", help=f"the tournament book the page runs the draw on (e.g. {DEFAULT_BOOK}; made by 'director create')"
    )
    director.add_argument(
        "--http", default="127.0.0.1:8080", help="where the page is served, HOST:PORT (beyond localhost: HTTPS only)"
    )
    director.add_argument("--results", help="folder where results.csv and results.json are kept up to date")
    director.add_argument(
        "--journal", default="director-journal.sqlite", help="the director's own journal of every page action"
    )
    director.add_argument("--deputy", action="store_true", help="a second page account, 'deputy'")
    director.add_argument(
        "--public", action="store_true", help="also serve live scores to anyone at /scores (no controls, no journals)"
    )
    director.add_argument(
        "--join", help="'director broker''s join/ folder: the page shows a board's join code QR (default: beside --ca)"
    )
    director.add_argument("--https-cert", help="the page's certificate (PEM): serve it over HTTPS")
    director.add_argument("--https-key", help="the page's certificate's key (PEM)")
    publish = subparsers.add_parser("publish", help="publish a station's journal to the tournament's broker")
    publish.add_argument("journal")
    _broker_arguments(publish, None)
    publish.add_argument("--board", required=True, help="this board's number (its user name at the broker)")


def _tournament_parsers(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The sub-commands that run a tournament from the terminal, each on ``--book``."""

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        parser = commands.add_parser(name, help=help_text, description=help_text)
        parser.add_argument("--book", default=DEFAULT_BOOK, help=f"the tournament book (default {DEFAULT_BOOK})")
        return parser

    create = command("create", "start a tournament book: the event, its format and its match lengths")
    create.add_argument("event", help="the event's name, as on the result sheets")
    create.add_argument("--format", choices=("elimination", "round_robin"), default="elimination")
    create.add_argument(
        "--consolation", type=int, default=0, help="losers of the main draw's rounds 1..N play a consolation"
    )
    create.add_argument("--last-chance", action="store_true", help="losers of the consolation's first round play on")
    create.add_argument(
        "--lengths", default="5", help="match length per round, e.g. 5,5,7 (the last one for later rounds)"
    )
    create.add_argument("--variant", default="backgammon", help="the variant every match plays")
    register = command("register", "register a player (before the draw)")
    register.add_argument("name")
    register.add_argument("--club", default="")
    register.add_argument("--rating", type=int)
    withdraw = command("withdraw", "withdraw a registered player (before the draw), by id (p1, p2, ...)")
    withdraw.add_argument("player")
    draw = command("draw", "make the draw (its seed is journaled: a replay draws the same)")
    draw.add_argument("--seed", type=int, help="the random seed (default: a fresh one)")
    draw.add_argument("--seeded", action="store_true", help="rated players seeded, best first")
    assign = command("assign", "put a match on a board (the running director also sends it to the board)")
    assign.add_argument("match", help="the match's id, e.g. main-1-2")
    assign.add_argument("board")
    for name, help_text in (
        ("result", "record a match's result by hand"),
        ("correct", "correct a recorded result, with the reason"),
    ):
        result = command(name, help_text)
        result.add_argument("match")
        result.add_argument("winner", help="the winner's id (p1, p2, ...) or name")
        result.add_argument("score", help="the score in the match's order, e.g. 5-3")
        if name == "correct":
            result.add_argument("--reason", required=True, help="why the result changes (journaled)")
    shown = command("show", "the brackets (or the round robin) and the standings, as text")
    shown.add_argument("--lang", choices=("tr", "en"), default=argparse.SUPPRESS)
    sheet = command("sheet", "the printable bracket sheet (HTML)")
    sheet.add_argument("out", help="the HTML file to write")
    sheet.add_argument("--lang", choices=("tr", "en"), default=argparse.SUPPRESS)
    export = command("export", "every match and the standings as CSV or JSON")
    export.add_argument("out", help="a .csv or .json file")


TOURNAMENT_COMMANDS = (
    "create",
    "register",
    "withdraw",
    "draw",
    "assign",
    "result",
    "correct",
    "show",
    "sheet",
    "export",
)


def run_tournament(args: argparse.Namespace) -> int:
    """One tournament command on the book; exit 2 with the reason for anything refused."""
    from app.net.tournament import TournamentError
    from app.record.journal import JournalError

    name = f"director {args.director_command}"
    try:
        return _tournament_command(args)
    except (TournamentError, JournalError, ValueError, OSError) as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 2


def _tournament_command(args: argparse.Namespace) -> int:
    import random

    from app.net.bracket_sheet import bracket_sheet
    from app.net.tournament import TournamentError, results_csv, results_json
    from app.net.tournament_book import TournamentBook
    from app.net.tournament_text import show

    command = args.director_command
    if command == "create":
        if Path(args.book).exists():
            raise ValueError(f"{args.book} already exists (a book is made once; the commands go on in it)")
        rules = {
            "event": args.event,
            "format": args.format,
            "consolation_rounds": args.consolation,
            "last_chance": args.last_chance,
            "lengths": _lengths(args.lengths),
            "variant": args.variant,
        }
        TournamentBook.create(args.book, rules, by=TERMINAL).close()
        print(f"{args.book}: {args.event} created; next: director register NAME --book {args.book}")
        return 0
    if not Path(args.book).exists():
        raise ValueError(f"{args.book}: no tournament book (director create EVENT --book {args.book})")
    book = TournamentBook.open(args.book)
    try:
        tournament = book.tournament
        action: dict[str, object] | None = None
        if command == "register":
            action = {"do": "register", "name": args.name, "club": args.club, "rating": args.rating}
        elif command == "withdraw":
            action = {"do": "withdraw", "player": args.player}
        elif command == "draw":
            seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
            action = {"do": "draw", "seed": seed, "seeded": args.seeded}
        elif command == "assign":
            from app.net.topics import board_id

            action = {"do": "assign", "match": args.match, "board": board_id(args.board)}
        elif command in ("result", "correct"):
            match = tournament.matches.get(args.match)
            if match is None:
                raise TournamentError(f"no match {args.match}")
            players = [p for p in tournament.players_of(match) if p is not None]
            winner = next((p for p in players if args.winner in (p, tournament.name(p))), args.winner)
            action = {"do": command, "match": args.match, "winner": winner, "score": _score(args.score)}
            if command == "correct":
                action["reason"] = args.reason
        if action is not None:
            tournament = book.do(action, by=TERMINAL)
            print(_done(tournament, action))
        elif command == "show":
            print(show(tournament, args.lang), end="")
        elif command == "sheet":
            Path(args.out).write_text(bracket_sheet(tournament, args.lang), encoding="utf-8")
            print(f"{args.out}: the bracket sheet ({args.lang})")
        elif command == "export":
            suffix = Path(args.out).suffix.lower()
            if suffix not in (".csv", ".json"):
                raise ValueError(f"{args.out}: export writes .csv or .json")
            text = results_csv(tournament) if suffix == ".csv" else results_json(tournament)
            Path(args.out).write_text(text, encoding="utf-8")
            print(f"{args.out}: {len(tournament.matches)} matches")
        return 0
    finally:
        book.close()


def _done(tournament: "Tournament", action: dict[str, object]) -> str:
    """What the action did, in a line."""
    kind = action["do"]
    if kind == "register":
        player = list(tournament.players.values())[-1]
        return f"registered {player.id} {player.name}"
    if kind == "draw":
        return f"drawn (seed {action['seed']}): {len(tournament.matches)} matches; 'director show' lists them"
    if kind == "assign":
        return f"{action['match']} on board {action['board']}"
    if kind in ("result", "correct"):
        score = action["score"]
        assert isinstance(score, list)
        return f"{action['match']}: {tournament.name(str(action['winner']))} wins {score[0]}-{score[1]}"
    return f"{kind}: {action.get('player', '')}"


def _lengths(text: str) -> list[int]:
    try:
        return [int(n) for n in text.split(",")]
    except ValueError:
        raise ValueError(f"match lengths are numbers separated by commas, e.g. 5,5,7, not {text!r}") from None


def _score(text: str) -> list[int]:
    parts = text.replace(":", "-").split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"a score is two numbers, e.g. 5-3, not {text!r}")
    return [int(p) for p in parts]


def broker_config(args: argparse.Namespace) -> "BrokerConfig":
    """The broker's address and our credentials; ValueError naming what is wrong."""
    from app.net.client import BrokerConfig

    host, port = BrokerConfig.parse_address(args.broker)
    password = os.environ.get("TAVLA_MQTT_PASSWORD")
    if args.password_file:
        try:
            password = Path(args.password_file).read_text(encoding="utf-8").strip()
        except OSError as error:
            raise ValueError(f"cannot read the password file: {error}") from None
    return BrokerConfig(host, port, args.user, password, args.ca, args.cert, args.key)


def page_passwords(args: argparse.Namespace) -> dict[str, str]:
    """The page's accounts and passwords, from the environment or asked twice at the terminal; ValueError."""
    from app.net.auth import DEPUTY, DIRECTOR

    passwords = {}
    for user, variable in ((DIRECTOR, "TAVLA_DIRECTOR_PASSWORD"), (DEPUTY, "TAVLA_DEPUTY_PASSWORD")):
        if user == DEPUTY and not args.deputy:
            continue
        password = os.environ.get(variable)
        if password is None:
            if not sys.stdin.isatty():
                raise ValueError(f"the {user}'s page password: set {variable} or start at a terminal")
            password = getpass.getpass(f"the {user}'s password for the page: ")
            if getpass.getpass("once more: ") != password:
                raise ValueError(f"the {user}'s two passwords differ")
        passwords[user] = password
    return passwords


def page_tls(args: argparse.Namespace, host: str) -> "ssl.SSLContext | None":
    """HTTPS for the page when a certificate is given; ValueError if the page would leave this machine without."""
    from app.net.web import tls_context

    if bool(args.https_cert) != bool(args.https_key):
        raise ValueError("--https-cert and --https-key go together")
    if args.https_cert:
        return tls_context(args.https_cert, args.https_key)
    if not _loopback(host):
        raise ValueError(
            f"the page on {host} is reachable from the hall: serve it over HTTPS (--https-cert, --https-key;"
            " 'director broker' writes the tournament's certificate) or on 127.0.0.1"
        )
    return None


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _wait_for_signal() -> None:
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    done.wait()


def write_hall(args: argparse.Namespace) -> int:
    """``director broker``: the broker's folder written, and what to do next."""
    try:
        from app.net.hall import parse_boards, write_broker_files
    except ImportError as error:
        print(f"director broker: {error}: install the net extra (pip install -e '.[net]')", file=sys.stderr)
        return 2
    try:
        prefix = tournament_prefix(args.tournament)
        files = write_broker_files(
            args.folder, prefix, parse_boards(args.boards), args.host, args.port, args.bind, args.days
        )
    except (ValueError, OSError) as error:
        print(f"director broker: {error}", file=sys.stderr)
        return 2
    folder, host = files.folder, args.host[0]
    print(
        f"director broker: {len(files.passwords) - 1} boards and the director written to {folder}\n"
        f"  start the broker:   mosquitto -c {files.config}\n"
        f"  start the director: python -m app director --broker {host}:{args.port} --ca {files.ca}"
        f" --password-file {folder / 'director.password'} --tournament {prefix}"
        f" --http 0.0.0.0:8443 --https-cert {files.certificate} --https-key {files.key}\n"
        f"  each station: its join code {files.join}/<board>.txt"
        + (" or its QR code <board>.png" if files.qr else " (no QR codes: OpenCV is not installed)")
        + f" on the set-up screen; or by hand: the broker {host}:{args.port}, the tournament {prefix}, its board"
        f" number, its password from {folder / 'accounts.txt'} and the CA file {files.ca}",
        flush=True,
    )
    return 0


def run_net(args: argparse.Namespace) -> int:
    """Run the director or a publisher until interrupted (paho-mqtt, the ``net`` extra, is imported here only)."""
    if args.command == "director" and args.director_command == "broker":
        return write_hall(args)
    if args.command == "director" and args.director_command in TOURNAMENT_COMMANDS:
        return run_tournament(args)
    if not args.broker:
        print(f"{args.command}: --broker HOST:PORT is needed", file=sys.stderr)
        return 2
    try:
        from app.net.actions import DirectorJournal
        from app.net.auth import Accounts
        from app.net.client import BrokerConfig
        from app.net.director import Director
        from app.net.station import Station, StationConfig
        from app.net.tournament_book import TournamentBook
        from app.net.web import DirectorServer
        from app.record.journal import JournalError
    except ImportError as error:
        print(f"{args.command}: {error}: install the net extra (pip install -e '.[net]')", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        broker = broker_config(args)
        prefix = tournament_prefix(args.tournament)
        if args.command == "director":
            host, port = BrokerConfig.parse_address(args.http)
            tls = page_tls(args, host)
            accounts = Accounts(page_passwords(args))
            book = TournamentBook.open(args.book) if args.book else None
            journal = DirectorJournal(args.journal, prefix)
            results = Path(args.results) if args.results else None
            join = Path(args.join) if args.join else (Path(args.ca).parent / "join" if args.ca else None)
            if join is not None and not join.is_dir():
                if args.join:
                    raise ValueError(f"{join}: no such folder of join codes")
                join = None
            director = Director(broker, prefix, results, book=book).start()
            try:
                server = DirectorServer(director, accounts, journal, host, port, args.public, tls, join).start()
            except OSError as error:
                director.stop()
                journal.close()
                raise ValueError(f"cannot serve the page on {args.http}: {error}") from None
            print(f"director: the page is at {server.url} (broker {args.broker}, tournament {prefix})", flush=True)
            _wait_for_signal()
            server.stop()
            director.stop()
            journal.close()
            if book is not None:
                book.close()
            return 0
        station = Station(args.journal, StationConfig(broker, args.board, prefix)).start()
    except (ValueError, JournalError) as error:
        print(f"{args.command}: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"{args.command}: {error}", file=sys.stderr)
        return 1
    print(f"publish: {args.journal} as board {args.board} to {args.broker} (tournament {prefix})", flush=True)
    _wait_for_signal()
    station.stop()
    return 0
