"""Learning the match dice: a few confirmed dice move the reader toward them, and only toward them."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from unittest import mock

import cv2
import numpy as np
import pytest

from tests.vision.bench_adapt import confirmed_crops, score
from tests.vision.bench_profile import feature_width, profile_of, version_1
from tests.vision.conftest import need_real_photos
from tests.vision.test_detector import FixedCrops, _raw
from vision.adapt import (
    CROP_FILES,
    AdaptedClassifier,
    DiceProfile,
    FeatureReader,
    examples,
    label_of,
    model_digest,
)
from vision.crop_reader import CLASS_COCKED, CLASS_NOT_DIE, CLASSES, OnnxModel, softmax
from vision.errors import VisionError
from vision.reader import DEFAULT_DETECTOR, DEFAULT_HEAD, SIZE_REF, DiceReader
from vision.rectify import STRIDE
from vision.train.detector_data import real_scene, scene_paths


def clusters(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Features of two kinds of crops: around +e0 (what this set's threes look like) and +e1 (anything else)."""
    a = rng.normal(0, 0.1, (n, 16)).astype(np.float32)
    a[:, 0] += 1
    b = rng.normal(0, 0.1, (n, 16)).astype(np.float32)
    b[:, 1] += 1
    return a, b


def test_confirmed_dice_move_the_reading_of_their_kind() -> None:
    rng = np.random.default_rng(0)
    threes, others = clusters(rng, 12)
    base = np.zeros((12, len(CLASSES)), np.float32)
    base[:, 4] = 2.0  # the trained model reads this set's threes as fives
    profile = DiceProfile("red casino dice")
    profile.add(threes, base, np.full(12, 2, np.int64))
    new_threes, new_others = clusters(np.random.default_rng(1), 5)
    after = softmax(profile.logits(base[:5], new_threes))
    assert (after.argmax(axis=1) == 2).all()
    # crops unlike the confirmed ones keep (nearly) the model's own reading
    far = softmax(profile.logits(base[:5], new_others))
    assert (far.argmax(axis=1) == 4).all()


