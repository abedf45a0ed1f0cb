"""The tournament's draw, brackets and results: the same invariants over every format and field size.

A tournament is played to its end with random results (hypothesis draws the field, the format and the results),
and after every step: nobody plays two open matches at once, a match never has a bye against a bye to play,
each result is kept once under its own match, and replaying the action log gives the same state.
"""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.net.bracket_sheet import bracket_sheet
from app.net.tournament import (
    BYE,
    Bracket,
    Tournament,
    TournamentError,
    replay,
    results_csv,
    results_json,
    seed_positions,
)
from app.net.tournament_book import TournamentBook
from app.record.journal import JournalError
from app.referee.setup import MatchSetup

FORMATS: list[dict[str, Any]] = [
    {"format": "elimination"},
    {"format": "elimination", "consolation_rounds": 1},
    {"format": "elimination", "consolation_rounds": 2},
    {"format": "elimination", "consolation_rounds": 2, "last_chance": True},
    {"format": "round_robin"},
]


def created(players: int, rules: dict[str, Any], ratings: bool = False) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = [{"do": "create", "event": "Club night", "lengths": [3, 5, 7], **rules}]
    for i in range(players):
        log.append(
            {"do": "register", "name": f"Player {i + 1}", "club": "Kadıköy", "rating": 2000 - i if ratings else None}
        )
    return log


def play_out(log: list[dict[str, Any]], rng: random.Random) -> Tournament:
    """Play every match as it becomes playable, with random winners, checking the invariants at each step."""
    tournament = replay(log)
    boards = iter(range(1, 10**6))
    while playable := tournament.playable():
        busy = [p for m in playable for p in tournament.players_of(m)]
        if tournament.rules.format.value == "elimination":
            assert len(busy) == len(set(busy)), "a player in two open matches"
        match = rng.choice(playable)
        first, second = tournament.players_of(match)
        winner = rng.choice([first, second])
        length = tournament.rules.length(match.round)
        score = [length, rng.randrange(length)] if winner == first else [rng.randrange(length), length]
        for action in (
            {"do": "assign", "match": match.id, "board": str(next(boards) % 7 + 1)},
            {"do": "start", "match": match.id, "at": "2026-12-07T10:00:00Z"},
            {"do": "result", "match": match.id, "winner": winner, "score": score, "head": f"h{len(log)}"},
        ):
            log.append(action)
            tournament.apply(action)
    return tournament


def check_finished(tournament: Tournament, players: int) -> None:
    assert tournament.finished()
    played = [m for m in tournament.matches.values() if m.result is not None]
    ids = [m.id for m in played]
    assert len(ids) == len(set(ids))
    if tournament.rules.format.value == "round_robin":
        assert len(played) == players * (players - 1) // 2, "everyone plays everyone once"
        met = {frozenset(tournament.players_of(m)) for m in played}
        assert len(met) == len(played)
        return
    main = [m for m in played if m.bracket is Bracket.MAIN]
    assert len(main) == players - 1, "single elimination: one match per player knocked out"
    champion = tournament.champion()
    assert champion is not None and champion != BYE
    knocked_out = {tournament.outcome(m)[1] for m in main}  # type: ignore[index]
    assert champion not in knocked_out and len(knocked_out) == players - 1
    for bracket in (Bracket.CONSOLATION, Bracket.LAST_CHANCE):
        if any(m.bracket is bracket for m in tournament.matches.values()):
            winner = tournament.champion(bracket)
            assert winner is None or winner in tournament.players


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 40), rules=st.sampled_from(FORMATS), seed=st.integers(0, 2**32), seeded=st.booleans())
def test_every_format_and_field_plays_to_its_end(players: int, rules: dict[str, Any], seed: int, seeded: bool) -> None:
    log = created(players, rules, ratings=seeded) + [{"do": "draw", "seed": seed, "seeded": seeded}]
    tournament = play_out(log, random.Random(seed))
    check_finished(tournament, players)
    again = replay(log)
    assert again.matches == tournament.matches and again.players == tournament.players, "the log is the state"


def test_a_32_player_double_bracket_to_the_end() -> None:
    log = created(32, {"format": "elimination", "consolation_rounds": 2, "last_chance": True}) + [
        {"do": "draw", "seed": 7}
    ]
    tournament = play_out(log, random.Random(7))
    check_finished(tournament, 32)
    consolation = [m for m in tournament.matches.values() if m.bracket is Bracket.CONSOLATION]
    entrants = {p for m in consolation for p in tournament.players_of(m)}
    main_losers = {
        tournament.outcome(m)[1]  # type: ignore[index]
        for m in tournament.matches.values()
        if m.bracket is Bracket.MAIN and m.round <= 2
    }
    assert entrants == main_losers, "the losers of the first two rounds, and only they, play the consolation"
    assert len(main_losers) == 24
    assert tournament.champion(Bracket.CONSOLATION) in main_losers
    assert tournament.champion(Bracket.LAST_CHANCE) is not None


