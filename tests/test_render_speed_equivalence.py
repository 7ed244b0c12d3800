"""Rendering shortcuts change no output (league/i18n.py, "Jinja2: the same output, faster"): interface text
translated when a template is compiled, `{{ … }}` escaped without a Markup per value, a dict's keys read
in place. Every page of the demo site, in both languages, is rendered with and without them and compared
byte for byte; small templates pin the corner cases (escaping, `%`, names a template rebinds, errors)."""
from __future__ import annotations

import decimal
import shutil
from pathlib import Path

import jinja2
import pytest
from markupsafe import Markup, escape

from league import i18n

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def default_locale():
    i18n.activate("pt_BR")
    yield
    i18n.activate("pt_BR")


def _without_speed_ups(monkeypatch):
    monkeypatch.setattr(i18n, "speed_up", lambda env, catalog: None)


# ---------------------------------------------------------------- the whole demo site

@pytest.mark.skipif(not (ROOT / "content" / "league.yaml").exists(), reason="no demo content")
@pytest.mark.parametrize("locale", ["pt_BR", "en"])
def test_demo_site_is_byte_identical_without_the_speed_ups(tmp_path, monkeypatch, locale):
    from league.build import check, render_files
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    yaml = content / "league.yaml"
    text = yaml.read_text(encoding="utf-8")
    assert "locale: pt_BR" in text
    yaml.write_text(text.replace("locale: pt_BR", f"locale: {locale}"), encoding="utf-8")
    results = check(content, cache_dir=False).results
    fast = render_files(results, templates=ROOT / "templates")
    with monkeypatch.context() as m:
        _without_speed_ups(m)
        plain = render_files(results, templates=ROOT / "templates")
    assert sorted(fast) == sorted(plain)
    pages = [p for p in plain if p.endswith(".html")]
    assert len(pages) > 50
    differ = [p for p in plain if fast[p] != plain[p]]
    assert not differ, f"{len(differ)} files differ, e.g. {differ[:5]}"


# ---------------------------------------------------------------- corner cases, template by template

def _env(speed: bool, autoescape=True) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.DictLoader({}), autoescape=autoescape,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    if speed:
        i18n.install(env, "pt_BR")
    else:
        with pytest.MonkeyPatch.context() as m:
            _without_speed_ups(m)
            i18n.install(env, "pt_BR")
    return env


def _render(env, source: str, **ctx):
    try:
        return env.from_string(source).render(**ctx)
    except Exception as e:  # the same failure, or the same text
        return ("raised", type(e))


class Html:
    def __html__(self):
        return "<b>já seguro</b>"


def _stop():
    raise StopIteration


@jinja2.pass_context
def _with_context(context, x):
    return f"{x}:{context.get('n')}"


class _CallsWithContext:
    @jinja2.pass_context
    def __call__(self, context, x):
        return f"<{x}{context.get('n')}>"


class _Site:
    root = "/r/"

    def url(self, *parts, end="/"):
        return self.root + "/".join(parts) + end


CTX = {"name": "Zé & <Cia> \"aspas\" 'apóstrofo'", "n": 3, "zero": 0, "neg": -7, "big": 10 ** 20, "flag": True,
       "none": None, "dec": decimal.Decimal("2.50"), "flt": 1.5, "safe": Markup("<i>ok</i>"), "html": Html(),
       "lazy": i18n.L_("Clubes"), "row": {"pos": "1º", "items": "chave items", "values": 7, "name": "<x>"},
       "rows": [{"pos": "1º", "team": "A&B"}, {"pos": "2º", "team": "C<D"}],
       "stop": _stop, "ctxf": _with_context, "cc": _CallsWithContext(), "site": _Site(), "fn": lambda *a, **k: (a, k)}

