"""The command line contract of ``python -m rules`` (kept stable for outside checkers)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rules.__main__ import main, read_position
from rules.gnubg_id import encode_position_id
from rules.match_id import encode_match_id
from rules.registry import find_variant
from rules.xgid import decode_xgid

START = "4HPwATDgc/ABMA"


def run_plays(lines: list[str]) -> list[dict[str, object]]:
    completed = subprocess.run(
        [sys.executable, "-m", "rules", "plays"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return [json.loads(line) for line in completed.stdout.splitlines()]


def test_plays_answers_each_line_in_order_sorted_by_after_id() -> None:
    answers = run_plays(
        [
            json.dumps({"id": "a", "position_id": START, "dice": [3, 1]}),
            json.dumps({"id": 7, "variant": "backgammon", "position_id": START, "dice": [6, 6]}),
        ]
    )
    assert [a["id"] for a in answers] == ["a", 7]
    moves = answers[0]["moves"]
    assert isinstance(moves, list) and len(moves) == 16
    after_ids = [m["after_id"] for m in moves]
    assert after_ids == sorted(after_ids)
    assert "8/5 6/5" in {m["move"] for m in moves}
    assert len(answers[1]["moves"]) == 11  # type: ignore[arg-type]


def test_after_id_is_shown_with_the_opponent_on_roll() -> None:
    """After 24/13 with 6-5, gnubg shows the position from Black's side: Black's board first."""
    answer = run_plays([json.dumps({"id": 1, "position_id": START, "dice": [6, 5]})])[0]
    run = next(m for m in answer["moves"] if m["move"] == "24/13")  # type: ignore[union-attr]
    assert run["after_id"] == "4HPwAyDgc/ABMA"


def test_no_move_gives_an_empty_list() -> None:
    """White on the bar against Black's closed board."""
    answer = run_plays([json.dumps({"id": 1, "position_id": "27YBAAAA/n8ACA", "dice": [6, 6]})])[0]
    assert answer == {"id": 1, "moves": []}


def test_bad_lines_get_errors_and_the_run_goes_on() -> None:
    answers = run_plays(
        [
            "not json",
            json.dumps([1, 2]),
            json.dumps({"id": 1, "position_id": START, "dice": [7, 1]}),
            json.dumps({"id": 2, "position_id": "nonsense", "dice": [3, 1]}),
            json.dumps({"id": 3, "variant": "chess", "position_id": START, "dice": [3, 1]}),
            json.dumps({"id": 4, "dice": [3, 1]}),
            json.dumps({"id": 5, "position_id": START, "dice": "31"}),
            json.dumps({"id": 6, "position_id": START, "dice": [3, 1]}),
        ]
    )
    assert len(answers) == 8
    assert all("error" in a for a in answers[:7])
    assert "die" in str(answers[2]["error"])
    assert "variant" in str(answers[4]["error"])
    assert answers[7]["id"] == 6 and len(answers[7]["moves"]) == 16  # type: ignore[arg-type]


def test_numbers_too_long_and_nesting_too_deep_get_error_lines_and_the_run_goes_on() -> None:
    deep_id = "[" * 900 + "]" * 900  # deep, but within what JSON reads and writes back
    answers = run_plays(
        [
            '{"id":' + "1" * 5000 + "}",
            "[" * 100_000 + "]" * 100_000,
            '{"id": 1, "position_id": "' + START + '", "dice": [3, ' + "9" * 5000 + "]}",
            '{"id": ' + deep_id + ', "position_id": "' + START + '", "dice": [3, 1]}',
            json.dumps({"id": 6, "position_id": START, "dice": [3, 1]}),
        ]
    )
    assert len(answers) == 5
    assert "integer string conversion" in str(answers[0]["error"]) and "recursion" in str(answers[1]["error"])
    assert "error" in answers[2]
    assert isinstance(answers[3]["id"], list) and len(answers[3]["moves"]) == 16  # type: ignore[arg-type]
    assert answers[4]["id"] == 6 and len(answers[4]["moves"]) == 16  # type: ignore[arg-type]


def test_plays_accepts_the_json_position_form() -> None:
    position = {
        "turn": "white",
        "white": {"points": [0] * 5 + [5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2], "bar": 0},
        "black": {"points": [0] * 5 + [5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2], "bar": 0},
    }
    answer = run_plays([json.dumps({"id": 1, "position": position, "dice": [3, 1]})])[0]
    assert len(answer["moves"]) == 16  # type: ignore[arg-type]


