"""The Kivy app in a real window (Xvfb): tap through set-up, play turns, director, history; screenshots.

The driver (tests/app/ui_driver.py) runs the real app in its own process and taps real touch events on
the buttons. Skipped only when no X server can be started (``.ci/setup --test`` installs Xvfb).
The screenshots are left in the test's temporary folder (``TAVLA_UI_SHOTS`` keeps them elsewhere).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from app.record.session import Session
from rules.position import Color

ROOT = Path(__file__).resolve().parents[2]


def xvfb(size: str, numbers: range) -> tuple[subprocess.Popen[bytes], str]:
    """A private Xvfb display of ``size`` on the first free number of ``numbers``: the server and its name."""
    server_path = shutil.which("Xvfb")
    if server_path is None:
        pytest.skip("no display server: Xvfb is not installed (.ci/setup --test installs it)")
    for number in numbers:
        if Path(f"/tmp/.X{number}-lock").exists():
            continue
        server = subprocess.Popen(
            [server_path, f":{number}", "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(50):
            if Path(f"/tmp/.X11-unix/X{number}").exists() or server.poll() is not None:
                break
            time.sleep(0.1)
        if server.poll() is None:
            return server, f":{number}"
    pytest.skip(f"no display server: Xvfb would not start on any display :{numbers.start}-:{numbers.stop - 1}")


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private Xvfb display, 1280x800."""
    server, name = xvfb("1280x800", range(140, 160))
    try:
        yield name
    finally:
        server.terminate()
        server.wait(timeout=10)


def drive(
    display: str, out: Path, *options: str, driver: str = "tests.app.ui_driver"
) -> tuple[dict[str, object], Path]:
    out.mkdir(parents=True, exist_ok=True)
    env = dict(
        os.environ,
        DISPLAY=display,
        KIVY_WINDOW="sdl2",
        KIVY_LOG_MODE="PYTHON",
        KIVY_NO_ARGS="1",
        KIVY_HOME=str(out / "kivy-home"),
    )
    completed = subprocess.run(
        [sys.executable, "-m", driver, str(out), *options],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    result_file = out / "result.json"
    assert result_file.exists(), completed.stderr[-4000:]
    result = json.loads(result_file.read_text(encoding="utf-8"))
    assert "error" not in result, result["error"] + "\n" + completed.stderr[-3000:]
    assert result.get("done"), completed.stderr[-3000:]
    return result, out


@pytest.fixture(scope="module")
def ran(display: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], Path]:
    return drive(display, Path(os.environ.get("TAVLA_UI_SHOTS") or tmp_path_factory.mktemp("ui")))


@pytest.fixture(scope="module")
def ran_chouette(display: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], Path]:
    shots = os.environ.get("TAVLA_UI_SHOTS")
    return drive(display, Path(shots) / "chouette" if shots else tmp_path_factory.mktemp("ui-chouette"), "--chouette")


