"""Stations and the director through a real Mosquitto (TLS, passwords, the tournament's ACL)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from app.net.acks import AckStore, acks_path
from app.net.client import BrokerConfig, connect, make_client
from app.net.director import Director
from app.net.messages import DirectorMessage, dumps
from app.net.station import Station, StationConfig
from app.net.topics import Topics
from app.record.journal import Journal
from app.record.session import Session
from app.referee.events import CallDirector, Event
from app.referee.setup import MatchSetup
from tests.net.broker import Broker, Mosquitto
from tests.net.conftest import PREFIX, wait_for

Recording = tuple[MatchSetup, list[Event]]


def play(session: Session, events: list[Event], pace: float = 0.0) -> None:
    for event in events:
        session.submit(event)
        if pace:
            time.sleep(pace)


def journal_entries(path: Path) -> list[tuple[int, str]]:
    journal = Journal(path)
    try:
        return [(entry.seq, entry.hash) for entry in journal.entries()]
    finally:
        journal.close()


def station_for(session: Session, broker: Mosquitto | BrokerConfig, board: str, resend_after: float = 5.0) -> Station:
    config = broker if isinstance(broker, BrokerConfig) else broker.config(board)
    lock = threading.Lock()

    def submit(event: Event) -> object:
        with lock:
            return session.submit(event)

    station = Station(
        session.journal.path, StationConfig(config, board, PREFIX, resend_after=resend_after), submit=submit
    )
    session.listeners.append(lambda event, reaction: station.notify())
    return station


def test_every_entry_reaches_the_director_once_across_a_broker_crash(
    broker: Mosquitto, recording: Recording, tmp_path: Path
) -> None:
    setup, events = recording
    session = Session.create(tmp_path / "board1.sqlite", setup)
    director = Director(broker.config("director"), PREFIX, tmp_path / "results").start()
    station = station_for(session, broker, "1", resend_after=2.0).start()
    try:
        wait_for(lambda: director.connected and station.connected, 30, "both connected")
        third = len(events) // 3
        play(session, events[:third], pace=0.005)
        broker.kill()  # SIGKILL: whatever the broker held in memory is gone
        play(session, events[third : 2 * third], pace=0.005)  # the match goes on without a network
        assert not station.connected
        broker.start()
        play(session, events[2 * third :], pace=0.005)
        total = len(session.journal)
        wait_for(
            lambda: director.boards.get("1") is not None and director.boards["1"].held == total,
            60,
            f"the director holding all {total} entries",
        )
        wait_for(lambda: station.acked == total, 30, "the station's acknowledged entry reaching the end")
        feed = director.boards["1"]
        print(f"crash: {total} entries, {feed.duplicates} duplicates dropped, {feed.gaps} gaps")
        assert feed.received == total  # each entry taken exactly once, whatever came twice
        assert feed.head == session.journal.head
        assert feed.chain_breaks == 0 and not feed.waiting
        assert director.latencies and len(director.latencies) == total
        wait_for(lambda: bool(director.results()), 30, "the result in the tournament table")
        [row] = director.results()
        assert row["head"] == session.journal.head and row["seq"] == total
        assert row["white"] == setup.players[0] and row["black"] == setup.players[1]
        csv = tmp_path / "results" / "results.csv"
        wait_for(lambda: csv.exists() and session.journal.head in csv.read_text(), 30, "the results file written")
        assert csv.read_text().count(session.journal.head) == 1
    finally:
        station.stop()
        director.stop()
        session.close()
    store = AckStore(acks_path(tmp_path / "board1.sqlite"))
    assert store.get(PREFIX, "1") == total  # kept beside the journal, which itself is untouched
    store.close()
    assert journal_entries(tmp_path / "board1.sqlite")[-1] == (total, feed.head)


def test_a_station_without_a_broker_keeps_refereeing_and_catches_up_later(
    broker: Mosquitto, recording: Recording, tmp_path: Path
) -> None:
    setup, events = recording
    broker.stop()  # nothing listens on the broker's port yet
    session = Session.create(tmp_path / "board2.sqlite", setup)
    station = station_for(session, broker, "2").start()
    half = len(events) // 2
    play(session, events[:half])
    time.sleep(0.5)
    assert not station.connected and station.acked == 0
    broker.start()
    director = Director(broker.config("director"), PREFIX).start()
    try:
        wait_for(lambda: station.acked == len(session.journal), 60, "the backlog acknowledged")
        station.stop()
        play(session, events[half:])  # the station restarts later: it sends only what was not acknowledged
        station = station_for(session, broker, "2").start()
        wait_for(lambda: director.boards["2"].held == len(session.journal), 60, "the rest acknowledged")
        feed = director.boards["2"]
        assert feed.received == len(session.journal)
        assert feed.duplicates == 0  # nothing acknowledged was sent again
        assert feed.head == session.journal.head
    finally:
        station.stop()
        director.stop()
        session.close()


def _publish_as(broker: Broker, user: str, topic: str, payload: bytes, retain: bool = False) -> int:
    """Publish once as ``user`` with QoS 1; the broker's reason code in its acknowledgement."""
    client = make_client(broker.config(user), f"probe-{user}")
    done = threading.Event()
    codes: list[int] = []

    def published(client: mqtt.Client, userdata: object, mid: int, reason: ReasonCode, properties: object) -> None:
        codes.append(reason.value)
        done.set()

    client.on_connect = lambda c, u, f, reason, p: done.set()
    client.on_publish = published
    connect(client, broker.config(user), persistent=False)
    try:
        assert done.wait(15), "no connection"
        done.clear()
        client.publish(topic, payload, qos=1, retain=retain)
        assert done.wait(15), "no acknowledgement"
    finally:
        client.disconnect()
        client.loop_stop()
    return codes[0]


