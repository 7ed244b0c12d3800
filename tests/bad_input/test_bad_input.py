"""The bad-input corpus (cases.py) through the real command line: `league build --content X --out Y` with a
previous site in Y. Every case must exit 1, print exactly its errors (file:line:col and message, nothing else),
leave Y and its surroundings byte-identical, and finish quickly in a child with a memory cap.
"""
from __future__ import annotations

import pytest

from tests.bad_input.cases import CASES, Case
from tests.bad_input.harness import copy_base, previous_site, run_build, snapshot

# a case takes well under a second; the cap catches a loader that hangs or loops (the child is killed at 15 s)
SECONDS = 5.0


def test_base_tree_is_valid(tmp_path):
    """The cases break a tree that builds: any error they show comes from their edit."""
    content = copy_base(tmp_path)
    out = tmp_path / "site"
    res = run_build(content, out)
    assert res.error is None, res.error
    assert res.exit_code == 0, res.output
    assert res.diagnostics() == []
    assert (out / "index.html").is_file()
    assert (out / "api" / "2026" / "quatrilho" / "chapeco.json").is_file()


def test_corpus_is_large_and_ids_are_unique():
    ids = [c.id for c in CASES]
    assert len(ids) >= 30
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(tmp_path, case: Case):
    content = copy_base(tmp_path / "src")   # the build cache may be written beside content/, not beside site/
    case.edit(content)
    out = tmp_path / "out" / "site"
    previous_site(out)
    before = snapshot(out.parent)

    res = run_build(content, out)

    assert res.error is None, res.error            # no traceback, no hang, no memory blow-up
    assert res.seconds < SECONDS, f"{res.seconds:.1f} s"
    assert res.exit_code == 1, res.output
    assert res.diagnostics() == case.errors, res.output
    if case.hint is not None:
        assert res.hints()[0] == case.hint
    assert "Traceback" not in res.output
    assert f"{len(case.errors)} erro(s); nada foi escrito" in res.output
    assert snapshot(out.parent) == before          # the previous site untouched, nothing left beside it


# ----------------------------------------------------------------------------------- the guard itself

def test_guard_kills_a_build_that_hangs(tmp_path, monkeypatch):
    import time

    import league.content.yamlio
    monkeypatch.setattr(league.content.yamlio, "parse_yaml", lambda *a, **k: time.sleep(60))  # inherited by the child
    res = run_build(copy_base(tmp_path), tmp_path / "site", time_limit=1.0)
    assert res.exit_code is None and res.error == "o build não terminou em 1 s"
    assert res.seconds < 5


def test_guard_caps_memory(tmp_path, monkeypatch):
    import league.content.yamlio

    def hog(*a, **k):
        return bytearray(8 * 1024 ** 3)  # 8 GB: over the cap, refused at once
    monkeypatch.setattr(league.content.yamlio, "parse_yaml", hog)
    res = run_build(copy_base(tmp_path), tmp_path / "site")
    assert res.exit_code != 0
    assert "MemoryError" in (res.error or "")
