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

from league.build import build
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
    first = build(content, site, templates=ROOT / "templates", cache_dir=cache)
    assert first.rendered > 100
    for i, edit in enumerate(EDITS):
        edit(content)
        report = build(content, site, templates=ROOT / "templates", cache_dir=cache)
        cold = tmp_path / f"cold-{i}"
        build(content, cold, templates=ROOT / "templates", cache_dir=False)
        assert _tree(site) == _tree(cold), f"after {edit.__name__}"
        if edit is score:
            # the changed stage's page, its season, the pages of its teams, clubs, pairs and players, and
            # the always-rendered summaries (home, lists, search, news): far fewer than the whole site
            assert 0 < report.rendered < first.rendered / 2, (report.rendered, first.rendered)
