"""The tablet app's own link to the tournament: set on the set-up screen, publishing as the match is played."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Callable

import cv2

from app.net.director import Director
from app.net.hall import join_paths, make_certificates, write_broker_files
from app.net.join import JoinCode
from app.net.link import DEFAULT_TOURNAMENT
from app.net.messages import DirectorMessage
from app.net.station import Station, StationConfig
from app.net.tournament_book import TournamentBook
from app.referee import events as ev
from app.referee.setup import Mode
from app.table.live import LiveStation
from app.ui.assigned_match import assignment_facts
from app.ui.controller import Controller
from rules.position import Color
from tests.app.test_assigned_match import resign_out
from tests.net.broker import Mosquitto
from tests.net.conftest import PREFIX, wait_for
from tests.net.test_join import held_before_the_camera


def after_main_loop(tasks: "queue.Queue[Callable[[], None]]", condition: Callable[[], bool]) -> Callable[[], bool]:
    """The condition, checked after the app's main loop ran what the network handed it."""

    def check() -> bool:
        while not tasks.empty():
            tasks.get()()
        return condition()

    return check


def test_the_set_up_refuses_a_link_that_cannot_work(tmp_path: Path) -> None:
    controller = Controller(tmp_path, LiveStation(), language="en")
    try:
        assert controller.link_tournament("", "") is None and controller.tournament is None  # no network: fine
        assert controller.link_tournament("", "12") is None and controller.tournament is None  # a table number alone
        assert "HOST:PORT" in str(controller.link_tournament(":1883", "3"))
        assert "letters, digits" in str(controller.link_tournament("127.0.0.1:1883", "board 3"))
        assert "no such CA" in str(controller.link_tournament("127.0.0.1:1883", "3", "pw", str(tmp_path / "x.crt")))
        refused = controller.link_tournament("127.0.0.1:1883", "3", join_code="tavla-join:eyJ2Ijo")
        assert refused is not None and "Bad join code" in refused and controller.tournament is None
        controller.language = "tr"
        assert "Katılım kodu geçersiz" in str(controller.link_tournament("", "", join_code="https://hall-pc"))
        assert controller.link_tournament("127.0.0.1:1883", "3", tournament=" ") is None  # the prefix left blank
        assert controller.tournament is not None and controller.tournament.tournament == DEFAULT_TOURNAMENT
        ca, _, _, _ = make_certificates(PREFIX, ["hall-pc"], 2)
        code = JoinCode.for_board("hall-pc", 8883, PREFIX, "5", "parola-5", ca).encode()
        assert controller.link_tournament("", "", join_code=code) is None  # the code wins over empty fields
        link = controller.tournament
        assert link is not None and (link.broker, link.board, link.tournament) == ("hall-pc:8883", "5", PREFIX)
        assert Path(link.ca).read_bytes() == ca and Path(link.ca).parent == tmp_path
        found, why = controller.scan_join_code()  # this station has no camera
        assert found == "" and why is not None and "QR" in why
    finally:
        controller.close()


def test_the_scan_button_reads_the_join_code_from_the_stations_own_camera(tmp_path: Path) -> None:
    files = write_broker_files(tmp_path / "hall", PREFIX, ["4"], ["hall-pc"], days=2)
    text_path, png_path = join_paths(files.folder, "4")
    frames = tmp_path / "camera"
    frames.mkdir()
    picture = held_before_the_camera(cv2.imread(str(png_path)))
    for i in range(3):
        cv2.imwrite(str(frames / f"{i:04d}.png"), picture)
    tasks: queue.Queue[Callable[[], None]] = queue.Queue()
    station = tmp_path / "station"
    station.mkdir()
    controller = Controller(station, LiveStation(camera=str(frames), post=tasks.put), language="en", post=tasks.put)
    try:
        code, why = controller.scan_join_code()
        assert why is None and code == text_path.read_text().strip()
        assert controller.link_tournament("", "", join_code=code) is None
        link = controller.tournament
        assert link is not None and (link.board, link.password) == ("4", files.passwords["4"])
        assert Path(link.ca).read_bytes() == files.ca.read_bytes()
    finally:
        controller.close()


