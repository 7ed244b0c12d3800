"""A first build with enough stages makes its JSON and CSV files in a process of its own, forked before the
plan (league/engine/helpers.py `start_api_helper`): the site, the report and the build's record are the ones of a
build that makes them with the pages, and a failure there fails the build, leaving nothing behind."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import league.engine.helpers as H
import league.engine.record as REC
from league.engine.build import build

ROOT = Path(__file__).resolve().parent.parent


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def forks(monkeypatch):
    import league.engine.rendering as R
    if R.workers_for(10 ** 9) < 2:
        pytest.skip("one core: no process of its own for the API files")
    started = []
    start = H.start_api_helper

    def spy(api, writer):
        started.append(len(api))
        return start(api, writer)
    monkeypatch.setattr(H, "start_api_helper", spy)
    return started


def _record(cache: Path, out: Path) -> dict:
    from league.engine.cache import Cache
    return Cache(cache).get(REC.record_key(out))


@pytest.mark.parametrize("search", [False, True], ids=["no-search", "search"])
def test_the_api_files_made_apart_are_the_same_site_report_and_record(tmp_path, monkeypatch, forks, search):
    # the demo has 6 stages in one season: 8 API jobs (the season's ranking, 6 stages, its Quatrilho), 8 again
    # for api/latest/ (the current season's files) and 1 for the index and the registries: 17
    monkeypatch.setattr(H, "API_HELPER_MIN_STAGES", 10 ** 9)
    alone = build(ROOT / "content", tmp_path / "alone", templates=ROOT / "league" / "templates",
                  cache_dir=tmp_path / "c1", search=search)
    assert forks == []
    monkeypatch.setattr(H, "API_HELPER_MIN_STAGES", 1)
    apart = build(ROOT / "content", tmp_path / "apart", templates=ROOT / "league" / "templates",
                  cache_dir=tmp_path / "c2", search=search)
    assert forks == [17]
    files = _files(tmp_path / "apart")
    assert files == _files(tmp_path / "alone")
    assert sum(1 for rel in files if rel.startswith("api/")) > 8
    assert (apart.files, apart.written, apart.unchanged, apart.pages, apart.rendered) == \
        (alone.files, alone.written, alone.unchanged, alone.pages, alone.rendered) == \
        (len(files) - 1, len(files) - 1, 0, alone.pages, alone.pages)   # (- the site's manifest)
    r1, r2 = _record(tmp_path / "c1", tmp_path / "alone"), _record(tmp_path / "c2", tmp_path / "apart")
    assert r1["pages"] == r2["pages"]
    assert r2["pages"]["api/2026/truco/etapa-1/"][0]   # the API jobs' keys are in the record


def test_a_rebuild_keeps_its_api_files_in_this_process(tmp_path, monkeypatch, forks):
    # with a previous site, the API files whose key is unchanged are kept: no process of their own
    monkeypatch.setattr(H, "API_HELPER_MIN_STAGES", 1)
    build(ROOT / "content", tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=tmp_path / "c", search=False)
    assert forks == [17]
    again = build(ROOT / "content", tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=tmp_path / "c",
                  search=False)
    assert forks == [17] and again.written == 0


def test_a_failure_making_the_api_files_fails_the_build_and_writes_nothing(tmp_path, monkeypatch, forks):
    import league.site.api as A
    monkeypatch.setattr(H, "API_HELPER_MIN_STAGES", 1)
    parent = os.getpid()
    real = A.stage_api_files

    def flaky(*args):
        if os.getpid() != parent:
            raise ValueError("falha simulada nos arquivos da API")
        return real(*args)
    monkeypatch.setattr(A, "stage_api_files", flaky)
    with pytest.raises(RuntimeError, match="falha simulada nos arquivos da API"):
        build(ROOT / "content", tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=False, search=False)
    assert forks == [17]
    assert sorted(p.name for p in tmp_path.iterdir()) == []   # no site, no staging folder


def test_a_broken_template_stops_the_api_process_too(tmp_path, monkeypatch, forks):
    import shutil
    monkeypatch.setattr(H, "API_HELPER_MIN_STAGES", 1)
    shutil.copytree(ROOT / "league" / "templates", tmp_path / "templates")
    (tmp_path / "templates" / "pair.html").write_text("{% block main %}{{ oops( }}{% endblock %}", encoding="utf-8")
    killed = []
    import league.engine.workers as W
    kill = W.kill_worker
    monkeypatch.setattr(W, "kill_worker", lambda pid, fd=None: killed.append(pid) or kill(pid, fd))
    with pytest.raises(Exception):
        build(ROOT / "content", tmp_path / "site", templates=tmp_path / "templates", cache_dir=False, search=False)
    assert forks == [17] and len(killed) == 1
    with pytest.raises(ProcessLookupError):
        os.kill(killed[0], 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["templates"]
