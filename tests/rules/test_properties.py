"""Properties of legal plays on arbitrary positions (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.judge import judge
from rules.movegen import legal_results
from rules.notation import parse_play
from rules.play import apply_steps
from rules.position import BAR, CHECKERS, OFF, SLOTS, Color, Position, Status

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any valid position with both sides still playing; shrinks toward near-empty boards."""
    white = [0] * SLOTS
    for _ in range(draw(st.integers(1, CHECKERS))):
        white[draw(st.integers(1, BAR))] += 1
    white[OFF] = CHECKERS - sum(white)
    free = [q for q in range(1, 25) if not white[25 - q]] + [BAR]
    black = [0] * SLOTS
    for _ in range(draw(st.integers(1, CHECKERS))):
        black[draw(st.sampled_from(free))] += 1
    black[OFF] = CHECKERS - sum(black)
    return Position(tuple(white), tuple(black), draw(st.sampled_from(Color)))


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_checkers_are_conserved_and_results_valid(position: Position, roll: tuple[int, int]) -> None:
    for after in legal_results(position, roll):
        assert after.status() == Status.VALID
        assert sum(after.white) == sum(after.black) == CHECKERS
        assert after.turn is position.turn.other


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_mirrored_position_gives_mirrored_plays(position: Position, roll: tuple[int, int]) -> None:
    results = legal_results(position, roll)
    mirrored = legal_results(position.mirrored(), roll)
    assert set(mirrored) == {after.mirrored() for after in results}
    assert {p.notation() for p in mirrored.values()} == {p.notation() for p in results.values()}


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_no_step_lands_on_a_closed_point(position: Position, roll: tuple[int, int]) -> None:
    for play in legal_results(position, roll).values():
        opponent = list(position.opponent)
        for step in play.steps:
            if step.dest != OFF:
                assert opponent[25 - step.dest] < 2
                if opponent[25 - step.dest] == 1:
                    opponent[25 - step.dest] = 0
                    opponent[BAR] += 1


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_every_play_uses_the_same_number_of_dice(position: Position, roll: tuple[int, int]) -> None:
    lengths = {len(play.steps) for play in legal_results(position, roll).values()}
    assert len(lengths) == 1


@settings(max_examples=200, deadline=None)
@given(positions(), dice)
def test_notation_parses_back_to_the_same_play(position: Position, roll: tuple[int, int]) -> None:
    for after, play in legal_results(position, roll).items():
        parsed = parse_play(position, roll, play.notation())
        assert apply_steps(position, parsed.steps) == after


@settings(max_examples=200, deadline=None)
@given(positions(), dice)
def test_judge_accepts_every_legal_result(position: Position, roll: tuple[int, int]) -> None:
    for after, play in legal_results(position, roll).items():
        assert apply_steps(position, judge(position, roll, after).steps) == after
        assert apply_steps(position, play.steps) == after
