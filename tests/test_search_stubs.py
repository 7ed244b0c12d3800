"""Search index from page stubs: `stub(page)` keeps only what pagefind reads (the data-pagefind-body
heading and meta line, `<main>`'s data-pagefind-meta, `<html lang>`, the first image after the `h1`), and
pagefind's command line, given the stubs (written into a scratch folder), writes the same index, byte for
byte, as given the full pages; the same stubs always give the same index, and nothing is left behind."""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from league.engine.build import build
from league.site.search import (SCRATCH_PREFIX, SearchError, available, index_stubs, run_pagefind, start_index_stubs,
                           stub, stubs_digest, stubs_of_site)

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not available(), reason="pagefind is not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("stubs")
    out = tmp / "site"
    build(ROOT / "content", out, templates=ROOT / "league" / "templates", cache_dir=tmp / "cache")
    return out


def _files(index: Path) -> dict[str, bytes]:
    return {p.relative_to(index).as_posix(): p.read_bytes() for p in sorted(index.rglob("*")) if p.is_file()}


def _page(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


def test_stub_keeps_the_heading_and_meta_line_and_drops_the_rest(site):
    html = _page(site, "2026/truco/etapa-1/index.html")
    s = stub(html)
    assert s is not None and len(s) < len(html) / 20
    h1 = re.search(r"<h1 data-pagefind-body>.*?</h1>", html).group(0)
    meta = re.search(r'<p class="meta" data-pagefind-body>.*?</p>', html).group(0)
    assert h1 in s and meta in s
    assert '<html lang="pt-BR">' in s and 'data-pagefind-meta="tipo:' in s
    for gone in ("Confrontos do", "<table", "<nav", "<footer", "data-pagefind-ignore", "crumbs"):
        assert gone in html and gone not in s
    # a club page: its chart (whose alt text has positions and points) is data-pagefind-ignore="all", so a
    # score change does not change what is indexed; the stub keeps no image
    club = next((site / "clubes").glob("*/index.html")).read_text(encoding="utf-8")
    assert re.search(r"<img [^>]*>", club)
    assert "<img" not in stub(club) and "<table" not in stub(club)


def test_a_page_without_data_pagefind_body_has_no_stub(site):
    assert stub(_page(site, "index.html")) is None
    assert stub(_page(site, "busca/index.html")) is None
    assert stub('<html lang="pt-BR"><body><p>o atributo data-pagefind-body marca o texto</p></body></html>') is None


def _pages(site: Path, names) -> dict[str, str]:
    return {rel: (site / rel).read_text(encoding="utf-8") for rel in names}


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Path:
    """The folder pagefind's scratch folders are made in (TMPDIR, which league.site.search honours): to see
    that none is left."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_the_command_line_over_the_site_indexes_the_pages_the_stubs_index(site, tmp_path):
    # run_pagefind (pagefind --site over the written pages, in the order the file system lists them) finds
    # the same pages, under the same names, as the index made from the stubs
    full = tmp_path / "full"
    shutil.copytree(site, full, ignore=shutil.ignore_patterns("pagefind", ".pagefind-digest"))
    assert run_pagefind(full)
    entry = json.loads((full / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    built = json.loads((site / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert entry["languages"]["pt-br"]["page_count"] == built["languages"]["pt-br"]["page_count"] \
        == len(stubs_of_site(site))
    assert sorted(p.name for p in (full / "pagefind" / "fragment").iterdir()) == \
        sorted(p.name for p in (site / "pagefind" / "fragment").iterdir())   # fragments are named by content
    assert not (full / "pagefind" / "pagefind-ui.js").exists()


def test_index_from_stubs_is_byte_identical_to_the_index_of_the_full_pages(site, tmp_path):
    full = tmp_path / "full"
    shutil.copytree(site, full, ignore=shutil.ignore_patterns("pagefind", ".pagefind-digest"))
    stubs = stubs_of_site(full)
    assert "jogadores" in {k.split("/")[0] for k in stubs} and "index.html" not in stubs
    pages, dest = tmp_path / "pages", tmp_path / "dest"
    pages.mkdir()
    dest.mkdir()
    assert index_stubs(_pages(full, stubs), pages)   # the full pages that have a body, in path order
    assert index_stubs(dict(reversed(list(stubs.items()))), dest)   # the mapping's order does not matter
    expected, got = _files(pages / "pagefind"), _files(dest / "pagefind")
    assert sorted(got) == sorted(expected)
    assert [name for name in expected if got[name] != expected[name]] == []
    # and it is the index the build wrote (its scratch folder on the same file system: see league.site.search)
    assert _files(site / "pagefind") == got
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest", "full", "pages"]  # nothing else left


def test_unusual_pages_are_indexed_the_same_too(tmp_path, scratch):
    """Shapes the templates do not produce: an image inside data-pagefind-ignore="all" (not the page's
    image), anchors inside the body, an h1 outside the body, a meta attribute outside <main>."""
    head = '<!doctype html>\n<html lang="pt-BR">\n<head><title>T · X</title></head>\n<body>\n<nav><a href="/">X</a></nav>\n'
    pages = {
        "a/index.html": head + '<main id="c" data-pagefind-meta="tipo:A">\n<h1 data-pagefind-body>Ana Souza</h1>\n'
                        '<p data-pagefind-body>Clube: <a href="/c/">Alfa</a></p>\n<div data-pagefind-ignore="all">'
                        '<img src="x.svg" alt="não"></div>\n<p>12 pontos</p><img alt="sim" src="/y.svg"></main>\n</body></html>',
        "b/index.html": head + '<main><h1 data-pagefind-body>Bruno <span id="n">Lima</span></h1>\n'
                        '<section id="s"><p data-pagefind-body>meta</p></section></main></body></html>',
        "c/index.html": head + '<main><h1>Título de fora</h1><p data-pagefind-body>Carla</p></main></body></html>',
        "d/index.html": head + '<main><h1 data-pagefind-body>Davi</h1><p>3 jogos</p></main>'
                        '<aside data-pagefind-filter="ano:2026"></aside></body></html>',
        "e/index.html": head + '<main><p>sem corpo</p></main></body></html>',
        "f/index.html": head + '<main><h1 data-pagefind-body> </h1><p data-pagefind-body>Fábio</p><img src="f.svg" alt="f">'
                        '<h1>Outro título</h1><img src="g.svg" alt="g"></main></body></html>',
    }
    full = tmp_path / "full"
    for rel, text in pages.items():
        (full / rel).parent.mkdir(parents=True)
        (full / rel).write_text(text, encoding="utf-8")
    stubs = stubs_of_site(full)
    assert sorted(stubs) == ["a/index.html", "b/index.html", "c/index.html", "d/index.html", "f/index.html"]
    assert "12 pontos" not in stubs["a/index.html"] and "x.svg" not in stubs["a/index.html"]
    assert stubs["b/index.html"] == pages["b/index.html"]  # ids in the body: kept whole
    assert stubs["c/index.html"] == pages["c/index.html"]  # title from an h1 outside the body
    assert stubs["d/index.html"] == pages["d/index.html"]  # a filter outside <main>
    assert stubs["f/index.html"] == pages["f/index.html"]  # an empty h1: the title comes from further on
    whole, dest = tmp_path / "whole", tmp_path / "dest"
    whole.mkdir()
    dest.mkdir()
    assert index_stubs({rel: pages[rel] for rel in stubs}, whole)
    assert index_stubs(stubs, dest)
    assert _files(dest / "pagefind") == _files(whole / "pagefind")
    assert list(scratch.iterdir()) == []


def test_digest_follows_names_not_scores(site):
    stubs = stubs_of_site(site)
    digest = stubs_digest(stubs)
    assert stubs_digest(dict(reversed(list(stubs.items())))) == digest  # order of the mapping is irrelevant
    rel = "2026/truco/etapa-1/index.html"
    html = _page(site, rel)
    # a score outside the indexed elements (a table cell further down the page)
    cell = re.search(r"<td>(\d+)</td>", html[html.index("</p>", html.index("data-pagefind-body")):])
    assert cell is not None
    at = html.index(cell.group(0), html.index("data-pagefind-body"))
    changed = html[:at] + f"<td>{int(cell.group(1)) + 1}</td>" + html[at + len(cell.group(0)):]
    assert changed != html and stub(changed) == stubs[rel]
    assert stubs_digest({**stubs, rel: stub(changed)}) == digest
    # a renamed stage
    name = re.search(r"<h1 data-pagefind-body>(.*?)</h1>", html).group(1)
    renamed = html.replace(f">{name}</h1>", f">{name} (adiada)</h1>")
    assert stubs_digest({**stubs, rel: stub(renamed)}) != digest
    # a page that appears or moves
    assert stubs_digest({**stubs, "x/index.html": stubs[rel]}) != digest
    moved = {("y/index.html" if k == rel else k): v for k, v in stubs.items()}
    assert stubs_digest(moved) != digest


def test_background_indexing_and_failure_leave_no_temporary_files(site, tmp_path, scratch):
    stubs = {k: v for k, v in stubs_of_site(site).items() if k.startswith("clubes/")}
    dest = tmp_path / "dest"
    dest.mkdir()
    handle = start_index_stubs(stubs, dest)
    assert not (dest / "pagefind").exists()  # the caller works meanwhile
    assert handle.wait() is True and handle.wait() is True
    assert (dest / "pagefind" / "pagefind.js").is_file() and not (dest / "pagefind" / "pagefind-ui.js").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest", "scratch"] and list(scratch.iterdir()) == []
    entry = json.loads((dest / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert entry["languages"]["pt-br"]["page_count"] == len(stubs)
    # indexing again replaces the index, with the same files
    before = _files(dest / "pagefind")
    assert index_stubs(stubs, dest) and _files(dest / "pagefind") == before
    # cancelled: nothing written, nothing left
    other = tmp_path / "other"
    other.mkdir()
    start_index_stubs(stubs, other).cancel()
    assert list(other.iterdir()) == [] and list(scratch.iterdir()) == []
    # nothing to index: said, nothing left
    with pytest.raises(SearchError, match="nenhuma página a indexar"):
        index_stubs({}, other)
    with pytest.raises(ValueError):
        index_stubs({"../fora.html": "<html></html>"}, other)
    assert list(other.iterdir()) == [] and list(scratch.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest", "other", "scratch"]


def _fake_pagefind(tmp_path: Path, script: str, monkeypatch) -> Path:
    fake = tmp_path / "pagefind"
    fake.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(fake))
    return fake


def test_a_failing_pagefind_is_reported_with_its_message_and_leaves_nothing(site, tmp_path, monkeypatch, scratch):
    stubs = {k: v for k, v in stubs_of_site(site).items() if k.startswith("clubes/")}
    _fake_pagefind(tmp_path, "echo 'erro simulado do pagefind' >&2\nexit 3\n", monkeypatch)
    dest = tmp_path / "dest"
    dest.mkdir()
    with pytest.raises(SearchError, match=r"pagefind falhou \(3\): erro simulado do pagefind"):
        index_stubs(stubs, dest)
    assert list(dest.iterdir()) == [] and list(scratch.iterdir()) == []
    # a build whose index fails writes nothing: the previous site stays as it was
    out = tmp_path / "site"
    shutil.copytree(site, out)
    (out / ".pagefind-digest").write_text("outro", encoding="utf-8")   # the index must be made again
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    with pytest.raises(SearchError, match="erro simulado do pagefind"):
        build(ROOT / "content", out, templates=ROOT / "league" / "templates", cache_dir=False)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest", "pagefind", "scratch", "site"]
    assert list(scratch.iterdir()) == []


def test_a_full_scratch_folder_is_said_with_where_to_put_another(site, tmp_path, monkeypatch, scratch):
    import builtins
    stubs = {k: v for k, v in stubs_of_site(site).items() if k.startswith("clubes/")}
    real_open = builtins.open

    def full(path, mode="r", *args, **kwargs):
        if "w" in mode and str(path).startswith(str(scratch)):
            raise OSError(28, "No space left on device", str(path))
        return real_open(path, mode, *args, **kwargs)
    monkeypatch.setattr(builtins, "open", full)
    with pytest.raises(SearchError, match="No space left on device.*TMPDIR"):
        index_stubs(stubs, tmp_path)
    assert list(scratch.iterdir()) == []


def test_cancel_stops_a_running_pagefind_at_once_and_leaves_nothing(site, tmp_path, monkeypatch, scratch):
    stubs = {k: v for k, v in stubs_of_site(site).items() if k.startswith("clubes/")}
    _fake_pagefind(tmp_path, f"touch {tmp_path}/started\nexec sleep 60\n", monkeypatch)
    handle = start_index_stubs(stubs, tmp_path)
    deadline = time.monotonic() + 30
    while not (tmp_path / "started").exists():
        assert time.monotonic() < deadline, "pagefind did not start"
        time.sleep(0.01)
    assert len(list(scratch.iterdir())) == 1   # the stubs, being indexed
    t = time.monotonic()
    handle.cancel()
    assert time.monotonic() - t < 5
    assert handle._proc.poll() is not None and not handle._thread.is_alive()
    assert list(scratch.iterdir()) == []
    with pytest.raises(RuntimeError, match="cancelada"):
        handle.files()


def test_league_build_says_the_search_index_failed_and_exits_1(tmp_path, monkeypatch):
    from click.testing import CliRunner
    from league.cli import main
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", "/bin/false")
    out = tmp_path / "site"
    res = CliRunner().invoke(main, ["build", "--content", str(ROOT / "content"), "--out", str(out)])
    assert res.exit_code == 1, res.output
    assert "o índice de busca não pôde ser gerado: pagefind falhou" in res.output
    assert "--no-search" in res.output and "continua como estava" in res.output
    assert not out.exists()


@pytest.fixture
def stopped(monkeypatch) -> list:
    """The StubIndexing handles that cancel() stopped, (pagefind's process or None, its thread), after."""
    import league.site.search as S
    handles: list = []
    cancel = S.StubIndexing.cancel

    def spy(self):
        cancel(self)
        handles.append((self._proc, self._thread))
    monkeypatch.setattr(S.StubIndexing, "cancel", spy)
    return handles


def _ended(stopped: list) -> bool:
    return all((proc is None or proc.poll() is not None) and (thread is None or not thread.is_alive())
               for proc, thread in stopped)


def test_a_build_that_fails_while_pagefind_runs_stops_it(tmp_path, monkeypatch, stopped, scratch):
    import league.engine.searchindex as SI

    def fail(writer, started):
        raise OSError("disco cheio")
    monkeypatch.setattr(SI, "finish_search_index", fail)
    with pytest.raises(OSError, match="disco cheio"):
        build(ROOT / "content", tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=False)
    assert len(stopped) == 1 and _ended(stopped)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scratch"] and list(scratch.iterdir()) == []


def test_a_stream_of_stubs_makes_the_same_index_as_the_stubs_given_at_once(site, tmp_path):
    # the build gives each page's stub as soon as it is rendered (add), then finish()es: the index is the
    # one of the same stubs given at once, in whichever order they came
    stubs = stubs_of_site(site)
    whole = tmp_path / "whole"
    whole.mkdir()
    assert index_stubs(stubs, whole)
    for order in (sorted(stubs), sorted(stubs, reverse=True)):
        streamed = start_index_stubs(None, tmp_path)
        for rel in order:
            streamed.add(rel, stubs[rel])
        streamed.finish()
        with pytest.raises(RuntimeError):
            streamed.add("outra/index.html", "<html></html>")   # nothing after finish()
        files = streamed.files()
        assert files == {f"pagefind/{k}": v for k, v in _files(whole / "pagefind").items()}
    # an empty stream is "nothing to index", reported
    empty = start_index_stubs(None, tmp_path)
    empty.finish()
    with pytest.raises(SearchError, match="nenhuma página a indexar"):
        empty.files()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["whole"]


def test_a_stream_writes_the_stubs_while_they_come_and_pagefind_runs_at_finish(site, tmp_path, scratch):
    stubs = {k: v for k, v in stubs_of_site(site).items() if k.startswith("clubes/")}
    handle = start_index_stubs(None, tmp_path)
    for rel in sorted(stubs):
        handle.add(rel, stubs[rel])
    deadline = time.monotonic() + 30
    while True:   # (a file the writing thread has made may not have its bytes yet: wait for them all)
        folders = list(scratch.iterdir())
        got = ({p.relative_to(folders[0] / "site").as_posix(): p.read_text(encoding="utf-8")
                for p in folders[0].rglob("*.html")} if len(folders) == 1 else {})
        if got == stubs:
            break
        assert time.monotonic() < deadline, f"the stubs were not written ({len(got)} of {len(stubs)})"
        time.sleep(0.01)
    assert handle._proc is None   # pagefind waits for finish()
    assert folders[0].name.startswith(SCRATCH_PREFIX)
    handle.finish()
    assert "pagefind/pagefind-entry.json" in handle.files()   # returns while the scratch folder is deleted
    handle.cancel()   # which is over once cancel() returns
    assert list(scratch.iterdir()) == []
    assert "pagefind/pagefind-entry.json" in handle.files()   # the index stays


def test_a_cold_build_indexes_while_it_renders_in_two_processes_and_writes_the_same_site(tmp_path, monkeypatch):
    # a cold build (no previous site, no cache) starts pagefind before rendering and feeds it each page's
    # stub as it is rendered, in path order, from both processes (the demo is made big enough to fork:
    # PARALLEL_MIN 1): the site, index included, is byte for byte the one of a build that indexes after
    import league.engine.searchindex as SI
    import league.engine.rendering as R
    import league.site.search as S
    if R.workers_for(10 ** 6) < 2:
        pytest.skip("one core: the build renders in one process")
    streams = []
    start = S.start_index_stubs

    def spy(stubs, dest):
        handle = start(stubs, dest)
        streams.append(stubs is None)
        return handle
    monkeypatch.setattr(S, "start_index_stubs", spy)
    monkeypatch.setattr(R, "PARALLEL_MIN", 1)
    streamed = tmp_path / "streamed"
    build(ROOT / "content", streamed, templates=ROOT / "league" / "templates", cache_dir=False)
    assert streams == [True]
    monkeypatch.setattr(SI, "index_reusable", lambda writer, cache: True)   # index after rendering
    after = tmp_path / "after"
    build(ROOT / "content", after, templates=ROOT / "league" / "templates", cache_dir=False)
    assert streams == [True, False]
    files = _files(streamed)
    assert files == _files(after)
    assert any(rel.startswith("pagefind/fragment/") for rel in files)
    # the charts, written by the process that rendered their page, are the in-memory render's, all of them
    from league.engine.build import check, render_files
    memory = render_files(check(ROOT / "content", cache_dir=False).results, ROOT / "league" / "templates")
    charts = {rel: data for rel, data in memory.items() if rel.endswith(".svg")}
    assert charts and {rel: data for rel, data in files.items() if rel.endswith(".svg")} == \
        {rel: data.encode("utf-8") if isinstance(data, str) else data for rel, data in charts.items()}


def test_pagefind_is_told_the_pages_are_all_in_once_the_last_searchable_page_is_rendered():
    # the build renders the searchable pages (SEARCH_KINDS) first, by path, then the others: the stubs go
    # to pagefind in path order whichever process rendered them, and it is told to build the index after
    # the last searchable page, not after the last page. Jobs (path, template): two searchable, two not
    from league.engine.searchindex import StubOrder, job_order
    from league.site.render import PageJob

    class Handle:
        def __init__(self):
            self.calls = []

        def add(self, rel, text):
            self.calls.append(("add", rel, text))

        def finish(self):
            self.calls.append(("finish",))
    jobs = [("2026/index.html", "season.html"), ("duplas/a--b/index.html", "pair.html"), ("api/2026/", None),
            ("index.html", "index.html"), ("2026/truco/e1/index.html", "stage.html")]
    jobs = [PageJob(path, template, None) for path, template in jobs]
    jobs.sort(key=job_order)
    assert [job.path for job in jobs] == ["2026/truco/e1/index.html", "duplas/a--b/index.html",
                                        "2026/index.html", "index.html", "api/2026/"]
    h = Handle()
    order = StubOrder(h, jobs)
    order.put(1, "dupla")          # rendered first, by another process: waits for job 0
    assert h.calls == []
    order.put(0, "etapa")
    assert h.calls == [("add", "2026/truco/e1/index.html", "etapa"), ("add", "duplas/a--b/index.html", "dupla"),
                       ("finish",)]
    order.put(3, None)             # the pages that are not searched: nothing more to send
    order.put(2, None)
    assert len(h.calls) == 3 and not order.spoiled
    order.put(2, "<html>…")        # …unless templates of one's own gave one a data-pagefind-body
    assert order.spoiled and len(h.calls) == 3


def test_templates_that_index_another_kind_of_page_get_the_index_of_every_page_in_path_order(tmp_path, monkeypatch):
    # a season page (not in SEARCH_KINDS) made searchable by one's own templates: its stub comes after
    # pagefind was told the pages were all in, so the build indexes every stub again, in path order —
    # the same site, index included, as a build that indexes after rendering
    import league.engine.searchindex as SI
    import league.engine.rendering as R
    import league.site.search as S
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "league" / "templates", templates)
    season = templates / "season.html"
    text = season.read_text(encoding="utf-8")
    assert "<h1>{{ season.title }}</h1>" in text
    season.write_text(text.replace("<h1>{{ season.title }}</h1>", "<h1 data-pagefind-body>{{ season.title }}</h1>"),
                      encoding="utf-8")
    streams = []
    start = S.start_index_stubs

    def spy(stubs, dest):
        streams.append(stubs is None)
        return start(stubs, dest)
    monkeypatch.setattr(S, "start_index_stubs", spy)
    monkeypatch.setattr(R, "PARALLEL_MIN", 1)
    build(ROOT / "content", tmp_path / "streamed", templates=templates, cache_dir=False)
    assert streams == [True, False]   # the stream, given up; then every stub at once
    monkeypatch.setattr(SI, "index_reusable", lambda writer, cache: True)
    build(ROOT / "content", tmp_path / "after", templates=templates, cache_dir=False)
    assert streams == [True, False, False]
    files = _files(tmp_path / "streamed")
    assert files == _files(tmp_path / "after")
    seasons = [rel for rel in files if re.fullmatch(r"\d{4}/index\.html", rel)]
    assert seasons and stub(files[seasons[0]].decode("utf-8")) is not None   # the season page is indexed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["after", "streamed", "templates"]


def test_a_worker_failing_while_pagefind_indexes_stops_it_and_writes_nothing(tmp_path, monkeypatch, stopped, scratch):
    import league.engine.rendering as R
    if R.workers_for(10 ** 6) < 2:
        pytest.skip("one core: the build renders in one process")
    monkeypatch.setattr(R, "PARALLEL_MIN", 1)
    render_page = R.render_page
    parent = os.getpid()

    def flaky(plan, job):
        if os.getpid() != parent and job.path.startswith("jogadores/"):
            raise ValueError("falha simulada no worker")
        return render_page(plan, job)
    monkeypatch.setattr(R, "render_page", flaky)
    with pytest.raises(RuntimeError, match="falha simulada no worker"):
        build(ROOT / "content", tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=False)
    assert len(stopped) == 1 and _ended(stopped)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scratch"] and list(scratch.iterdir()) == []


@pytest.mark.parametrize("how", ["files", "unfinished stream"])
def test_a_process_that_exits_right_after_leaves_no_scratch_folder(site, tmp_path, how):
    # files() returns while the scratch folder is being deleted; a stream nobody finished waits for pages:
    # at exit, both are stopped and their folders deleted (and the process does not hang)
    import subprocess
    import sys
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    code = ("import sys\nfrom pathlib import Path\nfrom league.site.search import start_index_stubs, stubs_of_site\n"
            "stubs = {k: v for k, v in stubs_of_site(Path(sys.argv[1])).items() if k.startswith('clubes/')}\n")
    if how == "files":
        code += "assert start_index_stubs(stubs, Path('.')).files()\n"
    else:
        code += ("import os, time\nh = start_index_stubs(None, Path('.'))\nfor rel in sorted(stubs):\n"
                 "    h.add(rel, stubs[rel])\n"
                 "while not any(f for _d, _s, f in os.walk(os.environ['TMPDIR'])):\n    time.sleep(0.01)\n")
    r = subprocess.run([sys.executable, "-c", code, str(site)], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120, env={**os.environ, "TMPDIR": str(scratch)})
    assert r.returncode == 0, r.stderr
    assert list(scratch.iterdir()) == []


def test_a_pagefind_that_writes_no_index_is_a_failure(site, tmp_path, monkeypatch, scratch):
    stubs = {k: v for k, v in stubs_of_site(site).items() if k.startswith("clubes/")}
    _fake_pagefind(tmp_path, "exit 0\n", monkeypatch)
    handle = start_index_stubs(stubs, tmp_path)
    for _ in range(2):   # asked again, the same answer
        with pytest.raises(SearchError, match="pagefind não escreveu o índice"):
            handle.files()
    handle.cancel()
    assert list(scratch.iterdir()) == []
