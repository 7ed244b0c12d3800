"""Search index from page stubs: `stub(page)` keeps only what pagefind reads (the data-pagefind-body
heading and meta line, `<main>`'s data-pagefind-meta, `<html lang>`, the first image after the `h1`), and
pagefind's service, given the stubs, writes the same index, byte for byte, as given the full pages in the
same order — which is what its command line writes over the site when it lists the pages in that order."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from league.build import build
from league.search import (available, index_stubs, run_pagefind, start_index_stubs, stub, stubs_digest,
                           stubs_of_site)

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not available(), reason="pagefind is not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("stubs")
    out = tmp / "site"
    build(ROOT / "content", out, templates=ROOT / "templates", cache_dir=tmp / "cache")
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


def _listed(site: Path) -> list[str]:
    """The site's pages in the order the file system lists them: the order pagefind's command line takes."""
    order = []
    for dirpath, _dirs, names in os.walk(site):
        order += [Path(os.path.relpath(os.path.join(dirpath, n), site)).as_posix() for n in names if n.endswith(".html")]
    return order


def test_the_service_writes_what_the_command_line_writes_for_the_same_pages_in_the_same_order(site, tmp_path):
    full = tmp_path / "full"
    shutil.copytree(site, full, ignore=shutil.ignore_patterns("pagefind", ".pagefind-digest"))
    assert run_pagefind(full)
    dest = tmp_path / "dest"
    dest.mkdir()
    assert index_stubs(_pages(full, _listed(full)), dest, in_order=True)
    expected, got = _files(full / "pagefind"), _files(dest / "pagefind")
    assert sorted(got) == sorted(expected)
    assert [name for name in expected if got[name] != expected[name]] == []


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
    # and it is the index the build wrote
    assert _files(site / "pagefind") == got
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest", "full", "pages"]  # nothing else left


def test_unusual_pages_are_indexed_the_same_too(tmp_path):
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


def test_background_indexing_and_failure_leave_no_temporary_files(site, tmp_path):
    stubs = {k: v for k, v in stubs_of_site(site).items() if k.startswith("clubes/")}
    dest = tmp_path / "dest"
    dest.mkdir()
    handle = start_index_stubs(stubs, dest)
    assert not (dest / "pagefind").exists()  # the caller works meanwhile
    assert handle.wait() is True and handle.wait() is True
    assert (dest / "pagefind" / "pagefind.js").is_file() and not (dest / "pagefind" / "pagefind-ui.js").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest"]
    # indexing again replaces the index
    assert index_stubs(stubs, dest) and (dest / "pagefind" / "pagefind-entry.json").is_file()
    # cancelled: nothing written, nothing left
    other = tmp_path / "other"
    other.mkdir()
    start_index_stubs(stubs, other).cancel()
    assert list(other.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["dest", "other"]
    # pagefind fails (nothing to index): its message, nothing left
    with pytest.raises(RuntimeError, match="pagefind"):
        index_stubs({}, other)
    assert list(other.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["dest", "other"]
    with pytest.raises(ValueError):
        index_stubs({"../fora.html": "<html></html>"}, other)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest", "other"]


def test_a_failing_pagefind_is_reported_with_its_message_and_leaves_nothing(site, tmp_path, monkeypatch):
    stubs = {k: v for k, v in stubs_of_site(site).items() if k.startswith("clubes/")}
    broken = tmp_path / "pagefind"
    broken.write_text("#!/bin/sh\necho 'erro simulado do pagefind' >&2\nexit 3\n", encoding="utf-8")
    broken.chmod(0o755)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(broken))
    dest = tmp_path / "dest"
    dest.mkdir()
    with pytest.raises(RuntimeError, match="erro simulado do pagefind"):
        index_stubs(stubs, dest)
    assert list(dest.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["dest", "pagefind"]
    # a build whose index fails writes nothing: the previous site stays as it was
    out = tmp_path / "site"
    shutil.copytree(site, out)
    (out / ".pagefind-digest").write_text("outro", encoding="utf-8")   # the index must be made again
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    with pytest.raises(RuntimeError, match="erro simulado do pagefind"):
        build(ROOT / "content", out, templates=ROOT / "templates", cache_dir=False)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest", "pagefind", "site"]


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
    """The pagefind processes that StubIndexing.cancel() stopped (each still there to ask how it ended)."""
    import league.search as S
    procs: list = []
    cancel = S.StubIndexing.cancel

    def spy(self):
        procs.append(self._proc)
        cancel(self)
    monkeypatch.setattr(S.StubIndexing, "cancel", spy)
    return procs


def test_a_build_that_fails_while_pagefind_runs_stops_it(tmp_path, monkeypatch, stopped):
    import league.build as B

    def fail(writer, started):
        raise OSError("disco cheio")
    monkeypatch.setattr(B, "_finish_search_index", fail)
    with pytest.raises(OSError, match="disco cheio"):
        build(ROOT / "content", tmp_path / "site", templates=ROOT / "templates", cache_dir=False)
    assert len(stopped) == 1 and stopped[0] is not None and stopped[0].poll() is not None  # it was running; it ended
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_stream_of_stubs_makes_the_same_index_as_the_stubs_given_at_once(site, tmp_path):
    # the build sends each page's stub as soon as it is rendered (add), in path order, then finish()es:
    # pagefind numbers the pages in the order received, so the index is the one of the same stubs at once
    stubs = stubs_of_site(site)
    whole = tmp_path / "whole"
    whole.mkdir()
    assert index_stubs(stubs, whole)
    streamed = start_index_stubs(None, tmp_path)
    for rel in sorted(stubs):
        streamed.add(rel, stubs[rel])
    streamed.finish()
    with pytest.raises(RuntimeError):
        streamed.add("outra/index.html", "<html></html>")   # nothing after finish()
    files = streamed.files()
    assert files == {f"pagefind/{k}": v for k, v in _files(whole / "pagefind").items()}
    # an empty stream is pagefind's "nothing to index", reported, pagefind stopped
    empty = start_index_stubs(None, tmp_path)
    empty.finish()
    with pytest.raises(RuntimeError, match="nenhuma página a indexar"):
        empty.files()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["whole"]


def test_a_cold_build_indexes_while_it_renders_in_two_processes_and_writes_the_same_site(tmp_path, monkeypatch):
    # a cold build (no previous site, no cache) starts pagefind before rendering and feeds it each page's
    # stub as it is rendered, in path order, from both processes (the demo is made big enough to fork:
    # PARALLEL_MIN 1): the site, index included, is byte for byte the one of a build that indexes after
    import league.build as B
    import league.render as R
    import league.search as S
    if R.workers_for(10 ** 6) < 2:
        pytest.skip("one core: the build renders in one process")
    streams = []
    start = S.start_index_stubs

    def spy(stubs, dest, in_order=False):
        handle = start(stubs, dest, in_order)
        streams.append(stubs is None)
        return handle
    monkeypatch.setattr(S, "start_index_stubs", spy)
    monkeypatch.setattr(R, "PARALLEL_MIN", 1)
    streamed = tmp_path / "streamed"
    build(ROOT / "content", streamed, templates=ROOT / "templates", cache_dir=False)
    assert streams == [True]
    monkeypatch.setattr(B, "_index_reusable", lambda writer, cache: True)   # index after rendering
    after = tmp_path / "after"
    build(ROOT / "content", after, templates=ROOT / "templates", cache_dir=False)
    assert streams == [True, False]
    files = _files(streamed)
    assert files == _files(after)
    assert any(rel.startswith("pagefind/fragment/") for rel in files)
    # the charts, written by the process that rendered their page, are the in-memory render's, all of them
    from league.build import check, render_files
    memory = render_files(check(ROOT / "content", cache_dir=False).results, ROOT / "templates")
    charts = {rel: data for rel, data in memory.items() if rel.endswith(".svg")}
    assert charts and {rel: data for rel, data in files.items() if rel.endswith(".svg")} == \
        {rel: data.encode("utf-8") if isinstance(data, str) else data for rel, data in charts.items()}


def test_pagefind_is_told_the_pages_are_all_in_once_the_last_searchable_page_is_rendered():
    # the build renders the searchable pages (SEARCH_KINDS) first, by path, then the others: the stubs go
    # to pagefind in path order whichever process rendered them, and it is told to build the index after
    # the last searchable page, not after the last page. Jobs (path, template): two searchable, two not
    from league.build import _StubOrder, _job_order

    class Handle:
        def __init__(self):
            self.calls = []

        def add(self, rel, text):
            self.calls.append(("add", rel, text))

        def finish(self):
            self.calls.append(("finish",))
    jobs = [("2026/index.html", "season.html"), ("duplas/a--b/index.html", "pair.html"), ("api/2026/", None),
            ("index.html", "index.html"), ("2026/truco/e1/index.html", "stage.html")]
    jobs = [(path, template, None, None, None) for path, template in jobs]
    jobs.sort(key=_job_order)
    assert [job[0] for job in jobs] == ["2026/truco/e1/index.html", "duplas/a--b/index.html",
                                        "2026/index.html", "index.html", "api/2026/"]
    h = Handle()
    order = _StubOrder(h, jobs)
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
    import league.build as B
    import league.render as R
    import league.search as S
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    season = templates / "season.html"
    text = season.read_text(encoding="utf-8")
    assert "<h1>{{ season.title }}</h1>" in text
    season.write_text(text.replace("<h1>{{ season.title }}</h1>", "<h1 data-pagefind-body>{{ season.title }}</h1>"),
                      encoding="utf-8")
    streams = []
    start = S.start_index_stubs

    def spy(stubs, dest, in_order=False):
        streams.append(stubs is None)
        return start(stubs, dest, in_order)
    monkeypatch.setattr(S, "start_index_stubs", spy)
    monkeypatch.setattr(R, "PARALLEL_MIN", 1)
    build(ROOT / "content", tmp_path / "streamed", templates=templates, cache_dir=False)
    assert streams == [True, False]   # the stream, given up; then every stub at once
    monkeypatch.setattr(B, "_index_reusable", lambda writer, cache: True)
    build(ROOT / "content", tmp_path / "after", templates=templates, cache_dir=False)
    assert streams == [True, False, False]
    files = _files(tmp_path / "streamed")
    assert files == _files(tmp_path / "after")
    seasons = [rel for rel in files if re.fullmatch(r"\d{4}/index\.html", rel)]
    assert seasons and stub(files[seasons[0]].decode("utf-8")) is not None   # the season page is indexed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["after", "streamed", "templates"]


def test_a_worker_failing_while_pagefind_indexes_stops_it_and_writes_nothing(tmp_path, monkeypatch, stopped):
    import league.render as R
    if R.workers_for(10 ** 6) < 2:
        pytest.skip("one core: the build renders in one process")
    monkeypatch.setattr(R, "PARALLEL_MIN", 1)
    render_page = R.render_page
    parent = os.getpid()

    def flaky(plan, job):
        if os.getpid() != parent and job[0].startswith("jogadores/"):
            raise ValueError("falha simulada no worker")
        return render_page(plan, job)
    monkeypatch.setattr(R, "render_page", flaky)
    with pytest.raises(RuntimeError, match="falha simulada no worker"):
        build(ROOT / "content", tmp_path / "site", templates=ROOT / "templates", cache_dir=False)
    assert len(stopped) == 1 and stopped[0] is not None and stopped[0].poll() is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == []
