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
from app.referee import events as ev
from app.referee.setup import Mode
from app.table.live import LiveStation
from app.ui.controller import Controller
from rules.position import Color
from tests.net.broker import Mosquitto
from tests.net.conftest import PREFIX, wait_for
from tests.net.test_join import held_before_the_camera


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
