"""No message stops the director or a station: 100,000 malformed and mutated messages, taken directly.

A seeded generator mutates real messages of a recorded match (a finished board's snapshot, a board in
play, its events, its status; the director's acknowledgements and messages for a station): a field
replaced by a value of another type or size, a key dropped or added, the whole message replaced, its
bytes cut or flipped. Each goes through the same function the network thread calls; afterwards every
view the page reads (the table, one board, the results and their CSV) must still be built. Nothing may
raise, and every message is either taken or counted as set aside.
"""

from __future__ import annotations

import copy
import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from app.net.client import BrokerConfig
from app.net.director import Director
from app.net.messages import DirectorMessage, dumps
from app.net.snapshot import BoardState
from app.net.station import Station, StationConfig, entry_message
from app.net.topics import Topics
from app.record.session import Session
from app.referee.events import Event, TimeCorrected
from app.referee.setup import MatchSetup
from tests.net.conftest import PREFIX

DIRECTOR_MESSAGES = 100_000
STATION_MESSAGES = 20_000

ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**64,
    -(2**70),
    1.5,
    float("nan"),
    float("inf"),
    "",
    "x",
    "white",
    "x" * 5000,
    "\u0000\ud7ff",
    [],
    [1],
    [None, None],
    ["a", "b", "c"],
    {},
    {"a": 1},
    {"white": [1] * 26, "black": "x"},
    [[[[[[[[[]]]]]]]]],
]


def paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value (keys and indexes), the value itself first."""
    found = [here]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*here, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += paths(inner, (*here, index))
    return found


def mutate(value: Any, rng: random.Random, places: list[tuple[Any, ...]] | None = None) -> Any:
    """One random change somewhere in ``value``, returned as a new value (the containers on the way to the change
    are copied, the rest shared, so a large snapshot costs little)."""
    place = rng.choice(places if places is not None else paths(value))
    if not place:
        return rng.choice(ODD_VALUES)
    top = copy.copy(value)
    parent = top
    for step in place[:-1]:
        parent[step] = copy.copy(parent[step])
        parent = parent[step]
    last = place[-1]
    action = rng.random()
    if action < 0.6:
        parent[last] = rng.choice(ODD_VALUES)
    elif action < 0.8:
        del parent[last]
    elif isinstance(parent, dict):
        parent[rng.choice(["extra", "result", "board", "seq", "payload", "state"])] = rng.choice(ODD_VALUES)
    else:
        parent.append(rng.choice(ODD_VALUES))
    return top


def payload_of(value: Any, rng: random.Random) -> bytes:
    """The message's bytes, sometimes damaged on the way."""
    data = json.dumps(value).encode("utf-8")
    roll = rng.random()
    if roll < 0.05:
        return data[: rng.randrange(len(data) + 1)]
    if roll < 0.1 and data:
        at = rng.randrange(len(data))
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    if roll < 0.12:
        return rng.randbytes(rng.randrange(40))
    return data