def test_every_screen_is_shown_at_tablet_size(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    screens = result["screens"]
    assert isinstance(screens, dict) and set(screens) == {
        "setup",
        "setup_en",
        "play",
        "question",
        "director",
        "history",
        "play_en",
    }
    for path in screens.values():
        data = Path(path).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert (width, height) == (1280, 800)


def test_switching_the_language_on_the_set_up_screen_keeps_the_form(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    kept = result["after_language_switch"]
    assert kept == {
        "white": "Ayşe Nur",
        "pin_kept": True,
        "variant": "Backgammon (tavla)",
        "calibration": "4/4 corners",
        "marks": 4,
    }


def test_taps_start_the_match_and_play_turns_judged_by_the_referee(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    assert result["current_after_start"] == "play"
    banners = result["banners"]
    assert isinstance(banners, list) and any("oynadı" in b for b in banners)  # plays accepted, in Turkish
    assert isinstance(result["plays"], int) and result["plays"] >= 4
    assert isinstance(result["journal_entries"], int) and result["journal_entries"] > 20


def test_a_double_tap_on_the_cube_never_takes_and_take_needs_a_deliberate_second_tap(
    ran: tuple[dict[str, object], Path],
) -> None:
    result, _ = ran
    assert result["after_double_tap"] == "DOUBLE"  # offered, not taken by the second touch
    assert result["take_slot_was_free"] is True  # "Kabul" is not where "Küp çevir" was
    stage, text = result["after_one_tap_on_take"]  # type: ignore[misc]
    assert stage == "DOUBLE" and str(text).startswith("Emin misiniz?")
    assert result["after_second_tap_on_take"] != "DOUBLE"


def test_the_camera_is_calibrated_by_tapping_the_board_corners(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    tapped, truth = result["calibration"], result["true_corners"]
    assert isinstance(tapped, list) and isinstance(truth, list) and len(tapped) == 4
    for (x, y), (tx, ty) in zip(tapped, truth):
        assert abs(x - tx) < 6 and abs(y - ty) < 6  # a tap lands within a few pixels of the corner aimed at
    assert str(result["calibration_text"]).startswith("4/4")


def test_the_play_screen_shows_the_dice_as_the_camera_read_them(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    assert isinstance(result["shots"], int) and result["shots"] >= 3  # throws went through the dice reader
    assert str(result["dice_text"]).startswith("Kamera: ")


def test_an_unsure_throw_is_asked_on_the_play_screen_and_confirmed_with_a_tap(
    ran: tuple[dict[str, object], Path],
) -> None:
    result, _ = ran
    assert "Kamera bu atıştan emin değil" in str(result["question_banner"])
    assert isinstance(result["confirmed"], int) and result["confirmed"] >= 1


def test_the_director_screen_needs_the_pin(ran: tuple[dict[str, object], Path]) -> None:
    result, _ = ran
    assert result["halted_banner"].startswith("Hakem çağrıldı")  # type: ignore[union-attr]
    assert result["wrong_pin"] == "Hakem PIN'i yanlış: hiçbir şey değişmedi."
    assert result["right_pin"] == "Hakem oyunu sürdürüyor."


def test_export_and_language_switch(ran: tuple[dict[str, object], Path]) -> None:
    result, out = ran
    assert "match.mat" in str(result["export_status"]) and (out / "export" / "match.sheet.html").exists()
    assert " played " in str(result["english_banner"])


def test_a_chouette_is_chosen_on_set_up_and_its_cubes_are_tapped_on_the_members_cards(
    ran_chouette: tuple[dict[str, object], Path],
) -> None:
    result, _ = ran_chouette
    screens = result["screens"]
    assert isinstance(screens, dict) and set(screens) == {"setup_chouette", "play_chouette", "play_chouette_after"}
    assert str(result["box_doubled"]).startswith("Kutu (Ayşe) Mehmet oyuncusuna küpü çeviriyor")
    assert result["tapped_double"] == "Kutu (Ayşe) Deniz oyuncusuna küpü çeviriyor: 2."
    rulings = result["rulings"]
    assert isinstance(rulings, list)
    assert "Mehmet oyun dışı: takımın pullarını artık Deniz oynar." in rulings  # the captain dropped
    assert "Deniz kabul etti: Deniz oyuncusunun küpü 2." in rulings
    assert result["captain"] == "Deniz" and "Kaptan: Deniz" in str(result["score_text"])
    assert result["clock_names"] == ["Ayşe", "Deniz"]  # the clock runs for the box against the team
    assert isinstance(result["plays"], int) and result["plays"] >= 2


def test_the_running_clock_ticks_on_screen_with_the_simulated_table(
    ran_chouette: tuple[dict[str, object], Path],
) -> None:
    """``--sim`` runs the clock simulator in real time: the side on turn sees its delay and reserve count down."""
    result, _ = ran_chouette
    assert result["clock_running"] is True
    before, after = result["clock_texts"]  # type: ignore[misc]
    assert before != after


def test_a_match_closed_with_the_window_is_resumed_from_the_set_up_screen(display: str, tmp_path: Path) -> None:
    """The match is in the data folder, not a temp folder: after the window closed, one tap goes on with it."""
    folder = tmp_path / "data" / "matches" / "2026-12-01_10-00-00"
    folder.mkdir(parents=True)
    demo = subprocess.run(
        [sys.executable, "-m", "app", "demo", "--length", "1", "--quiet", "--journal", str(folder / "match.sqlite")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert demo.returncode == 0, demo.stderr
    result, _ = drive(display, tmp_path / "shots", "--resume", str(tmp_path / "data"))
    assert result["current_after_resume"] == "result"  # the demo's match was over: its result sheet, to confirm
    assert isinstance(result["resumed_events"], int) and result["resumed_events"] > 20
    assert result["players"] == ["Ayşe", "Mehmet"]


def test_every_screen_in_both_languages_and_the_result_confirmed_by_both_players_with_taps(
    display: str, tmp_path: Path
) -> None:
    """tests/app/screenshots.py plays a 3-point match by taps to its result sheet, where each player confirms
    with a deliberate double tap; the journal holds both confirmations and every screen was shot in tr and en."""
    out = tmp_path / "shots"
    env = dict(os.environ, DISPLAY=display, KIVY_WINDOW="sdl2", KIVY_LOG_MODE="PYTHON", KIVY_NO_ARGS="1")
    env["KIVY_HOME"] = str(tmp_path / "kivy-home")
    done = subprocess.run(
        [sys.executable, "-m", "tests.app.screenshots", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    shots = json.loads((out / "shots.json").read_text(encoding="utf-8"))
    screens = ("1-setup", "2-play", "3-question", "4-director", "5-play-casual", "6-history", "7-result")
    for language in ("tr", "en"):
        for screen in (*screens, "8-result-confirmed"):
            data = Path(shots[f"{language}-{screen}"]).read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (1280, 800)
    session = Session.open(out / "match.sqlite")
    try:
        assert session.referee.match.over and session.referee.confirmed == (Color.WHITE, Color.BLACK)
        kinds = [e.payload["event"]["kind"] for e in session.journal.entries() if "event" in e.payload]
        assert kinds.count("result_confirmed") == 2
    finally:
        session.close()


@pytest.mark.parametrize("size", ["1280x800", "800x480"])
def test_the_directors_match_arrives_both_players_confirm_and_it_starts_as_assigned(size: str, tmp_path: Path) -> None:
    """tests/app/assigned_ui_driver.py: the match the director's message brings shows on its own panel (Turkish
    and English); one player's tap starts nothing, the second starts it with the players and length assigned;
    a later assignment waits beside the match being played, and once both players confirmed its result sheet
    (which says the result waits for the link) it is offered from there."""
    server, display = xvfb(size, range(200, 220))
    try:
        result, out = drive(display, tmp_path / "shots", "--size", size, driver="tests.app.assigned_ui_driver")
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert result["current_after_message"] == "assigned"
    texts = result["texts"]
    assert isinstance(texts, dict)
    turkish, english = " ".join(texts["assigned-tr"]), " ".join(texts["assigned-en"])
    for words in (turkish, english):
        assert "Kadıköy Tavla Kulübü Kupası" in words and "R2" in words and "7" in words
    assert "Ben Ayşe Nur Yılmaz" in turkish and "Ben Mehmet Öztürk" in turkish and "5 sayı" in turkish
    assert "Sayı başına 2 dk (oyuncu başına 10 dk) + 12 sn gecikme" in turkish and "Tavla" in turkish
    assert "I am Mehmet Öztürk" in english and "5 points" in english
    assert "2 min a point (10 min each) + 12 s delay" in english
    assert result["after_one"] == {"current": "assigned", "session": False}
    assert result["current_after_both"] == "play"
    assert result["setup"] == {
        "players": ["Ayşe Nur Yılmaz", "Mehmet Öztürk"],
        "length": 5,
        "reserve_s": 600,
        "delay_s": 12,
        "event": "Kadıköy Tavla Kulübü Kupası",
        "round": "R2",
        "table": "7",
    }
    header = str(result["header"])
    assert "Ayşe Nur Yılmaz" in header and "Mehmet Öztürk" in header and "5 sayılık maç" in header
    later = result["after_later"]
    assert isinstance(later, dict) and later["players"] == ["Ayşe Nur Yılmaz", "Mehmet Öztürk"]
    assert later["waiting"] == "main-3-1" and "Sıradaki maç: Ayşe Nur Yılmaz - Deniz Kaya (R3)" in later["info"]
    status = str(result["result_status"])  # no broker answers this table: the result waits for the link
    assert "İki oyuncu da onayladı" in status and "turnuva bağlantısı gelince gönderilir" in status
    assert "Sıradaki maç: Ayşe Nur Yılmaz - Deniz Kaya, R3." in status
    assert result["after_next"] == {"current": "assigned", "offered": "main-3-1"}
    width, height = (int(n) for n in size.split("x"))
    for path in result["screens"].values():  # type: ignore[union-attr]
        data = Path(path).read_bytes()
        assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (width, height)