def test_a_linked_tablet_publishes_its_match_and_journals_the_directors_time_correction(
    broker: Mosquitto, tmp_path: Path
) -> None:
    (tmp_path / "station").mkdir()
    controller = Controller(tmp_path / "station", LiveStation(), language="en")
    config = broker.config("2")
    address = f"127.0.0.1:{broker.port}"
    assert controller.link_tournament(address, "2", str(config.password), str(config.ca), PREFIX) is None
    director = Director(broker.config("director"), PREFIX).start()
    try:
        assert controller.start(("Ayşe", "Mehmet"), "backgammon", 3, Mode.CASUAL, 10, 12, "") is None
        controller.send(ev.ManualDice((3, 1)))
        session = controller.session
        assert session is not None and controller.publisher is not None
        wait_for(
            lambda: "2" in director.boards and director.boards["2"].held == len(session.journal),
            30,
            "the board's journal at the director",
        )
        director.send("2", DirectorMessage("time", color="white", ms=123_000))
        director.send("2", DirectorMessage("message", text="Masa 2: ara"))
        wait_for(
            lambda: session.referee.times is not None and session.referee.times[0] == 123_000, 30, "the time corrected"
        )
        wait_for(lambda: controller.director_said == ["Masa 2: ara"], 30, "the message shown")
        last = session.history()[-1]
        assert last[2]["kind"] == "time_corrected" and last[2]["color"] == Color.WHITE.name.lower()
    finally:
        director.stop()
        controller.close()


def test_the_directors_assignment_reaches_the_tablets_panel_and_the_players_confirmed_result_the_book(
    broker: Mosquitto, tmp_path: Path
) -> None:
    """From the director's draw to its book through a real broker: the tablet, linked before any match, shows
    the assigned match; both players say who they are, play, confirm the result sheet, and the director writes
    the result into the book by itself. A second match assigned to the same board while the first is played
    waits, then is played in a journal of its own, sent after the first one's result."""
    book = TournamentBook.create(tmp_path / "book.sqlite", {"event": "Kulüp Kupası", "lengths": [1]}, "director")
    director = Director(broker.config("director"), PREFIX, book=book).start()
    tasks: queue.Queue[Callable[[], None]] = queue.Queue()
    (tmp_path / "station").mkdir()
    controller = Controller(tmp_path / "station", LiveStation(), language="tr", post=tasks.put)

    def main_loop(condition: Callable[[], bool]) -> Callable[[], bool]:
        return after_main_loop(tasks, condition)

    try:
        for name in ("Ayşe", "Mehmet", "Deniz", "Ece"):
            director.act({"do": "register", "name": name}, "director")
        first, second = [m.id for m in director.act({"do": "draw", "seed": 3}, "director").playable()]
        config = broker.config("2")
        address = f"127.0.0.1:{broker.port}"
        assert controller.link_tournament(address, "2", str(config.password), str(config.ca), PREFIX) is None
        assert controller.listen() is None and controller.session is None
        publisher = controller.publisher
        assert publisher is not None
        wait_for(lambda: publisher.connected and director.connected, 30, "the tablet and the director connected")
        director.act({"do": "assign", "match": first, "board": "2"}, "director")
        wait_for(main_loop(lambda: controller.assignment() is not None), 30, "the match on the tablet's panel")
        offered = controller.assignment()
        assert offered is not None and offered.match == first
        names = tuple(book.tournament.name(p) for p in book.tournament.players_of(book.tournament.matches[first]))
        assert offered.setup.players == names and offered.setup.table == "2" and offered.setup.round == "R1"
        facts = dict(assignment_facts(offered, "tr"))
        assert facts["Etkinlik"] == "Kulüp Kupası" and facts["Maç uzunluğu"] == "1 sayı"
        assert controller.claim(Color.WHITE, "2468") is None and controller.session is None
        assert controller.claim(Color.BLACK, "2468") is None and controller.session is not None
        director.act({"do": "assign", "match": second, "board": "2"}, "director")
        wait_for(main_loop(lambda: controller.waiting is not None), 30, "the second match waiting")
        assert controller.session.setup.players == names  # the match played is not replaced
        for match in (first, second):
            session = controller.session
            assert session is not None
            resign_out(controller)
            controller.send(ev.ResultConfirmed(Color.WHITE))
            controller.send(ev.ResultConfirmed(Color.BLACK))
            wait_for(lambda: book.tournament.matches[match].result is not None, 30, f"{match}'s result in the book")
            assert book.tournament.matches[match].result.head == session.journal.head
            wait_for(main_loop(lambda: controller.result_delivery() == "held"), 30, "the result said to be sent")
            if match == first:
                offered = controller.assignment()
                assert offered is not None and offered.match == second
                controller.claim(Color.WHITE, "2468")
                controller.claim(Color.BLACK, "2468")
                assert controller.session is not session
        assert book.tournament.playable() and book.tournament.playable()[0].round == 2  # the winners advance
    finally:
        director.stop()
        controller.close()
        book.close()


