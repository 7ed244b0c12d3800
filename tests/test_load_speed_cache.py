"""What the faster warm load caches besides the stages — clubs/players, Quatrilho championships (with their
classification), the Markdown pages, each stage's classification warnings — is served only while everything it
depends on is unchanged, replays the diagnostics a fresh load reports, and reads back equal to a fresh load."""
from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from league.engine.build import check
from league.content.diagnostics import LeagueError, SourceMark

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def content(tmp_path) -> Path:
    c = tmp_path / "content"
    shutil.copytree(ROOT / "content", c)
    return c


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _api(report):
    from league.site.api import api_files
    return api_files(report.results)


def _diags(report):
    return [(str(d.mark), d.level, d.message, d.hint, d.code) for d in report.diagnostics]


def test_warm_check_equals_cold_check_and_reads_everything_from_the_cache(content, tmp_path):
    cache = tmp_path / "cache"
    fresh = check(content, cache_dir=False)
    cold = check(content, cache_dir=cache)
    warm = check(content, cache_dir=cache)
    assert _api(cold) == _api(fresh) == _api(warm)
    assert _diags(cold) == _diags(fresh) == _diags(warm)
    assert any(d.level == "warning" for d in fresh.diagnostics), "the demo has warnings to replay"
    league = warm.results.league
    assert [p.html for p in league.pages] == [p.html for p in fresh.results.league.pages]
    assert [p.slug for p in league.news] == [p.slug for p in fresh.results.league.news]
    assert league.players == fresh.results.league.players and league.clubs == fresh.results.league.clubs
    # everything came from the cache: stages, championships (with their classification), warnings
    assert set(league.precomputed) == {st.path for s in league.seasons for st in s.stages}
    assert set(league.championship_results) == {c.path for s in league.seasons for c in s.championships}
    assert set(league.stage_warnings) == set(league.precomputed)


def test_changed_player_name_is_not_served_from_the_cache(content, tmp_path):
    cache = tmp_path / "cache"
    check(content, cache_dir=cache)
    _edit(content / "players.yaml", "{name: Neiva Ritter,", "{name: Neiva Ritter Renomeada,")
    after = check(content, cache_dir=cache)
    assert after.results.league.players["neiva-ritter"].name == "Neiva Ritter Renomeada"
    assert _api(after) == _api(check(content, cache_dir=False))


def test_changed_championship_is_recomputed_not_served_from_cache(content, tmp_path):
    cache = tmp_path / "cache"
    before = check(content, cache_dir=cache)
    path = content / "seasons/2026/quatrilho/chapeco.yaml"
    _edit(path, "status: final", "status: in_progress")
    after = check(content, cache_dir=cache)
    champ = {r.championship.id: r for r in after.results.seasons[0].championships}["chapeco"]
    assert champ.championship.status == "in_progress" and not champ.champions
    assert {r.championship.id: r for r in before.results.seasons[0].championships}["chapeco"].champions
    assert any("em andamento" in d.message for d in after.diagnostics if d.mark.path.endswith("chapeco.yaml"))
    assert _api(after) == _api(check(content, cache_dir=False))
    assert _diags(after) == _diags(check(content, cache_dir=False))


def test_changed_page_is_rendered_again(content, tmp_path):
    cache = tmp_path / "cache"
    check(content, cache_dir=cache)
    _edit(content / "pages/sobre.md", "title: Sobre", "title: Sobre a federação")
    after = check(content, cache_dir=cache)
    assert "Sobre a federação" in [p.title for p in after.results.league.pages]
    (content / "pages/nova.md").write_text("---\ntitle: Nova\n---\nTexto *novo*.\n", encoding="utf-8")
    again = check(content, cache_dir=cache)
    assert "<em>novo</em>" in {p.slug: p for p in again.results.league.pages}["nova"].html


def test_registry_errors_are_reported_again_never_cached(content, tmp_path):
    cache = tmp_path / "cache"
    check(content, cache_dir=cache)
    _edit(content / "players.yaml", "club: barigui}", "club: barigi}")
    for _ in range(2):   # the second run must report it just the same
        with pytest.raises(LeagueError) as info:
            check(content, cache_dir=cache)
        assert any('clube desconhecido "barigi"' in d.message for d in info.value.diagnostics)


def test_a_failed_check_caches_no_shared_file(content, tmp_path):
    """clubs, players and pages are cached only when the whole content loads without errors."""
    cache = tmp_path / "cache"
    _edit(content / "league.yaml", "name:", "nome:")
    with pytest.raises(LeagueError):
        check(content, cache_dir=cache)
    from tests.util import cache_entries
    kinds = {type(value[0]).__name__ for _path, _key, value in cache_entries(cache)}
    assert "dict" not in kinds and "list" not in kinds   # (clubs, players, …) and (pages, news, …)


def test_source_marks_and_results_read_back_equal():
    from league.games.truco.ranking import Place
    from league.standings.core import Row
    mark = SourceMark("content/x.yaml", 3, 7)
    back = pickle.loads(pickle.dumps(mark, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == mark and type(back) is SourceMark and back.line == 3 and str(back) == "content/x.yaml:3:7"
    place = Place("a", 1, False, row=Row("a", {"wins": 2}))
    place.note = "extra attribute"
    back = pickle.loads(pickle.dumps(place, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == place and back.note == "extra attribute" and back.row.values == {"wins": 2}


def test_a_no_op_build_imports_neither_the_loader_nor_the_renderer(tmp_path):
    """`league build` with nothing changed stops after hashing the inputs, so it imports only that much:
    not the loader and its schema (pydantic), not the renderer (Jinja2) — ~0.13 s of a 0.2 s no-op."""
    import os
    import subprocess
    import sys
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    env = dict(os.environ, LEAGUE_CACHE_DIR=str(tmp_path / "cache"))
    args = ["build", "--content", str(content), "--out", str(tmp_path / "site"), "--no-search"]
    code = ("import sys; from league.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "heavy = [m for m in ('league.engine.loader', 'league.site.render', 'league.content.schema', 'pydantic', 'jinja2')"
            " if m in sys.modules]\nprint('HEAVY', heavy)")
    first = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    assert "HEAVY ['league.engine.loader', 'league.site.render', 'league.content.schema', 'pydantic', 'jinja2']" in first.stdout
    again = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
    assert again.returncode == 0, again.stderr
    assert "HEAVY []" in again.stdout and " 0 arquivo(s) escrito(s)" in again.stdout + again.stderr