def test_the_top_seeds_get_the_byes_and_meet_last() -> None:
    assert seed_positions(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    log = created(6, {"format": "elimination"}, ratings=True) + [{"do": "draw", "seed": 1, "seeded": True}]
    tournament = replay(log)
    first_round = [m for m in tournament.matches.values() if m.round == 1]
    byes = [tournament.players_of(m) for m in first_round if BYE in tournament.players_of(m)]
    assert sorted(tournament.name(p) for pair in byes for p in pair if p != BYE) == ["Player 1", "Player 2"]
    assert {tournament.name(p) for p in tournament.players_of(tournament.matches["main-2-1"])} == {"Player 1"} | {
        "?"
    }, "a bye advances at once: the top seed already stands in round 2"
    final = tournament.matches["main-3-1"]
    assert final.places[0].winner_of != final.places[1].winner_of


def test_round_robin_with_an_odd_field_gives_everyone_one_rest() -> None:
    tournament = replay(created(5, {"format": "round_robin"}) + [{"do": "draw", "seed": 3}])
    rounds = sorted({m.round for m in tournament.matches.values()})
    assert rounds == [1, 2, 3, 4, 5]
    for number in rounds:
        playing = [p for m in tournament.matches.values() if m.round == number for p in tournament.players_of(m)]
        assert len(playing) == 4 and len(set(playing)) == 4, "four play, one rests, each round"


def test_standings_break_a_tie_on_wins_by_the_match_between_the_two() -> None:
    log = created(3, {"format": "round_robin"}) + [{"do": "draw", "seed": 0}]
    tournament = replay(log)
    ids = {frozenset(tournament.players_of(m)): m.id for m in tournament.matches.values()}
    p1, p2, p3 = "p1", "p2", "p3"
    for winner, loser, score in ((p1, p2, (5, 4)), (p2, p3, (5, 0)), (p3, p1, (5, 0))):
        match = tournament.matches[ids[frozenset((winner, loser))]]
        first, _ = tournament.players_of(match)
        tournament.apply(
            {"do": "result", "match": match.id, "winner": winner, "score": score if first == winner else score[::-1]}
        )
    order = [p for p, *_ in tournament.standings()]
    assert [w for _, w, _, _ in tournament.standings()] == [1, 1, 1]
    assert order[0] == p2, "all tied on one win: most points won first (p2 won 9)"


def test_two_rounds_on_one_board_are_two_rows() -> None:
    tournament = replay(created(4, {"format": "elimination"}) + [{"do": "draw", "seed": 5}])
    for match_id, head in (("main-1-1", "aaa"), ("main-1-2", "bbb")):
        first, _ = tournament.players_of(tournament.matches[match_id])
        for action in (
            {"do": "assign", "match": match_id, "board": "1"},
            {"do": "start", "match": match_id},
            {"do": "result", "match": match_id, "winner": first, "score": [3, 1], "head": head},
        ):
            tournament.apply(action)
    tournament.apply({"do": "assign", "match": "main-2-1", "board": "1"})
    rows = {row["match"]: row for row in csv.DictReader(io.StringIO(results_csv(tournament)))}
    assert rows["main-1-1"]["head"] == "aaa" and rows["main-1-2"]["head"] == "bbb"
    assert rows["main-1-1"]["board"] == rows["main-1-2"]["board"] == rows["main-2-1"]["board"] == "1"
    assert rows["main-1-1"]["event"] == "Club night" and rows["main-2-1"]["round"] == "2"
    exported = json.loads(results_json(tournament))
    assert len(exported["matches"]) == 3 and exported["standings"][0]["wins"] == 1


def test_a_correction_moves_the_other_player_on_until_the_next_match_starts() -> None:
    tournament = replay(created(4, {"format": "elimination", "consolation_rounds": 1}) + [{"do": "draw", "seed": 2}])
    first, second = tournament.players_of(tournament.matches["main-1-1"])
    tournament.apply({"do": "result", "match": "main-1-1", "winner": first, "score": [3, 0]})
    assert tournament.players_of(tournament.matches["main-2-1"])[0] == first
    with pytest.raises(TournamentError, match="reason"):
        tournament.apply({"do": "correct", "match": "main-1-1", "winner": second, "score": [1, 3], "reason": " "})
    tournament.apply({"do": "correct", "match": "main-1-1", "winner": second, "score": [1, 3], "reason": "sheet"})
    assert tournament.players_of(tournament.matches["main-2-1"])[0] == second
    assert tournament.players_of(tournament.matches["consolation-1-1"])[0] == first, "the loser moves too"
    a, b = tournament.players_of(tournament.matches["main-1-2"])
    tournament.apply({"do": "result", "match": "main-1-2", "winner": a, "score": [3, 2]})
    tournament.apply({"do": "start", "match": "main-2-1"})
    with pytest.raises(TournamentError, match="main-2-1 has started"):
        tournament.apply({"do": "correct", "match": "main-1-1", "winner": first, "score": [3, 0], "reason": "again"})
    tournament.apply({"do": "correct", "match": "main-1-1", "winner": second, "score": [2, 3], "reason": "points"})
    assert tournament.matches["main-1-1"].result.score == (2, 3)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "action, reason",
    [
        ({"do": "register", "name": "Late"}, "no more registrations"),
        ({"do": "draw", "seed": 1}, "already made"),
        ({"do": "result", "match": "main-9-9", "winner": "p1"}, "no match"),
        ({"do": "result", "match": "main-2-1", "winner": "p1"}, "no two players"),
        ({"do": "result", "match": "main-1-1", "winner": "p99"}, "does not play"),
        ({"do": "result", "match": "main-1-1", "winner": "p1", "score": [-1, 3]}, "two numbers"),
        ({"do": "start", "match": "main-2-1"}, "no two players"),
        ({"do": "assign", "match": "main-1-1", "board": " "}, "which board"),
        ({"do": "fly"}, "unknown action"),
    ],
)
def test_wrong_actions_are_refused_in_words(action: dict[str, Any], reason: str) -> None:
    tournament = replay(created(4, {"format": "elimination"}) + [{"do": "draw", "seed": 0}])
    if action.get("winner") == "p1":
        action = {**action, "winner": tournament.players_of(tournament.matches["main-1-1"])[0]}
    before = (dict(tournament.matches), dict(tournament.players))
    with pytest.raises(TournamentError, match=reason):
        tournament.apply(action)
    assert (tournament.matches, tournament.players) == before


