"""The random but legal match player and ``python -m rules selfplay``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules.__main__ import main
from rules.cube import CubeRules
from rules.cubeful import Move
from rules.mat import load_mat, recordable
from rules.match import Match
from rules.movegen import legal_results
from rules.play import apply_steps
from rules.selfplay import Temperament, random_action, random_match


@pytest.mark.parametrize("length", [1, 3, 7])
def test_a_random_match_runs_to_its_end_with_legal_plays_only(length: int) -> None:
    match = random_match(Match.new(length), seed=length)
    assert match.over and max(match.score) >= length
    for game in match.games:
        turns = game.game.turns
        position = game.game.variant.start()
        for turn in turns:
            position = position.with_turn(turn.color)
            after = apply_steps(position, turn.play.steps)
            assert after in legal_results(position, turn.dice)
            position = after


def test_the_same_seed_gives_the_same_match() -> None:
    assert random_match(Match.new(5), seed=9) == random_match(Match.new(5), seed=9)
    assert random_match(Match.new(5), seed=9) != random_match(Match.new(5), seed=10)


def test_a_money_session_stops_after_the_games_asked_for() -> None:
    session = random_match(Match.money_session(cube=CubeRules(raccoons=True)), seed=3, games=4)
    assert len(session.finished_games) == 4 and not session.over


def test_every_random_action_is_one_the_rules_accept() -> None:
    rng = random.Random(5)
    temperament = Temperament(double=0.5, resign=0.2, beaver=0.5, raccoon=0.5)
    match = Match.money_session(cube=CubeRules(raccoons=True, automatic_doubles=2))
    for _ in range(400):
        action = random_action(match, rng, temperament)
        match = match.apply(action)  # raises if the player broke a rule
    assert any(isinstance(action, Move) for game in match.games for action in game.actions)


def test_the_command_writes_a_reproducible_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.mat", tmp_path / "b.mat"
    for out in (first, second):
        assert (
            main(
                [
                    "selfplay",
                    "--length",
                    "5",
                    "--seed",
                    "4",
                    "--out",
                    str(out),
                    "--date",
                    "2024-05-17",
                    "--players",
                    "Ayşe",
                    "Mehmet",
                ]
            )
            == 0
        )
    assert first.read_text() == second.read_text()
    match = load_mat(first)
    assert match.over and match.length == 5 and match.header.players == ("Ayşe", "Mehmet")
    assert match == recordable(random_match(Match.new(5, match.header, cube=CubeRules(automatic_doubles=0)), 4))
    assert "5-point match, seed 4" in capsys.readouterr().err


def test_the_command_writes_to_standard_output_and_plays_money(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--length", "0", "--games", "2", "--seed", "1", "--date", "2024-05-17"]) == 0
    captured = capsys.readouterr()
    assert " 0 point match" in captured.out and " Game 2" in captured.out
    assert "money session" in captured.err


def test_the_command_refuses_a_variant_the_format_cannot_hold(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--variant", "uzun"]) == 2
    assert "cannot hold uzun" in capsys.readouterr().err
