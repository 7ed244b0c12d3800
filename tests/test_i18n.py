"""Translations (issue 5, item 8): every interface text goes through Babel's catalogs and Jinja2's i18n
extension; pt_BR (the default) and en are complete; `locale:` in league.yaml selects the language, and
dates, numbers and money follow it. pt_BR's plural rule is gettext's (0 and 1 singular), not the three
forms Babel's CLDR data would put in the header."""
from __future__ import annotations

import datetime as dt
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from league import i18n
from league.engine.build import build

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ("pt_BR", "en")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
NBSP = "\xa0"


def catalog(locale: str):
    with i18n.po_path(locale).open("rb") as fh:
        return read_po(fh, locale=locale)


def strings(s) -> tuple:
    return tuple(s) if isinstance(s, (tuple, list)) else (s,)


@pytest.fixture(autouse=True)
def default_locale():
    """Each test starts and ends with the default locale (the build's setting is process-wide)."""
    i18n.activate("pt_BR")
    yield
    i18n.activate("pt_BR")


# ---------------------------------------------------------------- plural forms

@pytest.mark.parametrize("n, expected", [(0, "0 jogador"), (1, "1 jogador"), (2, "2 jogadores"),
                                         (3, "3 jogadores")])
def test_pt_br_plural_zero_and_one_are_singular(n, expected):
    with i18n.using("pt_BR"):
        assert i18n.plural(n, "%(num)s jogador", "%(num)s jogadores") == expected


@pytest.mark.parametrize("n, expected", [(0, "0 players"), (1, "1 player"), (2, "2 players")])
def test_en_plural(n, expected):
    with i18n.using("en"):
        assert i18n.plural(n, "%(num)s jogador", "%(num)s jogadores") == expected


def test_pt_br_catalog_header_has_two_plural_forms():
    cat = catalog("pt_BR")
    assert cat.num_plurals == 2
    assert cat.plural_expr == "(n > 1)"
    header = i18n.po_path("pt_BR").read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in header
    # the compiled catalog carries it: gettext's plural function, not Babel's CLDR one (three forms)
    compiled = i18n.translations("pt_BR")
    assert [compiled.plural(n) for n in (0, 1, 2, 1_000_000)] == [0, 0, 1, 1]


def test_templates_get_the_plural_rule_too(tmp_path):
    import jinja2
    (tmp_path / "t.html").write_text('{{ ngettext("%(num)s jogador", "%(num)s jogadores", n) }}', encoding="utf-8")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)), autoescape=True)
    i18n.install(env, "pt_BR")
    assert [env.get_template("t.html").render(n=n) for n in (0, 1, 2)] == ["0 jogador", "1 jogador", "2 jogadores"]


# ---------------------------------------------------------------- the catalogs are complete

@pytest.mark.parametrize("locale", LOCALES)
def test_every_msgid_is_translated(locale):
    cat = catalog(locale)
    entries = [m for m in cat if m.id]
    assert len(entries) > 250
    for m in entries:
        ids, strs = strings(m.id), strings(m.string)
        assert "fuzzy" not in m.flags, m.id
        assert len(strs) == (cat.num_plurals if m.pluralizable else 1) and all(strs), f"{locale}: {m.id!r} untranslated"
        for s in strs:
            # the same placeholders as the msgid; no straight double quote (msgstrs go into attributes)
            assert set(PLACEHOLDER.findall(s)) == set(PLACEHOLDER.findall(ids[-1])), (locale, m.id, s)
            assert '"' not in s or '"' in ids[0], (locale, s)
        if locale == "pt_BR":  # msgids are the Portuguese text
            assert strs == (ids if m.pluralizable else ids[:1]), m.id


def test_catalogs_hold_every_string_of_the_code_and_templates(tmp_path, monkeypatch):
    """`make translations` was run: a fresh extraction finds nothing the catalogs lack."""
    from babel.messages.frontend import CommandLineInterface
    monkeypatch.chdir(ROOT)
    pot = tmp_path / "messages.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", "babel.cfg", "-k", "L_", "-k", "_n:2,3",
                                "-o", str(pot), "."])
    with pot.open("rb") as fh:
        fresh = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in read_po(fh) if m.id}
    assert len(fresh) > 250
    for locale in LOCALES:
        have = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog(locale) if m.id}
        assert fresh <= have, f"{locale}: run `make translations`: {sorted(map(str, fresh - have))[:10]}"


