"""Matches written by rules.mat are read by GNU Backgammon exactly as they were played.

The random but legal match player (rules.selfplay) plays matches to 1, 3, 7
and 11 points, a money session with beavers and raccoons, and a nackgammon
match (gnubg's Variation "NackGammon" header); each is written
as a .mat file and imported by Debian's gnubg in one process. For every file:
gnubg prints no WARNING (it silently drops a move it finds invalid), reports
the same games, winners, points, Crawford games and final score, records
every action we recorded, in order, from the same board; and since gnubg's
import is lenient, every play as gnubg read it is checked legal for its dice
by our own rules core.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from rules.cube import CubeRules
from rules.cubeful import (
    AcceptResignation,
    Action,
    Beaver,
    CubefulGame,
    Double,
    Drop,
    Ending,
    Move,
    Raccoon,
    Resign,
    Take,
)
from rules.gnubg_id import encode_position_id
from rules.mat import read_mat, recordable, write_mat
from rules.match import Match, MatchHeader
from rules.movegen import legal_results
from rules.play import Step, apply_steps
from rules.position import Color, Position
from rules.registry import find_variant
from rules.selfplay import random_match
from tests.rules.gnubg import oracle

SCRIPT = Path(__file__).with_name("gnubg") / "mat_import_script.py"
LETTER = {Color.WHITE: "X", Color.BLACK: "O"}
"""gnubg.match() calls player 0 (White) "X" and player 1 (Black) "O"."""

CASES: dict[str, dict[str, Any]] = {
    "1-point": {"length": 1, "seed": 1},
    "3-point": {"length": 3, "seed": 1},
    "7-point": {"length": 7, "seed": 9},
    "11-point": {"length": 11, "seed": 7},
    "money": {"length": 0, "seed": 6, "games": 8},
    "nackgammon": {"length": 5, "seed": 2, "variant": "nackgammon"},
}
VARIATION = {"backgammon": "Standard", "nackgammon": "Nackgammon"}
"""gnubg.match()'s name for each variant a .mat file holds."""
CONTROL = """
 1 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 51: 24/19 6/5
"""
"""A file with a play onto a closed point: gnubg must be seen to complain about it (a play that
merely does not fit its dice, such as 31: 24/18 24/18, it takes without a word)."""


def make_match(length: int, seed: int, games: int | None = None, variant: str = "backgammon") -> Match:
    """The match ``python -m rules selfplay --length L --seed S [--games G] [--variant V]`` plays."""
    header = MatchHeader(("Ayşe Yılmaz", "Bob"), event="gnubg import test", date=datetime.date(2024, 5, 17))
    cube = CubeRules(raccoons=True, automatic_doubles=0)
    start = Match.new(length, header, cube=cube, variant=find_variant(variant))
    return random_match(start, seed, games=games)


