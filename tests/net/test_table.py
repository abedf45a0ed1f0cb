"""The director's bookkeeping and the station's checks, without a broker: order, gaps, duplicates, refusals."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from app.net.client import BrokerConfig
from app.net.director import BoardFeed, Director
from app.net.messages import DirectorMessage, dumps, parse_director_message
from app.net.snapshot import BoardState
from app.net.station import entry_message
from app.net.tail import JournalTail
from app.net.topics import Topics, acl_text, board_id
from app.record.journal import JournalError
from app.record.session import Session, pin_record
from app.referee.events import DirectorOverride, Event, ManualDice, TimeCorrected
from app.referee.setup import MatchSetup
from rules.position import Color
from rules.xgid import decode_xgid
from tests.net.conftest import PREFIX


def messages(tmp_path: Path, events: list[Event]) -> tuple[Session, list[dict[str, object]]]:
    session = Session.create(tmp_path / "m.sqlite", MatchSetup(players=("Ayşe", "Mehmet"), length=3))
    for event in events:
        session.submit(event)
    return session, [entry_message("5", entry) for entry in session.journal.entries()]


def test_entries_out_of_order_and_twice_are_taken_once_in_order(tmp_path: Path) -> None:
    session, sent = messages(tmp_path, [ManualDice((3, 1)), ManualDice((6, 5)), ManualDice((4, 2))] * 3)
    director = Director(BrokerConfig(), PREFIX)
    feed = BoardFeed("5")
    order = [0, 1, 3, 2, 2, 1, 5, 4, 6, 7, 8, 9, 0, 9]  # a gap (3 before 2), duplicates, a second gap
    for index in order:
        director.receive(feed, dict(sent[index]))
    assert feed.held == 10 and feed.received == 10
    assert feed.duplicates == 4 and feed.gaps == 2 and feed.chain_breaks == 0 and not feed.waiting
    assert feed.head == session.journal.head
    session.close()


def test_a_missing_entry_holds_everything_after_it_and_is_acknowledged_as_missing(tmp_path: Path) -> None:
    session, sent = messages(tmp_path, [ManualDice((3, 1))] * 4)
    director = Director(BrokerConfig(), PREFIX)
    feed = director.boards.setdefault("5", BoardFeed("5"))
    for message in sent[:2] + sent[3:]:
        director.receive(feed, dict(message))
    assert feed.held == 2 and len(feed.waiting) == 2 and feed.gaps == 1
    assert "5" in director._ack_due  # the station hears "2" and sends again from 3
    director.receive(feed, dict(sent[2]))
    assert feed.held == 5 and not feed.waiting
    session.close()


def test_an_entry_that_does_not_follow_the_chain_is_reported(tmp_path: Path) -> None:
    session, sent = messages(tmp_path, [ManualDice((3, 1))] * 2)
    director = Director(BrokerConfig(), PREFIX)
    feed = BoardFeed("5")
    forged = dict(sent[1], prev="0" * 64)
    director.receive(feed, dict(sent[0]))
    director.receive(feed, forged)
    assert feed.chain_breaks == 1
    session.close()


def test_late_copies_of_a_boards_earlier_journal_never_enter_its_next_one(tmp_path: Path) -> None:
    """After a director restart the broker may deliver a finished match's entries late, beside the board's next
    journal: none is taken into it, and the next journal's own entries still are, in order."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, old = messages(tmp_path / "a", [ManualDice((3, 1)), ManualDice((6, 5)), ManualDice((4, 2))] * 2)
    second, new = messages(tmp_path / "b", [ManualDice((5, 2)), ManualDice((2, 1))] * 3)
    director = Director(BrokerConfig(), PREFIX)
    feed = BoardFeed("5")
    for message in old:
        director.receive(feed, dict(message))
    for message in new[:3]:
        director.receive(feed, dict(message))
    director.receive(feed, dict(old[3]))  # entry 4 of the finished match, late
    director.receive(feed, dict(old[0]))  # and its entry 1
    assert feed.held == 3 and feed.first == new[0]["hash"]
    for message in new[3:]:
        director.receive(feed, dict(message))
    assert feed.held == len(new) and feed.head == second.journal.head
    first.close()
    second.close()