def test_the_broker_refuses_a_board_publishing_for_another_board(broker: Mosquitto, tmp_path: Path) -> None:
    topics = Topics(PREFIX)
    director = Director(broker.config("director"), PREFIX).start()
    try:
        wait_for(lambda: director.connected, 30, "the director connected")
        forged = dumps(
            {
                "board": "1",
                "seq": 1,
                "kind": "note",
                "at": "2026-01-01T00:00:00+00:00",
                "prev": "0",
                "hash": "f",
                "payload": {},
            }
        )
        not_authorised = 0x87
        assert _publish_as(broker, "2", topics.events("1"), forged) == not_authorised
        assert _publish_as(broker, "2", topics.snapshot("1"), dumps({"board": "1"})) == not_authorised
        assert _publish_as(broker, "2", topics.ack("1"), dumps({"seq": 0})) == not_authorised
        assert _publish_as(broker, "2", topics.inbox("1"), DirectorMessage("on_the_way").to_json()) == not_authorised
        assert _publish_as(broker, "2", topics.events("2"), forged.replace(b'"1"', b'"2"')) == 0  # its own: fine
        wait_for(lambda: "2" in director.boards and director.boards["2"].received == 1, 15, "board 2's own entry")
        time.sleep(0.5)
        assert "1" not in director.boards  # nothing of the forged board 1 reached the director
    finally:
        director.stop()


def test_wrong_password_and_plain_tcp_are_refused(broker: Mosquitto) -> None:
    refused = threading.Event()
    wrong = BrokerConfig("127.0.0.1", broker.port, "1", "not-the-password", broker.config("1").ca)
    client = make_client(wrong, "probe-wrong")
    client.on_connect = lambda c, u, f, reason, p: refused.set() if reason.is_failure else None
    connect(client, wrong, persistent=False)
    try:
        assert refused.wait(15)
    finally:
        client.disconnect()
        client.loop_stop()
    plain = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="probe-plain", protocol=mqtt.MQTTv5)
    plain.username_pw_set("1", broker.passwords["1"])
    with pytest.raises(Exception):
        plain.connect("127.0.0.1", broker.port, keepalive=5)
        for _ in range(50):
            if plain.loop(0.1) != mqtt.MQTT_ERR_SUCCESS:
                raise ConnectionError("closed")
        if not plain.is_connected():
            raise ConnectionError("not connected")


def test_director_messages_reach_the_board_and_a_time_correction_is_journaled(
    broker: Mosquitto, recording: Recording, tmp_path: Path
) -> None:
    setup, events = recording
    session = Session.create(tmp_path / "board3.sqlite", setup)
    received: list[DirectorMessage] = []
    station = station_for(session, broker, "3")
    station.deliver = received.append
    station.start()
    director = Director(broker.config("director"), PREFIX).start()
    try:
        wait_for(lambda: director.connected and station.connected, 30, "both connected")
        play(session, events[:40])
        session.submit(CallDirector())
        wait_for(lambda: "3" in director.boards and director.boards["3"].summary()["called"], 30, "the call seen")
        assert not director.boards["3"].summary()["on_the_way"]
        director.send("3", DirectorMessage("on_the_way"))
        director.send("3", DirectorMessage("message", text="Masa 3: beş dakika ara."))
        director.send("3", DirectorMessage("time", color="black", ms=250_000))
        wait_for(lambda: len(received) == 2, 15, "the two messages delivered")
        assert [m.kind for m in received] == ["on_the_way", "message"]
        assert received[1].text == "Masa 3: beş dakika ara."
        wait_for(
            lambda: session.referee.times is not None and session.referee.times[1] == 250_000, 15, "the time corrected"
        )
        last = session.history()[-1]
        assert last[2] == {"kind": "time_corrected", "color": "black", "remaining_ms": 250_000, "by": "director"}
        assert last[3].codes == ["time_set"]
        wait_for(lambda: director.boards["3"].summary()["on_the_way"], 15, "the call answered on the page")
        # anything else the director's account might publish is ignored by the station, with the reason
        before = len(session.journal)
        client = director.client
        client.publish(Topics(PREFIX).inbox("3"), dumps({"type": "undo_play"}), qos=1)
        client.publish(Topics(PREFIX).inbox("3"), b"\xff not json", qos=1)
        client.publish(Topics(PREFIX).inbox("3"), dumps({"type": "time", "color": "red", "ms": 5}), qos=1)
        wait_for(lambda: len(station.refused) == 3, 15, "three refusals")
        assert "undo_play" in station.refused[0] and "not JSON" in station.refused[1] and "red" in station.refused[2]
        assert len(session.journal) == before and len(received) == 2
        wait_for(lambda: director.table()[-1]["station_set_aside"] == 3, 15, "the count on the director's page")
    finally:
        station.stop()
        director.stop()
        session.close()


