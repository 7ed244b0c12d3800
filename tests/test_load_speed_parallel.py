"""Stage and championship files not in the cache are loaded by forked workers when there are many: the
result, the diagnostics (even their order) and the cache they leave are those of a one-by-one load, and a
worker that fails is replaced by loading its share in the main process."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import league.engine.load_plan as L
from league.engine.build import check
from league.content.diagnostics import LeagueError
from league.engine.load_tasks import Task
from league.engine.loader import Loader
from tests.util import synth

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="parallel loading forks")


@pytest.fixture
def content(tmp_path) -> Path:
    c = tmp_path / "content"
    shutil.copytree(ROOT / "content", c)
    return c


def _workers(monkeypatch, n: int) -> None:
    monkeypatch.setattr(L, "_load_workers", lambda tasks, todo, busy=False, **kw: min(n, len(todo)) if todo else 1)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _items(loader: Loader) -> list:
    return [(d.mark, d.level, d.message, d.hint, d.code) for d in loader.diags.items]


def _load(content: Path, cache=None):
    loader = Loader(content, cache)
    league = loader.load()
    return loader, league


def _shape(league) -> list:
    return [(s.year, [st.id for st in s.stages], [c.id for c in s.championships]) for s in league.seasons]


@pytest.mark.parametrize("n", [2, 3])
def test_parallel_load_equals_one_by_one_load(content, tmp_path, monkeypatch, n):
    from league.site.api import api_files
    one = check(content, cache_dir=False)
    _workers(monkeypatch, n)
    cache = tmp_path / "cache"
    for cache_dir in (False, cache, cache):   # without a cache, filling it, reading it back
        many = check(content, cache_dir=cache_dir)
        assert api_files(many.results) == api_files(one.results)
        assert [(str(d.mark), d.level, d.message, d.hint) for d in many.diagnostics] == \
            [(str(d.mark), d.level, d.message, d.hint) for d in one.diagnostics]
    loader, _ = _load(content, None)
    assert loader.workers == n and loader.fallbacks == 0


def test_diagnostics_come_in_the_order_of_a_one_by_one_load(content, monkeypatch):
    truco, quat = content / "seasons/2026/truco", content / "seasons/2026/quatrilho"
    _edit(truco / "etapa-1.yaml", "status: final", "statu: final")
    _edit(truco / "etapa-4.yaml", "date:", "data:")
    (truco / "notas.txt").write_text("rascunho\n", encoding="utf-8")
    (truco / "etapa-9.yaml").write_text("name: [\n", encoding="utf-8")
    _edit(quat / "concordia.yaml", "status: final", "status: encerrado")
    one, league_one = _load(content)
    assert sum(d.level == "error" for d in one.diags.items) >= 4
    _workers(monkeypatch, 2)
    many, league_many = _load(content)
    assert many.workers == 2 and many.fallbacks == 0
    assert _items(many) == _items(one)
    assert _shape(league_many) == _shape(league_one)
    with pytest.raises(LeagueError) as a:
        check(content, cache_dir=False)
    monkeypatch.undo()
    with pytest.raises(LeagueError) as b:
        check(content, cache_dir=False)
    assert [d.format_text() for d in a.value.diagnostics] == [d.format_text() for d in b.value.diagnostics]


def test_a_failing_worker_is_replaced_by_the_main_process(content, tmp_path, monkeypatch):
    from league.site.api import api_files
    one = check(content, cache_dir=False)
    _workers(monkeypatch, 2)
    parent = os.getpid()
    fresh = Loader.task_fresh

    def broken_in_worker(self, *args):
        if os.getpid() != parent:
            raise RuntimeError("worker crashed")
        return fresh(self, *args)

    monkeypatch.setattr(Loader, "task_fresh", broken_in_worker)
    loader, league = _load(content, None)
    assert loader.fallbacks == 1
    cache = tmp_path / "cache"
    many = check(content, cache_dir=cache)
    assert api_files(many.results) == api_files(one.results)
    again = check(content, cache_dir=cache)   # the main process cached the failed share
    assert api_files(again.results) == api_files(one.results)


def test_worker_cache_entries_are_read_back(content, tmp_path, monkeypatch):
    """What the workers cached is found by the next (one-by-one) load: nothing is loaded again."""
    cache_dir = tmp_path / "cache"
    _workers(monkeypatch, 2)
    check(content, cache_dir=cache_dir)
    monkeypatch.undo()
    from league.engine.cache import Cache
    cache = Cache(cache_dir)
    loader, league = _load(content, cache)
    assert cache.misses == 0 and not cache.warnings
    assert set(league.precomputed) == {st.path for s in league.seasons for st in s.stages}
    assert set(league.championship_results) == {c.path for s in league.seasons for c in s.championships}


def test_small_content_is_loaded_in_one_process(content):
    loader, _ = _load(content)
    assert loader.workers == 1   # the demo is far below PARALLEL_MIN_BYTES: a fork would cost more than it saves


def test_small_content_gets_one_worker_while_the_templates_compile(content, monkeypatch):
    """Below PARALLEL_MIN_BYTES the content loads in one process, unless that process has other work
    meanwhile (the build compiling its templates): then one worker loads it beside, whatever the cores."""
    tasks = [Task(None, "stage", p, 0) for p in sorted(content.glob("seasons/*/truco/*.yaml"))]
    todo = list(range(len(tasks)))
    assert sum(L._size(t.path) for t in tasks) < L.PARALLEL_MIN_BYTES and len(todo) >= L.PARALLEL_MIN_FILES
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert L._load_workers(tasks, todo) == 1
    assert L._load_workers(tasks, todo, busy=True) == 2
    assert L._load_workers(tasks, todo[:L.PARALLEL_MIN_FILES - 1], busy=True) == 1   # too few files to share
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert L._load_workers(tasks, todo, busy=True) == 1                               # one core: no fork


def test_every_build_loads_beside_the_template_compilation(content, tmp_path, monkeypatch):
    """The templates are compiled in memory by every build (none is kept in the cache, which Jinja2 would run):
    a first build and a build that loads every file again (players.yaml changed) both ask for the worker."""
    from league.engine.build import build
    asked = []
    real = L._load_workers
    monkeypatch.setattr(L, "_load_workers",
                        lambda tasks, todo, busy=False, **kw: asked.append((busy, len(todo))) or real(tasks, todo, busy, **kw))
    cache = tmp_path / "cache"
    build(content, tmp_path / "site", cache_dir=cache, search=False)
    _edit(content / "players.yaml", "# Jogadores", "# Os jogadores")   # every stage depends on players.yaml
    build(content, tmp_path / "site", cache_dir=cache, search=False)
    n = len(list(content.glob("seasons/*/*/*.yaml")))   # every stage and championship, loaded again
    assert asked == [(True, n), (True, n)]
    assert {p.suffix for p in cache.rglob("*") if p.is_file()} == {".entry"}   # no compiled template


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    return synth(tmp_path_factory.mktemp("synth") / "content",
                 "--seasons", "4", "--teams", "8", "--championships", "2", "--seed", "3")


def test_workers_loading_whole_seasons_also_rank_them(archive, tmp_path, monkeypatch):
    """With enough seasons, each process takes whole seasons and caches their annual rankings too (this
    one as well, while the worker loads): the results equal a one-by-one load's, and compute() then finds
    every season's rankings in the cache, ranking none after the load."""
    from league.site.api import api_files
    from league.engine.cache import Cache
    from league.engine.compute import compute
    import time
    one = check(archive, cache_dir=False)
    _workers(monkeypatch, 2)
    parent, fresh, here = os.getpid(), Loader.task_fresh, set()

    def slow_here(self, league, task, key):   # this process is slow: the worker surely takes some seasons
        if os.getpid() == parent:
            here.add(task.season.year)
            time.sleep(0.05)
        return fresh(self, league, task, key)

    monkeypatch.setattr(Loader, "task_fresh", slow_here)
    cache = Cache(tmp_path / "cache")
    loader = Loader(archive, cache)
    league = loader.load()
    assert loader.workers == 2 and loader.fallbacks == 0
    assert 0 < len(here) < len(league.seasons)   # each process took whole seasons, the biggest first
    before = cache.misses
    results = compute(league, loader.diags, cache, loader.stage_keys)
    assert cache.misses == before   # every season ranked while loading: by the worker or by this process
    assert api_files(results) == api_files(one.results)
    warm = check(archive, cache_dir=tmp_path / "cache")
    assert api_files(warm.results) == api_files(one.results)


