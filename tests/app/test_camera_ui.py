"""The camera screens in a real window (Xvfb), driven by taps: the set-up check on a good and a bad picture, the
play screen's picture enlarged and live, the unsure throw's dice large, the director's new calibration behind
the PIN (journaled, replayed exactly) and the fairness picture; screenshots in Turkish and English.

The driver (tests/app/camera_ui_driver.py) runs the real app in its own process; ``TAVLA_UI_SHOTS`` keeps the
screenshots (in its ``camera`` folder).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.record.session import Session
from tests.app.test_ui import display, drive

__all__ = ["display"]  # the Xvfb fixture, shared with the other window tests


@pytest.fixture(scope="module")
def ran(display: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], Path]:
    shots = os.environ.get("TAVLA_UI_SHOTS")
    out = Path(shots) / "camera" if shots else tmp_path_factory.mktemp("ui-camera")
    return drive(display, out, driver="tests.app.camera_ui_driver")


def test_the_set_up_check_says_good_or_what_to_change_in_both_languages(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    good_tr, bad_tr = result["c1-check-good-tr"], result["c1-check-bad-tr"]
    good_en, bad_en = result["c1-check-good-en"], result["c1-check-bad-en"]
    assert isinstance(good_tr, dict) and isinstance(bad_tr, dict) and isinstance(good_en, dict)
    assert isinstance(bad_en, dict)
    assert good_tr["verdict"] == "Kamera kurulumu: İYİ" and good_tr["button"] == "Kamerayı denetle: iyi"
    assert "->" not in good_tr["details"]  # nothing to change
    assert bad_tr["verdict"] == "Kamera kurulumu: YETERSİZ" and bad_tr["button"] == "Kamerayı denetle: yetersiz"
    assert "Netlik: yetersiz" in bad_tr["details"] and "odağı kilitleyin" in bad_tr["details"]
    assert "Pozlama: yetersiz" in bad_tr["details"] and "ışık ekleyin" in bad_tr["details"]
    assert bad_en["verdict"] == "Camera set-up: NOT GOOD ENOUGH"
    assert "lock the focus" in bad_en["details"] and "add light over the board" in bad_en["details"]
    assert good_en["verdict"] == "Camera set-up: GOOD" and "Die size: good (about" in good_en["details"]


def test_the_play_screen_shows_the_settled_picture_and_a_tap_enlarges_it(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    assert result["small_texture"] == [1280, 720]  # the whole settled frame, drawn on
    assert result["large_open"] is True and result["large_texture"] == [1280, 720]
    caption = str(result["large_caption"])
    # the call under the picture says what the referee made of it: sure, or asked of the players
    said = "(emin değil: oyuncular onaylar)" if result["large_asked"] else "(kesin)"
    assert caption.startswith("Kamera: ") and said in caption, (caption, result["large_asked"])
    assert result["live_caption"] == "Canlı kamera" and result["large_closed"] is True
    assert str(result["large_caption_en"]).startswith("Camera: ")


def test_an_unsure_throw_shows_each_die_large_and_is_corrected_by_taps(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    for language in ("tr", "en"):
        asked = result[f"question_{language}"]
        assert isinstance(asked, dict), f"no unsure throw came up ({language})"
        assert asked["panel_shown"] is True and len(asked["pictures"]) == 2
        assert all(height >= 200 for height in asked["picture_heights"])  # large: pips countable from the chair
        assert asked["dice_after"] == [6, 2] and asked["board_back"] is True


def test_a_die_the_camera_missed_is_shown_where_the_board_changed_and_the_players_give_both_dice(
    ran: tuple[dict[str, object], Path],
) -> None:
    """One die read, and the board changed where none was: the question shows the die read and that place, so
    the players look there; their two dice count."""
    result, _ = ran
    for language in ("tr", "en"):
        asked = result[f"unseen_{language}"]
        assert isinstance(asked, dict), f"no throw with a missed die came up ({language})"
        assert asked["doubts"] == ["die_unseen"]
        assert asked["pictures"] == 2 and asked["unread_captions"] == 1  # the die read, and where none was
        assert all(height >= 200 for height in asked["picture_heights"])
        assert sorted(asked["dice_after"], reverse=True) == asked["dice_thrown"]


def test_a_die_called_cocked_with_nothing_to_lean_on_is_asked_about_and_the_players_dice_count(
    ran: tuple[dict[str, object], Path],
) -> None:
    """A flat die the camera calls cocked where the position puts no checker near it, and neither the other die
    nor the frame nor the bar: not a rethrow unasked but a question that says why; the players' dice count."""
    result, _ = ran
    for language in ("tr", "en"):
        asked = result[f"open_{language}"]
        assert isinstance(asked, dict), f"no throw with a die in the open came up ({language})"
        assert asked["doubts"] == ["leans_on_nothing"] and asked["void"] == "cocked" and asked["says_why"] is True
        assert sorted(asked["dice_after"], reverse=True) == asked["dice_thrown"]