CASES = [
    '{{ _("Pos.") }}|{{ _("Clubes") }}|{{ gettext("Jogadores") }}',
    '{{ _("texto que não está no catálogo & <b>marcação</b> 100%% certo") }}',
    '{{ _("%(x)s e %(y)s", x=name, y=n) }}',
    '{{ _("%(x)s e %(x)s, %%", x=safe) }}',
    '{{ _("%(x)s", x=html) }} {{ _("%(x)s", x=none) }} {{ _("%(x)s", x=dec) }} {{ _("%(x)s", x=flt) }}',
    '{{ _("%(x)s") }}',                                    # a variable missing: fails at render time
    '{{ _("%(x)s", x=missing_name) }}',                    # an undefined variable (StrictUndefined)
    '{{ _("sem variável", x=1) }}',
    '{{ _("%(a)s/%(b)s", b=n, a=missing_name) }}|{{ _("%(a)s", a=n, b=missing_name.attr) }}',
    '{{ _("%(a)d de %(b)5s", a=n, b=name) }}|{{ _("%(a)s", a=n|string ~ "<") }}',  # other conversions
    '{% set x = _("%(a)s & %(b)s", a=name, b=safe) %}{{ x }}|{{ x|length }}|{{ x is string }}|{{ x ~ name }}',
    '{% macro cap(c) %}<caption>{{ c }}</caption>{% endmacro %}{{ cap(_("%(a)s: %(a)s", a=name)) }}',
    '{{ _(name) }}',
    '{{ pgettext("abbreviation: wins", "V") }} {{ pgettext("ctx", "%(context)s: %(n)s", n=n) }}',
    '{{ ngettext("%(num)s jogo", "%(num)s jogos", 1) }} {{ ngettext("%(num)s jogo", "%(num)s jogos", n) }}',
    '{{ ngettext("%(num)s resultado", "%(num)s resultados", 2, num="{n}") }}',
    '{% trans %}Grupos{% endtrans %}|{% trans x=name %}Olá, {{ x }}!{% endtrans %}',
    '{% trans count=n %}{{ count }} jogo{% pluralize %}{{ count }} jogos{% endtrans %}',
    '{% set caption = _("Clube") %}{{ caption }}{{ caption|length }}{{ caption is string }}',
    '{% set _ = "rebound" %}{{ _ }}',
    '{% for gettext in ["a"] %}{{ gettext }}{% endfor %}{{ _("Pos.") }}',
    '{% macro m(_) %}{{ _ }}{% endmacro %}{{ m("arg") }}{{ _("Pos.") }}',
    '{% autoescape false %}{{ name }}{{ _("%(x)s", x=name) }}{% endautoescape %}{{ _("Pos.") }}',
    '{{ (_("Pos.") ~ name) }}|{{ [_("Pos."), name]|join(", ") }}|{{ _("Pos.")|upper }}',
    # values of every kind through {{ … }}
    '{{ name }}|{{ n }}|{{ zero }}|{{ neg }}|{{ big }}|{{ flag }}|{{ none }}|{{ dec }}|{{ flt }}|{{ safe }}|{{ html }}'
    '|{{ lazy }}|{{ name|safe }}|{{ name ~ n }}|{{ name|e }}',
    '{% set t %}{{ name }}{% endset %}{{ t }}|{{ t|length }}',
    '{% macro cell(v) %}<td>{{ v }}</td>{% endmacro %}{{ cell(name) }}{{ cell(safe) }}',
    # dicts: keys, and the names that are dict attributes
    '{{ row.pos }}|{{ row.name }}|{{ row["items"] }}|{{ row.items is callable }}|{{ row.values is callable }}'
    '|{{ row.missing is defined }}|{% for r in rows %}{{ r.pos }} {{ r.team }};{% endfor %}',
    '{% for r in rows if r.pos != "2º" %}{{ r.team }}{% endfor %}|{{ row.pos if row.name else rows[1].pos }}'
    '|{{ [row.pos, rows[0].team, rows[1].pos]|join("/") }}|{{ (row.pos ~ rows[0].team)|length }}',
    '{% macro wrap() %}[{{ caller(rows[0]) }}]{% endmacro %}{% call(r) wrap() %}{{ r.team }}{{ row.pos }}{% endcall %}',
    # calls: plain functions and methods, builtins, context functions (in loops and blocks), StopIteration
    '{{ site.url("a", "b") }}|{{ site.url(end="!") }}|{{ fn(1, x=name) }}|{{ "a,b".split(",")|join("+") }}'
    '|{{ range(3)|list }}|{{ dict(a=1).a }}|{{ ctxf(1) }}|{{ cc(2) }}|{{ stop() is defined }}',
    '{% for i in range(2) %}{% set n = i %}{{ ctxf(i) }}{{ cc(i) }}{{ site.url(i|string) }}{% endfor %}|{{ ctxf(9) }}',
    '{% set n = "set" %}{{ ctxf(0) }}{% macro m(x) %}{% set n = x %}{{ ctxf(x) }}{{ cc(x) }}{% endmacro %}{{ m(5) }}',
    '{{ stop() }}',
    '{{ row.missing }}',
    '{{ row.pos.missing }}',
]


