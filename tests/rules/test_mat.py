"""Jellyfish .mat records: GNU Backgammon's layout, reading back, clear errors, round trip."""

from __future__ import annotations

import datetime
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cube import CubeRules
from rules.cubeful import (
    AcceptResignation,
    Double,
    Drop,
    Move,
    OpeningThrow,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from rules.errors import MatExportError, MatImportError
from rules.game import FirstMove, ResultKind
from rules.mat import load_mat, read_mat, recordable, save_mat, write_mat
from rules.match import Match, MatchEnd, MatchHeader
from rules.notation import parse_play
from rules.position import Color
from rules.registry import find_variant
from rules.selfplay import Temperament, random_action, random_match

WHITE, BLACK = Color.WHITE, Color.BLACK
GNUBG_MATCH = Path(__file__).with_name("golden") / "gnubg_match.mat.txt"
"""A 5-point match GNU Backgammon 1.07 played against itself and wrote with ``export match mat``
(named .txt because the repository ignores *.mat files)."""


def play(match: Match, text: str) -> Match:
    state = match.game
    assert state.game.dice is not None
    return match.apply(Move(parse_play(state.position, state.game.dice, text)))


def club_match() -> Match:
    """A 3-point match with every kind of entry: doubles, takes, drops, a resignation, Crawford."""
    header = MatchHeader(
        ("Ayşe", "Bob"),
        event="Club Cup",
        round="Final",
        site="Istanbul",
        date=datetime.date(2024, 5, 17),
        time=datetime.time(14, 30),
    )
    match = Match.new(3, header)
    match = play(match.apply(OpeningThrow(1, 4)), "13/9 24/23")
    match = play(match.apply(Roll((6, 4))), "24/14")
    match = match.apply(Double(BLACK)).apply(Take(WHITE))
    match = play(match.apply(Roll((5, 5))), "13/3(2)")
    match = match.apply(Double(WHITE)).apply(Drop(BLACK))  # White 2-0: the Crawford game follows
    match = match.apply(OpeningThrow(2, 2))  # a tie, thrown again
    match = play(match.apply(OpeningThrow(6, 1)), "13/7 8/7")
    match = match.apply(Resign(BLACK, ResultKind.GAMMON)).apply(RejectResignation(WHITE))
    match = play(match.apply(Roll((2, 1))), "13/11 6/5")
    match = match.apply(Resign(WHITE, ResultKind.SINGLE)).apply(AcceptResignation(BLACK))  # 2-1
    match = play(match.apply(OpeningThrow(3, 5)), "8/3 6/3")
    match = play(match.apply(Roll((6, 6))), "24/18(2) 13/7(2)")
    match = match.apply(Double(BLACK)).apply(Drop(WHITE))  # 2-2
    match = play(match.apply(OpeningThrow(4, 2)), "8/4 6/4")
    return match.apply(Double(BLACK)).apply(Drop(WHITE))  # 2-3: Black wins the match


CLUB_MATCH_MAT = """\
; [Site "Istanbul"]
; [Match ID "{record_id}"]
; [Player 1 "Ayşe"]
; [Player 2 "Bob"]
; [EventDate "2024.05.17"]
; [EventTime "14.30"]
; [Variation "Backgammon"]
; [Crawford "On"]
; [CubeLimit "64"]
; [Event "Club Cup"]
; [Round "Final"]

 3 point match

 Game 1
 Ayşe : 0                       Bob : 0
  1)                             41: 24/23 13/9
  2) 64: 24/18 18/14              Doubles => 2
  3)  Takes                      55: 13/8 13/8 8/3 8/3
  4)  Doubles => 4                Drops
      Wins 2 points

 Game 2
 Ayşe : 2                       Bob : 0
  1) 61: 13/7 8/7                21: 13/11 6/5
                                  Wins 1 point

 Game 3
 Ayşe : 2                       Bob : 1
  1)                             53: 8/3 6/3
  2) 66: 24/18 24/18 13/7 13/7    Doubles => 2
  3)  Drops                       Wins 1 point

 Game 4
 Ayşe : 2                       Bob : 2
  1) 42: 8/4 6/4                  Doubles => 2
  2)  Drops                       Wins 1 point

"""


def test_the_layout_is_gnu_backgammons() -> None:
    match = club_match()
    assert match.over and match.score == (2, 3)
    assert write_mat(match) == CLUB_MATCH_MAT.format(record_id=match.header.record_id)


def test_the_layout_details() -> None:
    lines = write_mat(club_match()).splitlines()
    moves = [line for line in lines if re.match(r"^ {0,2}\d+\) ", line)]
    assert moves and all(line[3:5] == ") " for line in moves)
    assert all(len(line) <= 33 or line[32] == " " for line in moves)  # the left column is 28 wide
    assert lines[lines.index(" Game 1") + 1].index("Bob") == 32
    assert "      Wins 2 points" in lines and "                                  Wins 1 point" in lines
    assert not any(line != line.rstrip() for line in lines)


def test_reading_gives_the_match_back_as_the_format_holds_it() -> None:
    match = club_match()
    back = read_mat(write_mat(match))
    assert back == recordable(match)
    assert back.score == (2, 3) and back.result is not None and back.result.winner is BLACK
    assert [game.cube.crawford for game in back.games] == [False, True, False, False]
    assert back.header == match.header
    # Left out: the opening tie of game 2 and Black's declined resignation.
    assert len(back.games[1].actions) == len(match.games[1].actions) - 3
    assert write_mat(back) == write_mat(match)


def test_files_round_trip_through_the_disk(tmp_path: Path) -> None:
    path = tmp_path / "club.mat"
    save_mat(club_match(), path)
    assert load_mat(path) == recordable(club_match())


def test_a_match_gnu_backgammon_wrote_is_read_and_written_the_same() -> None:
    match = load_mat(GNUBG_MATCH)
    assert match.header.players == ("gnubg", "root") and match.length == 5
    assert match.over and match.score == (6, 2) and len(match.games) == 4
    assert [game.cube.crawford for game in match.games] == [False, False, False, True]
    ours = write_mat(match).split(" 5 point match\n", 1)[1].splitlines()
    theirs = [line.rstrip() for line in GNUBG_MATCH.read_text().split(" 5 point match\n", 1)[1].splitlines()]
    assert len(ours) == len(theirs)
    for mine, gnubgs in zip(ours, theirs):
        # A checker's path may be split at another point (8/5 5/4* for 8/7 7/4*): the dice,
        # the cube, the results and the layout are the same, and so is the play.
        assert _shape(mine) == _shape(gnubgs)
    assert read_mat(write_mat(match)) == match


def _shape(line: str) -> str:
    return re.sub(r"\d+/\d+\*?", "m", line)


def test_a_money_session_with_beavers_as_gnu_backgammon_writes_it() -> None:
    text = """\
; [EventDate "2026.11.29"]

 0 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 64: 24/18 13/9              33: 8/5 8/5 6/3 6/3
  2)  Doubles => 2                Beavers => 4
  3) 21: 13/11 6/5               65: 24/18 18/13
  4) 21: 13/11 6/5
      Wins 4 points
"""
    session = read_mat(text)
    assert session.is_money and session.score == (4, 0)
    game = session.games[0]
    assert game.outcome is not None and game.outcome.kind is ResultKind.SINGLE
    assert game.cube.value == 4 and game.cube.owner is BLACK


def test_a_money_session_round_trips_with_its_rules() -> None:
    rules = CubeRules(money=True, jacoby=False, beavers=True, raccoons=True, automatic_doubles=0, max_value=None)
    session = random_match(Match.money_session(MatchHeader(("Ali", "Veli")), rules), seed=6, games=4)
    text = write_mat(session)
    assert " 0 point match" in text and '; [Jacoby "Off"]' in text and "CubeLimit" not in text
    assert read_mat(text) == recordable(session)


def test_variants_the_format_cannot_hold_are_refused() -> None:
    uzun = Match.new(3, variant=find_variant("uzun"))
    with pytest.raises(MatExportError, match="cannot hold uzun.*journal"):
        write_mat(uzun)


def test_automatic_doubles_cannot_be_written() -> None:
    session = Match.money_session().apply(OpeningThrow(3, 3))
    with pytest.raises(MatExportError, match="automatic doubles"):
        write_mat(session)
    assert "0 point match" in write_mat(Match.money_session().apply(OpeningThrow(3, 1)))


def test_a_match_lost_on_time_keeps_its_unfinished_game_and_says_who_lost() -> None:
    match = play(Match.new(5).apply(OpeningThrow(3, 1)), "8/5 6/5").apply(Roll((6, 4))).lose_on_time(BLACK)
    text = write_mat(match)
    assert '; [LostOnTime "Player 2"]' in text and "Wins" not in text
    back = read_mat(text)
    assert back.result is not None and (back.result.winner, back.result.end) == (WHITE, MatchEnd.TIME)
    assert back == recordable(match)
    assert len(back.game.actions) == 2  # the roll Black never played is not in the record


def test_a_match_in_progress_round_trips_with_its_double_waiting() -> None:
    match = play(Match.new(7).apply(OpeningThrow(3, 1)), "8/5 6/5").apply(Double(BLACK))
    back = read_mat(write_mat(match))
    assert back == match and back.game.cube.offered_by is BLACK


def test_a_record_may_stop_after_a_roll_not_yet_played() -> None:
    text = " 3 point match\n\n Game 1\n A : 0                          B : 0\n  1) 31: 8/5 6/5                64:\n"
    match = read_mat(text)
    assert match.game.rolled and match.game.game.dice == (6, 4)


def test_previous_winner_opening_is_kept_in_a_tag_of_our_own() -> None:
    match = random_match(Match.new(3, first_move=FirstMove.PREVIOUS_WINNER), seed=2)
    text = write_mat(match)
    assert '; [FirstMove "PreviousWinner"]' in text
    assert read_mat(text) == recordable(match)


def test_the_crawford_rule_off_is_written_and_read() -> None:
    match = random_match(Match.new(3, crawford=False), seed=1)
    text = write_mat(match)
    assert '; [Crawford "Off"]' in text
    assert read_mat(text).rules.crawford is False


GOOD_START = " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
BOB_DROPPED = "  1) 31: 8/5 6/5                Doubles => 2\n  2)  Drops                       Wins 1 point\n"
"""Alice opens, Bob doubles at once and Alice drops: Bob wins 1 point."""


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("hello\n", 1, "expected the ' N point match' line"),
        ("; only a comment\n", 0, "not a .mat file"),
        (" 3 point match\n  1) 31: 8/5 6/5\n", 2, "a game starts with ' Game 1'"),
        (GOOD_START + "  1) 31: whatever\n", 5, "cannot read 'whatever'"),
        (GOOD_START + "  1) 51: 24/19 6/5\n", 5, "closed point"),
        (GOOD_START + "  1) 31: 24/18 24/18\n", 5, "do not match the dice"),
        (GOOD_START + "  1) 33: 8/5 8/5 6/3 6/3\n", 5, "opening roll 33 is a double"),
        (GOOD_START + "  1) 31: 8/5 6/5\n  2) 64: 24/14\n", 6, "it is Bob's turn"),
        (GOOD_START + "  1) 31: 8/5 6/5                Doubles => 4\n", 5, "the cube goes to 2 here, not 4"),
        (
            GOOD_START + BOB_DROPPED.replace("Wins 1 point", "Wins 2 points"),
            6,
            "the score does not add up: the game is worth 1, the file says 2",
        ),
        (
            GOOD_START + BOB_DROPPED.replace("Drops                       Wins", "Drops\n      Wins"),
            7,
            "Alice wins, but the game was won by Bob",
        ),
        (
            GOOD_START + BOB_DROPPED + "\n Game 2\n Alice : 0                      Bob : 0\n",
            9,
            "the score does not add up: the file says 0-0, the games before give 0-1",
        ),
        (GOOD_START + "  1) 31: 8/5 6/5\n\n Game 2\n", 7, "game 1 (line 3) has no result"),
        (GOOD_START + BOB_DROPPED + "\n Game 3\n", 8, "game 3 is out of order"),
        (GOOD_START + BOB_DROPPED + "  3) 64: 24/14\n", 7, "game 1 is already over"),
        (
            GOOD_START + BOB_DROPPED + "\n Game 2\n" + BOB_DROPPED + "\n Game 3\n"
            "  1) 31: 8/5 6/5                Doubles => 2\n",
            13,
            "nobody may double in the Crawford game",
        ),
        (GOOD_START + "  1) 31: 8/5 6/5                Wins 5 points\n", 5, "Bob wins 5 points"),
        ('; [EventDate "17 May"]\n' + GOOD_START, 0, "EventDate '17 May' is not a date"),
        ('; [Variation "HyperGammon (3)"]\n' + GOOD_START, 0, "backgammon and nackgammon records only"),
        (" 3 point match\n\n Game 1\n A : 1                          B : 0\n", 4, "the score does not add up"),
    ],
)
def test_a_bad_file_is_refused_with_file_line_and_reason(text: str, line: int, reason: str) -> None:
    with pytest.raises(MatImportError) as error:
        read_mat(text, "club.mat")
    assert error.value.path == "club.mat" and error.value.line == line
    assert reason in error.value.reason, error.value.reason
    assert str(error.value).startswith(f"club.mat:{line}: " if line else "club.mat: ")


