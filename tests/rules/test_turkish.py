"""Turkish tavla: bearing off is compulsory (docs/rules.md section 3)."""

from __future__ import annotations

import pytest

from rules.errors import IllegalPlay
from rules.family import TURKISH_VARIANT, TurkishPosition
from rules.judge import Violation, judge
from rules.movegen import legal_plays
from rules.play import Step, apply_steps
from rules.position import OFF, Position
from rules.registry import find_variant
from tests.rules.reference import TURKISH
from tests.rules.variant_checks import agree_with_reference, self_play


def notations(position: Position, dice: tuple[int, int]) -> set[str]:
    return {play.notation() for play in legal_plays(position, dice)}


def test_found_by_its_names() -> None:
    assert find_variant("Türk tavlası") is TURKISH_VARIANT
    assert TURKISH_VARIANT.start() == TurkishPosition.start()


def test_a_die_that_can_bear_off_must_bear_off() -> None:
    """6-5 with checkers on 6 and 5: both must come off; standard tavla would also allow 6/1 6/... inside."""
    board = {6: 2, 5: 2, 2: 1}
    turkish = TurkishPosition.build(board, {13: 15})
    standard = Position.build(board, {13: 15})
    assert notations(turkish, (6, 5)) == {"6/off 5/off"}
    assert "6/1 6/off" in notations(standard, (6, 5)) or "6/off 6/1" in notations(standard, (6, 5))


def test_a_die_that_cannot_bear_off_moves_inside() -> None:
    """A 1 cannot bear off with checkers on 6 and 5 only: it moves inside, the 6 bears off."""
    turkish = TurkishPosition.build({6: 2, 5: 2}, {13: 15})
    plays = notations(turkish, (6, 1))
    assert plays == {"6/5 6/off", "6/off 5/4"}


def test_compulsory_bear_off_against_playing_both_dice() -> None:
    """White 6, 3, 2 against Black on White's 1 and 5, rolling 5-2.

    Standard tavla must play both: 6/4 then the 5 bears the 4 off. In Turkish
    tavla the 2 can bear off, so it must (6/4 is not allowed), and then the 5
    cannot be played: the compulsory bear-off wins over using both dice.
    """
    board = ({6: 1, 3: 1, 2: 1}, {24: 3, 20: 3, 13: 9})
    assert notations(TurkishPosition.build(*board), (5, 2)) == {"2/off"}
    assert notations(Position.build(*board), (5, 2)) == {"6/off"}  # 6/4/off


def test_moving_inside_when_a_bear_off_was_possible_is_named() -> None:
    position = TurkishPosition.build({6: 2, 5: 2, 2: 1}, {13: 15})
    after = apply_steps(position, [Step(6, 1), Step(6, 0)])
    with pytest.raises(IllegalPlay) as caught:
        judge(position, (6, 5), after)
    assert caught.value.violations == (Violation.MUST_BEAR_OFF,)


def test_order_matters_and_the_search_tries_every_order() -> None:
    """2-2 with checkers on 3 and 2: 2/off then 3/1 is legal (after it, the 2 cannot bear off)."""
    position = TurkishPosition.build({3: 1, 2: 1}, {13: 15})
    results = {after.white for after in [apply_steps(position, p.steps) for p in legal_plays(position, (2, 2))]}
    assert any(white[OFF] == 15 for white in results)


def test_generator_agrees_with_the_reference_on_5000_positions() -> None:
    assert agree_with_reference(TURKISH_VARIANT, TURKISH, 5000, seed=41) == 5000


def test_self_play_of_1000_games() -> None:
    games = self_play(TURKISH_VARIANT, 1000, seed=42)
    assert len(games) == 1000


@pytest.mark.parametrize(
    "typed", ["TÜRK TAVLASI", "Türk Tavlası", "türk tavlası", "TURK TAVLASI", "turk-tavlasi", "  Türk   tavlasi "]
)
def test_turkish_tavla_is_found_however_its_name_is_typed(typed: str) -> None:
    """Python lower-cases a capital I to a dotted i, never to a dotless ı: TÜRK TAVLASI once matched nothing."""
    assert find_variant(typed) is find_variant("turkish")


def test_an_unknown_variant_still_lists_the_known_names() -> None:
    with pytest.raises(ValueError, match="unknown variant 'tavla tavla'; known: backgammon"):
        find_variant("tavla tavla")