@pytest.mark.parametrize("source", CASES)
def test_template_renders_the_same_with_and_without(source):
    fast, plain = _env(True), _env(False)
    assert _render(fast, source, **CTX) == _render(plain, source, **CTX)


@pytest.mark.parametrize("source", CASES[:5])
def test_without_autoescape_too(source):
    assert _render(_env(True, False), source, **CTX) == _render(_env(False, False), source, **CTX)


def test_constant_text_is_compiled_in():
    env = _env(True)
    code = env.compile('<th>{{ _("Pos.") }}</th>{% trans %}Grupos{% endtrans %}{{ pgettext("abbreviation: wins", "V") }}',
                       raw=True)
    assert "<th>Pos.</th>" in code and "'Grupos'" in code and "'V'" in code
    assert "gettext" not in code and "context.call" not in code


def test_english_text_is_compiled_in():
    env = jinja2.Environment(autoescape=True)
    i18n.install(env, "en")
    assert env.from_string('{{ _("Clubes") }}').render() == "Clubs"
    assert "Clubs" in env.compile('{{ _("Clubes") }}', raw=True)


def test_escape_output_is_markupsafes_escape():
    for v in [CTX[k] for k in CTX if k not in ("row", "rows")] + ["", "&amp;", "a\u00a0b", 0, -1, 2 ** 70, False]:
        assert i18n.escape_output(v) == str(escape(v))


LAYOUT = {
    "base.html": '<title>{{ title }} · {{ _("Clubes") }}</title>{% block head %}<meta x="{{ name }}">{% endblock %}'
                 '<main>{% block main %}{% endblock %}</main><p>{{ self.head() }}|{{ row.pos }}</p>',
    "child.html": '{% extends "base.html" %}ignored {{ name }} outside blocks'
                  '{% block main %}<h1>{{ title }}</h1>{% include "part.html" %}{{ super() }}'
                  '{% for r in rows %}<td>{{ r.pos }}</td><td>{{ r.team }}</td>{% endfor %}{% endblock %}',
    "dyn.html": '{% if flag %}{% extends "base.html" %}{% endif %}{% block main %}[{{ n }}]{% endblock %}x{{ n }}y',
    "part.html": '<p>{{ name }} {{ _("%(x)s!", x=n) }}</p>{% from "m.html" import cell %}{{ cell(name) }}',
    "m.html": '{% macro cell(v) %}<td>{{ v }}</td><td>{{ _("Pos.") }}</td>{% endmacro %}',
}


@pytest.mark.parametrize("name", ["base.html", "child.html", "dyn.html", "part.html"])
def test_inheritance_includes_and_streaming(name):
    def env(speed):
        e = _env(speed)
        e.loader = jinja2.DictLoader(LAYOUT)
        return e
    fast, plain = env(True), env(False)
    for ctx in (dict(CTX, title="T<1>"), dict(CTX, title="T", flag=False)):
        expected = plain.get_template(name).render(ctx)
        assert fast.get_template(name).render(ctx) == expected
        assert "".join(fast.get_template(name).generate(ctx)) == expected


def test_globals_of_the_environment_and_of_a_template():
    for speed in (True, False):
        env = _env(speed)
        tpl = env.from_string("{{ late }} {{ own }} {{ STATUS }} {{ own is defined }}", globals={"own": "t<"})
        env.globals.update(late="added after loading", STATUS="global")
        assert tpl.render(STATUS="page") == "added after loading t&lt; page True"
        assert tpl.render() == "added after loading t&lt; global True"
        assert env.from_string("{{ own is defined }}").render() == "False"


def test_with_a_finalize_too():
    def make(speed):
        env = _env(speed)
        env.finalize = lambda v: "∅" if v is None else v
        return env
    for source in CASES:
        assert _render(make(True), source, **CTX) == _render(make(False), source, **CTX), source


def test_dict_subclass_and_objects_keep_jinjas_lookup():
    class D(dict):
        pos = "attribute"

    class O:
        pos = "object"

    env, plain = _env(True), _env(False)
    src = "{{ d.pos }} {{ o.pos }} {{ d.other }}"
    ctx = {"d": D(pos="key", other="k2"), "o": O()}
    assert _render(env, src, **ctx) == _render(plain, src, **ctx) == "attribute object k2"


@pytest.mark.parametrize("locale", ["pt_BR", "en"])
def test_remembered_formats_are_the_formats(locale):
    values = [decimal.Decimal(x) for x in ("0", "-0", "0.00", "2.5", "2.50", "-2.5", "1234.565", "0.005", "1E+3")]
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
