"""The demo season's JSON API equals the reviewed golden copy, and two builds are byte-identical."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.golden import GOLDEN, ROOT, demo_api

pytestmark = pytest.mark.skipif(not (ROOT / "content" / "league.yaml").exists(), reason="no demo content")


def test_demo_json_matches_golden():
    files = demo_api()
    expected = {f"api/{p.relative_to(GOLDEN).as_posix()}": p.read_text(encoding="utf-8")
                for p in GOLDEN.rglob("*.json")}
    assert sorted(files) == sorted(expected), "run `python -m tests.golden --update` and review the diff"
    for rel in files:
        assert files[rel] == expected[rel], f"{rel} differs from the golden copy; review, then update"


def _tree_hash(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_two_builds_are_byte_identical(tmp_path):
    from league.engine.build import build
    build(ROOT / "content", tmp_path / "a", templates=ROOT / "league" / "templates")
    build(ROOT / "content", tmp_path / "b", templates=ROOT / "league" / "templates")
    a, b = _tree_hash(tmp_path / "a"), _tree_hash(tmp_path / "b")
    assert a == b
    assert any(k.endswith("index.html") for k in a)
