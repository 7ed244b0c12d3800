"""league.content.yamlio reads a content file from libyaml's events (the fast path, `_fast`) and, at anything that
might need a diagnostic, falls back to composing the file (`_Builder`), which reports it. Both must give
the same values, the same line:column of every key, value and item, and the same diagnostics: checked on
files that take each path, on every file the project ships, and on random documents (hypothesis)."""
from __future__ import annotations

import datetime as dt
import glob
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from league.content import yamlio as Y
from league.content.diagnostics import Diagnostics

ROOT = Path(__file__).resolve().parent.parent


def _shape(x):
    """A value with every mark it carries, for comparison."""
    if isinstance(x, Y.MDict):
        return ("map", x.mark, [(k, type(k).__name__, x.key_marks[k], x.value_marks[k], _shape(v))
                                for k, v in x.items()])
    if isinstance(x, Y.MList):
        return ("seq", x.mark, list(x.marks), [_shape(v) for v in x])
    return (type(x).__name__, x)


def _composed_only(*_args):
    raise Y._Fallback


def _both(text: str, monkeypatch, line_offset: int = 0):
    """(value, diagnostics, whether the fast path gave it) of parse_yaml, and the same composed only."""
    took = []
    fast = Y._fast

    def watched(*args):
        out = fast(*args)
        took.append(True)
        return out
    monkeypatch.setattr(Y, "_fast", watched)
    d1 = Diagnostics()
    a = Y.parse_yaml(text, "f.yaml", d1, line_offset)
    monkeypatch.setattr(Y, "_fast", _composed_only)
    d2 = Diagnostics()
    b = Y.parse_yaml(text, "f.yaml", d2, line_offset)
    monkeypatch.setattr(Y, "_fast", fast)
    return (_shape(a), [d.format_text() for d in d1.items], bool(took)), \
        (_shape(b), [d.format_text() for d in d2.items])


# files with nothing to report: the fast path gives them
PLAIN = [
    "a: 1\nb: [x, 'y', \"z\"]\nc:\n  d: null\n  e: ~\n  f: 2026-03-14\n",
    "- 1\n- -5\n- 0x1f\n- 012\n- 1_000\n- 3.5\n- .inf\n- true\n- no\n- ''\n- 'it''s'\n",
    "k: |\n  linha 1\n  linha 2\nj: >\n  dobrada\n  aqui\n",
    "{a: {b: {c: [1, [2, [3, {d: e}]]]}}}\n",
    "1: um\n2: dois\nx: 2026-01-01 10:30:00\n",
    "---\nhello\n...\n",
    "",
    "# só um comentário\n",
    "---\n",
    "vazio:\nlista: []\nmapa: {}\n",
    "a: b # comentário\n\n\nc: d\n",
    "[" * 41 + "]" * 41 + "\n",          # 41 levels (depth 0 to 40): the deepest allowed
]

# files the fast path leaves to the composed one (which reports what is wrong, or accepts it as before)
OTHER = [
    "a: &x {b: 1}\nc: *x\n",             # alias of a mapping: an error
    "a: &x 1\nb: *x\n",                  # alias of a scalar
    "a: *nada\n",                        # undefined alias
    "a: 1\na: 2\n",                      # repeated key
    "<<: {a: 1}\n",                      # merge key
    "? [a, b]\n: 1\n",                   # a sequence as a key
    ": sem chave\n",                     # empty key
    "~: nulo\n",                         # null key
    "a: !!str 12\nb: !custom x\n",       # explicit tags
    "d: 2026-02-30\n",                   # impossible date
    "a: 1\n---\nb: 2\n",                 # two documents
    "a: [1, 2\n",                        # syntax error
    "a:\n\tb: 1\n",                      # tab
    "a: !!binary aGVsbG8=\n",            # binary
    "a: &anchor {b: 1}\n",               # anchor never used
    "[" * 45 + "]" * 45 + "\n",          # too deep
    "[" * 42 + "]" * 42 + "\n",          # 42 levels: one more than allowed
]


@pytest.mark.parametrize("text", PLAIN)
def test_a_plain_file_takes_the_fast_path_with_the_same_values_and_marks(text, monkeypatch):
    (value, diags, fast), composed = _both(text, monkeypatch)
    assert (value, diags) == composed
    assert fast
    assert diags == []


@pytest.mark.parametrize("text", OTHER)
def test_anything_to_report_is_composed_and_reported_as_before(text, monkeypatch):
    (value, diags, fast), composed = _both(text, monkeypatch)
    assert (value, diags) == composed
    assert not fast


def test_the_values_are_those_a_content_file_means():
    # the fast path itself: ints, dates, nulls, texts and where each was written (line:col, 1-based,
    # shifted by line_offset as a page's front matter is)
    got = Y._fast("id: etapa-1\ndate: 2026-03-14\nboards: [3, '4']\nnone:\n", "f.yaml", 2)
    assert got == {"id": "etapa-1", "date": dt.date(2026, 3, 14), "boards": [3, "4"], "none": None}
    assert tuple(got.kmark("date")) == ("f.yaml", 4, 1) and tuple(got.vmark("date")) == ("f.yaml", 4, 7)
    assert tuple(got["boards"].imark(1)) == ("f.yaml", 5, 13)


def test_every_file_the_project_ships_reads_the_same_both_ways(monkeypatch):
    files = sorted(glob.glob(str(ROOT / "content" / "**" / "*.yaml"), recursive=True)
                   + glob.glob(str(ROOT / "tests" / "**" / "*.yaml"), recursive=True))
    assert len(files) > 10
    for f in files:
        text = Path(f).read_text(encoding="utf-8", errors="replace")
        (value, diags, _fast), composed = _both(text, monkeypatch)
        assert (value, diags) == composed, f


_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                     st.text(max_size=12), st.dates(dt.date(1990, 1, 1), dt.date(2040, 12, 31)),
                     st.sampled_from(["012", "0x1f", "1_000", "yes", "No", "~", "null", "2026-02-30",
                                      "12-7 9-12", "5x0", "a: b", "- x", "#", "<<", "*x", "&a"]))
_docs = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.text(min_size=1, max_size=8), st.integers(0, 99)), inner, max_size=4)),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(_docs, st.booleans(), st.integers(0, 3))
def test_random_documents_read_the_same_both_ways(doc, flow, offset):
    # written by PyYAML (block or flow style), then read both ways
    text = yaml.safe_dump(doc, default_flow_style=flow, allow_unicode=True, sort_keys=False)
    with pytest.MonkeyPatch.context() as mp:
        (value, diags, _fast), composed = _both(text, mp, offset)
    assert (value, diags) == composed