@pytest.fixture(scope="module")
def imported(gnubg_available: None) -> dict[str, dict[str, Any]]:
    """Every case written, imported by one gnubg process: our match, gnubg's match, gnubg's output."""
    matches = {
        name: make_match(case["length"], case["seed"], case.get("games"), case.get("variant", "backgammon"))
        for name, case in CASES.items()
    }
    with tempfile.TemporaryDirectory() as folder:
        cases = []
        for name, match in matches.items():
            path = Path(folder, f"{name}.mat")
            path.write_text(write_mat(match), encoding="utf-8")
            cases.append({"id": name, "path": str(path), "settings": ["set jacoby on", "set beavers 3"]})
        control = Path(folder, "control.mat")
        control.write_text(CONTROL, encoding="utf-8")
        cases.append({"id": "control", "path": str(control)})
        source, target = Path(folder, "in.json"), Path(folder, "out.json")
        source.write_text(json.dumps(cases))
        env = dict(os.environ, TAVLA_ORACLE_IN=str(source), TAVLA_ORACLE_OUT=str(target), HOME=folder)
        completed = subprocess.run(
            [str(oracle.GNUBG), "-t", "-q", "-p", str(SCRIPT)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=300,
        )
        if not target.exists():
            raise RuntimeError(f"gnubg wrote no answer (exit {completed.returncode}):\n{completed.stdout[-3000:]}")
        answers = {entry["id"]: entry["match"] for entry in json.loads(target.read_text())}
    output = _output_by_case(completed.stdout)
    cases_seen = {name: {"ours": matches[name], "gnubg": answers[name], "output": output[name]} for name in CASES}
    cases_seen["control"] = {"output": output["control"]}
    return cases_seen


def _output_by_case(stdout: str) -> dict[str, list[str]]:
    """gnubg's own messages between the markers the script prints around each import."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in stdout.splitlines():
        if line.startswith("@@BEGIN "):
            current = sections.setdefault(line.split(" ", 1)[1], [])
        elif line.startswith("@@END "):
            current = None
        elif current is not None:
            current.append(line)
    return sections


def _complaints(lines: list[str]) -> list[str]:
    return [line for line in lines if re.search(r"warning|unrecognised|invalid|illegal|error", line, re.IGNORECASE)]


@pytest.mark.parametrize("name", list(CASES))
def test_gnubg_prints_no_warning(imported: dict[str, dict[str, Any]], name: str) -> None:
    assert _complaints(imported[name]["output"]) == []


def test_a_play_gnubg_drops_is_seen(imported: dict[str, dict[str, Any]]) -> None:
    """The harness does see gnubg's WARNING for an invalid play (so silence above means something)."""
    assert any("WARNING" in line for line in _complaints(imported["control"]["output"]))


@pytest.mark.parametrize("name", list(CASES))
def test_gnubg_reports_the_same_games_and_score(imported: dict[str, dict[str, Any]], name: str) -> None:
    ours: Match = recordable(imported[name]["ours"])
    theirs = imported[name]["gnubg"]
    assert theirs["match-info"]["match-length"] == ours.length
    assert theirs["match-info"]["variation"] == VARIATION[ours.rules.variant.name]
    assert (theirs["match-info"]["X"]["name"], theirs["match-info"]["O"]["name"]) == ours.header.players
    games = [game for game in ours.games if game.actions]
    assert len(theirs["games"]) == len(games)
    for game, score, their in zip(games, ours.scores_before(), theirs["games"]):
        info = their["info"]
        assert (info["score-X"], info["score-O"]) == score
        assert game.outcome is not None and game.outcome.winner is not None
        assert info["winner"] == LETTER[game.outcome.winner]
        assert info["points-won"] == game.outcome.points
        assert bool(info.get("resigned")) == (game.outcome.ending is Ending.RESIGNED)
        assert bool(info.get("crawford")) == game.cube.crawford
    last = theirs["games"][-1]["info"]
    final = [last["score-X"], last["score-O"]]
    final[0 if last["winner"] == "X" else 1] += last["points-won"]
    assert tuple(final) == ours.score
    if ours.length:
        assert max(ours.score) >= ours.length


@pytest.mark.parametrize("name", list(CASES))
def test_gnubg_records_every_action_from_the_same_board(imported: dict[str, dict[str, Any]], name: str) -> None:
    ours: Match = recordable(imported[name]["ours"])
    their_games = imported[name]["gnubg"]["games"]
    for game, their in zip([g for g in ours.games if g.actions], their_games):
        theirs = [(entry["action"], entry["player"], entry.get("board")) for entry in their["game"]]
        assert theirs == list(_as_gnubg_records(game))


@pytest.mark.parametrize("name", list(CASES))
def test_every_play_gnubg_read_is_legal_for_its_dice(imported: dict[str, dict[str, Any]], name: str) -> None:
    """gnubg's import is lenient, so each play as gnubg read it is checked by our rules core."""
    ours: Match = recordable(imported[name]["ours"])
    checked = 0
    for game, their in zip([g for g in ours.games if g.actions], imported[name]["gnubg"]["games"]):
        turns = iter(game.game.turns)
        for entry in their["game"]:
            if entry["action"] != "move":
                continue
            turn = next(turns)
            before = _position_before(game, turn.color, entry["board"])
            after = apply_steps(before, [Step(source, dest) for source, dest in entry["move"]])
            assert sorted(entry["dice"]) == sorted(turn.dice)
            assert after in legal_results(before, tuple(entry["dice"])), (name, entry)
            checked += 1
    assert checked == sum(len(game.game.turns) for game in ours.games)


def test_the_files_cover_the_cube_resignations_and_crawford(imported: dict[str, dict[str, Any]]) -> None:
    """The seeds are chosen so the import test meets every kind of entry at least once."""
    ours = [imported[name]["ours"] for name in CASES]
    actions = [action for match in ours for game in recordable(match).games for action in game.actions]
    kinds = {type(action) for action in actions}
    assert {Move, Double, Take, Drop, Beaver, Raccoon, Resign, AcceptResignation} <= kinds
    assert any(game.cube.crawford for match in ours for game in match.games)
    assert any(
        not game.cube.crawford and any(earlier.cube.crawford for earlier in match.games[:index])
        for match in ours
        for index, game in enumerate(match.games)
    ), "no post-Crawford game"


def test_our_reader_reads_each_file_back(imported: dict[str, dict[str, Any]]) -> None:
    for name in CASES:
        match = imported[name]["ours"]
        assert read_mat(write_mat(match)) == recordable(match)


def _position_before(game: CubefulGame, color: Color, board_id: str) -> Position:
    """Our board before the turn whose Position ID gnubg reports (they must agree)."""
    position = game.game.variant.start()
    for turn in game.game.turns:
        position = position.with_turn(turn.color)
        if encode_position_id(position) == board_id and turn.color is color:
            return position
        position = apply_steps(position, turn.play.steps)
    raise AssertionError(f"gnubg's board {board_id} is not a board of this game")


def _as_gnubg_records(game: CubefulGame) -> Iterator[tuple[str, str, str | None]]:
    """What gnubg.match() lists for our game: a beaver or raccoon is a double; the take follows the last."""
    position = game.game.variant.start()
    actions: list[Action] = list(game.actions)
    turns = iter(game.game.turns)
    doubler = Color.WHITE
    for index, action in enumerate(actions):
        following = actions[index + 1] if index + 1 < len(actions) else None
        if isinstance(action, Move):
            turn = next(turns)
            position = position.with_turn(turn.color)
            yield ("move", LETTER[turn.color], encode_position_id(position))
            position = apply_steps(position, turn.play.steps)
        elif isinstance(action, Double):
            doubler = action.by
            yield ("double", LETTER[action.by], encode_position_id(position.with_turn(doubler)))
        elif isinstance(action, Take):
            yield ("take", LETTER[action.by], None)
        elif isinstance(action, Drop):
            yield ("drop", LETTER[action.by], None)
        elif isinstance(action, (Beaver, Raccoon)):
            yield ("double", LETTER[action.by], encode_position_id(position.with_turn(doubler)))
            if not isinstance(following, Raccoon):
                yield ("take", LETTER[action.by.other], None)
        elif isinstance(action, Resign) and isinstance(following, AcceptResignation):
            yield ("resign", LETTER[action.by], None)
