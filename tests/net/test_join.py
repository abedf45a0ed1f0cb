"""The join code a director hands to a board: what goes in comes out, and a code that cannot work is refused with
a reason in Turkish and English (never a link that loops "disconnected")."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from app.net.hall import join_paths, make_certificates, write_broker_files
from app.net.join import SCHEME, JoinCode, JoinCodeError, decode, qr_image, read_qr, write_ca
from app.net.link import TournamentLink
from vision.train.heldout import throw_video

CA_PEM, _, SERVER_PEM, _ = make_certificates("tavla/test", ["hall-pc"], 2)


def code_for(**changes: object) -> JoinCode:
    fields: dict[str, object] = dict(
        host="hall-pc", port=8883, prefix="tavla/test", board="12", password="s3cret-parola", ca_pem=CA_PEM
    )
    fields.update(changes)
    return JoinCode.for_board(**fields)  # type: ignore[arg-type]


def tampered(code: str, **changes: object) -> str:
    body = code[len(SCHEME) :]
    data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    data.update(changes)
    for key in [key for key, value in changes.items() if value is None]:
        del data[key]
    return SCHEME + base64.urlsafe_b64encode(json.dumps(data).encode()).decode()


def held_before_the_camera(png: Any) -> Any:
    """The printed QR held up to the tablet's camera (720p) over a rendered board: most of the picture's height
    (the reader needs some 4.5 pixels a module: a hall's code has 109 modules a side), tilted, dimmer, noisy."""
    scene: Any = throw_video(3, moving_frames=1, still_frames=1).frames[0].copy()
    rng = np.random.default_rng(5)
    scene = cv2.add(scene, rng.integers(0, 25, scene.shape, dtype=np.uint8))
    side = 560
    sheet = cv2.resize(png, (side, side), interpolation=cv2.INTER_AREA)
    source = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    target = np.array([[600, 80], [1160, 40], [1120, 600], [620, 580]], np.float32)
    warp = cv2.getPerspectiveTransform(source, target)
    paper = cv2.warpPerspective(sheet, warp, (1280, 720), borderValue=(0, 0, 0))
    mask = cv2.warpPerspective(np.full((side, side), 255, np.uint8), warp, (1280, 720))
    scene[mask > 0] = (paper[mask > 0] * 0.85).astype(np.uint8) + 20
    return cv2.GaussianBlur(scene, (3, 3), 0)


def test_a_join_code_round_trips_everything_a_station_needs() -> None:
    code = code_for()
    text = code.encode()
    assert text.startswith(SCHEME) and len(text) < 1200
    back = decode(text)
    assert back == code and back.broker == "hall-pc:8883" and back.ca_pem() == CA_PEM
    spread = "  " + "\n".join(text[i : i + 60] for i in range(0, len(text), 60)) + "\n"  # pasted across lines
    assert decode(spread) == code


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("", "does not start"),
        ("https://hall-pc:8883", "does not start"),
        (SCHEME + "!!!", "cut short"),
        (SCHEME + "A" * 5000, "longer than"),
        (SCHEME + base64.urlsafe_b64encode(b"[1, 2]").decode(), "not a record"),
    ],
)
def test_a_code_that_is_not_one_is_refused_in_both_languages(text: str, english: str) -> None:
    with pytest.raises(JoinCodeError) as refused:
        decode(text)
    assert english in refused.value.text("en") and refused.value.text("tr").startswith("Katılım kodu geçersiz")


def test_a_code_cut_short_or_with_a_bad_field_is_refused_with_its_reason() -> None:
    text = code_for().encode()
    cases = {
        text[:-40]: "cut short",
        tampered(text, v=2): "version",
        tampered(text, p=0): "port",
        tampered(text, p=True): "port",
        tampered(text, p="8883"): "port",
        tampered(text, h="hall pc"): "host",
        tampered(text, t="a/#"): "prefix",
        tampered(text, b="director"): "board",
        tampered(text, pw=""): "password",
        tampered(text, pw=None): "'password' is missing",
        tampered(text, fp="00" * 32): "fingerprint",
        tampered(text, ca="AAAA", fp="f" * 64): "fingerprint",
    }
    server = _der(SERVER_PEM)  # the broker's own certificate where the CA should be
    cases[tampered(text, ca=base64.urlsafe_b64encode(server).decode(), fp=hashlib.sha256(server).hexdigest())] = (
        "not a CA"
    )
    for bad, english in cases.items():
        with pytest.raises(JoinCodeError) as refused:
            decode(bad)
        assert english in refused.value.en, (english, refused.value.en)
        assert refused.value.tr != refused.value.en


def _der(pem: bytes) -> bytes:
    return x509.load_pem_x509_certificate(pem).public_bytes(serialization.Encoding.DER)


def test_a_station_links_with_the_code_and_keeps_its_ca_in_the_data_folder(tmp_path: Path) -> None:
    text = code_for(board="7").encode()
    link = TournamentLink.from_join_code(text, tmp_path)
    assert (link.broker, link.board, link.password, link.tournament) == (
        "hall-pc:8883",
        "7",
        "s3cret-parola",
        "tavla/test",
    )
    assert Path(link.ca).parent == tmp_path and Path(link.ca).read_bytes() == CA_PEM
    assert write_ca(decode(text), tmp_path) == Path(link.ca)  # the same tournament: the same file
    config = link.config()
    assert config.broker.ca == link.ca and config.prefix == "tavla/test" and config.broker.username == "7"


def test_the_qr_written_by_the_hall_reads_back_from_the_png_and_from_a_camera_picture(tmp_path: Path) -> None:
    files = write_broker_files(tmp_path / "hall", "tavla/test", ["1", "2"], ["hall-pc", "192.168.1.10"], days=2)
    assert files.qr
    text_path, png_path = join_paths(files.folder, "2")
    text = text_path.read_text().strip()
    code = decode(text)
    assert (code.host, code.port, code.board, code.password) == ("hall-pc", 8883, "2", files.passwords["2"])
    assert code.ca_pem() == files.ca.read_bytes()
    for path in (text_path, png_path):
        assert path.stat().st_mode & 0o077 == 0  # it holds the board's password
    png: Any = cv2.imread(str(png_path))
    assert png is not None and read_qr(png) == text
    scene = held_before_the_camera(png)
    assert read_qr(scene) == text
    assert read_qr(cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY)) == text
    assert read_qr(np.full((720, 1280, 3), 90, np.uint8)) is None  # the board without a code
    assert read_qr(qr_image("not a join code")) == "not a join code"  # read; refused later by decode