def test_a_die_marked_cocked_leaves_only_the_rethrow_and_says_why(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    hints = {
        "tr": "Kırık işaretli zar atışı bozar: yeniden atış isteyin ya da işareti kaldırın.",
        "en": "A die marked cocked voids the throw: call a rethrow, or clear the mark.",
    }
    for language, hint in hints.items():
        asked = result[f"question_{language}"]
        assert isinstance(asked, dict), f"no unsure throw came up ({language})"
        marked, cleared = asked["marked"], asked["cleared"]
        assert marked["confirm_disabled"] is True and marked["correct_disabled"] is True
        assert marked["hint"] == hint
        assert marked["answers_after_confirm_tap"] == 0  # the tap on the greyed Confirm recorded nothing
        assert cleared == {"confirm_disabled": False, "hint_shown": False}


def test_the_director_calibrates_again_behind_the_pin_and_the_journal_replays_it(
    ran: tuple[dict[str, object], Path],
) -> None:
    result, _ = ran
    assert result["wrong_pin"] == "Hakem PIN'i yanlış: hiçbir şey değişmedi." and result["still_open"] is True
    assert str(result["recalibrated_tr"]).startswith("Hakem kamerayı yeniden ayarladı (köşelere dokunularak)")
    assert str(result["recalibrated_en"]).endswith("The match goes on.")
    assert result["closed_tr"] is True and result["closed_en"] is True
    corners, set_up = result["calibration"], result["set_up_corners"]
    assert isinstance(corners, list) and isinstance(set_up, list)
    for (x, y), (x0, y0) in zip(corners, set_up):  # the taps, 6 px right and 4 px up of the set-up's corners
        assert abs(x - x0 - 6) < 1.5 and abs(y - y0 + 4) < 1.5
    assert result["camera_corners"] == corners  # the camera reads the next throws on the new board
    session = Session.open(str(result["journal"]))
    try:
        assert session.resumed is not None and session.resumed.mismatches == ()
        assert [list(c) for c in session.referee.calibration or ()] == corners
        assert not session.referee.match.over  # the match went on
    finally:
        session.close()


def test_the_fairness_picture_is_on_the_director_screen_and_beside_the_exports(
    ran: tuple[dict[str, object], Path],
) -> None:
    result, out = ran
    assert result["fairness_tr"] == [720, 300] and result["fairness_en"] == [720, 300]
    assert "fairness.png" in result["exported"]  # type: ignore[operator]
    assert (out / "export" / "fairness.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Zar yüzleri" in (out / "export" / "match.sheet.txt").read_text(encoding="utf-8")


def test_every_camera_screen_is_shot_in_both_languages(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    screens = result["screens"]
    assert isinstance(screens, dict)
    for name in (
        "c1-setup",
        "c2-play",
        "c3-large",
        "c4-question",
        "c5-director",
        "c6-recalibrate",
        "c7-unseen",
        "c8-open",
    ):
        for language in ("tr", "en"):
            data = Path(screens[f"{name}-{language}"]).read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(data[16:20], "big") == 1280
