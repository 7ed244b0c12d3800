"""`row.pos` on a plain dict is read at once (league.site.render.SiteEnvironment.getattr), with the result Jinja2's
own getattr gives: the attribute when dict has one (`items`, `get`…), else the key, else undefined; dict
subclasses and other objects keep Jinja2's lookup."""
from __future__ import annotations

import jinja2
import pytest

from league.site.render import SiteEnvironment


class D(dict):
    pos = "attribute of a subclass"


class O:
    pos = "attribute of an object"

    def __getitem__(self, key):
        return "item " + key


CTX = {"row": {"pos": "1º", "team": "A&B", "items": "chave items", "get": 7, "__class__": "k", "n": {"x": [1, 2]}},
       "rows": [{"pos": "1º", "team": "A<B"}, {"pos": "2º", "team": "C"}], "d": D(pos="key", other="k2"), "o": O(),
       "s": "texto", "none": None}

CASES = [
    "{{ row.pos }}|{{ row.team }}|{{ row.n.x }}|{{ row.n.x.1 }}|{% for r in rows %}{{ r.pos }} {{ r.team }};{% endfor %}",
    "{{ row.items is callable }}|{{ row.get is callable }}|{{ row.__class__ }}|{{ row['items'] }}|{{ row.values()|list|length }}",
    "{{ row.missing is defined }}|{{ row.missing.deeper is defined }}|{{ row.missing|default('∅') }}",
    "{{ row.missing }}",
    "{{ row.pos.missing }}",
    "{{ d.pos }}|{{ d.other }}|{{ d.missing is defined }}|{{ o.pos }}|{{ o.other }}|{{ s.upper() }}|{{ none.x is defined }}",
    "{{ rows|map(attribute='team')|join(',') }}|{{ rows|sort(attribute='pos', reverse=true)|map(attribute='pos')|join }}",
    "{% set ns = namespace(x=1) %}{% set ns.x = row.pos %}{{ ns.x }}|{{ {'a': row}.a.team }}",
]


def _render(env_class, source: str, undefined):
    env = env_class(autoescape=True, undefined=undefined)
    try:
        return env.from_string(source).render(CTX)
    except Exception as e:
        return ("raised", type(e), str(e))


@pytest.mark.parametrize("undefined", [jinja2.StrictUndefined, jinja2.Undefined, jinja2.ChainableUndefined])
@pytest.mark.parametrize("source", CASES)
def test_site_environment_reads_what_jinja2_reads(source, undefined):
    assert _render(SiteEnvironment, source, undefined) == _render(jinja2.Environment, source, undefined)
