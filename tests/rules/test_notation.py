"""Canonical notation out, tolerant notation in."""

from __future__ import annotations

import pytest

from rules.errors import AmbiguousPlay, IllegalPlay, InvalidNotation
from rules.judge import Violation
from rules.notation import parse_chains, parse_play
from rules.play import Step, format_steps
from rules.position import BAR, OFF, Position


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ([Step(24, 18), Step(13, 11)], "24/18 13/11"),
        ([Step(BAR, 22)], "bar/22"),
        ([Step(6, OFF)], "6/off"),
        ([Step(13, 7, True), Step(7, 4)], "13/7*/4"),
        ([Step(24, 18), Step(18, 13)], "24/13"),
        ([Step(8, 5), Step(8, 5)], "8/5(2)"),
        ([Step(6, 5), Step(8, 5)], "8/5 6/5"),
        ([Step(24, 20), Step(24, 18)], "24/20 24/18"),
        ([Step(16, 15, True), Step(16, 15), Step(16, 15)], "16/15*(3)"),
        ([Step(16, 15, True), Step(15, 14), Step(16, 15)], "16/15*/14 16/15"),
        ([], ""),
    ],
)
def test_canonical_notation_is_gnubgs(steps: list[Step], text: str) -> None:
    assert format_steps(steps) == text


START = Position.start()


@pytest.mark.parametrize(
    "text",
    ["8/5 6/5", "6/5 8/5", "8-5 6-5", " 8/5,6/5 ", "8 / 5  6 / 5", "8/5* 6/5", "8/5 6/5*"],
)
def test_tolerant_spellings_of_one_play(text: str) -> None:
    assert parse_play(START, (3, 1), text).notation() == "8/5 6/5"


@pytest.mark.parametrize(
    ("position_dice", "text", "canonical"),
    [
        ((START, (6, 6)), "24/18(2) 13/7(2)", "24/18(2) 13/7(2)"),
        ((START, (6, 6)), "13/7 24/18 13/7 24/18", "24/18(2) 13/7(2)"),
        ((START, (6, 6)), "24/18 ( 2 ) 13/7(2)", "24/18(2) 13/7(2)"),
        ((START, (6, 5)), "24/13", "24/13"),
        ((START, (6, 5)), "24/18/13", "24/13"),
        ((START, (6, 5)), "24/18 18/13", "24/13"),
        ((START, (3, 1)), "13/10/9", "13/9"),
    ],
)
def test_combined_and_repeated_moves(
    position_dice: tuple[Position, tuple[int, int]], text: str, canonical: str
) -> None:
    position, dice = position_dice
    assert parse_play(position, dice, text).notation() == canonical


def test_bar_and_off_spellings() -> None:
    on_bar = Position.build({BAR: 1, 13: 14}, {13: 15})
    for text in ("bar/22", "25/22", "b/22", "BAR-22"):
        assert parse_play(on_bar, (3, 3), text + " 22/19 19/16 16/13").notation() == "bar/13"
    race = Position.build({6: 1, 5: 1}, {13: 15})
    for text in ("6/off 5/off", "6/0 5/0", "6/o 5/off", "6-off 5-0"):
        assert parse_play(race, (6, 5), text).notation() == "6/off 5/off"


def test_hidden_hit_needs_the_star_to_be_told_apart() -> None:
    """24/13 with a blot on 18 (not 19): 24/18*/13 and 24/19/13 are different plays."""
    position = Position.build({24: 1, 6: 14}, {7: 1, 13: 14})
    assert parse_play(position, (6, 5), "24/18*/13").hits == frozenset({18})
    assert parse_play(position, (6, 5), "24/13").hits == frozenset()
    assert parse_play(position, (6, 5), "24/18*/13").notation() == "24/18*/13"


def test_ambiguity_is_reported_with_the_candidates() -> None:
    """With blots on both 18 and 19, 24/13 hits one of them on the way: which one must be written."""
    position = Position.build({24: 1, 6: 14}, {7: 1, 6: 1, 13: 13})
    assert parse_play(position, (6, 5), "24/19*/13").hits == frozenset({19})
    with pytest.raises(AmbiguousPlay) as caught:
        parse_play(position, (6, 5), "24/13")
    assert {p.notation() for p in caught.value.candidates} == {"24/18*/13", "24/19*/13"}


@pytest.mark.parametrize("text", ["x", "24/", "/18", "24//18", "26/20", "24/18(5)", "off/3", "13/bar", "24/18)"])
def test_unreadable_text(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_chains(text) if text != "24/18(5)" else parse_play(START, (6, 6), text)


def test_a_readable_but_illegal_play_names_the_rule() -> None:
    with pytest.raises(IllegalPlay) as caught:
        parse_play(START, (3, 1), "13/8")
    assert caught.value.violations == (Violation.DICE_MISMATCH,)
    with pytest.raises(IllegalPlay) as caught:
        parse_play(START, (3, 1), "8/11")
    assert caught.value.violations == (Violation.WRONG_DIRECTION,)
    with pytest.raises(IllegalPlay) as caught:
        parse_play(START, (3, 1), "8/5")
    assert caught.value.unfinished


def test_no_checker_there() -> None:
    with pytest.raises(IllegalPlay, match="not enough checkers on 7"):
        parse_play(START, (3, 1), "7/4")


def test_empty_text_is_the_lost_turn_only_when_nothing_can_be_played() -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
    dancing = Position.build({BAR: 1, 13: 14}, closed)
    assert parse_play(dancing, (6, 6), "").steps == ()
    with pytest.raises(IllegalPlay):
        parse_play(START, (3, 1), "  ")
