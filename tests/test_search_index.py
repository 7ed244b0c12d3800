"""The search index (pagefind) indexes names, dates and places only, so it is rebuilt when that text
changes and reused (hard links, same files) when only scores changed."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from league.engine.build import build
from league.site.search import available

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not available(), reason="pagefind is not installed")


def _index_inodes(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_ino for p in (site / "pagefind").rglob("*") if p.is_file()}


def test_search_index_reused_after_a_score_change_rebuilt_after_a_rename(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    site = tmp_path / "site"
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=tmp_path / "cache")
    first = _index_inodes(site)
    assert first, "the first build writes an index"
    stage = content / "seasons/2026/truco/etapa-4.yaml"
    text = stage.read_text(encoding="utf-8")
    m = re.search(r'"12-(\d) ', text)
    stage.write_text(text[:m.start()] + f'"12-{(int(m.group(1)) + 1) % 11} ' + text[m.end():], encoding="utf-8")
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=tmp_path / "cache")
    assert _index_inodes(site) == first  # same files, linked from the previous site: pagefind did not run
    clubs = content / "clubs.yaml"
    clubs.write_text(clubs.read_text(encoding="utf-8").replace("name: ", "name: Novo ", 1), encoding="utf-8")
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=tmp_path / "cache")
    assert _index_inodes(site) != first  # a renamed club is indexed again


def test_a_whole_site_built_again_from_the_cache_takes_its_index_from_there(tmp_path, monkeypatch):
    import league.site.search as S
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    site, cache = tmp_path / "site", tmp_path / "cache"
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)
    first = {p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "pagefind").rglob("*") if p.is_file()}
    shutil.rmtree(site)   # a CI build that restores .league-cache only

    def no_pagefind(*args, **kwargs):
        raise AssertionError("pagefind ran")
    monkeypatch.setattr(S, "StubIndexing", no_pagefind)
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)
    again = {p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "pagefind").rglob("*") if p.is_file()}
    assert again == first
    # a renamed club: the kept index is another one, so pagefind runs (and fails here)
    clubs = content / "clubs.yaml"
    clubs.write_text(clubs.read_text(encoding="utf-8").replace("name: ", "name: Novo ", 1), encoding="utf-8")
    shutil.rmtree(site)
    with pytest.raises(AssertionError, match="pagefind ran"):
        build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)


@pytest.mark.parametrize("env", [None, "/opt/pagefind/bin/pagefind"])
def test_the_binary_is_found_where_pagefind_itself_finds_it(monkeypatch, env):
    """league.site.search looks the binary up without importing pagefind.service (which imports asyncio):
    the same path as pagefind.service.get_executable, with and without $PAGEFIND_BINARY_PATH."""
    pytest.importorskip("pagefind.service")
    from pagefind.service import get_executable
    from league.site.search import _executable
    if env is None:
        monkeypatch.delenv("PAGEFIND_BINARY_PATH", raising=False)
    else:
        monkeypatch.setenv("PAGEFIND_BINARY_PATH", env)
    assert _executable() == get_executable()
    assert env is None or _executable() == Path(env)


def _index_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted((site / "pagefind").rglob("*")) if p.is_file()}


def test_two_builds_of_the_same_content_write_the_same_index(tmp_path):
    # pagefind numbers the pages in the order it finds them: the stubs are written in path order into a new
    # scratch folder each time, so the same content gives the same index, byte for byte
    one, two = tmp_path / "one", tmp_path / "two"
    build(ROOT / "content", one, templates=ROOT / "league" / "templates", cache_dir=False)
    build(ROOT / "content", two, templates=ROOT / "league" / "templates", cache_dir=False)
    first = _index_files(one)
    assert any(rel.startswith("pagefind/fragment/") for rel in first) and "pagefind/pagefind.js" in first
    assert _index_files(two) == first
    assert (one / ".pagefind-digest").read_bytes() == (two / ".pagefind-digest").read_bytes()


def test_a_build_without_search_writes_no_index_and_runs_no_pagefind(tmp_path, monkeypatch):
    import league.site.search as S

    def no_pagefind(*args, **kwargs):
        raise AssertionError("pagefind ran")
    monkeypatch.setattr(S, "StubIndexing", no_pagefind)
    site = tmp_path / "site"
    build(ROOT / "content", site, templates=ROOT / "league" / "templates", cache_dir=False, search=False)
    assert (site / "index.html").is_file() and (site / "busca" / "index.html").is_file()
    assert not (site / "pagefind").exists() and not (site / ".pagefind-digest").exists()


def test_pagefind_is_required_within_the_versions_it_was_checked_with():
    # 1.2.0 makes another index each run over the same pages; a 2.x may change the command line league runs
    import tomllib
    from importlib.metadata import version
    with open(ROOT / "pyproject.toml", "rb") as fh:
        deps = tomllib.load(fh)["project"]["dependencies"]
    spec = next(d for d in deps if d.startswith("pagefind"))
    assert re.fullmatch(r"pagefind\[bin\]>=1\.3,<2", spec.replace(" ", ""))
    major, minor = (int(x) for x in version("pagefind").split(".")[:2])
    assert (1, 3) <= (major, minor) < (2, 0)