def test_director_messages_other_than_the_three_allowed_are_refused_with_the_reason() -> None:
    assert parse_director_message(b'{"type": "message", "text": " Hello "}').text == "Hello"
    assert parse_director_message(
        b'{"type": "time", "color": "white", "ms": 60000}'
    ).time_correction() == TimeCorrected(Color.WHITE, 60000, "director")
    assert parse_director_message(b'{"type": "on_the_way", "by": "deputy"}').by == "deputy"
    for payload, reason in [
        (b'{"type": "undo_play"}', "may send only"),
        (b'{"type": "message", "text": ""}', "1 to 500"),
        (b'{"type": "message", "text": "x", "command": "resume"}', "unknown fields .'command'"),
        (b'{"type": "time", "color": "white", "ms": -1}', "remaining milliseconds"),
        (b'{"type": "time", "color": "white", "ms": true}', "remaining milliseconds"),
        (b"[1, 2]", "JSON object"),
        (b"\x00\xff", "not JSON"),
    ]:
        with pytest.raises(ValueError, match=reason):
            parse_director_message(payload)


def test_a_time_correction_from_the_director_is_journaled_and_replayed(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "m.sqlite", MatchSetup(length=3))
    reaction = session.submit(DirectorMessage("time", color="white", ms=90_000).time_correction())
    assert reaction.codes == ["time_set"] and session.referee.times == (90000, 600000)
    with pytest.raises(ValueError, match="0 to 24 hours"):
        TimeCorrected(Color.BLACK, -1)
    # the tablet's own director may correct a time too, with the PIN's proof like any override
    assert session.submit(DirectorOverride("set_time", "white soon")).codes == ["override_refused"]
    session.close()
    reopened = Session.open(tmp_path / "m.sqlite")  # the correction is part of the record: replay agrees
    assert reopened.referee.times == (90000, 600000) and reopened.resumed is not None
    assert reopened.resumed.mismatches == ()
    reopened.close()


def test_a_time_override_at_the_tablet_needs_the_pin(tmp_path: Path) -> None:
    setup = MatchSetup(length=3, pin_hash=pin_record("2468"))
    session = Session.create(tmp_path / "m.sqlite", setup)
    assert session.submit(DirectorOverride("set_time", "black 1")).codes == ["pin_refused"]
    assert session.referee.times is None
    session.close()


def test_the_snapshot_describes_the_board_with_ids_backgammon_software_reads(tmp_path: Path) -> None:
    session, _ = messages(tmp_path, [ManualDice((3, 1))])
    state = BoardState()
    tail = JournalTail(session.journal.path)
    for entry in tail.read(0):
        state.add(entry)
    snapshot = state.snapshot("5")
    assert snapshot["players"] == ["Ayşe", "Mehmet"] and snapshot["length"] == 3 and snapshot["score"] == [0, 0]
    assert snapshot["seq"] == 2 and snapshot["head"] == session.journal.head
    assert snapshot["stage"] == "play" and snapshot["dice"] == [3, 1]
    position, info = decode_xgid(snapshot["xgid"])
    assert position == session.referee.position and info.dice == (3, 1) and info.match_length == 3
    assert snapshot["position_id"] == "4HPwATDgc/ABMA"
    assert sum(snapshot["board"]["white"]) == 15 and sum(snapshot["board"]["black"]) == 15
    tail.close()
    session.close()


def test_the_tail_refuses_a_journal_changed_after_it_was_written(tmp_path: Path) -> None:
    session, _ = messages(tmp_path, [ManualDice((3, 1))])
    session.close()
    import sqlite3

    db = sqlite3.connect(tmp_path / "m.sqlite")
    db.execute("DROP TRIGGER journal_append_only_update")
    db.execute("UPDATE journal SET payload = replace(payload, '3', '4') WHERE seq = 2")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="entry 2 was changed"):
        JournalTail(tmp_path / "m.sqlite").read(0)


class Message:
    """An MQTT message as paho hands it to the director."""

    def __init__(self, topic: str, data: dict[str, object]):
        self.topic, self.payload = topic, dumps(data)


def deliver(director: Director, board: str, leaf: str, data: dict[str, object]) -> None:
    """``data`` reaches ``director`` as a message on ``board``'s ``leaf`` topic, as the broker delivers it."""
    director._on_message(None, None, Message(Topics(PREFIX).board(board, leaf), data))  # type: ignore[arg-type]


