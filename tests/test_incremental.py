"""An incremental build (warm cache, previous site in place) gives byte-identical output to a cold build
of the same content: after changing a score, deleting a stage, renaming a club and changing league.yaml."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from league.engine.build import build

ROOT = Path(__file__).resolve().parent.parent


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _change_score(c: Path) -> None:

    stage = c / "seasons/2026/truco/etapa-4.yaml"
    text = stage.read_text(encoding="utf-8")
    # the first plain board line "12-a b-12 …": swap its first game's loser pontinhos by one point
    import re
    m = re.search(r'"12-(\d) ', text)
    assert m
    pts = int(m.group(1))
    stage.write_text(text[:m.start()] + f'"12-{(pts + 1) % 11} ' + text[m.end():], encoding="utf-8")


def _delete_stage(c: Path) -> None:
    (c / "seasons/2026/truco/etapa-4.yaml").unlink()
    for news in (c / "news").glob("*.md"):
        text = news.read_text(encoding="utf-8")
        if "etapa-4" in text:
            news.unlink()


def _rename_club(c: Path) -> None:
    _edit(c / "clubs.yaml", "name: ", "name: Renomeado ")


def _change_league(c: Path) -> None:
    _edit(c / "league.yaml", "ranking_points: [20, 16, 12, 8, 6, 4, 3, 2]",
          "ranking_points: [25, 21, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]")


@pytest.mark.parametrize("change", [_change_score, _delete_stage, _rename_club, _change_league],
                         ids=["score", "delete-stage", "rename-club", "league-yaml"])
def test_incremental_build_equals_cold_build(tmp_path, change):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    cache = tmp_path / "cache"
    site = tmp_path / "site"
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)   # warm cache, previous site
    change(content)
    report = build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)
    assert report.unchanged > 0, "the incremental build reuses unchanged files"
    build(content, tmp_path / "cold", templates=ROOT / "league" / "templates", cache_dir=False)
    assert _tree(site) == _tree(tmp_path / "cold")


def test_a_rebuild_in_two_processes_counts_each_file_once(tmp_path, monkeypatch):
    # a rebuild that keeps some pages (their keys unchanged) and renders the others in two processes (the
    # demo made big enough to fork: PARALLEL_MIN 1): a forked worker's copy of the tally starts with what
    # this process had counted before the fork (the kept pages), and only what it wrote itself comes back.
    # A Quatrilho championship renamed: its page, its season's pages and its players' pages are rendered
    # again, the other pages kept; the report counts every file of the site once, as a one-process rebuild does
    import league.engine.rendering as R
    if R.workers_for(10 ** 6) < 2:
        pytest.skip("one core: the build renders in one process")

    def rebuild(name: str, parallel_min: int):
        monkeypatch.setattr(R, "PARALLEL_MIN", parallel_min)
        c, out, cache = tmp_path / name / "content", tmp_path / name / "site", tmp_path / name / "cache"
        shutil.copytree(ROOT / "content", c)
        build(c, out, templates=ROOT / "league" / "templates", cache_dir=cache, search=False)
        _edit(c / "seasons/2026/quatrilho/chapeco.yaml", "name: ", "name: Renomeado ")
        forks = []
        fork = R.workers_for
        monkeypatch.setattr(R, "workers_for", lambda n: forks.append(fork(n)) or fork(n))
        report = build(c, out, templates=ROOT / "league" / "templates", cache_dir=cache, search=False)
        monkeypatch.setattr(R, "workers_for", fork)
        files = sum(1 for p in out.rglob("*") if p.is_file() and p.name != ".league-build.json")   # (its manifest)
        return report, files, max(forks)
    one, one_files, one_forks = rebuild("one", 10 ** 9)
    two, two_files, two_forks = rebuild("two", 1)
    assert (one_forks, two_forks) == (1, 2)
    assert 0 < two.rendered < two.pages and two.rendered == one.rendered
    assert (two.files, two.written, two.unchanged) == (one.files, one.written, one.unchanged)
    assert two.files == two_files == one_files == one.files


def test_a_build_leaves_no_reference_cycle_holding_its_results(tmp_path):
    # league serve builds again and again in one process. The loaded content is frozen for the collector
    # during a build (league.engine.cache.gc_paused), so its full passes, which alone free reference cycles, come
    # rarely: a cycle through the results (Charts wrapped by a closure over its own method) kept every
    # rebuild's whole results alive — on the 20-season archive +100 MB and +530,000 objects a rebuild,
    # 1.4 GB after 12 edits. Reference counting alone must free a build's results once its report is gone.
    import gc
    import weakref
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        report = build(ROOT / "content", tmp_path / "site", templates=ROOT / "league" / "templates",
                       cache_dir=tmp_path / "cache", search=False)
        results = weakref.ref(report.results)
        del report
        assert results() is None, [type(r).__name__ for r in gc.get_referrers(results())]
    finally:
        if was:
            gc.enable()


def test_rebuilding_in_one_process_keeps_the_live_objects_flat(tmp_path):
    # the same from the other end, for any cycle (not only through the results): five rebuilds after an
    # edit, as league serve makes them, with the collector off. On the demo each rebuild left ~10,300 more
    # objects with the Charts cycle; now ~400 (Jinja2's environment of each build: a few cycles of its
    # own, freed by the collector's next pass, no content in them)
    import gc
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    stage = content / "seasons" / "2026" / "truco" / "etapa-1.yaml"
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    counts = []
    try:
        for i in range(5):
            stage.write_text(stage.read_text(encoding="utf-8") + f"\n# edição {i}\n", encoding="utf-8")
            build(content, tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=tmp_path / "cache",
                  search=False)
            counts.append(len(gc.get_objects()))
    finally:
        if was:
            gc.enable()
    growth = [b - a for a, b in zip(counts[1:], counts[2:])]   # after the first rebuild's warm-up
    assert max(growth) < 2_000, (counts, growth)


def test_a_team_page_follows_its_squad_pairs_pages(tmp_path):
    # aa's squad lists six pairs; a pair links to its page, which it has when it played somewhere. Pair 6 of aa
    # sits out etapa-1 and plays board 5 of etapa-2 ({home: 6, ...}): aa's page links it. Then etapa-2's board
    # 5 goes back to pair 5: pair 6 never plays, has no page, and aa's page lists it unlinked — though nothing
    # aa's page shows of either stage changed (the same places, results and squads)
    from tests.util import squad, write_content

    def stage_text(name, date, fifth):
        return (f"name: {name}\ndate: {date}\nstatus: final\n"
                f"teams: {{aa: {squad('aa', 6)}, bb: {squad('bb', 6)}}}\n"
                "phases:\n  - name: Fase de grupos\n    groups:\n      Grupo A:\n        teams: [aa, bb]\n"
                "        matches:\n          - home: aa\n            away: bb\n            boards:\n"
                + "".join('              - "12-5 12-5"\n' for _ in range(4)) + f"              - {fifth}\n")
    content = write_content(tmp_path, {"etapa-1": stage_text("1ª Etapa", "2026-03-14", '"5-12 5-12"'),
                                       "etapa-2": stage_text("2ª Etapa", "2026-04-11",
                                                             '{home: 6, away: 5, score: "5-12 5-12"}')},
                            clubs=["aa", "bb"], pairs_per_team=6)
    cache, site = tmp_path / "cache", tmp_path / "site"
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)
    team_page = site / "equipes" / "aa" / "index.html"
    assert team_page.read_text(encoding="utf-8").count('href="/duplas/aa-6a--aa-6b/"') == 1
    _edit(content / "seasons/2026/truco/etapa-2.yaml", '{home: 6, away: 5, score: "5-12 5-12"}', '"5-12 5-12"')
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)
    assert not (site / "duplas" / "aa-6a--aa-6b").exists()
    assert 'href="/duplas/aa-6a--aa-6b/"' not in team_page.read_text(encoding="utf-8")
    build(content, tmp_path / "cold", templates=ROOT / "league" / "templates", cache_dir=False)
    assert _tree(site) == _tree(tmp_path / "cold")


def test_keys_worked_out_beside_the_render_serve_the_next_rebuild(tmp_path, monkeypatch):
    # two builds that render every page and need no key before rendering: one from a warm cache with site/
    # deleted, one after a template edit that changes no page (every key starts with the templates' digest,
    # so none can match the previous build's). Their keys are worked out by a forked process while the pages
    # render (helpers.start_keys_helper); what it hands back must be what the next rebuild relies on: after a
    # score change that rebuild renders only the pages that show it (a small part of the site) and its site
    # equals a cold build's
    import league.engine.helpers as H
    import league.engine.rendering as R
    if R.workers_for(10 ** 6) < 2:
        pytest.skip("one core: the build renders in one process")
    started = []
    real = H.start_keys_helper
    monkeypatch.setattr(H, "start_keys_helper", lambda jobs, keys: started.append(len(jobs)) or real(jobs, keys))
    content, cache, site = tmp_path / "content", tmp_path / "cache", tmp_path / "site"
    shutil.copytree(ROOT / "content", content)
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "league" / "templates", templates)
    # (without a search index, so that no pagefind runs after the pages, beside which the build's own process
    # works the keys out itself: the first, cold, build takes the helper too)
    first = build(content, site, templates=templates, cache_dir=cache, search=False)
    assert first.rendered == first.pages and len(started) == 1
    shutil.rmtree(site)
    warm = build(content, site, templates=templates, cache_dir=cache, search=False)   # site/ gone, cache kept
    assert warm.rendered == warm.pages == first.pages and len(started) == 2
    base = templates / "base.html"
    base.write_text("{# a comment: no page changes #}" + base.read_text(encoding="utf-8"), encoding="utf-8")
    full = build(content, site, templates=templates, cache_dir=cache, search=False)
    assert full.rendered == full.pages and full.written == 0 and len(started) == 3
    _change_score(content)
    again = build(content, site, templates=templates, cache_dir=cache, search=False)
    assert len(started) == 3 and 0 < again.rendered < again.pages // 4   # the keys needed first: worked out here
    build(content, tmp_path / "cold", templates=templates, cache_dir=False, search=False)
    assert _tree(site) == _tree(tmp_path / "cold")


def test_pages_rendered_to_the_same_bytes_keep_their_stubs_and_the_index_stays_right(tmp_path, monkeypatch):
    # a template edit renders every page again (every key starts with the templates' digest); a page that comes
    # out with the bytes of its file in site/ has that file's search stub, whose hash the previous build
    # recorded: it is not cut out again (render._share, SitePlan.previous_stubs). Counted here in every process
    # (the workers are forked after the patch): a comment in base.html changes no page, so no stub is cut; a new
    # word in every pair page's title changes the pair pages (and their stubs) only, so exactly those are cut,
    # the index is made again from them and from the others read back from site/, and the site equals a cold
    # build's, index included. With another league's record (its stubs could be others) every stub is cut.
    import os
    import sys
    import league.engine.searchindex as SI
    import league.site.search as S
    if not S.available():
        pytest.skip("pagefind is not installed")
    tally = tmp_path / "stubs-cut"
    real = S.stub

    def counted(html):   # a stub cut from a page just rendered (not one read back from site/ for a new index)
        if sys._getframe(1).f_code.co_name == "_share":
            fd = os.open(tally, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            os.write(fd, b"x")
            os.close(fd)
        return real(html)

    def cut() -> int:
        n = tally.stat().st_size if tally.exists() else 0
        tally.unlink(missing_ok=True)
        return n
    content, cache, site = tmp_path / "content", tmp_path / "cache", tmp_path / "site"
    shutil.copytree(ROOT / "content", content)
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "league" / "templates", templates)
    first = build(content, site, templates=templates, cache_dir=cache)
    monkeypatch.setattr(S, "stub", counted)
    base = templates / "base.html"
    base.write_text("{# a comment: no page changes #}" + base.read_text(encoding="utf-8"), encoding="utf-8")
    full = build(content, site, templates=templates, cache_dir=cache)
    assert full.rendered == full.pages == first.pages and full.written == 0
    assert cut() == 0
    pairs = sum(1 for p in (site / "duplas").rglob("index.html"))
    assert pairs > 10
    _edit(templates / "pair.html", "<h1 data-pagefind-body>{{ name }}</h1>", "<h1 data-pagefind-body>Dupla {{ name }}</h1>")
    changed = build(content, site, templates=templates, cache_dir=cache)
    assert changed.rendered == changed.pages and cut() == pairs
    build(content, tmp_path / "cold", templates=templates, cache_dir=False)
    assert _tree(site) == _tree(tmp_path / "cold")
    assert cut() == first.pages   # (the cold build cuts every page's: nothing to reuse)
    monkeypatch.setattr(SI, "stub_code", lambda: "another league")
    base.write_text("{# another comment #}" + base.read_text(encoding="utf-8"), encoding="utf-8")
    other = build(content, site, templates=templates, cache_dir=cache)
    assert other.written == 0 and cut() == other.pages