def test_an_edited_file_is_loaded_and_its_season_ranked_by_a_worker_while_the_rest_is_read_back(
        archive, tmp_path, monkeypatch):
    """A rebuild after one stage file changed, with many entries to read back (READBACK_MIN_ENTRIES): a worker
    loads that file and ranks its season — reading the season's other stages back itself — while this process
    reads the rest back. The results equal a one-by-one load's, compute() finds that season's rankings in the
    cache (it ranks nothing), and an entry found corrupted meanwhile is loaded here, with its warning."""
    from league.site.api import api_files
    from league.engine.cache import Cache
    from league.engine.compute import compute
    content = tmp_path / "content"
    shutil.copytree(archive, content)
    stages = sorted(content.glob("seasons/*/truco/*.yaml"))
    edited, other = stages[-1], stages[0]   # the last season's, and the first season's: corrupted in the cache
    assert edited.parent.parent != other.parent.parent
    filled = check(content, cache_dir=tmp_path / "cache")   # every entry cached, rankings too
    corrupt = filled.stage_keys[Loader(content).rel(other)]
    edited.write_text(edited.read_text(encoding="utf-8") + "# conferido\n", encoding="utf-8")  # new bytes, same stage
    cache = Cache(tmp_path / "cache")
    cache._path(corrupt).write_bytes(b"not a pickle")
    one = check(content, cache_dir=False)
    monkeypatch.setattr(L, "READBACK_MIN_ENTRIES", 3)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    parent, fresh, here = os.getpid(), Loader.task_fresh, []

    def spy(self, league, task, key):
        if os.getpid() == parent:
            here.append(task.path)
        return fresh(self, league, task, key)
    monkeypatch.setattr(Loader, "task_fresh", spy)
    loader = Loader(content, cache)
    league = loader.load()
    assert loader.workers == 2 and loader.fallbacks == 0
    assert here == [other]   # the edited file was loaded by the worker; the corrupted entry's file here, after
    assert any("corrompida" in w for w in cache.warnings)
    before = cache.misses
    results = compute(league, loader.diags, cache, loader.stage_keys)
    assert cache.misses == before   # every season's rankings found: the edited one's, ranked by the worker
    assert api_files(results) == api_files(one.results)


