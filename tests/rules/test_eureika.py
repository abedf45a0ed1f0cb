"""Eureika: 3, 3, 3, 2, 2, 2 on points 1..6, a bear-off race from the first throw (docs/rules.md section 3)."""

from __future__ import annotations

from rules.family import EUREIKA_VARIANT, EureikaPosition
from rules.movegen import legal_plays
from rules.registry import find_variant
from tests.rules.reference import TAVLA
from tests.rules.variant_checks import agree_with_reference, self_play


def test_start() -> None:
    start = EureikaPosition.start()
    assert start.white[1:7] == (3, 3, 3, 2, 2, 2)
    assert start.pips(start.turn) == 3 + 6 + 9 + 8 + 10 + 12
    assert find_variant("eureka") is EUREIKA_VARIANT


def test_bear_off_from_the_first_throw() -> None:
    assert {p.notation() for p in legal_plays(EureikaPosition.start(), (6, 5))} == {"6/off 5/off", "6/1 6/off"}
    assert {p.notation() for p in legal_plays(EureikaPosition.start(), (6, 6))} == {"6/off(2) 5/off(2)"}


def test_generator_agrees_with_the_reference_on_5000_positions() -> None:
    assert agree_with_reference(EUREIKA_VARIANT, TAVLA, 5000, seed=47) == 5000


def test_self_play_of_1000_games() -> None:
    games = self_play(EUREIKA_VARIANT, 1000, seed=48)
    assert all(game.result is not None and game.result.points in (1, 2) for game in games)
