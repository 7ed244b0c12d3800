"""Constant interface text is translated once, when a template is compiled (league/i18n.py, ConstantText), and
that changes no output: every page of the demo site, in both languages, and small templates pinning the corner
cases (escaping, `%`, names a template rebinds, attribute, filter and call-block positions, errors) render the
same with and without it."""
from __future__ import annotations

import decimal
import shutil
from pathlib import Path

import jinja2
import pytest
from markupsafe import Markup

from league import i18n

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def default_locale():
    i18n.activate("pt_BR")
    yield
    i18n.activate("pt_BR")


def _without_constant_text(monkeypatch):
    monkeypatch.setattr(i18n, "_constant_calls", lambda tokens: None)


# ---------------------------------------------------------------- the whole demo site

@pytest.mark.skipif(not (ROOT / "content" / "league.yaml").exists(), reason="no demo content")
@pytest.mark.parametrize("locale", ["pt_BR", "en"])
def test_demo_site_is_byte_identical_without_constant_text(tmp_path, monkeypatch, locale):
    from league.engine.build import check, render_files
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    yaml = content / "league.yaml"
    text = yaml.read_text(encoding="utf-8")
    assert "locale: pt_BR" in text
    yaml.write_text(text.replace("locale: pt_BR", f"locale: {locale}"), encoding="utf-8")
    results = check(content, cache_dir=False).results
    fast = render_files(results, templates=ROOT / "league" / "templates")
    with monkeypatch.context() as m:
        _without_constant_text(m)
        plain = render_files(results, templates=ROOT / "league" / "templates")
    assert sorted(fast) == sorted(plain)
    assert len([p for p in plain if p.endswith(".html")]) > 50
    differ = [p for p in plain if fast[p] != plain[p]]
    assert not differ, f"{len(differ)} files differ, e.g. {differ[:5]}"


# ---------------------------------------------------------------- corner cases, template by template