def test_a_rebuild_after_a_stage_edit_does_not_import_pydantic_here(archive, tmp_path):
    """The edited file is validated in the worker (above); league.yaml, the season.yaml files, clubs.yaml,
    players.yaml and the pages come from the cache: this process never imports pydantic (~0.15 s of a
    one-score rebuild) nor PyYAML (~0.02 s), and the site is the one a cold build makes."""
    import subprocess
    import sys
    from league.engine.build import build
    content = tmp_path / "content"
    shutil.copytree(archive, content)
    build(content, tmp_path / "site", cache_dir=tmp_path / "cache", search=False)
    stage = sorted(content.glob("seasons/*/truco/*.yaml"))[-1]
    stage.write_text(stage.read_text(encoding="utf-8") + "# conferido\n", encoding="utf-8")
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "import league.engine.load_plan as L\n"
        "L.READBACK_MIN_ENTRIES = 3\n"
        "os.sched_getaffinity = lambda pid: {0, 1}\n"
        "from league.engine.build import build\n"
        "report = build(Path(sys.argv[1]), Path(sys.argv[2]), cache_dir=Path(sys.argv[3]), search=False)\n"
        "print(report.rendered, 'pydantic' in sys.modules, 'league.content.schema' in sys.modules, 'yaml' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script, str(content), str(tmp_path / "site"), str(tmp_path / "cache")],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout.split()
    assert int(out[0]) > 0 and out[1:] == ["False", "False", "False"]   # nor PyYAML (league.content.marked)
    build(content, tmp_path / "cold", cache_dir=False, search=False)
    assert _site_files(tmp_path / "site") == _site_files(tmp_path / "cold")


