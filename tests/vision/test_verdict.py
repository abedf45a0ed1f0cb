"""The verdict on a throw (docs/rules.md section 5) and its JSON form."""

from __future__ import annotations

import json

from vision.verdict import REASONS, DieReading, ThrowObservation, judge, judged_for


def die(value: int | None = 3, cocked: bool = False, zone: str | None = "right_half") -> DieReading:
    return DieReading(value, (10, 10, 40, 40), cocked, 0.99, zone)  # type: ignore[arg-type]


def test_two_flat_readable_dice_in_the_right_half_are_valid() -> None:
    assert judge((die(6), die(1)), calibrated=True) == ("valid", None)


def test_reasons_in_order_of_precedence() -> None:
    assert judge((die(),), True) == ("void", "dice_count")
    assert judge((die(), die(), die()), True) == ("void", "dice_count")
    assert judge((die(cocked=True), die(zone="off_board")), True) == ("void", "cocked")
    assert judge((die(zone="off_board"), die(zone="wrong_half")), True) == ("void", "off_board")
    assert judge((die(zone="wrong_half"), die(None)), True) == ("void", "wrong_half")
    assert judge((die(None), die()), True) == ("void", "unreadable")


def test_the_opening_throw_is_one_die_in_each_half_with_the_same_order_of_reasons() -> None:
    assert judge((die(5), die(2, zone="wrong_half")), True, opening=True) == ("valid", None)
    assert judge((die(5), die(2)), True, opening=True) == ("void", "wrong_half")
    assert judge((die(5, cocked=True), die(2)), True, opening=True) == ("void", "cocked")
    assert judge((die(None), die(2, zone="off_board")), True, opening=True) == ("void", "off_board")
    assert judge((die(None), die(2, zone="wrong_half")), True, opening=True) == ("void", "unreadable")


def test_each_reason_is_given_when_it_is_the_only_one() -> None:
    only = {
        "dice_count": (die(),),
        "cocked": (die(), die(cocked=True)),
        "off_board": (die(), die(zone="off_board")),
        "wrong_half": (die(), die(zone="wrong_half")),
        "unreadable": (die(), die(None)),
    }
    assert [judge(only[reason], True)[1] for reason in REASONS] == list(REASONS)


def test_the_top_player_sees_the_halves_swapped() -> None:
    dice = (die(6, zone="wrong_half"), die(1, zone="wrong_half"))  # the picture's left, as the bottom player sees it
    assert judged_for(dice, "bottom", calibrated=True).reason == "wrong_half"
    top = judged_for(dice, "top", calibrated=True)
    assert (top.verdict, top.values, top.thrower) == ("valid", (6, 1), "top")
    assert [d.zone for d in top.dice] == ["right_half", "right_half"]
    assert judged_for((die(zone="off_board"), die()), "top", calibrated=True).reason == "off_board"


def test_without_calibration_there_are_no_zone_rulings() -> None:
    assert judge((die(zone=None), die(zone=None)), calibrated=False) == ("valid", None)


def test_observation_json_follows_the_cli_contract() -> None:
    obs = ThrowObservation("valid", None, (die(5), die(2)), source="a.jpg")
    assert obs.values == (5, 2)
    out = json.loads(json.dumps(obs.to_json()))
    assert out == {
        "image": "a.jpg",
        "verdict": "valid",
        "reason": None,
        "dice": [
            {"value": 5, "box": [10, 10, 40, 40], "cocked": False, "confidence": 0.99},
            {"value": 2, "box": [10, 10, 40, 40], "cocked": False, "confidence": 0.99},
        ],
    }


def test_a_void_throw_has_no_values() -> None:
    assert ThrowObservation("void", "cocked", (die(), die(cocked=True))).values is None