def test_a_profile_is_saved_and_reused_with_the_same_readings(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    threes, _ = clusters(rng, 8)
    base = rng.normal(0, 1, (8, len(CLASSES))).astype(np.float32)
    profile = DiceProfile("club set 2")
    profile.add(threes, base, np.full(8, 2, np.int64))
    path = tmp_path / "club.json"
    profile.save(path)
    again = DiceProfile.load(path)
    assert again.name == "club set 2" and again.examples == 8
    assert np.allclose(again.logits(base, threes), profile.logits(base, threes), atol=1e-5)


def test_a_profile_refuses_mismatched_examples_and_bad_files(tmp_path: Path) -> None:
    profile = DiceProfile("x")
    with pytest.raises(VisionError, match="one for one"):
        profile.add(np.zeros((3, 4), np.float32), np.zeros((2, len(CLASSES)), np.float32), np.zeros(3, np.int64))
    with pytest.raises(VisionError, match="class"):
        profile.add(np.zeros((1, 4), np.float32), np.zeros((1, len(CLASSES)), np.float32), np.array([9]))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(VisionError, match="not a readable dice profile"):
        DiceProfile.load(bad)


class LogitsOnly(OnnxModel):
    """A crop classifier exported without its features output (as the first crop classifiers were)."""

    def __init__(self) -> None:
        self.model = Path("logits_only.onnx")

    def run_all(self, x: np.ndarray) -> list[np.ndarray]:
        return [np.zeros((len(x), len(CLASSES)), np.float32)]


def test_a_model_without_features_cannot_learn_the_match_dice() -> None:
    reader = FeatureReader(LogitsOnly())
    with pytest.raises(VisionError, match="no features"):
        reader.logits_and_features(np.zeros((1, 48, 48, 3), np.uint8))


@pytest.mark.parametrize("backend", ["onnxruntime", "opencv"])
def test_both_backends_give_the_second_stage_features(backend: str) -> None:
    crops = np.random.default_rng(3).integers(0, 256, (3, 48, 48, 3)).astype(np.uint8)
    logits, features = FeatureReader(OnnxModel(DEFAULT_HEAD, backend)).logits_and_features(crops)  # type: ignore[arg-type]
    ref_logits, ref_features = FeatureReader(OnnxModel(DEFAULT_HEAD, "onnxruntime")).logits_and_features(crops)
    assert logits.shape == (3, len(CLASSES)) and features.shape[0] == 3
    assert np.abs(logits - ref_logits).max() < 1e-3 and np.abs(features - ref_features).max() < 1e-3


def another_camera(photo: np.ndarray) -> np.ndarray:
    """The photo dim and flat, its contrast cut to a seventh, and a little out of focus: a poor camera under a
    weak lamp. (Colours alone no longer make dice the reader has not seen: it reads each die in its face's own
    colours, ``vision.crop_reader.face_contrast``, so the photo in negative under a warm cast reads as well as the
    photo.)"""
    f = photo.astype(np.float32)
    flat = np.asarray(np.clip(f.mean() + (f - f.mean()) * 0.15, 0, 255), np.uint8)
    return np.asarray(cv2.GaussianBlur(flat, (0, 0), 1.0), np.uint8)


def test_ten_confirmed_photos_read_the_rest_of_a_real_set_better() -> None:
    """The shipped pair learned from these webcam photos and reads them near its ceiling, where ten photos have
    nothing left to teach. Seen through a poor camera (``another_camera``), it reads fewer right (116 of 149 dice
    in this draw), and ten confirmed photos win dice back."""
    need_real_photos()
    scenes = []
    paths = scene_paths("webcam_white_dice")
    for i in np.random.default_rng(5).permutation(len(paths))[:60]:
        path = paths[i]
        scene = real_scene(path, "webcam_white_dice")
        if scene is not None:
            scenes.append((Path(path).name, another_camera(scene[0]), scene[1]))
    learn, rest = scenes[:10], scenes[10:]  # ten photos drawn at random: a set-up's throws show many values
    plain = DiceReader(DEFAULT_DETECTOR, head=DEFAULT_HEAD)
    crops, labels = confirmed_crops(plain, learn)
    adapted = AdaptedClassifier(FeatureReader(OnnxModel(DEFAULT_HEAD)), DiceProfile("webcam"))
    adapted.confirm(crops, labels)
    before = score(plain, rest)
    after = score(DiceReader(DEFAULT_DETECTOR, classifier=adapted), rest)
    assert after.correct > before.correct
    assert after.wrong + after.unreadable < before.wrong + before.unreadable


def test_a_throw_with_nothing_found_teaches_nothing_and_breaks_nothing() -> None:
    rng = np.random.default_rng(4)
    threes, _ = clusters(rng, 4)
    profile = DiceProfile("x")
    profile.add(threes, np.zeros((4, len(CLASSES)), np.float32), np.full(4, 2, np.int64))
    profile.add(np.zeros((0, 0), np.float32), np.zeros((0, len(CLASSES)), np.float32), np.zeros(0, np.int64))
    assert profile.examples == 4


class EdgeDie:
    """A detector that finds one big die at the left edge of the picture, partly outside it."""

    def run(self, view: np.ndarray) -> np.ndarray:
        out = _raw(view.shape[0] // STRIDE, view.shape[1] // STRIDE)
        r = out.shape[1] // 2
        out[0, r, 0] = 4.0
        out[1 + 2, r, 0] = 6.0
        out[7, r, 0] = -6.0
        out[8, r, 0] = np.log(36.0 / SIZE_REF)
        return out


def test_a_die_at_the_frame_edge_is_learned_from_the_crop_it_was_read_from() -> None:
    image = np.random.default_rng(3).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    head = FixedCrops([0.02, 0.02, 0.9, 0.02, 0.02, 0.02, 0.0, 0.0])
    dice = DiceReader(net=EdgeDie(), classifier=head).dice(image)
    assert len(dice) == 1 and dice[0].box[0] == 0, "the die's box is clipped to the picture"
    assert dice[0].crop_box is not None and dice[0].crop_box[0] < 0
    crops, labels = examples(image, dice, [3])
    assert np.array_equal(crops[0], head.seen[0][0]) and labels.tolist() == [2]


class ThreeFinds:
    """A detector that finds three things in a row across the picture, strongest on the left."""

    def run(self, view: np.ndarray) -> np.ndarray:
        out = _raw(view.shape[0] // STRIDE, view.shape[1] // STRIDE)
        r, cols = out.shape[1] // 2, out.shape[2]
        for i, c in enumerate((cols // 4, cols // 2, 3 * cols // 4)):
            out[0, r, c] = 4.0 - 0.5 * i
            out[1 + 2, r, c] = 6.0
            out[7, r, c] = -6.0
            out[8, r, c] = np.log(36.0 / SIZE_REF)
        return out


def test_what_the_reader_calls_not_a_die_is_learned_as_such_once_people_said_which_two_are_the_dice() -> None:
    image = np.random.default_rng(6).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    three, clutter = [0.02, 0.02, 0.9, 0.02, 0.02, 0.02, 0.0, 0.0], [0.0, 0.0, 0.05, 0.0, 0.0, 0.0, 0.0, 0.95]
    head = FixedCrops(three, clutter, three)  # the middle find is no die
    read = DiceReader(net=ThreeFinds(), classifier=head).read_all(image)
    assert [d.value for d in read.dice] == [3, 3] and len(read.not_dice) == 1
    (x0, _, x1, _) = read.not_dice[0]
    assert read.dice[0].box[2] <= x0 and x1 <= read.dice[1].box[0], "the middle find is the one dropped"
    crops, labels = examples(image, read.dice, [3, 3], read.not_dice)
    assert labels.tolist() == [2, 2, CLASS_NOT_DIE]
    assert np.array_equal(crops[2], head.seen[0][1]), "learned from the crop the second stage dropped"
    # one die struck out, so one of the pair was not found: the thing dropped may be it, and teaches nothing
    _, labels = examples(image, read.dice, [3, None], read.not_dice)
    assert labels.tolist() == [2, CLASS_NOT_DIE]


def test_what_people_say_a_die_is_becomes_its_class() -> None:
    assert [label_of(said) for said in (1, 6, "cocked", None)] == [0, 5, CLASS_COCKED, CLASS_NOT_DIE]
    for bad in (0, 7, True, "x"):
        with pytest.raises(VisionError):
            label_of(bad)  # type: ignore[arg-type]


def test_a_profile_is_a_small_json_and_its_arrays_and_a_version_1_profile_still_loads(tmp_path: Path) -> None:
    profile = profile_of(200)
    version_1(profile, tmp_path / "old.json")
    old = DiceProfile.load(tmp_path / "old.json")
    assert old.examples == 200 and np.array_equal(old.features, profile.features)
    path = tmp_path / "set.json"
    old.save(path)
    old.add(profile.features[:3], profile.base[:3], profile.labels[:3])
    old.save(path)  # the second save replaces the first one's arrays
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert len(kept) == 3 and kept[0] == "old.json" and kept[2] == "set.json" and kept[1].startswith("set.")
    float32s_a_die = feature_width() + len(CLASSES)  # its features and the model's logits (and a byte: its class)
    arrays = (tmp_path / kept[1]).stat().st_size
    assert path.stat().st_size < 300 and arrays < old.examples * (float32s_a_die * 4 + 1) + 1000
    again = DiceProfile.load(path)
    assert again.examples == 203 and again.name == profile.name
    assert np.array_equal(again.labels, old.labels) and np.array_equal(again.base, old.base)
    assert again.weights is not None and old.weights is not None and np.allclose(again.weights, old.weights)


def test_a_save_cut_short_leaves_the_profile_saved_before_whole(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    profile = profile_of(20)
    profile.save(path)
    other = profile_of(5, seed=1)
    other.name = "set.x"  # another dice set whose name begins like this one's
    other.save(tmp_path / "set.x.json")
    bigger = profile_of(30, seed=2)
    real_replace = os.replace
    for cut in (1, 2):  # the power goes before the arrays' rename, or before the JSON's
        calls = []

        def replace(source: str, target: str) -> None:
            calls.append(target)
            if len(calls) == cut:
                raise OSError("the power went")
            real_replace(source, target)

        with mock.patch("os.replace", replace), pytest.raises(OSError):
            bigger.save(path)
        assert DiceProfile.load(path).examples == 20
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    bigger.save(path)
    assert DiceProfile.load(path).examples == 30 and DiceProfile.load(tmp_path / "set.x.json").examples == 5


def test_damaged_or_missing_arrays_are_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    profile_of(10).save(path)
    arrays = next(tmp_path.glob("set.*.npz"))
    arrays.write_bytes(arrays.read_bytes()[:-40])
    with pytest.raises(VisionError, match="damaged"):
        DiceProfile.load(path)
    arrays.unlink()
    with pytest.raises(VisionError, match="not a readable dice profile"):
        DiceProfile.load(path)
    for elsewhere in ("../set.npz", "/etc/passwd", "sub/set.npz"):
        path.write_text(json.dumps({"version": 2, "name": "x", "examples": 10, "arrays": elsewhere}))
        with pytest.raises(VisionError, match="beside the profile"):
            DiceProfile.load(path)
    path.write_text('{"version": 7, "name": "x"}')
    with pytest.raises(VisionError, match="another version"):
        DiceProfile.load(path)


class Features(OnnxModel):
    """A second stage whose features and logits are a fixed random function of the crop, one of its own for each
    ``name`` (one model from another)."""

    def __init__(self, name: str) -> None:
        self.model = Path(name)
        rng = np.random.default_rng(list(name.encode()))
        self.to_features = rng.normal(0, 1, (12, 16)).astype(np.float32)
        self.to_logits = rng.normal(0, 1, (16, len(CLASSES))).astype(np.float32)

    def run_all(self, x: np.ndarray) -> list[np.ndarray]:
        quarters = x.reshape(len(x), 3, 2, 24, 2, 24).mean(axis=(3, 5)).reshape(len(x), 12)
        features = np.tanh(quarters @ self.to_features)
        return [features @ self.to_logits, features]


def confirmed_throws(throws: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Crops (random pictures) and the classes people confirmed for them, a few dice a throw."""
    rng = np.random.default_rng(seed)
    return [
        (rng.integers(0, 256, (2, 48, 48, 3), dtype=np.uint8), rng.integers(0, len(CLASSES), 2).astype(np.int64))
        for _ in range(throws)
    ]


def test_a_dice_set_learned_with_another_model_is_learned_again_from_its_crops(tmp_path: Path) -> None:
    """Features mean something only to the model that made them. A profile keeps its dice's crops, so after an
    update brought a new second stage the set is learned again from them, reading exactly as if the new model
    had learned these dice itself; nothing is thrown again."""
    throws = confirmed_throws(5)
    old = AdaptedClassifier(FeatureReader(Features("old.onnx")), DiceProfile("club set"))
    for crops, labels in throws:
        old.confirm(crops, labels)
    old.profile.save(tmp_path / "club.json")
    saved = DiceProfile.load(tmp_path / "club.json")
    assert saved.model == old.features.digest and saved.examples == 10 and saved.relearnable
    new = AdaptedClassifier(FeatureReader(Features("new.onnx")), saved)
    assert saved.model == new.features.digest == "new.onnx" and saved.examples == 10
    fresh = AdaptedClassifier(FeatureReader(Features("new.onnx")), DiceProfile("club set"))
    for crops, labels in throws:
        fresh.confirm(crops, labels)
    unseen = confirmed_throws(3, seed=1)[0][0]
    assert np.allclose(new.probabilities(unseen), fresh.probabilities(unseen), atol=1e-5)
    assert not np.allclose(new.probabilities(unseen), old.probabilities(unseen), atol=1e-3)


def test_a_dice_set_kept_without_its_crops_is_refused_by_another_model_not_misread(tmp_path: Path) -> None:
    """A profile saved before crops were kept (version 2) holds only the old model's features: a new second
    stage cannot learn it again, so it is refused by name rather than corrected with the wrong features."""
    learned = AdaptedClassifier(FeatureReader(Features("old.onnx")), DiceProfile("club set"))
    for crops, labels in confirmed_throws(2):
        learned.confirm(crops, labels)
    learned.profile.save(tmp_path / "club.json")
    meta = json.loads((tmp_path / "club.json").read_text())
    meta["version"], meta["crops"] = 2, []  # as version 2 saved it
    (tmp_path / "club.json").write_text(json.dumps(meta))
    saved = DiceProfile.load(tmp_path / "club.json")
    assert saved.examples == 4 and not saved.relearnable
    AdaptedClassifier(FeatureReader(Features("old.onnx")), saved)  # the same model reads with it
    with pytest.raises(VisionError, match="'club set' was learned with another dice model"):
        AdaptedClassifier(FeatureReader(Features("new.onnx")), saved)
    del meta["model"]  # saved by a build that kept no digest
    (tmp_path / "club.json").write_text(json.dumps(meta))
    with pytest.raises(VisionError, match="learn it again"):
        AdaptedClassifier(FeatureReader(Features("old.onnx")), DiceProfile.load(tmp_path / "club.json"))
    AdaptedClassifier(FeatureReader(Features("new.onnx")), DiceProfile("new set"))  # a new set: nothing to refuse


def test_each_save_writes_only_the_new_crops_in_a_few_files(tmp_path: Path) -> None:
    """Every confirmation saves the profile: the crops already saved are not written again, and they never lie
    in more than ``CROP_FILES`` files; the set reads back whole after any save."""
    path = tmp_path / "set.json"
    learned = AdaptedClassifier(FeatureReader(Features("old.onnx")), DiceProfile("set"))
    throws = confirmed_throws(CROP_FILES + 3)
    for n, (crops, labels) in enumerate(throws, start=1):
        learned.confirm(crops, labels)
        learned.profile.save(path)
        crop_files = sorted(tmp_path.glob("set.*.crops.npz"))
        assert 1 <= len(crop_files) <= CROP_FILES and len(list(tmp_path.iterdir())) == len(crop_files) + 2
        newest = json.loads(path.read_text())["crops"][-1]
        assert len(np.load(tmp_path / newest)["crops"]) == (2 * n if n == CROP_FILES + 1 else 2)  # all folded into one
        again = DiceProfile.load(path)
        assert np.array_equal(again.crops, np.concatenate([c for c, _ in throws[:n]]))
    again.add(*FeatureReader(Features("old.onnx")).logits_and_features(throws[0][0])[::-1], throws[0][1])
    again.save(path)  # examples without crops: the set can no longer be learned again, and keeps none
    assert not DiceProfile.load(path).relearnable and not list(tmp_path.glob("set.*.crops.npz"))


def test_a_set_keeps_its_latest_dice_and_saves_and_relearns_them(tmp_path: Path) -> None:
    """A set used all season keeps only its latest ``KEPT_DICE`` dice (down to three quarters when it goes
    past): the fit and the files stay small. What it keeps is what it saves, loads and learns again from."""
    path = tmp_path / "set.json"
    throws = confirmed_throws(14)
    with mock.patch("vision.adapt.KEPT_DICE", 20):
        learned = AdaptedClassifier(FeatureReader(Features("old.onnx")), DiceProfile("set"))
        kept: list[tuple[np.ndarray, np.int64]] = []
        for n, (crops, labels) in enumerate(throws, start=1):
            learned.confirm(crops, labels)
            kept = [*kept, *zip(crops, labels)]
            if len(kept) > 20:
                kept = kept[len(kept) - 15 :]
            assert learned.profile.examples == len(kept) <= 20
            if 8 <= n <= 11:
                continue  # saves that failed (a full card): the crops saved before are let go unsaved
            learned.profile.save(path)
            again = DiceProfile.load(path)
            assert np.array_equal(again.crops, np.array([c for c, _ in kept]))
            assert np.array_equal(again.labels, np.array([y for _, y in kept]))
        assert len(kept) == 15  # 28 dice seen: let go at the 22nd and again at the 21st after it
        assert len(list(tmp_path.glob("set.*.crops.npz"))) <= CROP_FILES
        new = AdaptedClassifier(FeatureReader(Features("new.onnx")), again)
        fresh = AdaptedClassifier(FeatureReader(Features("new.onnx")), DiceProfile("set"))
        fresh.confirm(np.array([c for c, _ in kept]), np.array([y for _, y in kept]))
    unseen = confirmed_throws(1, seed=1)[0][0]
    assert np.allclose(new.probabilities(unseen), fresh.probabilities(unseen), atol=1e-5)


def test_a_set_saved_with_more_dice_than_are_kept_loads_its_latest(tmp_path: Path) -> None:
    """A profile saved before the cap (or with a larger one) loads as its latest dice, and its next save
    rewrites the crops whole rather than leaving the ones let go on disk."""
    path = tmp_path / "set.json"
    learned = AdaptedClassifier(FeatureReader(Features("old.onnx")), DiceProfile("set"))
    throws = confirmed_throws(12)
    for crops, labels in throws:
        learned.confirm(crops, labels)
        learned.profile.save(path)
    every = np.concatenate([c for c, _ in throws])
    with mock.patch("vision.adapt.KEPT_DICE", 20):
        again = DiceProfile.load(path)
    assert again.examples == 15 and np.array_equal(again.crops, every[-15:])
    again.save(path)
    assert len(list(tmp_path.glob("set.*.crops.npz"))) == 1
    assert np.array_equal(DiceProfile.load(path).crops, every[-15:])


def test_a_damaged_crop_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    learned = AdaptedClassifier(FeatureReader(Features("old.onnx")), DiceProfile("set"))
    learned.confirm(*confirmed_throws(1)[0])
    learned.profile.save(path)
    crops = next(tmp_path.glob("set.*.crops.npz"))
    crops.write_bytes(crops.read_bytes()[:-40])
    with pytest.raises(VisionError, match="damaged"):
        DiceProfile.load(path)


def test_a_profile_follows_the_model_s_content_not_where_it_is_installed(tmp_path: Path) -> None:
    """The same second stage in another folder (the app moved, reinstalled) still reads a saved dice set."""
    moved = tmp_path / "head.onnx"
    shutil.copyfile(DEFAULT_HEAD, moved)
    learned = AdaptedClassifier(FeatureReader(OnnxModel(DEFAULT_HEAD)), DiceProfile("club set"))
    learned.confirm(np.zeros((1, 48, 48, 3), np.uint8), np.array([0], np.int64))
    assert learned.profile.model == model_digest(DEFAULT_HEAD) == model_digest(moved)
    AdaptedClassifier(FeatureReader(OnnxModel(moved)), learned.profile)
