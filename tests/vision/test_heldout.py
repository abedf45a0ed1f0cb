"""Verdicts on rendered throws the model never saw (held-out seeds, dice presets and boards), with the board
found automatically (manual corners where that fails, as a referee would give them)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import DiceReader
from vision.annotate import DOUBT, annotate
from vision.calibration import Calibration, detect_board
from vision.errors import CalibrationError
from vision.train.heldout import KINDS, heldout_match_throw, heldout_throw

PER_KIND = 3


def test_rendered_throws_are_ruled_as_a_referee_would(reader: DiceReader) -> None:
    bad_accepted = []  # a void throw ruled valid: the error a referee must not make
    wrong_values = []  # a valid throw accepted with the wrong numbers
    for i in range(PER_KIND):
        for kind in KINDS:
            throw = heldout_throw(20_000 + i * len(KINDS) + KINDS.index(kind), kind)
            try:
                cal = detect_board(throw.image)
            except CalibrationError:
                cal = Calibration.from_corners(throw.corners)
            obs = reader.read(throw.image, cal, throw.thrower)
            if kind != "valid" and obs.verdict == "valid":
                bad_accepted.append((kind, obs))
            if kind == "valid" and obs.verdict == "valid":
                if obs.values is None or sorted(obs.values) != sorted(throw.values):
                    wrong_values.append((throw.values, obs))
    assert not wrong_values, wrong_values
    # regression guards at the shipped model's level (models/MODEL_CARD.md), short of the goals
    assert len(bad_accepted) <= MAX_BAD_ACCEPTED, bad_accepted


MAX_BAD_ACCEPTED = 1


def test_a_held_out_match_is_one_table_and_its_throws_differ() -> None:
    # bench_match learns a match's dice at set-up: its throws must show the same board through the same camera
    first, second = heldout_match_throw(4, 0, "valid"), heldout_match_throw(4, 1, "cocked")
    assert np.allclose(first.corners, second.corners)
    assert (first.thrower, second.thrower) == ("bottom", "top")
    assert not np.array_equal(first.image, second.image)
    assert [d.cocked for d in second.dice].count(True) == 1 and not any(d.cocked for d in first.dice)
    assert first.reference is not None and len(first.dice) == 2
    again = heldout_match_throw(4, 0, "valid")
    assert np.array_equal(again.image, first.image)
    assert not np.allclose(heldout_match_throw(5, 0, "valid").corners, first.corners)


@pytest.mark.parametrize("match, number", [(228, 21), (338, 36), (387, 20), (416, 30)])
def test_a_die_the_detector_missed_on_a_held_out_match_is_boxed_where_it_lies(
    reader: DiceReader, match: int, number: int
) -> None:
    """Dice the shipped reader does not count (models/MODEL_CARD.md): match 228's dark red die on a dark red field,
    which changes the picture only in pieces; and three dice the colour of their field the detector finds but
    whose squares changed too little to count (0.13-0.15: a purple 1 on purple, match 338, and the second die of
    a double, matches 387 and 416). The reading says where the board changed with no die read, and that is where the die
    lies, so the question can show the players the place. (A detector that finds one of these needs another
    missed die here: `bench_match` lists them.)"""
    throw = heldout_match_throw(match, number, "valid")
    obs = reader.read(throw.image, Calibration.from_corners(throw.corners), throw.thrower, reference=throw.reference)
    assert obs.reason == "dice_count" and len(obs.dice) == 1
    [(x0, y0, x1, y1)] = obs.unread
    read = obs.dice[0].centre
    missed = [d for d in throw.dice if not (d.box[0] <= read[0] <= d.box[2] and d.box[1] <= read[1] <= d.box[3])]
    [die] = missed
    cx, cy = (die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2
    assert x0 <= cx <= x1 and y0 <= cy <= y1
    assert (x1 - x0) < 3 * (die.box[2] - die.box[0])  # the die's place, not a part of the board
    drawn = annotate(throw.image, obs)  # and the picture a person looks at boxes it, in the colour of doubt
    assert np.all(drawn[y0, x0 : x1 + 1] == DOUBT, axis=1).mean() > 0.9
