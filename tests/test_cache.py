"""The build cache: outside site/, safe to delete, never trusted when corrupted, and a cached build
gives byte-identical output to a build without it."""
from __future__ import annotations

import hashlib
from pathlib import Path

from league.build import build, check

ROOT = Path(__file__).resolve().parent.parent


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_cached_build_equals_uncached_build(tmp_path):
    cache = tmp_path / "cache"
    build(ROOT / "content", tmp_path / "cold", templates=ROOT / "templates", cache_dir=False)
    build(ROOT / "content", tmp_path / "fill", templates=ROOT / "templates", cache_dir=cache)
    assert any(cache.rglob("*.pkl")), "the first build fills the cache"
    build(ROOT / "content", tmp_path / "warm", templates=ROOT / "templates", cache_dir=cache)
    assert _tree(tmp_path / "cold") == _tree(tmp_path / "warm")
    assert not (tmp_path / "warm" / ".league-cache").exists()


def test_corrupted_cache_entry_is_ignored_with_a_warning(tmp_path):
    cache = tmp_path / "cache"
    first = check(ROOT / "content", cache_dir=cache)
    entries = sorted(cache.rglob("*.pkl"))
    entries[0].write_bytes(b"not a pickle at all")
    second = check(ROOT / "content", cache_dir=cache)
    warnings = [d for d in second.diagnostics if d.code == "cache"]
    assert len(warnings) == 1 and "corrompida" in warnings[0].message
    from league.api import api_files
    assert api_files(first.results) == api_files(second.results)


def test_changed_stage_is_recomputed_not_served_from_cache(tmp_path):
    import shutil
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    cache = tmp_path / "cache"
    before = check(content, cache_dir=cache)
    stage = content / "seasons" / "2026" / "truco" / "etapa-1.yaml"
    text = stage.read_text(encoding="utf-8")
    assert "status: final" in text
    stage.write_text(text.replace("status: final", "status: in_progress", 1), encoding="utf-8")
    after = check(content, cache_dir=cache)
    res = {r.stage.id: r for r in after.results.seasons[0].stages}
    assert res["etapa-1"].stage.status == "in_progress"
    # an in-progress stage awards no ranking points (rules.md): etapa-1 disappears from the club ranking
    assert all("etapa-1" not in e.stages for e in after.results.seasons[0].clubs)
    assert any("etapa-1" in e.stages for e in before.results.seasons[0].clubs)