def test_a_rebuild_after_a_stage_edit_compiles_no_template_while_reading_back(archive, tmp_path, monkeypatch):
    """After one small edit, with many entries to read back, this process reads them back while a worker loads
    the edited file: it does not compile every template meanwhile as well (on the archive that made a new-score
    rebuild 0.1 s longer), the pages compile the templates they use. A first build still compiles them
    meanwhile; both sites are the ones a cold build makes."""
    import league.engine.parallel_load as P
    import league.site.render as R
    from league.engine.build import build
    content = tmp_path / "content"
    shutil.copytree(archive, content)
    monkeypatch.setattr(L, "READBACK_MIN_ENTRIES", 3)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    compiled, plans = [], []
    real_env, real_plan = R.prepare_env, P.plan_load
    monkeypatch.setattr(R, "prepare_env", lambda *a: compiled.append(a[1]) or real_env(*a))
    monkeypatch.setattr(P, "plan_load", lambda *a: plans.append(real_plan(*a)) or plans[-1])
    build(content, tmp_path / "site", cache_dir=tmp_path / "cache", search=False)
    assert compiled == ["pt_BR"] and plans[-1].busy and plans[-1].workers == 2   # a first build: meanwhile
    stage = sorted(content.glob("seasons/*/truco/*.yaml"))[-1]
    stage.write_text(stage.read_text(encoding="utf-8") + "# conferido\n", encoding="utf-8")
    report = build(content, tmp_path / "site", cache_dir=tmp_path / "cache", search=False)
    assert report.rendered > 0
    plan = plans[-1]
    assert len(plan.todo) == 1 and plan.readback and plan.workers == 2   # the worker loads the edited file
    assert not plan.busy and compiled == ["pt_BR"]                         # and nothing compiled meanwhile
    build(content, tmp_path / "cold", cache_dir=False, search=False)
    assert _site_files(tmp_path / "site") == _site_files(tmp_path / "cold")


