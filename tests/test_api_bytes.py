"""The API's JSON is written by orjson when it is installed (league/site/apiformat.py `dumps`), for speed: the bytes must
be the ones `json.dumps(indent=2, ensure_ascii=False)` writes, since the files are a public contract and a
rebuild compares bytes. Checked on the demo's every JSON and CSV file, on any value of the shapes the API
holds (hypothesis), and on the values orjson refuses, which go through json."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.site import api, apiformat

ROOT = Path(__file__).resolve().parent.parent
orjson = pytest.importorskip("orjson")


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


@pytest.mark.skipif(not (ROOT / "content" / "league.yaml").exists(), reason="no demo content")
def test_demo_api_files_are_the_same_with_json_alone(monkeypatch):
    from league.engine.build import check
    from league.i18n import using
    results = check(ROOT / "content", cache_dir=False).results
    with using(results.league.locale):
        fast = api.api_files(results)
        monkeypatch.setattr(apiformat, "orjson", None)
        slow = api.api_files(results)
    assert any(p.endswith(".json") for p in fast) and any(p.endswith(".csv") for p in fast)
    assert fast == slow


# what api.py puts in its JSON: text (any character), whole numbers, num()'s floats with 2 decimals,
# booleans, null, in lists and text-keyed objects, empty ones included
_points = st.decimals(min_value=-100_000, max_value=100_000, places=2, allow_nan=False,
                      allow_infinity=False).map(api.num)
_leaf = st.none() | st.booleans() | st.integers(-(2 ** 63), 2 ** 63 - 1) | st.text() | _points
_value = st.recursive(_leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                      max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(_value)
def test_dumps_writes_what_json_writes(value):
    assert api.dumps(value) == _json(value)


@pytest.mark.parametrize("value", [
    {"big": 2 ** 70},                  # beyond 64 bits: orjson refuses, json writes it
    ["\ud83d"],                        # a lone surrogate (a YAML "\ud83d" escape): orjson refuses
    {"a": [], "b": {}, "c": [{}]},     # empty containers stay on one line
    {"t": "aspas \" barra \\ nova\nlinha \x01 \u2028 é ç 🂡"},   # escapes and characters kept as they are
    {"p": [8.67, 0.5, -0.25, 20, 0.0]},
])
def test_dumps_corner_cases(value):
    assert api.dumps(value) == _json(value)


def test_csv_columns_follow_the_first_row():
    # "a,b" header; lists joined by spaces, dicts as k=v;…, None empty, booleans lower-case
    rows = [{"a": ["x", "y"], "b": {"k": 1, "j": 2}}, {"a": None, "b": True}]
    assert api.to_csv(rows) == "a,b\nx y,k=1;j=2\n,true\n"
    with pytest.raises(KeyError):
        api.to_csv([{"a": 1, "b": 2}, {"a": 1, "c": 2}])
    with pytest.raises(ValueError):
        api.to_csv([{"a": 1}, {"a": 1, "b": 2}])
