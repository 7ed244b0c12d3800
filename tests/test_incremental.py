"""An incremental build (warm cache, previous site in place) gives byte-identical output to a cold build
of the same content: after changing a score, deleting a stage, renaming a club and changing league.yaml."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from league.build import build

ROOT = Path(__file__).resolve().parent.parent


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _change_score(c: Path) -> None:

    stage = c / "seasons/2026/truco/etapa-4.yaml"
    text = stage.read_text(encoding="utf-8")
    # the first plain board line "12-a b-12 …": swap its first game's loser pontinhos by one point
    import re
    m = re.search(r'"12-(\d) ', text)
    assert m
    pts = int(m.group(1))
    stage.write_text(text[:m.start()] + f'"12-{(pts + 1) % 11} ' + text[m.end():], encoding="utf-8")


def _delete_stage(c: Path) -> None:
    (c / "seasons/2026/truco/etapa-4.yaml").unlink()
    for news in (c / "news").glob("*.md"):
        text = news.read_text(encoding="utf-8")
        if "etapa-4" in text:
            news.unlink()


def _rename_club(c: Path) -> None:
    _edit(c / "clubs.yaml", "name: ", "name: Renomeado ")


def _change_league(c: Path) -> None:
    _edit(c / "league.yaml", "ranking_points: [20, 16, 12, 8, 6, 4, 3, 2]",
          "ranking_points: [25, 21, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]")


@pytest.mark.parametrize("change", [_change_score, _delete_stage, _rename_club, _change_league],
                         ids=["score", "delete-stage", "rename-club", "league-yaml"])
def test_incremental_build_equals_cold_build(tmp_path, change):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    cache = tmp_path / "cache"
    site = tmp_path / "site"
    build(content, site, templates=ROOT / "templates", cache_dir=cache)   # warm cache, previous site
    change(content)
    report = build(content, site, templates=ROOT / "templates", cache_dir=cache)
    assert report.unchanged > 0, "the incremental build reuses unchanged files"
    build(content, tmp_path / "cold", templates=ROOT / "templates", cache_dir=False)
    assert _tree(site) == _tree(tmp_path / "cold")
