"""The layers hold: every import in the shipped packages goes down the house, never up or sideways.

Read from the source (every ``import`` and ``from ... import``, those inside functions too), not from a
run, so an import in a branch no test takes is caught as well. The directions are docs/design.md's:
``rules`` on the standard library only; ``vision`` and ``device`` on their own libraries, never on each
other; inside ``app/`` ``ui -> table -> record -> referee -> rules``, ``sim -> table`` and
``table -> vision, device`` (the screens never reach the simulation: the door hands them one table);
no run-time code on ``vision/train/``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ROOMS = ("app.referee", "app.record", "app.table", "app.sim", "app.net", "app.ui")

MAY_IMPORT: dict[str, frozenset[str]] = {
    "rules": frozenset({"rules"}),
    "device": frozenset({"device"}),
    "vision": frozenset({"vision", "vision.synth"}),
    "vision.synth": frozenset({"vision.synth"}),
    "vision.train": frozenset({"vision", "vision.synth", "vision.train"}),
    "app.referee": frozenset({"app.referee", "rules"}),
    "app.record": frozenset({"app.record", "app.referee", "rules"}),
    "app.table": frozenset({"app.table", "app.record", "app.referee", "rules", "vision", "device"}),
    "app.sim": frozenset(
        {"app.sim", "app.table", "app.record", "app.referee", "rules", "vision", "vision.synth", "device"}
    ),
    "app.net": frozenset({"app.net", "app.record", "app.referee", "rules"}),
    "app.ui": frozenset({"app.ui", "app.table", "app.net", "app.record", "app.referee", "rules", "vision", "device"}),
    "app": frozenset({"app", *ROOMS, "rules", "vision", "device"}),  # the package's door (``python -m app``)
}
"""Which of the project's own layers each layer may import (third-party libraries are checked below)."""

LIBRARIES: dict[str, frozenset[str]] = {
    "rules": frozenset(),
    "device": frozenset({"serial"}),
    "vision": frozenset({"numpy", "cv2", "onnxruntime"}),
    "vision.synth": frozenset({"numpy", "cv2"}),
    "app.referee": frozenset(),
    "app.record": frozenset(),
    "app.net": frozenset({"paho", "fastjsonschema", "cryptography", "cv2"}),  # cv2: the join codes' QR only
}
"""The third-party libraries a layer may use, where the design limits them (the standard library always)."""

OWN = ("rules", "device", "vision", "app")


def layer(module: str) -> str | None:
    """The layer a module of the project belongs to (the most specific one named above)."""
    parts = module.split(".")
    for size in (2, 1):
        name = ".".join(parts[:size])
        if name in MAY_IMPORT:
            return name
    return None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, imported module) for every import in ``source``, relative ones resolved against ``module``."""
    found = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names] or [(node.lineno, base)]
    return found


def breaches(source: str, module: str, is_package: bool = False) -> list[str]:
    """What in ``source`` breaks the layers, one line each (empty when it keeps them)."""
    own = layer(module)
    assert own is not None, f"{module} is in no layer"
    problems = []
    for line, target in imports(source, module, is_package):
        top = target.split(".")[0]
        if top in OWN:
            theirs = layer(target)
            if theirs is None:
                theirs = top
            if theirs not in MAY_IMPORT[own]:
                problems.append(f"{module}:{line} imports {target} ({own} may not reach {theirs})")
        elif own in LIBRARIES and top not in sys.stdlib_module_names and top not in LIBRARIES[own]:
            problems.append(f"{module}:{line} imports the library {top} ({own} may not)")
    return problems


def shipped() -> list[Path]:
    return sorted(path for package in OWN for path in (ROOT / package).rglob("*.py"))


def test_the_rooms_exist() -> None:
    for room in ROOMS:
        assert (ROOT / room.replace(".", "/") / "__init__.py").is_file(), room
    flat = sorted(path.name for path in (ROOT / "app").glob("*.py"))
    assert flat == ["__init__.py", "__main__.py"], f"app/ keeps its modules in the rooms, found {flat}"


@pytest.mark.parametrize("path", shipped(), ids=lambda path: str(path.relative_to(ROOT)))
def test_imports_go_down_the_layers(path: Path) -> None:
    assert breaches(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py") == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("app.referee.engine", "from app.record.journal import Journal", "app.referee may not reach app.record"),
        ("app.record.session", "def f():\n    from app.ui import main", "app.record may not reach app.ui"),
        ("app.table.dice", "from app.sim.camera import SimulatedCamera", "app.table may not reach app.sim"),
        ("app.ui.controller", "from app.sim.station import SimStation", "app.ui may not reach app.sim"),
        ("app.sim.camera", "from vision.train import render", "app.sim may not reach vision.train"),
        ("vision.reader_protocol", "import device.wire", "vision may not reach device"),
        ("rules.game", "import numpy", "the library numpy"),
        ("app.referee.engine", "from ..record import journal", "app.referee may not reach app.record"),
    ],
)
def test_a_breach_is_caught(module: str, source: str, expected: str) -> None:
    assert any(expected in problem for problem in breaches(source, module))


def test_going_down_is_allowed() -> None:
    source = "from app.record.session import Session\nfrom app.table.dice import throw_event\nimport numpy"
    assert breaches(source, "app.sim.demo") == []
