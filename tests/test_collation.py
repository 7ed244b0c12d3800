"""Lists of names in pt-BR alphabetical order (issue 36, item 5): accents and case ignored, as a Brazilian
reader looks a name up — "Fábio" before "Francisco", "Cláudia" before "Cleber" (a code-point sort puts every
accented or lower-case initial after "Z")."""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from league.i18n import collation_key

ROOT = Path(__file__).resolve().parent.parent


def test_accents_and_case_are_ignored():
    names = ["Francisco", "Fábio", "Cleber", "Cláudia", "álvaro", "Bruno", "Zélia", "Ênio", "Édson"]
    # folded: francisco, fabio, cleber, claudia, alvaro, bruno, zelia, enio, edson
    assert sorted(names, key=collation_key) == ["álvaro", "Bruno", "Cláudia", "Cleber", "Édson", "Ênio",
                                                "Fábio", "Francisco", "Zélia"]
    assert sorted(names) != sorted(names, key=collation_key)   # what a plain sort would have done


def test_equal_but_for_accents_keep_one_order():
    assert sorted(["José", "Jose", "jose"], key=collation_key) == sorted(["jose", "José", "Jose"], key=collation_key)


def test_the_players_and_clubs_pages_list_names_in_that_order(tmp_path):
    from league.engine.build import build
    out = tmp_path / "site"
    build(ROOT / "content", out, templates=ROOT / "league" / "templates", cache_dir=tmp_path / "cache", search=False)
    for page, pattern in (("jogadores/index.html", r'<li><a href="/jogadores/[^"]+/">([^<]+)</a>'),
                          ("clubes/index.html", r'<li><a href="/clubes/[^"]+/">([^<]+)</a>')):
        names = [unescape(n) for n in re.findall(pattern, (out / page).read_text(encoding="utf-8"))]
        assert len(names) > 10, page
        assert names == sorted(names, key=collation_key), page
