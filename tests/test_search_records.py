"""Stubs sent to pagefind as custom records (AddRecord) instead of HTML (AddFile): `record(rel, stub)` writes
the text pagefind's HTML parser would make of the stub (its "digest": the body elements' text, a full stop
after a sentence, the h1's weight markers), with the same title, meta and language; pagefind then makes the
same index, byte for byte, without parsing HTML (~70 µs a page instead of ~130 on this machine). A stub of
another shape, or a text the emulation is not sure of, goes as HTML."""
from __future__ import annotations

from pathlib import Path

import pytest

from league.build import build
from league.search import (_executable, available, index_stubs, record, stubs_of_site, takes_records,
                           version_takes_records)

ROOT = Path(__file__).resolve().parent.parent
needs_pagefind = pytest.mark.skipif(not available(), reason="pagefind is not installed")


def _stub(h1: str, p: str | None = None, tipo: str = "Dupla") -> str:
    """A stub as league.search.stub makes of our templates' pages (texts as Jinja2 escapes them)."""
    body = f"<h1 data-pagefind-body>{h1}</h1>" + (f'\n<p class="meta" data-pagefind-body>{p}</p>' if p is not None else "")
    return ('<!doctype html>\n<html lang="pt-BR">\n<head>\n<title>T · FPRT</title>\n</head>\n<body>\n'
            f'<main id="conteudo" data-pagefind-meta="tipo:{tipo}">{body}</main>\n</body>\n</html>\n')


def test_a_pair_page_stub_as_a_record():
    # worked out from pagefind's parser (pagefind/src/fossick/parser.rs): the h1's text gets " " before, "."
    # after (it ends with a letter) and " " again, then the weight markers around it (h1: 7); the text node
    # "\n" between the bodies is kept; the p gets " " + text + "." + " "; the links' text is the p's text
    s = _stub("Ana e Bia", 'Dupla: <a href="/jogadores/ana/">Ana</a> e <a href="/jogadores/bia/">Bia</a>')
    assert record("duplas/ana--bia/index.html", s) == {
        "type": "AddRecord", "index_id": 0, "url": "/duplas/ana--bia/",
        "content": " ___PAGEFIND_AUTO_WEIGHT___7  Ana e Bia.  ___END_PAGEFIND_WEIGHT___ \n Dupla: Ana e Bia. ",
        "language": "pt-br", "meta": {"tipo": "Dupla", "title": "Ana e Bia"}}


def test_entities_are_decoded_after_the_full_stop_is_decided():
    # "Bar &amp;" ends with ";" as written (no full stop), though it reads "Bar &"; "D&#39;" ends with ";"
    # too; the title is the decoded text with its runs of spaces and newlines made one space
    r = record("a/index.html", _stub("Bar &amp;\n Lanches  &#39;D&#39;", "Sócio: D&#39;Ávila &amp;"))
    assert r["content"] == (" ___PAGEFIND_AUTO_WEIGHT___7  Bar &\n Lanches  'D'  ___END_PAGEFIND_WEIGHT___ \n"
                            " Sócio: D'Ávila & ")
    assert r["meta"]["title"] == "Bar & Lanches 'D'"


@pytest.mark.parametrize("text", [
    "Ana\u00a0Souza",        # a no-break space: Python's and Rust's whitespace rules differ around it
    "Ana\tSouza",            # a tab: likewise
    "Clube&nbsp;Alfa",       # an entity Jinja2 never writes
    "Clube Ⓐ",               # ends with a symbol that Rust's \w counts as a letter (Other_Alphabetic)
    "Jose\u0301",            # ends with a combining mark
    "___PAGEFIND_WEIGHT___2 x",   # pagefind's own markers in the text
])
def test_texts_the_emulation_is_not_sure_of_go_as_html(text):
    assert record("a/index.html", _stub(text)) is None
    assert record("a/index.html", _stub("Ana", text)) is None


def test_other_shapes_go_as_html():
    assert record("a/index.html", _stub("Ana", '<abbr title="x">A</abbr>')) is None      # another element
    assert record("a/index.html", _stub("Ana", '<a id="x" href="/">A</a>')) is None       # an anchor
    assert record("a/index.html", _stub(" ")) is None                                     # no title in the h1
    img = _stub("Ana").replace("</h1>", '</h1><img src="a.svg" alt="a">')
    assert record("a/index.html", img) is None                                            # an image
    assert record("a/index.html", "<html><body><h1 data-pagefind-body>Ana</h1></body></html>") is None


def test_the_pagefind_versions_checked():
    assert version_takes_records("pagefind 1.5.2\n") and version_takes_records("pagefind 1.3.0")
    assert version_takes_records("pagefind_extended 1.4.0")
    assert not version_takes_records("pagefind 1.2.0")   # indexes a record otherwise (checked)
    assert not version_takes_records("pagefind 1.5.3")   # not checked yet: HTML
    assert not version_takes_records("pagefind 1.6.0") and not version_takes_records("pagefind 2.0.0")
    assert not version_takes_records("pagefind 1.5.2-beta.1") and not version_takes_records("pagefind 11.5.2")
    assert not version_takes_records("") and not version_takes_records("error")


