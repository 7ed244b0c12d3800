"""Incremental builds on a multi-season archive (bench/synth.py): a chain of edits, each rebuilt into the
same site/ with the same cache, must give byte-identical output to a cold build of the same content.
Pages span seasons (clubs, teams, pairs, players), so a page that a rebuild wrongly keeps shows up here.
Also: a one-score rebuild renders only the pages that depend on the changed stage. The search index is built
too, so a re-index that reads the stubs of kept pages back from site/ (a stage renamed) is compared as well."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from league.engine.build import build
from tests.util import synth

ROOT = Path(__file__).resolve().parent.parent


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _edit(path: Path, pattern: str, repl, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(pattern, repl, text, count=count)
    assert n, f"{pattern!r} not in {path}"
    path.write_text(new, encoding="utf-8")


def score(c: Path) -> None:
    # the middle season: the first game "12-n" of a board becomes "12-(n+1)" (same winner, new pontinhos)
    _edit(c / "seasons/2025/truco/etapa-2.yaml", r'"12-(\d) ', lambda m: f'"12-{(int(m.group(1)) + 1) % 11} ')


def team_name(c: Path) -> None:
    _edit(c / "seasons/2026/truco/etapa-3.yaml", r"(\n  [a-z0-9-]+:\n)(    name: )?", r"\1    name: Equipe Renomeada\n")


def player_name(c: Path) -> None:
    _edit(c / "players.yaml", r"\{name: ", "{name: Renomeado ")


def stage_name(c: Path) -> None:
    _edit(c / "seasons/2024/truco/etapa-1.yaml", r'name: "', 'name: "Etapa Renomeada ')


def quatrilho(c: Path) -> None:
    q = sorted((c / "seasons/2025/quatrilho").glob("*.yaml"))[0]
    _edit(q, r'name: "', 'name: "Campeonato Renomeado ')


def season_title(c: Path) -> None:
    _edit(c / "seasons/2025/season.yaml", r"title: .*", "title: Temporada Renomeada")


def news(c: Path) -> None:
    (c / "news" / "2025-05-01-etapa-2.md").write_text(
        "---\ntitle: Notícia da etapa\ndate: 2025-05-01\nseason: \"2025\"\nstage: etapa-2\n---\nTexto.\n",
        encoding="utf-8")


def delete_stage(c: Path) -> None:
    (c / "seasons/2025/truco/etapa-6.yaml").unlink()


EDITS = [score, team_name, player_name, stage_name, quatrilho, season_title, news, delete_stage]


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("archive")
    synth(root / "content", "--seasons", "3", "--teams", "8", "--championships", "2", "--seed", "3")
    return root


def test_chain_of_incremental_builds_equals_cold_builds(archive, tmp_path):
    import shutil
    content = tmp_path / "content"
    shutil.copytree(archive / "content", content)
    site, cache = tmp_path / "site", tmp_path / "cache"
    first = build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)
    assert first.rendered > 100
    for i, edit in enumerate(EDITS):
        edit(content)
        report = build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)
        cold = tmp_path / f"cold-{i}"
        build(content, cold, templates=ROOT / "league" / "templates", cache_dir=False)
        assert _tree(site) == _tree(cold), f"after {edit.__name__}"
        if edit is score:
            # the changed stage's page, its season, the pages of its teams, clubs, pairs and players, and
            # the always-rendered summaries (home, lists, search, news): far fewer than the whole site
            assert 0 < report.rendered < first.rendered / 2, (report.rendered, first.rendered)


def test_a_rebuild_works_out_only_the_keys_of_pages_in_the_changed_season(archive, tmp_path, monkeypatch):
    # (league.engine.incremental.PageKeys.for_page) after a score edit in 2025, a pair or player page that shows no
    # 2025 stage keeps the key the previous build recorded: its key is not worked out again. The edit still
    # gives the site a cold build gives (test above); this checks that the rebuild did not do it the long way
    import shutil
    from league.engine.incremental import PageKeys
    content = tmp_path / "content"
    shutil.copytree(archive / "content", content)
    site, cache = tmp_path / "site", tmp_path / "cache"
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)
    worked_out: dict = {"pair": [], "player": []}
    seasons: dict = {}
    pair_key, player_key = PageKeys.pair, PageKeys.player

    def pair(self, p):
        worked_out["pair"].append(p)
        seasons[p] = {sr.season.year for sr, _res, _p in self.site.pair_hist[p]}
        return pair_key(self, p)

    def player(self, pid):
        worked_out["player"].append(pid)
        seasons[pid] = {sr.season.year for pair in self.site.player_pairs.get(pid, ())
                        for sr, _res, _p in self.site.pair_hist[pair]} | set(self.q_players.get(pid, ()))
        return player_key(self, pid)
    monkeypatch.setattr(PageKeys, "pair", pair)
    monkeypatch.setattr(PageKeys, "player", player)
    score(content)
    build(content, site, templates=ROOT / "league" / "templates", cache_dir=cache)
    assert worked_out["pair"] and worked_out["player"]
    assert all("2025" in seasons[p] for p in worked_out["pair"]), "a pair page without a 2025 stage was keyed again"
    assert all("2025" in seasons[p] for p in worked_out["player"]), "a player page without 2025 was keyed again"
    pages = {p.name for p in (site / "duplas").iterdir()}
    assert len(worked_out["pair"]) < len(pages) * 0.8, (len(worked_out["pair"]), len(pages))