def test_the_results_file_follows_entries_that_come_after_the_result(tmp_path: Path) -> None:
    """After a network outage the board's last snapshot, with the result, can reach the director before the
    entries held up behind it: the results file must still end with the journal's head, not the one the
    director held when the result came."""
    session, sent = messages(tmp_path, [ManualDice((3, 1)), ManualDice((6, 5)), ManualDice((4, 2))])
    director = Director(BrokerConfig(), PREFIX, tmp_path / "results")
    deliver(director, "5", "events", sent[0])
    result = {"players": ["Ayşe", "Mehmet"], "score": [3, 0], "winner": "Ayşe", "end": "score", "games": [{}]}
    deliver(director, "5", "snapshot", {"seq": len(sent), "result": result})
    for message in sent[1:]:
        deliver(director, "5", "events", message)
    [row] = list(csv.DictReader(io.StringIO((tmp_path / "results" / "results.csv").read_text())))
    assert row["head"] == session.journal.head and row["seq"] == str(len(session.journal))
    session.close()


def test_results_table_carries_each_finished_board_with_its_head_hash() -> None:
    director = Director(BrokerConfig(), PREFIX)
    feed = director.boards.setdefault("12", BoardFeed("12", held=40, head="ab" * 32))
    feed.snapshot = {
        "result": {
            "players": ["Ayşe", "Mehmet"],
            "variant": "backgammon",
            "length": 3,
            "score": [3, 1],
            "winner": "Ayşe",
            "end": "score",
            "games": [{}, {}],
        }
    }
    director.boards.setdefault("2", BoardFeed("2"))  # still playing: not in the table
    assert director.confirm("2") is False and director.confirm("12") is True
    rows = list(csv.DictReader(io.StringIO(director.results_csv())))
    assert rows == [
        {
            "board": "12",
            "white": "Ayşe",
            "black": "Mehmet",
            "variant": "backgammon",
            "length": "3",
            "score_white": "3",
            "score_black": "1",
            "winner": "Ayşe",
            "end": "score",
            "games": "2",
            "seq": "40",
            "head": "ab" * 32,
            "confirmed": "True",
        }
    ]


def test_topics_and_the_acl_keep_each_board_to_its_own_topics() -> None:
    topics = Topics(PREFIX)
    assert topics.parse(topics.events("7")) == ("7", "events")
    assert topics.parse("tavla/other/board/7/events") is None
    acl = acl_text(PREFIX)
    assert f"pattern write {PREFIX}/board/%u/events" in acl and f"topic write {PREFIX}/board/+/inbox" in acl
    for bad in ("", "a/b", "director", "#", "x" * 33):
        with pytest.raises(ValueError):
            board_id(bad)


def test_the_director_command_names_a_bad_broker_address(capsys: pytest.CaptureFixture[str]) -> None:
    from app.__main__ import main

    assert main(["director", "--broker", "hall-pc:eighty"]) == 2
    assert "a broker's port is a number, not 'eighty'" in capsys.readouterr().err
    assert main(["publish", "m.sqlite", "--broker", "hall-pc:1883", "--board", "a/b"]) == 2
    assert "a board is named by" in capsys.readouterr().err
    assert main(["publish", "/nonexistent/m.sqlite", "--broker", "hall-pc:1883", "--board", "7"]) == 2
    assert "/nonexistent/m.sqlite: no such journal" in capsys.readouterr().err


def test_the_station_follows_the_directors_acknowledgements(tmp_path: Path) -> None:
    from app.net.acks import AckStore, acks_path
    from app.net.station import Station, StationConfig

    session, _ = messages(tmp_path, [ManualDice((3, 1))] * 4)
    station = Station(session.journal.path, StationConfig(BrokerConfig(port=1), "5", PREFIX, resend_after=0.0))
    try:
        station.step()  # folds the journal; with no connection nothing is sent and nothing fails
        assert station.folded == 5 and station.state.head == session.journal.head
        station.sent = 5
        station._on_ack(b'{"seq": 2}')
        assert (station.acked, station.sent) == (2, 5)
        station._on_ack(b'{"seq": 2, "gap": true}')  # the director misses entry 3: send again from there
        assert station.sent == 2
        station.sent = 5
        station._on_ack(b'{"seq": 1}')  # the director lost what it had (restarted): back to where it is
        assert (station.acked, station.sent) == (1, 1)
        for bad in (b'{"seq": 99}', b"not json", b'{"seq": -1}', b'{"seq": true}', b"{}"):
            station._on_ack(bad)
        assert station.acked == 1
    finally:
        station.stop()
        session.close()
    store = AckStore(acks_path(tmp_path / "m.sqlite"))
    assert store.get(PREFIX, "5") == 1 and store.get("tavla/other", "5") == 0
    store.close()
