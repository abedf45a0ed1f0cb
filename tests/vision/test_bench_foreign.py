"""The foreign bench's reading of the project's Blender set: a scene's truth as the foreign labels give it, and the
table that prints the worlds side by side (no Blender needed: the scenes are written here)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.vision.bench_foreign import (
    SETTING_NAMES,
    _scored,
    blender_label,
    blender_scenes,
    blender_throws,
    table,
    truth_of,
)


def scene(kind: str = "valid", values: tuple[int, int] = (5, 2), **change: object) -> dict[str, Any]:
    """A Blender scene's truth as ``blender_scene.render_scene`` writes it (the keys the bench reads)."""
    meta: dict[str, Any] = {
        "kind": kind,
        "thrower": "top",
        "values": list(values),
        "dice": [
            {"value": values[0], "box": [500, 300, 530, 330], "cocked": kind == "cocked", "zone": "right_half"},
            {"value": values[1], "box": [400, 200, 430, 232], "cocked": False, "zone": "right_half"},
        ],
        "corners": [[300, 60], [980, 80], [970, 670], [270, 650]],
        "playing_corners": [[320, 90], [955, 110], [945, 640], [295, 625]],
        "checkers_px": [[340.5, 110.0], [880.0, 130.2]],
        "board_mm": {"field_w": 498.5, "field_h": 418.1, "bar_w": 32.9, "frame_w": 17.0},
        "die_mm": 15.74,
    }
    meta.update(change)
    return meta


def write(folder: Path, name: str, meta: dict[str, Any], frames: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if frames:
        for suffix in (".png", "_empty.png"):
            (folder / f"{name}{suffix}").write_bytes(b"png")
    path = folder / f"{name}.json"
    path.write_text(json.dumps(meta))
    return path


def test_a_valid_scene_counts_its_dice_and_is_read_on_its_own_frames_and_measures(tmp_path: Path) -> None:
    label = blender_label(write(tmp_path, "valid_007", scene()))
    assert truth_of(label) == [2, 5]
    assert (label["image"], label["before"], label["thrower"]) == ("valid_007.png", "valid_007_empty.png", "top")
    assert label["board_mm"] == {"field_w": 498.5, "field_h": 418.1, "bar_w": 32.9}
    assert label["style"]["die_mm"] == 15.74
    assert label["field_corners_px"][0] == [320, 90] and label["board_corners_px"][2] == [970, 670]
    assert [d["centre_px"] for d in label["dice"]] == [[515.0, 315.0], [415.0, 216.0]]


@pytest.mark.parametrize("kind", ["cocked", "wrong_half", "off_board"])
def test_any_other_kind_is_a_void_throw(tmp_path: Path, kind: str) -> None:
    label = blender_label(write(tmp_path, f"{kind}_000", scene(kind)))
    assert truth_of(label) is None and label["case"] == kind
    assert [d["cocked"] for d in label["dice"]] == [kind == "cocked", False]


def test_a_scene_without_the_boards_measures_is_named(tmp_path: Path) -> None:
    meta = scene()
    del meta["board_mm"]
    with pytest.raises(SystemExit, match="old_000.json: not a Blender scene with its board's measures"):
        blender_label(write(tmp_path, "old_000", meta))


def test_only_complete_scenes_are_read_and_a_missing_set_is_explained(tmp_path: Path) -> None:
    write(tmp_path, "valid_000", scene())
    write(tmp_path, "cocked_000", scene("cocked"), frames=False)  # still rendering
    write(tmp_path, "wrong_half_000", scene("wrong_half"))
    assert blender_scenes(tmp_path) == ["valid_000", "wrong_half_000"]
    assert [label["image"] for _, _, label in blender_throws(tmp_path)] == ["valid_000.png", "wrong_half_000.png"]
    # both readers read the scenes taken at the run's start, though more finish meanwhile
    assert [label["case"] for _, _, label in blender_throws(tmp_path, ["wrong_half_000"])] == ["wrong_half"]
    assert blender_throws(None) == []
    with pytest.raises(SystemExit, match="no Blender set at"):
        blender_throws(tmp_path / "nowhere")


def test_the_table_prints_each_world_before_and_after_per_kind(capsys: pytest.CaptureFixture[str]) -> None:
    def row(which: str, name: str, case: str, tournament: str, casual: str) -> dict[str, Any]:
        return {"set": which, "name": name, "case": case, "calls": {"tournament": tournament, "casual": casual}}

    before = [row("own", "0", "valid", "wrong", "right"), row("blender", "a", "cocked", "asked", "wrong")]
    before += [row("blender", "b", "valid", "right", "right")]
    after = [row("own", "0", "valid", "right", "right"), row("blender", "a", "cocked", "asked", "asked")]
    after += [row("blender", "b", "valid", "wrong", "right")]
    table(before, after)
    cells = {
        " ".join(line.split()[:2]): [(float(w), float(a)) for w, a in re.findall(r"([\d.]+)/\s*([\d.]+)", line)]
        for line in capsys.readouterr().out.splitlines()[2:]
    }
    # wrong %, asked %: tournament before, after, casual before, after
    assert cells["own valid"] == [(100.0, 0.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)]
    assert cells["blender cocked"] == [(0.0, 100.0), (0.0, 100.0), (100.0, 0.0), (0.0, 100.0)]
    assert cells["blender ALL"] == [(0.0, 50.0), (50.0, 50.0), (50.0, 0.0), (0.0, 50.0)]
    assert list(cells).index("own ALL") < list(cells).index("blender cocked")


def test_a_frame_with_no_die_read_is_no_call_but_the_players_typing_the_dice() -> None:
    """The watch path reports no throw when it reads no die; it neither voids nor counts anything."""
    nothing = SimpleNamespace(dice=(), values=None)
    unasked = {name: () for name in SETTING_NAMES}
    assert _scored(nothing, [2, 5], unasked) == {name: "asked" for name in SETTING_NAMES}
    assert _scored(nothing, None, unasked) == {name: "asked" for name in SETTING_NAMES}
    read = SimpleNamespace(dice=("a die", "a die"), values=(5, 2))
    assert _scored(read, [2, 5], unasked) == {name: "right" for name in SETTING_NAMES}
    assert _scored(read, None, unasked) == {name: "wrong" for name in SETTING_NAMES}
