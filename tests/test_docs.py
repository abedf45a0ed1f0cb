"""The repository explains itself truthfully: its examples run, and what it cites exists in it.

The README's Python examples and the ``rules`` facade's docstring are doctested; every ``docs/*.md`` the
code or the documents cite, and every section of the rules they cite, is there; relative links resolve; no
file points outside the repository for the rules or the design.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import rules

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("app", "rules", "device", "vision", "hardware", "tests", "docs", "models")


def texts() -> list[Path]:
    found = [ROOT / "README.md"]
    for folder in SOURCES:
        found += [p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md") and p.is_file()]
    return sorted(found)


def python_blocks(markdown: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.S)


def run_doctest(text: str, name: str) -> doctest.TestResults:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, name, name, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_the_readme_examples_run() -> None:
    blocks = python_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert blocks and all(">>>" in block for block in blocks)
    for index, block in enumerate(blocks):
        result = run_doctest(block, f"README.md block {index + 1}")
        assert result.failed == 0 and result.attempted > 0


def test_the_rules_facade_examples_run() -> None:
    result = doctest.testmod(rules, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_a_wrong_example_fails() -> None:
    assert run_doctest(">>> 1 + 1\n3\n", "wrong").failed == 1


def test_the_readme_is_short_and_keeps_its_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 160
    commands = re.search(r"```sh\n(.*?)```", readme, flags=re.S)
    assert commands is not None
    assert commands.group(1).splitlines() == [
        "bash .ci/setup && .venv/bin/python -m app demo",
        "bash .ci/setup --test && .venv/bin/python -m pytest -q",
    ]


CITED = re.compile(r"docs/([a-z-]+\.md)(?: section (\d))?")


@pytest.mark.parametrize("path", texts(), ids=lambda path: str(path.relative_to(ROOT)))
def test_what_is_cited_is_in_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (\d)\. ", (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), re.M))
    for name, section in CITED.findall(text):
        assert (ROOT / "docs" / name).is_file(), f"{path.name} cites docs/{name}, which does not exist"
        if section:
            assert name == "rules.md" and section in sections, f"{path.name} cites docs/{name} section {section}"
    if path.name != "test_docs.py":
        assert not re.search(r"\.\./shared/(RULES|DESIGN|STYLE)\.md|(?<![\w/])(RULES|DESIGN)\.md", text), (
            f"{path.name} cites a document outside the repository"
        )
    base = path.parent
    for target in re.findall(r"\]\(([^)#:]+\.md)\)", text) + re.findall(r"\.\./[\w/]+\.md", text):
        assert (base / target).resolve().is_file(), f"{path.name} points to {target}, which does not exist"
