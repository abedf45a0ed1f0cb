"""The learning step in a real window (Xvfb), driven by taps with the dice reader and the simulated camera:
reached from the set-up screen, each throw's dice shown large and confirmed, corrected or struck out, the dice
set kept and chosen for the match, and an unsure throw of the match rethrown with a die marked cocked;
screenshots in Turkish and English.

The driver (tests/app/learn_ui_driver.py) runs the real app in its own process; ``TAVLA_UI_SHOTS`` keeps the
screenshots (in its ``learn`` folder).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.record.library import DiceSets
from tests.app.test_ui import display, drive
from vision.adapt import DiceProfile
from vision.crop_reader import CLASS_COCKED, CLASS_NOT_DIE

__all__ = ["display"]  # the Xvfb fixture, shared with the other window tests

NAME = "kulüp kırmızı"


@pytest.fixture(scope="module")
def ran(display: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], Path]:
    shots = os.environ.get("TAVLA_UI_SHOTS")
    out = Path(shots) / "learn" if shots else tmp_path_factory.mktemp("ui-learn")
    return drive(display, out, driver="tests.app.learn_ui_driver")


def test_the_learning_step_is_reached_from_the_set_up_screen_and_needs_a_name(
    ran: tuple[dict[str, object], Path],
) -> None:
    result, _ = ran
    assert result["current"] == "learn"
    assert result["unnamed"] == "Önce zar takımına bir ad verin."
    assert result["waiting"] == ["Durmuş bir atış bekleniyor..."]  # before the first throw settles


def test_each_throw_shows_its_dice_large_with_a_row_of_answers(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    for name in ("first_tr", "first_en"):
        throw = result[name]
        assert isinstance(throw, dict)
        assert throw["pictures"] >= 2 and throw["rows"] == throw["pictures"]  # one row of answers per die found
        assert all(height >= 200 for height in throw["picture_heights"])  # large: pips countable from the chair
    struck = result["struck_tr"]
    assert isinstance(struck, dict) and struck["picked"][-1] is None  # the last thing found: not a die


def test_the_confirmed_throws_are_learned_kept_and_used_by_the_match(ran: tuple[dict[str, object], Path]) -> None:
    result, out = ran
    learned = result["learned"]
    assert isinstance(learned, dict) and learned["throws"] == 3
    saved = DiceProfile.load(DiceSets(out).path(NAME))
    cocked = result["learned_cocked"]  # the match's rethrow afterwards taught one more
    assert isinstance(cocked, int) and saved.examples == learned["examples"] + cocked
    assert learned["dice"] < learned["examples"]  # the thing struck out is learned, and not counted as a die
    assert list(saved.labels).count(CLASS_NOT_DIE) >= 1
    assert str(result["status_en"]).startswith(f"{NAME}: 3/10 throws learned")
    assert result["dice_set_shown"] == NAME  # the set-up screen lists the set and has it chosen
    assert result["match_dice_set"] == NAME and result["keeps_learning"] is True


def test_the_throws_confirmed_by_taps_are_kept_as_photos_labelled_by_the_players(
    ran: tuple[dict[str, object], Path],
) -> None:
    _, out = ran
    folder = out / "throws_simulated"  # the simulated camera's: apart from a real camera's throws
    practice = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("practice_*.json"))]
    assert len(practice) == 3 and len(list(folder.glob("practice_*.txt"))) == 3
    assert all(r["practice"] == NAME and r["label"]["by"] == "people" for r in practice)
    assert any(d["is"] is None for r in practice for d in r["label"]["dice"])  # the thing struck out: no die
    match = [json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*.json") if "practice" not in p.name]
    rethrown = [r for r in match if r["label"] is not None and r["label"]["by"] == "people"]
    assert rethrown and any(d["is"] == "cocked" for r in rethrown for d in r["label"]["dice"])  # marked on screen


def test_every_learning_screen_is_shot_in_both_languages(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    screens = result["screens"]
    assert isinstance(screens, dict)
    for name in ("l1-setup-tr", "l2-learn-tr", "l3-throw-tr", "l4-struck-tr", "l5-throw-en", "l6-setup-en"):
        data = Path(screens[name]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(data[16:20], "big") == 1280


def test_a_rethrow_with_a_die_marked_cocked_is_journaled_and_teaches_that_die(
    ran: tuple[dict[str, object], Path],
) -> None:
    result, out = ran
    assert result["asked"], "the simulated match raised no question to answer"
    assert result["question_marks"] == ["Not a die", "cocked"]  # under each die's picture
    rethrows = result["rethrows"]
    assert isinstance(rethrows, list) and rethrows
    assert all(data["cocked"] == [0] and data["struck"] == [] for data in rethrows)
    assert result["learned_cocked"] == 1
    saved = DiceProfile.load(DiceSets(out).path(NAME))
    assert int(saved.labels[-1]) == CLASS_COCKED