def board_messages(recording: tuple[MatchSetup, list[Event]], tmp_path: Path) -> tuple[Session, list[tuple[str, Any]]]:
    """(leaf, message) of one board that finished its match: snapshots at the end and halfway, events, status."""
    setup, events = recording
    session = Session.create(tmp_path / "fuzz.sqlite", setup)
    for event in events:
        session.submit(event)
    entries = list(session.journal.entries())
    finished, halfway = BoardState(), BoardState()
    for entry in entries:
        finished.add(entry)
    for entry in entries[: len(entries) // 2]:
        halfway.add(entry)
    seeds: list[tuple[str, Any]] = [
        ("snapshot", finished.snapshot("5")),
        ("snapshot", halfway.snapshot("5")),
        ("status", {"board": "5", "state": "online", "inbox": {"id": "abc", "type": "message"}}),
    ]
    seeds += [("events", entry_message("5", entry)) for entry in entries[:40]]
    assert seeds[0][1]["result"]["winner"]  # the finished board has a result row to build
    return session, seeds


def test_a_hundred_thousand_bad_messages_never_stop_the_director(
    recording: tuple[MatchSetup, list[Event]], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    session, seeds = board_messages(recording, tmp_path)
    session.close()
    places = [paths(seed) for _, seed in seeds]
    rng = random.Random(20261207)
    director = Director(BrokerConfig(), PREFIX)
    topics = Topics(PREFIX)
    taken = 0
    caplog.set_level(logging.ERROR, "app.net")  # a hundred thousand warnings are the point, not news
    for number in range(DIRECTOR_MESSAGES):
        pick = rng.randrange(len(seeds))
        leaf, message = seeds[pick]
        message = mutate(message, rng, places[pick])
        for _ in range(rng.choice([0, 0, 0, 1, 2])):
            message = mutate(message, rng)
        board = rng.choice(["5", "5", "5", "6"])
        taken += director.take(topics.board(board, leaf), payload_of(message, rng))
        if number % 50 == 0:  # what the page asks for, every second, in the hall
            director.table()
            director.board(board)
            director.results_csv()
            director.results_json()
    set_aside = sum(feed.set_aside for feed in director.boards.values())
    assert taken + set_aside == DIRECTOR_MESSAGES
    assert set_aside > DIRECTOR_MESSAGES // 2  # most mutations break the declared shape
    # the real messages still count after all that: a finished board shows its result
    for leaf, seed in seeds:
        assert director.take(topics.board("7", leaf), dumps({**seed, "board": "7"} if leaf == "events" else seed))
    assert director.take(topics.snapshot("7"), dumps(seeds[0][1]))  # the finished board's snapshot the latest
    rows = [row for row in director.results() if row["board"] == "7"]
    assert rows and rows[0]["winner"] == seeds[0][1]["result"]["winner"] and rows[0]["seq"] == 40


def test_the_issues_poisoned_snapshot_is_set_aside_and_shown_against_its_board() -> None:
    director = Director(BrokerConfig(), PREFIX)
    topics = Topics(PREFIX)
    assert not director.take(topics.snapshot("1"), dumps({"board": "1", "seq": 3, "result": "x"}))
    assert director.results() == []
    row = director.table()[0]
    assert row["board"] == "1" and row["set_aside"] == 1 and "result" in row["last_set_aside"]
    assert not director.take(
        topics.events("1"),
        dumps({"board": "2", "seq": 1, "kind": "note", "at": "", "prev": "", "hash": "", "payload": {}}),
    )
    assert "board 1's topic" in director.table()[0]["last_set_aside"]


def test_a_hundred_thousand_bad_messages_never_stop_a_station(
    recording: tuple[MatchSetup, list[Event]], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    session, seeds = board_messages(recording, tmp_path)
    submitted: list[Event] = []
    delivered: list[DirectorMessage] = []
    station = Station(
        session.journal.path,
        StationConfig(BrokerConfig(), "5", PREFIX),
        deliver=delivered.append,
        submit=lambda event: submitted.append(event),
    )
    station.step()  # the journal folded (nothing is sent: no broker)
    rng = random.Random(7)
    topics = Topics(PREFIX)
    caplog.set_level(logging.ERROR, "app.net")
    inbox: list[dict[str, Any]] = [
        {"type": "message", "id": "m", "text": "Masa 5: bekleyin", "by": "director"},
        {"type": "on_the_way", "id": "o"},
        {"type": "time", "id": "t", "color": "white", "ms": 60_000, "by": "deputy"},
    ]
    acks: list[dict[str, Any]] = [{"seq": 3, "gap": False}, {"seq": 0, "gap": True}]
    try:
        for number in range(STATION_MESSAGES):
            ack = rng.random() < 0.5
            message = mutate(rng.choice(acks if ack else inbox), rng)
            if isinstance(message, dict):
                message["id"] = str(number)  # each one new, so none is taken as a repeat
            topic = topics.ack("5") if ack else topics.inbox("5")
            station.take(topic, payload_of(message, rng))
        assert station.set_aside > STATION_MESSAGES // 4
        assert all(isinstance(event, TimeCorrected) and 0 <= event.remaining_ms <= 86_400_000 for event in submitted)
        assert all(message.kind in ("message", "on_the_way") for message in delivered)
        assert 0 <= station.acked <= station.folded
    finally:
        station.stop()
        session.close()