AWKWARD = [   # (h1, p): names, places and dates as editors write them, escaped as Jinja2 writes them
    ("Bar &amp; Lanches", "Sede: <a href=\"/c/\">Bar &amp;</a>"),
    ("Clube do Zé &amp;", "Time &#34;A&#34;"),
    ("D&#39;Ávila Souza", "Dupla: <a href=\"/a/\">D&#39;Ávila</a> e <a href=\"/b/\">O&#39;</a>"),
    ("Ação (Campeã)", "Preço $"),
    ("Nota *", "1ª Etapa · 2º lugar"),
    ("Equipe — B", "Etapa…"),
    ("Final!", "Final?"),
    ("São João-", "Chapecó, SC."),
    ("Ana\nSouza", "Ana  Souza "),
    ("Ana <span class=\"x\">Maria</span> Souza", "2026"),
    ("Ana &lt;b&gt;", "<span class=\"badge final\">encerrada</span>"),
    ("Ana\u00a0Souza", "Clube Ⓐ"),   # these two go as HTML, beside the records, in the same index
]


@needs_pagefind
@pytest.mark.skipif(not available() or not takes_records(_executable()),
                    reason="this pagefind is not one the records were checked against")
def test_records_make_the_index_the_html_makes(tmp_path):
    stubs = {f"p{i:02d}/index.html": _stub(h1, p, tipo="Jogador" if i % 2 else "Dupla")
             for i, (h1, p) in enumerate(AWKWARD)}
    # a meta value with a colon and a comma; a `title` meta of its own, which wins over the h1's
    stubs["q1/index.html"] = _stub("Ana", "Sede: X").replace('"tipo:Dupla"', '"tipo:A: b, c"')
    stubs["q2/index.html"] = _stub("Ana", "Sede: X").replace('"tipo:Dupla"', '"title:Outro título"')
    assert record("q2/index.html", stubs["q2/index.html"])["meta"] == {"title": "Outro título"}
    as_records = [rel for rel, s in stubs.items() if record(rel, s) is not None]
    assert len(as_records) == len(AWKWARD) + 1   # all but the last of AWKWARD go as records
    html, records = tmp_path / "html", tmp_path / "records"
    html.mkdir()
    records.mkdir()
    assert index_stubs(stubs, html, records=False)
    assert index_stubs(stubs, records, records=True)
    expected = {p.relative_to(html).as_posix(): p.read_bytes() for p in sorted(html.rglob("*")) if p.is_file()}
    got = {p.relative_to(records).as_posix(): p.read_bytes() for p in sorted(records.rglob("*")) if p.is_file()}
    assert sorted(got) == sorted(expected)
    assert [name for name in expected if got[name] != expected[name]] == []


@needs_pagefind
def test_every_searchable_page_of_the_demo_goes_as_a_record(tmp_path):
    out = tmp_path / "site"
    build(ROOT / "content", out, templates=ROOT / "templates", cache_dir=tmp_path / "cache")
    stubs = stubs_of_site(out)
    assert len(stubs) > 300
    assert [rel for rel, s in stubs.items() if record(rel, s) is None] == []


_ALPHABET = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789áàâãéêíóôõúüçÁÉÍÓÚÇñ"
             "ªº°·—–-…'\"()[]$*.,;:!?&<>/#%+=_ \n\u00a0\u200bⓐ\u0301€£")


@needs_pagefind
@pytest.mark.skipif(not available() or not takes_records(_executable()),
                    reason="this pagefind is not one the records were checked against")
def test_records_make_the_index_the_html_makes_for_any_text(tmp_path):
    """Random names and meta lines (any of the characters above, escaped as Jinja2 escapes them, some in
    links or spans), 12 pages per index: the records' index is the HTML's, byte for byte."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from markupsafe import escape

    text = st.text(alphabet=_ALPHABET, min_size=1, max_size=24).map(lambda t: str(escape(t)))
    inline = st.one_of(text, text.map(lambda t: f'<a href="/x/">{t}</a>'),
                       text.map(lambda t: f'<span class="badge">{t}</span>'))
    line = st.lists(inline, min_size=1, max_size=4).map("".join)
    page = st.tuples(line, st.one_of(st.none(), line))
    runs = iter(range(10 ** 6))
    sent = [0, 0]   # pages sent as records, pages in all

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(page, min_size=12, max_size=12))
    def check(pages):
        stubs = {f"p{i:02d}/index.html": _stub(h1, p) for i, (h1, p) in enumerate(pages)}
        sent[0] += sum(record(rel, s) is not None for rel, s in stubs.items())
        sent[1] += len(stubs)
        k = next(runs)
        html, records = tmp_path / f"h{k}", tmp_path / f"r{k}"
        html.mkdir()
        records.mkdir()
        assert index_stubs(stubs, html, records=False)
        assert index_stubs(stubs, records, records=True)
        for a, b in zip(sorted(html.rglob("*")), sorted(records.rglob("*"))):
            assert a.relative_to(html) == b.relative_to(records)
            assert a.is_dir() or a.read_bytes() == b.read_bytes(), (a.relative_to(html), stubs)
    check()
    assert sent[0] > sent[1] / 4   # most texts here are ones the emulation writes (not only fallbacks)
