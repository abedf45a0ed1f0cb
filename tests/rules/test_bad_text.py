"""Any text given to a parser gives an answer or the declared error, never another exception (hypothesis).

The benchmark ``tests/benchmarks/bench_fuzz.py`` runs the same properties on 200,000+ mutated inputs.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.__main__ import answer_line
from rules.errors import MatImportError, RulesError
from rules.gnubg_id import decode_position_id
from rules.mat import read_mat
from rules.match_id import decode_match_id
from rules.xgid import decode_xgid

GOLDEN = Path(__file__).with_name("golden")
MAT = (GOLDEN / "gnubg_match.mat.txt").read_text(encoding="utf-8")
LONG = st.sampled_from(["9" * 5000, "[" * 5000, '{"id":' * 2000, "-", ":", "\n", "é"])
TEXT = st.lists(st.one_of(st.text(max_size=40), LONG), max_size=6).map("".join)


def spliced(base: str) -> st.SearchStrategy[str]:
    """``base`` with a piece cut out and something else put in its place."""
    return st.tuples(st.integers(0, len(base)), st.integers(0, 60), TEXT).map(
        lambda cut: base[: cut[0]] + cut[2] + base[cut[0] + cut[1] :]
    )


@settings(max_examples=300, deadline=None)
@given(st.one_of(TEXT, spliced(json.dumps({"id": 1, "position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}))))
def test_every_plays_line_gets_one_json_answer(line: str) -> None:
    answer = json.loads(answer_line(line))
    assert "moves" in answer or "error" in answer


@settings(max_examples=100, deadline=None)
@given(spliced(MAT))
def test_a_damaged_mat_file_is_read_or_refused_with_file_and_line(text: str) -> None:
    try:
        read_mat(text, "f.mat")
    except MatImportError as error:
        assert error.path == "f.mat"


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        TEXT,
        spliced("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"),
        spliced("cIkqAAAAAAAA"),
        spliced("4HPwATDgc/ABMA"),
    )
)
def test_ids_are_read_or_refused_with_a_rules_error(text: str) -> None:
    for decode in (decode_xgid, decode_match_id, decode_position_id):
        try:
            decode(text)
        except RulesError:
            pass