def test_a_director_that_restarts_empty_gets_every_board_again(
    broker: Mosquitto, recording: Recording, tmp_path: Path
) -> None:
    setup, events = recording
    session = Session.create(tmp_path / "board1.sqlite", setup)
    play(session, events)  # the whole match, finished before anyone listens
    station = station_for(session, broker, "1").start()
    director = Director(broker.config("director"), PREFIX).start()
    try:
        total = len(session.journal)
        wait_for(lambda: station.acked == total, 60, "the first director holding everything")
        director.stop()
        director = Director(broker.config("director"), PREFIX).start()  # its memory is gone
        wait_for(
            lambda: "1" in director.boards and director.boards["1"].held == total,
            60,
            "the second director holding everything",
        )
        assert director.boards["1"].head == session.journal.head
        assert [row["head"] for row in director.results()] == [session.journal.head]
    finally:
        station.stop()
        director.stop()
        session.close()


def test_poisoned_messages_are_set_aside_once_and_a_restarted_director_takes_everything_after_them(
    broker: Mosquitto, recording: Recording, tmp_path: Path
) -> None:
    """Board 2 publishes a retained snapshot whose result is not a result, and events that are not events, some
    while the director is away (the broker keeps them in the director's session and delivers them on its return).
    The director sets each aside once, shows it against board 2, and board 1's entries all arrive after them."""
    setup, events = recording
    topics = Topics(PREFIX)
    poison_snapshot = dumps({"board": "2", "seq": 3, "result": "x"})
    bad_events = [dumps({"board": "2", "seq": "x"}), b"\xff\xfe", dumps({"board": "2", "seq": 1.5, "payload": []})]
    no_subscriber = 0x10  # accepted, nobody listening yet (the broker keeps it: retained)
    assert _publish_as(broker, "2", topics.snapshot("2"), poison_snapshot, retain=True) in (0, no_subscriber)
    session = Session.create(tmp_path / "board1.sqlite", setup)
    station = station_for(session, broker, "1").start()
    director = Director(broker.config("director"), PREFIX, tmp_path / "results").start()
    try:
        wait_for(lambda: director.connected and station.connected, 30, "both connected")
        wait_for(lambda: "2" in director.boards and director.boards["2"].set_aside == 1, 15, "the snapshot set aside")
        assert "result" in director.table()[-1]["last_set_aside"]
        play(session, events[:30])
        wait_for(lambda: director.boards["1"].held == len(session.journal), 30, "board 1's first entries")
        director.stop()
        for payload in bad_events:  # queued in the director's saved session while it is away
            assert _publish_as(broker, "2", topics.events("2"), payload) in (0, no_subscriber)
        play(session, events[30:60])
        director = Director(broker.config("director"), PREFIX, tmp_path / "results").start()  # no memory
        wait_for(lambda: director.connected, 30, "the director back")
        play(session, events[60:90])
        wait_for(
            lambda: "1" in director.boards and director.boards["1"].held == len(session.journal),
            60,
            "every entry of board 1 after the poison",
        )
        assert director.boards["1"].head == session.journal.head
        wait_for(lambda: director.boards["2"].set_aside == 1 + len(bad_events), 15, "each poisoned message counted")
        time.sleep(2)
        assert director.boards["2"].set_aside == 1 + len(bad_events)  # set aside once each, not delivered again
        assert director.connected and director.set_aside_elsewhere == 0
        director.stop()
        director = Director(broker.config("director"), PREFIX, tmp_path / "results").start()  # once more
        wait_for(lambda: "2" in director.boards and director.boards["2"].set_aside == 1, 15, "the retained poison")
        time.sleep(1.5)
        assert director.boards["2"].set_aside == 1 and director.boards["1"].held == len(session.journal)
    finally:
        station.stop()
        director.stop()
        session.close()
