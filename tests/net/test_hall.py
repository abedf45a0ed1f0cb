"""From nothing to a running hall: ``python -m app director broker`` writes the broker's folder, Mosquitto runs on
it as written, a station and the director connect with TLS and the accounts it made, and its access rules hold."""

from __future__ import annotations

import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from app.net.client import BrokerConfig
from app.net.director import Director
from app.net.hall import join_paths, parse_boards, passwd_line
from app.net.link import TournamentLink
from app.net.messages import dumps
from app.net.topics import Topics
from app.record.session import Session
from app.referee.events import Event
from app.referee.setup import MatchSetup
from tests.net.broker import MOSQUITTO, available, free_port
from tests.net.conftest import PREFIX, wait_for
from tests.net.replay import ROOT
from tests.net.test_broker import _publish_as, play, station_for


def director_command(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", "director", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )


class WrittenBroker:
    """Mosquitto started on the folder the command wrote, exactly as the docs say."""

    def __init__(self, folder: Path, port: int, stdout: str = "") -> None:
        self.folder, self.port, self.stdout = folder, port, stdout
        self.passwords = dict(
            line.split(" ", 1) for line in (folder / "accounts.txt").read_text().splitlines() if line.strip()
        )
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(folder / "mosquitto.conf")])
        deadline = time.monotonic() + 20
        while True:
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = (folder / "mosquitto.log").read_text() if (folder / "mosquitto.log").exists() else ""
                raise RuntimeError(f"mosquitto did not start on the written files: {log}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.05)

    def config(self, user: str) -> BrokerConfig:
        return BrokerConfig("127.0.0.1", self.port, user, self.passwords[user], str(self.folder / "ca.crt"))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[WrittenBroker]:
    problem = available()
    if problem:
        pytest.fail(problem)
    port = free_port()
    folder = tmp_path / "hall"
    done = director_command(
        "broker", str(folder), "--boards", "1-3", "--host", "127.0.0.1", "--port", str(port),
        "--bind", "127.0.0.1", "--tournament", PREFIX, "--days", "2",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"mosquitto -c {folder / 'mosquitto.conf'}" in done.stdout
    broker = WrittenBroker(folder, port, done.stdout)
    try:
        yield broker
    finally:
        broker.stop()


def test_the_written_broker_runs_a_hall_with_tls_and_its_access_rules(
    hall: WrittenBroker, recording: tuple[MatchSetup, list[Event]], tmp_path: Path
) -> None:
    setup, events = recording
    assert set(hall.passwords) == {"director", "1", "2", "3"}
    assert (hall.folder / "director.password").read_text().strip() == hall.passwords["director"]
    for secret in ("ca.key", "server.key", "passwd", "accounts.txt", "director.password"):
        assert (hall.folder / secret).stat().st_mode & 0o077 == 0, secret  # the owner's only
    session = Session.create(tmp_path / "board2.sqlite", setup)
    station = station_for(session, hall.config("2"), "2").start()
    director = Director(hall.config("director"), PREFIX).start()
    try:
        wait_for(lambda: director.connected and station.connected, 30, "the station and the director over TLS")
        play(session, events[:25])
        wait_for(lambda: "2" in director.boards and director.boards["2"].held == len(session.journal), 30, "entries")
        assert director.boards["2"].head == session.journal.head
        not_authorised = 0x87
        topics = Topics(PREFIX)
        assert _publish_as(hall, "3", topics.snapshot("2"), dumps({"board": "2", "seq": 1}), True) == not_authorised
    finally:
        station.stop()
        director.stop()
        session.close()
    context = ssl.create_default_context(cafile=str(hall.folder / "ca.crt"))
    with socket.create_connection(("127.0.0.1", hall.port), timeout=5) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            assert tls.version() in ("TLSv1.2", "TLSv1.3")  # the server certificate verifies against the CA


def test_a_board_joins_the_written_broker_with_its_join_code_alone(
    hall: WrittenBroker, recording: tuple[MatchSetup, list[Event]], tmp_path: Path
) -> None:
    setup, events = recording
    text_path, png_path = join_paths(hall.folder, "3")
    assert png_path.is_file() and f"{hall.folder / 'join'}" in hall.stdout
    station_folder = tmp_path / "station"
    link = TournamentLink.from_join_code(text_path.read_text(), station_folder)  # the code as typed or pasted
    assert (link.board, link.password, link.tournament) == ("3", hall.passwords["3"], PREFIX)
    assert Path(link.ca).parent == station_folder
    session = Session.create(station_folder / "board3.sqlite", setup)
    station = link.start(session.journal.path, None, None)
    session.listeners.append(lambda event, reaction: station.notify())
    director = Director(hall.config("director"), PREFIX).start()
    try:
        wait_for(lambda: director.connected and station.connected, 30, "the station over TLS with the join code's CA")
        play(session, events[:15])
        wait_for(lambda: "3" in director.boards and director.boards["3"].held == len(session.journal), 30, "entries")
        assert director.boards["3"].head == session.journal.head
    finally:
        station.stop()
        director.stop()
        session.close()


def test_the_command_never_overwrites_a_hall_and_is_listed(tmp_path: Path) -> None:
    folder = tmp_path / "hall"
    first = director_command("broker", str(folder), "--boards", "1", "--host", "hall-pc")
    assert first.returncode == 0, first.stderr
    password = (folder / "director.password").read_text()
    again = director_command("broker", str(folder), "--boards", "1-2", "--host", "hall-pc")
    assert again.returncode == 2 and "already holds" in again.stderr
    assert (folder / "director.password").read_text() == password
    listed = director_command("--help")
    assert listed.returncode == 0 and "broker" in listed.stdout and "--https-cert" in listed.stdout
    no_broker = director_command()
    assert no_broker.returncode == 2 and "--broker" in no_broker.stderr


def test_boards_and_password_lines() -> None:
    assert parse_boards("1-3,final") == ["1", "2", "3", "final"]
    for bad in ("3-1", "1,1", "a b", "director"):
        with pytest.raises(ValueError):
            parse_boards(bad)
    line = passwd_line("7", "parola", salt=b"\x01" * 12)
    user, _, hashed = line.partition(":")
    assert user == "7" and hashed.startswith("$7$101$AQEBAQEBAQEBAQEB$") and len(hashed.split("$")[-1]) == 88