def test_a_number_too_long_to_read_is_refused_with_file_and_line() -> None:
    text = GNUBG_MATCH.read_text(encoding="utf-8")
    for bad, line in (
        (text.replace(" 5 point match", " " + "9" * 5000 + " point match", 1), 3),
        (text.replace(" Game 1", " Game " + "1" * 5000, 1), 5),
    ):
        with pytest.raises(MatImportError) as error:
            read_mat(bad, "long.mat")
        assert error.value.path == "long.mat" and error.value.line == line
        assert "integer string conversion" in error.value.reason


def test_the_usual_short_forms_of_plays_are_read() -> None:
    match = read_mat(GOOD_START + "  1) 64: 24/14                   31: 8-5, 6-5\n  2) 33: 13/10(2) 6/3(2)\n")
    assert [turn.play.notation() for turn in match.game.game.turns] == ["24/14", "8/5 6/5", "13/10(2) 6/3(2)"]
    hit = read_mat(GOOD_START + "  1) 64: 24/14                   21: 13/11 6/5\n  2) 42: bar/21 6/4\n")
    assert hit.game.game.turns[-1].play.notation() == "bar/21 6/4"


@st.composite
def random_matches(draw: st.DrawFn) -> Match:
    """Random legal matches and sessions, under varied rules, some cut off, some lost on time."""
    length = draw(st.sampled_from([0, 1, 2, 3, 5]))
    cube = CubeRules(
        max_value=draw(st.sampled_from([None, 8, 64])),
        beavers=draw(st.booleans()),
        raccoons=draw(st.booleans()),
        jacoby=draw(st.booleans()),
        automatic_doubles=0,
    )
    header = MatchHeader(
        (draw(st.sampled_from(["Ayşe", "A. Yılmaz", "x"])), draw(st.sampled_from(["Bob", "Can Öz", "y"]))),
        event=draw(st.sampled_from(["", 'Kulüp "Tavla" Kupası'])),
        date=draw(st.one_of(st.none(), st.dates(datetime.date(1990, 1, 1), datetime.date(2100, 1, 1)))),
    )
    start = Match.new(
        length,
        header,
        crawford=draw(st.booleans()),
        cube=cube,
        first_move=draw(st.sampled_from(list(FirstMove))),
    )
    temperament = Temperament(
        double=draw(st.sampled_from([0.0, 0.05, 0.3])),
        take=draw(st.sampled_from([0.2, 0.8])),
        resign=draw(st.sampled_from([0.0, 0.02, 0.1])),
        beaver=0.3,
        raccoon=0.5,
    )
    seed = draw(st.integers(0, 2**32))
    match = random_match(start, seed, games=draw(st.integers(1, 3)) if length == 0 else None, temperament=temperament)
    cut = draw(st.one_of(st.none(), st.integers(0, 60)))
    if cut is not None:  # the same match stopped part way (a record taken in the middle)
        rng = random.Random(seed)
        partial = start
        for _ in range(cut):
            if partial.over:
                break
            partial = partial.apply(random_action(partial, rng, temperament))
        match = partial
        if length and not match.over and draw(st.booleans()):
            match = match.lose_on_time(draw(st.sampled_from(list(Color))))
    return match


@settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_matches())
def test_export_then_import_gives_the_same_match(match: Match) -> None:
    text = write_mat(match)
    back = read_mat(text)
    assert back == recordable(match)
    assert write_mat(back) == text
    assert recordable(back) == back