def test_an_assignment_made_while_the_tablet_is_offline_reaches_it_when_it_connects_and_survives_its_restart(
    broker: Mosquitto, tmp_path: Path
) -> None:
    """The director assigns a match to a board whose tablet is off; the tablet, linked later, is offered it as
    soon as it connects. Restarted before both players confirmed, it offers the same match again, once, though the
    director sends it again; once the match's journal began, a station coming online is not sent it again."""
    book = TournamentBook.create(tmp_path / "book.sqlite", {"event": "Kulüp Kupası", "lengths": [1]}, "director")
    director = Director(broker.config("director"), PREFIX, book=book).start()
    tasks: queue.Queue[Callable[[], None]] = queue.Queue()
    (tmp_path / "station").mkdir()
    config = broker.config("2")
    address = f"127.0.0.1:{broker.port}"

    def main_loop(condition: Callable[[], bool]) -> Callable[[], bool]:
        return after_main_loop(tasks, condition)

    def tablet() -> Controller:
        controller = Controller(tmp_path / "station", LiveStation(), language="en", post=tasks.put)
        assert controller.link_tournament(address, "2", str(config.password), str(config.ca), PREFIX) is None
        assert controller.listen() is None
        return controller

    try:
        for name in ("Ayşe", "Mehmet", "Deniz", "Ece"):
            director.act({"do": "register", "name": name}, "director")
        first = director.act({"do": "draw", "seed": 3}, "director").playable()[0].id
        wait_for(lambda: director.connected, 30, "the director connected")
        director.act({"do": "assign", "match": first, "board": "2"}, "director")  # no tablet at board 2
        sent = director.boards["2"].sent[-1]["id"]
        controller = tablet()
        try:
            wait_for(main_loop(lambda: controller.assignment() is not None), 30, "the match on the tablet's panel")
            offered = controller.assignment()
            assert offered is not None and (offered.match, offered.message) == (first, sent)
            assert controller.claim(Color.WHITE, "2468") is None
        finally:
            controller.close()  # the tablet restarts before the second player's tap
        controller = tablet()
        try:
            publisher = controller.publisher
            assert publisher is not None
            wait_for(lambda: publisher.assigned is not None, 30, "the assignment sent again on connecting")
            wait_for(main_loop(lambda: tasks.empty()), 5, "the tablet's main loop")
            offered = controller.assignment()
            assert offered is not None and offered.message == sent and controller.claimed == set()
            assert controller.claim(Color.WHITE, "2468") is None
            assert controller.claim(Color.BLACK, "2468") is None and controller.session is not None
            journal = controller.session.journal
            wait_for(lambda: director.boards["2"].held == len(journal), 30, "the match's journal at the director")
        finally:
            controller.close()
        wait_for(lambda: director.boards["2"].status == "offline", 30, "the tablet said offline")
        heard: list[str] = []
        listening = Station(None, StationConfig(config, "2", PREFIX), deliver=lambda m: heard.append(m.kind))
        with listening:

            def online() -> bool:
                with director.lock:  # a resending is published under the same lock as the status is taken
                    return director.boards["2"].status == "online"

            wait_for(online, 30, "the station online at the director")
            director.send("2", DirectorMessage("message", text="Masa 2"))
            wait_for(lambda: heard != [], 30, "the director's message")
            assert heard == ["message"]  # the match began: not sent again
    finally:
        director.stop()
        book.close()
