"""``python -m app director`` and ``python -m app publish``: the two ends of the tournament network.

  python -m app director --broker HOST:PORT [--tournament PREFIX] [--http HOST:PORT] [--results DIR]
        [--journal FILE] [--deputy] [--public] [--https-cert FILE --https-key FILE]
  python -m app publish JOURNAL --broker HOST:PORT --board N [--tournament PREFIX]

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

DEFAULT_PREFIX = "tavla/tournament"


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
        description="Without a command: run the director's page against the broker (--broker is needed).",
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
    _broker_arguments(director, DIRECTOR_USER, required=False)
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
    director.add_argument("--https-cert", help="the page's certificate (PEM): serve it over HTTPS")
    director.add_argument("--https-key", help="the page's certificate's key (PEM)")
    publish = subparsers.add_parser("publish", help="publish a station's journal to the tournament's broker")
    publish.add_argument("journal")
    _broker_arguments(publish, None)
    publish.add_argument("--board", required=True, help="this board's number (its user name at the broker)")


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
        f"  each station: the broker {host}:{args.port}, its board number, its password from"
        f" {folder / 'accounts.txt'} and the CA file {files.ca}",
        flush=True,
    )
    return 0


def run_net(args: argparse.Namespace) -> int:
    """Run the director or a publisher until interrupted (paho-mqtt, the ``net`` extra, is imported here only)."""
    if args.command == "director" and args.director_command == "broker":
        return write_hall(args)
    if not args.broker:
        print(f"{args.command}: --broker HOST:PORT is needed", file=sys.stderr)
        return 2
    try:
        from app.net.actions import DirectorJournal
        from app.net.auth import Accounts
        from app.net.client import BrokerConfig
        from app.net.director import Director
        from app.net.station import Station, StationConfig
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
            journal = DirectorJournal(args.journal, prefix)
            director = Director(broker, prefix, Path(args.results) if args.results else None).start()
            try:
                server = DirectorServer(director, accounts, journal, host, port, args.public, tls).start()
            except OSError as error:
                director.stop()
                journal.close()
                raise ValueError(f"cannot serve the page on {args.http}: {error}") from None
            print(f"director: the page is at {server.url} (broker {args.broker}, tournament {prefix})", flush=True)
            _wait_for_signal()
            server.stop()
            director.stop()
            journal.close()
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