def test_a_station_gets_the_match_it_journals() -> None:
    """Players, length per round, the federation's clock (2 min a point, 12 s delay), event, round, board."""
    tournament = replay(created(4, {"format": "elimination", "variant": "tavla"}) + [{"do": "draw", "seed": 0}])
    tournament.apply({"do": "assign", "match": "main-1-2", "board": "12"})
    setup = tournament.station_setup("main-1-2")
    assert setup["match"] == "main-1-2"
    started = MatchSetup.from_dict({k: v for k, v in setup.items() if k != "match"})
    assert started.length == 3 and started.clock.reserve_s == 360 and started.clock.delay_s == 12
    assert started.event == "Club night" and started.round == "R1" and started.table == "12"
    assert set(started.players) == {tournament.name(p) for p in tournament.players_of(tournament.matches["main-1-2"])}
    with pytest.raises(TournamentError):
        tournament.station_setup("main-2-1")


def test_the_book_survives_a_restart_and_writes_nothing_refused(tmp_path: Path) -> None:
    key = bytes(range(32))
    path = tmp_path / "tournament.sqlite"
    book = TournamentBook.create(path, {"event": "Open", "consolation_rounds": 1}, by="director", key=key)
    for i in range(6):
        book.do({"do": "register", "name": f"P{i}"}, by="deputy")
    book.do({"do": "draw", "seed": 11}, by="director")
    match = book.tournament.playable()[0]
    winner = book.tournament.players_of(match)[0]
    book.do({"do": "result", "match": match.id, "winner": winner, "score": [5, 2]}, by="board 3")
    with pytest.raises(TournamentError):
        book.do({"do": "result", "match": match.id, "winner": winner, "score": [5, 2]}, by="board 3")
    other = book.tournament.playable()[0]
    with pytest.raises(TournamentError, match="malformed"):
        book.do(
            {"do": "result", "match": other.id, "winner": book.tournament.players_of(other)[0], "score": ["x", 2]},
            by="board 3",
        )
    entries = len(book.journal)
    state = book.tournament
    book.close()
    again = TournamentBook.open(path, key=key)
    assert len(again.journal) == entries == 9
    assert again.tournament.matches == state.matches and again.tournament.players == state.players
    assert [a["by"] for a in again.actions()][:3] == ["director", "deputy", "deputy"]
    assert all(a["at"] for a in again.actions())
    again.close()
    with pytest.raises(JournalError, match="key"):
        TournamentBook.open(path, key=bytes(32))  # sealed by another station's key: refused, not replayed


def test_the_bracket_sheet_prints_in_both_languages_and_escapes_names() -> None:
    log = created(5, {"format": "elimination", "consolation_rounds": 1})
    log.append({"do": "register", "name": "<b>Mallory</b>"})
    log.append({"do": "draw", "seed": 4})
    tournament = play_out(log, random.Random(4))
    english, turkish = bracket_sheet(tournament, "en"), bracket_sheet(tournament, "tr")
    assert "Main draw" in english and "Consolation" in english and "Winner" in english
    assert "Ana tablo" in turkish and "Teselli tablosu" in turkish and "Kazanan" in turkish
    assert "<b>Mallory" not in english and "&lt;b&gt;Mallory" in english
    assert "@media print" in english
    round_robin = replay(created(4, {"format": "round_robin"}) + [{"do": "draw", "seed": 0}])
    assert "Sıralama" in bracket_sheet(round_robin, "tr")