def test_human_commands(capsys: object) -> None:
    assert main(["list", START, "3", "1"]) == 0
    assert main(["judge", START, "3", "1", START]) == 1
    assert main(["show", START]) == 0
    assert main(["show", "bad"]) == 2
    assert main(["demo", "--seed", "3"]) == 0


def test_plays_for_uzun_tavla_in_the_json_form() -> None:
    start = {
        "turn": "black",
        "white": {"points": [0] * 23 + [15]},
        "black": {"points": [0] * 23 + [15]},
    }
    answer = run_plays([json.dumps({"id": "u", "variant": "uzun tavla", "position": start, "dice": [3, 3]})])[0]
    moves = answer["moves"]
    assert isinstance(moves, list)
    assert sorted(m["move"] for m in moves) == ["12/3 12/9", "12/6 12/6"]  # White's numbering
    assert all(m["after"]["turn"] == "white" for m in moves)
    refused = run_plays([json.dumps({"id": 2, "variant": "uzun", "position_id": START, "dice": [3, 1]})])[0]
    assert "JSON" in str(refused["error"])


def test_human_commands_take_any_variant_and_the_json_form(capsys: pytest.CaptureFixture[str]) -> None:
    uzun_start = json.dumps({"white": {"points": [0] * 23 + [15]}, "black": {"points": [0] * 23 + [15]}})
    assert main(["list", uzun_start, "3", "3", "--variant", "uzun"]) == 0
    listed = capsys.readouterr().out
    assert "24/18 24/18" in listed and "24/15 24/21" in listed and "2 distinct result(s)" in listed
    assert main(["list", START, "6", "5", "--variant", "turkish"]) == 0
    assert main(["show", "{not json", "--variant", "uzun"]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["show", START, "--variant", "uzun"]) == 2
    assert "JSON form" in capsys.readouterr().err
    after = json.dumps({"white": {"points": [0] * 17 + [2] + [0] * 5 + [13]}, "black": {"points": [0] * 23 + [15]}})
    assert main(["judge", uzun_start, "6", "6", after, "--variant", "uzun"]) == 0
    assert "legal: 24/18 24/18" in capsys.readouterr().out


OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"  # Black (bottom) on roll with 5-2


def test_list_takes_an_xgid_and_uses_its_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", OPENING_XGID]) == 0
    listed = capsys.readouterr().out
    assert "to move: black" in listed and "5-2: 8 distinct" in listed and "13/11 13/8" in listed


def test_gnubg_position_and_match_id_pair_reads_as_the_xgid_does(capsys: pytest.CaptureFixture[str]) -> None:
    """The pair gnubg prints, built by the gnubg-checked encoders, names the same position and roll."""
    position, info = decode_xgid(OPENING_XGID)
    pair = f"{encode_position_id(position)}:{encode_match_id(info)}"
    given = read_position(pair, find_variant("backgammon"))
    assert given.position == position and given.dice == (5, 2)
    assert main(["list", pair]) == 0
    assert capsys.readouterr().out == (main(["list", OPENING_XGID]), capsys.readouterr().out)[1]


def test_judge_takes_the_play_in_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", START, "3", "1", "8/5 6/5"]) == 0
    assert "legal: 8/5 6/5" in capsys.readouterr().out
    assert main(["judge", START, "3", "1", "24/18"]) == 1  # a 6 is not part of 3-1
    assert capsys.readouterr().out.startswith("illegal:")
    assert main(["judge", START, "3", "1", "neither"]) == 2


def test_a_position_form_without_dice_asks_for_the_roll(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", START]) == 2
    assert "give the roll" in capsys.readouterr().err


def test_plays_takes_an_xgid() -> None:
    answer = run_plays([json.dumps({"id": 1, "xgid": OPENING_XGID, "dice": [3, 1]})])[0]
    assert len(answer["moves"]) == 16  # type: ignore[arg-type]


def test_piping_into_head_ends_quietly() -> None:
    """``tavla demo | head -1``: the reader leaves early; no BrokenPipeError traceback."""
    shell = f"{sys.executable} -m rules demo --seed 3 | head -n 1"
    completed = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True, timeout=60)
    assert completed.stdout.count("\n") == 1
    assert "Traceback" not in completed.stderr and "BrokenPipe" not in completed.stderr