def test_make_translations_fixes_pt_br_plural_header_and_fills_its_msgstrs(tmp_path):
    """tools/translations' fix(): Babel's CLDR header for Portuguese (three forms) is replaced with gettext's, and
    pt_BR's msgstrs are its msgids."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("league_tools_translations", str(ROOT / "tools" / "translations"))
    tool = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(tool)
    po = tmp_path / "messages.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
                  '"Plural-Forms: nplurals=3; plural=(n == 0 ? 0 : n == 1 ? 1 : 2);\\n"\n\n'
                  'msgid "Clubes"\nmsgstr ""\n\n'
                  'msgid "%(num)s jogo"\nmsgid_plural "%(num)s jogos"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n',
                  encoding="utf-8")
    assert tool.fix("pt_BR", po) == []
    text = po.read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in text
    with po.open("rb") as fh:
        cat = read_po(fh, locale="pt_BR")
    assert cat.num_plurals == 2 and cat.plural_expr == "(n > 1)"
    assert cat["Clubes"].string == "Clubes"
    assert tuple(cat["%(num)s jogo"].string) == ("%(num)s jogo", "%(num)s jogos")


# ---------------------------------------------------------------- formats

def test_babel_formats_follow_the_locale():
    d = dt.date(2026, 3, 14)
    with i18n.using("pt_BR"):
        assert i18n.date_long(d) == "14 de março de 2026"
        assert i18n.date_short(d) == "14/03/2026"
        assert i18n.money(Decimal("1234.56")) == f"R${NBSP}1.234,56"
        assert i18n.money(Decimal("357.5")) == f"R${NBSP}357,50"
        assert i18n.number(1234) == "1.234" and i18n.number(Decimal("6.5")) == "6,50"
        assert [i18n.signed(v) for v in (12, -3, 0, None)] == ["+12", "−3", "0", "?"]
        assert [i18n.ordinal(n) for n in (1, 2, 3, 11, 21)] == ["1º", "2º", "3º", "11º", "21º"]
        assert i18n.position(3, True) == "3º="
        assert i18n.join(["Ana", "Bia", "Caio"]) == "Ana, Bia e Caio"
    with i18n.using("en"):
        assert i18n.date_long(d) == "March 14, 2026"
        assert i18n.date_short(d) == "3/14/2026"
        assert i18n.money(Decimal("1234.56")) == "R$1,234.56"
        assert i18n.number(1234) == "1,234" and i18n.number(Decimal("6.5")) == "6.50"
        assert [i18n.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101)] == \
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]
        assert i18n.join(["Ana", "Bia"]) == "Ana and Bia"
    assert i18n.current() == "pt_BR"  # `using` restores the locale it found


def test_unknown_locale_is_refused():
    with pytest.raises(ValueError):
        i18n.activate("fr")


@pytest.mark.parametrize("locale", LOCALES)
def test_remembered_formats_are_the_formats(locale):
    values = [Decimal(x) for x in ("0", "-0", "0.00", "2.5", "2.50", "-2.5", "1234.565", "0.005", "1E+3")]
    values += [0, -0.0, 0.0, 2.5, 10, -3, 1234567, "7.25"]
    with i18n.using(locale):
        for fn in (i18n.money, i18n.decimal, i18n.number, i18n.signed):
            for v in values * 2:  # the second time from memory
                try:
                    expected = fn.__wrapped__(v)
                except Exception as e:
                    expected = type(e)
                try:
                    got = fn(v)
                except Exception as e:
                    got = type(e)
                assert got == expected, (fn.__name__, v)
        assert i18n.join(["A", "B", "C"]) == i18n.join(("A", "B", "C"))


# ---------------------------------------------------------------- templates

def _template_env(locale: str, autoescape: bool = True):
    import jinja2
    env = jinja2.Environment(autoescape=autoescape, undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    i18n.install(env, locale)
    return env


@pytest.mark.parametrize("locale, source, expected", [
    ("en", '<th>{{ _("Clubes") }}</th>{% trans %}Jogadores{% endtrans %}', "<th>Clubs</th>Players"),
    ("pt_BR", '<th>{{ _("Clubes") }}</th>{% trans %}Jogadores{% endtrans %}', "<th>Clubes</th>Jogadores"),
    # newstyle gettext: the values are escaped, the translation is not; `%%` is a percent sign
    ("pt_BR", '{{ _("%(a)s & %(b)s", a=name, b=safe) }}|{{ _("100%% <b>certo</b>") }}',
     "Zé &amp; &lt;Cia&gt; & <i>ok</i>|100% <b>certo</b>"),
    ("pt_BR", '{% trans x=name %}Olá, {{ x }}!{% endtrans %}', "Olá, Zé &amp; &lt;Cia&gt;!"),
    ("en", '{{ ngettext("%(num)s jogador", "%(num)s jogadores", 1) }}, {{ ngettext("%(num)s jogador", '
           '"%(num)s jogadores", n) }}', "1 player, 3 players"),
    ("en", '{{ pgettext("abbreviation: wins", "V") }}', "W"),
    ("pt_BR", '{% set _ = "rebound" %}{{ _ }}', "rebound"),
    ("pt_BR", '{% autoescape false %}{{ _("%(x)s", x=name) }}{% endautoescape %}', "Zé & <Cia>"),
])
def test_templates_translate_and_escape_as_jinjas_newstyle_gettext(locale, source, expected):
    from markupsafe import Markup
    ctx = {"name": "Zé & <Cia>", "safe": Markup("<i>ok</i>"), "n": 3}
    assert _template_env(locale).from_string(source).render(ctx) == expected


def test_a_missing_placeholder_value_fails_at_render_time():
    import jinja2
    tpl = _template_env("pt_BR").from_string('{{ _("%(x)s") }}')
    with pytest.raises(KeyError):
        tpl.render()
    with pytest.raises(jinja2.UndefinedError):
        _template_env("pt_BR").from_string('{{ _("%(x)s", x=nada) }}').render()


# ---------------------------------------------------------------- the demo in both languages

def _build(tmp_path_factory, locale: str) -> Path:
    root = tmp_path_factory.mktemp(f"site-{locale}")
    content = root / "content"
    shutil.copytree(ROOT / "content", content)
    league = content / "league.yaml"
    text = league.read_text(encoding="utf-8")
    assert re.search(r"^locale: pt_BR$", text, re.M)
    league.write_text(re.sub(r"^locale: pt_BR$", f"locale: {locale}", text, flags=re.M), encoding="utf-8")
    build(content, root / "site", templates=ROOT / "league" / "templates", cache_dir=False, search=False)
    return root / "site"


@pytest.fixture(scope="module")
def site_en(tmp_path_factory) -> Path:
    return _build(tmp_path_factory, "en")


@pytest.fixture(scope="module")
def site_pt(tmp_path_factory) -> Path:
    return _build(tmp_path_factory, "pt_BR")


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def visible(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", "", html, flags=re.S)))


def test_english_site_has_english_interface_text(site_en):
    home = read(site_en, "index.html")
    assert '<html lang="en">' in home and '<meta property="og:locale" content="en_US">' in home
    for text in ("Skip to content", "Club ranking", "Pair ranking", "Latest results", "Upcoming stages",
                 "Quatrilho: latest championships", ">Clubs<", ">Players<", ">Search<", "updated on"):
        assert text in home, text
    for text in ("Pular para o conteúdo", "Ranking de clubes", "Últimos resultados", "atualizado em"):
        assert text not in home, text
    assert re.search(r'<span class="pos">1st</span>', home)
    season = read(site_en, "2026/index.html")
    assert "March 14, 2026" in season and "de março de" not in season
    assert "Annual club ranking" in season and "Tie-break" in season and ">finished<" in season
    stage = visible(read(site_en, "2026/truco/etapa-1/index.html"))
    for text in ("Final standings", "Pair standings", "Home pair", "ahead on", "host:"):
        assert text in stage, text
    champ = visible(read(site_en, "2026/quatrilho/chapeco/index.html"))
    for text in ("Champions and prizes", "Rounds and tables", "R$1,430.00", "R$357.50", "Round 1",
                 "Tied with", "net points", "medal and trophy"):
        assert text in champ, text
    assert "Classificação" not in champ and "Rodadas e mesas" not in champ
    assert "Page not found" in read(site_en, "404.html")
    feed = read(site_en, "feed.xml")
    assert 'xml:lang="en"' in feed and "news and results" in feed and "Result: " in feed
    assert "Status: finished." in read(site_en, "calendario.ics")


def test_no_interface_msgid_left_in_the_english_pages(site_en):
    """No Portuguese interface text that the catalog translates shows on a page (content aside)."""
    cat = catalog("en")
    phrases = [m.id for m in cat if m.id and isinstance(m.id, str) and len(m.id) >= 12 and "%" not in m.id
               and m.string != m.id and "<" not in m.id]
    assert len(phrases) > 80
    pages = [p for p in site_en.rglob("*.html") if not p.relative_to(site_en).parts[0] in ("noticias", "regulamento",
                                                                                            "sobre")]
    for page in pages:
        text = visible(page.read_text(encoding="utf-8"))
        left = [p for p in phrases if p in text]
        assert not left, (page.relative_to(site_en), left[:5])


def test_portuguese_site_is_the_default_and_unchanged_in_meaning(site_pt):
    home = read(site_pt, "index.html")
    assert '<html lang="pt-BR">' in home and '<meta property="og:locale" content="pt_BR">' in home
    for text in ("Pular para o conteúdo", "Ranking de clubes", "Ranking de duplas", "Últimos resultados",
                 "atualizado em", '<span class="pos">1º</span>'):
        assert text in home, text
    assert "14 de março de 2026" in read(site_pt, "2026/index.html")
    champ = read(site_pt, "2026/quatrilho/chapeco/index.html")
    assert f"R${NBSP}1.430,00" in champ and "1ª rodada" in champ and "Campeões e prêmios" in champ
    assert 'xml:lang="pt-BR"' in read(site_pt, "feed.xml")


def test_same_results_in_both_languages(site_en, site_pt):
    """Only the words change: the same pages and the same JSON API, byte for byte."""
    en = {p.relative_to(site_en).as_posix() for p in site_en.rglob("*") if p.is_file()}
    pt = {p.relative_to(site_pt).as_posix() for p in site_pt.rglob("*") if p.is_file()}
    assert en == pt
    for rel in sorted(x for x in en if x.startswith("api/")):
        assert read(site_en, rel) == read(site_pt, rel), rel


def test_season_title_default_is_translated(tmp_path):
    from tests.util import write_content
    content = write_content(tmp_path, {}, league="name: Liga\nshort_name: L\nbase_url: /\nlocale: en\n")
    build(content, tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=False, search=False)
    page = read(tmp_path / "site", "2026/index.html")
    assert "<h1>Season 2026</h1>" in page and "Temporada" not in page


def test_a_build_keeps_the_catalogs_compiled_in_its_cache_and_never_trusts_a_corrupted_one(tmp_path, monkeypatch):
    # compiling a .po takes ~0.02 s of every build: a build keeps the compiled catalog in its cache (use_cache),
    # under the .po's bytes and Babel's version; one whose bytes do not match their sha256 is compiled again,
    # with a warning
    from league.engine.cache import Cache
    compiled = []
    real = i18n.compile_po
    monkeypatch.setattr(i18n, "compile_po", lambda data, locale: compiled.append(locale) or real(data, locale))
    cache = Cache(tmp_path / "cache")
    try:
        i18n.use_cache(cache)
        i18n.translations.cache_clear()
        assert i18n.translations("en").ugettext("Jogadores") == "Players" and compiled == ["en"]
        i18n.translations.cache_clear()   # (another process)
        assert i18n.translations("en").ugettext("Jogadores") == "Players" and compiled == ["en"]   # read back
        key = i18n.catalog_key("en", i18n.po_path("en").read_bytes())
        mo, sha = cache.get(key)
        at = mo.find(b"Players")
        cache.put(key, (mo[:at] + b"Plbyers" + mo[at + 7:], sha))   # one byte changed, the pickle still valid
        i18n.translations.cache_clear()
        assert i18n.translations("en").ugettext("Jogadores") == "Players" and compiled == ["en", "en"]
        assert len(cache.warnings) == 1 and "corrompida" in cache.warnings[0]
        i18n.translations.cache_clear()
        assert i18n.translations("en").ugettext("Jogadores") == "Players" and compiled == ["en", "en"]   # replaced
    finally:
        i18n.use_cache(None)
        i18n.translations.cache_clear()
