"""The house's rules (docs/architecture.md), checked on every test run:

- the import contracts of pyproject.toml ([tool.importlinter]): the domain — content/, games/, standings/,
  models.py — imports neither engine/, site/ nor cli/, and no two modules import each other in a circle;
- no function, method or class above radon's rank B (cyclomatic complexity over 10: what `radon cc -n C
  league` lists), no function or method over 60 lines and no module over 500 lines — except those named in the tables of
  docs/architecture.md ("Exceptions": each with its reason; "Still to split": work left, shrinking).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LEAGUE = ROOT / "league"
DOC = ROOT / "docs" / "architecture.md"
MAX_COMPLEXITY = 10   # radon's rank B at most: `radon cc -n C` lists nothing
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 500


def _listed() -> set[tuple[str, str]]:
    """(module path, name) of every row of the tables in docs/architecture.md: | `path` | `name` | ... |"""
    rows = set()
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\|\s*`(league/[\w/]+\.py)`\s*\|\s*`([\w.<>]+)`\s*\|", line)
        if m:
            rows.add((m.group(1), m.group(2)))
    return rows


def _modules() -> list[Path]:
    return sorted(p for p in LEAGUE.rglob("*.py") if "__pycache__" not in p.parts)


def _blocks(path: Path):
    """radon's functions, methods and classes of one module: (name, complexity, first line, last line); a
    class's lines are None (the 60-line limit is for functions: a class is as long as its methods)."""
    from radon.complexity import cc_visit
    seen = set()
    todo = list(cc_visit(path.read_text(encoding="utf-8")))
    while todo:
        b = todo.pop()
        name = getattr(b, "fullname", b.name)
        if (name, b.lineno) in seen:
            continue
        seen.add((name, b.lineno))
        methods = list(getattr(b, "methods", ()))
        todo += methods
        is_class = hasattr(b, "methods")
        yield name, b.complexity, b.lineno, (None if is_class else b.endline)


def test_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    cmd = [str(lint)] if lint.exists() else [sys.executable, "-m", "importlinter.cli"]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    assert "Contracts: 2 kept, 0 broken." in res.stdout


def test_functions_are_small_and_simple_but_the_listed_ones():
    pytest.importorskip("radon")
    listed = _listed()
    over = []
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        for name, complexity, first, last in _blocks(path):
            lines = 0 if last is None else last - first + 1
            if (complexity > MAX_COMPLEXITY or lines > MAX_FUNCTION_LINES) and (rel, name) not in listed:
                over.append(f"{rel} {name}: complexity {complexity}, {lines} lines")
    assert not over, ("split these, or name them with a reason in docs/architecture.md:\n  "
                      + "\n  ".join(sorted(over)))


def test_modules_are_short_but_the_listed_ones():
    listed = _listed()
    over = []
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_MODULE_LINES and (rel, "<module>") not in listed:
            over.append(f"{rel}: {n} lines")
    assert not over, "split these, or name them in docs/architecture.md:\n  " + "\n  ".join(over)


def test_the_lists_name_only_what_exists_and_still_needs_it():
    # a row left behind after its function was split (or renamed) would let a new one of that name through
    names = {}
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        names[(rel, "<module>")] = len(path.read_text(encoding="utf-8").splitlines()) > MAX_MODULE_LINES
        for name, complexity, first, last in _blocks(path):
            names[(rel, name)] = complexity > MAX_COMPLEXITY or (last is not None and last - first + 1 > MAX_FUNCTION_LINES)
    stale = sorted(f"{rel} {name}" for rel, name in _listed() if not names.get((rel, name)))
    assert not stale, "docs/architecture.md names what no longer needs it:\n  " + "\n  ".join(stale)
