"""Sure or unsure: which readings raise a question, under the tournament and the casual setting."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.calibration import Calibration
from vision.errors import VisionError
from vision.sureness import CASUAL, SETTINGS, TOURNAMENT, Sureness, die_doubts, doubts
from vision.verdict import DieReading, ThrowObservation, judge

# a board seen straight from above, one pixel per canonical unit: x_mm = (x - 500) * 0.524 from the bar's middle
CAL = Calibration.from_corners([(0, 0), (1000, 0), (1000, 800), (0, 800)])
SHAPE = (900, 1100, 3)  # the picture reaches 50-100 px beyond the board


def die(
    x: float, y: float = 400, value: int | None = 5, confidence: float = 0.999, cocked: float = 0.01, side: int = 30
) -> DieReading:
    box = (int(x - side / 2), int(y - side / 2), int(x + side / 2), int(y + side / 2))
    zone = CAL.zone((x, y), "bottom")
    is_cocked = cocked >= 0.5
    return DieReading(value, box, is_cocked, cocked if is_cocked else confidence, zone, cocked)


def throw(*dice: DieReading) -> ThrowObservation:
    verdict, reason = judge(dice, calibrated=True)
    return ThrowObservation(verdict, reason, dice)


def test_a_clear_throw_is_sure_in_both_settings() -> None:
    obs = throw(die(700), die(800, 300))
    assert obs.values == (5, 5)
    assert doubts(obs, CAL, SHAPE, TOURNAMENT) == ()
    assert doubts(obs, CAL, SHAPE, CASUAL) == ()


def test_a_value_read_with_low_confidence_is_in_doubt_only_below_the_setting() -> None:
    obs = throw(die(700, confidence=0.9), die(800, 300))
    assert doubts(obs, CAL, SHAPE, TOURNAMENT) == ("low_confidence",)
    assert doubts(obs, CAL, SHAPE, CASUAL) == ()


def test_a_borderline_cocked_probability_is_in_doubt_on_either_side_of_the_call() -> None:
    flat_but_leaning = throw(die(700, cocked=0.45), die(800, 300))
    assert flat_but_leaning.verdict == "valid"
    assert doubts(flat_but_leaning, CAL, SHAPE, TOURNAMENT) == ("borderline_cocked",)
    assert doubts(flat_but_leaning, CAL, SHAPE, CASUAL) == ("borderline_cocked",)
    rather_flat = throw(die(700, cocked=0.15), die(800, 300))
    assert doubts(rather_flat, CAL, SHAPE, TOURNAMENT) == ("borderline_cocked",)
    assert doubts(rather_flat, CAL, SHAPE, CASUAL) == ()  # a friendly game asks less
    barely_cocked = throw(die(700, cocked=0.55), die(800, 300))
    assert barely_cocked.reason == "cocked"
    assert doubts(barely_cocked, CAL, SHAPE, TOURNAMENT) == ("borderline_cocked",)
    leaning_more = throw(die(700, cocked=0.7), die(800, 300))
    assert leaning_more.reason == "cocked"
    for setting in (TOURNAMENT, CASUAL):  # a good throw voided with nobody asked is a wrong call too
        assert doubts(leaning_more, CAL, SHAPE, setting) == ("borderline_cocked",)
    look_sure = throw(die(700, cocked=0.95), die(800, 300))
    for setting in (TOURNAMENT, CASUAL):  # the look alone is no evidence a referee would sign: a question
        assert doubts(look_sure, CAL, SHAPE, setting) == ("borderline_cocked",)
        assert doubts(look_sure, None, SHAPE, setting) == ("borderline_cocked",)


def test_a_die_near_the_bar_or_the_frame_is_in_doubt() -> None:
    bar_edge = 500 + 9 / 0.524  # a centre 9 mm from the middle: where a die starts to rest on the bar
    near_bar = throw(die(bar_edge + 10), die(800, 300))
    assert near_bar.verdict == "valid"
    assert doubts(near_bar, CAL, SHAPE, TOURNAMENT) == ("near_bar",)
    assert doubts(near_bar, CAL, SHAPE, CASUAL) == ()  # 5 mm off the line: casual trusts it
    frame_edge = 1000 - (22 - 6) / 0.524  # where a die starts to rest on the frame
    near_frame = throw(die(700), die(frame_edge - 3))
    assert doubts(near_frame, CAL, SHAPE, CASUAL) == ("near_frame",)
    just_across = throw(die(700), die(frame_edge + 3))
    assert just_across.reason == "off_board"
    assert doubts(just_across, CAL, SHAPE, TOURNAMENT) == ("near_frame",)  # maybe still on the surface


def test_a_die_surely_in_the_wrong_half_voids_without_a_question() -> None:
    obs = throw(die(200), die(800, 300, confidence=0.8))
    assert obs.reason == "wrong_half"
    assert doubts(obs, CAL, SHAPE, TOURNAMENT) == ()


def test_a_die_at_the_picture_edge_and_a_third_object_are_in_doubt() -> None:
    cut = Calibration.from_corners([(0, 0), (1000, 0), (1000, 800), (0, 800)])
    edge = throw(die(700, y=395), die(800, 300))
    assert doubts(edge, cut, (410, 1100, 3), TOURNAMENT) == ("near_picture_edge",)
    three = throw(die(700), die(800, 300), die(750, 500, confidence=0.75))
    assert three.reason == "dice_count"
    assert doubts(three, CAL, SHAPE, CASUAL) == ("third_object",)


def test_an_unreadable_die_is_asked_about_and_a_missing_one_thrown_again() -> None:
    """The players read an unreadable die on the tablet rather than lose a good throw; a die not seen at all
    may lie off the board, so that throw is thrown again."""
    unreadable = throw(die(700, value=None, confidence=0.4), die(800, 300))
    assert unreadable.reason == "unreadable"
    assert doubts(unreadable, CAL, SHAPE, TOURNAMENT) == doubts(unreadable, CAL, SHAPE, CASUAL) == ("low_confidence",)
    assert doubts(throw(die(700, confidence=0.9)), CAL, SHAPE) == ()
    called_cocked = throw(die(700, value=None, confidence=0.4), die(800, 300, cocked=0.95))
    assert called_cocked.reason == "cocked"
    assert doubts(called_cocked, CAL, SHAPE) == ("low_confidence", "borderline_cocked")


def test_a_die_not_seen_is_asked_about_only_when_something_unread_changed_on_the_board() -> None:
    """One die seen: the other may lie off the board (thrown again, no question) or on it, missed by the reader:
    then the throw changed the board where no die was read, and a rethrow nobody asked for would be wrong."""
    one_seen = throw(die(700))
    assert one_seen.reason == "dice_count" and doubts(one_seen, CAL, SHAPE, TOURNAMENT) == ()
    missed = replace(one_seen, unread=((600, 300, 640, 340),))
    assert doubts(missed, CAL, SHAPE, TOURNAMENT) == doubts(missed, CAL, SHAPE, CASUAL) == ("die_unseen",)
    unsure_too = replace(throw(die(700, confidence=0.9)), unread=((600, 300, 640, 340),))
    assert doubts(unsure_too, CAL, SHAPE, TOURNAMENT) == ("die_unseen", "low_confidence")
    surely_off = replace(
        throw(die(1050, 300)), unread=((600, 300, 640, 340),)
    )  # the die seen voids the throw by itself
    assert surely_off.reason == "dice_count" and doubts(surely_off, CAL, SHAPE, TOURNAMENT) == ()


def test_settings_are_checked_and_named() -> None:
    assert SETTINGS == {"tournament": TOURNAMENT, "casual": CASUAL}
    assert TOURNAMENT.min_confidence > CASUAL.min_confidence and TOURNAMENT.edge_mm > CASUAL.edge_mm
    with pytest.raises(VisionError, match="cocked band"):
        Sureness("x", 0.9, (0.6, 0.2), 4.0, 0.2)
    with pytest.raises(VisionError, match="only a judged throw"):
        doubts(ThrowObservation(None, None, ()))
    assert die_doubts(die(700, value=None), CAL) == ("low_confidence",)