def _render(fast: bool, source: str, autoescape=True, finalize=None, locale="pt_BR", **ctx):
    env = jinja2.Environment(loader=jinja2.DictLoader({}), autoescape=autoescape, finalize=finalize,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    i18n.install(env, locale)
    with pytest.MonkeyPatch.context() as m:
        if not fast:
            _without_constant_text(m)
        try:
            return env.from_string(source).render(**ctx)
        except Exception as e:  # the same failure, or the same text
            return ("raised", type(e))


@jinja2.pass_context
def _with_context(context, x):
    return f"{x}:{context.get('n')}"


CTX = {"name": "Zé & <Cia> \"aspas\" 'apóstrofo'", "n": 3, "none": None, "dec": decimal.Decimal("2.50"),
       "safe": Markup("<i>ok</i>"), "flag": False, "row": {"_": "chave", "pos": "1º"},
       "obj": type("O", (), {"_": staticmethod(lambda s: "método " + s)})(), "ctxf": _with_context}

CASES = [
    '{{ _("Pos.") }}|{{ _("Clubes") }}|{{ gettext("Jogadores") }}|{{ _(\'Clubes\') }}',
    '{{ _("texto que não está no catálogo & <b>marcação</b> 100%% certo") }}',
    '{{ _("%(x)s e %(y)s", x=name, y=n) }}|{{ _("%(x)s e %(x)s, %%", x=safe) }}',
    '{{ _("%(x)s") }}',                                    # a variable missing: fails at render time
    '{{ _("100% certo") }}',                               # a lone %: fails at render time too
    '{{ _("%(x)s", x=missing_name) }}',                    # an undefined variable (StrictUndefined)
    '{{ _("sem variável", x=1) }}|{{ _("Pos.",) }}|{{ _("Po" "s.") }}|{{ _() is defined }}',
    '{{ _(name) }}|{{ gettext(name ~ "x") }}',
    '{{ pgettext("abbreviation: wins", "V") }} {{ pgettext("ctx", "%(context)s: %(n)s", n=n) }}'
    '|{{ pgettext("ctx", "só %(context)s") }}|{{ pgettext("abbreviation: wins", name) }}',
    '{{ ngettext("%(num)s jogo", "%(num)s jogos", 1) }} {{ ngettext("%(num)s jogo", "%(num)s jogos", n) }}',
    '{% trans %}Grupos{% endtrans %}|{% trans x=name %}Olá, {{ x }}!{% endtrans %}|{% trans x=_("Pos.") %}'
    '{{ x }}!{% endtrans %}',
    '{% set caption = _("Clube") %}{{ caption }}{{ caption|length }}{{ caption is string }}{{ caption ~ name }}',
    '{{ (_("Pos.") ~ name) }}|{{ [_("Pos."), name]|join(", ") }}|{{ _("Pos.")|upper }}|{{ _("Pos.")[0] }}'
    '|{{ _("Pos.").lower() }}|{{ {"k": _("Clubes")}.k }}|{{ "%s!" % _("Clubes") }}|{{ -_("x")|length }}',
    '{% if _("Pos.") == "Pos." and not _("x") in name %}sim{% elif _("y") %}não{% else %}{{ _("z") }}{% endif %}'
    '{{ _("a") if flag else _("b") }}',
    '{% macro cap(c, d=_("Clubes")) %}<caption>{{ c }} {{ d }}</caption>{% endmacro %}'
    '{{ cap(_("%(a)s: %(a)s", a=name)) }}{{ cap(_("Pos.")) }}',
    '{% macro wrap() %}[{{ caller() }}]{% endmacro %}{% call wrap() %}{{ _("Pos.") }}{% endcall %}',
    '{% call _("Pos.") %}ignored{% endcall %}',
    '{{ row._ }}|{{ obj._("Pos.") }}|{{ row.pos }}',
    '{{ ctxf(_("Pos.")) }}|{{ _("Pos.") is string }}',
    # a template that binds or passes on one of the names keeps all its calls
    '{% set _ = "rebound" %}{{ _ }}',
    '{% set gettext = ctxf %}{{ _("Pos.") }}{{ gettext("x") }}',
    '{% for gettext in ["a"] %}{{ gettext }}{% endfor %}{{ _("Pos.") }}',
    '{% macro m(_) %}{{ _ }}{% endmacro %}{{ m("arg") }}{{ _("Pos.") }}',
    '{% macro _(x) %}macro {{ x }}{% endmacro %}{{ _("Pos.") }}',
    '{% set f = _ %}{{ f("Pos.") }}{{ _("Pos.") }}',
    '{% with pgettext = ctxf %}{{ pgettext("Pos.") }}{% endwith %}{{ pgettext("abbreviation: wins", "V") }}',
    # escaping switched off, or known only at render time
    '{% autoescape false %}{{ name }}{{ _("a & <b>") }}{{ _("%(x)s", x=name) }}{% endautoescape %}{{ _("a & b") }}',
    '{% autoescape flag %}{{ _("a & <b>") }}{{ name }}{% endautoescape %}{% autoescape not flag %}{{ _("a & b") }}'
    '{% endautoescape %}',
    '{{ none }}{{ dec }}{{ _("Pos.") }}{% set t %}{{ _("Pos.") }}{{ name }}{% endset %}{{ t }}|{{ t|length }}',
]


@pytest.mark.parametrize("source", CASES)
@pytest.mark.parametrize("locale", ["pt_BR", "en"])
def test_template_renders_the_same_with_and_without(source, locale):
    assert _render(True, source, locale=locale, **CTX) == _render(False, source, locale=locale, **CTX)


@pytest.mark.parametrize("source", CASES)
def test_without_autoescape_and_with_a_finalize_too(source):
    assert _render(True, source, autoescape=False, **CTX) == _render(False, source, autoescape=False, **CTX)

    def finalize(v):
        return "∅" if v is None else v
    assert _render(True, source, finalize=finalize, **CTX) == _render(False, source, finalize=finalize, **CTX)


def test_constant_text_is_compiled_in():
    env = jinja2.Environment(autoescape=True)
    i18n.install(env, "en")
    code = env.compile('<th>{{ _("Pos.") }}</th>{{ gettext("Clubes") }}{{ pgettext("abbreviation: wins", "V") }}'
                       '{% set c = _("Jogadores") %}', raw=True)
    assert "<th>Pos.</th>ClubsW" in code and "Markup('Players')" in code
    assert "context.call" not in code and "resolve('_')" not in code and "gettext')" not in code
    code = env.compile('{% set _ = 1 %}{{ _("Pos.") }}', raw=True)   # rebound: left as it is
    assert "l_0__), 'Pos.')" in code and "_league_gettext" not in code