def test_an_unwritable_cache_is_reported_once_as_by_a_one_by_one_load(content, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be\n", encoding="utf-8")
    one = check(content, cache_dir=blocker / "cache")
    _workers(monkeypatch, 2)
    many = check(content, cache_dir=blocker / "cache")
    assert [d.format_text() for d in many.diagnostics] == [d.format_text() for d in one.diagnostics]
    assert sum(d.code == "cache" for d in many.diagnostics) == 1


def _site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("locale", ["pt_BR", "en"])
def test_templates_compiled_while_the_files_load_give_the_same_site(content, tmp_path, monkeypatch, locale):
    """With workers loading the files, `league build` compiles its templates meanwhile (Loader.meanwhile):
    the site is the one a one-process load builds, byte for byte, in the content's language, and the
    language active before the build is active after it."""
    import league.site.render as R
    from league import i18n
    from league.engine.build import build
    yaml = content / "league.yaml"
    text = yaml.read_text(encoding="utf-8")
    assert "locale: pt_BR" in text
    yaml.write_text(text.replace("locale: pt_BR", f"locale: {locale}"), encoding="utf-8")
    build(content, tmp_path / "one", cache_dir=False, search=False)
    _workers(monkeypatch, 2)
    compiled, real = [], R.prepare_env
    monkeypatch.setattr(R, "prepare_env", lambda *a: compiled.append(a[1]) or real(*a))
    before = i18n.current()
    build(content, tmp_path / "two", cache_dir=False, search=False)
    assert compiled == [locale] and i18n.current() == before
    assert _site_files(tmp_path / "two") == _site_files(tmp_path / "one")


def test_a_broken_template_is_reported_as_without_workers(content, tmp_path, monkeypatch):
    """A template that does not compile fails the build with Jinja2's error, whether the templates were
    compiled while the files loaded or afterwards; nothing is written."""
    import jinja2
    from league.engine.build import build
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "league" / "templates", templates)
    (templates / "team.html").write_text("{% extends 'base.html' %}{% block main %}{% if %}{% endblock %}\n",
                                         encoding="utf-8")
    errors = []
    for workers in (1, 2):
        _workers(monkeypatch, workers)
        with pytest.raises(jinja2.TemplateSyntaxError) as exc:
            build(content, tmp_path / f"site{workers}", templates=templates, cache_dir=False, search=False)
        errors.append((exc.value.name, exc.value.lineno, exc.value.message))
        assert not (tmp_path / f"site{workers}").exists()
    monkeypatch.undo()   # with a cache
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    with pytest.raises(jinja2.TemplateSyntaxError) as exc:
        build(content, tmp_path / "site3", templates=templates, cache_dir=tmp_path / "cache", search=False)
    errors.append((exc.value.name, exc.value.lineno, exc.value.message))
    assert not (tmp_path / "site3").exists()
    assert errors[0] == errors[1] == errors[2] and errors[0][0] == "team.html"


def test_what_a_failing_worker_sent_before_it_failed_is_kept(archive, monkeypatch):
    """The worker sends its results season by season as it goes; one that fails in its second season has
    sent the first: this process loads only the files the worker had not sent (the season it failed in,
    and whatever was left), and the result equals a one-by-one load's."""
    from league.site.api import api_files
    one = check(archive, cache_dir=False)
    _workers(monkeypatch, 2)
    parent, fresh = os.getpid(), Loader.task_fresh
    seen: list = []          # in the worker: the seasons it loaded files of
    here: list = []          # in this process: the files it loaded

    def failing_later(self, league, task, key):
        import time
        if os.getpid() != parent:
            if task.season.year not in seen:
                seen.append(task.season.year)
            if len(seen) == 2:
                raise RuntimeError("worker crashed in its second season")
        else:
            here.append(task.path)
            time.sleep(0.02)   # slow here: the worker surely takes a season before this process is done
        return fresh(self, league, task, key)

    monkeypatch.setattr(Loader, "task_fresh", failing_later)
    loader = Loader(archive, None)
    league = loader.load()
    assert loader.workers == 2 and loader.fallbacks == 1
    every = [st.path for s in league.seasons for st in s.stages] + \
        [c.path for s in league.seasons for c in s.championships]
    assert len(set(here)) == len(here) < len(every)   # the first season the worker sent was not loaded again
    from league.engine.compute import compute
    assert api_files(compute(league, loader.diags, None)) == api_files(one.results)


def test_a_failure_in_the_workers_share_of_meanwhile_loses_nothing(content, monkeypatch):
    """meanwhile_share runs in a load worker after it has sent its files: if it fails, the worker still
    counts as done (nothing is loaded again) and the load is the one-by-one load."""
    from league.site.api import api_files
    one = check(content, cache_dir=False)
    ran = []
    marker = content.parent / "share-ran"

    def share(league):
        ran.append(league.name)   # in the worker: not seen here
        marker.write_text(str(os.getpid()))
        raise RuntimeError("boom")
    loader = Loader(content, None)
    loader.meanwhile, loader.meanwhile_busy, loader.meanwhile_share = (lambda league: None), (lambda league: True), share
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    league = loader.load()
    assert loader.workers == 2 and loader.fallbacks == 0 and ran == []
    assert int(marker.read_text()) != os.getpid()   # it ran, in the worker
    from league.engine.compute import compute
    assert api_files(compute(league, loader.diags, None)) == api_files(one.results)


